package main

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/bind"
	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/boundfile"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/internal/synth"
	"github.com/mecanim/mecanim/model"
)

// synthHumanoid is a humanoid character built in code (the synthetic
// avatar) with a controller a game would author: Idle, Run and Attack on a
// Speed float and an Attack trigger, every clip moving a dozen muscles and
// Run moving the body forward, plus an upper-body layer waving on a bool.
func synthHumanoid(t testing.TB) *bound.Controller {
	t.Helper()
	ch, err := bound.NewCharacter(bound.CharacterInput{Name: "synth", Avatar: synth.HumanAvatar()})
	if err != nil {
		t.Fatal(err)
	}
	attr := func(a int) model.Target { return model.Target{ClassID: model.ClassAnimator, Attribute: uint32(a)} }
	line := func(tg model.Target, length, a, b float32) model.Curve {
		s := (b - a) / length
		return model.Curve{Target: tg, Kind: model.CurveKeyframed, PreInfinity: model.InfinityClamp, PostInfinity: model.InfinityClamp,
			Keys: []model.Keyframe{{Time: 0, Value: a, OutSlope: s}, {Time: length / 2, Value: b}, {Time: length, Value: a, InSlope: -s}}}
	}
	clip := func(name string, length float32, loop bool, travel float32, k int) *model.Clip {
		c := &model.Clip{Name: name, Humanoid: true, SampleRate: 30, Stop: length, Settings: model.LoopSettings{LoopTime: loop},
			Events: []model.Event{{Time: length / 2, Function: name}}}
		for m := 0; m < model.MuscleCount; m += 3 {
			c.Curves = append(c.Curves, line(attr(model.FirstMuscleAttribute+m), length, -0.2, 0.1*float32(k+1)))
		}
		c.Curves = append(c.Curves, line(attr(model.FirstRootAttribute+2), length, 0, travel),
			model.Curve{Target: attr(model.FirstRootAttribute + 1), Kind: model.CurveConstant, Value: 1},
			model.Curve{Target: attr(model.FirstRootAttribute + 6), Kind: model.CurveConstant, Value: 1})
		return c
	}
	clips := []*model.Clip{clip("Idle", 2, true, 0, 0), clip("Run", 0.8, true, 2, 1), clip("Attack", 1.2, false, 0.3, 2), clip("Wave", 1, true, 0, 3)}
	state := func(name string, clip int, ts ...model.Transition) model.State {
		return model.State{Name: name, NameHash: model.PathHash(name), Speed: 1, SpeedParam: -1, MirrorParam: -1,
			CycleOffsetParam: -1, TimeParam: -1, WriteDefaults: true, Transitions: ts,
			Motions: []model.BlendTree{{Nodes: []model.BlendNode{{Clip: clip, Param: -1, ParamY: -1}}}}}
	}
	to := func(dst int, d float32, cs ...model.Condition) model.Transition {
		return model.Transition{Destination: uint32(dst), Duration: d, HasFixedDuration: true, Conditions: cs,
			Interruption: model.InterruptSourceThenDestination}
	}
	const speed, attack, wave = 0, 1, 2
	exit := to(0, 0.2)
	exit.HasExitTime, exit.ExitTime = true, 0.9
	ctl := &model.Controller{Name: "Fighter",
		Parameters: []model.Parameter{{Name: "Speed", Type: model.ParamFloat}, {Name: "Attack", Type: model.ParamTrigger}, {Name: "Wave", Type: model.ParamBool}},
		Layers: []model.Layer{{Name: "Base", Weight: 1, SyncedLayer: -1},
			{Name: "Arms", Weight: 1, SyncedLayer: -1, StateMachine: 1}},
		StateMachines: []model.StateMachine{
			{States: []model.State{
				state("Idle", 0, to(1, 0.25, model.Condition{Mode: model.CondGreater, Param: speed, Threshold: 0.5}),
					to(2, 0.1, model.Condition{Mode: model.CondIf, Param: attack})),
				state("Run", 1, to(0, 0.25, model.Condition{Mode: model.CondLess, Param: speed, Threshold: 0.5}),
					to(2, 0.1, model.Condition{Mode: model.CondIf, Param: attack})),
				state("Attack", 2, exit),
			}},
			{States: []model.State{
				state("Still", -1, to(1, 0.3, model.Condition{Mode: model.CondIf, Param: wave})),
				state("Wave", 3, to(0, 0.3, model.Condition{Mode: model.CondIfNot, Param: wave})),
			}},
		},
		Clips: []model.Ref{{PathID: 1}, {PathID: 2}, {PathID: 3}, {PathID: 4}},
	}
	c, err := bound.NewController(bound.ControllerInput{Controller: ctl, Clips: clips, On: ch})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Notes()) > 0 {
		t.Fatal(c.Notes())
	}
	return c
}

