package view

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http/httptest"
	"testing"

	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
)

// A synthetic library, built in code, so the viewer's tests need no
// corpus: a stick figure whose joints' names say their side, with a prop
// parked far above it; clips that wave its left arm (two of one name), a
// clip that walks it forward (root motion), a humanoid clip it cannot
// play, a clip ten minutes long, and a third Wave from another input of
// the same base name; and a controller that walks it.

// synthContainer is where the synthetic inputs claim to live: an absolute
// path error answers must not show.
const synthContainer = "/home/someone/private/stick.bundle"

// synthOther is another input of the same base name.
const synthOther = "/home/someone/other/stick.bundle"

// The stick figure's joints.
const (
	stickRoot = iota
	stickHips
	stickSpine
	stickHead
	stickArmL
	stickHandL
	stickArmR
	stickHandR
	stickLegL
	stickFootL
	stickLegR
	stickFootR
	stickProp
	stickJoints
)

// stickRig is the figure: 1.8 m tall, facing +z, its left at -x (Unity's
// frame); the prop hangs 30 km up.
func stickRig() *model.Rig {
	type j struct {
		name   string
		parent int
		at     [3]float32
	}
	js := []j{
		{"Stick", -1, [3]float32{}},
		{"Hips", stickRoot, [3]float32{0, 1, 0}},
		{"Spine", stickHips, [3]float32{0, 0.3, 0}},
		{"Head", stickSpine, [3]float32{0, 0.5, 0}},
		{"Arm.L", stickSpine, [3]float32{-0.2, 0.35, 0}},
		{"Hand.L", stickArmL, [3]float32{-0.5, 0, 0}},
		{"Arm.R", stickSpine, [3]float32{0.2, 0.35, 0}},
		{"Hand.R", stickArmR, [3]float32{0.5, 0, 0}},
		{"Leg.L", stickHips, [3]float32{-0.15, 0, 0}},
		{"Foot.L", stickLegL, [3]float32{0, -0.95, 0}},
		{"Leg.R", stickHips, [3]float32{0.15, 0, 0}},
		{"Foot.R", stickLegR, [3]float32{0, -0.95, 0}},
		{"ParkedProp", stickRoot, [3]float32{0, 30000, 0}},
	}
	r := &model.Rig{Name: "Stick"}
	for i, x := range js {
		path := ""
		if i > 0 {
			path = x.name
			if p := x.parent; p > 0 {
				path = r.Nodes[p].Path + "/" + x.name
			}
		}
		r.Nodes = append(r.Nodes, model.RigNode{Name: x.name, Path: path, Parent: x.parent,
			Local: geom.Transform{T: geom.V3(x.at[0], x.at[1], x.at[2]), R: geom.IdentityQuat, S: geom.V3(1, 1, 1)}})
	}
	return r
}

// positionCurve is a looping keyframed curve of one component of a
// joint's local position, linear between the keys.
func positionCurve(path string, component int, times, values []float32) model.Curve {
	keys := make([]model.Keyframe, len(times))
	for i := range times {
		var slope float32
		if i+1 < len(times) {
			slope = (values[i+1] - values[i]) / (times[i+1] - times[i])
		} else if i > 0 {
			slope = (values[i] - values[i-1]) / (times[i] - times[i-1])
		}
		keys[i] = model.Keyframe{Time: times[i], Value: values[i], InSlope: slope, OutSlope: slope}
	}
	if len(keys) > 1 {
		keys[0].InSlope = keys[0].OutSlope
		for i := 1; i < len(keys)-1; i++ {
			keys[i].InSlope = (values[i] - values[i-1]) / (times[i] - times[i-1])
		}
	}
	return model.Curve{
		Target: model.Target{Path: path, PathHash: model.PathHash(path), PathKnown: true, ClassID: model.ClassTransform,
			Attribute: uint32(model.PropPosition), Transform: model.PropPosition, Component: component,
			Property: "m_LocalPosition." + string("xyz"[component])},
		Kind: model.CurveKeyframed, PreInfinity: model.InfinityClamp, PostInfinity: model.InfinityClamp, Keys: keys}
}

// waveClip raises the left hand and lowers it again over 2 s, the hips
// bobbing (they carry the figure: anim.RootRule picks them).
func waveClip(name string) *model.Clip {
	hand := "Hips/Spine/Arm.L/Hand.L"
	return &model.Clip{Name: name, SampleRate: 30, Stop: 2, Settings: model.LoopSettings{LoopTime: true}, Curves: []model.Curve{
		positionCurve("Hips", 0, []float32{0, 2}, []float32{0, 0}),
		positionCurve("Hips", 1, []float32{0, 1, 2}, []float32{1, 0.95, 1}),
		positionCurve("Hips", 2, []float32{0, 2}, []float32{0, 0}),
		positionCurve(hand, 0, []float32{0, 1, 2}, []float32{-0.5, -0.2, -0.5}),
		positionCurve(hand, 1, []float32{0, 1, 2}, []float32{0, 0.45, 0}),
		positionCurve(hand, 2, []float32{0, 1, 2}, []float32{0, 0, 0}),
	}}
}

