package animator_test

import (
	"fmt"
	"log"
	"testing"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/animator"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
)

// skeleton is a three-joint character: the animated GameObject, its hips
// and a right hand.
func skeleton() *anim.Skeleton {
	at := func(x, y, z float32) geom.Transform {
		return geom.Transform{T: geom.V3(x, y, z), R: geom.IdentityQuat, S: geom.V3(1, 1, 1)}
	}
	sk, err := anim.NewSkeleton([]string{"", "Hips", "Hips/RightHand"}, []int{-1, 0, 1},
		[]geom.Transform{at(0, 0, 0), at(0, 1, 0), at(0.5, 0.4, 0)})
	if err != nil {
		log.Fatal(err)
	}
	return sk
}

// clip builds and bakes a clip of the given length whose hips move from z=0
// to z=travel (the root motion) and whose hand rises by lift, with events.
func clip(sk *anim.Skeleton, name string, length, travel, lift float32, loop bool, events ...model.Event) *anim.Clip {
	target := func(path string, comp int) model.Target {
		return model.Target{Path: path, PathHash: model.PathHash(path), PathKnown: true, ClassID: model.ClassTransform,
			Attribute: uint32(model.PropPosition), Transform: model.PropPosition, Component: comp}
	}
	line := func(t model.Target, from, to float32) model.Curve {
		s := (to - from) / length
		return model.Curve{Target: t, Kind: model.CurveKeyframed, PreInfinity: model.InfinityClamp, PostInfinity: model.InfinityClamp,
			Keys: []model.Keyframe{{Time: 0, Value: from, OutSlope: s}, {Time: length, Value: to, InSlope: s}}}
	}
	mc := &model.Clip{Name: name, SampleRate: 30, Stop: length, Settings: model.LoopSettings{LoopTime: loop},
		Curves: []model.Curve{
			{Target: target("Hips", 1), Kind: model.CurveConstant, Value: 1},
			line(target("Hips", 2), 0, travel),
			line(target("Hips/RightHand", 1), 0.4, 0.4+lift),
		},
		Events: events}
	c, err := anim.Bake(mc, sk)
	if err != nil {
		log.Fatal(err)
	}
	return c
}

// locomotion builds in code the controller a Unity project would author:
// a float parameter Speed and two states, Idle and Run, with Idle → Run
// when Speed > 0.1 and Run → Idle when Speed < 0.1, each a 0.25 s blend.
func locomotion() *model.Controller {
	state := func(name string, clip int, next int, mode model.ConditionMode) model.State {
		return model.State{Name: name, NameHash: model.PathHash(name), Speed: 1,
			SpeedParam: -1, MirrorParam: -1, CycleOffsetParam: -1, TimeParam: -1,
			Motions: []model.BlendTree{{Nodes: []model.BlendNode{{Clip: clip, Param: -1, ParamY: -1}}}},
			Transitions: []model.Transition{{
				Destination: uint32(next), Duration: 0.25, HasFixedDuration: true,
				Conditions: []model.Condition{{Mode: mode, Param: 0, Threshold: 0.1}},
			}}}
	}
	return &model.Controller{
		Name:       "Locomotion",
		Parameters: []model.Parameter{{Name: "Speed", Hash: model.PathHash("Speed"), Type: model.ParamFloat}},
		Layers:     []model.Layer{{Name: "Base Layer", Weight: 1, SyncedLayer: -1}},
		StateMachines: []model.StateMachine{{States: []model.State{
			state("Idle", 0, 1, model.CondGreater),
			state("Run", 1, 0, model.CondLess),
		}}},
		Clips:     []model.Ref{{PathID: 1}, {PathID: 2}}, // what the states' leaves index
		ClipNames: []string{"Idle", "Run"},
	}
}

