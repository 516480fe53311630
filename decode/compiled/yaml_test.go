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
// time of the source the compiled curve has the key's value; the clip
// settings (loop flags, offsets), rate, wrap mode, kind and events agree.
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
			// The clip settings, rate, wrap mode, kind and events.
			type head struct {
				Legacy, Humanoid bool
				SampleRate       float32
				WrapMode         model.WrapMode
				Settings         model.LoopSettings
				Events           []model.Event
			}
			for _, d := range diff(head{c.Legacy, c.Humanoid, c.SampleRate, c.WrapMode, c.Settings, c.Events},
				head{src.Legacy, src.Humanoid, src.SampleRate, src.WrapMode, src.Settings, src.Events}, 0, 10) {
				t.Errorf("compiled vs source: %s", d)
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

// TestCompiledAvatarMatchesYAMLSource proves that ChadRigAvatar.asset (the
// editor's YAML of an avatar, in lethal-emotes/source) and its compiled
// form in the scavbody bundle (stored there as FinalBeta2Avatar: same
// human scale, skeleton and HumanDescription) decode to the same avatar,
// field by field, names aside.
func TestCompiledAvatarMatchesYAMLSource(t *testing.T) {
	yf, err := yamlasset.ParseFile(corpustest.Path(t, "lethal-emotes/source/ChadRigAvatar.asset"))
	if err != nil {
		t.Fatal(err)
	}
	src, err := yf.Avatar()
	if err != nil {
		t.Fatal(err)
	}
	o := findObject(t, "lethal-emotes/scavbody#", model.ClassAvatar, "FinalBeta2Avatar")
	a, err := Avatar(o.V, o.File.F.UnityVersion)
	if err != nil {
		t.Fatal(err)
	}
	src.Name = a.Name
	for _, d := range diff(a, src, 0, 20) {
		t.Errorf("compiled vs YAML: %s", d)
	}
	t.Logf("%d nodes, %d human nodes, %d names, %d description bones: equal", len(a.Skeleton.Nodes), len(a.Human.Skeleton.Nodes), len(a.Names), len(a.Description.Human))
}

// TestCompiledControllersMatchYAMLSources proves that each controller whose
// YAML source is in the corpus decodes to the same parameters, layers,
// state machines, states (by name hash and in order), transitions,
// conditions, thresholds, selectors and blend trees as the YAML decoder
// gives for its source. Left out of the comparison: transition names (the
// YAML does not store them; the compiled ones come from m_TOS), a state's
// Loop (the YAML knows it only from its clips: checked here against the
// compiled clips instead), selector ids, and the clip references
// themselves (other files; the leaves' clip indexes are compared).
func TestCompiledControllersMatchYAMLSources(t *testing.T) {
	cases := []struct {
		source, bundle, name string
		// known lists differences between this build and the source in the
		// corpus: the source was edited after this bundle was built.
		known []string
	}{
		{"lc-example-enemy/source/ExampleEnemyAnimator.controller", "lc-example-enemy/modassets#", "ExampleEnemyAnimator", nil},
		{"lethal-emotes/source/dancecontroller.controller", "plateup-emotes/morbman#", "dancecontroller", nil},
		// The 2022.3 build has exit time 1 where the source (and the
		// 2020.3 build above) has 0.91847825.
		{"lethal-emotes/source/dancecontroller.controller", "lethal-emotes/customemotespackage#", "dancecontroller",
			[]string{".StateMachines[0].States[3].Transitions[0].ExitTime: 1 vs 0.91847825050354"}},
	}
	for _, tc := range cases {
		t.Run(tc.bundle+tc.name, func(t *testing.T) {
			yf, err := yamlasset.ParseFile(corpustest.Path(t, tc.source))
			if err != nil {
				t.Fatal(err)
			}
			src, err := yf.Controller()
			if err != nil {
				t.Fatal(err)
			}
			o := findObject(t, tc.bundle, model.ClassAnimatorController, tc.name)
			c, err := Controller(o.V, o.File.F.UnityVersion)
			if err != nil {
				t.Fatal(err)
			}
			// A state plays its clip looped when the clip loops.
			for _, sm := range c.StateMachines {
				for _, st := range sm.States {
					if len(st.Motions) == 0 || len(st.Motions[0].Nodes) != 1 || st.Motions[0].Nodes[0].Clip < 0 {
						continue
					}
					r := c.Clips[st.Motions[0].Nodes[0].Clip]
					co, ok := o.File.F.Object(r.PathID)
					if r.FileID != 0 || !ok {
						continue
					}
					cv, err := o.File.F.Decode(co)
					if err != nil {
						t.Fatal(err)
					}
					clip, err := Clip(cv, "")
					if err != nil {
						t.Fatal(err)
					}
					if clip.Settings.LoopTime != st.Loop {
						t.Errorf("state %q: Loop %v, its clip %q LoopTime %v", st.Name, st.Loop, clip.Name, clip.Settings.LoopTime)
					}
				}
			}
			a, b := stripController(c), stripController(src)
			if len(c.Clips) != len(src.Clips) {
				t.Errorf("%d clips, source %d", len(c.Clips), len(src.Clips))
			}
			known := map[string]bool{}
			for _, k := range tc.known {
				known[k] = true
			}
			for _, d := range diff(a, b, 0, 50) {
				if known[d] {
					t.Logf("known build difference: %s", d)
					delete(known, d)
					continue
				}
				t.Errorf("compiled vs YAML: %s", d)
			}
			for k := range known {
				t.Errorf("expected difference not found: %s", k)
			}
			states := 0
			for _, sm := range c.StateMachines {
				states += len(sm.States)
			}
			t.Logf("%d parameters, %d layers, %d machines, %d states, %d names", len(c.Parameters), len(c.Layers), len(c.StateMachines), states, len(c.Names))
		})
	}
}

// stripController copies c without what the comparison leaves out.
func stripController(c *model.Controller) model.Controller {
	out := *c
	out.Clips, out.ClipNames, out.ClipKeys = nil, nil, nil
	out.StateMachines = append([]model.StateMachine(nil), c.StateMachines...)
	for i := range out.StateMachines {
		sm := &out.StateMachines[i]
		sm.States = append([]model.State(nil), sm.States...)
		for j := range sm.States {
			st := &sm.States[j]
			st.Loop = false
			st.Transitions = append([]model.Transition(nil), st.Transitions...)
			for k := range st.Transitions {
				st.Transitions[k].Name = ""
			}
		}
		sm.AnyState = append([]model.Transition(nil), sm.AnyState...)
		for k := range sm.AnyState {
			sm.AnyState[k].Name = ""
		}
		sm.Selectors = append([]model.Selector(nil), sm.Selectors...)
		for k := range sm.Selectors {
			sm.Selectors[k].ID = 0
		}
	}
	return out
}
