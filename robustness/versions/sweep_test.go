package versions

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/decode/catalog"
	"github.com/mecanim/mecanim/internal/synth"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/assets"
	"github.com/mecanim/mecanim/unity/layouts"
	"github.com/mecanim/mecanim/unity/unityversion"
)

// sweepClasses are the classes whose layouts choose the versions swept:
// every class the scene writes.
var sweepClasses = []int32{
	model.ClassAnimationClip, model.ClassAvatar, model.ClassAnimatorController,
	model.ClassAnimator, model.ClassTransform, model.ClassGameObject,
}

// boundaryVersions are swept besides the newest version of each layout
// combination: the oldest dumped version, both sides of the StreamedClip
// curveCount split (a UInt32 up to 2022.3.18 and 2023.2.7, two UInt16
// after), and a version the dump does not have (its layouts are those of
// the newest dumped 2022.3 by the lookup rule).
var boundaryVersions = []string{"5.0.0f4", "2022.3.18f1", "2022.3.19f1", "2023.2.7f1", "2023.2.8f1", "2022.3.99f1"}

// sweepVersions returns, for each distinct combination of the layouts of
// sweepClasses across the dumped versions, the newest version using it,
// and the boundaryVersions, in ascending order.
func sweepVersions(t testing.TB) []string {
	t.Helper()
	index := map[int32]map[string]int{} // class -> version -> layout
	for _, c := range sweepClasses {
		index[c] = map[string]int{}
		for i := range layouts.Candidates(c) {
			for _, v := range layouts.VersionsOfLayout(c, i) {
				index[c][v.String()] = i
			}
		}
	}
	newest := map[string]unityversion.Version{}
	for _, v := range layouts.Versions() {
		var key []string
		for _, c := range sweepClasses {
			i, ok := index[c][v.String()]
			if !ok {
				i = -1
			}
			key = append(key, fmt.Sprint(i))
		}
		k := strings.Join(key, ",")
		if old, ok := newest[k]; !ok || unityversion.Compare(v, old) > 0 {
			newest[k] = v
		}
	}
	vs := make([]unityversion.Version, 0, len(newest)+len(boundaryVersions))
	for _, v := range newest {
		vs = append(vs, v)
	}
	for _, s := range boundaryVersions {
		v, err := unityversion.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc(vs, func(x unityversion.Version) bool { return unityversion.Compare(x, v) == 0 }) {
			vs = append(vs, v)
		}
	}
	sort.Slice(vs, func(i, j int) bool { return unityversion.Compare(vs[i], vs[j]) < 0 })
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.String()
	}
	if len(out) == 0 {
		t.Fatal("no dumped versions in unity/layouts")
	}
	return out
}

// TestSweepCoversEveryLayoutOfEveryClass proves the chosen versions
// exercise every distinct layout of every class the scene writes, from
// Unity 5 to 6000.
func TestSweepCoversEveryLayoutOfEveryClass(t *testing.T) {
	versions := sweepVersions(t)
	t.Logf("%d versions, %s … %s", len(versions), versions[0], versions[len(versions)-1])
	for _, c := range sweepClasses {
		n := len(layouts.Candidates(c))
		covered := map[int]bool{}
		for _, s := range versions {
			v, err := unityversion.Parse(s)
			if err != nil {
				t.Fatal(err)
			}
			tree, _, err := layouts.Lookup(v, c)
			if err != nil {
				continue
			}
			for i, cand := range layouts.Candidates(c) {
				if layouts.SameLayout(tree, cand) {
					covered[i] = true
				}
			}
		}
		if len(covered) != n {
			t.Errorf("class %d: %d of %d layouts covered", c, len(covered), n)
		}
	}
	for _, major := range []string{"5.", "2017.", "2018.", "2019.", "2020.", "2021.", "2022.", "2023.", "6000."} {
		if !slices.ContainsFunc(versions, func(v string) bool { return strings.HasPrefix(v, major) }) {
			t.Errorf("no version %sx swept", major)
		}
	}
}

