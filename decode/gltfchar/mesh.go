package gltfchar

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
	qg "github.com/qmuntal/gltf"
)

// meshKey names a converted mesh: a glTF mesh, with the skin whose inverse
// bind matrices it carries (-1: none).
type meshKey struct{ mesh, skin int }

// meshes converts every mesh drawn by a node of the rig, in rig order.
func (d *decoder) meshes(h *hier, f frame) ([]model.MeshInstance, error) {
	var out []model.MeshInstance
	plain := map[int]*decodedMesh{}
	skinned := map[meshKey]*model.Mesh{}
	type skinData struct {
		joints []int
		binds  []model.Mat4
	}
	skins := map[int]skinData{}
	for ri, g := range h.gltf {
		if g < 0 || d.doc.Nodes[g].Mesh == nil {
			continue
		}
		n := d.doc.Nodes[g]
		mi := *n.Mesh
		elem := fmt.Sprintf("node %d", g)
		if mi < 0 || mi >= len(d.doc.Meshes) || d.doc.Meshes[mi] == nil {
			return nil, d.malformed(elem, "mesh %d does not exist (%d meshes)", mi, len(d.doc.Meshes))
		}
		dm := plain[mi]
		if dm == nil {
			var err error
			if dm, err = d.mesh(mi, f); err != nil {
				return nil, err
			}
			plain[mi] = dm
		}
		if dm.mesh.VertexCount == 0 {
			continue
		}
		inst := model.MeshInstance{Node: ri, Mesh: dm.mesh, Materials: dm.materials}
		w := n.Weights
		if len(w) == 0 {
			w = d.doc.Meshes[mi].Weights
		}
		if err := d.charge(elem, 64+4*int64(len(dm.mesh.BlendShapes))+16*int64(len(dm.materials))); err != nil {
			return nil, err
		}
		if len(dm.mesh.BlendShapes) > 0 {
			inst.BlendShapeWeights = make([]float32, len(dm.mesh.BlendShapes))
			for k := 0; k < len(w) && k < len(inst.BlendShapeWeights); k++ {
				inst.BlendShapeWeights[k] = float32(w[k] * 100)
			}
		}
		if n.Skin != nil {
			si := *n.Skin
			if !dm.skinned {
				return nil, d.malformed(elem, "skin %d on mesh %d, whose primitives have no JOINTS_0/WEIGHTS_0", si, mi)
			}
			key := meshKey{mi, si}
			m := skinned[key]
			sd, ok := skins[si]
			if !ok {
				var err error
				if sd.joints, sd.binds, err = d.skin(si, h, f); err != nil {
					return nil, err
				}
				skins[si] = sd
			}
			joints, binds := sd.joints, sd.binds
			if dm.maxJoint >= len(joints) {
				return nil, d.malformed(fmt.Sprintf("mesh %d", mi), "a vertex names joint %d of skin %d, which has %d joints", dm.maxJoint, si, len(joints))
			}
			if m == nil {
				c := *dm.mesh
				c.BindPoses = binds
				m = &c
				skinned[key] = m
			}
			inst.Mesh, inst.Joints = m, joints
		}
		out = append(out, inst)
	}
	return out, nil
}

// skin returns a skin's joints as rig nodes (-1: a node outside the
// scene) and its inverse bind matrices as Unity bind poses.
func (d *decoder) skin(si int, h *hier, f frame) ([]int, []model.Mat4, error) {
	elem := fmt.Sprintf("skin %d", si)
	if si < 0 || si >= len(d.doc.Skins) || d.doc.Skins[si] == nil {
		return nil, nil, d.malformed(elem, "does not exist (%d skins)", len(d.doc.Skins))
	}
	s := d.doc.Skins[si]
	if len(s.Joints) == 0 || len(s.Joints) > math.MaxUint16+1 {
		return nil, nil, d.malformed(elem, "%d joints", len(s.Joints))
	}
	if err := d.charge(elem, 72*int64(len(s.Joints))); err != nil {
		return nil, nil, err
	}
	joints := make([]int, len(s.Joints))
	for k, j := range s.Joints {
		if j < 0 || j >= len(h.rigOf) {
			return nil, nil, d.malformed(elem, "joint %d is node %d, which does not exist", k, j)
		}
		joints[k] = h.rigOf[j]
	}
	binds := make([]model.Mat4, len(joints))
	if s.InverseBindMatrices == nil {
		for k := range binds {
			binds[k] = model.Mat4{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}}
		}
		return joints, binds, nil
	}
	v, _, err := d.floats(*s.InverseBindMatrices, qg.AccessorMat4)
	if err != nil {
		return nil, nil, within(elem+": inverseBindMatrices", err)
	}
	if len(v) < 16*len(joints) {
		return nil, nil, d.malformed(elem, "%d inverse bind matrices for %d joints", len(v)/16, len(joints))
	}
	for k := range binds {
		binds[k] = f.mat([16]float32(v[16*k : 16*k+16]))
	}
	return joints, binds, nil
}

