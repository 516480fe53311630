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
	clips := AnimClips{moveClip(t, s, "move", 1, 1, 0, true), moveClip(t, s, "still", 1, 0, 0, true), moveClip(t, s, "add", 1, 1, 0, true)}
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
	pc := make([]PoseClip, len(clips))
	for i, c := range clips {
		pc[i] = c
	}
	p, err := NewPoser(d, s, pc)
	if err != nil {
		t.Fatal(err)
	}
	return NewAnimator(d), p, s
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
			a, p, s := poseSetup(t, tc.mask)
			a.SetLayerWeight(1, tc.over)
			a.SetLayerWeight(2, tc.add)
			a.Tick(0.5)
			pose := make([]geom.Transform, s.Len())
			p.Pose(a, p.NewScratch(), pose)
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
	clips := a.def.clips.(AnimClips)
	if clips[0].RootJoint() < 0 {
		t.Fatal("the test clip has no root joint")
	}
	var x float32
	a.SetLayerWeight(1, 0.5) // an override layer standing still halves it
	a.Tick(0.25)
	if d, _ := a.RootMotion(); math.Abs(float64(d.X)-0.125) > 1e-3 {
		t.Errorf("root moved %v in 0.25 s under a still override at 0.5", d.X)
	}
	a.SetLayerWeight(1, 0)
	for i := 0; i < 30; i++ {
		a.Tick(1.0 / 60)
		d, _ := a.RootMotion()
		x += d.X
	}
	if math.Abs(float64(x)-0.5) > 1e-3 { // 0.25→0.75 s, no wrap
		t.Errorf("root moved %v in 0.5 s at 1 m/s", x)
	}
}