// longClip is the length of the clip "Long" (clip 4) in seconds: long
// enough that its frames at MaxRate hit MaxFrameValues (the heaviest
// frames answer there is, about 20 MB).
const longClip = 600

// walkSpeed is how fast walkClip carries the figure forward (m/s).
const walkSpeed = 3

// walkClip moves the figure's own GameObject forward (root motion) while
// its feet step.
func walkClip() *model.Clip {
	return &model.Clip{Name: "Walk", SampleRate: 30, Stop: 1, Settings: model.LoopSettings{LoopTime: true}, Curves: []model.Curve{
		positionCurve("", 0, []float32{0, 1}, []float32{0, 0}),
		positionCurve("", 1, []float32{0, 1}, []float32{0, 0}),
		positionCurve("", 2, []float32{0, 1}, []float32{0, walkSpeed}),
		positionCurve("Hips/Leg.L/Foot.L", 2, []float32{0, 0.5, 1}, []float32{0.3, -0.3, 0.3}),
		positionCurve("Hips/Leg.R/Foot.R", 2, []float32{0, 0.5, 1}, []float32{-0.3, 0.3, -0.3}),
	}}
}

// walkController plays walkClip in its one state.
func walkController() *model.Controller {
	return &model.Controller{Name: "Walker", Clips: []model.Ref{{PathID: 13}}, ClipNames: []string{"Walk"},
		Layers: []model.Layer{{Name: "Base Layer", Weight: 1, SyncedLayer: -1}},
		StateMachines: []model.StateMachine{{States: []model.State{{Name: "Walk", Speed: 1,
			SpeedParam: -1, MirrorParam: -1, CycleOffsetParam: -1, TimeParam: -1,
			Motions: []model.BlendTree{{Nodes: []model.BlendNode{{Clip: 0, Param: -1, ParamY: -1}}}}}}}}}
}

// synthLib is a bound.Library over the synthetic inputs.
type synthLib struct {
	ch       *bound.Character
	clips    []*model.Clip
	clipIDs  []int64
	clipIn   []string
	ctl      *model.Controller
	ctlClips []*model.Clip
}

func newSynthLib(tb testing.TB) *synthLib {
	tb.Helper()
	ch, err := bound.NewCharacter(bound.CharacterInput{Name: "Stick", Source: model.Source{Container: synthContainer, PathID: 1}, Rig: stickRig()})
	if err != nil {
		tb.Fatal(err)
	}
	human := waveClip("Salute")
	human.Humanoid = true
	walk := walkClip()
	long := waveClip("Long")
	long.Stop = longClip
	return &synthLib{ch: ch,
		clips:   []*model.Clip{waveClip("Wave"), walk, waveClip("Wave"), human, long, waveClip("Wave")},
		clipIDs: []int64{11, 13, 17, 19, 23, 11},
		// the last Wave is another input's, of the same base name and
		// reference as the first
		clipIn: []string{synthContainer, synthContainer, synthContainer, synthContainer, synthContainer, synthOther},
		ctl:    walkController(), ctlClips: []*model.Clip{walk}}
}

func (l *synthLib) src(pid int64) model.Source {
	return model.Source{Container: synthContainer, PathID: pid}
}

func (l *synthLib) item(name string, pid int64, dup bool) bound.Item {
	ref := fmt.Sprintf("stick.bundle#%d", pid)
	it := bound.Item{Name: name, Source: l.src(pid), Label: name, Ref: ref}
	if dup {
		it.Label = fmt.Sprintf("%s (%s)", name, ref)
	}
	return it
}

func (l *synthLib) Characters() []bound.Item { return []bound.Item{l.item("Stick", 1, false)} }

func (l *synthLib) Clips() []bound.Item {
	count := map[string]int{}
	for _, c := range l.clips {
		count[c.Name]++
	}
	var out []bound.Item
	for i, c := range l.clips {
		it := l.item(c.Name, l.clipIDs[i], count[c.Name] > 1)
		it.Source.Container = l.clipIn[i]
		out = append(out, it)
	}
	return out
}

func (l *synthLib) Controllers() []bound.Item { return []bound.Item{l.item("Walker", 5, false)} }

func (l *synthLib) Character(ctx context.Context, i bound.CharacterID) (*bound.Character, error) {
	if i != 0 {
		return nil, fmt.Errorf("no character %d", i)
	}
	return l.ch, nil
}

func (l *synthLib) CharacterController(i bound.CharacterID) (bound.ControllerID, bool) {
	return 0, true
}

func (l *synthLib) Motion(ctx context.Context, clip bound.ClipID, on *bound.Character) (*bound.Motion, error) {
	if clip < 0 || int(clip) >= len(l.clips) || (on != nil && on != l.ch) {
		return nil, fmt.Errorf("no clip %d on %v", clip, on)
	}
	return bound.Bind(l.clips[clip], model.Source{Container: l.clipIn[clip], PathID: l.clipIDs[clip]}, l.ch)
}

