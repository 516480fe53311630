package view

import (
	"encoding/json"
	"testing"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/animator"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/internal/corpustest"
)

// controllerSession starts the session of the controller named name.
func controllerSession(t *testing.T, s *Server, name string) *session {
	t.Helper()
	for id, it := range s.ctls {
		if it.Name != name {
			continue
		}
		se, err := s.session(id)
		if err != nil {
			t.Fatal(err)
		}
		if se.poser == nil {
			t.Fatalf("%s plays on no character: %q", name, se.notes)
		}
		return se
	}
	t.Fatalf("no controller %q", name)
	return nil
}

// positions is what a tick answers for the local pose local.
func positions(skel *anim.Skeleton, local []geom.Transform) []float32 {
	world := make([]geom.Transform, len(local))
	anim.LocalToModel(skel, local, world)
	p, _ := appendPositions(nil, world, 0)
	return p
}

func samePose(t *testing.T, what string, got, want []geom.Transform) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d joints, want %d", what, len(got), len(want))
	}
	for j := range got {
		if got[j] != want[j] {
			t.Fatalf("%s: joint %d is %v, want %v", what, j, got[j], want[j])
		}
	}
}

// A humanoid controller's session blends in muscle space: during a
// cross-fade of dancecontroller's emotes on their avatar, a tick answers
// exactly animator.HumanPoser's pose of the same Animator, which is not
// what blending the bones' local rotations gives. Posing allocates
// nothing.
func TestHumanoidControllerSessionBlendsMuscles(t *testing.T) {
	s := openServer(t, Options{}, corpustest.Path(t, "lethal-emotes/customemotespackage"))
	se := controllerSession(t, s, "dancecontroller")
	hr := se.ch.Human()
	if !se.poser.Humanoid() || hr == nil {
		t.Fatalf("dancecontroller poses through Poser (human rig %v); notes %q", hr != nil, se.notes)
	}
	for _, m := range se.bc.Clips() {
		if m != nil && !m.Humanoid() {
			t.Fatalf("clip %q is generic", m.Clip().Name)
		}
	}
	d := se.a.Definition()
	hp, err := animator.NewHumanPoser(d, hr)
	if err != nil {
		t.Fatal(err)
	}
	lp, err := animator.NewPoser(d, hr.Skeleton())
	if err != nil {
		t.Fatal(err)
	}
	want, bones := make([]geom.Transform, hr.Len()), make([]geom.Transform, hr.Len())

	if _, err := se.tick(&Tick{Reset: true}); err != nil {
		t.Fatal(err)
	}
	se.a.Play(0, d.StateIndex(0, "Loop"), 0)
	if _, err := se.tick(&Tick{DT: 0.4}); err != nil {
		t.Fatal(err)
	}
	se.a.CrossFade(0, d.StateIndex(0, "Poop"), 1, 0)
	for step := 0; step < 3; step++ {
		res, err := se.tick(&Tick{DT: 0.1, Mesh: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(se.a.Contributions(0, nil)) != 2 {
			t.Fatalf("step %d: not cross-fading: %+v", step, se.a.Contributions(0, nil))
		}
		hp.Apply(se.a, hp.NewScratch(), want)
		samePose(t, "session pose", se.local, want)
		if got, w := res.Positions, positions(se.ch.Skeleton(), want); len(got) != len(w) {
			t.Fatalf("%d positions, want %d", len(got), len(w))
		} else {
			for i := range got {
				if got[i] != w[i] {
					t.Fatalf("position value %d: %v, want HumanPoser's %v", i, got[i], w[i])
				}
			}
		}
		lp.Pose(se.a, lp.NewScratch(), bones)
		differ := false
		for j := range bones {
			differ = differ || bones[j] != want[j]
		}
		if !differ {
			t.Fatalf("step %d: blending bones gives the muscle blend: the test proves nothing", step)
		}
	}
	if n := testing.AllocsPerRun(20, func() { se.poser.Pose(se.a, se.local) }); n != 0 {
		t.Errorf("%v allocs per pose", n)
	}
}

// A controller on a generic rig poses through animator.Poser exactly as
// before: the example enemy's walk answers Poser's pose of the same
// Animator.
func TestGenericControllerSessionBlendsBones(t *testing.T) {
	s := openServer(t, Options{}, corpustest.Path(t, "lc-example-enemy/modassets"))
	se := controllerSession(t, s, s.Scene().Controllers[0].Name)
	if se.poser.Humanoid() || se.ch.Human() != nil {
		t.Fatalf("generic controller poses in muscle space (human rig %v)", se.ch.Human() != nil)
	}
	skel := se.ch.Skeleton()
	p, err := animator.NewPoser(se.a.Definition(), skel)
	if err != nil {
		t.Fatal(err)
	}
	want := make([]geom.Transform, skel.Len())
	if _, err := se.tick(&Tick{Reset: true}); err != nil {
		t.Fatal(err)
	}
	for step, tk := range []Tick{{DT: 0.05, Set: map[string]json.RawMessage{"startWalk": json.RawMessage("true")}}, {DT: 0.3}, {DT: 0.3}} {
		res, err := se.tick(&tk)
		if err != nil {
			t.Fatal(err)
		}
		p.Pose(se.a, p.NewScratch(), want)
		samePose(t, "session pose", se.local, want)
		w := positions(skel, want)
		for i := range w {
			if res.Positions[i] != w[i] {
				t.Fatalf("step %d: position value %d: %v, want Poser's %v", step, i, res.Positions[i], w[i])
			}
		}
	}
	if n := testing.AllocsPerRun(20, func() { se.poser.Pose(se.a, se.local) }); n != 0 {
		t.Errorf("%v allocs per pose", n)
	}
}
