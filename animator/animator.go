package animator

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
)

// maxFrozen bounds the states an interrupted transition's frozen pose keeps
// (further interruptions drop the lightest).
const maxFrozen = 4

// minStateLength bounds a state's length from below, so normalised time
// stays finite.
const minStateLength = 1e-4

// emptyStateLength is the length in seconds given to a state with no clip,
// so its normalised time still advances (one per second).
const emptyStateLength = 1

// Event is an animation event crossed during a tick: which layer and state
// played the clip, at what weight, and the event as authored.
type Event struct {
	Layer int
	State int
	Clip  int
	// Weight is the clip's weight in its layer: its blend-tree weight times
	// its state's share of the layer's transition, the larger of that share
	// at the start and at the end of the tick (a destination fading in
	// reports its share at the end). LayerWeight is the layer's own weight.
	Weight, LayerWeight float32
	// Event is the event as authored, shared with the clip (do not modify).
	Event *model.Event
}

// LayerInfo is the observable state of a layer.
type LayerInfo struct {
	// State is the current state (-1 for none); NormalizedTime its
	// normalised time (whole loops plus the fraction).
	State          int
	NormalizedTime float32
	// Next is the destination of the running transition (-1 for none).
	Next               int
	NextNormalizedTime float32
	// InTransition reports a running transition; Transition is its
	// progress from 0 to 1; Interrupted says its source is the frozen pose
	// of an interrupted transition.
	InTransition bool
	Transition   float32
	Interrupted  bool
	Weight       float32
}

type slot struct {
	state int32
	// nt and prev are float64 so that hours of looping do not round a
	// tick's step away (float32 keeps 1/60 s of a 1 s loop to within 6 %
	// only for the first 4.5 hours).
	nt    float64 // normalised time now
	prev  float64 // normalised time before the last advance
	fresh bool    // entered and not advanced yet
	// first marks the tick of the first advance after the state was
	// entered: its start counts as crossed (events and exit times at it
	// fire).
	first bool
}

type frozenSlot struct {
	state int32
	nt    float64
	w     float32
}

// transRef names a transition: index in the any-state list (from -1) or in
// state from's list; from crossFade marks a CrossFade call.
type transRef struct {
	from, index int32
}

const crossFade = -2

type layerState struct {
	cur, next slot
	inTrans   bool
	srcFrozen bool
	nFrozen   uint8
	frozen    [maxFrozen]frozenSlot
	trans     transRef
	progress  float32
	fade      float32 // duration of a CrossFade (trans.from == crossFade)
	weight    float32
	// root motion of the last tick: translation, weighted quaternion sum
	// and the weight that contributed.
	rootT geom.Vec3
	rootQ geom.Quat
	rootW float32
}

// Animator is one instance playing a compiled controller: its parameter
// values and, per layer, the current state, the running transition and its
// times. It is small and allocation-free to tick; the Definition it plays
// is shared.
type Animator struct {
	def      *Definition
	params   []float64
	consumed []bool
	layers   []layerState
	leaves   []LeafWeight
	events   []Event
	rootT    geom.Vec3
	rootR    geom.Quat
	time     float64
}

// New compiles c over clips and returns an Animator for it: a shortcut for
// one instance (use Compile and NewAnimator to share the Definition).
func New(c *model.Controller, clips []Clip) (*Animator, error) {
	d, err := Compile(c, clips)
	if err != nil {
		return nil, err
	}
	return NewAnimator(d), nil
}

// NewAnimator returns an Animator over d with default parameter values, in
// each layer's entry state.
func NewAnimator(d *Definition) *Animator {
	a := &Animator{
		def:      d,
		params:   make([]float64, len(d.defaults)),
		consumed: make([]bool, len(d.defaults)),
		layers:   make([]layerState, len(d.c.Layers)),
		leaves:   make([]LeafWeight, 0, d.maxLeaves),
		events:   make([]Event, 0, 4),
	}
	a.Reset()
	return a
}

// Definition returns the shared definition the animator plays.
func (a *Animator) Definition() *Definition { return a.def }

