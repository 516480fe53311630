package anim

import (
	"math"

	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
)

// Advance moves a playback time t by delta seconds (negative plays
// backwards) over a clip of the given length and says how the ends were
// dealt with:
//
//   - WrapLoop: the time wraps into [0, length); loops counts the wraps,
//     positive going forward past the end, negative going backward past 0.
//   - WrapPingPong: the time is a phase in [0, 2·length): it runs forward
//     through the clip and back again (sample it at PingPongTime); loops
//     counts whole there-and-back periods, signed as for WrapLoop.
//   - WrapOnce, WrapClampForever and WrapDefault (which Unity plays as
//     Once): the time is clamped into [0, length] and loops is 0. Whether
//     playback stops at the end (Once) or holds the last pose forever
//     (ClampForever) is the player's choice; the time is the same.
//
// A length that is not positive (or NaN) gives 0, 0. Arithmetic is in
// float64, so long playback does not drift.
func Advance(t, delta, length float32, mode model.WrapMode) (newT float32, loops int) {
	if !(length > 0) || math.IsInf(float64(length), 0) {
		return 0, 0
	}
	x := float64(t) + float64(delta)
	if math.IsNaN(x) {
		return 0, 0
	}
	l := float64(length)
	switch mode {
	case model.WrapLoop:
		return wrapPeriod(x, l, length)
	case model.WrapPingPong:
		return wrapPeriod(x, 2*l, 2*length)
	}
	if x < 0 {
		return 0, 0
	}
	if x > l {
		return length, 0
	}
	return float32(x), 0
}

// wrapPeriod reduces x into [0, p) and counts the periods crossed.
func wrapPeriod(x, p float64, p32 float32) (float32, int) {
	if math.IsInf(x, 0) {
		return 0, 0
	}
	n := math.Floor(x / p)
	r := x - n*p
	if r < 0 {
		r = 0
	}
	if r >= p {
		r -= p
		n++
	}
	out := float32(r)
	if out >= p32 { // rounding to float32 reached the period's end
		out = 0
		n++
	}
	if n > math.MaxInt32 {
		n = math.MaxInt32
	} else if n < math.MinInt32 {
		n = math.MinInt32
	}
	return out, int(n)
}

// PingPongTime folds a ping-pong phase (Advance's time for WrapPingPong,
// in [0, 2·length)) into the clip time to sample: forward through the
// first half, backward through the second.
func PingPongTime(phase, length float32) float32 {
	if phase > length {
		phase = 2*length - phase
	}
	if phase < 0 {
		return 0
	}
	return phase
}

// Advance is the package Advance over the clip's Duration. WrapDefault
// takes the clip's own wrap mode (see Mode).
func (c *Clip) Advance(t, delta float32, mode model.WrapMode) (float32, int) {
	return Advance(t, delta, c.duration, c.Mode(mode))
}

// Mode resolves a wrap mode for this clip: WrapDefault becomes the clip's
// own wrap mode, and when that is also default the clip loops if its
// settings say LoopTime (Mecanim clips), else it plays once.
func (c *Clip) Mode(mode model.WrapMode) model.WrapMode {
	if mode != model.WrapDefault {
		return mode
	}
	if c.wrap != model.WrapDefault {
		return c.wrap
	}
	if c.settings.LoopTime {
		return model.WrapLoop
	}
	return model.WrapOnce
}

// SampleTime is the clip time to sample for a playback time Advance
// returned in the given mode: the folded phase for ping-pong, the time
// itself otherwise.
func (c *Clip) SampleTime(t float32, mode model.WrapMode) float32 {
	if c.Mode(mode) == model.WrapPingPong {
		return PingPongTime(t, c.duration)
	}
	return t
}

// Step advances playback time t by delta in any wrap mode (as Advance) and
// reports the events crossed, in playback order, to sink (which may be
// nil). For loop, once and clamp modes it is Advance then CollectEvents.
// For ping-pong, t and the result are phases (sample them at SampleTime)
// and each leg reports the events from where it starts (inclusive) to
// where it ends (exclusive) in its direction of travel, so an event at a
// turning point is reported once, by the leg leaving it, and one at 0 is
// reported when playback starts there.
func (c *Clip) Step(t, delta float32, mode model.WrapMode, sink func(model.Event)) (float32, int) {
	mode = c.Mode(mode)
	nt, loops := Advance(t, delta, c.duration, mode)
	if sink == nil {
		return nt, loops
	}
	switch mode {
	case model.WrapLoop:
		c.CollectEvents(t, nt, loops, sink)
	case model.WrapPingPong:
		c.pingPongLegs(t, delta, func(a, b float32) {
			if a <= b {
				c.forward(a, b, false, sink)
			} else {
				c.backward(a, b, false, sink)
			}
		})
	default:
		c.CollectEvents(t, nt, 0, sink)
	}
	return nt, loops
}