// decodedMesh is a glTF mesh converted once, shared by the nodes that draw
// it.
type decodedMesh struct {
	mesh      *model.Mesh
	materials []model.Material
	skinned   bool // every primitive has JOINTS_0 and WEIGHTS_0
	maxJoint  int  // the largest joint index a vertex uses with weight
}

// primData is one primitive's vertices, converted.
type primData struct {
	n        int
	pos, nrm [][3]float32
	tan      [][4]float32
	uv       [8][][2]float32
	col      [][4]float32
	infl     [][]model.Influence // per vertex, largest first, summing to 1
	targets  []targetData
}

type targetData struct{ pos, nrm, tan [][3]float32 }

// mesh converts glTF mesh mi: its primitives are the sub-meshes of one
// model.Mesh. Primitives that share their vertex accessors (as exporters
// write a mesh with several materials) share one vertex list; otherwise
// each primitive's vertices follow the previous ones'.
func (d *decoder) mesh(mi int, f frame) (*decodedMesh, error) {
	gm := d.doc.Meshes[mi]
	elem := fmt.Sprintf("mesh %d", mi)
	m := &model.Mesh{Name: gm.Name}
	if m.Name == "" {
		m.Name = fmt.Sprintf("mesh_%d", mi)
	}
	dm := &decodedMesh{mesh: m, skinned: len(gm.Primitives) > 0, maxJoint: -1}
	if len(gm.Primitives) == 0 {
		return dm, nil
	}
	shared := true
	for _, p := range gm.Primitives[1:] {
		if p == nil || gm.Primitives[0] == nil || !maps.Equal(p.Attributes, gm.Primitives[0].Attributes) || !sameTargets(p.Targets, gm.Primitives[0].Targets) {
			shared = false
		}
	}
	var prims []*primData
	base := make([]int, len(gm.Primitives))
	for pi, p := range gm.Primitives {
		pelem := fmt.Sprintf("%s primitive %d", elem, pi)
		if p == nil {
			return nil, d.malformed(pelem, "null")
		}
		_, hasJ := p.Attributes["JOINTS_0"]
		_, hasW := p.Attributes["WEIGHTS_0"]
		dm.skinned = dm.skinned && hasJ && hasW
		if shared && pi > 0 {
			base[pi] = 0
			continue
		}
		pd, err := d.primitive(pelem, p, f, &dm.maxJoint)
		if err != nil {
			return nil, err
		}
		if pi > 0 && len(pd.targets) != len(prims[0].targets) {
			return nil, d.malformed(pelem, "%d morph targets where primitive 0 has %d", len(pd.targets), len(prims[0].targets))
		}
		base[pi] = m.VertexCount
		if int64(m.VertexCount)+int64(pd.n) > math.MaxInt32 {
			return nil, d.malformed(elem, "more than %d vertices", math.MaxInt32)
		}
		m.VertexCount += pd.n
		prims = append(prims, pd)
	}
	if err := d.charge(elem, 128*int64(m.VertexCount)); err != nil {
		return nil, err
	}
	d.joinVertices(elem, m, prims)
	if err := d.blendShapes(gm, m, prims); err != nil {
		return nil, err
	}
	for pi, p := range gm.Primitives {
		pelem := fmt.Sprintf("%s primitive %d", elem, pi)
		n := m.VertexCount
		if !shared {
			n = prims[pi].n
		}
		idx, topo, err := d.indices(pelem, mi, pi, p, n)
		if err != nil {
			return nil, err
		}
		sm := model.SubMesh{FirstIndex: len(m.Indices), IndexCount: len(idx), Topology: topo}
		lo, hi := uint32(math.MaxUint32), uint32(0)
		for k := range idx {
			idx[k] += uint32(base[pi])
			lo, hi = min(lo, idx[k]), max(hi, idx[k])
		}
		if len(idx) > 0 {
			sm.FirstVertex, sm.VertexCount = int(lo), int(hi-lo)+1
			sm.Bounds = bounds(m.Positions[lo : hi+1])
		}
		m.Indices = append(m.Indices, idx...)
		m.SubMeshes = append(m.SubMeshes, sm)
		mat := model.Material{}
		if p.Material != nil {
			k := *p.Material
			if k < 0 || k >= len(d.doc.Materials) || d.doc.Materials[k] == nil {
				return nil, d.malformed(pelem, "material %d does not exist (%d materials)", k, len(d.doc.Materials))
			}
			mat = d.material(k)
		}
		dm.materials = append(dm.materials, mat)
	}
	m.Bounds = bounds(m.Positions)
	return dm, nil
}