// Reset restores default parameter values and layer weights and enters each
// layer's machine through its entry node, as a newly enabled Animator does.
func (a *Animator) Reset() {
	copy(a.params, a.def.defaults)
	for i := range a.consumed {
		a.consumed[i] = false
	}
	a.time = 0
	a.events = a.events[:0]
	a.rootT, a.rootR = geom.Vec3{}, geom.Quat{W: 1}
	for li := range a.layers {
		l := &a.layers[li]
		*l = layerState{cur: slot{state: -1}, next: slot{state: -1}}
		l.weight = layerWeight(a.def.c.Layers[li].Weight)
		if li == 0 {
			l.weight = 1 // the base layer always plays at full weight
		}
	}
	for _, li := range a.def.order {
		l := &a.layers[li]
		if sl := a.def.c.Layers[li].SyncedLayer; sl >= 0 {
			a.copyTimeline(l, &a.layers[sl])
			continue
		}
		mi := a.def.machine[li]
		m := &a.def.c.StateMachines[mi]
		s := -1
		if len(m.States) > 0 {
			s = m.DefaultState
			if e := a.def.entry[mi]; e >= 0 {
				s = a.resolve(m, model.SelectorBase+uint32(e), true, 0)
			}
		}
		l.cur = slot{state: int32(s), fresh: true}
	}
	a.releaseTriggers()
}

// copyTimeline makes synced layer dst follow src's states, times and
// transition, keeping its own weight and root motion.
func (a *Animator) copyTimeline(dst, src *layerState) {
	w, t, q, rw := dst.weight, dst.rootT, dst.rootQ, dst.rootW
	*dst = *src
	dst.weight, dst.rootT, dst.rootQ, dst.rootW = w, t, q, rw
}

// Time returns the time ticked since the last Reset, in seconds.
func (a *Animator) Time() float64 { return a.time }

// Param returns the index of the parameter called name, or -1.
func (a *Animator) Param(name string) int { return a.def.Param(name) }

// Value returns parameter i's value (floats as is, ints exactly, bools and
// triggers as 1 or 0); 0 for an index out of range.
func (a *Animator) Value(i int) float64 {
	if i < 0 || i >= len(a.params) {
		return 0
	}
	return a.params[i]
}

// SetFloat sets float parameter i (ignored for other kinds or indexes out of
// range, as Unity ignores a mismatched setter).
func (a *Animator) SetFloat(i int, v float32) {
	if a.is(i, model.ParamFloat) {
		a.params[i] = float64(v)
	}
}

// SetInt sets int parameter i.
func (a *Animator) SetInt(i int, v int32) {
	if a.is(i, model.ParamInt) {
		a.params[i] = float64(v)
	}
}

// SetBool sets bool parameter i.
func (a *Animator) SetBool(i int, v bool) {
	if a.is(i, model.ParamBool) {
		a.params[i] = b2f(v)
	}
}

// SetTrigger sets trigger parameter i; it stays set until a transition
// consumes it or ResetTrigger clears it.
func (a *Animator) SetTrigger(i int) {
	if a.is(i, model.ParamTrigger) {
		a.params[i] = 1
	}
}

// ResetTrigger clears trigger parameter i.
func (a *Animator) ResetTrigger(i int) {
	if a.is(i, model.ParamTrigger) {
		a.params[i] = 0
	}
}

func (a *Animator) is(i int, t model.ParamType) bool {
	return i >= 0 && i < len(a.params) && a.def.c.Parameters[i].Type == t
}

func b2f(v bool) float64 {
	if v {
		return 1
	}
	return 0
}

// Set sets the parameter called name from a script value: a number for a
// float or int (an int must be whole), a bool for a bool or trigger (true
// sets a trigger, false resets it).
func (a *Animator) Set(name string, v any) error {
	i := a.def.Param(name)
	if i < 0 {
		return fmt.Errorf("animator: no parameter %q", name)
	}
	t := a.def.c.Parameters[i].Type
	switch x := v.(type) {
	case bool:
		switch t {
		case model.ParamBool:
			a.params[i] = b2f(x)
		case model.ParamTrigger:
			a.params[i] = b2f(x)
		default:
			return fmt.Errorf("animator: parameter %q is not a bool or trigger", name)
		}
	case float64:
		switch t {
		case model.ParamFloat:
			a.params[i] = float64(float32(x))
		case model.ParamInt:
			if x != math.Trunc(x) || x < math.MinInt32 || x > math.MaxInt32 {
				return fmt.Errorf("animator: parameter %q is an int; %v is not", name, x)
			}
			a.params[i] = x
		case model.ParamBool, model.ParamTrigger:
			a.params[i] = b2f(x != 0)
		}
	case int:
		return a.Set(name, float64(x))
	case float32:
		return a.Set(name, float64(x))
	default:
		return fmt.Errorf("animator: parameter %q: unsupported value %T", name, v)
	}
	return nil
}

// SetLayerWeight sets layer i's weight, clamped to [0, 1] (NaN reads as
// 0; the base layer always plays at 1).
func (a *Animator) SetLayerWeight(i int, w float32) {
	if i > 0 && i < len(a.layers) {
		a.layers[i].weight = layerWeight(w)
	}
}

