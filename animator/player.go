package animator

import (
	"math"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
)

// Extrapolation is how a Player treats a clip played past its end (a
// per-clip setting of code-driven playback).
type Extrapolation uint8

// Extrapolation modes.
const (
	// ExtrapolateNone follows the clip's own looping (Loop Time or a Loop
	// wrap mode): a looping clip wraps, any other holds its last frame.
	ExtrapolateNone Extrapolation = iota
	// ExtrapolateHold holds the last frame, even for a looping clip.
	ExtrapolateHold
	// ExtrapolateContinuous keeps every joint moving past the end at the
	// velocity of the last two frames: position by linear velocity, rotation
	// by angular velocity (the rotation between the last two frames, applied
	// once per frame time). A clip shorter than a frame moves at the
	// velocity between its start and its end.
	ExtrapolateContinuous
)

// PlayerClip is a clip with the settings a Player plays it by. It is not
// modified by playing and may be shared by many players.
type PlayerClip struct {
	Clip *anim.Clip
	// Speed scales playback (0 plays at 1×); see SpeedForTicks.
	Speed         float32
	Extrapolation Extrapolation
	// FrameRate, when positive, replaces the clip's baked frame rate: its
	// frames play at this rate, so time runs FrameRate/SampleRate as fast.
	FrameRate float32
}

// SpeedForTicks is the speed that makes a clip of frameCount frames finish
// in durationTicks simulation ticks: frameCount / durationTicks (frames and
// ticks counted at the same rate). It returns 1 when durationTicks is not
// positive.
func SpeedForTicks(frameCount, durationTicks int) float32 {
	if durationTicks <= 0 || frameCount <= 0 {
		return 1
	}
	return float32(frameCount) / float32(durationTicks)
}

// timeScale is how many clip seconds one second of playback covers.
func (c *PlayerClip) timeScale() float32 {
	s := c.Speed
	if s == 0 {
		s = 1
	}
	if r := c.Clip.SampleRate(); c.FrameRate > 0 && r > 0 {
		s *= c.FrameRate / r
	}
	return s
}

// loops reports whether the clip wraps under ExtrapolateNone: its Loop
// Time setting, or a Loop wrap mode. The game-playback spec says nothing of
// looping; a Player stands for code playing clips directly, where a legacy
// clip's wrap mode is what loops it (a Mecanim clip's is normally Default,
// and the Animator's clip sources use Loop Time alone).
func (c *PlayerClip) loops() bool {
	return c.Clip.Settings().LoopTime || c.Clip.WrapMode() == model.WrapLoop
}

// frameTime is the clip time between two of its baked frames.
func (c *PlayerClip) frameTime() float32 {
	if r := c.Clip.SampleRate(); r > 0 {
		return 1 / r
	}
	return 1.0 / 60
}

// sampleTime maps an unwrapped playback time to the time to sample and how
// far past the end continuous extrapolation must carry it.
func (c *PlayerClip) sampleTime(t float32) (at, extra float32) {
	d := c.Clip.Duration()
	switch {
	case t <= 0:
		return 0, 0
	case t <= d:
		return t, 0
	case c.Extrapolation == ExtrapolateContinuous:
		return d, t - d
	case c.Extrapolation == ExtrapolateNone && c.loops():
		return float32(math.Mod(float64(t), float64(d))), 0
	}
	return d, 0
}

// maxPlayerStates bounds the states a Player blends (the newest plus those
// fading out); further fades drop the lightest.
const maxPlayerStates = 8

// PlayerState is one clip a Player is playing: its unwrapped playback time
// in clip seconds and its weight.
type PlayerState struct {
	Clip   *PlayerClip
	Time   float32
	Weight float32
	target float32
	speed  float32 // weight change per second
	prev   float32
	fresh  bool
}

// PlayerEvent is an animation event crossed during a Player tick.
type PlayerEvent struct {
	Clip   *PlayerClip
	Weight float32
	// Event is the event as authored, shared with the clip (do not modify).
	Event *model.Event
}

