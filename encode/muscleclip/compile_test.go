package muscleclip

import (
	"encoding/binary"
	"errors"
	"math"
	"testing"

	"github.com/mecanim/mecanim/decode/compiled"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/layouts"
	"github.com/mecanim/mecanim/unity/typetree"
	"github.com/mecanim/mecanim/unity/unityversion"
	"github.com/mecanim/mecanim/unity/unitywrite"
)

// keyed is a keyframed curve on a target through (time, value) keys with
// the given slope everywhere.
func keyed(t model.Target, slope float32, tv ...float32) model.Curve {
	cv := model.Curve{Target: t, Kind: model.CurveKeyframed, PreInfinity: model.InfinityClamp, PostInfinity: model.InfinityClamp}
	for i := 0; i+1 < len(tv); i += 2 {
		cv.Keys = append(cv.Keys, model.Keyframe{Time: tv[i], Value: tv[i+1], InSlope: slope, OutSlope: slope})
	}
	return cv
}

func transformTarget(path string, p model.TransformProp, comp int) model.Target {
	return model.Target{Path: path, PathHash: model.PathHash(path), PathKnown: true, ClassID: model.ClassTransform,
		Attribute: uint32(p), Transform: p, Component: comp, Property: model.TransformPropertyName(p, comp)}
}

func muscleTarget(name string) model.Target {
	a, _ := model.HumanAttributeByName(name)
	return model.Target{PathKnown: true, ClassID: model.ClassAnimator, Attribute: a, Property: name}
}

// synthClip is a small clip of every kind of binding: an animated rotation,
// a constant position, a blend shape, a muscle with many keys, an event.
func synthClip(highQuality bool) *model.Clip {
	c := &model.Clip{Name: "synth", SampleRate: 30, Start: 0, Stop: 1, UseHighQualityCurve: highQuality}
	c.Settings.LoopTime = true
	for comp, v := range []float32{0, 0.5, 0, 0.8660254} {
		c.Curves = append(c.Curves, keyed(transformTarget("Hips/Spine", model.PropRotation, comp), 0.1, 0, v, 0.5, v*0.5, 1, v))
	}
	for comp := 0; comp < 3; comp++ {
		c.Curves = append(c.Curves, keyed(transformTarget("Hips", model.PropPosition, comp), 0, 0, 1, 1, 1))
	}
	shape := model.Target{Path: "Body", PathHash: model.PathHash("Body"), PathKnown: true, ClassID: model.ClassSkinnedMeshRenderer,
		Attribute: model.PathHash("Smile"), Property: "blendShape.Smile"}
	c.Curves = append(c.Curves, keyed(shape, 0, 0, 0, 0.5, 100, 1, 0))
	var many []float32
	for i := 0; i <= 30; i++ {
		many = append(many, float32(i)/30, float32(math.Sin(float64(i)/5)))
	}
	c.Curves = append(c.Curves, keyed(muscleTarget("Spine Front-Back"), 0, many...))
	c.Events = []model.Event{{Time: 0.5, Function: "Step", Data: "left", Int: 3}}
	return c
}

func builtinTree(t *testing.T, version string) *typetree.Tree { return builtinTreeF(t, version) }

func builtinTreeF(tb testing.TB, version string) *typetree.Tree {
	tb.Helper()
	tree, _, err := layouts.Lookup(unityversion.MustParse(version), model.ClassAnimationClip)
	if err != nil {
		tb.Fatal(err)
	}
	return tree
}