// layerWeight clamps a layer weight to [0, 1], NaN to 0, so that no pose
// or root motion can turn NaN through it.
func layerWeight(w float32) float32 {
	if !(w > 0) {
		return 0
	}
	return min(w, 1)
}

// Layers returns the number of layers.
func (a *Animator) Layers() int { return len(a.layers) }

// Layer returns layer i's observable state.
func (a *Animator) Layer(i int) LayerInfo {
	if i < 0 || i >= len(a.layers) {
		return LayerInfo{State: -1, Next: -1}
	}
	l := &a.layers[i]
	info := LayerInfo{State: int(l.cur.state), NormalizedTime: float32(l.cur.nt), Next: -1, Weight: l.weight}
	if l.inTrans {
		info.Next, info.NextNormalizedTime = int(l.next.state), float32(l.next.nt)
		info.InTransition, info.Transition, info.Interrupted = true, clamp01(l.progress), l.srcFrozen
	}
	return info
}

// StateName returns the name of state s of layer l.
func (a *Animator) StateName(l, s int) string { return a.def.StateName(l, s) }

// Events returns the events crossed in the last tick, in layer order (the
// slice is reused by the next tick).
func (a *Animator) Events() []Event { return a.events }

// RootMotion returns how far the root moved in the last tick, blended over
// layers as the poses are.
func (a *Animator) RootMotion() anim.RootMotion { return anim.RootMotion{T: a.rootT, R: a.rootR} }

func clamp01(x float32) float32 {
	if !(x > 0) { // NaN too
		return 0
	}
	if x > 1 {
		return 1
	}
	return x
}

// Tick advances the animator by seconds (a step, rounded to float32 as
// Unity's deltaTime is; the clocks it advances are float64): every layer's states and
// transitions advance, then transitions are evaluated and at most one per
// layer fires; events crossed and root motion moved during the advance are
// collected. Triggers consumed by a transition in any layer are cleared at
// the end of the tick, so every layer sees a trigger set before it. Tick
// does not allocate (once the event buffer has grown to the busiest tick).
func (a *Animator) Tick(seconds float64) {
	dt := float32(seconds) // a tick's step; the clocks it advances are float64
	a.events = a.events[:0]
	if !geom.Finite(dt) {
		dt = 0
	}
	for li := range a.layers {
		l := &a.layers[li]
		l.rootT, l.rootQ, l.rootW = geom.Vec3{}, geom.Quat{}, 0
	}
	for _, li := range a.def.order {
		if sl := a.def.c.Layers[li].SyncedLayer; sl >= 0 {
			// Its events and root motion were collected with its source's.
			a.copyTimeline(&a.layers[li], &a.layers[sl])
			continue
		}
		a.stepLayer(li, dt)
	}
	a.sortEvents()
	a.combineRoot()
	a.releaseTriggers()
	a.time += float64(dt)
}

func (a *Animator) releaseTriggers() {
	for i, c := range a.consumed {
		if c {
			a.params[i] = 0
			a.consumed[i] = false
		}
	}
}

func (a *Animator) machine(li int) *model.StateMachine {
	return &a.def.c.StateMachines[a.def.machine[li]]
}

// stepLayer advances one (non-synced) layer, collects the events and root
// motion of the advance and evaluates its transitions.
//
// A clip's events fire at its weight at the start or at the end of the
// tick, whichever is larger (a destination fading in counts with its weight
// at the end, so its first tick's events fire; a source fading out with its
// weight at the start); root motion is weighted by the shares at the start
// of the tick, so a transition's weights sum to 1.
func (a *Animator) stepLayer(li int, dt float32) {
	l := &a.layers[li]
	if l.cur.state < 0 {
		return
	}
	st := a.step(li, &l.cur, dt)
	var p0, p1 float32
	if l.inTrans {
		p0 = clamp01(l.progress)
		dur, fixed := l.fade, true
		if l.trans.from != crossFade {
			tr := a.transition(li, l.trans)
			dur, fixed = tr.Duration, tr.HasFixedDuration
		}
		switch {
		case dur <= 0:
			l.progress = 1
		case fixed:
			l.progress += dt / dur
		default:
			l.progress += float32(math.Abs(l.cur.nt-l.cur.prev)) / dur
		}
		p1 = clamp01(l.progress)
	}
	if !l.srcFrozen { // a frozen source pose stands still; its state only keeps time
		a.emit(li, &l.cur, st, 1-p0, 1-p0)
		a.emitSynced(li, &l.cur, st, 1-p0, 1-p0)
	}
	if l.inTrans {
		st = a.step(li, &l.next, dt)
		a.emit(li, &l.next, st, p1, p0)
		a.emitSynced(li, &l.next, st, p1, p0)
		if l.progress >= 1 {
			a.complete(l)
		}
	}
	a.evaluate(li)
}

