package animator

import (
	"fmt"
	"math"
	"testing"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/decode/compiled"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/humanoid"
	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/assets"
)

// countEvents ticks a n times at dt and counts the events of state s.
func countEvents(a *Animator, dt float32, n, s int) int {
	got := 0
	for i := 0; i < n; i++ {
		a.Tick(float64(dt))
		for _, e := range a.Events() {
			if e.State == s && e.Layer == 0 {
				got++
			}
		}
	}
	return got
}

func TestEventsAtTheStartOfADestinationFadingInFire(t *testing.T) {
	for _, dur := range []float32{0, 0.25} {
		t.Run(fmt.Sprintf("duration %v", dur), func(t *testing.T) {
			b := newCtl()
			go_ := b.param("go", model.ParamTrigger, 0)
			A, B := b.state(0, "A", b.clip(1, true)), b.state(0, "B", b.clip(1, true, 0, 0.05))
			b.trans(0, A, B, cond(model.CondIf, go_, 0)).Duration = dur
			a := b.build(t)
			a.SetTrigger(go_)
			if got := countEvents(a, 0.1, 5, B); got != 2 {
				t.Errorf("%d events of B in its first 0.5 s, want 2 (at 0 and 0.05)", got)
			}
		})
	}
}

func TestCrossFadeDestinationFiresItsFirstTickEvents(t *testing.T) {
	b := newCtl()
	b.state(0, "A", b.clip(1, true))
	B := b.state(0, "B", b.clip(1, true, 0, 0.05))
	a := b.build(t)
	a.Tick(0.1)
	a.CrossFade(0, B, 0.25, 0)
	if got := countEvents(a, 0.1, 5, B); got != 2 {
		t.Errorf("%d events of B in its first 0.5 s, want 2", got)
	}
}

func TestPlayerFadeInFiresTheEventsOfItsFirstTick(t *testing.T) {
	s := testSkeleton(t)
	idle := &PlayerClip{Clip: moveClip(t, s, "idle", 1, 0, 0, true)}
	atk := &PlayerClip{Clip: moveClip(t, s, "atk", 1, 1, 0, false,
		model.Event{Time: 0, Function: "start"}, model.Event{Time: 0.01, Function: "early"})}
	for _, fade := range []float32{0, 0.1} {
		t.Run(fmt.Sprintf("fade %v", fade), func(t *testing.T) {
			p := NewPlayer(s)
			p.Play(idle, 0)
			p.Tick(1.0 / 60)
			p.Play(atk, fade)
			n := 0
			for i := 0; i < 30; i++ {
				p.Tick(1.0 / 60)
				for _, e := range p.Events() {
					if e.Clip == atk {
						n++
						if !(e.Weight > 0) {
							t.Errorf("event %s at weight %v", e.Event.Function, e.Weight)
						}
					}
				}
			}
			if n != 2 {
				t.Errorf("%d events, want 2", n)
			}
		})
	}
}

// An exit time at the very time a state was entered at does not fire on
// its first tick: Unity documents that a state needs one evaluation before
// an exit time can fire (an exit time of 0 never fires on the first frame),
// so it fires at the next loop.
func TestExitTimeAtTheStartOfAJustEnteredStateWaitsALoop(t *testing.T) {
	t.Run("exit time 0 from the entry state", func(t *testing.T) {
		b := newCtl()
		c := b.clip(1, true)
		A, B := b.state(0, "A", c), b.state(0, "B", c)
		tr := b.trans(0, A, B)
		tr.HasExitTime, tr.ExitTime, tr.Duration = true, 0, 0
		a := b.build(t)
		if got := tickUntil(a, 0.1, 30, func() bool { return a.Layer(0).State == B }); got != 10 {
			t.Errorf("fired at tick %d, want 10 (the next loop)", got)
		}
	})
	t.Run("exit time equal to the offset the state was entered at", func(t *testing.T) {
		b := newCtl()
		c := b.clip(1, true)
		A, B, C := b.state(0, "A", c), b.state(0, "B", c), b.state(0, "C", c)
		tr := b.trans(0, A, B)
		tr.HasExitTime, tr.ExitTime, tr.Duration, tr.Offset = true, 0.05, 0, 0.5
		tr2 := b.trans(0, B, C)
		tr2.HasExitTime, tr2.ExitTime, tr2.Duration = true, 0.5, 0
		a := b.build(t)
		if got := tickUntil(a, 0.1, 30, func() bool { return a.Layer(0).State == C }); got != 11 {
			t.Errorf("C reached at tick %d, want 11 (B's next loop)", got)
		}
	})
}

