package bind

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/internal/synth"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/serialized"
	"github.com/mecanim/mecanim/unity/unitywrite"
)

func openSet(t *testing.T, paths ...string) *Set {
	t.Helper()
	set, err := Open(t.Context(), paths, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { set.Close() })
	return set
}

// Two different clips of one name: the name is an error that lists both
// with how to choose each; each can be chosen by its reference, and the
// one chosen is the one that plays.
func TestTwoClipsOfOneNameAreAnErrorAndEachCanBeChosen(t *testing.T) {
	sc := synth.NewScene(t, synth.Options{Full: true})
	sc.Obj(synth.ClipID + 1)["m_Name"] = "Idle" // the scene's clips: Idle and Walk
	set := openSet(t, sc.Write("two.assets"))
	_, err := set.FindClip("Idle")
	if !errors.Is(err, ErrAmbiguous) {
		t.Fatalf("Find: %v, want ErrAmbiguous", err)
	}
	for _, want := range []string{"two.assets#600", "two.assets#601"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not say %q:\n%v", want, err)
		}
	}
	var ce *ChoiceError
	if !errors.As(err, &ce) || ce.Kind != KindClip || len(ce.Candidates) != 2 || ce.Candidates[1].Ref != "two.assets#601" {
		t.Errorf("the error does not list the candidates for a caller to choose from: %#v", ce)
	}
	if strings.Contains(err.Error(), "--") {
		t.Errorf("a library error names a command-line option: %v", err)
	}
	hips := map[bound.ClipID]float32{}
	for _, ref := range []string{"two.assets#600", "#601"} {
		i, err := set.FindClip(ref)
		if err != nil {
			t.Fatalf("%s: %v", ref, err)
		}
		m, err := set.motionOn(i, On{})
		if err != nil {
			t.Fatal(err)
		}
		local := make([]geom.Transform, m.On().Skeleton().Len())
		m.Sample(0.1, local)
		hips[i] = local[1].T.Y
	}
	if len(hips) != 2 || hips[0] == hips[1] {
		t.Errorf("the two clips pose the hips at %v: not two different clips", hips)
	}
}

// Two Animators on GameObjects of one name, their rigs different: the name
// is ambiguous, and each is chosen by its Animator's path id.
func TestTwoAnimatorsOfOneNameAreChosenByPathID(t *testing.T) {
	sc := synth.NewScene(t, synth.Options{Full: true})
	sc.AddRig(1000, 1300, 1, geom.V3(0, 2, 0), true) // hips two metres up
	set := openSet(t, sc.Write("mult.assets"))
	if n := len(set.Characters()); n != 2 {
		t.Fatalf("%d characters, want 2", n)
	}
	_, err := set.FindCharacter("Synth")
	var ce *ChoiceError
	if !errors.As(err, &ce) || ce.Kind != KindCharacter || !strings.Contains(err.Error(), `"mult.assets#1300"`) {
		t.Fatalf("Find: %v", err)
	}
	for ref, y := range map[string]float32{"mult.assets#300": 1, "#1300": 2} {
		ch, err := set.characterOn(On{Character: ref})
		if err != nil {
			t.Fatal(err)
		}
		if got := ch.Rig().Nodes[1].Local.T.Y; got != y {
			t.Errorf("%s: hips at %v, want %v", ref, got, y)
		}
	}
}

// What no curve and no muscle writes keeps its scene value: the parked
// gun stays 8 km from the hand under a humanoid clip (the avatar's default
// pose would put it at the hand).
func TestAPropParkedAwayStaysWhereTheSceneHasIt(t *testing.T) {
	p, gun := synth.ParkedScene(t)
	set := openSet(t, p)
	i, err := set.FindClip("Idle")
	if err != nil {
		t.Fatal(err)
	}
	m, err := set.motionOn(i, On{})
	if err != nil {
		t.Fatal(err)
	}
	if !m.Humanoid() || m.On().FromAvatar() {
		t.Fatalf("humanoid %v, on %s: want a humanoid clip on the scene's character", m.Humanoid(), m.On().Describe())
	}
	sk := m.On().Skeleton()
	g, ok := sk.Index(synth.BonePath(19) + "/Gun")
	if !ok {
		t.Fatal("the character has no Gun")
	}
	local, world := make([]geom.Transform, sk.Len()), make([]geom.Transform, sk.Len())
	m.Pose(0.1, local, world)
	if local[g].T != gun {
		t.Errorf("gun's local position %v, want the scene's %v", local[g].T, gun)
	}
	if d := world[g].T.Sub(world[19].T).Len(); math.Abs(float64(d)-8000) > 1 {
		t.Errorf("gun %g m from the hand, want 8000", d)
	}
}