// roundTrip compiles c, encodes it by tree and decodes it with the
// project's reader of compiled clips.
func roundTrip(t *testing.T, c *model.Clip, tree *typetree.Tree) (*model.Clip, *typetree.Value) {
	t.Helper()
	f, err := Compile(c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := unitywrite.Encode(tree, f)
	if err != nil {
		t.Fatal(err)
	}
	l, err := typetree.Compile(tree)
	if err != nil {
		t.Fatal(err)
	}
	v, err := l.Decode(b, binary.LittleEndian)
	if err != nil {
		t.Fatalf("compiled clip does not read to its exact size: %v", err)
	}
	out, err := compiled.Clip(v, "")
	if err != nil {
		t.Fatalf("compiled clip does not decode: %v", err)
	}
	return out, v
}

func TestCompiledClipReadsBackWithTheSameValues(t *testing.T) {
	for _, version := range []string{"2019.4.26f1", "2022.3.9f1"} {
		for _, hq := range []bool{true, false} {
			src := synthClip(hq)
			got, _ := roundTrip(t, src, builtinTree(t, version))
			if len(got.Curves) != len(src.Curves) {
				t.Fatalf("%s: %d curves, want %d", version, len(got.Curves), len(src.Curves))
			}
			by := map[[3]uint32]*model.Curve{}
			for i := range got.Curves {
				g := &got.Curves[i]
				by[[3]uint32{g.Target.PathHash, g.Target.Attribute, uint32(g.Target.Component)}] = g
			}
			for i := range src.Curves {
				s := &src.Curves[i]
				g := by[[3]uint32{s.Target.PathHash, s.Target.Attribute, uint32(s.Target.Component)}]
				if g == nil {
					t.Fatalf("%s: curve %s lost", version, describe(s.Target))
				}
				// Dense curves are samples at the frame rate, linear between
				// frames: they equal the source at frames.
				steps := 120
				if !hq {
					steps = 30
				}
				for k := 0; k <= steps; k++ {
					tm := float32(k) / float32(steps)
					if d := math.Abs(float64(g.Eval(tm) - s.Eval(tm))); d > 1e-4*math.Max(1, math.Abs(float64(s.Eval(tm)))) {
						t.Fatalf("%s hq=%v: %s at %g: %g, want %g", version, hq, describe(s.Target), tm, g.Eval(tm), s.Eval(tm))
					}
				}
			}
			if !got.Humanoid || !got.Settings.LoopTime || len(got.Events) != 1 || got.Events[0].Function != "Step" {
				t.Errorf("%s: humanoid %v, loop %v, events %+v", version, got.Humanoid, got.Settings.LoopTime, got.Events)
			}
		}
	}
}

func TestBlocksAreChosenAsUnityChooses(t *testing.T) {
	src := synthClip(false)
	_, v := roundTrip(t, src, builtinTree(t, "2022.3.9f1"))
	d := v.Path("m_MuscleClip", "m_Clip", "data")
	// The 31-key muscle is dense (31 keys on 32 frames); the rotation and the
	// blend shape are streamed; the position is constant.
	if n := d.Path("m_DenseClip", "m_CurveCount").Int(); n != 1 {
		t.Errorf("dense curves: %d, want 1", n)
	}
	if n := d.Path("m_StreamedClip", "curveCount").Int(); n != 5 {
		t.Errorf("streamed curves: %d, want 5", n)
	}
	if n := d.Path("m_ConstantClip", "data").Len(); n != 3 {
		t.Errorf("constant curves: %d, want 3", n)
	}
	if n := d.Path("m_DenseClip", "m_FrameCount").Int(); n != 32 {
		t.Errorf("frames: %d, want 32", n)
	}
	// High quality: nothing dense.
	_, v = roundTrip(t, synthClip(true), builtinTree(t, "2022.3.9f1"))
	if n := v.Path("m_MuscleClip", "m_Clip", "data", "m_DenseClip", "m_CurveCount").Int(); n != 0 {
		t.Errorf("high-quality clip has %d dense curves", n)
	}
	// Bindings: the position first, then the rotation, then the others.
	b := v.Path("m_ClipBindingConstant", "genericBindings")
	if a := b.Index(0).Field("attribute").Uint(); a != 2 {
		t.Errorf("first binding attribute %d, want the streamed rotation (2)", a)
	}
	if idx := v.Path("m_MuscleClip", "m_IndexArray"); idx.Len() != indexArrayLen {
		t.Errorf("index array of %d", idx.Len())
	}
}

func TestCompileRefusesWhatItCannotWrite(t *testing.T) {
	cases := []struct {
		name string
		clip *model.Clip
		want error
	}{
		{"legacy", &model.Clip{Name: "x", Legacy: true}, ErrUnsupported},
		{"backwards", &model.Clip{Name: "x", Start: 1, Stop: 0}, ErrInvalid},
		{"no keys", &model.Clip{Name: "x", Stop: 1, Curves: []model.Curve{{Kind: model.CurveKeyframed, Target: transformTarget("a", model.PropPosition, 0)}}}, ErrInvalid},
		{"twice", &model.Clip{Name: "x", Stop: 1, Curves: []model.Curve{
			keyed(transformTarget("a", model.PropPosition, 0), 0, 0, 1),
			keyed(transformTarget("a", model.PropPosition, 0), 0, 0, 1)}}, ErrInvalid},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := Compile(tc.clip, Options{}); !errors.Is(err, tc.want) {
				t.Errorf("error %v, want %v", err, tc.want)
			}
		})
	}
}

func TestHermiteSegmentMeetsBothKeys(t *testing.T) {
	a := model.Keyframe{Time: 0.25, Value: 1, OutSlope: 2}
	b := model.Keyframe{Time: 0.75, Value: -1, InSlope: -3}
	c := Hermite(&a, &b)
	dt := b.Time - a.Time
	end := ((c[0]*dt+c[1])*dt+c[2])*dt + c[3]
	slope := (3*c[0]*dt+2*c[1])*dt + c[2]
	if math.Abs(float64(end-b.Value)) > 1e-5 || math.Abs(float64(slope-b.InSlope)) > 1e-4 || c[3] != a.Value || c[2] != a.OutSlope {
		t.Errorf("segment %v ends at %g slope %g", c, end, slope)
	}
}
