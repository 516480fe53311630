package gltf

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
	qg "github.com/qmuntal/gltf"
)

// mesh adds one mesh instance: the glTF mesh, its skin, and the node that
// draws it. It returns the node to list as a scene root (-1 when the node is
// a rig node, already in the hierarchy, or when the mesh has nothing to
// draw).
func (b *builder) mesh(mi *model.MeshInstance) (int, error) {
	m := mi.Mesh
	if m == nil {
		return -1, fmt.Errorf("%w: nil mesh", ErrInvalid)
	}
	if mi.Node < 0 || mi.Node >= len(b.s.Rig.Nodes) {
		return -1, fmt.Errorf("%w: node %d not in the rig", ErrInvalid, mi.Node)
	}
	if err := checkMesh(m); err != nil {
		return -1, err
	}
	if m.VertexCount == 0 {
		return -1, nil
	}
	skinned := mi.Joints != nil && (m.BoneWeights != nil || m.HasVariableSkin())
	attrs := qg.PrimitiveAttributes{}
	n := m.VertexCount

	pos := make([]float32, 0, 3*n)
	for _, p := range m.Positions {
		pos = append(pos, -p[0], p[1], p[2])
	}
	attrs[qg.POSITION] = b.floats(pos, qg.AccessorVec3, qg.TargetArrayBuffer, true)
	if len(m.Normals) == n {
		nrm := make([]float32, 0, 3*n)
		for _, v := range m.Normals {
			u := unit3(-v[0], v[1], v[2], [3]float32{0, 1, 0})
			nrm = append(nrm, u[0], u[1], u[2])
		}
		attrs[qg.NORMAL] = b.floats(nrm, qg.AccessorVec3, qg.TargetArrayBuffer, false)
		if len(m.Tangents) == n {
			tan := make([]float32, 0, 4*n)
			for i, v := range m.Tangents {
				u := unit3(-v[0], v[1], v[2], perpendicular(nrm[3*i:3*i+3]))
				w := float32(-1)
				if v[3] < 0 {
					w = 1
				}
				tan = append(tan, u[0], u[1], u[2], w)
			}
			attrs[qg.TANGENT] = b.floats(tan, qg.AccessorVec4, qg.TargetArrayBuffer, false)
		}
	}
	set := 0
	for k := range m.UV {
		if len(m.UV[k]) != n {
			continue
		}
		uv := make([]float32, 0, 2*n)
		for _, t := range m.UV[k] {
			uv = append(uv, t[0], 1-t[1])
		}
		attrs[fmt.Sprintf("TEXCOORD_%d", set)] = b.floats(uv, qg.AccessorVec2, qg.TargetArrayBuffer, false)
		set++
	}
	if len(m.Colors) == n {
		col := make([]float32, 0, 4*n)
		for _, c := range m.Colors {
			for _, x := range c {
				col = append(col, min(max(x, 0), 1))
			}
		}
		attrs[qg.COLOR_0] = b.floats(col, qg.AccessorVec4, qg.TargetArrayBuffer, false)
	}

	var skin *int
	if skinned {
		s, err := b.skin(mi, attrs)
		if err != nil {
			return -1, err
		}
		skin = &s
	}

	gm := &qg.Mesh{Name: m.Name}
	targets, names := b.morphTargets(m, attrs)
	for si := range m.SubMeshes {
		idx, mode := primitiveIndices(m, si)
		if len(idx) == 0 {
			continue
		}
		var maxIdx uint32
		for _, x := range idx {
			maxIdx = max(maxIdx, x)
		}
		size := 4
		if maxIdx < 0xffff {
			size = 2
		}
		pr := &qg.Primitive{
			Attributes: attrs,
			Indices:    qg.Index(b.uints(idx, size, qg.AccessorScalar, qg.TargetElementArrayBuffer)),
			Mode:       mode,
			Targets:    targets,
		}
		if si < len(mi.Materials) {
			if mat := mi.Materials[si]; mat.Name != "" || mat.HasFactors {
				if len(m.UV[0]) != n {
					// The texture is mapped by the first UV channel:
					// without one it cannot be drawn.
					mat.BaseColorTexture = nil
				}
				pr.Material = qg.Index(b.material(mat))
			}
		}
		gm.Primitives = append(gm.Primitives, pr)
	}
	if len(gm.Primitives) == 0 {
		return -1, nil
	}
	if len(targets) > 0 {
		gm.Weights = make([]float64, len(targets))
		for i := range gm.Weights {
			if i < len(mi.BlendShapeWeights) {
				gm.Weights[i] = float64(mi.BlendShapeWeights[i]) / 100
			}
		}
		gm.Extras = map[string]any{"targetNames": names}
	}
	b.doc.Meshes = append(b.doc.Meshes, gm)
	mref := qg.Index(len(b.doc.Meshes) - 1)

	// The mesh's own node, named for its GameObject (see the package
	// comment): a skinned mesh is drawn where its joints are, from a root
	// node of its own; a rigid mesh from a child of its GameObject's node.
	// Neither has a transform.
	rigNode := b.doc.Nodes[mi.Node]
	b.doc.Nodes = append(b.doc.Nodes, &qg.Node{Name: b.names.Unique(rigNode.Name + " (mesh)"), Mesh: mref, Skin: skin,
		Matrix: qg.DefaultMatrix, Rotation: qg.DefaultRotation, Scale: qg.DefaultScale})
	node := len(b.doc.Nodes) - 1
	root := -1
	if skinned {
		root = node
	} else {
		rigNode.Children = append(rigNode.Children, node)
	}
	if len(targets) > 0 {
		if _, dup := b.morphNode[mi.Node]; !dup {
			b.morphNode[mi.Node] = node
			b.morphCount[mi.Node] = len(targets)
		}
	}
	return root, nil
}

