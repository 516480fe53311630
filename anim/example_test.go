package anim_test

import (
	"fmt"
	"log"
	"sync"
	"testing"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
)

// skeleton builds, by hand, the joints a game server needs: paths below the
// animated GameObject, parents before children, rest (bind) transforms.
// SkeletonFromRig builds the same from a rig read out of a Unity file.
func skeleton() *anim.Skeleton {
	at := func(x, y, z float32) geom.Transform {
		return geom.Transform{T: geom.V3(x, y, z), R: geom.IdentityQuat, S: geom.V3(1, 1, 1)}
	}
	sk, err := anim.NewSkeleton(
		[]string{"", "Hips", "Hips/Spine", "Hips/Spine/Head", "Hips/Spine/RightArm", "Hips/Spine/RightArm/RightHand"},
		[]int{-1, 0, 1, 2, 2, 4},
		[]geom.Transform{at(0, 0, 0), at(0, 1, 0), at(0, 0.3, 0), at(0, 0.45, 0), at(0.25, 0.35, 0), at(0.5, 0, 0)},
	)
	if err != nil {
		log.Fatal(err)
	}
	return sk
}

// channel is one float curve of a Transform property of the joint at path.
func channel(path string, prop model.TransformProp, comp int, name string) model.Target {
	return model.Target{Path: path, PathHash: model.PathHash(path), PathKnown: true,
		ClassID: model.ClassTransform, Attribute: uint32(prop), Transform: prop, Component: comp,
		Property: name, RotationOrder: geom.OrderZXY}
}

// linear returns keyframes joining the points (time, value) by straight lines.
func linear(pts ...[2]float32) []model.Keyframe {
	keys := make([]model.Keyframe, len(pts))
	for i, p := range pts {
		keys[i] = model.Keyframe{Time: p[0], Value: p[1]}
		if i > 0 {
			keys[i].InSlope = (p[1] - pts[i-1][1]) / (p[0] - pts[i-1][0])
		}
		if i+1 < len(pts) {
			keys[i].OutSlope = (pts[i+1][1] - p[1]) / (pts[i+1][0] - p[0])
		}
	}
	return keys
}

// walk is a one-second looping clip built in code, as any source (a Unity
// file, your own format) would give it: the hips travel 1.5 m forward (the
// root motion), the right arm swings up to 90° about z and back, and two
// footstep events fire.
func walk() *model.Clip {
	keyed := func(t model.Target, keys []model.Keyframe) model.Curve {
		return model.Curve{Target: t, Kind: model.CurveKeyframed, Keys: keys,
			PreInfinity: model.InfinityClamp, PostInfinity: model.InfinityClamp}
	}
	constant := func(t model.Target, v float32) model.Curve {
		return model.Curve{Target: t, Kind: model.CurveConstant, Value: v}
	}
	return &model.Clip{
		Name: "Walk", SampleRate: 30, Start: 0, Stop: 1,
		Settings: model.LoopSettings{LoopTime: true},
		Curves: []model.Curve{
			constant(channel("Hips", model.PropPosition, 0, "m_LocalPosition.x"), 0),
			constant(channel("Hips", model.PropPosition, 1, "m_LocalPosition.y"), 1),
			keyed(channel("Hips", model.PropPosition, 2, "m_LocalPosition.z"), linear([2]float32{0, 0}, [2]float32{1, 1.5})),
			keyed(channel("Hips/Spine/RightArm", model.PropEuler, 2, "localEulerAnglesRaw.z"),
				linear([2]float32{0, 0}, [2]float32{0.5, 90}, [2]float32{1, 0})),
		},
		Events: []model.Event{
			{Time: 0.25, Function: "Footstep", Data: "left"},
			{Time: 0.75, Function: "Footstep", Data: "right"},
		},
	}
}

// round drops float noise below a millimetre, so that printed values do not
// show "-0.000".
func round(x float32) float32 {
	if x > -0.0005 && x < 0.0005 {
		return 0
	}
	return x
}

// A Skeleton built by hand: paths, parents, rest pose.
func ExampleNewSkeleton() {
	sk := skeleton()
	for i, p := range sk.Paths {
		fmt.Printf("%d depth %d parent %2d %q\n", i, sk.Depth(i), sk.Parents[i], p)
	}
	hand, ok := sk.Index("Hips/Spine/RightArm/RightHand")
	fmt.Println("right hand:", hand, ok)
	// Output:
	// 0 depth 0 parent -1 ""
	// 1 depth 1 parent  0 "Hips"
	// 2 depth 2 parent  1 "Hips/Spine"
	// 3 depth 3 parent  2 "Hips/Spine/Head"
	// 4 depth 3 parent  2 "Hips/Spine/RightArm"
	// 5 depth 4 parent  4 "Hips/Spine/RightArm/RightHand"
	// right hand: 5 true
}

