package mesh

import (
	"errors"
	"math"
	"testing"

	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/unitywrite"
)

// packSkin lays influences out as m_VariableBoneCountWeights.m_Data does:
// VertexCount+1 positions (counted from the start of the array, or from
// the first influence when relative), then one word per influence, bone in
// the low half, UNorm16 weight in the high half, in the order given.
func packSkin(per [][]model.Influence, relative bool) []uint32 {
	n := len(per)
	words := make([]uint32, n+1)
	pos := n + 1
	if relative {
		pos = 0
	}
	for i, infl := range per {
		words[i] = uint32(pos)
		pos += len(infl)
	}
	words[n] = uint32(pos)
	for _, infl := range per {
		for _, x := range infl {
			q := uint32(math.Round(float64(x.Weight) * 65535))
			words = append(words, q<<16|uint32(x.Bone))
		}
	}
	return words
}

// sixInfluences gives the quad's vertex 1 six bones (stored out of
// order), vertex 3 one, and the others two and none.
var sixInfluences = [][]model.Influence{
	{{Bone: 0, Weight: 0.5}, {Bone: 1, Weight: 0.5}},
	{{Bone: 5, Weight: 0.05}, {Bone: 0, Weight: 0.3}, {Bone: 2, Weight: 0.2}, {Bone: 1, Weight: 0.25}, {Bone: 3, Weight: 0.1}, {Bone: 4, Weight: 0.1}},
	{},
	{{Bone: 1, Weight: 1}},
}

// bindPoses returns n identity bind poses (a bone index must name one).
func bindPoses(n int) []unitywrite.Fields {
	out := make([]unitywrite.Fields, n)
	for i := range out {
		out[i] = unitywrite.Fields{"e00": float32(1), "e11": float32(1), "e22": float32(1), "e33": float32(1)}
	}
	return out
}

func TestDecodeReadsEveryInfluenceBeyondFour(t *testing.T) {
	for _, relative := range []bool{false, true} {
		f := quadMesh()
		f["m_BindPose"] = bindPoses(6)
		f["m_VariableBoneCountWeights"] = unitywrite.Fields{"m_Data": packSkin(sixInfluences, relative)}
		m, err := decodeFields(t, f, Options{})
		if err != nil {
			t.Fatalf("relative %v: %v", relative, err)
		}
		if !m.HasVariableSkin() || m.MaxInfluences() != 6 {
			t.Fatalf("relative %v: variable skin %v, max %d", relative, m.HasVariableSkin(), m.MaxInfluences())
		}
		got := m.Influences(1, nil)
		wantBones := []uint16{0, 1, 2, 3, 4, 5} // by weight, ties in stored order
		if len(got) != 6 {
			t.Fatalf("vertex 1: %v", got)
		}
		var sum float64
		for k, x := range got {
			if x.Bone != wantBones[k] {
				t.Errorf("vertex 1 influence %d: bone %d, want %d (%v)", k, x.Bone, wantBones[k], got)
			}
			sum += float64(x.Weight)
		}
		if math.Abs(sum-1) > 1e-4 {
			t.Errorf("vertex 1 weights sum to %g", sum)
		}
		if g := m.Influences(2, nil); len(g) != 0 {
			t.Errorf("vertex 2: %v", g)
		}
		if g := m.Influences(3, nil); len(g) != 1 || g[0] != (model.Influence{Bone: 1, Weight: 1}) {
			t.Errorf("vertex 3: %v", g)
		}
		// The vertex channels are still read as stored.
		if m.BoneWeights[1] != [4]float32{0.75, 0.25} {
			t.Errorf("channels %v", m.BoneWeights[1])
		}
	}
}

func TestInfluencesFallBackToTheVertexChannels(t *testing.T) {
	m, err := decodeFields(t, quadMesh(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if m.HasVariableSkin() || m.Skin != nil {
		t.Fatal("a mesh without m_VariableBoneCountWeights data has a variable skin")
	}
	// Vertex 1: weights 0.75 on bone 0, 0.25 on bone 1; vertex 0: 1 on bone 0.
	if g := m.Influences(1, nil); len(g) != 2 || g[0] != (model.Influence{Bone: 0, Weight: 0.75}) || g[1] != (model.Influence{Bone: 1, Weight: 0.25}) {
		t.Errorf("vertex 1: %v", g)
	}
	if g := m.Influences(0, nil); len(g) != 1 || g[0].Weight != 1 {
		t.Errorf("vertex 0: %v", g)
	}
	if m.MaxInfluences() != 2 {
		t.Errorf("max influences %d", m.MaxInfluences())
	}
	// Weights stored smallest first come back largest first.
	m.BoneWeights[2] = [4]float32{0.1, 0.2, 0.7}
	m.BoneIndices[2] = [4]uint16{7, 8, 9}
	if g := m.Influences(2, nil); len(g) != 3 || g[0].Bone != 9 || g[2].Bone != 7 {
		t.Errorf("vertex 2: %v", g)
	}
	if g := m.Influences(9, []model.Influence{{Bone: 1, Weight: 1}}); len(g) != 1 {
		t.Errorf("out of range vertex: %v", g)
	}
}

func TestDecodeRefusesBadVariableSkins(t *testing.T) {
	good := packSkin(sixInfluences, false)
	tooMany := make([][]model.Influence, 4)
	for k := range 256 {
		tooMany[0] = append(tooMany[0], model.Influence{Bone: uint16(k), Weight: 1.0 / 256})
	}
	for name, words := range map[string][]uint32{
		"short":             good[:3],
		"first position":    append([]uint32{2}, good[1:]...),
		"end past data":     good[:len(good)-1],
		"end before data":   append(append([]uint32{}, good...), 0),
		"positions go back": func() []uint32 { w := append([]uint32{}, good...); w[2] = w[1] - 1; return w }(),
		"over 255 bones":    packSkin(tooMany, false),
	} {
		f := quadMesh()
		f["m_VariableBoneCountWeights"] = unitywrite.Fields{"m_Data": words}
		_, err := decodeFields(t, f, Options{})
		var me *Error
		if !errors.Is(err, ErrMalformed) || !errors.As(err, &me) || me.Field != "m_VariableBoneCountWeights" {
			t.Errorf("%s: err %v, want ErrMalformed naming m_VariableBoneCountWeights", name, err)
		}
	}
}