// Aspects of the scene, each checked in its own subtest.
const (
	aspectRig        = "rig"
	aspectAvatar     = "avatar"
	aspectController = "controller"
	aspectClips      = "clips"
	aspectLegacy     = "legacy clip"
)

// aspects are every aspect, in the order checked.
var aspects = []string{aspectRig, aspectAvatar, aspectController, aspectClips, aspectLegacy}

// scene is what the commands decode from the synthetic files, with the
// error of each aspect that failed.
type scene struct {
	rig        *model.Rig
	avatar     *model.Avatar
	controller *model.Controller
	// clips by name, and those the controller's blend trees play, in its
	// clip order.
	clips    map[string]*model.Clip
	ctlClips []*model.Clip
	legacy   *model.Clip
	errs     map[string]error
}

// decodeScene opens data as the CLI does (unity/assets, then
// decode/catalog) and decodes the rig, the avatar, the controller (with
// its clips) and every clip; an aspect that fails has its error in errs.
func decodeScene(data []byte, name string) (*scene, error) {
	ct, err := assets.OpenReader(bytes.NewReader(data), int64(len(data)), name, assets.Options{})
	if err != nil {
		return nil, fmt.Errorf("open: %w", err)
	}
	cat := catalog.New(ct)
	s := &scene{clips: map[string]*model.Clip{}, errs: map[string]error{}}
	one := func(class int32, what string) (catalog.Object, error) {
		objs := cat.ByClass(class)
		if len(objs) != 1 {
			return catalog.Object{}, fmt.Errorf("%d %ss, want 1", len(objs), what)
		}
		return objs[0], nil
	}
	if rigs, errs := cat.Rigs(context.Background()); len(errs) > 0 {
		s.errs[aspectRig] = fmt.Errorf("rigs: %v", errs)
	} else if len(rigs) != 1 {
		s.errs[aspectRig] = fmt.Errorf("%d rigs, want 1", len(rigs))
	} else {
		s.rig = rigs[0].Rig
	}
	if o, err := one(model.ClassAvatar, "avatar"); err != nil {
		s.errs[aspectAvatar] = err
	} else if s.avatar, err = cat.Avatar(o); err != nil {
		s.errs[aspectAvatar] = err
	}
	if o, err := one(model.ClassAnimatorController, "controller"); err != nil {
		s.errs[aspectController] = err
	} else if s.controller, err = cat.Controller(o); err != nil {
		s.errs[aspectController] = err
	} else {
		// The controller's clips are clips: their errors are the clips'.
		var errs []error
		if s.ctlClips, errs = cat.ControllerClips(o, s.controller); len(errs) > 0 {
			s.errs[aspectClips] = fmt.Errorf("controller clips: %v", errs)
		}
	}
	for _, o := range cat.ByClass(model.ClassAnimationClip) {
		aspect := aspectClips
		if o.PathID() == synth.LegacyClipID {
			aspect = aspectLegacy
		}
		c, err := cat.Clip(o)
		switch {
		case err != nil:
			if s.errs[aspect] == nil {
				s.errs[aspect] = err
			}
		case aspect == aspectLegacy:
			s.legacy = c
		default:
			s.clips[c.Name] = c
		}
	}
	if s.legacy == nil && s.errs[aspectLegacy] == nil {
		s.errs[aspectLegacy] = fmt.Errorf("no legacy clip")
	}
	return s, nil
}

// sceneOptions is the scene swept: full and extended.
func sceneOptions(version string) synth.Options {
	return synth.Options{Version: version, Full: true, Extended: true}
}

// droppedFields returns, keyed "class:path", the values of the scene the
// version's layouts have no field for (synth.Dropped): what a decoder of
// that version cannot see, so the reference's decode of them is cleared
// before comparing.
func droppedFields(version string) (map[string]bool, error) {
	out := map[string]bool{}
	for _, v := range synth.SceneValues(sceneOptions(version)) {
		tree, err := synth.TreeFor(version, v.ClassID)
		if err != nil {
			return nil, err
		}
		for _, p := range synth.Dropped(tree, v.Fields) {
			out[fmt.Sprintf("%d:%s", v.ClassID, p)] = true
		}
	}
	return out, nil
}