// Bake a clip once (at load time) against a skeleton, then sample it: a
// local pose per joint, composed by LocalToModel into the model space of
// the character, where a joint's position is a hitbox's centre.
func ExampleBake() {
	sk := skeleton()
	clip, err := anim.Bake(walk(), sk)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s: %.2f s, %d joints driven, root joint %q, %d unresolved\n", clip.Name(), clip.Duration(),
		clip.TrackCount(), sk.Paths[clip.RootJoint()], clip.UnresolvedChannels())

	// Buffers made once per character; Sample and LocalToModel fill them
	// without allocating.
	local := make([]geom.Transform, sk.Len())
	world := make([]geom.Transform, sk.Len())
	hand, _ := sk.Index("Hips/Spine/RightArm/RightHand")
	for _, t := range []float32{0, 0.25, 0.5} {
		clip.Sample(t, local)
		anim.LocalToModel(sk, local, world)
		p := world[hand].T
		fmt.Printf("t=%.2f right hand at (%.3f, %.3f, %.3f)\n", t, p.X, p.Y, p.Z)
	}
	// Output:
	// Walk: 1.00 s, 2 joints driven, root joint "Hips", 0 unresolved
	// t=0.00 right hand at (0.750, 1.650, 0.000)
	// t=0.25 right hand at (0.604, 2.004, 0.375)
	// t=0.50 right hand at (0.250, 2.150, 0.750)
}

// Advance moves playback time and counts the wraps of a looping clip.
func ExampleAdvance() {
	const length = 1.0
	t, loops := anim.Advance(0.9, 0.25, length, model.WrapLoop)
	fmt.Printf("loop:      %.2f after %d wrap(s)\n", t, loops)
	t, loops = anim.Advance(0.1, -0.25, length, model.WrapLoop)
	fmt.Printf("backwards: %.2f after %d wrap(s)\n", t, loops)
	t, loops = anim.Advance(0.9, 0.25, length, model.WrapOnce)
	fmt.Printf("once:      %.2f after %d wrap(s)\n", t, loops)
	// Output:
	// loop:      0.15 after 1 wrap(s)
	// backwards: 0.85 after -1 wrap(s)
	// once:      1.00 after 0 wrap(s)
}

// CollectEvents reports the events a tick crossed, in playback order; the
// intervals are half-open, so ticks in a row report every event once, even
// across a wrap.
func ExampleClip_CollectEvents() {
	clip, err := anim.Bake(walk(), skeleton())
	if err != nil {
		log.Fatal(err)
	}
	const dt = 1.0 / 60
	var tick int
	sink := func(e model.Event) { // made once, not per tick
		fmt.Printf("tick %3d: %s(%s) at %.2f\n", tick, e.Function, e.Data, e.Time)
	}
	t := float32(0)
	for tick = 1; tick <= 90; tick++ {
		nt, loops := clip.Advance(t, dt, model.WrapLoop)
		clip.CollectEvents(t, nt, loops, sink)
		t = nt
	}
	// Output:
	// tick  16: Footstep(left) at 0.25
	// tick  46: Footstep(right) at 0.75
	// tick  76: Footstep(left) at 0.25
}

// ExtractRootMotion is how far the root joint moved during a tick (across
// its wraps), to move the character in the world. Here the hips travel
// 1.5 m a cycle.
func ExampleClip_ExtractRootMotion() {
	clip, err := anim.Bake(walk(), skeleton())
	if err != nil {
		log.Fatal(err)
	}
	m := clip.ExtractRootMotion(0, 1, 0)
	fmt.Printf("one cycle:       %.3f m forward\n", m.T.Z)
	t, loops := clip.Advance(0.99, 1.0/60, model.WrapLoop)
	m = clip.ExtractRootMotion(0.99, t, loops)
	fmt.Printf("tick over wrap:  %.3f m forward (t=%.4f, %d wrap)\n", m.T.Z, t, loops)
	t, loops = clip.Advance(0.5, 2.5, model.WrapLoop)
	m = clip.ExtractRootMotion(0.5, t, loops)
	fmt.Printf("2.5 s from 0.5:  %.3f m forward (%d wraps)\n", m.T.Z, loops)
	// Output:
	// one cycle:       1.500 m forward
	// tick over wrap:  0.025 m forward (t=0.0067, 1 wrap)
	// 2.5 s from 0.5:  3.750 m forward (3 wraps)
}