// skin adds the joints and inverse bind matrices of a skinned mesh and
// its JOINTS_n/WEIGHTS_n attributes (one set per four influences of its
// most influenced vertex).
func (b *builder) skin(mi *model.MeshInstance, attrs qg.PrimitiveAttributes) (int, error) {
	m := mi.Mesh
	nb := max(len(mi.Joints), len(m.BindPoses))
	for _, bi := range m.BoneIndices {
		for _, x := range bi {
			nb = max(nb, int(x)+1)
		}
	}
	for _, x := range m.Skin {
		nb = max(nb, int(x.Bone)+1)
	}
	var joints []int           // glTF nodes
	jointOf := make([]int, nb) // mesh bone -> index into joints
	ibm := make([]float32, 0, 16*nb)
	seen := map[int]int{}
	for k := 0; k < nb; k++ {
		node := -1
		if k < len(mi.Joints) && mi.Joints[k] >= 0 && mi.Joints[k] < len(b.s.Rig.Nodes) {
			node = mi.Joints[k]
		}
		if node < 0 {
			// A bone outside the rig (its Transform in another file,
			// or below a nested Animator): a joint under the
			// renderer's node where the bind pose puts it, the inverse
			// bind pose, so that the mesh still rests as it was bound.
			nd := &qg.Node{Name: b.names.Unique(fmt.Sprintf("%s missing bone %d", m.Name, k))}
			rest := geom.Identity
			if k < len(m.BindPoses) {
				if inv, ok := invertAffine(m.BindPoses[k]); ok {
					rest = decompose(inv)
				}
			}
			setTRS(nd, rest)
			b.doc.Nodes = append(b.doc.Nodes, nd)
			node = len(b.doc.Nodes) - 1
			parent := b.doc.Nodes[mi.Node]
			parent.Children = append(parent.Children, node)
			b.extraJoints = append(b.extraJoints, extraJoint{node, mi.Node})
		}
		if j, ok := seen[node]; ok {
			jointOf[k] = j // the same Transform twice: one joint
			continue
		}
		seen[node] = len(joints)
		jointOf[k] = len(joints)
		joints = append(joints, node)
		mat := model.Mat4{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}}
		if k < len(m.BindPoses) {
			mat = m.BindPoses[k]
		}
		c := ConvertMat(mat)
		// glTF requires the last row to be exactly (0, 0, 0, 1).
		c[3], c[7], c[11], c[15] = 0, 0, 0, 1
		ibm = append(ibm, c[:]...)
	}
	if len(joints) == 0 {
		return 0, fmt.Errorf("%w: skinned mesh without bones", ErrInvalid)
	}
	jw, ww, sets := skinVertices(m, jointOf)
	size := 1
	if len(joints) > 256 {
		size = 2
	}
	for set := range sets {
		per := jw[4*m.VertexCount*set : 4*m.VertexCount*(set+1)]
		attrs[fmt.Sprintf("JOINTS_%d", set)] = b.uints(per, size, qg.AccessorVec4, qg.TargetArrayBuffer)
		attrs[fmt.Sprintf("WEIGHTS_%d", set)] = b.floats(ww[4*m.VertexCount*set:4*m.VertexCount*(set+1)], qg.AccessorVec4, qg.TargetArrayBuffer, false)
	}
	b.doc.Skins = append(b.doc.Skins, &qg.Skin{
		Name:                m.Name,
		Joints:              joints,
		Skeleton:            qg.Index(b.root),
		InverseBindMatrices: qg.Index(b.floats(ibm, qg.AccessorMat4, qg.TargetNone, false)),
	})
	return len(b.doc.Skins) - 1, nil
}