// modes are the ways the scene is written for each version.
var modes = []struct {
	name     string
	stripped bool // type trees left to the reader's built-in layouts
	bundle   bool // inside a UnityFS bundle
}{
	{"embedded trees", false, false},
	{"stripped", true, false},
	{"embedded trees in bundle", false, true},
	{"stripped in bundle", true, true},
}

func write(version string, stripped, bundle bool) ([]byte, error) {
	if bundle {
		return synth.BundleWith(sceneOptions(version), stripped, 4096)
	}
	return synth.SerializedFileWith(sceneOptions(version), stripped)
}

// TestEveryLayoutVersionDecodesLikeTheReference writes the scene with the
// layouts of every swept version, in every mode, decodes it as the
// commands do, and checks each aspect equals what the reference version's
// file gives, once the fields that version's layouts lack are cleared
// from the reference.
func TestEveryLayoutVersionDecodesLikeTheReference(t *testing.T) {
	refData, err := write(synth.UnityVersion, false, false)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := decodeScene(refData, "reference")
	if err != nil {
		t.Fatalf("reference %s: %v", synth.UnityVersion, err)
	}
	if len(ref.errs) > 0 {
		t.Fatalf("reference %s: %v", synth.UnityVersion, ref.errs)
	}
	for _, version := range sweepVersions(t) {
		dropped, err := droppedFields(version)
		if err != nil {
			t.Fatalf("%s: %v", version, err)
		}
		for _, m := range modes {
			t.Run(version+"/"+m.name, func(t *testing.T) {
				data, err := write(version, m.stripped, m.bundle)
				if err != nil {
					t.Fatalf("write: %v", err)
				}
				got, err := decodeScene(data, version)
				if err != nil {
					t.Fatal(err)
				}
				want, _ := decodeScene(refData, "reference") // a fresh copy to adjust
				adjust(t, want, dropped)
				for _, a := range aspects {
					t.Run(a, func(t *testing.T) {
						checkAspect(t, a, got, want, dropped)
					})
				}
			})
		}
	}
}

// Scene value paths (class:path, as droppedFields keys them).
const (
	pathStateMachine = "91:m_Controller.m_StateMachineArray[].data."
	pathState        = pathStateMachine + "m_StateConstantArray[].data."
	pathLayer        = "91:m_Controller.m_LayerArray[].data."
	pathBinding      = "74:m_ClipBindingConstant.genericBindings[]."
)

