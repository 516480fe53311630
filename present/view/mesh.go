package view

import (
	"bytes"
	"fmt"
	"image/png"
	"net/http"
	"strconv"
	"sync"

	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
)

// Limits on the meshes one frames answer carries; a rig whose meshes are
// larger is shown as a skeleton only.
const (
	maxMeshVertices = 500_000
	maxMeshIndices  = 3_000_000
)

// Mesh is a mesh drawn on the skeleton of a frames answer, in Unity's frame
// (the page mirrors it as it does the joints). A skinned mesh lists, per
// bone, the joint that moves it and its bind pose; a rigid mesh moves with
// one joint.
type Mesh struct {
	Name string `json:"name"`
	// Positions and Normals (nil when absent) are x, y, z per vertex in
	// the mesh's space.
	Positions []float32 `json:"positions,omitempty"`
	Normals   []float32 `json:"normals,omitempty"`
	// Indices are triangles (quads are split).
	Indices []uint32 `json:"indices,omitempty"`
	// Joint is the joint a rigid mesh is drawn at (-1 for a skinned mesh
	// or a rigid one whose node is not in the skeleton).
	Joint int `json:"joint"`
	// Bones are the joints of the mesh's bones (-1: not in the skeleton;
	// the page leaves such a bone at its bind pose). BindPoses holds 16
	// floats per bone, column-major.
	Bones     []int     `json:"bones,omitempty"`
	BindPoses []float32 `json:"bind_poses,omitempty"`
	// BoneIndices and BoneWeights give four influences per vertex.
	BoneIndices []uint16  `json:"bone_indices,omitempty"`
	BoneWeights []float32 `json:"bone_weights,omitempty"`
	// UVs are u, v per vertex of the first UV channel (Unity's frame: v
	// up); nil when the mesh has none.
	UVs []float32 `json:"uvs,omitempty"`
	// Groups are the ranges of Indices each drawn with one material (a
	// sub-mesh each), in order.
	Groups []MeshGroup `json:"groups,omitempty"`
	// Morphs are the mesh's blend shapes; a frames answer's MorphWeights
	// give their weights frame by frame.
	Morphs []Morph `json:"morphs,omitempty"`
}

// MeshGroup is a range of a mesh's Indices drawn with one material.
type MeshGroup struct {
	Start    int      `json:"start"`
	Count    int      `json:"count"`
	Material Material `json:"material"`
}

// Material is what the page draws a group with: export's base colour and
// base colour texture.
type Material struct {
	Name string `json:"name"`
	// Color is the base colour factor, linear RGBA (white when the
	// material sets none); Found is false when the renderer names no
	// material the inputs hold (the page draws such groups grey).
	Color [4]float32 `json:"color"`
	Found bool       `json:"found"`
	// Texture is the base colour texture (GET /api/texture/{id}: PNG, top
	// row first), -1 for none; the texture's coordinates are the vertex's
	// first UV times Scale plus Offset (Unity's tiling and offset).
	Texture int        `json:"texture"`
	Scale   [2]float32 `json:"scale"`
	Offset  [2]float32 `json:"offset"`
}

// Morph is one blend shape: the offsets of its frame of greatest weight
// (Full, Unity's 0..100 scale), which a weight w applies scaled by w/Full,
// as Unity applies a blend shape of one frame.
type Morph struct {
	Name string  `json:"name"`
	Full float32 `json:"full"`
	// Weight is the renderer's weight, what the mesh shows where no clip
	// drives the morph.
	Weight float32 `json:"weight"`
	// Vertices are the vertices it moves; Deltas x, y, z per listed
	// vertex.
	Vertices []uint32  `json:"vertices"`
	Deltas   []float32 `json:"deltas"`
}

// maxMorphValues bounds the blend-shape offsets one character sends.
const maxMorphValues = 6_000_000

// meshResult is a character's meshes as the page takes them, converted
// once however many requests ask at the same time.
type meshResult struct {
	once   sync.Once
	meshes []Mesh
	notes  []string
	// shapes say, per mesh, what drives its morphs: the path hash of
	// its renderer's GameObject, each morph's name hashes and the
	// renderer's weight.
	shapes []meshShapes
}

