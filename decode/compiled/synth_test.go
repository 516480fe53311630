package compiled

import (
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/typetree"
)

// buildTree writes a type tree from an indented outline: each line is
// "<type> <name> [size] [align] [array]", two spaces per level.
func buildTree(t *testing.T, outline string) *typetree.Tree {
	t.Helper()
	tr := &typetree.Tree{}
	for _, line := range strings.Split(strings.Trim(outline, "\n"), "\n") {
		trimmed := strings.TrimLeft(line, " ")
		level := (len(line) - len(trimmed)) / 2
		f := strings.Fields(trimmed)
		n := typetree.Node{Level: level, Type: f[0], Name: f[1], ByteSize: -1, Index: int32(len(tr.Nodes))}
		for _, opt := range f[2:] {
			switch opt {
			case "align":
				n.Flags |= typetree.FlagAlign
			case "array":
				n.TypeFlags = 1
			default:
				var sz int32
				for _, c := range opt {
					sz = sz*10 + int32(c-'0')
				}
				n.ByteSize = sz
			}
		}
		tr.Nodes = append(tr.Nodes, n)
	}
	return tr
}

// clipTree is a reduced AnimationClip layout (the fields the converter
// reads), with the streamed curve count of the old (UInt32) or new (2 × UInt16) layout.
func clipTree(t *testing.T, newCounts bool) *typetree.Tree {
	counts := "          UInt32 curveCount 4\n"
	if newCounts {
		counts = "          UInt16 curveCount 2\n          UInt16 discreteCurveCount 2\n"
	}
	return buildTree(t, `
AnimationClip Base
  string m_Name
    Array Array array align
      int size 4
      char data 1
  bool m_Legacy 1 align
  ClipMuscleConstant m_MuscleClip
    float m_StartTime 4
    float m_StopTime 4
    OffsetPtr m_Clip
      Clip data
        StreamedClip m_StreamedClip
          vector data
            Array Array array
              int size 4
              UInt32 data 4
`+counts+`        DenseClip m_DenseClip
          int m_FrameCount 4
          UInt32 m_CurveCount 4
          float m_SampleRate 4
          float m_BeginTime 4
          vector m_SampleArray
            Array Array array
              int size 4
              float data 4
        ConstantClip m_ConstantClip
          vector data
            Array Array array
              int size 4
              float data 4
  AnimationClipBindingConstant m_ClipBindingConstant
    vector genericBindings
      Array Array array
        int size 4
        GenericBinding data
          UInt32 path 4
          UInt32 attribute 4
          PPtr<Object> script
            int m_FileID 4
            SInt64 m_PathID 8
          UInt16 typeID 2
          UInt8 customType 1
          UInt8 isPPtrCurve 1 align
    vector pptrCurveMapping
      Array Array array
        int size 4
        PPtr<Object> data
          int m_FileID 4
          SInt64 m_PathID 8
`)
}

// enc is a little-endian writer for synthetic objects.
type enc struct{ b []byte }

func (e *enc) u32(x uint32)  { e.b = binary.LittleEndian.AppendUint32(e.b, x) }
func (e *enc) u16(x uint16)  { e.b = binary.LittleEndian.AppendUint16(e.b, x) }
func (e *enc) u8(x uint8)    { e.b = append(e.b, x) }
func (e *enc) f32(x float32) { e.u32(math.Float32bits(x)) }
func (e *enc) i64(x int64)   { e.b = binary.LittleEndian.AppendUint64(e.b, uint64(x)) }
func (e *enc) align() {
	for len(e.b)%4 != 0 {
		e.b = append(e.b, 0)
	}
}
func (e *enc) str(s string) { e.u32(uint32(len(s))); e.b = append(e.b, s...); e.align() }

type synthBinding struct {
	path, attr uint32
	typeID     uint16
	custom     uint8
	pptr       bool
}