// A generic clip with Transform curves and RootT/RootQ curves (the root
// motion Unity bakes for a generic avatar's root node), played by its
// controller on a rig without a humanoid avatar: the Transform curves
// pose the bones, and the Animator's root motion is RootT's.
func TestGenericClipsWithRootCurvesPlayOnGenericRigs(t *testing.T) {
	sc := synth.NewScene(t, synth.Options{Full: true})
	delete(sc.Obj(synth.AnimatorID), "m_Avatar")
	walk := sc.Obj(synth.ClipID + 1)
	b := walk["m_ClipBindingConstant"].(synth.F)
	// RootT.x, RootQ.w as two more constant curves, then a dense RootT.z.
	root := func(attr int) synth.F {
		return synth.F{"path": 0, "attribute": uint32(attr), "script": synth.PPtr(0), "typeID": model.ClassAnimator, "classID": model.ClassAnimator}
	}
	// Bindings in curve order: the hips' position (3 dense curves), RootT.x
	// (dense, 2 m/s), the head's scale (3 constant), RootQ.w (constant 1).
	g := b["genericBindings"].([]any)
	b["genericBindings"] = []any{g[0], root(model.FirstRootAttribute), g[1], root(model.FirstRootAttribute + 6)}
	data := walk["m_MuscleClip"].(synth.F)["m_Clip"].(synth.F)["data"].(synth.F)
	dense := data["m_DenseClip"].(synth.F)
	frames := dense["m_FrameCount"].(int)
	old := dense["m_SampleArray"].([]float32)
	var samples []float32
	for f := 0; f < frames; f++ {
		samples = append(samples, old[3*f:3*f+3]...)
		samples = append(samples, 2*float32(f)/10)
	}
	dense["m_SampleArray"], dense["m_CurveCount"] = samples, 4
	data["m_ConstantClip"] = synth.F{"data": []float32{1.1, 1.1, 1.1, 1}}
	set := openSet(t, sc.Write("rootmotion.assets"))
	i, err := set.FindClip("Walk")
	if err != nil {
		t.Fatal(err)
	}
	c, err := set.Clip(i)
	if err != nil {
		t.Fatal(err)
	}
	if c.Humanoid {
		t.Fatal("a clip with RootT/RootQ and Transform curves reads as humanoid")
	}
	m, err := set.motionOn(i, On{})
	if err != nil {
		t.Fatalf("the clip does not play: %v", err)
	}
	if m.Generic() == nil || m.Generic().TrackCount() == 0 || !m.Generic().HasRootMotionCurves() {
		t.Fatalf("not generic with tracks and root curves")
	}
	if d := m.ExtractRootMotion(0, 0.2, 0).T; math.Abs(float64(d.X)-0.4) > 1e-5 {
		t.Errorf("root motion over 0.2 s: %v, want RootT's 0.4 along x", d)
	}
	bc, err := set.BindController(t.Context(), 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	a := bc.NewAnimator()
	a.Set("Speed", 1.0) // the blend tree plays Walk alone
	var x float64
	for range 2 {
		a.Tick(0.1)
		x += float64(a.RootMotion().T.X)
	}
	if math.Abs(x-0.4) > 1e-4 {
		t.Errorf("the Animator moved %v along x in 0.2 s, want 0.4", x)
	}
}

// An AnimatorOverrideController plays its controller with clips replaced:
// the Animator using it plays Walk where the controller has Idle.
func TestOverrideControllersReplaceClips(t *testing.T) {
	sc := synth.NewScene(t, synth.Options{Full: true})
	const overrideID = 700
	sc.Add(overrideID, model.ClassOverrideController, synth.F{"m_Name": "WalkEverywhere", "m_Controller": synth.PPtr(synth.ControllerID),
		"m_Clips": []any{synth.F{"m_OriginalClip": synth.PPtr(synth.ClipID), "m_OverrideClip": synth.PPtr(synth.ClipID + 1)}}})
	sc.Obj(synth.AnimatorID)["m_Controller"] = synth.PPtr(overrideID)
	set := openSet(t, sc.Write("override.assets"))
	k, err := set.FindController("WalkEverywhere")
	if err != nil {
		t.Fatal(err)
	}
	cc, err := set.Controller(t.Context(), k)
	if err != nil {
		t.Fatal(err)
	}
	walk, _ := set.FindClip("Walk")
	if len(cc.Clips) != 2 || cc.Clips[0] != walk || cc.Clips[1] != walk || cc.Controller.ClipNames[0] != "Walk" {
		t.Fatalf("clips %v (names %q), want Walk in both slots", cc.Clips, cc.Controller.ClipNames)
	}
	if got, ok := set.CharacterController(0); !ok || got != k {
		t.Errorf("the character plays controller %d, want the override %d", got, k)
	}
	ch, err := set.Character(t.Context(), 0)
	if err != nil {
		t.Fatal(err)
	}
	bc, err := set.BindController(t.Context(), k, ch)
	if err != nil {
		t.Fatal(err)
	}
	if m := bc.Clips()[0]; m == nil || m.Clip().Name != "Walk" || len(bc.Notes()) > 0 {
		t.Errorf("slot 0 plays %v; notes %q", m, bc.Notes())
	}
}

// A controller's clip in a file not given is named by that file and its
// path id.
func TestAClipInAFileNotGivenNamesThatFile(t *testing.T) {
	sc := synth.NewScene(t, synth.Options{Full: true})
	sc.Obj(synth.ControllerID)["m_AnimationClips"] = []any{synth.PPtr(synth.ClipID), synth.F{"m_FileID": 1, "m_PathID": 4242}}
	p := sc.WriteWith("main.assets", []unitywrite.External{{Path: "archive:/CAB-elsewhere/CAB-elsewhere"}})
	set := openSet(t, p)
	cc, err := set.Controller(t.Context(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if cc.Clips[1] != -1 || len(cc.Notes) != 1 || !strings.Contains(cc.Notes[0], "CAB-elsewhere") || !strings.Contains(cc.Notes[0], "4242") {
		t.Errorf("clips %v, notes %q: want the second slot missing, named by CAB-elsewhere and 4242", cc.Clips, cc.Notes)
	}
}

// Characters without an Animator: a legacy Animation component's
// hierarchy (its clips play on it), and the hierarchy of skinned meshes
// that nothing animates (a mod's backpack) are characters too.
func TestCharactersWithoutAnimators(t *testing.T) {
	sc := synth.NewScene(t, synth.Options{Full: true})
	// The scene's Animator gives way to an Animation playing Walk; a
	// second hierarchy holds a SkinnedMeshRenderer and nothing else.
	sc.Obj(synth.GameObjectBase)["m_Component"] = []any{synth.F{"component": synth.PPtr(synth.TransformBase)}, synth.F{"component": synth.PPtr(900)}}
	for i, v := range sc.Values() {
		if v.PathID == synth.AnimatorID {
			sc.Remove(i)
			break
		}
	}
	sc.Add(900, model.ClassAnimation, synth.F{"m_GameObject": synth.PPtr(synth.GameObjectBase), "m_Enabled": 1,
		"m_Animation": synth.PPtr(synth.ClipID + 1), "m_Animations": []any{synth.PPtr(synth.ClipID + 1)}, "m_PlayAutomatically": true})
	sc.AddRig(2000, 0, 1, geom.V3(0, 1, 0), false) // GameObjects 2100+, Transforms 2200+, no Animator
	sc.Add(2900, model.ClassSkinnedMeshRenderer, synth.F{"m_GameObject": synth.PPtr(2100 + 11), "m_Enabled": 1,
		"m_Bones": []any{synth.PPtr(2200 + 1), synth.PPtr(2200 + 11)}, "m_RootBone": synth.PPtr(2200 + 1)})
	set := openSet(t, sc.Write("legacy.assets"))
	items := set.Characters()
	if len(items) != 2 {
		t.Fatalf("characters %v, want the Animation's and the skinned mesh's", items)
	}
	legacy, err := set.Character(t.Context(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if r := legacy.Rig(); r.Legacy == nil || r.Animator != nil || len(r.Legacy.Clips) != 1 || len(r.Nodes) != len(synth.Bones) {
		t.Errorf("first character: %+v", r)
	}
	ms, _, _ := set.Motions(t.Context(), legacy)
	if len(ms) != 2 {
		t.Errorf("%d clips play on the legacy character, want Idle and Walk", len(ms))
	}
	skinned, err := set.Character(t.Context(), 1)
	if err != nil {
		t.Fatal(err)
	}
	if r := skinned.Rig(); r.Legacy != nil || r.Animator != nil || r.Name != "Synth" || len(r.Nodes) != len(synth.Bones) {
		t.Errorf("second character: %+v", r)
	}
	if it := items[1]; it.Source.PathID != 2100 {
		t.Errorf("the skinned character's source %v: want its top GameObject, 2100", it.Source)
	}
}

// The same file given twice, or copied under another name, counts once:
// its objects are listed once (no name becomes ambiguous by it).
func TestIdenticalInputsCountOnce(t *testing.T) {
	p := synth.NewScene(t, synth.Options{Full: true}).Write("a.assets")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	q := filepath.Join(t.TempDir(), "copy.assets")
	if err := os.WriteFile(q, data, 0o644); err != nil {
		t.Fatal(err)
	}
	set := openSet(t, p, p, q)
	if n := len(set.Clips()); n != 2 {
		t.Errorf("%d clips from one file given three times, want its 2", n)
	}
	if d := set.duplicates; len(d) != 1 || d[0] != q {
		t.Errorf("duplicates %q, want the copy", d)
	}
	if _, err := set.FindClip("Idle"); err != nil {
		t.Error(err)
	}
}

// An avatar whose name cannot be read: looking one up by name says so, with
// the file, the object and what was wrong, instead of listing no avatar.
func TestAnUnreadableNameIsReportedWhenANameIsNotFound(t *testing.T) {
	p := synth.NewScene(t, synth.Options{Full: true}).Write("scene.assets")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	f, err := serialized.Open(bytes.NewReader(data), int64(len(data)), "scene.assets")
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range f.Objects {
		if o.PathID == synth.AvatarID {
			// m_Name's length: longer than the object.
			binary.LittleEndian.PutUint32(data[o.Offset:], 0x7fffff00)
		}
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	set := openSet(t, p)
	_, err = set.FindAvatar("SynthAvatar")
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("Find: %v, want ErrNotFound", err)
	}
	for _, w := range []string{"scene.assets", "object 400", "name"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not say %q", err, w)
		}
	}
}
