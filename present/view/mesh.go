package view

import (
	"fmt"

	"github.com/mecanim/mecanim/bound"
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
	Positions []float32 `json:"positions"`
	Normals   []float32 `json:"normals,omitempty"`
	// Indices are triangles (quads are split).
	Indices []uint32 `json:"indices"`
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

type meshResult struct {
	meshes []Mesh
	notes  []string
}

// meshesFor returns the character's meshes for the page, converted once
// per character. Mesh node and bone indexes are the character's joints.
func (s *Server) meshesFor(ch *bound.Character) ([]Mesh, []string) {
	s.mu.Lock()
	if res, ok := s.meshCache[ch]; ok {
		s.mu.Unlock()
		return res.meshes, res.notes
	}
	s.mu.Unlock()
	res := loadMeshes(ch)
	s.mu.Lock()
	s.meshCache[ch] = res
	s.mu.Unlock()
	return res.meshes, res.notes
}

func loadMeshes(ch *bound.Character) *meshResult {
	res := &meshResult{meshes: []Mesh{}, notes: []string{}}
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
						out.BindPoses = append(out.BindPoses, m.BindPoses[b][row][c])
					}
				}
			}
			out.BoneIndices = make([]uint16, 0, 4*m.VertexCount)
			out.BoneWeights = make([]float32, 0, 4*m.VertexCount)
			for v := 0; v < m.VertexCount; v++ {
				for k := 0; k < 4; k++ {
					bi, w := m.BoneIndices[v][k], m.BoneWeights[v][k]
					if int(bi) >= len(m.BindPoses) || !(w > 0) {
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
	return res
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
