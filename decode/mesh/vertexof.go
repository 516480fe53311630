package mesh

import "github.com/mecanim/mecanim/unity/typetree"

// VertexDataOf reads the m_VertexData of a value that holds one — a Mesh,
// or a Sprite's render data (m_RD), whose tight outline is a small mesh —
// laid out as opts.Version numbers vertex formats.
func VertexDataOf(v *typetree.Value, opts Options) (*VertexData, error) {
	return vertexData(v, opts)
}
