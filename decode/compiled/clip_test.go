package compiled

import (
	"math"
	"testing"

	"github.com/mecanim/mecanim/model"
)

// TestCorpusClipsDecode proves every AnimationClip of the corpus converts,
// and reports what each holds.
func TestCorpusClipsDecode(t *testing.T) {
	objs := corpusObjects(t, model.ClassAnimationClip)
	if len(objs) == 0 {
		t.Fatal("no clips in the corpus")
	}
	for _, o := range objs {
		c, err := Clip(o.V, o.File.F.UnityVersion)
		if err != nil {
			t.Errorf("%s: %v", o, err)
			continue
		}
		t.Logf("%s: legacy=%v humanoid=%v curves=%d (s%d d%d c%d k%d) objcurves=%d bindings=%d pastKeys=%d events=%d len=%.3f",
			o, c.Legacy, c.Humanoid, len(c.Curves), c.Stats.Streamed, c.Stats.Dense, c.Stats.Constant, c.Stats.Keyframed,
			len(c.ObjectCurves), c.Stats.Bindings, c.Stats.KeysPastCurveCount, len(c.Events), c.Length())
	}
}

// sampleTimes returns n+1 times spread over [start, stop] plus the times
// just around every streamed key of c (where segments meet).
func sampleTimes(c *model.Clip, n int) []float32 {
	var ts []float32
	for i := 0; i <= n; i++ {
		ts = append(ts, c.Start+(c.Stop-c.Start)*float32(i)/float32(n))
	}
	return ts
}

// TestSameClipAcrossVersionsSamplesEqual proves that one clip compiled by
// different Unity versions (2019.4, 2020.3, 2022.3) decodes to the same
// channels, which sample to the same values: the layouts differ (2019.4's
// bindings lack isIntCurve) but the converters read both.
func TestSameClipAcrossVersionsSamplesEqual(t *testing.T) {
	type ref struct{ file, name string }
	groups := [][]ref{
		{
			{"lethal-emotes/customemotespackage#", "Default Dance"},
			{"lethal-emotes/customemotespackage2#", "Default Dance 1"},
			{"plateup-emotes/customemotespackage#", "Default Dance"},
		},
		{
			{"lethal-emotes/customemotespackage#", "Dab"},
			{"lethal-emotes/customemotespackage2#", "Dab 1"},
			{"lethal-emotes/moisture_animationreplacements#", "Dab"},
		},
	}
	for _, g := range groups {
		var clips []*model.Clip
		var vers []string
		for _, r := range g {
			o := findObject(t, r.file, model.ClassAnimationClip, r.name)
			c, err := Clip(o.V, o.File.F.UnityVersion)
			if err != nil {
				t.Fatal(err)
			}
			clips = append(clips, c)
			vers = append(vers, o.File.F.UnityVersion)
		}
		base := clips[0]
		times := sampleTimes(base, 997)
		for k := 1; k < len(clips); k++ {
			c := clips[k]
			if len(c.Curves) != len(base.Curves) || c.Start != base.Start || c.Stop != base.Stop || c.Humanoid != base.Humanoid {
				t.Fatalf("%s (%s) vs %s (%s): %d/%d curves, %g-%g vs %g-%g", g[k].name, vers[k], g[0].name, vers[0],
					len(c.Curves), len(base.Curves), c.Start, c.Stop, base.Start, base.Stop)
			}
			var maxDiff float64
			for i := range c.Curves {
				a, b := &base.Curves[i], &c.Curves[i]
				if a.Target != b.Target {
					t.Fatalf("%s curve %d: target %+v vs %+v", g[k].name, i, b.Target, a.Target)
				}
				// Relative to the curve's magnitude (at least 1): the
				// compilers round the cubic coefficients differently in
				// the last bit, and a blend-shape curve (0..100) carries
				// that error at its own scale.
				scale, diff := 1.0, 0.0
				for _, tm := range times {
					x, y := float64(a.Eval(tm)), float64(b.Eval(tm))
					scale = max(scale, math.Abs(x))
					diff = max(diff, math.Abs(x-y))
				}
				maxDiff = max(maxDiff, diff/scale)
			}
			// 1e-6 of the curve's magnitude is 8 float32 ulps, far below
			// any visible difference.
			if maxDiff > 1e-6 {
				t.Errorf("%s (%s) vs %s (%s): max difference %g", g[k].name, vers[k], g[0].name, vers[0], maxDiff)
			}
			t.Logf("%s (%s) = %s (%s): %d curves at %d times, max difference %g", g[k].name, vers[k], g[0].name, vers[0], len(c.Curves), len(times), maxDiff)
		}
	}
}

// TestLegacyClipJoin checks the corpus's legacy clip (Join: 4 rotation and
// 2 position curves of keyframes, looping): one keyframed curve per
// component, paths as text, the length the span of the keys, and each
// curve equal to its keys at every key time.
func TestLegacyClipJoin(t *testing.T) {
	o := findObject(t, "lethal-emotes/customemotespackage#", model.ClassAnimationClip, "Join")
	c, err := Clip(o.V, o.File.F.UnityVersion)
	if err != nil {
		t.Fatal(err)
	}
	if !c.Legacy || len(c.Curves) != 4*4+2*3 || c.Start != 0 || c.Stop != 20 || c.WrapMode != model.WrapLoop {
		t.Fatalf("legacy=%v curves=%d %g..%g wrap %d", c.Legacy, len(c.Curves), c.Start, c.Stop, c.WrapMode)
	}
	raw := o.V.Field("m_RotationCurves").Index(0).Path("curve", "m_Curve").Index(1)
	first := c.Curves[0] // "bot to top" m_LocalRotation.x
	if first.Target.Path != "bot to top" || first.Target.PathHash != model.PathHash("bot to top") || first.Target.Property != "m_LocalRotation.x" {
		t.Errorf("first target %+v", first.Target)
	}
	if k := first.Keys[1]; k.Time != raw.Field("time").Float32() || k.Value != raw.Path("value", "x").Float32() ||
		k.OutSlope != raw.Path("outSlope", "x").Float32() || k.WeightedMode != int32(raw.Field("weightedMode").Int()) {
		t.Errorf("key 1 = %+v", k)
	}
	for _, cv := range c.Curves {
		if cv.PreInfinity != model.InfinityClamp || cv.PostInfinity != model.InfinityClamp {
			t.Errorf("%s: infinity %d/%d", cv.Target.Property, cv.PreInfinity, cv.PostInfinity)
		}
		for _, k := range cv.Keys {
			if got := cv.Eval(k.Time); got != k.Value {
				t.Errorf("%s %s at %g: %g, key %g", cv.Target.Path, cv.Target.Property, k.Time, got, k.Value)
				break
			}
		}
	}
}
