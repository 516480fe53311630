package animator

import (
	"math"
	"testing"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
)

// poseSetup: layer 0 plays "move" (hips x 0→1 over 1 s, looping); layer 1
// (override, weight 0.5) plays "still" (hips x 0); layer 2 (additive,
// weight 1) plays "add" (hips x 0→1 over 1 s).
func poseSetup(t *testing.T, mask []model.MaskElement) (*Animator, *Poser, *anim.Skeleton) {
	s := testSkeleton(t)
	b := newCtl()
	move := moveClip(t, s, "move", 1, 1, 0, true)
	// As an Animator does, every clip takes root motion from one joint
	// (the walk's), so the still clip holds the root still.
	clips := generic(rooted(t, move.RootJoint(), move, moveClip(t, s, "still", 1, 0, 0, true), moveClip(t, s, "add", 1, 1, 0, true))...)
	for range clips {
		b.c.Clips = append(b.c.Clips, model.Ref{PathID: 1})
	}
	b.c.StateMachines = append(b.c.StateMachines, model.StateMachine{}, model.StateMachine{})
	b.c.Layers = append(b.c.Layers,
		model.Layer{Name: "Over", StateMachine: 1, Weight: 0.5, SyncedLayer: -1, SkeletonMask: mask},
		model.Layer{Name: "Add", StateMachine: 2, Blending: model.BlendAdditive, Weight: 0, SyncedLayer: -1})
	for i := range clips {
		b.state(i, "S", i)
	}
	d, err := Compile(b.c, clips)
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewPoser(d, s)
	if err != nil {
		t.Fatal(err)
	}
	return NewAnimator(d), p, s
}

// posedAtHalf poses poseSetup's Animator after 0.5 s with the override
// and additive layers at weights over and add.
func posedAtHalf(t *testing.T, mask []model.MaskElement, over, add float32) (*Animator, []geom.Transform) {
	a, p, s := poseSetup(t, mask)
	a.SetLayerWeight(1, over)
	a.SetLayerWeight(2, add)
	a.Tick(0.5)
	pose := make([]geom.Transform, s.Len())
	p.Pose(a, p.NewScratch(), pose)
	return a, pose
}

func TestPoserLayersAndMasks(t *testing.T) {
	tests := []struct {
		name  string
		mask  []model.MaskElement
		over  float32
		add   float32
		wantX float64
	}{
		{"base layer alone", nil, 0, 0, 0.5},
		{"override at half weight", nil, 0.5, 0, 0.25},
		{"override masked off the hips", []model.MaskElement{{PathHash: 0, Weight: 1}}, 1, 0, 0.5},
		{"override masked onto the hips", []model.MaskElement{{PathHash: model.PathHash("hips"), Weight: 1}}, 1, 0, 0},
		{"additive adds its change from the first frame", nil, 0, 1, 1},
		{"additive at half weight", nil, 0, 0.5, 0.75},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, pose := posedAtHalf(t, tc.mask, tc.over, tc.add)
			if x := float64(pose[1].T.X); math.Abs(x-tc.wantX) > 1e-4 {
				t.Errorf("hips x %v, want %v", x, tc.wantX)
			}
		})
	}
}

func TestPoseDoesNotAllocate(t *testing.T) {
	a, p, s := poseSetup(t, nil)
	a.SetLayerWeight(2, 0.5)
	sc := p.NewScratch()
	pose := make([]geom.Transform, s.Len())
	if n := testing.AllocsPerRun(100, func() { a.Tick(1.0 / 60); p.Pose(a, sc, pose) }); n != 0 {
		t.Errorf("%v allocs per tick and pose", n)
	}
}

func TestAnimClipsGiveRootMotion(t *testing.T) {
	a, _, _ := poseSetup(t, nil)
	if a.def.clips[0].Pose.(*anim.Clip).RootJoint() < 0 {
		t.Fatal("the test clip has no root joint")
	}
	a.SetLayerWeight(1, 0.5) // an override layer standing still halves it
	a.Tick(0.25)
	if d := a.RootMotion().T; math.Abs(float64(d.X)-0.125) > 1e-3 {
		t.Errorf("root moved %v in 0.25 s under a still override at 0.5", d.X)
	}
	a.SetLayerWeight(1, 0)
	if x := travel(a, 30, 1.0/60).X; math.Abs(float64(x)-0.5) > 1e-3 { // 0.25→0.75 s, no wrap
		t.Errorf("root moved %v in 0.5 s at 1 m/s", x)
	}
}