// jointWeight is one joint's share of a vertex.
type jointWeight struct {
	joint  uint32
	weight float32
}

// skinVertices maps every vertex's influences (all of them: see
// model.Mesh.Influences) to joints and lays them out as glTF's sets of
// four: set k holds each vertex's influences 4k..4k+3, largest first, so
// that set 0 alone is the usual four-bone skin. It returns the joints and
// weights of all sets, set after set (4·VertexCount values each), and the
// number of sets (at least 1).
func skinVertices(m *model.Mesh, jointOf []int) ([]uint32, []float32, int) {
	n := m.VertexCount
	offs := make([]int, n+1)
	var all []jointWeight
	var buf []model.Influence
	most := 1
	for i := 0; i < n; i++ {
		buf = m.Influences(i, buf[:0])
		fallback := uint16(0)
		if i < len(m.BoneIndices) {
			fallback = m.BoneIndices[i][0]
		}
		start := len(all)
		all = skinVertex(all, buf, fallback, jointOf)
		offs[i+1] = len(all)
		most = max(most, len(all)-start)
	}
	sets := (most + 3) / 4
	jw := make([]uint32, 4*n*sets)
	ww := make([]float32, 4*n*sets)
	for i := 0; i < n; i++ {
		for k, x := range all[offs[i]:offs[i+1]] {
			at := 4*n*(k/4) + 4*i + k%4
			jw[at], ww[at] = x.joint, x.weight
		}
	}
	return jw, ww, sets
}

// skinVertex appends one vertex's influences (largest first) mapped to
// joints to dst: bones without a joint left out, two bones on one joint
// merged, largest first again, weights normalised so that they sum to 1 in
// float32 (the last one takes the rounding). A vertex without weight is
// bound fully to its fallback bone (its first blend index).
func skinVertex(dst []jointWeight, infl []model.Influence, fallback uint16, jointOf []int) []jointWeight {
	start := len(dst)
	var sum float64
	for _, x := range infl {
		if !(x.Weight > 0) || int(x.Bone) >= len(jointOf) {
			continue
		}
		jt := uint32(jointOf[x.Bone])
		merged := false
		for e := start; e < len(dst); e++ {
			if dst[e].joint == jt {
				dst[e].weight += x.Weight
				merged = true
				break
			}
		}
		if !merged {
			dst = append(dst, jointWeight{jt, x.Weight})
		}
		sum += float64(x.Weight)
	}
	v := dst[start:]
	if len(v) == 0 {
		jt := uint32(0)
		if int(fallback) < len(jointOf) {
			jt = uint32(jointOf[fallback])
		}
		return append(dst, jointWeight{jt, 1})
	}
	slices.SortStableFunc(v, func(a, b jointWeight) int { return cmp.Compare(b.weight, a.weight) })
	var acc float32
	for e := 0; e < len(v)-1; e++ {
		v[e].weight = float32(float64(v[e].weight) / sum)
		acc += v[e].weight
	}
	v[len(v)-1].weight = max(1-acc, 0)
	return dst
}

