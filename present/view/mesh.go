package view

import (
	"fmt"
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
}

// meshResult is a character's meshes as the page takes them, converted
// once however many requests ask at the same time.
type meshResult struct {
	once   sync.Once
	meshes []Mesh
	notes  []string
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
	res.once.Do(func() { loadMeshes(ch, res) })
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
			a.object(Mesh{Name: m.Name, Joint: m.Joint, Bones: m.Bones, BindPoses: m.BindPoses})
			if !a.floats("positions", m.Positions) || !uints(a, "indices", m.Indices) {
				return false
			}
			if m.Normals != nil && !a.floats("normals", m.Normals) {
				return false
			}
			if m.Bones != nil && (!uints(a, "bone_indices", m.BoneIndices) || !a.floats("bone_weights", m.BoneWeights)) {
				return false
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

func loadMeshes(ch *bound.Character, res *meshResult) {
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
	verts, idx := 0, 0
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
			switch sm.Topology {
			case model.Triangles:
				out.Indices = append(out.Indices, ix[:len(ix)/3*3]...)
			case model.Quads:
				for q := 0; q+3 < len(ix); q += 4 {
					out.Indices = append(out.Indices, ix[q], ix[q+1], ix[q+2], ix[q], ix[q+2], ix[q+3])
				}
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
	}
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
