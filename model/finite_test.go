package model

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/geom"
)

// firstListed is the first value NotFinite lists, as an error (nil for
// none).
func (c *Clip) firstListed() error {
	if l := c.NotFinite(); len(l) > 0 {
		return l[0]
	}
	return nil
}

func TestNotFiniteNamesTheValueThatIsNotANumber(t *testing.T) {
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	target := Target{Path: "Hips", PathKnown: true, ClassID: ClassTransform, Property: "m_LocalPosition.y"}
	clip := func(c Curve) *Clip {
		c.Target = target
		return &Clip{Name: "Walk", Curves: []Curve{c}}
	}
	cases := []struct {
		name string
		err  error
		want string // "" for no error
	}{
		{"finite clip", clip(Curve{Kind: CurveConstant, Value: 1}).firstListed(), ""},
		{"constant", clip(Curve{Kind: CurveConstant, Value: nan}).firstListed(), "curve 0 (Hips m_LocalPosition.y) constant value is NaN"},
		{"dense", clip(Curve{Kind: CurveDense, Samples: []float32{0, inf}}).firstListed(), "dense frame 1 is +Inf"},
		{"streamed value", clip(Curve{Kind: CurveStreamed, Segments: []Segment{{Time: -math.MaxFloat32}, {Time: 0.5, C: [4]float32{0, 0, 0, nan}}}}).firstListed(), "streamed key 1 (at 0.5 s) is NaN"},
		{"streamed step slopes are infinite", clip(Curve{Kind: CurveStreamed, Segments: []Segment{{Time: 0, C: [4]float32{inf, inf, inf, 1}}}}).firstListed(), ""},
		{"streamed step of an infinite incoming slope", clip(Curve{Kind: CurveStreamed, Segments: []Segment{{Time: 0, C: [4]float32{inf, -inf, 0.5, 1}}}}).firstListed(), ""},
		{"streamed slope steep enough to overflow c1 alone", clip(Curve{Kind: CurveStreamed, Segments: []Segment{{Time: 0, C: [4]float32{0.1, -inf, 3e37, 1}}}}).firstListed(), ""},
		{"streamed infinite coefficient among small ones", clip(Curve{Kind: CurveStreamed, Segments: []Segment{{Time: 0, C: [4]float32{0.2, inf, 0.5, 1}}}}).firstListed(), "neither a step's nor a curve's"},
		{"streamed infinite outgoing slope alone", clip(Curve{Kind: CurveStreamed, Segments: []Segment{{Time: 0, C: [4]float32{0.2, 0.1, nan, 1}}}}).firstListed(), "neither a step's nor a curve's"},
		{"keyframed value", clip(Curve{Kind: CurveKeyframed, Keys: []Keyframe{{Time: 1, Value: -inf}}}).firstListed(), "key 0 (at 1 s) value is -Inf"},
		{"keyframed slope NaN", clip(Curve{Kind: CurveKeyframed, Keys: []Keyframe{{Time: 1, OutSlope: nan}}}).firstListed(), "outSlope is NaN"},
		{"keyframed step slope", clip(Curve{Kind: CurveKeyframed, Keys: []Keyframe{{Time: 1, OutSlope: inf}}}).firstListed(), ""},
		{"avatar pose", (&Avatar{DefaultPose: []geom.Transform{geom.Identity, {T: geom.V3(0, nan, 0), R: geom.Identity.R, S: geom.V3(1, 1, 1)}}}).CheckFinite(), "m_DefaultPose[1].t is NaN"},
		{"avatar body frame may be NaN", (&Avatar{Human: &Human{RootX: geom.Transform{R: geom.Quat{X: nan, Y: nan, Z: nan, W: nan}}, Scale: 1}}).CheckFinite(), ""},
		{"avatar scale", (&Avatar{Human: &Human{Scale: inf}}).CheckFinite(), "m_Scale is +Inf"},
		{"rig", (&Rig{Nodes: []RigNode{{Path: "Hips", Local: geom.Transform{R: geom.Quat{W: nan}}}}}).CheckFinite(), `("Hips") m_LocalRotation is NaN`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.want == "" {
				if c.err != nil {
					t.Fatalf("got %v, want no error", c.err)
				}
				return
			}
			var nf *NotFiniteError
			if !errors.As(c.err, &nf) || !strings.Contains(c.err.Error(), c.want) {
				t.Fatalf("got %v, want a NotFiniteError saying %q", c.err, c.want)
			}
		})
	}
}