// sameTargets reports whether two primitives' morph targets use the same
// accessors.
func sameTargets(a, b []qg.PrimitiveAttributes) bool {
	return slices.EqualFunc(a, b, func(x, y qg.PrimitiveAttributes) bool { return maps.Equal(x, y) })
}

// primitive decodes one primitive's vertex attributes and morph targets
// into Unity's frame. maxJoint is raised to the largest joint index a
// vertex uses.
func (d *decoder) primitive(elem string, p *qg.Primitive, f frame, maxJoint *int) (*primData, error) {
	pi, ok := p.Attributes[qg.POSITION]
	if !ok {
		return nil, d.malformed(elem, "no POSITION")
	}
	pos, _, err := d.floats(pi, qg.AccessorVec3)
	if err != nil {
		return nil, within(elem+": POSITION", err)
	}
	pd := &primData{n: len(pos) / 3}
	vec3s := func(attr string, v []float32) ([][3]float32, error) {
		if len(v) != 3*pd.n {
			return nil, d.malformed(elem, "%s has %d elements for %d vertices", attr, len(v)/3, pd.n)
		}
		if err := d.charge(elem+": "+attr, 12*int64(pd.n)); err != nil {
			return nil, err
		}
		out := make([][3]float32, pd.n)
		for i := range out {
			out[i] = f.arr([3]float32(v[3*i : 3*i+3]))
		}
		return out, nil
	}
	if pd.pos, err = vec3s("POSITION", pos); err != nil {
		return nil, err
	}
	for _, a := range slices.Sorted(maps.Keys(p.Attributes)) {
		acc := p.Attributes[a]
		wrap := func(err error) error { return within(elem+": "+a, err) }
		switch {
		case a == qg.NORMAL:
			v, _, err := d.floats(acc, qg.AccessorVec3)
			if err != nil {
				return nil, wrap(err)
			}
			if pd.nrm, err = vec3s(a, v); err != nil {
				return nil, err
			}
		case a == qg.TANGENT:
			v, _, err := d.floats(acc, qg.AccessorVec4)
			if err != nil {
				return nil, wrap(err)
			}
			if len(v) != 4*pd.n {
				return nil, d.malformed(elem, "TANGENT has %d elements for %d vertices", len(v)/4, pd.n)
			}
			if err := d.charge(elem+": TANGENT", 16*int64(pd.n)); err != nil {
				return nil, err
			}
			pd.tan = make([][4]float32, pd.n)
			for i := range pd.tan {
				t := f.arr([3]float32(v[4*i : 4*i+3]))
				// A mirror flips the tangent frame's handedness.
				pd.tan[i] = [4]float32{t[0], t[1], t[2], -v[4*i+3]}
			}
		case strings.HasPrefix(a, "TEXCOORD_"):
			k, err := strconv.Atoi(a[len("TEXCOORD_"):])
			if err != nil || k < 0 || k >= len(pd.uv) {
				d.warn("%s: attribute %s left out (UV channels 0..7 are kept)", elem, a)
				continue
			}
			v, _, err := d.floats(acc, qg.AccessorVec2)
			if err != nil {
				return nil, wrap(err)
			}
			if len(v) != 2*pd.n {
				return nil, d.malformed(elem, "%s has %d elements for %d vertices", a, len(v)/2, pd.n)
			}
			if err := d.charge(elem+": "+a, 8*int64(pd.n)); err != nil {
				return nil, err
			}
			uv := make([][2]float32, pd.n)
			for i := range uv {
				uv[i] = [2]float32{v[2*i], 1 - v[2*i+1]} // glTF's v runs down, Unity's up
			}
			pd.uv[k] = uv
		case a == qg.COLOR_0:
			v, comps, err := d.floats(acc, qg.AccessorVec3, qg.AccessorVec4)
			if err != nil {
				return nil, wrap(err)
			}
			if len(v) != comps*pd.n {
				return nil, d.malformed(elem, "COLOR_0 has %d elements for %d vertices", len(v)/comps, pd.n)
			}
			if err := d.charge(elem+": COLOR_0", 16*int64(pd.n)); err != nil {
				return nil, err
			}
			pd.col = make([][4]float32, pd.n)
			for i := range pd.col {
				c := [4]float32{1, 1, 1, 1}
				copy(c[:], v[comps*i:comps*i+comps])
				pd.col[i] = c
			}
		}
	}
	if err := d.skinAttributes(elem, p, pd, maxJoint); err != nil {
		return nil, err
	}
	for ti, t := range p.Targets {
		telem := fmt.Sprintf("%s target %d", elem, ti)
		var td targetData
		for _, a := range []string{qg.POSITION, qg.NORMAL, qg.TANGENT} {
			acc, ok := t[a]
			if !ok {
				continue
			}
			v, _, err := d.floats(acc, qg.AccessorVec3)
			if err != nil {
				return nil, within(telem+": "+a, err)
			}
			out, err := vec3s(fmt.Sprintf("target %d %s", ti, a), v)
			if err != nil {
				return nil, err
			}
			switch a {
			case qg.POSITION:
				td.pos = out
			case qg.NORMAL:
				td.nrm = out
			default:
				td.tan = out
			}
		}
		pd.targets = append(pd.targets, td)
	}
	return pd, nil
}