// layeredSetup: the base layer plays "move" (hips x 0→1 over 1 s); layer
// "Over" (override, weight 1) starts in a state playing over (nil: a
// constant-root clip that animates only the root joint "", x = 3) and has
// a second state without a clip that trigger "off" fades to over 0.4 s.
func layeredSetup(t *testing.T, over func(s *anim.Skeleton) *anim.Clip) (*Animator, *Poser, *anim.Skeleton, int) {
	s := testSkeleton(t)
	b := newCtl()
	top := over(s)
	clips := generic(moveClip(t, s, "move", 1, 1, 0, true), top)
	for range clips {
		b.c.Clips = append(b.c.Clips, model.Ref{PathID: 1})
	}
	off := b.param("off", model.ParamTrigger, 0)
	b.c.StateMachines = append(b.c.StateMachines, model.StateMachine{})
	b.c.Layers = append(b.c.Layers, model.Layer{Name: "Over", StateMachine: 1, Weight: 1, SyncedLayer: -1})
	b.state(0, "Move", 0)
	s0 := b.state(1, "Top", 1)
	s1 := b.state(1, "Empty", model.NoClip)
	b.trans(1, s0, s1, cond(model.CondIf, off, 0)).Duration = 0.4
	d, err := Compile(b.c, clips)
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewPoser(d, s)
	if err != nil {
		t.Fatal(err)
	}
	return NewAnimator(d), p, s, off
}