func (a *Animator) complete(l *layerState) {
	l.cur = l.next
	l.next = slot{state: -1}
	l.inTrans, l.srcFrozen, l.nFrozen, l.progress = false, false, 0, 0
}

func (a *Animator) transition(li int, r transRef) *model.Transition {
	m := a.machine(li)
	if r.from < 0 {
		return &m.AnyState[r.index]
	}
	return &m.States[r.from].Transitions[r.index]
}

// stateSpeed is the state's speed times its speed parameter.
func (a *Animator) stateSpeed(st *model.State) float32 {
	s := st.Speed
	if st.SpeedParam >= 0 {
		s *= float32(a.params[st.SpeedParam])
	}
	return s
}

func (a *Animator) cycleOffset(st *model.State) float32 {
	if st.CycleOffsetParam >= 0 {
		return float32(a.params[st.CycleOffsetParam])
	}
	return st.CycleOffset
}

// stateLength fills a.leaves with the state's leaves and returns its length
// in seconds: the weighted length of its clips.
func (a *Animator) stateLength(li int, st *model.State) float32 {
	a.leaves = BlendWeights(a.def.motion(li, st), a.params, a.leaves)
	var sum, ws float32
	for _, lw := range a.leaves {
		if n := a.def.clip(lw.Clip).Length; n > 0 && lw.Clip >= 0 {
			sum += lw.Weight * n
			ws += lw.Weight
		}
	}
	if !(ws > 1e-6) || !(sum > 0) {
		return emptyStateLength
	}
	n := sum / ws
	if !(n >= minStateLength) {
		n = minStateLength
	}
	return n
}

// timedLength is the state's length on layer li balanced, for each layer
// synced to li with SyncedTiming, against that layer's motion by its weight
// (Unity's synced-layer Timing option); it leaves li's leaves in a.leaves.
func (a *Animator) timedLength(li int, st *model.State) float32 {
	var other, ws float32
	for _, lj := range a.def.timing[li] {
		w := clamp01(a.layers[lj].weight)
		if w <= 0 {
			continue
		}
		other += w * a.stateLength(lj, st)
		ws += w
	}
	n := a.stateLength(li, st)
	if ws > 0 {
		if ws > 1 {
			other, ws = other/ws, 1
		}
		n = (1-ws)*n + other
	}
	return n
}

// StateLength returns the length in seconds of state s of layer l at the
// current parameter values (the weighted length of its clips; 1 for a state
// without clips).
func (a *Animator) StateLength(l, s int) float32 {
	if l < 0 || l >= len(a.layers) {
		return 0
	}
	m := a.machine(l)
	if s < 0 || s >= len(m.States) {
		return 0
	}
	return a.stateLength(l, &m.States[s])
}

// step moves slot s by dt at its state's speed (or to its time parameter)
// and returns its state, leaving its leaves in a.leaves.
func (a *Animator) step(li int, s *slot, dt float32) *model.State {
	st := &a.machine(li).States[s.state]
	length := a.timedLength(li, st)
	s.prev = s.nt
	if st.TimeParam >= 0 {
		s.nt = a.params[st.TimeParam]
	} else {
		s.nt += float64(dt * a.stateSpeed(st) / length)
	}
	s.first, s.fresh = s.fresh, false
	return st
}

// emitSynced collects, for each layer synced to li, the events and root
// motion of its own motion of state st over source slot s's advance: a
// synced layer follows exactly its source's timeline (collected before the
// source's transitions are evaluated, so a transition firing or completing
// in the tick changes neither).
func (a *Animator) emitSynced(li int, s *slot, st *model.State, we, wr float32) {
	for _, lj := range a.def.synced[li] {
		a.stateLength(lj, st)
		a.emit(lj, s, st, we, wr)
	}
}

// sortEvents puts the tick's events in layer order (a synced layer's are
// collected with its source's), keeping each layer's order.
func (a *Animator) sortEvents() {
	ev := a.events
	for i := 1; i < len(ev); i++ {
		for j := i; j > 0 && ev[j].Layer < ev[j-1].Layer; j-- {
			ev[j], ev[j-1] = ev[j-1], ev[j]
		}
	}
}

