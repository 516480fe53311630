package mesh

import (
	"encoding/binary"
	"errors"
	"math"
	"testing"

	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/layouts"
	"github.com/mecanim/mecanim/unity/typetree"
	"github.com/mecanim/mecanim/unity/unityversion"
	"github.com/mecanim/mecanim/unity/unitywrite"
)

// meshTree returns Unity 2022.3's Mesh layout (built in, not from a file).
func meshTree(tb testing.TB) *typetree.Tree {
	tb.Helper()
	t, _, err := layouts.Lookup(unityversion.MustParse("2022.3.9f1"), ClassMesh)
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

func v3(x, y, z float32) unitywrite.Fields { return unitywrite.Fields{"x": x, "y": y, "z": z} }

func box(c, e [3]float32) unitywrite.Fields {
	return unitywrite.Fields{"m_Center": v3(c[0], c[1], c[2]), "m_Extent": v3(e[0], e[1], e[2])}
}

func chans(set map[int][4]int) []unitywrite.Fields {
	out := make([]unitywrite.Fields, NumChannels)
	for i := range out {
		c := set[i]
		out[i] = unitywrite.Fields{"stream": uint8(c[0]), "offset": uint8(c[1]), "format": uint8(c[2]), "dimension": uint8(c[3])}
	}
	return out
}

// quadMesh is a two-stream skinned quad: stream 0 float3 positions and
// Float16x4 normals (with the flag bits Unity sets in the dimension),
// stream 1 float2 weights and uint32x2 indices; 32-bit indices forming one
// quad sub-mesh; a blend shape of two frames.
func quadMesh() unitywrite.Fields {
	le := binary.LittleEndian
	pos := [][3]float32{{0, 0, 0}, {1, 0, 0}, {1, 2, 0}, {0, 2, 0}}
	var data []byte
	for _, p := range pos {
		for _, x := range p {
			data = le.AppendUint32(data, math.Float32bits(x))
		}
		data = le.AppendUint16(data, 0)      // nx
		data = le.AppendUint16(data, 0)      // ny
		data = le.AppendUint16(data, 0xbc00) // nz = -1
		data = le.AppendUint16(data, 0)      // pad
	}
	for len(data)%16 != 0 {
		data = append(data, 0)
	}
	for i := range pos {
		w := float32(i) / 4
		data = le.AppendUint32(data, math.Float32bits(1-w))
		data = le.AppendUint32(data, math.Float32bits(w))
		data = le.AppendUint32(data, 0)
		data = le.AppendUint32(data, 1)
	}
	var idx []byte
	for _, i := range []uint32{0, 1, 2, 3} {
		idx = le.AppendUint32(idx, i)
	}
	bind := unitywrite.Fields{"e00": float32(1), "e11": float32(1), "e22": float32(1), "e33": float32(1), "e03": float32(-0.5)}
	return unitywrite.Fields{
		"m_Name": "quad",
		"m_SubMeshes": []unitywrite.Fields{{
			"firstByte": uint32(0), "indexCount": uint32(4), "topology": int32(model.Quads),
			"vertexCount": uint32(4), "localAABB": box([3]float32{0.5, 1, 0}, [3]float32{0.5, 1, 0}),
		}},
		"m_Shapes": unitywrite.Fields{
			"vertices": []unitywrite.Fields{
				{"vertex": v3(0, 1, 0), "normal": v3(0, 0, 0), "tangent": v3(0, 0, 0), "index": uint32(2)},
				{"vertex": v3(0, 2, 0), "normal": v3(0, 0, 0), "tangent": v3(0, 0, 0), "index": uint32(2)},
				{"vertex": v3(0, 0, 1), "normal": v3(0, 1, 0), "tangent": v3(0, 0, 0), "index": uint32(3)},
			},
			"shapes": []unitywrite.Fields{
				{"firstVertex": uint32(0), "vertexCount": uint32(1)},
				{"firstVertex": uint32(1), "vertexCount": uint32(2), "hasNormals": true},
			},
			"channels":    []unitywrite.Fields{{"name": "blendShape1.up", "nameHash": uint32(1234), "frameIndex": int32(0), "frameCount": int32(2)}},
			"fullWeights": []float32{50, 100},
		},
		"m_BindPose":         []unitywrite.Fields{bind, bind},
		"m_BoneNameHashes":   []uint32{11, 22},
		"m_RootBoneNameHash": uint32(11),
		"m_IndexFormat":      int32(1),
		"m_IndexBuffer":      idx,
		"m_VertexData": unitywrite.Fields{
			"m_VertexCount": uint32(4),
			"m_Channels": chans(map[int][4]int{
				ChanPosition: {0, 0, int(FormatFloat), 3},
				ChanNormal:   {0, 12, int(FormatFloat16), 0x34},
				ChanWeights:  {1, 0, int(FormatFloat), 2},
				ChanIndices:  {1, 8, int(FormatUInt32), 2},
			}),
			"m_DataSize": data,
		},
		"m_LocalAABB": box([3]float32{0.5, 1, 0}, [3]float32{0.5, 1, 0}),
	}
}

func decodeFields(t *testing.T, f unitywrite.Fields, opts Options) (*model.Mesh, error) {
	t.Helper()
	tree := meshTree(t)
	b, err := unitywrite.Encode(tree, f)
	if err != nil {
		t.Fatal(err)
	}
	v, err := typetree.Decode(tree, b, binary.LittleEndian)
	if err != nil {
		t.Fatal(err)
	}
	return Decode(v, opts)
}

func TestDecodeReadsEveryPartOfAMesh(t *testing.T) {
	m, err := decodeFields(t, quadMesh(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if m.Name != "quad" || m.VertexCount != 4 || m.Positions[2] != [3]float32{1, 2, 0} {
		t.Errorf("vertices: %+v", m.Positions)
	}
	if m.Normals[3] != [3]float32{0, 0, -1} {
		t.Errorf("normal %v", m.Normals[3])
	}
	if m.BoneWeights[1] != [4]float32{0.75, 0.25} || m.BoneIndices[1] != [4]uint16{0, 1} {
		t.Errorf("skin %v %v", m.BoneWeights[1], m.BoneIndices[1])
	}
	if got := m.SubMeshIndices(0); len(got) != 4 || got[3] != 3 || m.SubMeshes[0].Topology != model.Quads {
		t.Errorf("indices %v", got)
	}
	if len(m.BindPoses) != 2 || m.BindPoses[1][0][3] != -0.5 || m.BindPoses[1][3][3] != 1 {
		t.Errorf("bind poses %v", m.BindPoses)
	}
	if m.RootBoneNameHash != 11 || len(m.BoneNameHashes) != 2 {
		t.Errorf("bone hashes %v %d", m.BoneNameHashes, m.RootBoneNameHash)
	}
	if len(m.BlendShapes) != 1 {
		t.Fatalf("blend shapes %+v", m.BlendShapes)
	}
	bs := m.BlendShapes[0]
	if bs.Name != "blendShape1.up" || bs.NameHash != 1234 || len(bs.Frames) != 2 {
		t.Fatalf("blend shape %+v", bs)
	}
	f0, f1 := bs.Frames[0], bs.Frames[1]
	if f0.Weight != 50 || f0.Vertices[0] != 2 || f0.Position[0] != [3]float32{0, 1, 0} || f0.Normal != nil {
		t.Errorf("frame 0 %+v", f0)
	}
	if f1.Weight != 100 || len(f1.Vertices) != 2 || f1.Vertices[1] != 3 || f1.Normal[1] != [3]float32{0, 1, 0} {
		t.Errorf("frame 1 %+v", f1)
	}
}

func TestDecodeReadsStreamedVertices(t *testing.T) {
	f := quadMesh()
	vd := f["m_VertexData"].(unitywrite.Fields)
	data := vd["m_DataSize"].([]byte)
	vd["m_DataSize"] = []byte{}
	f["m_StreamData"] = unitywrite.Fields{"offset": uint64(100), "size": uint32(len(data)), "path": "archive:/CAB-x/CAB-x.resS"}
	var asked string
	read := func(path string, off uint64, size uint32) ([]byte, error) {
		asked = path
		if off != 100 || int(size) != len(data) {
			t.Errorf("read %d bytes at %d", size, off)
		}
		return data, nil
	}
	m, err := decodeFields(t, f, Options{ReadStream: read})
	if err != nil || asked != "archive:/CAB-x/CAB-x.resS" || m.Positions[2] != [3]float32{1, 2, 0} {
		t.Fatalf("mesh %v, err %v, asked %q", m, err, asked)
	}
	if _, err := decodeFields(t, f, Options{}); !errors.Is(err, ErrNoStream) {
		t.Errorf("no reader: err %v", err)
	}
}

func TestDecodeRefusesBadMeshes(t *testing.T) {
	for name, c := range map[string]struct {
		edit func(f unitywrite.Fields)
		want error
	}{
		"compressed without data": {func(f unitywrite.Fields) { f["m_MeshCompression"] = uint8(1) }, ErrMalformed},
		"index past vertices": {func(f unitywrite.Fields) {
			f["m_IndexBuffer"] = binary.LittleEndian.AppendUint32(make([]byte, 12), 9)
		}, ErrMalformed},
		"sub-mesh past buffer": {func(f unitywrite.Fields) {
			f["m_SubMeshes"].([]unitywrite.Fields)[0]["indexCount"] = uint32(40)
		}, ErrMalformed},
		"topology": {func(f unitywrite.Fields) {
			f["m_SubMeshes"].([]unitywrite.Fields)[0]["topology"] = int32(9)
		}, ErrMalformed},
		"index format": {func(f unitywrite.Fields) { f["m_IndexFormat"] = int32(3) }, ErrMalformed},
		"shape frames": {func(f unitywrite.Fields) {
			f["m_Shapes"].(unitywrite.Fields)["channels"].([]unitywrite.Fields)[0]["frameCount"] = int32(5)
		}, ErrMalformed},
		"shape vertex": {func(f unitywrite.Fields) {
			f["m_Shapes"].(unitywrite.Fields)["vertices"].([]unitywrite.Fields)[0]["index"] = uint32(4)
		}, ErrMalformed},
		"no positions": {func(f unitywrite.Fields) {
			f["m_VertexData"].(unitywrite.Fields)["m_Channels"].([]unitywrite.Fields)[0]["dimension"] = uint8(0)
		}, ErrMalformed},
	} {
		f := quadMesh()
		c.edit(f)
		_, err := decodeFields(t, f, Options{})
		var me *Error
		if !errors.Is(err, c.want) || !errors.As(err, &me) || me.Mesh != "quad" {
			t.Errorf("%s: err %v, want %v naming the mesh", name, err, c.want)
		}
	}
	// Data too short for the streams the channels describe.
	f := quadMesh()
	vd := f["m_VertexData"].(unitywrite.Fields)
	vd["m_DataSize"] = vd["m_DataSize"].([]byte)[:70]
	if _, err := decodeFields(t, f, Options{}); err == nil {
		t.Error("short vertex data accepted")
	}
}

// FuzzDecode decodes arbitrary bytes as a 2022.3 Mesh and converts what
// decodes: never a panic, never an allocation beyond the input's reach.
func FuzzDecode(f *testing.F) {
	tree := meshTree(f)
	skinned := quadMesh()
	skinned["m_VariableBoneCountWeights"] = unitywrite.Fields{"m_Data": packSkin(sixInfluences, false)}
	for _, m := range []unitywrite.Fields{quadMesh(), compressedQuad(), skinned} {
		if b, err := unitywrite.Encode(tree, m); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := typetree.Decode(tree, b, binary.LittleEndian)
		if err != nil {
			return
		}
		m, err := Decode(v, Options{})
		if err != nil {
			return
		}
		for i := range m.SubMeshes {
			m.SubMeshIndices(i)
		}
		var buf []model.Influence
		for i := 0; i < m.VertexCount; i++ {
			buf = m.Influences(i, buf[:0])
		}
		m.MaxInfluences()
	})
}