func rootOnlyClip(t *testing.T, s *anim.Skeleton) *anim.Clip {
	c, err := anim.Bake(&model.Clip{Name: "root", SampleRate: 30, Stop: 1, Curves: []model.Curve{{Kind: model.CurveConstant, Value: 3,
		Target: model.Target{Path: "", PathKnown: true, ClassID: model.ClassTransform, Attribute: uint32(model.PropPosition),
			Transform: model.PropPosition, Component: 0}}}}, s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// An override layer changes only what its clips animate: a clip that
// moves only the root leaves the hips to the base layer.
func TestOverrideLayerLeavesWhatItsClipsDoNotAnimate(t *testing.T) {
	a, p, s, _ := layeredSetup(t, func(s *anim.Skeleton) *anim.Clip { return rootOnlyClip(t, s) })
	a.Tick(0.5)
	pose := make([]geom.Transform, s.Len())
	p.Pose(a, p.NewScratch(), pose)
	if x := pose[1].T.X; math.Abs(float64(x)-0.5) > 1e-4 {
		t.Errorf("hips x %v, want the base layer's 0.5", x)
	}
	if x := pose[0].T.X; x != 3 {
		t.Errorf("root x %v, want the override layer's 3", x)
	}
	if r := pose[1].R; math.Abs(float64(r.W)-1) > 1e-6 {
		t.Errorf("hips rotation %v, want the base layer's identity", r)
	}
}

// A layer fading into a state without a clip fades out: what is below
// shows through in proportion, instead of the layer holding full weight
// until the fade ends.
func TestLayerFadingToAnEmptyStateFadesOut(t *testing.T) {
	a, p, s, off := layeredSetup(t, func(s *anim.Skeleton) *anim.Clip { return moveClip(t, s, "still", 1, 0, 0, true) })
	pose := make([]geom.Transform, s.Len())
	sc := p.NewScratch()
	a.Tick(0.5)
	p.Pose(a, sc, pose)
	if x := pose[1].T.X; math.Abs(float64(x)) > 1e-4 {
		t.Fatalf("hips x %v before the fade, want the override's 0", x)
	}
	a.SetTrigger(off)
	fading := 0
	for i := 0; i < 6; i++ {
		a.Tick(0.1)
		p.Pose(a, sc, pose)
		// The override's share is the weight of its clip; the base hips x
		// is the base clip's time (x 0→1 over 1 s).
		var share float32
		for _, c := range a.Contributions(1, nil) {
			share += c.Weight
		}
		base := a.Contributions(0, nil)[0].Time
		if share > 0 && share < 1 {
			fading++
		}
		if want := base * (1 - share); math.Abs(float64(pose[1].T.X-want)) > 1e-4 {
			t.Errorf("tick %d: hips x %.4f, want %.4f (override share %.2f of base %.2f)", i+1, pose[1].T.X, want, share, base)
		}
	}
	if fading < 2 {
		t.Errorf("the fade was seen in %d ticks", fading)
	}
}

// NaN weights (a layer weight set to NaN, a mask element from a damaged
// file) play nothing rather than turning the pose NaN.
func TestNaNWeightsKeepThePoseFinite(t *testing.T) {
	nan := float32(math.NaN())
	tests := []struct {
		name string
		mask []model.MaskElement
		over float32
		add  float32
	}{
		{"override layer weight", nil, nan, 0},
		{"additive layer weight", nil, 0, nan},
		{"mask element weight", []model.MaskElement{{PathHash: model.PathHash("hips"), Weight: nan}}, 1, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, pose := posedAtHalf(t, tc.mask, tc.over, tc.add)
			for j, x := range pose {
				for _, v := range []float32{x.T.X, x.T.Y, x.T.Z, x.R.X, x.R.Y, x.R.Z, x.R.W, x.S.X, x.S.Y, x.S.Z} {
					if v != v {
						t.Fatalf("joint %d: %+v", j, x)
					}
				}
			}
			if x := pose[1].T.X; math.Abs(float64(x)-0.5) > 1e-4 && tc.mask == nil {
				t.Errorf("hips x %v, want the base layer's 0.5 (a NaN layer weight plays nothing)", x)
			}
			if rt := a.RootMotion().T; rt.X != rt.X {
				t.Errorf("root motion %v", rt)
			}
		})
	}
}

// An additive layer whose clips' weights sum above 1 (an unnormalised
// direct tree) adds their turns as it adds their moves: two 60° turns at
// weight 1 each turn 120°, two 0.5 m moves move 1 m.
func TestAdditiveWeightsAboveOneAddTurnsLinearly(t *testing.T) {
	s := testSkeleton(t)
	b := newCtl()
	pa := b.param("a", model.ParamFloat, 1)
	pb := b.param("b", model.ParamFloat, 1)
	clips := generic(moveClip(t, s, "base", 1, 0, 0, false), moveClip(t, s, "t1", 1, 0.5, 60, false), moveClip(t, s, "t2", 1, 0.5, 60, false))
	for range clips {
		b.c.Clips = append(b.c.Clips, model.Ref{PathID: 1})
	}
	b.c.StateMachines = append(b.c.StateMachines, model.StateMachine{})
	b.c.Layers = append(b.c.Layers, model.Layer{Name: "Add", StateMachine: 1, Blending: model.BlendAdditive, Weight: 1, SyncedLayer: -1})
	b.state(0, "Base", 0)
	si := b.state(1, "Direct", 1)
	b.st(1, si).Motions = []model.BlendTree{{Nodes: []model.BlendNode{
		{Type: model.BlendDirect, Param: -1, ParamY: -1, ChildParams: []int{pa, pb}, Children: []int{1, 2}}, leaf(1), leaf(2)}}}
	d, err := Compile(b.c, clips)
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewPoser(d, s)
	if err != nil {
		t.Fatal(err)
	}
	a := NewAnimator(d)
	a.Tick(0.999)
	var sum float32
	for _, c := range a.Contributions(1, nil) {
		sum += c.Weight
	}
	if sum < 1.9 {
		t.Skipf("the direct tree's weights sum to %v: normalised, nothing to prove", sum)
	}
	pose := make([]geom.Transform, s.Len())
	p.Pose(a, p.NewScratch(), pose)
	if got := yaw(pose[1].R); math.Abs(math.Abs(got)-120) > 0.5 {
		t.Errorf("two additive 60° turns at weight 1 each turned %.2f°, want 120°", got)
	}
	if x := pose[1].T.X; math.Abs(float64(x)-1) > 2e-3 {
		t.Errorf("two additive 0.5 m moves moved %v, want 1", x)
	}
}

// A state with Write Defaults on also writes the default value (the rest
// pose) of what other clips of the controller animate and its clip does
// not; with it off, those are left to the layers below.
func TestWriteDefaultsWritesWhatOtherClipsAnimate(t *testing.T) {
	tests := []struct {
		name          string
		writeDefaults bool
		wantHipsX     float32
	}{
		{"write defaults off: the base layer's hips", false, 0.5},
		{"write defaults on: the hips' default", true, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, p, s, _ := layeredSetup(t, func(s *anim.Skeleton) *anim.Clip { return rootOnlyClip(t, s) })
			a.def.c.StateMachines[1].States[0].WriteDefaults = tc.writeDefaults
			a.Tick(0.5)
			pose := make([]geom.Transform, s.Len())
			p.Pose(a, p.NewScratch(), pose)
			if x := pose[1].T.X; math.Abs(float64(x-tc.wantHipsX)) > 1e-4 {
				t.Errorf("hips x %v, want %v", x, tc.wantHipsX)
			}
			if x := pose[0].T.X; x != 3 {
				t.Errorf("root x %v, want the clip's 3", x)
			}
		})
	}
}

// rooted roots every clip at joint j (anim.Clip.WithRoot).
func rooted(t testing.TB, j int, cs ...*anim.Clip) []*anim.Clip {
	out := make([]*anim.Clip, len(cs))
	for i, c := range cs {
		r, err := c.WithRoot(j)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = r
	}
	return out
}