// synthClip encodes a clip of the reduced layout.
func synthClip(newCounts bool, words []uint32, curves, discrete int, constants []float32, bindings []synthBinding, mapping []int64) []byte {
	e := &enc{}
	e.str("synthetic")
	e.u8(0) // m_Legacy
	e.align()
	e.f32(0)
	e.f32(2)
	e.u32(uint32(len(words)))
	for _, w := range words {
		e.u32(w)
	}
	if newCounts {
		e.u16(uint16(curves))
		e.u16(uint16(discrete))
	} else {
		e.u32(uint32(curves))
	}
	e.u32(0) // dense: no frames
	e.u32(0)
	e.f32(30)
	e.f32(0)
	e.u32(0)
	e.u32(uint32(len(constants)))
	for _, c := range constants {
		e.f32(c)
	}
	e.u32(uint32(len(bindings)))
	for _, b := range bindings {
		e.u32(b.path)
		e.u32(b.attr)
		e.u32(0)
		e.i64(0)
		e.u16(b.typeID)
		e.u8(b.custom)
		p := uint8(0)
		if b.pptr {
			p = 1
		}
		e.u8(p)
		e.align()
	}
	e.u32(uint32(len(mapping)))
	for _, m := range mapping {
		e.u32(0)
		e.i64(m)
	}
	return e.b
}

// TestClipLayoutsAndObjectCurves decodes synthetic clips in the layout of
// Unity up to 2022.3.18 (UInt32 curveCount) and from 2022.3.19
// (UInt16 curveCount + discreteCurveCount, the discrete curves numbered
// after the float ones in the streamed block), with an object curve, a
// constant curve and keys past the curve count.
func TestClipLayoutsAndObjectCurves(t *testing.T) {
	// Streamed: curve 0 (float), curve 1 (object indexes: 0, then 1 at 1 s).
	words := frames(
		frame(-math.MaxFloat32, [5]float32{0, 0, 0, 0, 5}, [5]float32{1, 0, 0, 0, 0}),
		frame(1, [5]float32{0, 0, 0, 0, 7}, [5]float32{1, 0, 0, 0, 1}),
		frame(inf),
	)
	pastWords := frames(
		frame(-math.MaxFloat32, [5]float32{0, 0, 0, 0, 5}, [5]float32{1, 0, 0, 0, 0}, [5]float32{2, 0, 0, 0, 0}),
		frame(inf),
	)
	bindings := []synthBinding{
		{path: 11, attr: 99, typeID: 137},
		{path: 12, attr: 0, typeID: 212, pptr: true},
		{path: 0, attr: model.FirstMuscleAttribute, typeID: 95, custom: customTypeMuscle},
	}
	tests := []struct {
		name      string
		newCounts bool
		words     []uint32
		curves    int
		discrete  int
		wantErr   error
		keysPast  int
	}{
		{"UInt32 curveCount", false, words, 2, 0, nil, 0},
		{"UInt16 curveCount and discreteCurveCount", true, words, 1, 1, nil, 0},
		{"keys past the curve count are counted", false, pastWords, 2, 0, nil, 1},
		{"bindings needing more curves than the blocks hold", false, words, 1, 0, ErrMalformed, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tree := clipTree(t, tc.newCounts)
			data := synthClip(tc.newCounts, tc.words, tc.curves, tc.discrete, []float32{0.25}, bindings, []int64{1001, 1002})
			v, err := typetree.Decode(tree, data, binary.LittleEndian)
			if err != nil {
				t.Fatal(err)
			}
			c, err := Clip(v, "")
			if tc.wantErr != nil {
				var ce *Error
				if !errors.Is(err, tc.wantErr) || !errors.As(err, &ce) || ce.Field == "" {
					t.Fatalf("err = %v, want %v naming a field", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.Stats.KeysPastCurveCount != tc.keysPast {
				t.Errorf("KeysPastCurveCount = %d, want %d", c.Stats.KeysPastCurveCount, tc.keysPast)
			}
			if len(c.Curves) != 2 || len(c.ObjectCurves) != 1 {
				t.Fatalf("%d curves, %d object curves", len(c.Curves), len(c.ObjectCurves))
			}
			if got := c.Curves[0].Eval(1.5); tc.keysPast == 0 && got != 7 {
				t.Errorf("float curve at 1.5 = %g, want 7", got)
			}
			if c.Curves[1].Kind != model.CurveConstant || c.Curves[1].Value != 0.25 || c.Curves[1].Target.Property != "Spine Front-Back" || !c.Humanoid {
				t.Errorf("muscle curve: %+v", c.Curves[1])
			}
			oc := c.ObjectCurves[0]
			want := []int64{1001, 1002}
			if tc.keysPast > 0 {
				want = want[:1]
			}
			if len(oc.Keys) != len(want) {
				t.Fatalf("object keys %+v, want objects %v", oc.Keys, want)
			}
			for i, w := range want {
				if oc.Keys[i].Object.PathID != w {
					t.Errorf("object key %d: %+v, want %d", i, oc.Keys[i], w)
				}
			}
		})
	}
}
