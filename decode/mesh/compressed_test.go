package mesh

import (
	"errors"
	"math"
	"testing"

	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/unitywrite"
)

// packInts packs values of bits bits, least significant bit first, as a
// PackedBitVector's m_Data.
func packInts(vals []uint32, bits int) []byte {
	out := make([]byte, (len(vals)*bits+7)/8)
	bit := 0
	for _, v := range vals {
		for k := 0; k < bits; k++ {
			if v>>k&1 != 0 {
				out[bit/8] |= 1 << (bit % 8)
			}
			bit++
		}
	}
	return out
}

func packedInts(vals []uint32, bits int) unitywrite.Fields {
	return unitywrite.Fields{"m_NumItems": uint32(len(vals)), "m_Data": packInts(vals, bits), "m_BitSize": uint8(bits)}
}

// packedFloats quantises values over their range.
func packedFloats(vals []float32, bits int) unitywrite.Fields {
	lo, hi := vals[0], vals[0]
	for _, v := range vals {
		lo, hi = min(lo, v), max(hi, v)
	}
	q := make([]uint32, len(vals))
	steps := float64(uint64(1)<<bits - 1)
	for i, v := range vals {
		if hi > lo {
			q[i] = uint32(math.Round(float64(v-lo) / float64(hi-lo) * steps))
		}
	}
	f := packedInts(q, bits)
	f["m_Range"], f["m_Start"] = hi-lo, lo
	return f
}

// compressedQuad is quadMesh stored with mesh compression: positions, two
// UV channels (2D and 3D, by m_UVInfo), normals with their signs, tangents,
// skin weights in 31sts (one vertex with four bones) and the triangles.
func compressedQuad() unitywrite.Fields {
	f := quadMesh()
	f["m_MeshCompression"] = uint8(2)
	f["m_BindPose"] = bindPoses(4)
	f["m_VertexData"] = unitywrite.Fields{"m_Channels": chans(nil)}
	f["m_IndexBuffer"] = []byte{}
	f["m_IndexFormat"] = int32(0)
	f["m_SubMeshes"].([]unitywrite.Fields)[0]["topology"] = int32(model.Triangles)
	f["m_SubMeshes"].([]unitywrite.Fields)[0]["indexCount"] = uint32(6)
	f["m_Shapes"] = unitywrite.Fields{}
	pos := []float32{0, 0, 0, 1, 0, 0, 1, 2, 0, 0, 2, 0}
	uv0 := []float32{0, 0, 1, 0, 1, 1, 0, 1}
	uv1 := []float32{0, 0, 0.5, 1, 0, 0.5, 1, 1, 0.5, 0, 1, 0.5}
	s := float32(math.Sqrt(0.5))
	f["m_CompressedMesh"] = unitywrite.Fields{
		"m_Vertices":     packedFloats(pos, 16),
		"m_UV":           packedFloats(append(uv0, uv1...), 12),
		"m_UVInfo":       uint32(4|1) | uint32(4|2)<<4, // uv0 2D, uv1 3D
		"m_Normals":      packedFloats([]float32{0, 0, 0, s, 0, 1, 1, 0}, 10),
		"m_NormalSigns":  packedInts([]uint32{0, 0, 1, 1}, 1),
		"m_Tangents":     packedFloats([]float32{1, 0, 1, 0, 1, 0, 1, 0}, 10),
		"m_TangentSigns": packedInts([]uint32{1, 0, 1, 0, 1, 1, 1, 1}, 1),
		// vertex 0: 31 on bone 0; vertex 1: 16+15 on 0, 1; vertex 2: 10,
		// 10, 10 and the remaining 1 on bones 0..3; vertex 3: 31 on 1.
		"m_Weights":     packedInts([]uint32{31, 16, 15, 10, 10, 10, 31}, 5),
		"m_BoneIndices": packedInts([]uint32{0, 0, 1, 0, 1, 2, 3, 1}, 2),
		"m_Triangles":   packedInts([]uint32{0, 1, 2, 0, 2, 3}, 3),
	}
	return f
}

func TestDecodeUnpacksCompressedMeshes(t *testing.T) {
	m, err := decodeFields(t, compressedQuad(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	close3 := func(a, b [3]float32, tol float64) bool {
		for k := range 3 {
			if math.Abs(float64(a[k]-b[k])) > tol {
				return false
			}
		}
		return true
	}
	if m.VertexCount != 4 || !close3(m.Positions[2], [3]float32{1, 2, 0}, 1e-4) {
		t.Errorf("positions %v", m.Positions)
	}
	if m.UV[0][2] != [2]float32{1, 1} || math.Abs(float64(m.UV[1][2][1])-1) > 1e-3 || m.UV[2] != nil {
		t.Errorf("uv0 %v uv1 %v", m.UV[0], m.UV[1])
	}
	if !close3(m.Normals[0], [3]float32{0, 0, -1}, 1e-3) || !close3(m.Normals[2], [3]float32{0, 1, 0}, 1e-3) || !close3(m.Normals[1], [3]float32{0, 0.70710677, -0.70710677}, 2e-3) {
		t.Errorf("normals %v", m.Normals)
	}
	if m.Tangents[0] != [4]float32{1, 0, 0, -1} || m.Tangents[2][3] != 1 {
		t.Errorf("tangents %v", m.Tangents)
	}
	want := [][4]float32{{1}, {16.0 / 31, 15.0 / 31}, {10.0 / 31, 10.0 / 31, 10.0 / 31, 1.0 / 31}, {1}}
	wantB := [][4]uint16{{0}, {0, 1}, {0, 1, 2, 3}, {1}}
	for i := range want {
		if m.BoneWeights[i] != want[i] || m.BoneIndices[i] != wantB[i] {
			t.Errorf("vertex %d: weights %v bones %v", i, m.BoneWeights[i], m.BoneIndices[i])
		}
	}
	if got := m.SubMeshIndices(0); len(got) != 6 || got[5] != 3 {
		t.Errorf("indices %v", got)
	}
}

func TestDecodeRefusesCompressedMeshesOffTheirBounds(t *testing.T) {
	f := compressedQuad()
	f["m_CompressedMesh"].(unitywrite.Fields)["m_Vertices"].(unitywrite.Fields)["m_Range"] = float32(3)
	if _, err := decodeFields(t, f, Options{}); !errors.Is(err, ErrCompressed) {
		t.Errorf("err %v", err)
	}
	f = compressedQuad()
	f["m_CompressedMesh"].(unitywrite.Fields)["m_Weights"] = packedInts([]uint32{31, 16, 15}, 5)
	if _, err := decodeFields(t, f, Options{}); !errors.Is(err, ErrMalformed) {
		t.Errorf("short weights: err %v", err)
	}
	f = compressedQuad()
	f["m_CompressedMesh"].(unitywrite.Fields)["m_Vertices"].(unitywrite.Fields)["m_NumItems"] = uint32(3000)
	if _, err := decodeFields(t, f, Options{}); !errors.Is(err, ErrMalformed) {
		t.Errorf("count past data: err %v", err)
	}
}
