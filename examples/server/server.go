package main

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/animator"
	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
)

// Rate is the server's tick rate in Hz.
const Rate = 60

// history is how many ticks each character keeps for lag compensation:
// 200 ms.
const history = Rate / 5

// World is the animation half of a game server: characters playing one
// shared controller, ticked at Rate on every core, with hitboxes placed on
// bones each tick and the last ticks kept for rewinding.
type World struct {
	ctl     *bound.Controller
	sk      *anim.Skeleton
	hit     []int // the joints hitboxes sit on
	root    int   // the root joint: its travel is in the character's position
	chars   []character
	workers *animator.Workers
	scratch []*worker
	tick    uint64
	step    func(worker, from, to int)
	// snapStep is snapRange, made once so that Run does not allocate.
	snapStep func(worker, from, to int)
	params   []param
}

// character is one character's state: its Animator, where it stands, its
// hitboxes this tick, and the last ticks for rewinding.
type character struct {
	a      *animator.Animator
	hist   *animator.History
	placed [history]geom.Transform // where it stood, per recorded tick (tick % history)
	at     geom.Transform          // where it stands now
	hit    []geom.Vec3             // hitbox centres in the world, one per World.hit joint
	seed   uint64
}

// worker is what one worker goroutine poses with.
type worker struct {
	poser        *bound.PoseWorker
	local, model []geom.Transform
	ghost        *animator.Animator // restored from a history to rewind
	// snap is this worker's share of a world snapshot (see Snapshot),
	// encoded from state, with the error that stopped it.
	snap    []byte
	state   animator.Snapshot
	snapErr error
}

// param is a controller parameter the simulated players drive.
type param struct {
	index int
	kind  model.ParamType
}

// NewWorld spawns n characters of ctl spread over a grid, ticked by
// workers goroutines (0: one per core). Hitboxes sit on the human bones a
// game uses (head, chest, hips, hands, feet) for a humanoid, on every
// joint otherwise.
func NewWorld(ctl *bound.Controller, n, workers int) (*World, error) {
	ch := ctl.On()
	if ch == nil {
		return nil, fmt.Errorf("controller %q plays on no character", ctl.Model().Name)
	}
	w := &World{ctl: ctl, sk: ch.Skeleton(), workers: animator.NewWorkers(workers), root: ch.RootMotionJoint()}
	for _, b := range []model.HumanBone{model.HumanHead, model.HumanChest, model.HumanHips, model.HumanLeftHand,
		model.HumanRightHand, model.HumanLeftFoot, model.HumanRightFoot} {
		if j := ch.HumanJoint(b); j >= 0 {
			w.hit = append(w.hit, j)
		}
	}
	if len(w.hit) == 0 {
		for j := 0; j < w.sk.Len(); j++ {
			w.hit = append(w.hit, j)
		}
	}
	for i, p := range ctl.Model().Parameters {
		w.params = append(w.params, param{index: i, kind: p.Type})
	}
	for i := 0; i < w.workers.Len(); i++ {
		p, err := ctl.NewPoseWorker(w.hit...) // only what the hitboxes hang from
		if err != nil {
			w.workers.Close()
			return nil, err
		}
		w.scratch = append(w.scratch, &worker{poser: p, local: make([]geom.Transform, w.sk.Len()),
			model: make([]geom.Transform, w.sk.Len()), ghost: ctl.NewAnimator()})
	}
	w.chars = make([]character, n)
	for i := range w.chars {
		c := &w.chars[i]
		c.a = ctl.NewAnimator()
		c.hist = animator.NewHistory(history)
		c.at = geom.Transform{T: geom.V3(float32(i%100)*2, 0, float32(i/100)*2), R: geom.IdentityQuat, S: geom.V3(1, 1, 1)}
		c.hit = make([]geom.Vec3, len(w.hit))
		c.seed = uint64(i)*0x9E3779B97F4A7C15 + 1
	}
	w.step, w.snapStep = w.stepRange, w.snapRange
	return w, nil
}

// Close stops the world's workers.
func (w *World) Close() { w.workers.Close() }

// Tick advances every character by one 1/Rate step: the simulated players'
// inputs, the state machines, root motion, the pose, model space and the
// hitboxes, and records the tick. It allocates nothing.
func (w *World) Tick() {
	w.tick++
	w.workers.Run(len(w.chars), w.step)
}

// Now returns the current tick.
func (w *World) Now() uint64 { return w.tick }

func (w *World) stepRange(wi, from, to int) {
	s := w.scratch[wi]
	for i := from; i < to; i++ {
		c := &w.chars[i]
		w.input(c)
		c.a.Tick(1.0 / Rate)
		m := c.a.RootMotion()
		c.at.T = c.at.T.Add(c.at.R.Rotate(m.T))
		c.at.R = c.at.R.Mul(m.R).Normalize()
		w.place(c.a, s, c.at, c.hit)
		c.hist.Record(c.a, w.tick)
		c.placed[w.tick%history] = c.at
	}
}

// place poses a and puts its hitboxes in the world, with the character
// standing at at.
func (w *World) place(a *animator.Animator, s *worker, at geom.Transform, hit []geom.Vec3) {
	s.poser.Pose(a, s.local)
	s.local[w.root].T = w.sk.Rest[w.root].T // the travel is in at
	anim.LocalToModelJoints(s.poser.Joints(), s.local, s.model)
	for k, j := range w.hit {
		hit[k] = at.Point(s.model[j].T)
	}
}

