package mesh

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/mecanim/mecanim/unity/typetree"
)

// Influence is one bone's share of a vertex's skinning. Bone indexes
// BindPoses and the renderer's m_Bones.
type Influence struct {
	Bone   uint16
	Weight float32
}

// MaxBonesPerVertex is the most influences Unity gives one vertex: its
// Mesh.GetBonesPerVertex counts them in a byte (and the importer's
// maxBonesPerVertex ranges 1–255). Decode refuses more.
const MaxBonesPerVertex = 255

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
func (m *Mesh) readVariableSkin(v *typetree.Value) error {
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
	m.Skin = make([]Influence, 0, len(words)-first)
	for i := 0; i < n; i++ {
		lo, hi := int(words[i])+base, int(words[i+1])+base
		if lo < first || hi < lo || hi > len(words) {
			return fmt.Errorf("%w: vertex %d: influences at words %d..%d of %d", ErrMalformed, i, lo, hi, len(words))
		}
		if hi-lo > MaxBonesPerVertex {
			return fmt.Errorf("%w: vertex %d: %d influences (Unity allows %d)", ErrMalformed, i, hi-lo, MaxBonesPerVertex)
		}
		m.SkinOffsets[i] = len(m.Skin)
		start := len(m.Skin)
		for _, w := range words[lo:hi] {
			if w>>16 == 0 {
				continue // no weight: not an influence
			}
			m.Skin = append(m.Skin, Influence{Bone: uint16(w), Weight: float32(w>>16) / 65535})
		}
		sortInfluences(m.Skin[start:])
	}
	m.SkinOffsets[n] = len(m.Skin)
	return nil
}

// sortInfluences orders influences by weight, largest first, keeping the
// stored order among equal weights.
func sortInfluences(s []Influence) {
	slices.SortStableFunc(s, func(a, b Influence) int { return cmp.Compare(b.Weight, a.Weight) })
}

// HasVariableSkin reports whether the mesh stores every influence of its
// vertices beyond the four vertex channels (Skin and SkinOffsets).
func (m *Mesh) HasVariableSkin() bool {
	return len(m.SkinOffsets) == m.VertexCount+1 && m.VertexCount > 0
}

// Influences appends vertex i's influences to dst, by weight, largest first
// (zero weights left out) and returns it: all of them from Skin when the
// mesh has them there, else those of the four vertex channels. A vertex
// of a mesh with blend indices and no weights (one bone per vertex) has its
// first bone at weight 1. It returns dst unchanged when the mesh has no
// skin or i is out of range.
func (m *Mesh) Influences(i int, dst []Influence) []Influence {
	if i < 0 || i >= m.VertexCount {
		return dst
	}
	if m.HasVariableSkin() {
		lo, hi := m.SkinOffsets[i], m.SkinOffsets[i+1]
		if lo < 0 || hi < lo || hi > len(m.Skin) {
			return dst
		}
		return append(dst, m.Skin[lo:hi]...)
	}
	if i >= len(m.BoneWeights) || i >= len(m.BoneIndices) {
		return dst
	}
	start := len(dst)
	for k := range 4 {
		if w := m.BoneWeights[i][k]; w > 0 {
			dst = append(dst, Influence{Bone: m.BoneIndices[i][k], Weight: w})
		}
	}
	sortInfluences(dst[start:])
	return dst
}

// MaxInfluences returns the largest number of influences of one vertex (0
// for a mesh without skin).
func (m *Mesh) MaxInfluences() int {
	most := 0
	if m.HasVariableSkin() {
		for i := 0; i < m.VertexCount; i++ {
			most = max(most, m.SkinOffsets[i+1]-m.SkinOffsets[i])
		}
		return most
	}
	for i := range m.BoneWeights {
		k := 0
		for _, w := range m.BoneWeights[i] {
			if w > 0 {
				k++
			}
		}
		most = max(most, k)
	}
	return most
}
