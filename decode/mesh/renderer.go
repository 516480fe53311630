package mesh

import (
	"fmt"

	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/typetree"
)

// Renderer is what draws a mesh on a GameObject: a SkinnedMeshRenderer
// (Skinned, with its bones) or a MeshFilter's mesh (rigid, drawn at the
// GameObject's transform).
type Renderer struct {
	GameObject model.Ref
	Mesh       model.Ref
	Skinned    bool
	// Bones are the Transforms the mesh's bone indices name, in order
	// (parallel to the mesh's BindPoses); a null Ref is a missing bone.
	Bones    []model.Ref
	RootBone model.Ref
	// BlendShapeWeights are the renderer's current weights (0..100) per
	// blend-shape channel of the mesh.
	BlendShapeWeights []float32
	Materials         []model.Ref
}

// DecodeSkinnedRenderer converts a decoded SkinnedMeshRenderer (class 137).
func DecodeSkinnedRenderer(v *typetree.Value) (*Renderer, error) {
	if v.Kind() != typetree.KindStruct || !v.Has("m_GameObject") || !v.Has("m_Mesh") {
		return nil, fmt.Errorf("SkinnedMeshRenderer: %w: missing m_GameObject or m_Mesh", ErrMalformed)
	}
	r := &Renderer{
		GameObject:        ref(v.Field("m_GameObject")),
		Mesh:              ref(v.Field("m_Mesh")),
		Skinned:           true,
		RootBone:          ref(v.Field("m_RootBone")),
		BlendShapeWeights: floats(v.Field("m_BlendShapeWeights")),
	}
	for _, b := range v.Field("m_Bones").Elems() {
		r.Bones = append(r.Bones, ref(&b))
	}
	for _, m := range v.Field("m_Materials").Elems() {
		r.Materials = append(r.Materials, ref(&m))
	}
	return r, nil
}

// DecodeMeshFilter converts a decoded MeshFilter (class 33): a rigid mesh
// on its GameObject.
func DecodeMeshFilter(v *typetree.Value) (*Renderer, error) {
	if v.Kind() != typetree.KindStruct || !v.Has("m_GameObject") || !v.Has("m_Mesh") {
		return nil, fmt.Errorf("MeshFilter: %w: missing m_GameObject or m_Mesh", ErrMalformed)
	}
	return &Renderer{GameObject: ref(v.Field("m_GameObject")), Mesh: ref(v.Field("m_Mesh"))}, nil
}

func ref(v *typetree.Value) model.Ref {
	f, p, _ := v.PPtr()
	return model.Ref{FileID: f, PathID: p}
}