// morphTargets adds one morph target per blend shape (its last frame,
// scaled to weight 1) and returns them with their names.
func (b *builder) morphTargets(m *model.Mesh, attrs qg.PrimitiveAttributes) ([]qg.PrimitiveAttributes, []string) {
	if len(m.BlendShapes) == 0 {
		return nil, nil
	}
	n := m.VertexCount
	_, hasN := attrs[qg.NORMAL]
	_, hasT := attrs[qg.TANGENT]
	anyN, anyT := false, false
	for _, bs := range m.BlendShapes {
		if len(bs.Frames) > 0 {
			f := bs.Frames[len(bs.Frames)-1]
			anyN = anyN || f.Normal != nil
			anyT = anyT || f.Tangent != nil
		}
	}
	var targets []qg.PrimitiveAttributes
	var names []string
	for _, bs := range m.BlendShapes {
		pos := make([]float32, 3*n)
		var nrm, tan []float32
		if hasN && anyN {
			nrm = make([]float32, 3*n)
		}
		if hasT && anyT {
			tan = make([]float32, 3*n)
		}
		if len(bs.Frames) > 0 {
			f := bs.Frames[len(bs.Frames)-1]
			scale := float32(1)
			if f.Weight > 0 {
				scale = 100 / f.Weight
			}
			put := func(dst []float32, i uint32, d [3]float32) {
				dst[3*i], dst[3*i+1], dst[3*i+2] = -d[0]*scale, d[1]*scale, d[2]*scale
			}
			for k, vi := range f.Vertices {
				if int(vi) >= n {
					continue
				}
				put(pos, vi, f.Position[k])
				if nrm != nil && f.Normal != nil {
					put(nrm, vi, f.Normal[k])
				}
				if tan != nil && f.Tangent != nil {
					put(tan, vi, f.Tangent[k])
				}
			}
		}
		t := qg.PrimitiveAttributes{qg.POSITION: b.floats(pos, qg.AccessorVec3, qg.TargetArrayBuffer, true)}
		if nrm != nil {
			t[qg.NORMAL] = b.floats(nrm, qg.AccessorVec3, qg.TargetArrayBuffer, false)
		}
		if tan != nil {
			t[qg.TANGENT] = b.floats(tan, qg.AccessorVec3, qg.TargetArrayBuffer, false)
		}
		targets = append(targets, t)
		names = append(names, bs.Name)
	}
	return targets, names
}

// primitiveIndices returns sub-mesh si's indices in glTF's winding and its
// primitive mode: triangles reversed, quads split into two triangles,
// strips unrolled into lists.
func primitiveIndices(m *model.Mesh, si int) ([]uint32, qg.PrimitiveMode) {
	src := m.SubMeshIndices(si)
	switch m.SubMeshes[si].Topology {
	case model.Triangles:
		out := make([]uint32, 0, len(src))
		for i := 0; i+2 < len(src); i += 3 {
			out = append(out, src[i], src[i+2], src[i+1])
		}
		return out, qg.PrimitiveTriangles
	case model.Quads:
		out := make([]uint32, 0, len(src)/4*6)
		for i := 0; i+3 < len(src); i += 4 {
			a, b, c, d := src[i], src[i+1], src[i+2], src[i+3]
			out = append(out, a, c, b, a, d, c)
		}
		return out, qg.PrimitiveTriangles
	case model.TriangleStrip:
		var out []uint32
		for i := 0; i+2 < len(src); i++ {
			a, b, c := src[i], src[i+1], src[i+2]
			if i%2 == 1 {
				a, b = b, a
			}
			if a == b || b == c || a == c {
				continue // a strip's joining triangles
			}
			out = append(out, a, c, b)
		}
		return out, qg.PrimitiveTriangles
	case model.Lines:
		return src[:len(src)/2*2], qg.PrimitiveLines
	case model.LineStrip:
		if len(src) < 2 {
			return nil, qg.PrimitiveLineStrip
		}
		return src, qg.PrimitiveLineStrip
	default:
		return src, qg.PrimitivePoints
	}
}

