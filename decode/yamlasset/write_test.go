package yamlasset

import (
	"bytes"
	"math"
	"testing"

	"github.com/mecanim/mecanim/model"
)

// WriteClip's asset reads back (Parse, File.Clip) with every curve's
// values at its key times, its settings and its events.
func TestWriteClipReadsBack(t *testing.T) {
	dense := func(tg model.Target, v ...float32) model.Curve {
		return model.Curve{Target: tg, Kind: model.CurveDense, Samples: v, DenseRate: 10}
	}
	tr := func(path string, p model.TransformProp, comp int) model.Target {
		return model.Target{Path: path, PathHash: model.PathHash(path), PathKnown: true, ClassID: model.ClassTransform,
			Attribute: uint32(p), Transform: p, Component: comp}
	}
	muscle := model.Target{PathKnown: true, ClassID: model.ClassAnimator, Attribute: model.FirstMuscleAttribute + 3, Property: model.MuscleNames[3]}
	c := &model.Clip{Name: "It's: a test", SampleRate: 10, Stop: 0.3,
		Settings: model.LoopSettings{LoopTime: true, Level: 0.5},
		Events:   []model.Event{{Time: 0.1, Function: "Step", Data: "left foot"}},
		Curves: []model.Curve{
			dense(tr("Hips", model.PropPosition, 0), 0, 1, 2, 3),
			dense(tr("Hips", model.PropPosition, 1), 1, 1, 1, 1),
			dense(tr("Hips/Spine", model.PropRotation, 1), 0, 0.1, 0.2, 0.1),
			dense(tr("Hips/Spine", model.PropRotation, 3), 1, 0.995, 0.98, 0.995),
			dense(muscle, -1, 0, 0.5, 1),
		}}
	var buf bytes.Buffer
	if err := WriteClip(&buf, c); err != nil {
		t.Fatal(err)
	}
	f, err := Parse(&buf, "test.anim")
	if err != nil {
		t.Fatal(err)
	}
	got, err := f.Clip()
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != c.Name || got.SampleRate != 10 || got.Stop != c.Stop || got.Settings.LoopTime != true || got.Settings.Level != 0.5 ||
		len(got.Events) != 1 || got.Events[0].Data != "left foot" || !got.Humanoid {
		t.Fatalf("read back %+v", got)
	}
	for _, want := range c.Curves {
		found := false
		for _, g := range got.Curves {
			if g.Target.ClassID != want.Target.ClassID || g.Target.Path != want.Target.Path || g.Target.Attribute != want.Target.Attribute || g.Target.Component != want.Target.Component {
				continue
			}
			found = true
			for k := 0; k < 30; k++ { // between the keys too: linear segments
				x := float32(k) / 100
				if d := math.Abs(float64(g.Eval(x) - want.Eval(x))); d > 1e-6 {
					t.Errorf("%s %s[%d] at %g: %g, want %g", want.Target.Path, want.Target.Property, want.Target.Component, x, g.Eval(x), want.Eval(x))
					break
				}
			}
		}
		if !found {
			t.Errorf("curve %s %d[%d] not read back", want.Target.Path, want.Target.Attribute, want.Target.Component)
		}
	}
}