// evKey is an event as a synced layer must repeat it.
type evKey struct {
	state  int
	time   float32
	weight float32
}

func TestSyncedLayerReportsItsSourcesEventsOnTransitionTicks(t *testing.T) {
	for _, dur := range []float32{0, 0.2} {
		t.Run(fmt.Sprintf("duration %v", dur), func(t *testing.T) {
			b := newCtl()
			go_ := b.param("go", model.ParamTrigger, 0)
			A, B := b.state(0, "A", b.clip(1, true, 0.15)), b.state(0, "B", b.clip(1, true, 0, 0.05))
			for _, s := range []int{A, B} {
				st := b.st(0, s)
				st.Motions = append(st.Motions, st.Motions[0])
			}
			b.trans(0, A, B, cond(model.CondIf, go_, 0)).Duration = dur
			b.c.Layers = append(b.c.Layers, model.Layer{Name: "Synced", StateMachine: 0, MotionSet: 1, Weight: 1, SyncedLayer: 0})
			a := b.build(t)
			a.Tick(0.1)
			a.SetTrigger(go_) // A crosses its event at 0.15 in the tick the transition fires
			total := 0
			for i := 0; i < 6; i++ {
				a.Tick(0.1)
				var per [2][]evKey
				for _, e := range a.Events() {
					per[e.Layer] = append(per[e.Layer], evKey{e.State, e.Event.Time, e.Weight})
				}
				if fmt.Sprint(per[0]) != fmt.Sprint(per[1]) {
					t.Errorf("tick %d: source layer events %v, synced layer %v", i+2, per[0], per[1])
				}
				total += len(per[0])
			}
			if total != 3 {
				t.Errorf("%d events on the source layer, want 3 (A at 0.15, B at 0 and 0.05)", total)
			}
		})
	}
}

func TestEventsAreInLayerOrder(t *testing.T) {
	b := newCtl()
	b.state(0, "A", b.clip(1, true, 0.05))
	st := b.st(0, 0)
	st.Motions = append(st.Motions, st.Motions[0])
	b.c.StateMachines = append(b.c.StateMachines, model.StateMachine{})
	b.state(1, "Other", b.clip(1, true, 0.05))
	b.c.Layers = append(b.c.Layers,
		model.Layer{Name: "Synced", StateMachine: 0, MotionSet: 1, Weight: 1, SyncedLayer: 0},
		model.Layer{Name: "Other", StateMachine: 1, Weight: 1, SyncedLayer: -1})
	a := b.build(t)
	a.Tick(0.1)
	var layers []int
	for _, e := range a.Events() {
		layers = append(layers, e.Layer)
	}
	if fmt.Sprint(layers) != "[0 1 2]" {
		t.Errorf("events of layers %v, want [0 1 2]", layers)
	}
}