// maxSkinSets is the most JOINTS_n/WEIGHTS_n sets read: Unity gives a
// vertex at most 255 influences.
const maxSkinSets = 63

// skinAttributes reads every JOINTS_n/WEIGHTS_n set into per-vertex
// influences: zero weights left out, a joint named twice merged, largest
// first, normalised to sum to 1 (glTF asks writers for that; quantised
// weights miss it by rounding). A vertex without weight is bound to its
// first joint.
func (d *decoder) skinAttributes(elem string, p *qg.Primitive, pd *primData, maxJoint *int) error {
	sets := 0
	for ; ; sets++ {
		_, j := p.Attributes[fmt.Sprintf("JOINTS_%d", sets)]
		_, w := p.Attributes[fmt.Sprintf("WEIGHTS_%d", sets)]
		if !j || !w {
			if j != w {
				return d.malformed(elem, "JOINTS_%d and WEIGHTS_%d do not come in a pair", sets, sets)
			}
			break
		}
	}
	if sets == 0 {
		return nil
	}
	if sets > maxSkinSets {
		return d.unsupported(elem, "%d JOINTS_n/WEIGHTS_n sets (Unity skins with at most %d influences a vertex)", sets, 4*maxSkinSets)
	}
	js := make([][]uint32, sets)
	ws := make([][]float32, sets)
	for s := range sets {
		var err error
		if js[s], _, err = d.uints(p.Attributes[fmt.Sprintf("JOINTS_%d", s)], qg.AccessorVec4); err != nil {
			return within(fmt.Sprintf("%s: JOINTS_%d", elem, s), err)
		}
		if ws[s], _, err = d.floats(p.Attributes[fmt.Sprintf("WEIGHTS_%d", s)], qg.AccessorVec4); err != nil {
			return within(fmt.Sprintf("%s: WEIGHTS_%d", elem, s), err)
		}
		if len(js[s]) != 4*pd.n || len(ws[s]) != 4*pd.n {
			return d.malformed(elem, "JOINTS_%d/WEIGHTS_%d have %d/%d elements for %d vertices", s, s, len(js[s])/4, len(ws[s])/4, pd.n)
		}
	}
	if err := d.charge(elem+": skin", int64(pd.n)*(24+32*int64(sets))); err != nil {
		return err
	}
	pd.infl = make([][]model.Influence, pd.n)
	all := make([]model.Influence, 0, pd.n*4)
	unbound := 0
	for i := range pd.n {
		start := len(all)
		var sum float64
		for s := range sets {
			for k := range 4 {
				w := ws[s][4*i+k]
				if !(w > 0) || math.IsInf(float64(w), 0) {
					continue
				}
				j := js[s][4*i+k]
				if j > math.MaxUint16 {
					return d.malformed(elem, "vertex %d names joint %d", i, j)
				}
				*maxJoint = max(*maxJoint, int(j))
				sum += float64(w)
				all = append(all, model.Influence{Bone: uint16(j), Weight: w})
			}
		}
		v := all[start:]
		if len(v) == 0 {
			unbound++
			j := js[0][4*i]
			if j > math.MaxUint16 {
				return d.malformed(elem, "vertex %d names joint %d", i, j)
			}
			*maxJoint = max(*maxJoint, int(j))
			all = append(all, model.Influence{Bone: uint16(j), Weight: 1})
			pd.infl[i] = all[start:len(all):len(all)]
			continue
		}
		// Merge a joint named twice.
		slices.SortStableFunc(v, func(a, b model.Influence) int { return int(a.Bone) - int(b.Bone) })
		n := 0
		for _, x := range v {
			if n > 0 && v[n-1].Bone == x.Bone {
				v[n-1].Weight += x.Weight
				continue
			}
			v[n] = x
			n++
		}
		v = v[:n]
		all = all[:start+n]
		model.SortInfluences(v)
		var acc float32
		for e := 0; e < len(v)-1; e++ {
			v[e].Weight = float32(float64(v[e].Weight) / sum)
			acc += v[e].Weight
		}
		v[len(v)-1].Weight = max(1-acc, 0)
		pd.infl[i] = all[start:len(all):len(all)]
	}
	if unbound > 0 {
		d.warn("%s: %d vertices without skin weight bound fully to their first joint", elem, unbound)
	}
	return nil
}