// meshShapes is what binds a mesh's morphs to a clip's blend-shape
// channels (as export binds them: path and the CRC-32 of the name).
type meshShapes struct {
	path    uint32
	names   [][2]uint32
	weights []float32
}

// meshesFor returns the character's meshes for the page, converted once
// per character. Mesh node and bone indexes are the character's joints.
func (s *Server) meshesFor(ch *bound.Character) *meshResult {
	s.mu.Lock()
	res, ok := s.meshCache[ch]
	if !ok {
		res = &meshResult{}
		s.meshCache[ch] = res
	}
	s.mu.Unlock()
	res.once.Do(func() { s.loadMeshes(ch, res) })
	return res
}

// streamMeshes appends `,"meshes":[...],"mesh_notes":[...]` to an answer
// (each left out when empty, as Frames and ControllerInfo encode them),
// sending chunks as they fill; false once the client is gone.
func (s *Server) streamMeshes(a *answer, mr *meshResult) bool {
	if len(mr.meshes) > 0 {
		a.field("meshes")
		a.raw("[")
		for i := range mr.meshes {
			m := &mr.meshes[i]
			if i > 0 {
				a.raw(",")
			}
			// the small fields, then the large arrays in chunks
			a.object(Mesh{Name: m.Name, Joint: m.Joint, Bones: m.Bones, BindPoses: m.BindPoses, Groups: m.Groups})
			if !a.floats("positions", m.Positions) || !uints(a, "indices", m.Indices) {
				return false
			}
			if m.Normals != nil && !a.floats("normals", m.Normals) {
				return false
			}
			if m.Bones != nil && (!uints(a, "bone_indices", m.BoneIndices) || !a.floats("bone_weights", m.BoneWeights)) {
				return false
			}
			if m.UVs != nil && !a.floats("uvs", m.UVs) {
				return false
			}
			if len(m.Morphs) > 0 {
				a.field("morphs")
				a.value(m.Morphs)
				if !a.ok() {
					return false
				}
			}
			a.raw("}")
		}
		a.raw("]")
	}
	if len(mr.notes) > 0 {
		a.field("mesh_notes")
		a.value(s.publicAll(mr.notes))
	}
	return a.ok()
}