// rootSkeleton is the Animator's transform ("") with an "arm" below it.
func rootSkeleton(t testing.TB) *anim.Skeleton {
	s, err := anim.NewSkeleton([]string{"", "arm"}, []int{-1, 0},
		[]geom.Transform{geom.Identity, {T: geom.V3(0, 1, 0), R: geom.Quat{W: 1}, S: geom.V3(1, 1, 1)}})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// pathMove bakes a 1 s looping clip moving path along z at speed m/s (a
// constant position when speed is 0).
func pathMove(t testing.TB, s *anim.Skeleton, path string, speed float32) *anim.Clip {
	tgt := func(comp int, prop string) model.Target {
		return model.Target{Path: path, PathHash: model.PathHash(path), PathKnown: true, ClassID: model.ClassTransform,
			Attribute: uint32(model.PropPosition), Transform: model.PropPosition, Component: comp, Property: prop}
	}
	z := model.Curve{Target: tgt(2, "m_LocalPosition.z"), Kind: model.CurveConstant}
	if speed != 0 {
		z.Kind, z.Keys, z.PreInfinity, z.PostInfinity = model.CurveKeyframed, linearKeys(0, speed, 1), model.InfinityClamp, model.InfinityClamp
	}
	c := &model.Clip{Name: path, SampleRate: 30, Stop: 1, Settings: model.LoopSettings{LoopTime: true}, Curves: []model.Curve{
		{Target: tgt(0, "m_LocalPosition.x"), Kind: model.CurveConstant},
		{Target: tgt(1, "m_LocalPosition.y"), Kind: model.CurveConstant, Value: 1},
		z,
	}}
	b, err := anim.Bake(c, s)
	if err != nil {
		t.Fatal(err)
	}
	if b, err = b.WithRoot(0); err != nil { // the Animator's transform carries root motion
		t.Fatal(err)
	}
	return b
}

func TestSyncedLayerKeepsRootMotionOnTransitionTicks(t *testing.T) {
	s := rootSkeleton(t)
	run := func(synced bool) []float32 {
		clips := generic(pathMove(t, s, "", 1), pathMove(t, s, "", 2))
		b := newCtl()
		b.c.Clips = []model.Ref{{PathID: 1}, {PathID: 2}}
		go_ := b.param("go", model.ParamTrigger, 0)
		A, B := b.state(0, "A", 0), b.state(0, "B", 1)
		b.trans(0, A, B, cond(model.CondIf, go_, 0)).Duration = 0.2
		if synced {
			for _, s := range []int{A, B} {
				st := b.st(0, s)
				st.Motions = append(st.Motions, st.Motions[0])
			}
			b.c.Layers = append(b.c.Layers, model.Layer{Name: "Synced", StateMachine: 0, MotionSet: 1, Weight: 1, SyncedLayer: 0})
		}
		d, err := Compile(b.c, clips)
		if err != nil {
			t.Fatal(err)
		}
		a := NewAnimator(d)
		var out []float32
		for i := 0; i < 8; i++ {
			if i == 2 {
				a.SetTrigger(go_)
			}
			a.Tick(0.1)
			dt := a.RootMotion().T
			out = append(out, dt.Z)
		}
		return out
	}
	alone, withSynced := run(false), run(true)
	for i := range alone {
		if math.Abs(float64(alone[i]-withSynced[i])) > 1e-5 {
			t.Errorf("tick %d: root moved %v with a synced override copying the base, %v without", i+1, withSynced[i], alone[i])
		}
	}
}

func TestOverrideLayerWithoutRootMotionKeepsTheRootMotionBelow(t *testing.T) {
	s := rootSkeleton(t)
	arm := []model.MaskElement{{PathHash: model.PathHash("arm"), Weight: 1}}
	both := []model.MaskElement{{PathHash: model.PathHash(""), Weight: 1}, {PathHash: model.PathHash("arm"), Weight: 1}}
	half := []model.MaskElement{{PathHash: model.PathHash(""), Weight: 0.5}}
	tests := []struct {
		name  string
		upper *anim.Clip
		mask  []model.MaskElement
		want  float32
	}{
		{"an upper clip that does not animate the root keeps the walk", pathMove(t, s, "arm", 0), nil, 1},
		{"an upper clip moving only the arm keeps the walk", pathMove(t, s, "arm", 3), nil, 1},
		{"an upper clip holding the root still stops it", pathMove(t, s, "", 0), nil, 0},
		{"an upper clip moving the root replaces the walk", pathMove(t, s, "", 2), nil, 2},
		{"a mask without the root keeps the walk under a moving clip", pathMove(t, s, "", 2), arm, 1},
		{"a mask with the root lets a moving clip replace it", pathMove(t, s, "", 2), both, 2},
		{"a mask weighs the root motion", pathMove(t, s, "", 2), half, 1.5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			clips := generic(pathMove(t, s, "", 1), tc.upper)
			b := newCtl()
			b.c.Clips = []model.Ref{{PathID: 1}, {PathID: 2}}
			b.state(0, "Walk", 0)
			b.c.StateMachines = append(b.c.StateMachines, model.StateMachine{})
			b.c.Layers = append(b.c.Layers, model.Layer{Name: "Upper", StateMachine: 1, Weight: 1, SyncedLayer: -1, SkeletonMask: tc.mask})
			b.state(1, "Upper", 1)
			d, err := Compile(b.c, clips)
			if err != nil {
				t.Fatal(err)
			}
			a := NewAnimator(d)
			if z := travel(a, 60, 1.0/60).Z; math.Abs(float64(z-tc.want)) > 1e-3 {
				t.Errorf("root moved %v m in 1 s, want %v", z, tc.want)
			}
		})
	}
}