// corpusController binds a corpus character's controller (skipping without
// the corpus).
func corpusController(t testing.TB, file, character string) *bound.Controller {
	set, err := bind.Open(t.Context(), []string{corpustest.Path(t, file)}, bind.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	ci, err := set.FindCharacter(character)
	if err != nil {
		t.Fatal(err)
	}
	ch, err := set.Character(t.Context(), ci)
	if err != nil {
		t.Fatal(err)
	}
	k, ok := set.CharacterController(ci)
	if !ok {
		t.Fatalf("%s plays no controller of the inputs", character)
	}
	c, err := set.BindController(t.Context(), k, ch)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func newWorld(t testing.TB, ctl *bound.Controller, n, workers int) *World {
	w, err := NewWorld(ctl, n, workers)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Close)
	return w
}

// hitEveryJoint puts a hitbox on every joint of w's characters, so that
// each tick poses the whole skeleton (what a server reading a few bones
// skips).
func hitEveryJoint(t testing.TB, w *World) {
	w.hit = w.hit[:0]
	for j := 0; j < w.sk.Len(); j++ {
		w.hit = append(w.hit, j)
	}
	for _, s := range w.scratch {
		p, err := w.ctl.NewPoseWorker()
		if err != nil {
			t.Fatal(err)
		}
		s.poser = p
	}
	for i := range w.chars {
		w.chars[i].hit = make([]geom.Vec3, len(w.hit))
	}
}

func sameHitboxes(a, b []geom.Vec3) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return len(a) == len(b)
}

// The world gives the same hitboxes, and the same snapshot, on one worker
// and on three; a rewind gives a past tick's hitboxes as they were then; a
// world restored from a snapshot goes on as the original; a tick allocates
// nothing.
func TestWorld(t *testing.T) {
	ctl := synthHumanoid(t)
	const n = 50
	one, three := newWorld(t, ctl, n, 1), newWorld(t, ctl, n, 3)
	past := map[uint64][][]geom.Vec3{}
	for tick := 0; tick < 240; tick++ {
		one.Tick()
		three.Tick()
		var now [][]geom.Vec3
		for i := 0; i < n; i++ {
			if !sameHitboxes(one.Hitboxes(i), three.Hitboxes(i)) {
				t.Fatalf("tick %d: character %d's hitboxes differ on three workers", tick, i)
			}
			now = append(now, append([]geom.Vec3(nil), one.Hitboxes(i)...))
		}
		past[one.Now()] = now
	}
	moved := 0
	for i := 0; i < n; i++ {
		if one.Hitboxes(i)[0] != past[1][i][0] {
			moved++
		}
	}
	if moved < n/2 {
		t.Errorf("only %d of %d characters moved in 4 s", moved, n)
	}
	hit := make([]geom.Vec3, len(one.Hitboxes(0)))
	for _, back := range []uint64{0, 1, 6, history - 1} {
		tick := one.Now() - back
		for i := 0; i < n; i += 7 {
			if err := one.Rewind(i, tick, hit); err != nil {
				t.Fatal(err)
			}
			if !sameHitboxes(hit, past[tick][i]) {
				t.Fatalf("character %d rewound to tick %d is not where it was", i, tick)
			}
		}
	}
	if err := one.Rewind(0, one.Now()-history, hit); err == nil {
		t.Error("a rewind past the history succeeded")
	}

	snap, err := one.Snapshot(nil)
	if err != nil {
		t.Fatal(err)
	}
	if s3, err := three.Snapshot(nil); err != nil || string(s3) != string(snap) {
		t.Fatalf("the snapshot encoded on three workers differs from one worker's (%v)", err)
	}
	other := newWorld(t, ctl, n, 2)
	other.Tick()
	if err := other.Restore(snap); err != nil {
		t.Fatal(err)
	}
	for tick := 0; tick < 120; tick++ {
		one.Tick()
		other.Tick()
	}
	a, _ := one.Snapshot(nil)
	b, _ := other.Snapshot(nil)
	if string(a) != string(b) {
		t.Error("a world restored from a snapshot went another way")
	}
	if allocs := testing.AllocsPerRun(20, one.Tick); allocs != 0 {
		t.Errorf("a tick of %d characters allocates %v times", n, allocs)
	}
}