// An Animator plays a controller: set parameters, tick, read the state,
// the events crossed and the root motion of the tick.
func ExampleNew() {
	sk := skeleton()
	clips := []animator.Clip{ // parallel to the controller's Clips
		animator.GenericClip(clip(sk, "Idle", 2, 0, 0.05, true)),
		animator.GenericClip(clip(sk, "Run", 0.5, 2, 0, true, model.Event{Time: 0.25, Function: "Footstep"})),
	}
	a, err := animator.New(locomotion(), clips)
	if err != nil {
		log.Fatal(err)
	}
	speed := a.Param("Speed")
	show := func(tick int) {
		l := a.Layer(0)
		fmt.Printf("tick %2d: %-4s %.2f", tick, a.StateName(0, l.State), l.NormalizedTime)
		if l.InTransition {
			fmt.Printf(" -> %s %.0f%%", a.StateName(0, l.Next), 100*l.Transition)
		}
		for _, e := range a.Events() {
			fmt.Printf(" event %s", e.Event.Function)
		}
		t := a.RootMotion().T
		fmt.Printf(" moved %.3f\n", t.Z)
	}
	const dt = 1.0 / 60
	for tick := 1; tick <= 40; tick++ {
		if tick == 10 {
			a.SetFloat(speed, 1) // or a.Set("Speed", 1.0) from a script
		}
		a.Tick(dt)
		if tick%5 == 0 || len(a.Events()) > 0 {
			show(tick)
		}
	}
	// Output:
	// tick  5: Idle 0.04 moved 0.000
	// tick 10: Idle 0.08 -> Run 0% moved 0.000
	// tick 15: Idle 0.12 -> Run 33% moved 0.018
	// tick 20: Idle 0.17 -> Run 67% moved 0.040
	// tick 25: Run  0.50 event Footstep moved 0.062
	// tick 30: Run  0.67 moved 0.067
	// tick 35: Run  0.83 moved 0.067
	// tick 40: Run  1.00 moved 0.067
}

// A Driver ticks many animators at a fixed step, whatever the frame times
// it is fed, so every run of the same inputs gives the same states. The
// controller is compiled once into a Definition that every instance
// shares; each Animator holds only its own small state.
func ExampleDriver() {
	sk := skeleton()
	clips := []animator.Clip{animator.GenericClip(clip(sk, "Idle", 2, 0, 0.05, true)), animator.GenericClip(clip(sk, "Run", 0.5, 2, 0, true))}
	def, err := animator.Compile(locomotion(), clips)
	if err != nil {
		log.Fatal(err)
	}
	d := animator.NewDriver(60)
	speed := def.Param("Speed")
	for i := 0; i < 1000; i++ {
		a := animator.NewAnimator(def)
		if i%4 == 0 {
			a.SetFloat(speed, 2) // every fourth character runs
		}
		d.Animators = append(d.Animators, a)
	}

	// The server's fixed 60 Hz loop: one step per server tick, one second.
	// (A loop with variable frame times calls d.Tick(frameSeconds) instead,
	// which runs as many whole steps as have accumulated.)
	for tick := 0; tick < 60; tick++ {
		d.StepOnce()
	}
	running := 0
	for _, a := range d.Animators {
		if a.StateName(0, a.Layer(0).State) == "Run" {
			running++
		}
	}
	fmt.Printf("%d steps: %d running, %d idle\n", d.Steps(), running, len(d.Animators)-running)
	a0, a4 := d.Animators[0].Layer(0), d.Animators[4].Layer(0)
	fmt.Println("same inputs, same state:", a0 == a4)

	// Posing: one Poser per definition and skeleton, shared; one scratch
	// per goroutine; one pose buffer per character (or reused per call).
	poser, err := animator.NewPoser(def, sk)
	if err != nil {
		log.Fatal(err)
	}
	scratch := poser.NewScratch()
	local := make([]geom.Transform, sk.Len())
	poser.Pose(d.Animators[0], scratch, local)
	fmt.Printf("runner's hips at z %.3f\n", local[1].T.Z)

	fmt.Println("allocations per 1,000-animator step:", testing.AllocsPerRun(10, d.StepOnce))
	fmt.Println("allocations per pose:", testing.AllocsPerRun(10, func() { poser.Pose(d.Animators[0], scratch, local) }))
	// Output:
	// 60 steps: 250 running, 750 idle
	// same inputs, same state: true
	// runner's hips at z 1.933
	// allocations per 1,000-animator step: 0
	// allocations per pose: 0
}