// StepRootMotion is how the root joint moves while Step advances t by
// delta in the given mode: across whole loops for WrapLoop, leg by leg for
// ping-pong (the backward legs play the motion in reverse), up to the
// clamped end for once and clamp modes.
func (c *Clip) StepRootMotion(t, delta float32, mode model.WrapMode) RootMotion {
	if !c.movesRoot() {
		return noMotion
	}
	mode = c.Mode(mode)
	nt, loops := Advance(t, delta, c.duration, mode)
	switch mode {
	case model.WrapLoop:
		return c.ExtractRootMotion(t, nt, loops)
	case model.WrapPingPong:
		m := noMotion
		c.pingPongLegs(t, delta, func(a, b float32) { m = m.Then(c.rootDelta(a, b)) })
		return m
	}
	ct := t
	if !(ct > 0) {
		ct = 0
	} else if ct > c.duration {
		ct = c.duration
	}
	return c.rootDelta(ct, nt)
}

// maxLegs bounds the ping-pong legs one step walks (a step longer than
// that many clip lengths reports only the first legs).
const maxLegs = 1 << 16

// pingPongLegs calls leg with the clip times each ping-pong leg crossed by
// advancing phase t by delta starts and ends at, in order.
func (c *Clip) pingPongLegs(t, delta float32, leg func(a, b float32)) {
	l := float64(c.duration)
	x, _ := wrapPeriod(float64(t), 2*l, 2*c.duration)
	a := float64(x)
	b := a + float64(delta)
	if !geom.Finite64(b) {
		return
	}
	fold := func(x float64) float32 {
		r := math.Mod(x, 2*l)
		if r < 0 {
			r += 2 * l
		}
		if r > l {
			r = 2*l - r
		}
		return float32(r)
	}
	fa := PingPongTime(x, c.duration)
	for i := 0; i < maxLegs && a != b; i++ {
		var y float64
		if b > a { // the next turning point up, or b
			y = (math.Floor(a/l) + 1) * l
			if y <= a {
				y += l
			}
			y = math.Min(b, y)
		} else { // the next one down
			y = (math.Ceil(a/l) - 1) * l
			if y >= a {
				y -= l
			}
			y = math.Max(b, y)
		}
		fb := fold(y)
		// At a leg's end the turning point itself, exactly.
		if y != b {
			if int64(math.Round(y/l))%2 == 0 {
				fb = 0
			} else {
				fb = c.duration
			}
		}
		if fa != fb {
			leg(fa, fb)
		}
		a, fa = y, fb
	}
}

// RootMotion is a rigid motion of the root joint: T is the translation
// expressed in the root's frame at the start, R the rotation relative to
// the start orientation. A character whose world transform is (P, Q)
// moves to (P + Q·T, Q·R). Scale is ignored.
type RootMotion struct {
	T geom.Vec3
	R geom.Quat
}

// Then returns the motion of m followed by n.
func (m RootMotion) Then(n RootMotion) RootMotion {
	return RootMotion{T: m.T.Add(m.R.Rotate(n.T)), R: m.R.Mul(n.R).Normalize()}
}

// Inverse returns the motion that undoes m.
func (m RootMotion) Inverse() RootMotion {
	inv := m.R.Conj()
	return RootMotion{T: inv.Rotate(m.T).Scale(-1), R: inv}
}

var noMotion = RootMotion{R: geom.IdentityQuat}

func (m RootMotion) pow(n int) RootMotion {
	out := noMotion
	for b := m; n > 0; n >>= 1 {
		if n&1 != 0 {
			out = out.Then(b)
		}
		b = b.Then(b)
	}
	return out
}

// rootDelta is the root's motion from clip time a to b.
func (c *Clip) rootDelta(a, b float32) RootMotion {
	return MotionBetween(c.SampleRoot(a), c.SampleRoot(b))
}

