package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/animator"
	"github.com/mecanim/mecanim/decode/catalog"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/assets"
)

// TestPlayAnimatorTakesRootMotionFromOneJoint: ExampleEnemyModel's avatar
// names no root motion bone and none of its clips animates the Animator's
// own transform, so it has no root motion (each clip used to pick its own
// root joint: b.body, Bone... and report their wobble as motion).
func TestPlayAnimatorTakesRootMotionFromOneJoint(t *testing.T) {
	bundle := corpustest.Path(t, "lc-example-enemy/modassets")
	script := filepath.Join(t.TempDir(), "s.json")
	os.WriteFile(script, []byte(`{"duration": 3, "events": [{"at": 0.5, "trigger": "startWalk"}, {"at": 2.5, "trigger": "KillEnemy"}]}`), 0o644)
	out, stderr, code := runCLI("play", bundle, "--animator", "ExampleEnemyModel", "--script", script, "--rate", "10", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 30 {
		t.Fatalf("%d ticks, want 30", len(lines))
	}
	for i, line := range lines {
		var rec struct {
			RootMotion struct {
				T [3]float64
				R [4]float64
			} `json:"root_motion"`
		}
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatal(err)
		}
		if rec.RootMotion.T != [3]float64{} || rec.RootMotion.R != [4]float64{0, 0, 0, 1} {
			t.Errorf("tick %d: root motion %+v, want none", i+1, rec.RootMotion)
		}
	}
}

// rootRig is an Animator's transform "" with a bone "b" below it.
func rootRig(t *testing.T) *anim.Skeleton {
	s, err := anim.NewSkeleton([]string{"", "b"}, []int{-1, 0}, []geom.Transform{geom.Identity, geom.Identity})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// moving is a 1 s looping clip moving path along z at 1 m/s.
func moving(path string) *model.Clip {
	return &model.Clip{Name: path, SampleRate: 30, Stop: 1, Settings: model.LoopSettings{LoopTime: true}, Curves: []model.Curve{{
		Target: model.Target{Path: path, PathHash: model.PathHash(path), PathKnown: true, ClassID: model.ClassTransform,
			Attribute: uint32(model.PropPosition), Transform: model.PropPosition, Component: 2, Property: "m_LocalPosition.z"},
		Kind: model.CurveKeyframed, PreInfinity: model.InfinityClamp, PostInfinity: model.InfinityClamp,
		Keys: []model.Keyframe{{Time: 0, Value: 0, InSlope: 1, OutSlope: 1}, {Time: 1, Value: 1, InSlope: 1, OutSlope: 1}}}}}
}

func TestBakeRootedTakesRootMotionFromTheRootMotionJoint(t *testing.T) {
	s := rootRig(t)
	b, _ := s.Index("b")
	avatar := &model.Avatar{RootMotionBone: 1, Skeleton: model.Skeleton{Nodes: []model.SkeletonNode{
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
		{"with the avatar's root motion bone, that bone moves", "b", avatar, 1, b},
		{"with the avatar's root motion bone, the transform does not", "", avatar, 0, b},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			clips := []*model.Clip{moving(tc.clip)}
			j := rootMotionJoint(tc.av, s)
			if j != tc.joint {
				t.Fatalf("root motion joint %d, want %d", j, tc.joint)
			}
			ctl := &model.Controller{Name: "c", Clips: []model.Ref{{PathID: 1}},
				Layers: []model.Layer{{Name: "Base", Weight: 1, SyncedLayer: -1}},
				StateMachines: []model.StateMachine{{States: []model.State{{Name: "Move", Speed: 1,
					SpeedParam: -1, MirrorParam: -1, CycleOffsetParam: -1, TimeParam: -1,
					Motions: []model.BlendTree{{Nodes: []model.BlendNode{{Clip: 0, Param: -1, ParamY: -1}}}}}}}}}
			a, err := animator.New(ctl, mixedClips{bakeRooted(clips, s, j), nil, animator.TableFromModel(clips)})
			if err != nil {
				t.Fatal(err)
			}
			var z float64
			for i := 0; i < 10; i++ {
				a.Tick(0.05)
				d, _ := a.RootMotion()
				z += float64(d.Z)
			}
			if math.Abs(z-tc.want*0.5) > 1e-4 {
				t.Errorf("root moved %v m in 0.5 s, want %v", z, tc.want*0.5)
			}
		})
	}
}

// On a humanoid avatar the humanoid clips give their body's motion (they
// gave none before: only generic clips were baked). dancecontroller's
// emotes on the commando's avatar: those with RootT/RootQ curves move.
func TestPlayHumanoidClipsGiveBodyMotion(t *testing.T) {
	cat, errs := catalog.Open([]string{corpustest.Path(t, "lethal-emotes/customemotespackage")}, assets.Options{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	defer cat.Close()
	var av *model.Avatar
	var err error
	rigs, _ := cat.Rigs()
	for _, r := range rigs {
		if r.Name != "commando" {
			continue
		}
		o, ok := cat.RigAvatar(r)
		if !ok {
			t.Fatal("commando has no avatar")
		}
		if av, err = cat.Avatar(o); err != nil {
			t.Fatal(err)
		}
	}
	if av == nil || av.Human == nil {
		t.Fatal("no humanoid avatar for commando")
	}
	co, err := cat.One(model.ClassAnimatorController, "AnimatorController", "dancecontroller")
	if err != nil {
		t.Fatal(err)
	}
	ctl, err := cat.Controller(co)
	if err != nil {
		t.Fatal(err)
	}
	clips, _ := cat.ControllerClips(co, ctl)
	human, err := bakeHumanoid(clips, av)
	if err != nil {
		t.Fatal(err)
	}
	m := mixedClips{make(animator.AnimClips, len(clips)), human, animator.TableFromModel(clips)}
	moving := 0
	for i, c := range clips {
		if c == nil || !c.Humanoid {
			continue
		}
		src := m.ClipRootSource(i)
		if !src.Moves {
			continue
		}
		moving++
		if !src.Body {
			t.Errorf("clip %q: %+v, want body motion", c.Name, src)
		}
		d, _ := m.ClipRootMotion(i, 0, c.Stop-c.Start, 0)
		if d == (geom.Vec3{}) {
			t.Errorf("clip %q moves its body but gives no motion over its length", c.Name)
		}
	}
	if moving == 0 {
		t.Error("no dance clip moves its body")
	}
}