// The example runs end to end: a saved file loaded and played.
func TestRunLoadsASavedFileAndPlays(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fighter.bound")
	if err := saveSynth(t, path); err != nil {
		t.Fatal(err)
	}
	if err := run(t.Context(), path, "", "", "", 20, 2, 0.5); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkWorldTick is a server tick of 1,000 and 10,000 characters
// (state machines, poses, model space, hitboxes, history) on every core:
// per character the process CPU time a tick costs (cpu-µs/char), how many
// characters that CPU fits into one 60 Hz tick on the machine's cores
// (chars/tick), and the tick's wall time as a share of the 16.7 ms a 60 Hz
// tick has (%-of-tick; wall time, so it counts waits for a core on a
// shared machine).
func BenchmarkWorldTick(b *testing.B) {
	worlds := []struct {
		name string
		ctl  func(testing.TB) *bound.Controller
	}{
		{"synth-humanoid", synthHumanoid},
		{"dancer-humanoid", func(t testing.TB) *bound.Controller {
			return corpusController(t, "lethal-emotes/customemotespackage", "bandit")
		}},
		{"enemy-generic-3-layers", func(t testing.TB) *bound.Controller {
			return corpusController(t, "lc-example-enemy/modassets", "ExampleEnemyModel")
		}},
	}
	for _, wc := range worlds {
		for _, n := range []int{1000, 10000} {
			b.Run(fmt.Sprintf("%s/%d", wc.name, n), func(b *testing.B) {
				w := newWorld(b, wc.ctl(b), n, 0)
				for i := 0; i < warmTicks; i++ {
					w.Tick()
				}
				b.ReportAllocs()
				cpu := processCPU()
				start := time.Now()
				for b.Loop() {
					w.Tick()
				}
				wall := time.Since(start)
				b.ReportMetric(100*wall.Seconds()/float64(b.N)*Rate, "%-of-tick")
				if cpu > 0 {
					per := float64(processCPU()-cpu) / float64(b.N) / float64(n) // ns of CPU per character tick
					b.ReportMetric(per/1000, "cpu-µs/char")
					b.ReportMetric(float64(w.workers.Len())*1e9/Rate/per, "chars/tick")
				}
			})
		}
	}
}

// warmTicks is how long the benchmarks run a world before measuring it:
// 10 s of game time, by when its characters' random inputs have spread
// them over their states and layers (the first seconds, most still where
// they spawned, cost less).
const warmTicks = 10 * Rate

func saveSynth(t testing.TB, path string) error {
	return boundfile.WriteFile(path, boundfile.Assets{Controllers: []*bound.Controller{synthHumanoid(t)}})
}

// BenchmarkCharacterTickStages splits a character's tick on one core,
// stage by stage, each adding to the ones before: the state machine (Tick),
// the pose (muscles to bones for a humanoid), model space and hitboxes, and
// the history record. cpu-µs/char is the process CPU time per character.
func BenchmarkCharacterTickStages(b *testing.B) {
	kinds := []struct {
		name  string
		ctl   func(testing.TB) *bound.Controller
		every bool // a hitbox on every joint: the whole skeleton posed
	}{
		{"synth-humanoid", synthHumanoid, false},
		{"dancer-humanoid", func(t testing.TB) *bound.Controller {
			return corpusController(t, "lethal-emotes/customemotespackage", "bandit")
		}, false},
		{"dancer-humanoid-every-joint", func(t testing.TB) *bound.Controller {
			return corpusController(t, "lethal-emotes/customemotespackage", "bandit")
		}, true},
		{"enemy-generic-3-layers", func(t testing.TB) *bound.Controller {
			return corpusController(t, "lc-example-enemy/modassets", "ExampleEnemyModel")
		}, false},
	}
	const n = 500
	for _, k := range kinds {
		for stage, name := range []string{"1-tick", "2-pose", "3-model-hitboxes", "4-record"} {
			b.Run(k.name+"/"+name, func(b *testing.B) {
				w := newWorld(b, k.ctl(b), n, 1)
				if k.every {
					hitEveryJoint(b, w)
				}
				for i := 0; i < warmTicks; i++ {
					w.Tick()
				}
				s := w.scratch[0]
				tick := w.tick
				cpu := processCPU()
				for b.Loop() {
					tick++
					for i := range w.chars {
						c := &w.chars[i]
						w.input(c)
						c.a.Tick(1.0 / Rate)
						if stage >= 1 {
							s.poser.Pose(c.a, s.local)
						}
						if stage >= 2 {
							anim.LocalToModelJoints(s.poser.Joints(), s.local, s.model)
							for h, j := range w.hit {
								c.hit[h] = c.at.Point(s.model[j].T)
							}
						}
						if stage >= 3 {
							c.hist.Record(c.a, tick)
						}
					}
				}
				if cpu > 0 {
					b.ReportMetric(float64(processCPU()-cpu)/float64(b.N)/n/1000, "cpu-µs/char")
				}
			})
		}
	}
}
