package bound

import (
	"math"
	"testing"

	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
)

// moving is a 1 s looping clip moving path along z at 1 m/s.
func moving(path string) *model.Clip {
	return &model.Clip{Name: path, SampleRate: 30, Stop: 1, Settings: model.LoopSettings{LoopTime: true}, Curves: []model.Curve{{
		Target: model.Target{Path: path, PathHash: model.PathHash(path), PathKnown: true, ClassID: model.ClassTransform,
			Attribute: uint32(model.PropPosition), Transform: model.PropPosition, Component: 2, Property: "m_LocalPosition.z"},
		Kind: model.CurveKeyframed, PreInfinity: model.InfinityClamp, PostInfinity: model.InfinityClamp,
		Keys: []model.Keyframe{{Time: 0, Value: 0, InSlope: 1, OutSlope: 1}, {Time: 1, Value: 1, InSlope: 1, OutSlope: 1}}}}}
}

// oneState is a controller playing its one clip in its one state.
func oneState() *model.Controller {
	return &model.Controller{Name: "c", Clips: []model.Ref{{PathID: 1}},
		Layers: []model.Layer{{Name: "Base", Weight: 1, SyncedLayer: -1}},
		StateMachines: []model.StateMachine{{States: []model.State{{Name: "Move", Speed: 1,
			SpeedParam: -1, MirrorParam: -1, CycleOffsetParam: -1, TimeParam: -1,
			Motions: []model.BlendTree{{Nodes: []model.BlendNode{{Clip: 0, Param: -1, ParamY: -1}}}}}}}}}
}

// An Animator takes root motion from one joint for all its clips: its
// avatar's root motion bone when it names one, else its own GameObject.
func TestControllersTakeRootMotionFromTheCharactersRootMotionJoint(t *testing.T) {
	rig := &model.Rig{Name: "r", Nodes: []model.RigNode{
		{Name: "r", Path: "", Parent: -1, Local: geom.Identity}, {Name: "b", Path: "b", Parent: 0, Local: geom.Identity}}}
	avatar := &model.Avatar{Name: "a", RootMotionBone: 1, Skeleton: model.Skeleton{Nodes: []model.SkeletonNode{
		{Parent: -1, PathHash: model.PathHash("")}, {Parent: 0, PathHash: model.PathHash("b")}}}}
	tests := []struct {
		name  string
		clip  string
		av    *model.Avatar
		want  float64
		joint int
	}{
		{"a clip moving the Animator's transform moves", "", nil, 1, 0},
		{"a clip moving a bone below does not", "b", nil, 0, 0},
		{"with the avatar's root motion bone, that bone moves", "b", avatar, 1, 1},
		{"with the avatar's root motion bone, the transform does not", "", avatar, 0, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ch, err := NewCharacter(CharacterInput{Name: "r", Rig: rig, Avatar: tc.av})
			if err != nil {
				t.Fatal(err)
			}
			if j := ch.RootMotionJoint(); j != tc.joint {
				t.Fatalf("root motion joint %d, want %d", j, tc.joint)
			}
			bc, err := NewController(ControllerInput{Controller: oneState(), Clips: []*model.Clip{moving(tc.clip)}, On: ch})
			if err != nil {
				t.Fatal(err)
			}
			a := bc.NewAnimator()
			var z float64
			for i := 0; i < 10; i++ {
				a.Tick(0.05)
				z += float64(a.RootMotion().T.Z)
			}
			if math.Abs(z-tc.want*0.5) > 1e-4 {
				t.Errorf("root moved %v m in 0.5 s, want %v", z, tc.want*0.5)
			}
		})
	}
}

// A generic clip with RootT and RootQ curves (the motion Unity baked for a
// generic avatar's root node) plays its Transform curves on the bones and
// gives RootT and RootQ's motion as root motion.
func TestGenericClipsWithRootCurvesGiveTheirMotion(t *testing.T) {
	rig := &model.Rig{Name: "r", Nodes: []model.RigNode{
		{Name: "r", Path: "", Parent: -1, Local: geom.Identity}, {Name: "b", Path: "b", Parent: 0, Local: geom.Identity}}}
	ch, err := NewCharacter(CharacterInput{Name: "r", Rig: rig})
	if err != nil {
		t.Fatal(err)
	}
	c := moving("b")
	rootT := func(k int, slope float32) model.Curve {
		attr := uint32(model.FirstRootAttribute + k)
		name, _ := model.HumanAttributeName(attr)
		return model.Curve{Target: model.Target{PathKnown: true, ClassID: model.ClassAnimator, Attribute: attr, Property: name},
			Kind: model.CurveKeyframed, PreInfinity: model.InfinityClamp, PostInfinity: model.InfinityClamp,
			Keys: []model.Keyframe{{Time: 0, Value: 0, InSlope: slope, OutSlope: slope}, {Time: 1, Value: slope, InSlope: slope, OutSlope: slope}}}
	}
	c.Curves = append(c.Curves, rootT(0, 2), rootT(6, 0)) // RootT.x at 2 m/s; RootQ.w constant 1
	c.Curves[len(c.Curves)-1].Keys[0].Value, c.Curves[len(c.Curves)-1].Keys[1].Value = 1, 1
	if c.Humanoid {
		t.Fatal("RootT and RootQ alone make a clip humanoid")
	}
	m, err := Bind(c, model.Source{}, ch)
	if err != nil {
		t.Fatal(err)
	}
	local := make([]geom.Transform, 2)
	m.Sample(0.5, local)
	if z := local[1].T.Z; math.Abs(float64(z)-0.5) > 1e-5 {
		t.Errorf("bone z %v at 0.5 s, want 0.5: the Transform curves drive the bones", z)
	}
	if d := m.ExtractRootMotion(0, 0.5, 0).T; math.Abs(float64(d.X)-1) > 1e-4 || d.Z != 0 {
		t.Errorf("root motion %v over 0.5 s, want RootT's 1 m along x", d)
	}
	bc, err := NewController(ControllerInput{Controller: oneState(), Clips: []*model.Clip{c}, On: ch})
	if err != nil {
		t.Fatal(err)
	}
	a := bc.NewAnimator()
	var x float64
	for i := 0; i < 10; i++ {
		a.Tick(0.05)
		x += float64(a.RootMotion().T.X)
	}
	if math.Abs(x-1) > 1e-3 {
		t.Errorf("the Animator moved %v m along x in 0.5 s, want 1", x)
	}
}