// droppedRules says, for every scene value some version's layouts lack,
// what the decoders give instead: the func clears it from the reference's
// decode; nil means the value is another version's name for a field (the
// scene gives both; decoders should read whichever the layout has) or one
// no decoder reads. A dropped value without a rule fails the sweep, so a
// new layout's difference is looked at, not passed over.
var droppedRules = withLegacyRules(map[string]func(want *scene){
	// Up to 5.4 a component entry is pair{first: class id, second: ref};
	// rigs follow the Transforms, not the components.
	"1:m_Component[].component": nil,
	"1:m_Component[].first":     nil,
	"1:m_Component[].second":    nil,
	// The binding's class is classID (UInt16) up to 5.5, typeID after.
	pathBinding + "classID": nil,
	pathBinding + "typeID":  nil,
	// Since 2022.3.19 and 2023.2.8 curveCount is a UInt16 followed by
	// discreteCurveCount; before, there are no discrete curves.
	"74:m_MuscleClip.m_Clip.data.m_StreamedClip.discreteCurveCount": nil,
	"74:m_MuscleClip.m_StopX": nil, // not decoded
	// No translation DoF before 5.2.
	"90:m_Avatar.m_Human.data.m_HasTDoF": func(w *scene) {
		if w.avatar != nil && w.avatar.Human != nil {
			w.avatar.Human.HasTDoF = false
		}
	},
	// Compiled avatars carry their HumanDescription from 2019.1 on.
	"90:m_HumanDescription": func(w *scene) {
		if w.avatar != nil {
			w.avatar.Description = nil
		}
	},
	"90:m_HumanDescription.m_GlobalScale": func(w *scene) {
		if w.avatar != nil && w.avatar.Description != nil {
			w.avatar.Description.GlobalScale = 0
		}
	},
	// The body mask has two words (no IK goals' word) up to 5.1.
	pathLayer + "m_BodyMask.word2": func(w *scene) {
		for i := range w.controller.Layers {
			l := &w.controller.Layers[i]
			l.BodyMask = l.BodyMask[:min(2, len(l.BodyMask))]
		}
	},
	// Every layout names it "(int&)m_LayerBlendingMode".
	pathLayer + "m_LayerBlendingMode": nil,
	// The motion set index and count were named m_StateMachineMotionSetIndex
	// and m_MotionSetCount up to 2018.1.
	pathLayer + "m_StateMachineMotionSetIndex":         nil,
	pathLayer + "m_StateMachineSynchronizedLayerIndex": nil,
	pathStateMachine + "m_MotionSetCount":              nil,
	pathStateMachine + "m_SynchronizedLayerCount":      nil,
	// 5.0 has no state parameters and no fixed-duration transitions.
	pathState + "m_SpeedParamID": func(w *scene) {
		forStates(w.controller, func(st *model.State) { st.SpeedParam = -1 })
	},
	pathState + "m_CycleOffsetParamID": func(w *scene) {
		forStates(w.controller, func(st *model.State) { st.CycleOffsetParam = -1 })
	},
	pathState + "m_TransitionConstantArray[].data.m_HasFixedDuration": func(w *scene) {
		forStates(w.controller, func(st *model.State) {
			for i := range st.Transitions {
				st.Transitions[i].HasFixedDuration = false
			}
		})
	},
})

// withLegacyRules adds the rules of the legacy clip's keyframed curves to
// rules.
func withLegacyRules(rules map[string]func(want *scene)) map[string]func(want *scene) {
	// No Euler curves in 5.0–5.2.
	rules["74:m_EulerCurves"] = func(w *scene) {
		if w.legacy == nil {
			return
		}
		kept := w.legacy.Curves[:0]
		for _, c := range w.legacy.Curves {
			if c.Target.Transform != model.PropEuler {
				kept = append(kept, c)
			}
		}
		w.legacy.Curves = kept
		w.legacy.Stats.Keyframed = len(kept)
	}
	for _, kind := range []string{"m_RotationCurves", "m_EulerCurves", "m_PositionCurves", "m_ScaleCurves", "m_FloatCurves"} {
		key := "74:" + kind + "[].curve.m_Curve[]."
		// No weighted keys before 2018.1: every key has the default
		// weights, unweighted.
		rules[key+"weightedMode"] = func(w *scene) {
			if w.legacy == nil {
				return
			}
			for i := range w.legacy.Curves {
				for j := range w.legacy.Curves[i].Keys {
					k := &w.legacy.Curves[i].Keys[j]
					k.WeightedMode, k.InWeight, k.OutWeight = 0, 1.0/3, 1.0/3
				}
			}
		}
		rules[key+"inWeight"], rules[key+"outWeight"] = nil, nil // with weightedMode
		// Only Euler curves read their rotation order (which 5.0–5.2, without Euler curves, lack).
		rules["74:"+kind+"[].curve.m_RotationOrder"] = nil
	}
	return rules
}

func forStates(c *model.Controller, f func(*model.State)) {
	if c == nil {
		return
	}
	for i := range c.StateMachines {
		for j := range c.StateMachines[i].States {
			f(&c.StateMachines[i].States[j])
		}
	}
}