// joinVertices lays the primitives' vertices end to end into m. A channel
// some primitives lack is filled where glTF gives a meaning (colours
// white, UVs 0) and left out otherwise (normals, tangents), with a
// warning.
func (d *decoder) joinVertices(elem string, m *model.Mesh, prims []*primData) {
	n := m.VertexCount
	every := func(has func(*primData) bool) (all, anyOf bool) {
		all = true
		for _, p := range prims {
			h := has(p)
			all, anyOf = all && h, anyOf || h
		}
		return all, anyOf
	}
	m.Positions = make([][3]float32, 0, n)
	for _, p := range prims {
		m.Positions = append(m.Positions, p.pos...)
	}
	if all, anyOf := every(func(p *primData) bool { return p.nrm != nil }); all {
		m.Normals = make([][3]float32, 0, n)
		for _, p := range prims {
			m.Normals = append(m.Normals, p.nrm...)
		}
	} else if anyOf {
		d.warn("%s: normals left out (some primitives have none)", elem)
	}
	if all, anyOf := every(func(p *primData) bool { return p.tan != nil }); all && m.Normals != nil {
		m.Tangents = make([][4]float32, 0, n)
		for _, p := range prims {
			m.Tangents = append(m.Tangents, p.tan...)
		}
	} else if anyOf {
		d.warn("%s: tangents left out (some primitives have none, or no normals)", elem)
	}
	for k := range m.UV {
		if _, anyOf := every(func(p *primData) bool { return p.uv[k] != nil }); anyOf {
			m.UV[k] = make([][2]float32, 0, n)
			for _, p := range prims {
				if p.uv[k] == nil {
					p.uv[k] = make([][2]float32, p.n)
				}
				m.UV[k] = append(m.UV[k], p.uv[k]...)
			}
		}
	}
	if _, anyOf := every(func(p *primData) bool { return p.col != nil }); anyOf {
		m.Colors = make([][4]float32, 0, n)
		for _, p := range prims {
			if p.col == nil {
				p.col = make([][4]float32, p.n)
				for i := range p.col {
					p.col[i] = [4]float32{1, 1, 1, 1}
				}
			}
			m.Colors = append(m.Colors, p.col...)
		}
	}
	if all, _ := every(func(p *primData) bool { return p.infl != nil }); !all {
		return
	}
	most := 0
	for _, p := range prims {
		for _, v := range p.infl {
			most = max(most, len(v))
		}
	}
	m.BoneWeights = make([][4]float32, 0, n)
	m.BoneIndices = make([][4]uint16, 0, n)
	if most > 4 {
		m.SkinOffsets = make([]int, 1, n+1)
	}
	for _, p := range prims {
		for _, v := range p.infl {
			var w [4]float32
			var j [4]uint16
			k := min(4, len(v))
			var sum float64
			for e := range k {
				sum += float64(v[e].Weight)
			}
			var acc float32
			for e := range k {
				j[e] = v[e].Bone
				if e < k-1 {
					w[e] = float32(float64(v[e].Weight) / sum)
					acc += w[e]
				} else {
					w[e] = max(1-acc, 0)
				}
			}
			m.BoneWeights = append(m.BoneWeights, w)
			m.BoneIndices = append(m.BoneIndices, j)
			if m.SkinOffsets != nil {
				m.Skin = append(m.Skin, v...)
				m.SkinOffsets = append(m.SkinOffsets, len(m.Skin))
			}
		}
	}
}