// emit collects the events (at state weight we) and root motion (at
// state weight wr) of the leaves in a.leaves for slot s's advance from
// s.prev to s.nt.
func (a *Animator) emit(li int, s *slot, st *model.State, we, wr float32) {
	if !(we > 0) && !(wr > 0) {
		return
	}
	l := &a.layers[li]
	nodes := a.def.nodes(li, st)
	cyc := a.cycleOffset(st)
	mirror := a.mirrored(st)
	for _, lw := range a.leaves {
		c := a.def.clip(lw.Clip)
		n := c.Length
		if n <= 0 || lw.Clip < 0 {
			continue
		}
		off := float64(cyc + nodes[lw.Node].CycleOffset)
		u0, u1 := s.prev+off, s.nt+off
		if ev := c.Events; len(ev) > 0 && we > 0 && lw.Weight > 0 {
			a.collect(li, int(s.state), lw.Clip, lw.Weight*we, l.weight, ev, float64(n), c.Loop, u0, u1, s.first)
		}
		if weight := lw.Weight * wr * a.def.rootWeight(li, lw.Clip); c.Motion != nil && weight > 0 && u1 != u0 {
			t0, t1, loops := clipSpan(u0, u1, float64(n), c.Loop)
			m := c.Motion.ExtractRootMotion(t0, t1, loops)
			dt, dq := m.T, m.R
			if mirror != nodes[lw.Node].Mirror && c.Root.Body {
				// Mirrored left for right: across the character's sagittal
				// (y-z) plane, as its pose is. Unity mirrors humanoid
				// states only; a generic clip plays unmirrored.
				dt.X = -dt.X
				dq.Y, dq.Z = -dq.Y, -dq.Z
			}
			l.rootT = l.rootT.Add(dt.Scale(weight))
			if dq.W < 0 {
				dq = dq.Neg()
			}
			l.rootQ = geom.Quat{X: l.rootQ.X + dq.X*weight, Y: l.rootQ.Y + dq.Y*weight, Z: l.rootQ.Z + dq.Z*weight, W: l.rootQ.W + dq.W*weight}
			l.rootW += weight
		}
	}
}

// clipSpan maps normalised times (offset included) to clip seconds and the
// whole loops between them.
func clipSpan(u0, u1, n float64, loop bool) (t0, t1 float32, loops int) {
	if !loop {
		return float32(clampf(u0, 0, 1) * n), float32(clampf(u1, 0, 1) * n), 0
	}
	k0, k1 := math.Floor(u0), math.Floor(u1)
	return float32((u0 - k0) * n), float32((u1 - k1) * n), int(k1 - k0)
}

func clampf(x, lo, hi float64) float64 {
	if x < lo {
		return lo
	}
	if x > hi {
		return hi
	}
	return x
}

// maxEventLoops bounds the loops of one clip scanned for events in a tick.
const maxEventLoops = 4

// maxEventTime bounds the normalised times events are looked for at: past
// it a float32 time no longer resolves a loop.
const maxEventTime = 1 << 22

// collect appends the events of a clip of length n crossed going from
// normalised time u0 to u1 (see crossings).
func (a *Animator) collect(li, state, clip int, w, lw float32, ev []model.Event, n float64, loop bool, u0, u1 float64, fresh bool) {
	crossings(ev, n, loop, u0, u1, fresh, func(e *model.Event) {
		a.events = append(a.events, Event{Layer: li, State: state, Clip: clip, Weight: w, LayerWeight: lw, Event: e})
	})
}

// crossings calls add for each event of a clip of length n seconds crossed
// going from normalised time u0 to u1 (either direction): those after the
// start (or at it, for a state just entered) up to and including the end. A
// clamped clip's times stop at its ends; a looping clip's event at its
// length counts as at 0, and at most maxEventLoops loops are scanned.
func crossings(ev []model.Event, n float64, loop bool, u0, u1 float64, fresh bool, add func(*model.Event)) {
	if u1 < u0 {
		u0, u1 = u1, u0
	}
	if !loop {
		x0, x1 := clampf(u0, 0, 1)*n, clampf(u1, 0, 1)*n
		for i := range ev {
			t := float64(ev[i].Time)
			if (t > x0 || fresh && t >= x0) && t <= x1 {
				add(&ev[i])
			}
		}
		return
	}
	if !(u0 > -maxEventTime && u1 < maxEventTime) {
		return // times beyond float precision (or not finite) cross nothing
	}
	a0, a1 := u0*n, u1*n
	k0, k1 := math.Floor(u0), math.Floor(u1)
	if k1-k0 > maxEventLoops {
		k0 = k1 - maxEventLoops
	}
	for i := 0; i <= int(k1-k0); i++ {
		k := k0 + float64(i)
		// Events at the end of the previous cycle come first, then this
		// cycle's in time order.
		for pass := 0; pass < 2; pass++ {
			for i := range ev {
				t := float64(ev[i].Time)
				if end := t >= n; end != (pass == 0) {
					continue
				} else if end {
					t = 0
				}
				if t < 0 {
					continue
				}
				// An end event never fires as a state starts: the cycle it
				// ends has not played.
				x := k*n + t
				if (x > a0 || fresh && pass == 1 && x >= a0) && x <= a1 {
					add(&ev[i])
				}
			}
		}
	}
}