func TestTransitionRootMotionKeepsFullWeight(t *testing.T) {
	// Two clips walking at the same speed: a transition between them
	// must not change the speed.
	s := rootSkeleton(t)
	clips := generic(pathMove(t, s, "", 1), pathMove(t, s, "", 1))
	b := newCtl()
	b.c.Clips = []model.Ref{{PathID: 1}, {PathID: 2}}
	go_ := b.param("go", model.ParamTrigger, 0)
	A, B := b.state(0, "A", 0), b.state(0, "B", 1)
	b.trans(0, A, B, cond(model.CondIf, go_, 0)).Duration = 0.25
	d, err := Compile(b.c, clips)
	if err != nil {
		t.Fatal(err)
	}
	a := NewAnimator(d)
	a.Tick(0.1)
	a.SetTrigger(go_)
	for i := 0; i < 6; i++ {
		a.Tick(0.1)
		if dt := a.RootMotion().T; math.Abs(float64(dt.Z)-0.1) > 1e-4 {
			t.Errorf("tick %d: root moved %v, want 0.1", i+2, dt.Z)
		}
	}
}

func TestClipsRootedAtOneJointMoveTheRootOnlyWhenTheyAnimateIt(t *testing.T) {
	s := rootSkeleton(t)
	// Baked by anim's own rule: the walk's root joint is "" (it moves), a
	// still pose has none (WithRoot(-1) stands for it).
	bake := func(path string, speed float32) *anim.Clip {
		c, err := pathMove(t, s, path, speed).WithRoot(-1)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	walk, err := anim.Bake(&model.Clip{Name: "walk", SampleRate: 30, Stop: 1, Curves: []model.Curve{{
		Target: model.Target{Path: "", PathHash: model.PathHash(""), PathKnown: true, ClassID: model.ClassTransform,
			Attribute: uint32(model.PropPosition), Transform: model.PropPosition, Component: 2, Property: "m_LocalPosition.z"},
		Kind: model.CurveKeyframed, Keys: linearKeys(0, 1, 1), PreInfinity: model.InfinityClamp, PostInfinity: model.InfinityClamp}},
		Settings: model.LoopSettings{LoopTime: true}}, s)
	if err != nil {
		t.Fatal(err)
	}
	if walk.RootJoint() != 0 {
		t.Fatalf("walk root joint %d, want 0", walk.RootJoint())
	}
	root := func(c *anim.Clip) *anim.Clip {
		r, err := c.WithRoot(walk.RootJoint())
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	// As an Animator does, every clip takes root motion from one joint: a
	// still pose of the root holds it still, one of the arm leaves it.
	clips := generic(walk, root(bake("arm", 0)), root(bake("", 0)))
	for i, want := range []RootSource{
		{Moves: true, Masked: true, PathHash: model.PathHash("")},
		{},
		{Moves: true, Masked: true, PathHash: model.PathHash("")},
	} {
		if got := clips[i].Root; got != want {
			t.Errorf("clip %d: %+v, want %+v", i, got, want)
		}
	}
}

func TestPlayerContinuousExtrapolationOfAClipShorterThanAFrame(t *testing.T) {
	s := testSkeleton(t)
	pose := make([]geom.Transform, s.Len())
	// 0.01 s moving 0.01 m (1 m/s) at 30 frames per second.
	c := &PlayerClip{Clip: moveClip(t, s, "short", 0.01, 0.01, 0, false), Extrapolation: ExtrapolateContinuous}
	p := NewPlayer(s)
	p.Play(c, 0)
	for i := 0; i < 60; i++ {
		p.Tick(1.0 / 60)
	}
	p.Pose(pose)
	if x := pose[1].T.X; math.Abs(float64(x)-1) > 1e-3 {
		t.Errorf("after 1 s at 1 m/s the clip is at x=%v, want 1", x)
	}
}

// wrapClip bakes a 1 s clip with the given loop settings.
func wrapClip(t testing.TB, s *anim.Skeleton, wrap model.WrapMode, loopTime bool, stop float32) (*model.Clip, *anim.Clip) {
	c := &model.Clip{Name: "c", SampleRate: 30, Stop: stop, WrapMode: wrap, Settings: model.LoopSettings{LoopTime: loopTime}}
	b, err := anim.Bake(c, s)
	if err != nil {
		t.Fatal(err)
	}
	return c, b
}

func TestAnimatorClipSourcesLoopByLoopTimeOnly(t *testing.T) {
	s := testSkeleton(t)
	for _, tc := range []struct {
		name     string
		wrap     model.WrapMode
		loopTime bool
		stop     float32
	}{
		{"loop time loops", model.WrapDefault, true, 1},
		{"a loop wrap mode without loop time does not", model.WrapLoop, false, 1},
		{"a clamped clip does not", model.WrapDefault, false, 1},
		{"a zero-length looping clip", model.WrapDefault, true, 0},
		{"a zero-length clip with a loop wrap mode", model.WrapLoop, false, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, b := wrapClip(t, s, tc.wrap, tc.loopTime, tc.stop)
			timing, baked := TimingClip(m), GenericClip(b)
			if timing.Loop != tc.loopTime || baked.Loop != tc.loopTime {
				t.Errorf("loops: timing %v, generic %v, want %v", timing.Loop, baked.Loop, tc.loopTime)
			}
			if timing.Length != baked.Length || !(timing.Length > 0) {
				t.Errorf("length: timing %v, generic %v, want equal and positive", timing.Length, baked.Length)
			}
		})
	}
}

func TestPlayerLoopsALegacyLoopWrapMode(t *testing.T) {
	s := testSkeleton(t)
	_, b := wrapClip(t, s, model.WrapLoop, false, 1)
	if pc := (&PlayerClip{Clip: b}); !pc.loops() {
		t.Error("the Player should loop a clip whose wrap mode is Loop")
	}
}

// TestHumanoidClipsMoveTheBodyWhenTheyHaveRootCurves checks, on the
// corpus's humanoid emotes, that a humanoid clip moves the root exactly
// when it has RootT or RootQ curves, unmasked.
func TestHumanoidClipsMoveTheBodyWhenTheyHaveRootCurves(t *testing.T) {
	ct, err := assets.Open(corpustest.Path(t, "lethal-emotes/customemotespackage"), assets.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ct.Close()
	var rig *humanoid.Rig
	var clips []*model.Clip
	for _, f := range ct.Files {
		for j := range f.Objects {
			o := &f.Objects[j]
			if o.ClassID != model.ClassAvatar && o.ClassID != model.ClassAnimationClip {
				continue
			}
			v, err := f.Decode(o)
			if err != nil {
				t.Fatal(err)
			}
			if o.ClassID == model.ClassAnimationClip {
				c, err := compiled.Clip(v, f.UnityVersion)
				if err != nil {
					t.Fatal(err)
				}
				if c.Humanoid && len(clips) < 12 {
					clips = append(clips, c)
				}
				continue
			}
			av, err := compiled.Avatar(v, f.UnityVersion)
			if err != nil {
				t.Fatal(err)
			}
			if rig == nil && av.IsHuman() {
				if rig, err = humanoid.NewRig(av); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if rig == nil || len(clips) == 0 {
		t.Fatalf("no humanoid avatar (%v) or clips (%d)", rig != nil, len(clips))
	}
	moving := 0
	for _, c := range clips {
		h, err := humanoid.Bake(c, rig)
		if err != nil {
			t.Fatal(err)
		}
		has := false
		for _, cv := range c.Curves {
			a := cv.Target.Attribute
			has = has || cv.Target.ClassID == model.ClassAnimator && a >= model.FirstRootAttribute && a < model.FirstRootAttribute+7
		}
		if got := HumanClip(h).Root; got != (RootSource{Moves: has, Body: has}) {
			t.Errorf("clip %q: %+v, want Moves and Body %v, unmasked by skeleton masks", c.Name, got, has)
		}
		if has {
			moving++
		}
	}
	if moving == 0 {
		t.Error("no emote has body motion")
	}
	if got := HumanClip(nil).Root; got != (RootSource{}) {
		t.Errorf("a missing clip: %+v", got)
	}
}

// A mirrored state mirrors humanoid body motion as it mirrors the pose
// (across the sagittal plane: x and the turn about y change sign); Unity
// mirrors humanoid states only, so a generic clip's root motion stays.
func TestMirroredStateMirrorsBodyMotionOnly(t *testing.T) {
	s := testSkeleton(t)
	tests := []struct {
		name    string
		body    bool
		mirror  bool
		wantX   float64
		wantYaw float64
	}{
		{"generic", false, false, 0.5, 45},
		{"generic in a mirrored state", false, true, 0.5, 45},
		{"humanoid", true, false, 0.5, 45},
		{"humanoid in a mirrored state", true, true, -0.5, -45},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			clips := generic(moveClip(t, s, "walk", 1, 1, 90, true))
			clips[0].Root.Body = tc.body // counted as a humanoid body's
			b := newCtl()
			b.c.Clips = []model.Ref{{PathID: 1}}
			b.state(0, "Walk", 0)
			b.st(0, 0).Mirror = tc.mirror
			d, err := Compile(b.c, clips)
			if err != nil {
				t.Fatal(err)
			}
			a := NewAnimator(d)
			var x, turn float64
			for i := 0; i < 30; i++ {
				a.Tick(1.0 / 60)
				rm := a.RootMotion()
				dt, dq := rm.T, rm.R
				x += float64(dt.X)
				turn += 2 * math.Asin(float64(dq.Y)) * 180 / math.Pi
			}
			// Half a second of a clip that moves 1 m and turns 90° per second.
			if math.Abs(x-tc.wantX) > 0.05 || math.Abs(turn-tc.wantYaw) > 1 {
				t.Errorf("root moved x %.3f and turned %.1f°, want %.3f and %.1f°", x, turn, tc.wantX, tc.wantYaw)
			}
		})
	}
}

// Hours of looping keep time: a 1 s loop ticked at 60 Hz for five hours
// is at 18,000 loops, and its event fired once per loop (float32 state
// times rounded each 1/60 s step by up to 6 % after 4.5 hours).
func TestLongSessionsKeepTime(t *testing.T) {
	if testing.Short() {
		t.Skip("1.08 million ticks")
	}
	b := newCtl()
	c := b.clip(1, true, 0.5)
	b.state(0, "Loop", c)
	a := b.build(t)
	const ticks = 5 * 3600 * 60
	events := 0
	for i := 0; i < ticks; i++ {
		a.Tick(1.0 / 60)
		events += len(a.Events())
	}
	if nt := a.Layer(0).NormalizedTime; math.Abs(float64(nt)-18000) > 0.01 {
		t.Errorf("normalised time %v after five hours, want 18000", nt)
	}
	if events != 18000 {
		t.Errorf("%d events, want 18000", events)
	}
}

// bodyWalk moves along x at speed units/s through a 1 s clip.
type bodyWalk float32

func (w bodyWalk) ExtractRootMotion(from, to float32, loops int) anim.RootMotion {
	return anim.RootMotion{T: geom.Vec3{X: float32(w) * (to - from + float32(loops))}, R: geom.Quat{W: 1}}
}

// bodyClips makes clip 0 walk along x at 1 unit/s and clip 1 stand still,
// both as humanoid body motion.
func bodyClips(clips []Clip) []Clip {
	out := append([]Clip(nil), clips...)
	for i := range out {
		out[i].Root = RootSource{Moves: true, Body: true}
		out[i].Motion = bodyWalk(0)
	}
	out[0].Motion = bodyWalk(1)
	return out
}

// A layer takes humanoid body motion only when its body mask has the Root
// part: an arms-only override layer standing still leaves the base layer's
// walk; one with the Root part stops it.
func TestBodyMotionFollowsTheBodyMasksRootPart(t *testing.T) {
	tests := []struct {
		name  string
		parts []uint32
		want  float32
	}{
		{"arms only", []uint32{0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0}, 0.25},
		{"arms and root", []uint32{1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0}, 0},
		{"full mask", nil, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := newCtl()
			walk, stand := b.clip(1, true), b.clip(1, true)
			m := model.HumanMaskFromParts(tc.parts)
			b.c.StateMachines = append(b.c.StateMachines, model.StateMachine{})
			b.c.Layers = append(b.c.Layers, model.Layer{Name: "Arms", StateMachine: 1, Weight: 1, SyncedLayer: -1, BodyMask: m[:]})
			b.state(0, "Walk", walk)
			b.state(1, "Wave", stand)
			d, err := Compile(b.c, bodyClips(b.clips))
			if err != nil {
				t.Fatal(err)
			}
			a := NewAnimator(d)
			a.Tick(0.25)
			if x := a.RootMotion().T; math.Abs(float64(x.X-tc.want)) > 1e-4 {
				t.Errorf("root motion x %v, want %v", x.X, tc.want)
			}
		})
	}
}
