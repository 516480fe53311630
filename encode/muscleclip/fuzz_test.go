package muscleclip

import (
	"encoding/binary"
	"errors"
	"math"
	"testing"

	"github.com/mecanim/mecanim/decode/compiled"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/typetree"
	"github.com/mecanim/mecanim/unity/unitywrite"
)

// clipFromBytes builds a clip of a few curves of every kind and binding
// from fuzz bytes: times, values and slopes as the bytes say (unsorted,
// repeated, infinite slopes), so that any clip a reader could hand the
// compiler is tried.
func clipFromBytes(b []byte) *model.Clip {
	next := func() float32 {
		if len(b) < 2 {
			return 0
		}
		x := float32(int16(binary.LittleEndian.Uint16(b))) / 256
		b = b[2:]
		return x
	}
	c := &model.Clip{Name: "fuzz", SampleRate: 1 + float32(int(next())&63), Start: 0}
	c.Stop = float32(math.Abs(float64(next())))
	c.UseHighQualityCurve = next() > 0
	for len(b) > 4 && len(c.Curves) < 24 {
		var t model.Target
		switch int(math.Abs(float64(next()*256))) % 4 {
		case 0:
			p := model.TransformProp(1 + int(math.Abs(float64(next()*256)))%4)
			n := 3
			if p == model.PropRotation {
				n = 4
			}
			t = transformTarget("a", p, int(math.Abs(float64(next()*256)))%n)
		case 1:
			t = muscleTarget(model.MuscleNames[int(math.Abs(float64(next()*256)))%model.MuscleCount])
		default:
			t = model.Target{Path: "b", PathHash: model.PathHash("b"), PathKnown: true, ClassID: model.ClassSkinnedMeshRenderer, Attribute: uint32(next() * 1000)}
		}
		cv := model.Curve{Target: t, Kind: model.CurveKeyframed}
		for k := int(math.Abs(float64(next()*256)))%8 + 1; k > 0; k-- {
			slope := next()
			if slope > 100 {
				slope = float32(math.Inf(1))
			}
			cv.Keys = append(cv.Keys, model.Keyframe{Time: next(), Value: next(), InSlope: slope, OutSlope: slope})
		}
		c.Curves = append(c.Curves, cv)
	}
	return c
}

// FuzzCompile compiles clips built from random bytes: the compiler never
// panics, and what it compiles encodes by Unity's layout and reads back.
func FuzzCompile(f *testing.F) {
	f.Add([]byte{1, 0, 0, 1, 1, 0, 2, 0, 0, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13})
	f.Add([]byte("a clip of several curves with keys everywhere and slopes of all sizes"))
	tree := builtinTreeF(f, "2022.3.9f1")
	l, err := typetree.Compile(tree)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		c := clipFromBytes(b)
		fields, err := Compile(c, Options{})
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("error %v is not ErrInvalid", err)
			}
			return
		}
		data, err := unitywrite.Encode(tree, fields)
		if err != nil {
			t.Fatal(err)
		}
		v, err := l.Decode(data, binary.LittleEndian)
		if err != nil {
			t.Fatalf("does not read back: %v", err)
		}
		if _, err := compiled.Clip(v, ""); err != nil && !errors.As(err, new(*model.NotFiniteError)) {
			t.Fatalf("does not decode: %v", err)
		}
	})
}
