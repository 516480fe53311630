package mesh

import (
	"encoding/binary"
	"math"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/model"
)

func TestHalfConvertsEveryClassOfValue(t *testing.T) {
	for _, c := range []struct {
		h    uint16
		want float32
	}{
		{0x0000, 0}, {0x3c00, 1}, {0xbc00, -1}, {0x3800, 0.5}, {0x7bff, 65504},
		{0x0001, 5.9604645e-08}, {0x0400, 6.1035156e-05}, {0x3555, 0.33325195},
		{0x7c00, float32(math.Inf(1))}, {0xfc00, float32(math.Inf(-1))},
	} {
		if got := Half(c.h); got != c.want {
			t.Errorf("Half(%#04x) = %g, want %g", c.h, got, c.want)
		}
	}
	if g := Half(0x7e00); g == g {
		t.Errorf("Half(NaN) = %g", g)
	}
}

func TestFloatsDecodesEachFormat(t *testing.T) {
	le := binary.LittleEndian
	for _, c := range []struct {
		f    VertexFormat
		raw  []byte
		want float32
	}{
		{FormatFloat, le.AppendUint32(nil, math.Float32bits(-2.5)), -2.5},
		{FormatFloat16, le.AppendUint16(nil, 0xc000), -2},
		{FormatUNorm8, []byte{255}, 1},
		{FormatSNorm8, []byte{0x80}, -1},
		{FormatSNorm8, []byte{127}, 1},
		{FormatUNorm16, le.AppendUint16(nil, 65535), 1},
		{FormatSNorm16, le.AppendUint16(nil, 0x8001), -1},
		{FormatUInt8, []byte{200}, 200},
		{FormatSInt8, []byte{0xff}, -1},
		{FormatUInt16, le.AppendUint16(nil, 40000), 40000},
		{FormatSInt16, le.AppendUint16(nil, 0xfffe), -2},
		{FormatUInt32, le.AppendUint32(nil, 70000), 70000},
		{FormatSInt32, le.AppendUint32(nil, 0xfffffffd), -3},
	} {
		t.Run(c.f.String(), func(t *testing.T) {
			// One-component channel, two vertices; pad the stride to 4 bytes.
			stride := 4
			data := make([]byte, 2*stride)
			copy(data, c.raw)
			copy(data[stride:], c.raw)
			vd := &VertexData{VertexCount: 2, Channels: make([]Channel, NumChannels), Data: data}
			vd.Channels[ChanPosition] = Channel{Format: c.f, Dimension: 1}
			vd.Channels[ChanNormal] = Channel{Offset: 3, Format: FormatUInt8, Dimension: 1} // pads the stride
			got, dim, err := vd.Floats(ChanPosition, nil)
			if err != nil || dim != 1 || len(got) != 2 || got[0] != c.want || got[1] != c.want {
				t.Errorf("got %v dim %d err %v, want %g", got, dim, err, c.want)
			}
		})
	}
}

func TestStreamsAlignEachStreamTo16Bytes(t *testing.T) {
	// Three streams: float3 (12 bytes), float16x2 (4), uint32 (4); 5 vertices.
	vd := &VertexData{VertexCount: 5, Channels: make([]Channel, NumChannels)}
	vd.Channels[ChanPosition] = Channel{Stream: 0, Format: FormatFloat, Dimension: 3}
	vd.Channels[ChanUV0] = Channel{Stream: 1, Format: FormatFloat16, Dimension: 2}
	vd.Channels[ChanIndices] = Channel{Stream: 2, Format: FormatUInt32, Dimension: 1}
	vd.Data = make([]byte, 116)
	s, n, err := vd.Streams()
	if err != nil {
		t.Fatal(err)
	}
	want := []Stream{{0, 12}, {64, 4}, {96, 4}}
	for i := range want {
		if s[i] != want[i] {
			t.Errorf("stream %d = %+v, want %+v", i, s[i], want[i])
		}
	}
	if n != 116 {
		t.Errorf("size %d, want 116", n)
	}
	vd.Data = vd.Data[:115]
	if _, _, err := vd.Streams(); err == nil || !strings.Contains(err.Error(), "runs past") {
		t.Errorf("short data: err %v", err)
	}
}

func TestStreamsRejectBadChannels(t *testing.T) {
	for name, c := range map[string]Channel{
		"stream":    {Stream: 7, Format: FormatFloat, Dimension: 3},
		"format":    {Format: 40, Dimension: 3},
		"dimension": {Format: FormatFloat, Dimension: 9},
		"offset":    {Format: FormatFloat, Dimension: 1, Offset: -4},
	} {
		vd := &VertexData{VertexCount: 1, Channels: make([]Channel, NumChannels), Data: make([]byte, 64)}
		vd.Channels[ChanPosition] = c
		if _, _, err := vd.Streams(); err == nil {
			t.Errorf("%s: accepted %+v", name, c)
		}
	}
}

func TestFormatFromVersionShiftsThe2017Numbering(t *testing.T) {
	for _, c := range []struct {
		stored uint8
		major  int
		want   VertexFormat
	}{
		{0, 2018, FormatFloat}, {1, 2018, FormatFloat16}, {2, 2018, FormatUNorm8},
		{3, 2018, FormatUNorm8}, {11, 2018, FormatUInt32}, {10, 2019, FormatUInt32},
		{2, 0, FormatUNorm8}, {10, 2022, FormatUInt32},
	} {
		if got := FormatFromVersion(c.stored, c.major); got != c.want {
			t.Errorf("FormatFromVersion(%d, %d) = %v, want %v", c.stored, c.major, got, c.want)
		}
	}
}

// FuzzVertexData decodes arbitrary channel descriptions over arbitrary
// bytes: every channel must decode or fail with an error, never panic or
// read out of bounds. Seeded from the corpus's meshes.
func FuzzVertexData(f *testing.F) {
	f.Add(uint16(3), []byte{0, 0, 0, 3, 0, 12, 1, 2}, make([]byte, 48))
	if _, ok := corpusLookup(); ok {
		for i, cm := range corpusMeshes(f, ClassMesh) {
			if i%16 != 0 {
				continue
			}
			v, err := cm.f.Decode(cm.o)
			if err != nil {
				continue
			}
			vd, err := vertexData(v, Options{ReadStream: cm.f.Container.ReadStream})
			if err != nil {
				continue
			}
			var desc []byte
			for _, c := range vd.Channels {
				desc = append(desc, byte(c.Stream), byte(c.Offset), byte(c.Format), byte(c.Dimension))
			}
			data := vd.Data
			if len(data) > 4096 {
				data = data[:4096]
			}
			f.Add(uint16(min(vd.VertexCount, 1000)), desc, data)
		}
	}
	f.Fuzz(func(t *testing.T, count uint16, desc, data []byte) {
		vd := &VertexData{VertexCount: int(count), Channels: make([]Channel, NumChannels), Data: data}
		for i := 0; i < NumChannels && 4*i+3 < len(desc); i++ {
			d := desc[4*i:]
			vd.Channels[i] = Channel{Stream: int(d[0]), Offset: int(d[1]), Format: VertexFormat(d[2]), Dimension: int(d[3] & 0x0f)}
		}
		for ch := 0; ch < NumChannels; ch++ {
			vd.Floats(ch, nil)
			vd.Uints(ch)
		}
		m := &model.Mesh{}
		readVertices(m, vd)
	})
}
