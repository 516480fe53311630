package compiled

import (
	"fmt"
	"math"
	"testing"

	"github.com/mecanim/mecanim/decode/yamlasset"
	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/model"
)

// channelKey identifies a channel independently of its form.
type channelKey struct {
	path      uint32
	class     int32
	attribute uint32
	component int
}

func keyOf(t *model.Target) channelKey {
	return channelKey{t.PathHash, t.ClassID, t.Attribute, t.Component}
}

func (k channelKey) String() string {
	return fmt.Sprintf("path #%d class %d attribute %d component %d", k.path, k.class, k.attribute, k.component)
}

// TestCompiledClipsMatchYAMLSources proves, for every clip whose YAML source
// is in the corpus, that every curve of the source exists in the decoded
// compiled clip under the same path and property, and that at every key
// time of the source the compiled curve has the key's value.
func TestCompiledClipsMatchYAMLSources(t *testing.T) {
	cases := []struct{ source, bundle, name string }{
		{"lc-example-enemy/source/HeadBop.anim", "lc-example-enemy/modassets#", "HeadBop"},
		{"lc-example-enemy/source/die-Head.anim", "lc-example-enemy/modassets#", "die-Head"},
		{"lc-example-enemy/source/die-Legs.anim", "lc-example-enemy/modassets#", "die-Legs"},
		{"lc-example-enemy/source/die-Toilet.anim", "lc-example-enemy/modassets#", "die-Toilet"},
		{"lc-example-enemy/source/swingAttack.anim", "lc-example-enemy/modassets#", "swingAttack"},
		{"lc-example-enemy/source/walkCycle.anim", "lc-example-enemy/modassets#", "walkCycle"},
		{"lethal-emotes/source/Dab.anim", "lethal-emotes/customemotespackage#", "Dab"},
		{"lethal-emotes/source/Floss.anim", "lethal-emotes/customemotespackage#", "Floss"},
		{"lethal-emotes/source/nobones.anim", "lethal-emotes/customemotespackage#", "nobones"},
		{"lethal-emotes/source/Dab.anim", "lethal-emotes/customemotespackage2#", "Dab 1"},
	}
	for _, tc := range cases {
		t.Run(tc.bundle+tc.name, func(t *testing.T) {
			yf, err := yamlasset.ParseFile(corpustest.Path(t, tc.source))
			if err != nil {
				t.Fatal(err)
			}
			src, err := yf.Clip()
			if err != nil {
				t.Fatal(err)
			}
			o := findObject(t, tc.bundle, model.ClassAnimationClip, tc.name)
			c, err := Clip(o.V, o.File.F.UnityVersion)
			if err != nil {
				t.Fatal(err)
			}
			compiled := map[channelKey]*model.Curve{}
			for i := range c.Curves {
				compiled[keyOf(&c.Curves[i].Target)] = &c.Curves[i]
			}
			if c.Start != src.Start || c.Stop != src.Stop {
				t.Errorf("compiled %g..%g, source %g..%g", c.Start, c.Stop, src.Start, src.Stop)
			}
			var worst float64
			var worstAt string
			keys := 0
			for i := range src.Curves {
				s := &src.Curves[i]
				k := keyOf(&s.Target)
				cc := compiled[k]
				if cc == nil {
					t.Errorf("source curve %s (%s %q) missing from the compiled clip", k, s.Target.Path, s.Target.Property)
					continue
				}
				if s.Target.Property != "" && cc.Target.Property != "" && s.Target.Property != cc.Target.Property {
					t.Errorf("%s: property %q, source %q", k, cc.Target.Property, s.Target.Property)
				}
				for _, key := range s.Keys {
					if key.Time < c.Start || key.Time > c.Stop {
						continue // outside the clip: never sampled
					}
					keys++
					at, want := key.Time, float64(key.Value)
					if cc.Kind == model.CurveDense {
						// A dense curve holds the source curve sampled at
						// its frame times; a source key's time is a frame
						// time accumulated in float32, a hair off the
						// frame (2.9333344 for 2.9333333), where a steep
						// curve has already moved. Compare at the frame,
						// against the source curve evaluated there.
						f := float64(at-cc.DenseBegin) * float64(cc.DenseRate)
						if r := math.Round(f); math.Abs(f-r) < 1e-3 {
							at = cc.DenseBegin + float32(r/float64(cc.DenseRate))
							want = float64(s.Eval(at))
						}
					}
					got := float64(cc.Eval(at))
					d := math.Abs(got-want) / max(1, math.Abs(want))
					if s.Target.Transform == model.PropRotation {
						// The compiler may flip a quaternion's sign for
						// continuity: q and -q are one rotation.
						d = min(d, math.Abs(got+want))
					}
					if d > worst {
						worst = d
						worstAt = fmt.Sprintf("%s %q %q (%v) at %g: %g, source %g", k, s.Target.Path, s.Target.Property, cc.Kind, at, got, want)
					}
				}
			}
			t.Logf("%d source curves, %d keys; worst relative difference %g: %s", len(src.Curves), keys, worst, worstAt)
			// Streamed and constant curves keep the key values exactly
			// (difference 0 on every generic clip). Dense samples are the
			// editor curve evaluated by the compiler, whose float32
			// arithmetic differs from ours in the last bits (up to 2.2e-6
			// of the value's magnitude seen here, on muscle curves).
			if worst > 1e-5 {
				t.Errorf("worst relative difference %g exceeds 1e-5: %s", worst, worstAt)
			}
		})
	}
}
