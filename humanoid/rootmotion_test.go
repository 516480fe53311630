package humanoid

import (
	"math"
	"testing"

	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/internal/synth"
)

// Root motion samples the body's curves on their own (Clip.body) and gets,
// to the bit, the RootT and RootQ a whole pose's sample gives: every corpus
// humanoid clip on two avatars, and a synthetic walking clip, at times
// inside, at and beyond the ends.
func TestBodySamplesAsTheWholePose(t *testing.T) {
	r, err := NewRig(synth.HumanAvatar())
	if err != nil {
		t.Fatal(err)
	}
	type pair struct {
		r *Rig
		c *Clip
	}
	var clips []pair
	sc, err := Bake(synthHumanClip(2), r)
	if err != nil {
		t.Fatal(err)
	}
	clips = append(clips, pair{r, sc})
	if _, ok := corpustest.Lookup(); ok {
		rigs := corpusRigs(t)
		for _, mc := range loadCorpus(t).clips {
			for _, r := range []*Rig{rigs[0], rigs[len(rigs)-1]} {
				c, err := Bake(mc, r)
				if err != nil {
					t.Fatalf("%s: %v", mc.Name, err)
				}
				clips = append(clips, pair{r, c})
			}
		}
	}
	withBody := 0
	for _, p := range clips {
		c := p.c
		if c.body != nil {
			withBody++
		}
		d := c.Duration()
		for k := -3; k <= 203; k++ {
			tm := d * float32(k) / 200
			var whole Pose
			c.samplePose(tm, &whole)
			got := c.sampleBody(tm)
			want := geom.Transform{T: whole.RootT, R: whole.RootQ}
			if !sameBits(got, want) {
				t.Fatalf("%s on %s at %g: body %v, whole pose %v", c.Name(), p.r.Name(), tm, got, want)
			}
		}
	}
	if withBody == 0 {
		t.Fatal("no clip has body curves baked apart")
	}
	t.Logf("%d clips, %d with body curves", len(clips), withBody)
}

func sameBits(a, b geom.Transform) bool {
	fa := []float32{a.T.X, a.T.Y, a.T.Z, a.R.X, a.R.Y, a.R.Z, a.R.W}
	fb := []float32{b.T.X, b.T.Y, b.T.Z, b.R.X, b.R.Y, b.R.Z, b.R.W}
	for i := range fa {
		if math.Float32bits(fa[i]) != math.Float32bits(fb[i]) {
			return false
		}
	}
	return true
}