// adjust clears from want what the version's layouts cannot carry.
func adjust(t *testing.T, want *scene, dropped map[string]bool) {
	for p := range dropped {
		rule, ok := droppedRules[p]
		if !ok {
			t.Errorf("the layouts lack scene value %s: add a rule to droppedRules saying what the decoders give instead", p)
			continue
		}
		if rule != nil {
			rule(want)
		}
	}
}

// decoderBug is a known decoder failure on some versions' layouts, kept
// out of the comparison (and reported as a skipped subtest named for it)
// until the decoder is fixed. Decoders are not this package's to change.
type decoderBug struct {
	name   string // the subtest
	aspect string
	// when is the scene value whose absence from a version's layouts
	// (droppedFields) brings the bug out: the layout difference.
	when string
	// bug says where and what.
	bug string
	// clear makes got's fields the bug spoils equal to want's and reports
	// whether they differed; nil when the aspect fails to decode at all.
	clear func(got, want *scene) bool
}

// knownDecoderBugs lists the decoder failures the sweep finds and that are
// not fixed yet. None now: the three it found (decode/compiled reading only
// the newer names of the binding's typeID, the motion set count and the
// layer's motion set index, so clips of Unity ≤5.5 failed to decode and
// synced layers of ≤2018.1 lost their motion set) were fixed in 456ac6a.
var knownDecoderBugs []decoderBug

func checkAspect(t *testing.T, aspect string, got, want *scene, dropped map[string]bool) {
	var bugs []decoderBug
	for _, b := range knownDecoderBugs {
		if b.aspect == aspect && dropped[b.when] {
			bugs = append(bugs, b)
		}
	}
	if err := got.errs[aspect]; err != nil {
		for _, b := range bugs {
			if b.clear == nil {
				t.Skipf("known decoder bug (%s): %s\nerror: %v", b.name, b.bug, err)
			}
		}
		t.Fatalf("decode: %v (dropped: %v)", err, droppedOf(dropped, aspect))
	}
	if want.errs[aspect] != nil {
		t.Fatalf("reference: %v", want.errs[aspect])
	}
	for _, b := range bugs {
		if b.clear == nil {
			continue
		}
		t.Run(b.name, func(t *testing.T) {
			if b.clear(got, want) {
				t.Skipf("known decoder bug: %s", b.bug)
			}
		})
	}
	var d []string
	switch aspect {
	case aspectRig:
		d = diff(got.rig, want.rig)
	case aspectAvatar:
		d = diff(got.avatar, want.avatar)
	case aspectController:
		d = diff(got.controller, want.controller)
	case aspectClips:
		d = append(diff(got.clips, want.clips), diff(got.ctlClips, want.ctlClips)...)
		d = append(d, evalDiff(got.clips, want.clips)...)
	case aspectLegacy:
		d = diff(got.legacy, want.legacy)
		d = append(d, evalDiff(map[string]*model.Clip{"legacy": got.legacy}, map[string]*model.Clip{"legacy": want.legacy})...)
	}
	if len(d) > 0 {
		t.Errorf("differs from %s:\n  %s\n(dropped: %v)", synth.UnityVersion, strings.Join(d, "\n  "), droppedOf(dropped, aspect))
	}
}

// aspectClass is the class whose dropped fields explain an aspect.
var aspectClass = map[string]int32{
	aspectRig: model.ClassGameObject, aspectAvatar: model.ClassAvatar,
	aspectController: model.ClassAnimatorController, aspectClips: model.ClassAnimationClip,
	aspectLegacy: model.ClassAnimationClip,
}

