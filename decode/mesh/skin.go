package mesh

import (
	"fmt"
	"math"

	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/typetree"
)

// readVariableSkin decodes m_VariableBoneCountWeights (Unity 2019.1+), the
// store of every influence of a mesh whose vertices may have more than the
// four the BlendWeight/BlendIndices channels hold (Unity's "Unlimited" skin
// weights; the channels then hold each vertex's four largest). Its m_Data
// is a uint32 array: VertexCount+1 positions, vertex i's influences lying
// between positions i and i+1, then one word per influence, the bone index
// in the low 16 bits and the weight as a UNorm16 in the high 16 bits.
// Positions count words from the start of m_Data (the first is then
// VertexCount+1); positions counted from the first influence (the first
// is then 0) are read as well. An empty array means the mesh has none.
//
// Evidence: the field and its type come from Unity's layouts (class 43,
// every version from 2019.1.0a10 on; before it, from 2018.2 on, the
// channels were all, and earlier m_Skin held exactly four per vertex);
// the positions-then-influences order is the one Unity documents for
// Mesh.GetBoneWeightBuffer with SkinWeights.Unlimited; the packing of an
// influence into one word is as a Unity-written mesh asset shows it
// (described publicly, not checked here: every one of the corpus's 222
// meshes, 71 skinned, Unity 2019.3–2023.1, has the array empty). The tests
// prove the reader on meshes they pack; the checks below refuse data
// that does not fit this layout rather than misread it.
func readVariableSkin(m *model.Mesh, v *typetree.Value) error {
	words := uint32s(v.Field("m_Data"))
	if len(words) == 0 {
		return nil
	}
	n := m.VertexCount
	if len(words) < n+1 {
		return fmt.Errorf("%w: %d words for the positions of %d vertices", ErrMalformed, len(words), n)
	}
	var base int
	switch words[0] {
	case uint32(n + 1):
		base = 0
	case 0:
		base = n + 1
	default:
		return fmt.Errorf("%w: vertex 0's influences start at word %d (want %d or 0)", ErrMalformed, words[0], n+1)
	}
	if int64(words[n])+int64(base) != int64(len(words)) {
		return fmt.Errorf("%w: the influences end at word %d of %d", ErrMalformed, int64(words[n])+int64(base), len(words))
	}
	first := n + 1
	m.SkinOffsets = make([]int, n+1)
	m.Skin = make([]model.Influence, 0, len(words)-first)
	for i := 0; i < n; i++ {
		lo, hi := int(words[i])+base, int(words[i+1])+base
		if lo < first || hi < lo || hi > len(words) {
			return fmt.Errorf("%w: vertex %d: influences at words %d..%d of %d", ErrMalformed, i, lo, hi, len(words))
		}
		if hi-lo > model.MaxBonesPerVertex {
			return fmt.Errorf("%w: vertex %d: %d influences (Unity allows %d)", ErrMalformed, i, hi-lo, model.MaxBonesPerVertex)
		}
		m.SkinOffsets[i] = len(m.Skin)
		start := len(m.Skin)
		for _, w := range words[lo:hi] {
			if w>>16 == 0 {
				continue // no weight: not an influence
			}
			m.Skin = append(m.Skin, model.Influence{Bone: uint16(w), Weight: float32(w>>16) / 65535})
		}
		model.SortInfluences(m.Skin[start:])
	}
	m.SkinOffsets[n] = len(m.Skin)
	return nil
}

// readBoneInfluences decodes m_Skin (Unity 5.0–2018.1; from 2018.2 on the
// skin is in the vertex channels): one BoneInfluence (BoneWeights4 from
// 2017.1 on) per vertex, four weights and four bone indices, unused slots
// at weight 0. An empty array means the mesh has no skin here; a
// compressed mesh keeps its skin in m_CompressedMesh instead, and a mesh
// whose skin was already read from its vertex channels keeps that one.
func readBoneInfluences(m *model.Mesh, v *typetree.Value) error {
	n := v.Len()
	if n == 0 || m.BoneWeights != nil {
		return nil
	}
	if n != m.VertexCount {
		return fmt.Errorf("%w: %d bone influences for %d vertices", ErrMalformed, n, m.VertexCount)
	}
	m.BoneWeights = make([][4]float32, n)
	m.BoneIndices = make([][4]uint16, n)
	for i := 0; i < n; i++ {
		e := v.Index(i)
		for k := range 4 {
			w := e.Field(weightFields[k]).Float32()
			b := e.Field(boneIndexFields[k]).Int()
			if b < 0 || b > 0xffff || !(w >= 0 && w <= math.MaxFloat32) {
				return fmt.Errorf("%w: vertex %d: bone %d at weight %g", ErrMalformed, i, b, w)
			}
			m.BoneWeights[i][k] = w
			m.BoneIndices[i][k] = uint16(b)
		}
	}
	return nil
}

var (
	weightFields    = [4]string{"weight[0]", "weight[1]", "weight[2]", "weight[3]"}
	boneIndexFields = [4]string{"boneIndex[0]", "boneIndex[1]", "boneIndex[2]", "boneIndex[3]"}
)