// Player plays clips directly, as game code drives an Animator without a
// controller: Play crossfades to a clip, Tick advances, Pose blends. All
// buffers are allocated by NewPlayer; Tick and Pose allocate nothing.
type Player struct {
	skel    *anim.Skeleton
	states  [maxPlayerStates]PlayerState
	n       int
	events  []PlayerEvent
	scratch [3][]geom.Transform
}

// NewPlayer returns a Player posing skeleton s (clips played must be baked
// against s).
func NewPlayer(s *anim.Skeleton) *Player {
	p := &Player{skel: s, events: make([]PlayerEvent, 0, 4)}
	for i := range p.scratch {
		p.scratch[i] = make([]geom.Transform, s.Len())
	}
	return p
}

// Play fades c in over fade seconds while every other clip fades out (each
// from its current weight); a fade of 0 cuts to c at once. A clip already
// playing (or fading out) keeps its time and fades back in from its weight;
// otherwise c starts from its beginning. See Restart.
func (p *Player) Play(c *PlayerClip, fade float32) {
	p.play(c, fade, false)
}

// Restart is Play that always starts c from its beginning: a copy of c
// still playing fades out with the others.
func (p *Player) Restart(c *PlayerClip, fade float32) {
	p.play(c, fade, true)
}

func (p *Player) play(c *PlayerClip, fade float32, restart bool) {
	if c == nil || c.Clip == nil {
		return
	}
	keep := -1
	if !restart {
		// The newest state of c, if any, carries on.
		for i := p.n - 1; i >= 0; i-- {
			if p.states[i].Clip == c {
				keep = i
				break
			}
		}
	}
	if fade <= 0 {
		if keep >= 0 {
			s := p.states[keep]
			s.Weight, s.target, s.speed = 1, 1, 0
			p.states[0], p.n = s, 1
			return
		}
		p.n = 0
	}
	for i := 0; i < p.n; i++ {
		s := &p.states[i]
		if i == keep {
			s.target, s.speed = 1, (1-s.Weight)/fade
			continue
		}
		s.target, s.speed = 0, s.Weight/fade
	}
	if keep >= 0 {
		// Move it last: the most recently played.
		s := p.states[keep]
		copy(p.states[keep:], p.states[keep+1:p.n])
		p.states[p.n-1] = s
		return
	}
	if p.n == maxPlayerStates {
		min := 0
		for i := 1; i < p.n; i++ {
			if p.states[i].Weight < p.states[min].Weight {
				min = i
			}
		}
		copy(p.states[min:], p.states[min+1:p.n])
		p.n--
	}
	s := PlayerState{Clip: c, target: 1, fresh: true}
	if fade <= 0 {
		s.Weight = 1
	} else {
		s.speed = 1 / fade
	}
	p.states[p.n] = s
	p.n++
}

// States returns the clips playing, oldest first (the last is the one
// played most recently).
func (p *Player) States() []PlayerState { return p.states[:p.n] }

// Events returns the events crossed in the last Tick.
func (p *Player) Events() []PlayerEvent { return p.events }

// Tick advances every playing clip by seconds (scaled by its speed and
// frame-rate override), moves the fades on, drops clips faded out, and
// collects the events crossed by clips with weight at the start or the end
// of the tick (PlayerEvent.Weight is the larger of the two).
func (p *Player) Tick(seconds float64) {
	dt := float32(seconds) // clip times are float32
	p.events = p.events[:0]
	k := 0
	for i := 0; i < p.n; i++ {
		s := p.states[i]
		s.prev = s.Time
		s.Time += dt * s.Clip.timeScale()
		w0 := s.Weight
		if s.Weight < s.target {
			s.Weight += s.speed * dt
			if s.Weight > s.target {
				s.Weight = s.target
			}
		} else if s.Weight > s.target {
			s.Weight -= s.speed * dt
			if s.Weight < s.target {
				s.Weight = s.target
			}
		}
		// Events fire at the larger of the weights at the tick's start and
		// end: a clip fading in fires its first tick's events, one fading
		// out its last tick's.
		if w := max(w0, s.Weight); w > 0 {
			p.collect(&s, w)
		}
		s.fresh = false
		if s.Weight <= 0 && s.target <= 0 {
			continue
		}
		p.states[k] = s
		k++
	}
	p.n = k
}