// combineRoot blends the layers' root motion bottom-up: an override layer
// replaces what is below by its weight times the share of it its clips
// that move the root cover (so a layer whose clips do not move the root,
// or whose mask leaves the root out, keeps the motion below), an additive
// layer adds to it.
func (a *Animator) combineRoot() {
	t, r := geom.Vec3{}, geom.Quat{W: 1}
	for li := range a.layers {
		l := &a.layers[li]
		if !(l.rootW > 0) {
			continue
		}
		cover, m := l.rootW, l.rootT
		if cover > 1 {
			m, cover = m.Scale(1/cover), 1
		}
		q := l.rootQ.Normalize()
		w := l.weight
		if a.def.c.Layers[li].Blending == model.BlendAdditive {
			t = t.Add(m.Scale(w))
			r = r.Mul(geom.Quat{W: 1}.Nlerp(q, w*cover)).Normalize()
		} else {
			t = t.Scale(1 - w*cover).Add(m.Scale(w))
			r = r.Nlerp(q, w*cover)
		}
	}
	a.rootT, a.rootR = t, r
}

// exitCrossed reports whether normalised time crossed exit time e in the
// last advance of s: once when e is 1 or more, on every loop when it is
// below 1. The time a state was entered at is not crossed by its first
// advance: Unity documents that a state needs one evaluation before an
// exit time can fire, so an exit time of 0 never fires on the first frame
// (it fires at the next loop).
func exitCrossed(s *slot, e float32) bool {
	p, c := s.prev, s.nt
	if c < p {
		return false
	}
	x := float64(e)
	if e < 1 {
		k := math.Floor(c - x)
		if k < 0 {
			return false
		}
		x += k
	}
	return x > p && x <= c
}

// cond evaluates one condition against the parameters (exit-time conditions
// against slot s).
func (a *Animator) cond(c *model.Condition, s *slot) bool {
	var v float64
	if c.Param >= 0 {
		v = a.params[c.Param]
	}
	th := float64(c.Threshold)
	switch c.Mode {
	case model.CondIf:
		return v != 0
	case model.CondIfNot:
		return v == 0
	case model.CondGreater:
		return v > th
	case model.CondLess:
		return v < th
	case model.CondEquals:
		return v == th
	case model.CondNotEqual:
		return v != th
	case model.CondExitTime:
		return s != nil && exitCrossed(s, c.ExitTime)
	}
	return false
}

func (a *Animator) conds(cs []model.Condition, s *slot) bool {
	for i := range cs {
		if !a.cond(&cs[i], s) {
			return false
		}
	}
	return true
}

func (a *Animator) consume(cs []model.Condition) {
	for i := range cs {
		if p := cs[i].Param; p >= 0 && a.def.c.Parameters[p].Type == model.ParamTrigger {
			a.consumed[p] = true
		}
	}
}

// resolve follows a destination through selector nodes to a state (-1 for
// none), consuming the triggers of selector transitions taken if consume.
func (a *Animator) resolve(m *model.StateMachine, dst uint32, consume bool, depth int) int {
	switch {
	case dst == model.NoDestination:
		return -1
	case dst < model.SelectorBase:
		return int(dst)
	case depth > maxSelectorDepth:
		return -1
	}
	sel := &m.Selectors[dst-model.SelectorBase]
	for i := range sel.Transitions {
		t := &sel.Transitions[i]
		if a.conds(t.Conditions, nil) {
			if consume {
				a.consume(t.Conditions)
			}
			return a.resolve(m, t.Destination, consume, depth+1)
		}
	}
	if len(m.States) == 0 {
		return -1
	}
	return m.DefaultState
}

// ready reports whether transition t may fire with its exit time measured
// on slot s.
func (a *Animator) ready(t *model.Transition, s *slot) bool {
	if len(t.Conditions) == 0 && !t.HasExitTime {
		return false // Unity ignores a transition with neither
	}
	if t.HasExitTime && !exitCrossed(s, t.ExitTime) {
		return false
	}
	return a.conds(t.Conditions, s)
}

