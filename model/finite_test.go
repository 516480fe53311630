package model

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/geom"
)

func TestCheckFiniteNamesTheValueThatIsNotANumber(t *testing.T) {
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
		{"finite clip", clip(Curve{Kind: CurveConstant, Value: 1}).CheckFinite(), ""},
		{"constant", clip(Curve{Kind: CurveConstant, Value: nan}).CheckFinite(), "curve 0 (Hips m_LocalPosition.y) constant value is NaN"},
		{"dense", clip(Curve{Kind: CurveDense, Samples: []float32{0, inf}}).CheckFinite(), "dense frame 1 is +Inf"},
		{"streamed value", clip(Curve{Kind: CurveStreamed, Segments: []Segment{{Time: -math.MaxFloat32}, {Time: 0.5, C: [4]float32{0, 0, 0, nan}}}}).CheckFinite(), "streamed key 1 (at 0.5 s) is NaN"},
		{"streamed step slopes are infinite", clip(Curve{Kind: CurveStreamed, Segments: []Segment{{Time: 0, C: [4]float32{inf, inf, inf, 1}}}}).CheckFinite(), ""},
		{"streamed step of an infinite incoming slope", clip(Curve{Kind: CurveStreamed, Segments: []Segment{{Time: 0, C: [4]float32{inf, -inf, 0.5, 1}}}}).CheckFinite(), ""},
		{"streamed slope steep enough to overflow c1 alone", clip(Curve{Kind: CurveStreamed, Segments: []Segment{{Time: 0, C: [4]float32{0.1, -inf, 3e37, 1}}}}).CheckFinite(), ""},
		{"streamed infinite coefficient among small ones", clip(Curve{Kind: CurveStreamed, Segments: []Segment{{Time: 0, C: [4]float32{0.2, inf, 0.5, 1}}}}).CheckFinite(), "neither a step's nor a curve's"},
		{"streamed infinite outgoing slope alone", clip(Curve{Kind: CurveStreamed, Segments: []Segment{{Time: 0, C: [4]float32{0.2, 0.1, nan, 1}}}}).CheckFinite(), "neither a step's nor a curve's"},
		{"keyframed value", clip(Curve{Kind: CurveKeyframed, Keys: []Keyframe{{Time: 1, Value: -inf}}}).CheckFinite(), "key 0 (at 1 s) value is -Inf"},
		{"keyframed slope NaN", clip(Curve{Kind: CurveKeyframed, Keys: []Keyframe{{Time: 1, OutSlope: nan}}}).CheckFinite(), "outSlope is NaN"},
		{"keyframed step slope", clip(Curve{Kind: CurveKeyframed, Keys: []Keyframe{{Time: 1, OutSlope: inf}}}).CheckFinite(), ""},
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