func (p *Player) collect(s *PlayerState, w float32) {
	ev := s.Clip.Clip.Events()
	if len(ev) == 0 {
		return
	}
	d := float64(s.Clip.Clip.Duration())
	loop := s.Clip.Extrapolation == ExtrapolateNone && s.Clip.loops()
	c := s.Clip
	crossings(ev, d, loop, float64(s.prev)/d, float64(s.Time)/d, s.fresh, func(e *model.Event) {
		p.events = append(p.events, PlayerEvent{Clip: c, Weight: w, Event: e})
	})
}

// Pose writes the blended local pose into dst (at least the skeleton's
// length): the playing clips weighted by their fades (normalised when they
// sum above 1; the rest pose fills a sum below 1).
func (p *Player) Pose(dst []geom.Transform) {
	n := p.skel.Len()
	dst = dst[:n]
	var total float32
	for i := 0; i < p.n; i++ {
		total += p.states[i].Weight
	}
	for j := range dst {
		dst[j] = geom.Transform{}
	}
	scale := float32(1)
	if total > 1 {
		scale = 1 / total
	}
	buf := p.scratch[0]
	for i := 0; i < p.n; i++ {
		s := &p.states[i]
		if s.Weight <= 0 {
			continue
		}
		p.sample(s, buf)
		accumulate(dst, buf, s.Weight*scale)
	}
	finish(dst, p.skel.Rest, 1-total*scale)
}

// sample writes state s's pose, extrapolated past the end if its clip
// says so.
func (p *Player) sample(s *PlayerState, dst []geom.Transform) {
	c := s.Clip
	at, extra := c.sampleTime(s.Time)
	c.Clip.Sample(at, dst)
	if extra <= 0 {
		return
	}
	// The velocity of the last frame: over the time actually between the
	// two samples (less than a frame for a clip shorter than one).
	prevAt := at - c.frameTime()
	if prevAt < 0 {
		prevAt = 0
	}
	span := at - prevAt
	if !(span > 0) {
		return // a single instant has no velocity: hold
	}
	prev := p.scratch[1]
	c.Clip.Sample(prevAt, prev)
	f := extra / span
	for j := range dst {
		d := &dst[j]
		d.T = d.T.Add(d.T.Sub(prev[j].T).Scale(f))
		step := d.R.Mul(prev[j].R.Conj())
		d.R = quatPow(step, f).Mul(d.R).Normalize()
	}
}

// quatPow returns rotation q applied f times (f may be fractional): the
// same axis, f times the angle, along the shorter arc.
func quatPow(q geom.Quat, f float32) geom.Quat {
	if q.W < 0 {
		q = q.Neg()
	}
	v := math.Sqrt(float64(q.X*q.X + q.Y*q.Y + q.Z*q.Z))
	if v < 1e-9 {
		return geom.Quat{W: 1}
	}
	angle := 2 * math.Atan2(v, float64(q.W))
	axis := geom.Vec3{X: float32(float64(q.X) / v), Y: float32(float64(q.Y) / v), Z: float32(float64(q.Z) / v)}
	return geom.AxisAngle(axis, float32(angle*float64(f)))
}

// accumulate adds w × src to dst: translations and scales linearly,
// rotations as sign-aligned quaternion sums (normalised by finish).
func accumulate(dst, src []geom.Transform, w float32) {
	for j := range dst {
		d, s := &dst[j], &src[j]
		d.T = d.T.Add(s.T.Scale(w))
		d.S = d.S.Add(s.S.Scale(w))
		q := s.R
		if d.R.Dot(q) < 0 {
			q = q.Neg()
		}
		d.R = geom.Quat{X: d.R.X + q.X*w, Y: d.R.Y + q.Y*w, Z: d.R.Z + q.Z*w, W: d.R.W + q.W*w}
	}
}

// finish adds the rest pose at weight rest (when positive) and normalises
// the rotations.
func finish(dst, restPose []geom.Transform, rest float32) {
	if rest > 1e-6 {
		accumulate(dst, restPose, rest)
	}
	for j := range dst {
		if r := dst[j].R; r.Dot(r) > 0 {
			dst[j].R = r.Normalize()
		} else {
			dst[j].R = geom.Quat{W: 1}
		}
	}
}
