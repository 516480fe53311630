package anim

import (
	"math"
	"testing"

	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
)

// A clip's value that is not a number never reaches a pose or a float
// track: Bake holds it at the value before it and leaves out a curve with
// no number at all; integer tracks are sampled held, bit for bit.
func TestBakeHoldsValuesThatAreNotNumbers(t *testing.T) {
	nan := float32(math.NaN())
	s := chainSkeleton(3)
	c := &model.Clip{Name: "held", SampleRate: 10, Stop: 1, Curves: []model.Curve{
		{Target: tgt("j1", model.PropPosition, 0), Kind: model.CurveDense, Samples: []float32{1, nan, 3}, DenseRate: 2},
		{Target: tgt("j1", model.PropPosition, 1), Kind: model.CurveConstant, Value: nan},
		{Target: model.Target{Path: "j1", PathKnown: true, ClassID: 114, Property: "speed"}, Kind: model.CurveKeyframed,
			Keys: []model.Keyframe{{Time: 0, Value: 2}, {Time: 0.5, Value: nan}, {Time: 1, Value: 4}}},
	}, IntCurves: []model.IntCurve{{Target: model.Target{Path: "j1", PathKnown: true, ClassID: 114, Property: "shot"},
		Keys: []model.IntKey{{Time: -math.MaxFloat32, Value: 7}, {Time: 0.5, Value: 0x7fc00001}}}}}
	bc, err := Bake(c, s)
	if err != nil {
		t.Fatal(err)
	}
	if bc.LeftOutChannels() != 1 {
		t.Errorf("left out %d channels, want 1 (the constant NaN)", bc.LeftOutChannels())
	}
	pose := make([]geom.Transform, s.Len())
	floats := make([]float32, len(bc.FloatTargets()))
	ints := make([]int32, len(bc.IntTargets()))
	for _, tc := range []struct {
		at       float32
		x, speed float32
		shot     int32
	}{{0, 1, 2, 7}, {0.25, 1, 2, 7}, {0.5, 1, 2, 0x7fc00001}, {0.75, 2, 3, 0x7fc00001}, {1, 3, 4, 0x7fc00001}} {
		bc.Sample(tc.at, pose)
		bc.SampleFloats(tc.at, floats)
		bc.SampleInts(tc.at, ints)
		if pose[1].T.Y != s.Rest[1].T.Y {
			t.Errorf("at %g: y %g, want the rest %g (its curve left out)", tc.at, pose[1].T.Y, s.Rest[1].T.Y)
		}
		if math.Abs(float64(pose[1].T.X-tc.x)) > 1e-5 || math.Abs(float64(floats[0]-tc.speed)) > 1e-5 || ints[0] != tc.shot {
			t.Errorf("at %g: x %g speed %g shot %#x, want %g %g %#x", tc.at, pose[1].T.X, floats[0], ints[0], tc.x, tc.speed, tc.shot)
		}
	}
}
