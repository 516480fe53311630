package mesh

import (
	"errors"
	"fmt"
	"math"

	"github.com/mecanim/mecanim/model"
)

// Errors of the meaning checks Decode makes after reading a mesh.
var (
	// ErrNotFinite: a value bound for an output file (a position, a
	// normal, a UV, a weight, a blend shape delta, a bind pose) is NaN or
	// infinite. Unity's importers write none; a mesh that holds one is
	// damaged, and writing it would make an invalid glTF file.
	ErrNotFinite = errors.New("value not finite")
	// ErrBoneIndex: a vertex names a bone outside the mesh's bind poses
	// (whatever its weight: an unused slot of a Unity mesh names bone 0).
	ErrBoneIndex = errors.New("bone index outside the bind poses")
)

// checkMeaning checks what the bytes of a decoded mesh mean: every float an
// exporter writes is finite, every bone index names a bind pose. It
// returns the field at fault with an error naming the vertex (or blend
// shape and frame).
func checkMeaning(m *model.Mesh) (string, error) {
	vert := func(what string, i int, xs []float32) error {
		for _, x := range xs {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				return fmt.Errorf("%w: %s of vertex %d is %v", ErrNotFinite, what, i, xs)
			}
		}
		return nil
	}
	for i := range m.Positions {
		if err := vert("position", i, m.Positions[i][:]); err != nil {
			return "m_VertexData", err
		}
	}
	for i := range m.Normals {
		if err := vert("normal", i, m.Normals[i][:]); err != nil {
			return "m_VertexData", err
		}
	}
	for i := range m.Tangents {
		if err := vert("tangent", i, m.Tangents[i][:]); err != nil {
			return "m_VertexData", err
		}
	}
	for i := range m.Colors {
		if err := vert("colour", i, m.Colors[i][:]); err != nil {
			return "m_VertexData", err
		}
	}
	for k, uv := range m.UV {
		for i := range uv {
			if err := vert(fmt.Sprintf("uv%d", k), i, uv[i][:]); err != nil {
				return "m_VertexData", err
			}
		}
	}
	for i := range m.BoneWeights {
		if err := vert("bone weights", i, m.BoneWeights[i][:]); err != nil {
			return "m_VertexData", err
		}
		for _, w := range m.BoneWeights[i] {
			if w < 0 {
				return "m_VertexData", fmt.Errorf("%w: bone weights of vertex %d are %v (negative)", ErrMalformed, i, m.BoneWeights[i])
			}
		}
	}
	for i, bp := range m.BindPoses {
		for _, row := range bp {
			for _, x := range row {
				if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
					return "m_BindPose", fmt.Errorf("%w: bind pose %d is %v", ErrNotFinite, i, bp)
				}
			}
		}
	}
	// A mesh without bind poses may still carry a skin at bone 0 (the
	// default of every slot); any other bone names nothing.
	bones := max(len(m.BindPoses), 1)
	for i, bi := range m.BoneIndices {
		for k, b := range bi {
			if int(b) >= bones {
				var w float32
				if i < len(m.BoneWeights) {
					w = m.BoneWeights[i][k]
				}
				return "m_VertexData", fmt.Errorf("%w: vertex %d, slot %d (weight %g) names bone %d of %d", ErrBoneIndex, i, k, w, b, len(m.BindPoses))
			}
		}
	}
	for i := 0; i+1 < len(m.SkinOffsets); i++ {
		for _, x := range m.Skin[m.SkinOffsets[i]:m.SkinOffsets[i+1]] {
			if int(x.Bone) >= bones {
				return "m_VariableBoneCountWeights", fmt.Errorf("%w: vertex %d (weight %g) names bone %d of %d", ErrBoneIndex, i, x.Weight, x.Bone, len(m.BindPoses))
			}
		}
	}
	for si, s := range m.BlendShapes {
		for fi, f := range s.Frames {
			where := func(err error) error {
				return fmt.Errorf("blend shape %d (%q), frame %d: %w", si, s.Name, fi, err)
			}
			if math.IsNaN(float64(f.Weight)) || math.IsInf(float64(f.Weight), 0) {
				return "m_Shapes", where(fmt.Errorf("%w: weight %v", ErrNotFinite, f.Weight))
			}
			for _, d := range [][][3]float32{f.Position, f.Normal, f.Tangent} {
				for k := range d {
					if err := vert("delta", int(f.Vertices[k]), d[k][:]); err != nil {
						return "m_Shapes", where(err)
					}
				}
			}
		}
	}
	return "", nil
}