// evaluate fires at most one transition of layer li: any-state transitions
// first, then the current state's (or, during a transition, those its
// interruption source allows).
func (a *Animator) evaluate(li int) {
	l := &a.layers[li]
	m := a.machine(li)
	target := l.cur.state
	if l.inTrans {
		target = l.next.state
	}
	for ti := range m.AnyState {
		t := &m.AnyState[ti]
		if !a.ready(t, &l.cur) {
			continue
		}
		if !t.CanTransitionToSelf && a.resolve(m, t.Destination, false, 0) == int(target) {
			continue
		}
		if a.fire(li, t, transRef{from: -1, index: int32(ti)}, false) {
			return
		}
	}
	if !l.inTrans {
		a.tryState(li, l.cur.state, &l.cur, -1, false)
		return
	}
	if l.trans.from == crossFade {
		return // a scripted cross-fade yields only to any-state transitions
	}
	active := a.transition(li, l.trans)
	src := func() bool {
		limit := int32(-1)
		if active.OrderedInterruption && l.trans.from == l.cur.state {
			limit = l.trans.index
		}
		return a.tryState(li, l.cur.state, &l.cur, limit, false)
	}
	dst := func() bool { return a.tryState(li, l.next.state, &l.next, -1, true) }
	switch active.Interruption {
	case model.InterruptSource:
		src()
	case model.InterruptDestination:
		dst()
	case model.InterruptSourceThenDestination:
		_ = src() || dst()
	case model.InterruptDestinationThenSource:
		_ = dst() || src()
	}
}

// tryState fires the first ready transition of state si (only those before
// index limit when limit ≥ 0, and never the running one).
func (a *Animator) tryState(li int, si int32, s *slot, limit int32, fromNext bool) bool {
	if si < 0 {
		return false
	}
	l := &a.layers[li]
	ts := a.machine(li).States[si].Transitions
	for ti := range ts {
		if limit >= 0 && int32(ti) >= limit {
			break
		}
		if l.inTrans && l.trans.from == si && int(l.trans.index) == ti && !fromNext {
			continue
		}
		if a.ready(&ts[ti], s) && a.fire(li, &ts[ti], transRef{from: si, index: int32(ti)}, fromNext) {
			return true
		}
	}
	return false
}

// fire starts transition t (resolving its destination); during a running
// transition the current blend is frozen as the new source. fromNext says
// the transition belongs to the running transition's destination, which
// then becomes the current state.
func (a *Animator) fire(li int, t *model.Transition, ref transRef, fromNext bool) bool {
	l := &a.layers[li]
	m := a.machine(li)
	dest := a.resolve(m, t.Destination, true, 0)
	if dest < 0 {
		return false
	}
	a.consume(t.Conditions)
	if l.inTrans {
		a.freeze(l)
		if fromNext {
			l.cur = l.next
		}
	}
	l.next = slot{state: int32(dest), nt: float64(t.Offset), prev: float64(t.Offset), fresh: true}
	l.inTrans, l.progress, l.trans = true, 0, ref
	if t.Duration <= 0 {
		a.complete(l)
	}
	return true
}

// freeze turns the running transition's blend into a static source pose.
func (a *Animator) freeze(l *layerState) {
	w := clamp01(l.progress)
	if !l.srcFrozen {
		l.frozen[0] = frozenSlot{state: l.cur.state, nt: l.cur.nt, w: 1}
		l.nFrozen = 1
	}
	for i := 0; i < int(l.nFrozen); i++ {
		l.frozen[i].w *= 1 - w
	}
	add := frozenSlot{state: l.next.state, nt: l.next.nt, w: w}
	if int(l.nFrozen) < maxFrozen {
		l.frozen[l.nFrozen] = add
		l.nFrozen++
	} else {
		// Replace the lightest and renormalise.
		min := 0
		for i := 1; i < maxFrozen; i++ {
			if l.frozen[i].w < l.frozen[min].w {
				min = i
			}
		}
		l.frozen[min] = add
		var sum float32
		for i := range l.frozen {
			sum += l.frozen[i].w
		}
		if sum > 0 {
			for i := range l.frozen {
				l.frozen[i].w /= sum
			}
		}
	}
	l.srcFrozen = true
}

