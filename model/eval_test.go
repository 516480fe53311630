package model

import (
	"math"
	"testing"
)

func TestStreamedSegmentsEvaluateTheirCubic(t *testing.T) {
	c := Curve{Kind: CurveStreamed, Segments: []Segment{
		{Time: -math.MaxFloat32, C: [4]float32{0, 0, 0, 5}},
		{Time: 0, C: [4]float32{1, 2, 3, 4}},
		{Time: 1, C: [4]float32{0, 0, 0, 10}},
		{Time: 2, C: [4]float32{float32(math.Inf(1)), 0, 0, 7}},
	}}
	cases := []struct {
		name string
		t    float32
		want float32
	}{
		{"initial frame holds before the first key", -3, 5},
		{"at a key the value is c3", 0, 4},
		{"inside a segment the cubic", 0.5, ((1*0.5+2)*0.5+3)*0.5 + 4},
		{"a flat segment", 1.5, 10},
		{"a non-finite segment is a step", 2.5, 7},
	}
	for _, k := range cases {
		if got := c.Eval(k.t); math.Abs(float64(got-k.want)) > 1e-6 {
			t.Errorf("%s: Eval(%g)=%g want %g", k.name, k.t, got, k.want)
		}
	}
}

func TestDenseInterpolatesLinearlyAndClamps(t *testing.T) {
	c := Curve{Kind: CurveDense, Samples: []float32{0, 10, 20}, DenseBegin: 1, DenseRate: 2}
	cases := []struct {
		t, want float32
	}{{0, 0}, {1, 0}, {1.25, 5}, {1.5, 10}, {2, 20}, {9, 20}}
	for _, k := range cases {
		if got := c.Eval(k.t); math.Abs(float64(got-k.want)) > 1e-6 {
			t.Errorf("Eval(%g)=%g want %g", k.t, got, k.want)
		}
	}
}

func TestKeyframedHermiteAndInfinity(t *testing.T) {
	keys := []Keyframe{{Time: 0, Value: 0, OutSlope: 0}, {Time: 1, Value: 1, InSlope: 0}}
	c := Curve{Kind: CurveKeyframed, Keys: keys, PreInfinity: InfinityClamp, PostInfinity: InfinityClamp}
	if got := c.Eval(0.5); math.Abs(float64(got-0.5)) > 1e-6 {
		t.Errorf("smoothstep midpoint %g", got)
	}
	if got := c.Eval(2); got != 1 {
		t.Errorf("clamp after %g", got)
	}
	c.PostInfinity = InfinityLoop
	if got, want := c.Eval(1.25), c.Eval(0.25); math.Abs(float64(got-want)) > 1e-6 {
		t.Errorf("loop %g want %g", got, want)
	}
	c.PostInfinity = InfinityPingPong
	if got, want := c.Eval(1.25), c.Eval(0.75); math.Abs(float64(got-want)) > 1e-6 {
		t.Errorf("ping-pong %g want %g", got, want)
	}
}

func TestInfiniteSlopeIsAStep(t *testing.T) {
	keys := []Keyframe{{Time: 0, Value: 3, OutSlope: float32(math.Inf(1))}, {Time: 1, Value: 9}}
	if got := EvalKeys(keys, InfinityClamp, InfinityClamp, 0.9); got != 3 {
		t.Fatalf("got %g want 3", got)
	}
}

func TestWeightedThirdsEqualHermite(t *testing.T) {
	// Weights of one third on both sides are the Hermite spline itself.
	h := []Keyframe{{Time: 0, Value: 1, OutSlope: 2}, {Time: 2, Value: -1, InSlope: -3}}
	w := []Keyframe{{Time: 0, Value: 1, OutSlope: 2, WeightedMode: WeightedOut, OutWeight: 1.0 / 3},
		{Time: 2, Value: -1, InSlope: -3, WeightedMode: WeightedIn, InWeight: 1.0 / 3}}
	for _, x := range []float32{0.1, 0.5, 1, 1.7} {
		a := EvalKeys(h, InfinityClamp, InfinityClamp, x)
		b := EvalKeys(w, InfinityClamp, InfinityClamp, x)
		if math.Abs(float64(a-b)) > 1e-5 {
			t.Errorf("t=%g hermite %g weighted %g", x, a, b)
		}
	}
}