func (l *synthLib) Controller(ctx context.Context, i bound.ControllerID) (*bound.ControllerClips, error) {
	if i != 0 {
		return nil, fmt.Errorf("no controller %d", i)
	}
	return &bound.ControllerClips{Controller: l.ctl, Clips: []bound.ClipID{1}}, nil
}

func (l *synthLib) BindController(ctx context.Context, ctl bound.ControllerID, on *bound.Character) (*bound.Controller, error) {
	if ctl != 0 || (on != nil && on != l.ch) {
		return nil, fmt.Errorf("no controller %d on %v", ctl, on)
	}
	return bound.NewController(bound.ControllerInput{Controller: l.ctl, Source: l.src(5), Clips: l.ctlClips,
		ClipSources: []model.Source{l.src(13)}, On: l.ch})
}

// newSynthServer serves the synthetic library with an httptest server
// (the test helpers send its token).
func newSynthServer(t *testing.T) (*httptest.Server, *Server) {
	t.Helper()
	s, err := New(newSynthLib(t), Options{Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	tokens.Store(ts.URL, s.Token())
	t.Cleanup(func() {
		ts.Close()
		tokens.Delete(ts.URL)
	})
	return ts, s
}

var _ bound.Library = (*synthLib)(nil)

// A quick check that the synthetic inputs play as meant: the wave moves
// the left hand, the walk carries the figure forward by root motion.
func TestSyntheticInputsPlay(t *testing.T) {
	ts, s := newSynthServer(t)
	var f Frames
	getJSON(t, ts.URL+"/api/clip/0/frames?rate=10", &f)
	checkFrames(t, &f)
	if len(f.Paths) != stickJoints || f.Sides[stickArmL] != -1 || f.Sides[stickHandR] != 1 || f.Sides[stickHead] != 0 {
		t.Errorf("%d joints, sides %v", len(f.Paths), f.Sides)
	}
	sc := s.Scene()
	if sc.Start != (Start{Rig: 0, Clip: 0, Controller: -1}) {
		t.Errorf("start %+v, want the first clip on the first character", sc.Start)
	}
	var r TickResult
	for i := 0; i < 10; i++ {
		_, b := post(t, ts.URL+"/api/controller/0/tick", "application/json", `{"dt": 0.1}`)
		if err := jsonUnmarshal(b, &r); err != nil {
			t.Fatal(err)
		}
	}
	if z := r.Root.T[2]; z < 0.9*walkSpeed || z > 1.1*walkSpeed {
		t.Errorf("after 1 s of walking the root is at z=%g, want %d", z, walkSpeed)
	}
}

func jsonUnmarshal(s string, v any) error { return json.Unmarshal([]byte(s), v) }

// A controller's pose is held in place while root motion carries it: the
// walk's own travel of the root is not in the positions, and the carried
// transform moves the figure on smoothly, never twice as far, never back
// when the clip loops.
func TestControllerPoseIsHeldWhileRootMotionCarriesIt(t *testing.T) {
	ts, _ := newSynthServer(t)
	var r TickResult
	prev := -1.0
	for i := 0; i < 25; i++ { // 2.5 s: the 1 s clip loops twice
		body := `{"dt": 0.1}`
		if i == 0 {
			body = `{"dt": 0, "reset": true}`
		}
		code, b := post(t, ts.URL+"/api/controller/0/tick", "application/json", body)
		if code != 200 {
			t.Fatalf("tick: %d %s", code, b)
		}
		if err := jsonUnmarshal(b, &r); err != nil {
			t.Fatal(err)
		}
		hips := r.Positions[3*stickHips : 3*stickHips+3]
		if math.Abs(float64(hips[2])) > 1e-4 || math.Abs(float64(hips[1])-1) > 1e-4 {
			t.Fatalf("at %.1f s the held hips are at %v, want (0, 1, 0)", r.Time, hips)
		}
		z := float64(r.Carried.T[2] + hips[2])
		want := walkSpeed * r.Time
		if math.Abs(z-want) > 1e-3 || z < prev {
			t.Fatalf("at %.1f s the carried hips are at z=%.3f (before %.3f), want %.3f", r.Time, z, prev, want)
		}
		prev = z
	}
}

func TestInputsAreNamedByThePathEndThatTellsThemApart(t *testing.T) {
	got := inputNames([]string{"/home/a/lethal/pack", "/home/a/plateup/pack", "rel/dir/one.bundle", "/x/solo.bundle",
		"/same/twice.bundle", "/same/twice.bundle", "/p/q/dup", "/r/q/dup"})
	for c, want := range map[string]string{
		"/home/a/lethal/pack":  "lethal/pack",
		"/home/a/plateup/pack": "plateup/pack",
		"rel/dir/one.bundle":   "one.bundle",
		"/x/solo.bundle":       "solo.bundle",
		"/same/twice.bundle":   "twice.bundle",
		"/p/q/dup":             "dup (1)",
		"/r/q/dup":             "dup (2)",
	} {
		if got[c] != want {
			t.Errorf("%s named %q, want %q", c, got[c], want)
		}
	}
	if n := inputNames([]string{"/only/one"}); n["/only/one"] != "one" {
		t.Errorf("a lone absolute input named %q", n["/only/one"])
	}
}