// Contribution is one clip playing in a layer: the controller clip index,
// the clip time in seconds, its weight in the layer (blend weight times the
// state's share of the transition) and whether it plays mirrored.
type Contribution struct {
	Clip   int
	Time   float32
	Weight float32
	Mirror bool
	// WriteDefaults is the state's Write Defaults setting: the clip also
	// stands for the default values of what other clips of the controller
	// animate and it does not.
	WriteDefaults bool
}

// Contributions appends to dst[:0] the clips layer li plays now (frozen
// poses of interrupted transitions included) and returns it; with a
// preallocated dst it does not allocate.
func (a *Animator) Contributions(li int, dst []Contribution) []Contribution {
	dst = dst[:0]
	if li < 0 || li >= len(a.layers) {
		return dst
	}
	l := &a.layers[li]
	if l.cur.state < 0 {
		return dst
	}
	if !l.inTrans {
		return a.contrib(li, l.cur.state, l.cur.nt, 1, dst)
	}
	w := clamp01(l.progress)
	if l.srcFrozen {
		for i := 0; i < int(l.nFrozen); i++ {
			f := &l.frozen[i]
			dst = a.contrib(li, f.state, f.nt, f.w*(1-w), dst)
		}
	} else {
		dst = a.contrib(li, l.cur.state, l.cur.nt, 1-w, dst)
	}
	return a.contrib(li, l.next.state, l.next.nt, w, dst)
}

// mirrored reports whether state st plays mirrored now (its Mirror
// setting, or its mirror parameter).
func (a *Animator) mirrored(st *model.State) bool {
	if st.MirrorParam >= 0 {
		return a.params[st.MirrorParam] != 0
	}
	return st.Mirror
}

func (a *Animator) contrib(li int, si int32, nt float64, w float32, dst []Contribution) []Contribution {
	if w <= 0 || si < 0 {
		return dst
	}
	st := &a.machine(li).States[si]
	a.stateLength(li, st)
	nodes := a.def.nodes(li, st)
	mirror := a.mirrored(st)
	cyc := a.cycleOffset(st)
	for _, lw := range a.leaves {
		c := a.def.clip(lw.Clip)
		n := c.Length
		if lw.Clip < 0 {
			continue
		}
		u := nt + float64(cyc+nodes[lw.Node].CycleOffset)
		var t float64
		if c.Loop {
			t = (u - math.Floor(u)) * float64(n)
		} else {
			t = clampf(u, 0, 1) * float64(n)
		}
		dst = append(dst, Contribution{Clip: lw.Clip, Time: float32(t), Weight: lw.Weight * w, Mirror: mirror != nodes[lw.Node].Mirror,
			WriteDefaults: st.WriteDefaults})
	}
	return dst
}

// StateBytes returns the bytes this instance holds beyond the shared
// definition: its struct and the backing arrays of its slices.
func (a *Animator) StateBytes() int {
	return int(unsafe.Sizeof(*a)) + cap(a.params)*8 + cap(a.consumed) +
		cap(a.layers)*int(unsafe.Sizeof(layerState{})) +
		cap(a.leaves)*int(unsafe.Sizeof(LeafWeight{})) + cap(a.events)*int(unsafe.Sizeof(Event{}))
}

// Play jumps layer li to state s at normalised time nt, dropping any running
// transition, as Animator.Play does. It reports whether li and s name a
// layer that runs its own machine and a state of it.
func (a *Animator) Play(li, s int, nt float32) bool {
	if !a.ownState(li, s) {
		return false
	}
	l := &a.layers[li]
	a.complete(l)
	l.cur = slot{state: int32(s), nt: float64(nt), prev: float64(nt), fresh: true}
	return true
}

// CrossFade starts a transition of layer li to state s over duration
// seconds, the destination starting at normalised time offset, as
// Animator.CrossFadeInFixedTime does; a running transition is frozen as its
// source. Only any-state transitions interrupt it.
func (a *Animator) CrossFade(li, s int, duration, offset float32) bool {
	if !a.ownState(li, s) {
		return false
	}
	l := &a.layers[li]
	if l.cur.state < 0 {
		return a.Play(li, s, offset)
	}
	if l.inTrans {
		a.freeze(l)
	}
	l.next = slot{state: int32(s), nt: float64(offset), prev: float64(offset), fresh: true}
	l.inTrans, l.progress, l.trans, l.fade = true, 0, transRef{from: crossFade}, duration
	if duration <= 0 {
		a.complete(l)
	}
	return true
}

func (a *Animator) ownState(li, s int) bool {
	if li < 0 || li >= len(a.layers) || a.def.c.Layers[li].SyncedLayer >= 0 {
		return false
	}
	return s >= 0 && s < len(a.machine(li).States)
}
