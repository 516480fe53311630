package compiled

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/mecanim/mecanim/internal/synth"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/typetree"
	"github.com/mecanim/mecanim/unity/unitywrite"
)

// A binding marked isIntCurve holds an integer's bits in the float slot:
// the clip decodes (no NaN refuses it), its integer curves hold the exact
// int32 of each key as steps, in both layouts of the streamed curve count.
func TestIntCurvesDecodeAsIntegersNotFloats(t *testing.T) {
	for _, tc := range []struct {
		name, version string
		discrete      bool
	}{
		{"2022.3.9 curveCount counts every streamed curve", "2022.3.9f1", false},
		{"2022.3.20 discreteCurveCount counts the integer ones", "2022.3.20f1", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tree, err := synth.TreeFor(tc.version, model.ClassAnimationClip)
			if err != nil {
				t.Fatal(err)
			}
			b, err := unitywrite.Encode(tree, synth.CameraClipFields(tc.discrete))
			if err != nil {
				t.Fatal(err)
			}
			v, err := typetree.Decode(tree, b, binary.LittleEndian)
			if err != nil {
				t.Fatal(err)
			}
			c, err := Clip(v, tc.version)
			if err != nil {
				t.Fatalf("clip refused: %v", err)
			}
			if len(c.Curves) != 1 || len(c.IntCurves) != 3 || len(c.NotFinite()) != 0 {
				t.Fatalf("%d float curves, %d integer curves, not finite %v; want 1, 3, none", len(c.Curves), len(c.IntCurves), c.NotFinite())
			}
			if got := c.Curves[0].Eval(0.75); got != 40 {
				t.Errorf("field of view at 0.75 s = %g, want 40", got)
			}
			for _, w := range []struct {
				curve int
				at    float32
				want  int32
			}{
				{0, 0, 3}, {0, 0.49, 3}, {0, 0.5, synth.IntQuietNaN}, {0, 0.99, synth.IntQuietNaN}, {0, 1, synth.IntMinusOne}, {0, 5, synth.IntMinusOne},
				{1, 0, 5}, {1, 0.15, 5}, {1, 0.2, synth.IntPayload},
				{2, 0, synth.IntInfinity}, {2, 2, synth.IntInfinity},
			} {
				if got := c.IntCurves[w.curve].Eval(w.at); got != w.want {
					t.Errorf("integer curve %d at %g s = %#x, want %#x", w.curve, w.at, got, w.want)
				}
			}
			if k := c.IntCurves[1].Keys; len(k) != 2 {
				t.Errorf("dense integer keys %+v: want one per change (2)", k)
			}
			if tg := c.IntCurves[0].Target; tg.ClassID != 114 || tg.Attribute != model.PathHash("shot") || tg.PathHash != model.PathHash("Cam") {
				t.Errorf("target %+v", tg)
			}
		})
	}
}

// A float curve's value that is NaN is data: the clip decodes, and
// NotFinite names the curve and key; a key time that is NaN is damage.
func TestNonFiniteFloatValuesAreReadAndTimesRefused(t *testing.T) {
	tree, err := synth.TreeFor("2022.3.9f1", model.ClassAnimationClip)
	if err != nil {
		t.Fatal(err)
	}
	decode := func(edit func(f unitywrite.Fields)) (*model.Clip, error) {
		f := synth.CameraClipFields(false)
		edit(f)
		b, err := unitywrite.Encode(tree, f)
		if err != nil {
			t.Fatal(err)
		}
		v, err := typetree.Decode(tree, b, binary.LittleEndian)
		if err != nil {
			t.Fatal(err)
		}
		return Clip(v, "2022.3.9f1")
	}
	streamed := func(f unitywrite.Fields) []uint32 {
		return f["m_MuscleClip"].(unitywrite.Fields)["m_Clip"].(unitywrite.Fields)["data"].(unitywrite.Fields)["m_StreamedClip"].(unitywrite.Fields)["data"].([]uint32)
	}
	c, err := decode(func(f unitywrite.Fields) {
		streamed(f)[12+2+4] = math.Float32bits(float32(math.NaN())) // field of view at 0.5 s
	})
	if err != nil {
		t.Fatalf("clip with a NaN field of view refused: %v", err)
	}
	if l := c.NotFinite(); len(l) != 1 || l[0].Where != "curve 0 (#"+itoa(model.PathHash("Cam"))+" ) streamed key 1 (at 0.5 s)" {
		t.Errorf("not finite %v, want curve 0 streamed key 1", l)
	}
	if _, err = decode(func(f unitywrite.Fields) {
		streamed(f)[12] = math.Float32bits(float32(math.NaN())) // the second frame's time
	}); err == nil {
		t.Errorf("a NaN key time decoded")
	}
}

func itoa(x uint32) string {
	b := []byte{}
	for {
		b = append([]byte{byte('0' + x%10)}, b...)
		if x /= 10; x == 0 {
			return string(b)
		}
	}
}