// input is what a simulated player does this tick: now and then a new
// speed, a flag flipped, a trigger pulled.
func (w *World) input(c *character) {
	c.seed ^= c.seed << 13
	c.seed ^= c.seed >> 7
	c.seed ^= c.seed << 17
	r := c.seed
	if r%20 != 0 || len(w.params) == 0 {
		return
	}
	p := w.params[(r>>8)%uint64(len(w.params))]
	switch p.kind {
	case model.ParamFloat:
		c.a.SetFloat(p.index, float32((r>>16)%300)/100)
	case model.ParamInt:
		c.a.SetInt(p.index, int32((r>>16)%4))
	case model.ParamBool:
		c.a.SetBool(p.index, (r>>16)%2 == 0)
	case model.ParamTrigger:
		c.a.SetTrigger(p.index)
	}
}

// Hitboxes returns character i's hitbox centres this tick (shared: read
// between ticks).
func (w *World) Hitboxes(i int) []geom.Vec3 { return w.chars[i].hit }

// Rewind puts character i's hitboxes as they were at tick into dst, for a
// shot fired by a client that saw that tick (lag compensation), without
// touching the live character. It fails when the tick is no longer held
// (older than the history) or is in the future.
func (w *World) Rewind(i int, tick uint64, dst []geom.Vec3) error {
	c := &w.chars[i]
	snap, ok := c.hist.At(tick)
	if !ok {
		return fmt.Errorf("character %d: tick %d is not held (now %d, %d ticks kept)", i, tick, w.tick, history)
	}
	s := w.scratch[0]
	if err := s.ghost.Restore(snap); err != nil {
		return fmt.Errorf("character %d: tick %d: %w", i, tick, err)
	}
	w.place(s.ghost, s, c.placed[tick%history], dst[:len(w.hit)])
	return nil
}

// Snapshot appends the world's state to b — the tick, then per character
// its Animator's whole state (an encoded animator.Snapshot), where it
// stands and its player's random state — as a server does to move
// characters to another process or roll the world back; Restore reads it
// back. (The histories are not saved: a restored world rewinds only to
// ticks it has run since.)
func (w *World) Snapshot(b []byte) ([]byte, error) {
	b = binary.LittleEndian.AppendUint64(b, w.tick)
	for _, s := range w.scratch {
		s.snap, s.snapErr = s.snap[:0], nil
	}
	// Each worker encodes its range of characters; the ranges are in
	// worker order, so the pieces join into what one loop would write.
	w.workers.Run(len(w.chars), w.snapStep)
	for _, s := range w.scratch {
		if s.snapErr != nil {
			return nil, s.snapErr
		}
		b = append(b, s.snap...)
	}
	return b, nil
}

// snapRange encodes characters from..to-1 into worker wi's buffer (see
// Snapshot).
func (w *World) snapRange(wi, from, to int) {
	s := w.scratch[wi]
	b := s.snap
	for i := from; i < to; i++ {
		c := &w.chars[i]
		c.a.Snapshot(&s.state)
		start := len(b)
		b = append(b, 0, 0, 0, 0)
		var err error
		if b, err = s.state.AppendBinary(b); err != nil {
			s.snapErr = fmt.Errorf("character %d: %w", i, err)
			return
		}
		binary.LittleEndian.PutUint32(b[start:], uint32(len(b)-start-4))
		for _, f := range [...]float32{c.at.T.X, c.at.T.Y, c.at.T.Z, c.at.R.X, c.at.R.Y, c.at.R.Z, c.at.R.W, c.at.S.X, c.at.S.Y, c.at.S.Z} {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(f))
		}
		b = binary.LittleEndian.AppendUint64(b, c.seed)
	}
	s.snap = b
}

// Restore sets the world's state from a Snapshot of a world of as many
// characters of the same controller.
func (w *World) Restore(b []byte) error {
	if len(b) < 8 {
		return fmt.Errorf("snapshot: cut short")
	}
	tick := binary.LittleEndian.Uint64(b)
	b = b[8:]
	for i := range w.chars {
		c := &w.chars[i]
		if len(b) < 4 {
			return fmt.Errorf("snapshot: character %d: cut short", i)
		}
		n := int(binary.LittleEndian.Uint32(b))
		if n > len(b)-4-48 {
			return fmt.Errorf("snapshot: character %d: %d bytes of %d", i, n, len(b)-4)
		}
		if err := c.a.UnmarshalBinary(b[4 : 4+n]); err != nil {
			return fmt.Errorf("snapshot: character %d: %w", i, err)
		}
		b = b[4+n:]
		var f [10]float32
		for k := range f {
			f[k] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*k:]))
		}
		c.at = geom.Transform{T: geom.V3(f[0], f[1], f[2]), R: geom.Quat{X: f[3], Y: f[4], Z: f[5], W: f[6]}, S: geom.V3(f[7], f[8], f[9])}
		c.seed = binary.LittleEndian.Uint64(b[40:])
		b = b[48:]
	}
	if len(b) != 0 {
		return fmt.Errorf("snapshot: %d bytes after the last character", len(b))
	}
	w.tick = tick
	return nil
}