// ExtractRootMotion returns how the root joint moved between clip times
// from and to, across loops whole wraps (as Advance with WrapLoop reports
// them): loops > 0 plays forward from `from` to the end, loops-1 whole
// cycles, then from 0 to `to`; loops < 0 plays backward from `from` to 0,
// -loops-1 whole cycles backward, then from the end down to `to`. The root
// is the one SampleRoot gives (RootT and RootQ curves, else the root
// joint); with neither it is no motion.
func (c *Clip) ExtractRootMotion(from, to float32, loops int) RootMotion {
	if !c.movesRoot() {
		return noMotion
	}
	return LoopMotion(c.rootDelta, c.duration, from, to, loops)
}

// LoopMotion composes the motion of a clip of the given duration played
// from clip time from to to across loops whole wraps (the convention of
// Clip.ExtractRootMotion), from delta, the motion between two clip times
// within one loop. Every kind of clip that moves a root (generic clips,
// humanoid bodies) counts loops this one way.
func LoopMotion(delta func(a, b float32) RootMotion, duration, from, to float32, loops int) RootMotion {
	d := duration
	switch {
	case loops > 0:
		return delta(from, d).Then(delta(0, d).pow(loops - 1)).Then(delta(0, to))
	case loops < 0:
		return delta(from, 0).Then(delta(d, 0).pow(-loops - 1)).Then(delta(d, to))
	}
	return delta(from, to)
}

// MotionBetween is the motion that takes a root standing at a to standing
// at b: b's translation from a in a's frame, and b's rotation relative to
// a's.
func MotionBetween(a, b geom.Transform) RootMotion {
	inv := a.R.Normalize().Conj()
	return RootMotion{T: inv.Rotate(b.T.Sub(a.T)), R: inv.Mul(b.R).Normalize()}
}

// CollectEvents reports, in playback order, the events crossed by playing
// from clip time `from` to `to` across loops wraps (as Advance with
// WrapLoop reports them; loops > 0 or loops == 0 and to >= from is forward,
// otherwise backward).
//
// Intervals are half-open so that consecutive steps report each event
// once: a forward step reports events at from <= time < to, a backward
// step events at to < time <= from. An event exactly at the clip's end is
// reported by the forward step that reaches the end (or wraps past it),
// and one exactly at 0 by the backward step that reaches 0; an empty step
// reports nothing. Within one wrap of a loop an event at 0 and one at the
// end are both reported, once each per cycle.
func (c *Clip) CollectEvents(from, to float32, loops int, sink func(model.Event)) {
	d := c.duration
	switch {
	case loops > 0:
		c.forward(from, d, true, sink)
		for i := 1; i < loops; i++ {
			c.forward(0, d, true, sink)
		}
		c.forward(0, to, to >= d, sink)
	case loops < 0:
		c.backward(from, 0, true, sink)
		for i := 1; i < -loops; i++ {
			c.backward(d, 0, true, sink)
		}
		c.backward(d, to, to <= 0, sink)
	case to >= from:
		c.forward(from, to, to >= d, sink)
	default:
		c.backward(from, to, to <= 0, sink)
	}
}

// forward reports events at a <= time < b (time <= b when incl), none when
// the interval is empty.
func (c *Clip) forward(a, b float32, incl bool, sink func(model.Event)) {
	if !(a < b) {
		return
	}
	ev := c.events
	i := searchEvents(ev, a) // first event with Time >= a
	for ; i < len(ev) && (ev[i].Time < b || incl && ev[i].Time == b); i++ {
		sink(ev[i])
	}
}

// backward reports events at b < time <= a (time >= b when incl), latest
// first, none when the interval is empty.
func (c *Clip) backward(a, b float32, incl bool, sink func(model.Event)) {
	if !(b < a) {
		return
	}
	ev := c.events
	i := searchEvents(ev, a) // first event with Time >= a
	for i < len(ev) && ev[i].Time == a {
		i++
	}
	for i--; i >= 0 && (ev[i].Time > b || incl && ev[i].Time == b); i-- {
		sink(ev[i])
	}
}

func searchEvents(ev []model.Event, t float32) int {
	lo, hi := 0, len(ev)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if ev[m].Time < t {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}