func (s *Server) loadMeshes(ch *bound.Character, res *meshResult) {
	res.meshes, res.notes = []Mesh{}, []string{}
	att, errs := ch.Meshes()
	for _, err := range errs {
		res.notes = append(res.notes, err.Error())
	}
	if len(att) == 0 && len(errs) == 0 {
		res.notes = append(res.notes, ch.Describe()+" has no meshes in the inputs")
	}
	n := ch.Skeleton().Len()
	joint := func(node int) int {
		if node < 0 || node >= n {
			return -1
		}
		return node
	}
	verts, idx, morphVals := 0, 0, 0
	for _, a := range att {
		m := a.Mesh
		out := Mesh{Name: m.Name, Joint: -1}
		if len(m.Positions) != m.VertexCount || m.VertexCount == 0 {
			res.notes = append(res.notes, fmt.Sprintf("mesh %q has no positions", m.Name))
			continue
		}
		for i := range m.SubMeshes {
			sm := m.SubMeshes[i]
			if sm.FirstIndex < 0 || sm.IndexCount < 0 || sm.FirstIndex+sm.IndexCount > len(m.Indices) {
				continue
			}
			ix := m.SubMeshIndices(i)
			start := len(out.Indices)
			switch sm.Topology {
			case model.Triangles:
				out.Indices = append(out.Indices, ix[:len(ix)/3*3]...)
			case model.Quads:
				for q := 0; q+3 < len(ix); q += 4 {
					out.Indices = append(out.Indices, ix[q], ix[q+1], ix[q+2], ix[q], ix[q+2], ix[q+3])
				}
			}
			if n := len(out.Indices) - start; n > 0 {
				var mat *model.Material
				if i < len(a.Materials) {
					mat = &a.Materials[i]
				}
				out.Groups = append(out.Groups, MeshGroup{Start: start, Count: n, Material: s.material(mat)})
			}
		}
		bad := false
		for _, x := range out.Indices {
			if int(x) >= m.VertexCount {
				bad = true
				break
			}
		}
		if bad || len(out.Indices) == 0 {
			res.notes = append(res.notes, fmt.Sprintf("mesh %q: no drawable triangles", m.Name))
			continue
		}
		if verts+m.VertexCount > maxMeshVertices || idx+len(out.Indices) > maxMeshIndices {
			res.notes = append(res.notes, fmt.Sprintf("mesh %q left out: the character's meshes are over %d vertices", m.Name, maxMeshVertices))
			continue
		}
		out.Positions = flatten3(m.Positions)
		if len(m.Normals) == m.VertexCount {
			out.Normals = flatten3(m.Normals)
		}
		if uv := m.UV[0]; len(uv) == m.VertexCount {
			out.UVs = make([]float32, 0, 2*len(uv))
			for _, x := range uv {
				out.UVs = append(out.UVs, finite32(x[0]), finite32(x[1]))
			}
		}
		shapes := meshShapes{}
		if a.Node >= 0 && a.Node < len(ch.Rig().Nodes) {
			shapes.path = model.PathHash(ch.Rig().Nodes[a.Node].Path)
		}
		for k, bs := range m.BlendShapes {
			mo, n := morphOf(bs, m.VertexCount)
			if n == 0 {
				continue
			}
			if morphVals+n > maxMorphValues {
				res.notes = append(res.notes, fmt.Sprintf("mesh %q: blend shapes from %q on left out: the character's are over %d values", m.Name, bs.Name, maxMorphValues))
				break
			}
			morphVals += n
			w := float32(0)
			if k < len(a.BlendShapeWeights) {
				w = finite32(a.BlendShapeWeights[k])
			}
			mo.Weight = w
			out.Morphs = append(out.Morphs, mo)
			shapes.names = append(shapes.names, [2]uint32{model.PathHash(bs.Name), bs.NameHash})
			shapes.weights = append(shapes.weights, w)
		}
		skinned := a.Joints != nil && len(m.BoneIndices) == m.VertexCount && len(m.BoneWeights) == m.VertexCount
		if skinned {
			out.Bones = make([]int, len(m.BindPoses))
			out.BindPoses = make([]float32, 0, 16*len(m.BindPoses))
			for b := range m.BindPoses {
				out.Bones[b] = -1
				if b < len(a.Joints) {
					out.Bones[b] = joint(a.Joints[b])
				}
				for c := 0; c < 4; c++ {
					for row := 0; row < 4; row++ {
						out.BindPoses = append(out.BindPoses, finite32(m.BindPoses[b][row][c]))
					}
				}
			}
			out.BoneIndices = make([]uint16, 0, 4*m.VertexCount)
			out.BoneWeights = make([]float32, 0, 4*m.VertexCount)
			for v := 0; v < m.VertexCount; v++ {
				for k := 0; k < 4; k++ {
					bi, w := m.BoneIndices[v][k], m.BoneWeights[v][k]
					if int(bi) >= len(m.BindPoses) || !(w > 0) || !geom.Finite(w) {
						bi, w = 0, 0
					}
					out.BoneIndices = append(out.BoneIndices, bi)
					out.BoneWeights = append(out.BoneWeights, w)
				}
			}
		} else {
			out.Joint = joint(a.Node)
		}
		verts += m.VertexCount
		idx += len(out.Indices)
		res.meshes = append(res.meshes, out)
		res.shapes = append(res.shapes, shapes)
	}
}

// morphOf is a blend shape's frame of greatest weight as a Morph, and how
// many values it holds (0 when it moves nothing drawable).
func morphOf(bs model.BlendShape, vertices int) (Morph, int) {
	mo := Morph{Name: bs.Name}
	best := -1
	for i, f := range bs.Frames {
		if f.Weight > 0 && geom.Finite(f.Weight) && (best < 0 || f.Weight > bs.Frames[best].Weight) {
			best = i
		}
	}
	if best < 0 {
		return mo, 0
	}
	f := bs.Frames[best]
	mo.Full = f.Weight
	for k, v := range f.Vertices {
		if int(v) >= vertices || k >= len(f.Position) {
			continue
		}
		d := f.Position[k]
		mo.Vertices = append(mo.Vertices, v)
		mo.Deltas = append(mo.Deltas, finite32(d[0]), finite32(d[1]), finite32(d[2]))
	}
	return mo, len(mo.Vertices) * 4
}