// A Player plays clips directly, as game code does without a controller:
// Play cross-fades to a clip, Tick advances, Pose blends. SpeedForTicks
// makes an attack last exactly the ticks the game design gives it.
func ExamplePlayer() {
	sk := skeleton()
	const rate = 60 // ticks per second
	idle := &animator.PlayerClip{Clip: clip(sk, "Idle", 2, 0, 0.05, true)}
	attack := clip(sk, "Attack", 0.5, 0, 0.6, false, model.Event{Time: 0.25, Function: "Hit"})
	ticksAt1x := int(attack.Duration()*rate + 0.5) // 30
	swing := &animator.PlayerClip{Clip: attack, Speed: animator.SpeedForTicks(ticksAt1x, 20)}
	fmt.Printf("attack: %d ticks at 1x, speed %.2f to last 20\n", ticksAt1x, swing.Speed)

	p := animator.NewPlayer(sk)
	pose := make([]geom.Transform, sk.Len())
	p.Play(idle, 0)
	for tick := 1; tick <= 30; tick++ {
		if tick == 5 {
			p.Play(swing, 0.1) // a 0.1 s cross-fade
		}
		p.Tick(1.0 / rate)
		for _, e := range p.Events() {
			fmt.Printf("tick %2d: event %s\n", tick, e.Event.Function)
		}
		if tick == 5 || tick == 10 || tick == 24 || tick == 30 {
			p.Pose(pose)
			fmt.Printf("tick %2d:", tick)
			for _, s := range p.States() {
				fmt.Printf(" %s t=%.3f w=%.2f", s.Clip.Clip.Name(), s.Time, s.Weight)
			}
			fmt.Printf("; hand y %.3f\n", pose[2].T.Y)
		}
	}
	// Output:
	// attack: 30 ticks at 1x, speed 1.50 to last 20
	// tick  5: Idle t=0.083 w=0.83 Attack t=0.025 w=0.17; hand y 0.407
	// tick 10: Attack t=0.150 w=1.00; hand y 0.580
	// tick 14: event Hit
	// tick 24: Attack t=0.500 w=1.00; hand y 1.000
	// tick 30: Attack t=0.650 w=1.00; hand y 1.000
}

// An Animator's whole state is a small value: take it every tick into a
// History for lag compensation (pose the character as a client saw it,
// without touching the live Animator), or encode it to move the character
// to another server or roll it back. Restoring it and feeding the same
// inputs gives the same bits as the original.
func ExampleHistory() {
	sk := skeleton()
	clips := []animator.Clip{animator.GenericClip(clip(sk, "Idle", 2, 0, 0.05, true)), animator.GenericClip(clip(sk, "Run", 0.5, 2, 0, true))}
	def, err := animator.Compile(locomotion(), clips)
	if err != nil {
		log.Fatal(err)
	}
	poser, err := animator.NewPoser(def, sk)
	if err != nil {
		log.Fatal(err)
	}
	scratch := poser.NewScratch()
	local := make([]geom.Transform, sk.Len())

	a := animator.NewAnimator(def)     // the live character
	history := animator.NewHistory(12) // its last 200 ms at 60 Hz
	ghost := animator.NewAnimator(def) // per worker: what rewinds pose
	for tick := uint64(1); tick <= 30; tick++ {
		if tick == 10 {
			a.SetFloat(def.Param("Speed"), 1)
		}
		a.Tick(1.0 / 60)
		history.Record(a, tick)
	}

	// Lag compensation: a shot fired by a client that saw tick 22.
	if snap, ok := history.At(22); ok {
		if err := ghost.Restore(snap); err != nil { // the live a is untouched
			log.Fatal(err)
		}
		poser.Pose(ghost, scratch, local)
		l := ghost.Layer(0)
		fmt.Printf("tick 22: %s -> %s %.0f%%, hips at z %.3f\n", ghost.StateName(0, l.State), ghost.StateName(0, l.Next), 100*l.Transition, local[1].T.Z)
	}
	poser.Pose(a, scratch, local)
	fmt.Printf("tick 30: %s, hips at z %.3f\n", a.StateName(0, a.Layer(0).State), local[1].T.Z)

	// Moving the character: encode, send, restore on the other side.
	state, err := a.MarshalBinary()
	if err != nil {
		log.Fatal(err)
	}
	moved := animator.NewAnimator(def) // on the other server, same controller
	if err := moved.UnmarshalBinary(state); err != nil {
		log.Fatal(err)
	}
	for i := 0; i < 60; i++ {
		a.Tick(1.0 / 60)
		moved.Tick(1.0 / 60)
	}
	same := a.Layer(0) == moved.Layer(0) && a.RootMotion() == moved.RootMotion()
	fmt.Printf("%d bytes; a second later the two agree: %v\n", len(state), same)
	// Output:
	// tick 22: Idle -> Run 80%, hips at z 0.640
	// tick 30: Run, hips at z 1.333
	// 88 bytes; a second later the two agree: true
}