// unit3 normalises (x, y, z), or returns fallback when it has no length.
func unit3(x, y, z float32, fallback [3]float32) [3]float32 {
	l := math.Sqrt(float64(x)*float64(x) + float64(y)*float64(y) + float64(z)*float64(z))
	if !(l > 1e-12) || math.IsInf(l, 0) {
		return fallback
	}
	return [3]float32{float32(float64(x) / l), float32(float64(y) / l), float32(float64(z) / l)}
}

// perpendicular returns a unit vector perpendicular to n (a fallback
// tangent).
func perpendicular(n []float32) [3]float32 {
	if math.Abs(float64(n[0])) < 0.9 {
		// n × x
		return unit3(0, n[2], -n[1], [3]float32{1, 0, 0})
	}
	return unit3(-n[2], 0, n[0], [3]float32{0, 0, 1})
}

// invertAffine inverts a matrix whose last row is (0, 0, 0, 1).
func invertAffine(m model.Mat4) (model.Mat4, bool) {
	a := [3][3]float64{}
	for r := range 3 {
		for c := range 3 {
			a[r][c] = float64(m[r][c])
		}
	}
	det := a[0][0]*(a[1][1]*a[2][2]-a[1][2]*a[2][1]) - a[0][1]*(a[1][0]*a[2][2]-a[1][2]*a[2][0]) + a[0][2]*(a[1][0]*a[2][1]-a[1][1]*a[2][0])
	if !(math.Abs(det) > 1e-30) {
		return model.Mat4{}, false
	}
	var inv [3][3]float64
	inv[0][0] = (a[1][1]*a[2][2] - a[1][2]*a[2][1]) / det
	inv[0][1] = (a[0][2]*a[2][1] - a[0][1]*a[2][2]) / det
	inv[0][2] = (a[0][1]*a[1][2] - a[0][2]*a[1][1]) / det
	inv[1][0] = (a[1][2]*a[2][0] - a[1][0]*a[2][2]) / det
	inv[1][1] = (a[0][0]*a[2][2] - a[0][2]*a[2][0]) / det
	inv[1][2] = (a[0][2]*a[1][0] - a[0][0]*a[1][2]) / det
	inv[2][0] = (a[1][0]*a[2][1] - a[1][1]*a[2][0]) / det
	inv[2][1] = (a[0][1]*a[2][0] - a[0][0]*a[2][1]) / det
	inv[2][2] = (a[0][0]*a[1][1] - a[0][1]*a[1][0]) / det
	var out model.Mat4
	for r := range 3 {
		var t float64
		for c := range 3 {
			out[r][c] = float32(inv[r][c])
			t -= inv[r][c] * float64(m[c][3])
		}
		out[r][3] = float32(t)
	}
	out[3][3] = 1
	return out, true
}

