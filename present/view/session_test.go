package view

import (
	"encoding/json"
	"math"
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
		rig := -1 // a character whose Animator plays it, when several do
		for i := range s.rigs {
			if s.characterController(i) == id {
				rig = i
				break
			}
		}
		se, err := s.session(id, rig)
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
		// The positions are that pose, the body held in place (what root
		// motion carries moved back rigidly): the same joints elsewhere,
		// the same distances to the hips below them.
		got, w := res.Positions, positions(se.ch.Skeleton(), want)
		if len(got) != len(w) {
			t.Fatalf("%d positions, want %d", len(got), len(w))
		}
		at := func(p []float32, j int) geom.Vec3 { return geom.V3(p[3*j], p[3*j+1], p[3*j+2]) }
		for j := range se.moves {
			if !se.moves[j] {
				if at(got, j) != at(w, j) {
					t.Fatalf("joint %d: %v, want HumanPoser's %v", j, at(got, j), at(w, j))
				}
				continue
			}
			dg, dw := at(got, j).Sub(at(got, se.held)).Len(), at(w, j).Sub(at(w, se.held)).Len()
			if math.Abs(float64(dg-dw)) > 1e-4+1e-6*float64(dw) { // float32 kilometres away
				t.Fatalf("joint %d is %v from the hips, want HumanPoser's %v", j, dg, dw)
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

// On a humanoid, what root motion carries is the body (RootT, RootQ):
// within one cycle of a clip, the held pose placed by Carried is exactly
// the pose the clip gives, and across the clip's loop it moves on without
// jumping back.
func TestHumanoidControllerCarriesTheHeldBody(t *testing.T) {
	s := openServer(t, Options{}, corpustest.Path(t, "lethal-emotes/customemotespackage"))
	se := controllerSession(t, s, "dancecontroller")
	d := se.a.Definition()
	hp, err := animator.NewHumanPoser(d, se.ch.Human())
	if err != nil {
		t.Fatal(err)
	}
	raw := make([]geom.Transform, se.ch.Skeleton().Len())
	if _, err := se.tick(&Tick{Reset: true}); err != nil {
		t.Fatal(err)
	}
	loop := d.StateIndex(0, "Loop")
	se.a.Play(0, loop, 0)
	se.haveRef = false // the body frame where Loop starts
	hips := se.held
	placed := func(r *TickResult) geom.Vec3 {
		c := geom.Transform{T: geom.V3(r.Carried.T[0], r.Carried.T[1], r.Carried.T[2]),
			R: geom.Quat{X: r.Carried.R[0], Y: r.Carried.R[1], Z: r.Carried.R[2], W: r.Carried.R[3]}, S: geom.V3(1, 1, 1)}
		return c.Point(geom.V3(r.Positions[3*hips], r.Positions[3*hips+1], r.Positions[3*hips+2]))
	}
	moved, inside, travel := 0.0, 0.0, 0.0
	var prev geom.Vec3
	for step := 0; step < 80; step++ {
		r, err := se.tick(&Tick{DT: 0.05})
		if err != nil {
			t.Fatal(err)
		}
		got := placed(r)
		first := se.a.Layer(0).NormalizedTime < 1 && se.a.Layer(0).State == loop
		if step > 0 {
			if first {
				inside = math.Max(inside, float64(got.Sub(prev).Len()))
			} else {
				travel = math.Max(travel, float64(got.Sub(prev).Len()))
			}
		}
		prev = got
		if !first {
			continue // past the first cycle: only continuity is asked
		}
		hp.Apply(se.a, hp.NewScratch(), raw)
		world := make([]geom.Transform, len(raw))
		anim.LocalToModel(se.ch.Skeleton(), raw, world)
		want := world[hips].T
		if e := got.Sub(want).Len(); e > 1e-4 {
			t.Fatalf("at %.2f s the carried hips are at %v, the clip puts them at %v", r.Time, got, want)
		}
		moved = math.Max(moved, float64(want.Sub(world[0].T).Len()))
	}
	if se.root.T.Len() < 1e-3 && moved < 1e-3 {
		t.Fatalf("Loop neither moves the body nor carries it: the test proves nothing")
	}
	if travel > 2*inside+0.01 {
		t.Errorf("after the first cycle the carried hips jumped %.3f m in one 50 ms tick; within it, %.3f m at most", travel, inside)
	}
	t.Logf("root motion after 4 s: %v; the largest step of the carried hips: %.3f m in the first cycle, %.3f m after", se.root.T, inside, travel)
}