func TestCheckTimesRefusesOnlyKeysWithoutATime(t *testing.T) {
	nan := float32(math.NaN())
	cases := []struct {
		name string
		cv   Curve
		want string // "" for no error
	}{
		{"values that are not numbers are data", Curve{Kind: CurveDense, Samples: []float32{nan}, DenseRate: 30}, ""},
		{"initial streamed frame", Curve{Kind: CurveStreamed, Segments: []Segment{{Time: -math.MaxFloat32, C: [4]float32{0, 0, 0, nan}}}}, ""},
		{"streamed key time", Curve{Kind: CurveStreamed, Segments: []Segment{{Time: nan}}}, "streamed key 0 time is NaN"},
		{"keyframe time", Curve{Kind: CurveKeyframed, Keys: []Keyframe{{Time: 0}, {Time: float32(math.Inf(1))}}}, "key 1 time is +Inf"},
		{"dense rate", Curve{Kind: CurveDense, Samples: []float32{1}, DenseRate: nan}, "dense start or rate is NaN"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.cv.Target = Target{Path: "Cam", PathKnown: true, ClassID: 20, Property: "field of view"}
			err := (&Clip{Curves: []Curve{c.cv}}).CheckTimes()
			if c.want == "" {
				if err != nil {
					t.Fatalf("got %v, want no error", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want %q", err, c.want)
			}
		})
	}
}

func TestNotFiniteCountsTheCurvesFurtherValues(t *testing.T) {
	nan := float32(math.NaN())
	c := &Clip{Curves: []Curve{
		{Kind: CurveDense, Samples: []float32{1, nan, 2, nan, nan}, DenseRate: 30},
		{Kind: CurveConstant, Value: 1},
		{Kind: CurveConstant, Value: nan},
	}}
	l := c.NotFinite()
	if len(l) != 2 || l[0].More != 2 || !strings.Contains(l[0].Error(), "curve 0 (#0 ) dense frame 1 is NaN (and 2 more") ||
		!strings.Contains(l[1].Error(), "curve 2") {
		t.Fatalf("got %v, want curve 0's frame 1 with 2 more, then curve 2", l)
	}
}

func TestFiniteHoldsTheValueBeforeWhatIsNotANumber(t *testing.T) {
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	cases := []struct {
		name   string
		cv     Curve
		ok     bool
		at     []float32 // times to evaluate
		want   []float32
		shared bool // returned as it is
	}{
		{"finite curve is shared", Curve{Kind: CurveDense, Samples: []float32{1, 2}, DenseRate: 1}, true, []float32{0.5}, []float32{1.5}, true},
		{"constant NaN is left out", Curve{Kind: CurveConstant, Value: nan}, false, nil, nil, false},
		{"dense all NaN is left out", Curve{Kind: CurveDense, Samples: []float32{nan, inf}, DenseRate: 1}, false, nil, nil, false},
		{"dense holds the sample before", Curve{Kind: CurveDense, Samples: []float32{1, nan, 3}, DenseRate: 1}, true, []float32{1, 1.5, 2}, []float32{1, 2, 3}, false},
		{"dense leading NaN takes the first number", Curve{Kind: CurveDense, Samples: []float32{nan, 5}, DenseRate: 1}, true, []float32{0}, []float32{5}, false},
		{"streamed key held at the value reached", Curve{Kind: CurveStreamed, Segments: []Segment{
			{Time: -math.MaxFloat32, C: [4]float32{0, 0, 0, 1}}, {Time: 0, C: [4]float32{0, 0, 1, 1}}, {Time: 2, C: [4]float32{0, 0, 0, nan}}}},
			true, []float32{1, 2, 5}, []float32{2, 3, 3}, false},
		{"keyframe held at the key before", Curve{Kind: CurveKeyframed, Keys: []Keyframe{{Time: 0, Value: 1, OutSlope: 1}, {Time: 1, Value: nan}, {Time: 2, Value: 4}}},
			true, []float32{0.5, 1, 1.5}, []float32{1, 1, 2.5}, false},
		{"NaN slope becomes a step", Curve{Kind: CurveKeyframed, Keys: []Keyframe{{Time: 0, Value: 1, OutSlope: nan}, {Time: 1, Value: 3}}},
			true, []float32{0.5}, []float32{1}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := fmt.Sprint(c.cv)
			got, ok := c.cv.Finite()
			if ok != c.ok {
				t.Fatalf("ok %v, want %v", ok, c.ok)
			}
			if fmt.Sprint(c.cv) != before {
				t.Fatalf("Finite changed the curve it was given")
			}
			if !ok {
				return
			}
			if !got.AllFinite() {
				t.Fatalf("held curve still has values that are not numbers: %v", got.notFinite(false))
			}
			if c.shared != (len(got.Samples) > 0 && &got.Samples[0] == &c.cv.Samples[0]) && c.cv.Kind == CurveDense {
				t.Errorf("shared %v, want %v", !c.shared, c.shared)
			}
			for i, tm := range c.at {
				if v := got.Eval(tm); math.Abs(float64(v-c.want[i])) > 1e-5 {
					t.Errorf("at %g: %g, want %g", tm, v, c.want[i])
				}
			}
		})
	}
}

func TestIntCurveHoldsEachKeyUntilTheNext(t *testing.T) {
	c := IntCurve{Keys: []IntKey{{Time: -math.MaxFloat32, Value: 7}, {Time: 1, Value: -2147483648}, {Time: 2, Value: 0x7fc00001}}}
	for _, tc := range []struct {
		t    float32
		want int32
	}{{-5, 7}, {0.999, 7}, {1, -2147483648}, {1.5, -2147483648}, {2, 0x7fc00001}, {100, 0x7fc00001}} {
		if got := c.Eval(tc.t); got != tc.want {
			t.Errorf("at %g: %d, want %d", tc.t, got, tc.want)
		}
	}
	if got := (&IntCurve{}).Eval(1); got != 0 {
		t.Errorf("no keys: %d, want 0", got)
	}
}