// decompose splits an affine matrix without shear into translation,
// rotation and scale (a mirror goes into the x scale).
func decompose(m model.Mat4) geom.Transform {
	var col [3]geom.Vec3
	for c := range 3 {
		col[c] = geom.Vec3{X: m[0][c], Y: m[1][c], Z: m[2][c]}
	}
	s := geom.Vec3{X: col[0].Len(), Y: col[1].Len(), Z: col[2].Len()}
	if col[0].Cross(col[1]).Dot(col[2]) < 0 {
		s.X = -s.X
	}
	r := [3]geom.Vec3{col[0].Scale(1 / nonzero(s.X)), col[1].Scale(1 / nonzero(s.Y)), col[2].Scale(1 / nonzero(s.Z))}
	return geom.Transform{
		T: geom.Vec3{X: m[0][3], Y: m[1][3], Z: m[2][3]},
		R: geom.QuatFromAxes(r[0], r[1], r[2]),
		S: s,
	}
}

func nonzero(x float32) float32 {
	if x == 0 {
		return 1
	}
	return x
}

// checkMesh refuses a mesh whose parts disagree (a program may build one
// by hand): per-vertex data of another length than VertexCount, index
// ranges or indices out of bounds, blend-shape offsets for vertices that do
// not exist.
func checkMesh(m *model.Mesh) error {
	n := m.VertexCount
	bad := func(what string, l int) error {
		return fmt.Errorf("%w: %s has %d entries for %d vertices", ErrInvalid, what, l, n)
	}
	if n < 0 || len(m.Positions) != n {
		return bad("Positions", len(m.Positions))
	}
	for _, c := range []struct {
		name string
		l    int
	}{{"Normals", len(m.Normals)}, {"Tangents", len(m.Tangents)}, {"Colors", len(m.Colors)}, {"BoneWeights", len(m.BoneWeights)}} {
		if c.l != 0 && c.l != n {
			return bad(c.name, c.l)
		}
	}
	for k := range m.UV {
		if l := len(m.UV[k]); l != 0 && l != n {
			return bad(fmt.Sprintf("UV[%d]", k), l)
		}
	}
	if len(m.BoneIndices) != len(m.BoneWeights) {
		return bad("BoneIndices", len(m.BoneIndices))
	}
	if m.Skin != nil || m.SkinOffsets != nil {
		if len(m.SkinOffsets) != n+1 {
			return bad("SkinOffsets", len(m.SkinOffsets))
		}
		for i := 0; i < n; i++ {
			lo, hi := m.SkinOffsets[i], m.SkinOffsets[i+1]
			if lo < 0 || hi < lo || hi > len(m.Skin) || hi-lo > model.MaxBonesPerVertex {
				return fmt.Errorf("%w: vertex %d: influences %d..%d of %d (at most %d)", ErrInvalid, i, lo, hi, len(m.Skin), model.MaxBonesPerVertex)
			}
		}
	}
	for i, s := range m.SubMeshes {
		if s.FirstIndex < 0 || s.IndexCount < 0 || s.FirstIndex > len(m.Indices) || s.IndexCount > len(m.Indices)-s.FirstIndex || s.BaseVertex < 0 {
			return fmt.Errorf("%w: sub-mesh %d: indices %d+%d of %d", ErrInvalid, i, s.FirstIndex, s.IndexCount, len(m.Indices))
		}
		for _, x := range m.Indices[s.FirstIndex : s.FirstIndex+s.IndexCount] {
			if uint64(x)+uint64(s.BaseVertex) >= uint64(n) {
				return fmt.Errorf("%w: sub-mesh %d: index %d + base %d past %d vertices", ErrInvalid, i, x, s.BaseVertex, n)
			}
		}
	}
	for _, bs := range m.BlendShapes {
		for fi, f := range bs.Frames {
			k := len(f.Vertices)
			if len(f.Position) != k || (f.Normal != nil && len(f.Normal) != k) || (f.Tangent != nil && len(f.Tangent) != k) {
				return fmt.Errorf("%w: blend shape %q frame %d: offsets do not match its %d vertices", ErrInvalid, bs.Name, fi, k)
			}
			for _, v := range f.Vertices {
				if int64(v) >= int64(n) {
					return fmt.Errorf("%w: blend shape %q frame %d: vertex %d past %d", ErrInvalid, bs.Name, fi, v, n)
				}
			}
		}
	}
	return nil
}