// material is how the page draws a sub-mesh's material, its texture
// registered for GET /api/texture/{id}.
func (s *Server) material(m *model.Material) Material {
	out := Material{Color: [4]float32{1, 1, 1, 1}, Texture: -1, Scale: [2]float32{1, 1}}
	if m == nil {
		return out
	}
	out.Name, out.Found = m.Name, m.Name != ""
	if m.HasFactors {
		for i, c := range m.BaseColor {
			out.Color[i] = finite32(c)
		}
	}
	if m.TextureScale != ([2]float32{}) {
		out.Scale = [2]float32{finite32(m.TextureScale[0]), finite32(m.TextureScale[1])}
	}
	out.Offset = [2]float32{finite32(m.TextureOffset[0]), finite32(m.TextureOffset[1])}
	if t := m.BaseColorTexture; t != nil && t.Image != nil {
		s.mu.Lock()
		id, ok := s.textureIDs[t]
		if !ok {
			id = len(s.textures)
			s.textures = append(s.textures, &textureResult{tex: t})
			s.textureIDs[t] = id
		}
		s.mu.Unlock()
		out.Texture = id
	}
	return out
}

// textureResult is a texture encoded as PNG once.
type textureResult struct {
	tex  *model.Texture
	once sync.Once
	png  []byte
	err  error
}

// handleTexture answers GET /api/texture/{id}: a base colour texture of a
// mesh sent with a frames answer, as PNG.
func (s *Server) handleTexture(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	n := len(s.textures)
	s.mu.Unlock()
	id, ok := index(r, "id", n)
	if !ok {
		writeError(w, http.StatusNotFound, "no such texture")
		return
	}
	s.mu.Lock()
	t := s.textures[id]
	s.mu.Unlock()
	t.once.Do(func() {
		var b bytes.Buffer
		t.err = png.Encode(&b, t.tex.Image)
		t.png = b.Bytes()
	})
	if t.err != nil {
		writeError(w, http.StatusInternalServerError, s.public(fmt.Sprintf("texture %q: %v", t.tex.Name, t.err)))
		return
	}
	w.Header().Set("Content-Type", "image/png")
	w.Header().Set("Content-Length", strconv.Itoa(len(t.png)))
	w.Write(t.png)
}

// morphWeights appends, for frame time t, every morph's weight of the
// meshes of mr in order: the clip's blend-shape channel where it drives
// the morph, the renderer's weight elsewhere.
func morphWeights(dst []float32, mr *meshResult, binds []morphBind, vals []float32) []float32 {
	start := len(dst)
	for _, sh := range mr.shapes {
		dst = append(dst, sh.weights...)
	}
	for _, b := range binds {
		dst[start+b.slot] = finite32(vals[b.ch])
	}
	return dst
}

// morphBind is a clip's float channel ch driving morph slot (counted over
// the meshes in order).
type morphBind struct{ slot, ch int }

// bindMorphs binds a clip's SkinnedMeshRenderer channels to the meshes'
// morphs, as export does: by the renderer's path and the CRC-32 of the
// blend shape's name.
func bindMorphs(targets []model.Target, mr *meshResult) (binds []morphBind, slots int) {
	for _, sh := range mr.shapes {
		for k, nm := range sh.names {
			for ch, t := range targets {
				if t.ClassID == model.ClassSkinnedMeshRenderer && t.PathHash == sh.path && (t.Attribute == nm[0] || (nm[1] != 0 && t.Attribute == nm[1])) {
					binds = append(binds, morphBind{slots + k, ch})
				}
			}
		}
		slots += len(sh.names)
	}
	return binds, slots
}

func flatten3(v [][3]float32) []float32 {
	out := make([]float32, 0, 3*len(v))
	for _, x := range v {
		for _, c := range x {
			out = append(out, finite32(c))
		}
	}
	return out
}