// blendShapes turns the primitives' morph targets into blend shapes of one
// frame at weight 100, named by the mesh's extras.targetNames (as Blender
// and UniVRM write them; the first primitive's when the mesh has none),
// else "target_K"; repeated names get a " (k)" suffix.
func (d *decoder) blendShapes(gm *qg.Mesh, m *model.Mesh, prims []*primData) error {
	nt := len(prims[0].targets)
	if nt == 0 {
		return nil
	}
	names := targetNames(gm.Extras)
	if names == nil && gm.Primitives[0] != nil {
		names = targetNames(gm.Primitives[0].Extras)
	}
	var used model.NameSet
	for t := range nt {
		// Each target's pass over the vertices is charged, so that many
		// targets naming one accessor cannot ask for unbounded work.
		if err := d.charge(fmt.Sprintf("mesh %q target %d", m.Name, t), 8*int64(m.VertexCount)+64); err != nil {
			return err
		}
		name := fmt.Sprintf("target_%d", t)
		if t < len(names) && names[t] != "" {
			name = names[t]
		}
		name = used.Unique(name)
		fr := model.BlendFrame{Weight: 100}
		hasN, hasT := false, false
		for _, p := range prims {
			hasN = hasN || p.targets[t].nrm != nil
			hasT = hasT || p.targets[t].tan != nil
		}
		off := 0
		for _, p := range prims {
			td := p.targets[t]
			for i := range p.n {
				var dp, dn, dt [3]float32
				if td.pos != nil {
					dp = td.pos[i]
				}
				if td.nrm != nil {
					dn = td.nrm[i]
				}
				if td.tan != nil {
					dt = td.tan[i]
				}
				if dp == ([3]float32{}) && dn == ([3]float32{}) && dt == ([3]float32{}) {
					continue
				}
				fr.Vertices = append(fr.Vertices, uint32(off+i))
				fr.Position = append(fr.Position, dp)
				if hasN {
					fr.Normal = append(fr.Normal, dn)
				}
				if hasT {
					fr.Tangent = append(fr.Tangent, dt)
				}
			}
			off += p.n
		}
		m.BlendShapes = append(m.BlendShapes, model.BlendShape{Name: name, NameHash: model.PathHash(name), Frames: []model.BlendFrame{fr}})
	}
	return nil
}