// A game server's tick for one character playing one clip at a fixed
// 60 Hz: advance the time, report events, move the character by the root
// motion, and place a hitbox on the right hand in world space. The root
// joint's own travel is taken out of the pose (it is the character's
// movement now), so it is not counted twice. Nothing in the tick
// allocates.
func Example_serverTick() {
	sk := skeleton()
	clip, err := anim.Bake(walk(), sk) // once, at startup; shared by every character
	if err != nil {
		log.Fatal(err)
	}

	// Per character.
	type character struct {
		t            float32
		pos          geom.Vec3
		rot          geom.Quat
		local, model []geom.Transform
		steps        int
		onEvent      func(model.Event)
	}
	c := &character{rot: geom.AxisAngle(geom.V3(0, 1, 0), 3.14159265/2), // facing +x
		local: make([]geom.Transform, sk.Len()), model: make([]geom.Transform, sk.Len())}
	c.onEvent = func(e model.Event) { c.steps++ }
	root := clip.RootJoint()
	hand, _ := sk.Index("Hips/Spine/RightArm/RightHand")

	const dt = 1.0 / 60
	var handWorld geom.Vec3
	tick := func() {
		nt, loops := clip.Advance(c.t, dt, model.WrapLoop)
		clip.CollectEvents(c.t, nt, loops, c.onEvent)
		m := clip.ExtractRootMotion(c.t, nt, loops)
		c.pos = c.pos.Add(c.rot.Rotate(m.T))
		c.rot = c.rot.Mul(m.R).Normalize()
		c.t = nt

		clip.Sample(c.t, c.local)
		c.local[root].T = sk.Rest[root].T // in place: the travel is in c.pos
		anim.LocalToModel(sk, c.local, c.model)
		handWorld = geom.Transform{T: c.pos, R: c.rot, S: geom.V3(1, 1, 1)}.Point(c.model[hand].T)
	}
	for i := 1; i <= 120; i++ {
		tick()
		if i%30 == 0 {
			fmt.Printf("tick %3d: at x %.3f z %.3f, footsteps %d, hand (%.3f, %.3f, %.3f)\n",
				i, round(c.pos.X), round(c.pos.Z), c.steps, round(handWorld.X), round(handWorld.Y), round(handWorld.Z))
		}
	}
	fmt.Println("allocations per tick:", testing.AllocsPerRun(100, tick))
	// Output:
	// tick  30: at x 0.750 z 0.000, footsteps 1, hand (0.750, 2.150, -0.250)
	// tick  60: at x 1.500 z 0.000, footsteps 2, hand (1.500, 1.650, -0.750)
	// tick  90: at x 2.250 z 0.000, footsteps 3, hand (2.250, 2.150, -0.250)
	// tick 120: at x 3.000 z 0.000, footsteps 4, hand (3.000, 1.650, -0.750)
	// allocations per tick: 0
}

// A baked Clip is shared by every goroutine: Sample keeps no state. Each
// worker owns its characters' times and pose buffers. The results do not
// depend on how the characters are split among goroutines.
func Example_concurrent() {
	sk := skeleton()
	clip, err := anim.Bake(walk(), sk)
	if err != nil {
		log.Fatal(err)
	}
	hand, _ := sk.Index("Hips/Spine/RightArm/RightHand")
	const characters, ticks, dt = 1000, 120, float32(1.0 / 60)

	// simulate runs characters [from, to) and records each one's hand height.
	simulate := func(from, to int, out []float32) {
		local := make([]geom.Transform, sk.Len()) // per worker, reused for each character
		world := make([]geom.Transform, sk.Len())
		for i := from; i < to; i++ {
			t := float32(i%60) * dt // characters start at different phases
			for k := 0; k < ticks; k++ {
				t, _ = clip.Advance(t, dt, model.WrapLoop)
			}
			clip.Sample(t, local)
			anim.LocalToModel(sk, local, world)
			out[i] = world[hand].T.Y
		}
	}
	serial := make([]float32, characters)
	simulate(0, characters, serial)

	parallel := make([]float32, characters)
	var wg sync.WaitGroup
	const workers = 4
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			simulate(w*characters/workers, (w+1)*characters/workers, parallel)
		}(w)
	}
	wg.Wait()
	same := true
	for i := range serial {
		same = same && serial[i] == parallel[i]
	}
	fmt.Printf("%d characters on %d goroutines, bit-identical to one: %v\n", characters, workers, same)
	// Output:
	// 1000 characters on 4 goroutines, bit-identical to one: true
}

// A server that reads one joint (a hitbox on the hand) composes model space
// for it and its ancestors only.
func ExampleSkeleton_Joints() {
	sk := skeleton()
	hand, _ := sk.Index("Hips/Spine/RightArm/RightHand")
	part, err := sk.Joints(hand)
	if err != nil {
		log.Fatal(err)
	}
	for k := 0; k < part.Len(); k++ {
		fmt.Printf("%q\n", sk.Paths[part.At(k)])
	}
	model := make([]geom.Transform, sk.Len())
	anim.LocalToModelJoints(part, sk.Rest, model)
	fmt.Println("hand at", model[hand].T)
	// Output:
	// ""
	// "Hips"
	// "Hips/Spine"
	// "Hips/Spine/RightArm"
	// "Hips/Spine/RightArm/RightHand"
	// hand at {0.75 1.65 0}
}