func droppedOf(dropped map[string]bool, aspect string) []string {
	var out []string
	prefix := fmt.Sprintf("%d:", aspectClass[aspect])
	for p := range dropped {
		if strings.HasPrefix(p, prefix) || (aspect == aspectRig && (strings.HasPrefix(p, fmt.Sprintf("%d:", model.ClassTransform)) || strings.HasPrefix(p, fmt.Sprintf("%d:", model.ClassAnimator)))) {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// evalDiff compares every curve of every clip by value at sample times
// inside, between and past the frames.
func evalDiff(got, want map[string]*model.Clip) []string {
	var out []string
	for name, w := range want {
		g := got[name]
		if g == nil || len(g.Curves) != len(w.Curves) {
			continue // diff reports it
		}
		for i := range w.Curves {
			for _, tm := range []float32{-0.1, 0, 0.04, 0.1, 0.15, 0.2, 0.27, 0.3, 0.5} {
				a, b := g.Curves[i].Eval(tm), w.Curves[i].Eval(tm)
				if math.Float32bits(a) != math.Float32bits(b) && len(out) < maxDiffs {
					out = append(out, fmt.Sprintf("clip %q curve %d (%s) at %g: got %g, want %g", name, i, w.Curves[i].Target.Property, tm, a, b))
				}
			}
		}
	}
	return out
}

// TestReferenceSceneHasWhatTheSweepCompares proves the comparison is not
// vacuous: the reference decode has every aspect the sweep compares, with
// the extended scene's content (streamed, dense, constant and muscle
// curves, a synced layer, state parameters, a HumanDescription, a legacy
// clip with weighted keys).
func TestReferenceSceneHasWhatTheSweepCompares(t *testing.T) {
	data, err := write(synth.UnityVersion, false, false)
	if err != nil {
		t.Fatal(err)
	}
	s, err := decodeScene(data, "reference")
	if err != nil {
		t.Fatal(err)
	}
	if len(s.errs) > 0 {
		t.Fatal(s.errs)
	}
	if len(s.rig.Nodes) != len(synth.Bones) || s.rig.Animator == nil || s.rig.Animator.Avatar.PathID != synth.AvatarID ||
		!s.rig.Animator.ApplyRootMotion || !s.rig.Animator.Enabled {
		t.Errorf("rig: %d nodes, animator %+v", len(s.rig.Nodes), s.rig.Animator)
	}
	a := s.avatar
	if !a.IsHuman() || len(a.Skeleton.Nodes) != len(synth.Bones) || a.Description == nil || len(a.Description.Human) != len(synth.Bones)-1 {
		t.Errorf("avatar: human %v, %d nodes, description %v", a.IsHuman(), len(a.Skeleton.Nodes), a.Description != nil)
	}
	c := s.controller
	if len(c.Layers) != 2 || c.Layers[1].SyncedLayer != 0 || c.Layers[1].MotionSet != 1 || c.StateMachines[0].MotionSets != 2 ||
		c.StateMachines[0].States[0].SpeedParam != 0 || len(c.StateMachines[0].States[0].Motions) != 2 || len(c.Parameters) != 2 {
		t.Errorf("controller: %+v", c)
	}
	if l := s.legacy; !l.Legacy || len(l.Curves) != 4+3+3+3+1 || l.Curves[0].Keys[1].WeightedMode != 3 || len(l.Events) != 1 {
		t.Errorf("legacy clip: legacy %v, %d curves, %+v", l.Legacy, len(l.Curves), l.Curves[0].Keys)
	}
	if len(s.clips) != 2 || len(s.ctlClips) != 2 {
		t.Fatalf("%d clips, %d controller clips", len(s.clips), len(s.ctlClips))
	}
	for name, cl := range s.clips {
		kinds := map[model.CurveKind]int{}
		for _, cv := range cl.Curves {
			kinds[cv.Kind]++
		}
		if kinds[model.CurveStreamed] != 4 || kinds[model.CurveDense] != 3 || kinds[model.CurveConstant] != 4 || !cl.Humanoid {
			t.Errorf("clip %q: curve kinds %v, humanoid %v", name, kinds, cl.Humanoid)
		}
		if v := cl.Curves[len(cl.Curves)-1].Eval(0); v != synth.ExtendedMuscleValue {
			t.Errorf("clip %q: muscle curve %q = %g", name, cl.Curves[len(cl.Curves)-1].Target.Property, v)
		}
	}
}