// targetNames reads extras.targetNames, nil when absent.
func targetNames(extras any) []string {
	e, ok := extras.(map[string]any)
	if !ok {
		return nil
	}
	list, ok := e["targetNames"].([]any)
	if !ok {
		return nil
	}
	out := make([]string, len(list))
	for i, x := range list {
		out[i], _ = x.(string)
	}
	return out
}

// indices returns a primitive's indices as Unity draws them: triangles
// (lists, strips and fans all become lists) with their winding reversed,
// since the mirror into Unity's frame turns front faces into back faces;
// lines, line strips (a loop closed by repeating its first index) and
// points as they are. n is the primitive's vertex count.
func (d *decoder) indices(elem string, mi, pi int, p *qg.Primitive, n int) ([]uint32, model.Topology, error) {
	var src []uint32
	if err := d.charge(elem+": indices", 8*int64(n)); err != nil {
		return nil, 0, err
	}
	if p.Indices != nil {
		v, _, err := d.uints(*p.Indices, qg.AccessorScalar)
		if err != nil {
			return nil, 0, within(elem+": indices", err)
		}
		if err := d.charge(elem+": indices", 8*int64(len(v))); err != nil {
			return nil, 0, err
		}
		for k, x := range v {
			if int64(x) >= int64(n) {
				return nil, 0, d.malformed(elem, "index %d is %d, past the %d vertices", k, x, n)
			}
		}
		src = v
	} else {
		src = make([]uint32, n)
		for i := range src {
			src[i] = uint32(i)
		}
	}
	mode := 4
	if rm := d.raw.Meshes[mi].Primitives[pi].Mode; rm != nil {
		mode = *rm
	}
	tri := func(out []uint32, a, b, c uint32) []uint32 {
		if a == b || b == c || a == c {
			return out
		}
		return append(out, a, c, b)
	}
	short := func(unit int) {
		if len(src)%unit != 0 {
			d.warn("%s: %d indices is not a multiple of %d; the last %d left out", elem, len(src), unit, len(src)%unit)
		}
	}
	switch mode {
	case 0:
		return slices.Clone(src), model.Points, nil
	case 1:
		short(2)
		return slices.Clone(src[:len(src)/2*2]), model.Lines, nil
	case 2:
		if len(src) < 2 {
			return nil, model.LineStrip, nil
		}
		return append(slices.Clone(src), src[0]), model.LineStrip, nil
	case 3:
		if len(src) < 2 {
			return nil, model.LineStrip, nil
		}
		return slices.Clone(src), model.LineStrip, nil
	case 4:
		short(3)
		out := make([]uint32, 0, len(src))
		for i := 0; i+2 < len(src); i += 3 {
			out = append(out, src[i], src[i+2], src[i+1])
		}
		return out, model.Triangles, nil
	case 5:
		var out []uint32
		for i := 0; i+2 < len(src); i++ {
			if i%2 == 0 {
				out = tri(out, src[i], src[i+1], src[i+2])
			} else {
				out = tri(out, src[i], src[i+2], src[i+1])
			}
		}
		return out, model.Triangles, nil
	case 6:
		var out []uint32
		for i := 1; i+1 < len(src); i++ {
			out = tri(out, src[i], src[i+1], src[0])
		}
		return out, model.Triangles, nil
	}
	return nil, 0, d.malformed(elem, "mode %d", mode)
}

// bounds returns the box around the points.
func bounds(p [][3]float32) model.AABB {
	if len(p) == 0 {
		return model.AABB{}
	}
	lo, hi := p[0], p[0]
	for _, v := range p[1:] {
		for k := range 3 {
			lo[k], hi[k] = min(lo[k], v[k]), max(hi[k], v[k])
		}
	}
	c := geom.Vec3{X: (lo[0] + hi[0]) / 2, Y: (lo[1] + hi[1]) / 2, Z: (lo[2] + hi[2]) / 2}
	e := geom.Vec3{X: (hi[0] - lo[0]) / 2, Y: (hi[1] - lo[1]) / 2, Z: (hi[2] - lo[2]) / 2}
	return model.AABB{Center: c, Extent: e}
}
