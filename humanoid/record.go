package humanoid

import (
	"errors"
	"fmt"
	"math"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
)

// Limits of Record: the rate and the number of frames it writes.
const (
	MaxRecordRate   = 10000     // Hz
	MaxRecordFrames = 1_000_000 // frames per clip
)

// ErrRecord is wrapped by the errors Record and Retarget return for
// arguments they cannot record (nil source or rig, a bad rate, a source on
// another skeleton, a clip that is not humanoid).
var ErrRecord = errors.New("cannot record")

// Record turns poses of a humanoid rig's skeleton (Rig.Skeleton: an
// anim.Clip baked on it, a Clip baked on the same rig, or anything else
// that poses those joints) into a humanoid clip:
// it samples src every 1/rate seconds from 0 to its Duration (the last
// frame at Duration when that is not a whole number of frames), reads each
// pose back to muscles, RootT and RootQ with r.Extract, and writes them as
// dense curves of Animator bindings (class 95, path "", attribute
// model.FirstRootAttribute+k for RootT.xyz, RootQ.xyzw and each IK goal's T.xyz and Q.xyzw,
// model.FirstMuscleAttribute+m for muscle m), named as the editor names
// them. It is how a generic clip playing on a humanoid character becomes a
// humanoid clip that any humanoid avatar can play.
//
// Every one of the 95 muscles gets a curve, as Unity's HumanPoseHandler
// reads a pose: a muscle whose bone the avatar lacks is 0 throughout. An
// avatar built with translation DoF also gets a curve per component of
// each translation DoF (Pose.TDoF). RootQ
// keeps one hemisphere from frame to frame (each frame's quaternion is the
// one nearer the previous), so the dense curves interpolate the short way.
// The IK goals are recorded where each pose puts the hands and feet
// (Rig.Goals), as Unity's importer stores a clip's goals from its source
// skeleton; their rotations keep one hemisphere from frame to frame too.
//
// A rate of 0 takes the source's own sample rate when it has one
// (a SampleRate() float32 method, as anim.Clip has). The clip's WrapMode,
// Settings and Events are copied from the source when it has them (as
// anim.Clip has, or a Clip through its Base); otherwise they are zero.
// Transform curves of non-human bones and other float channels (blend
// shapes) of the source are not carried over, nor motion of the avatar root
// itself (the Animator's GameObject, path ""): poses are read in its frame,
// so the body's motion through the world must be on the hips or below.
//
// The source must pose r's avatar skeleton: when it says which skeleton it
// poses (a Skeleton() *anim.Skeleton method, or a Clip's Rig) that skeleton
// must have r.Len() joints.
func Record(src anim.Sampler, r *Rig, rate float32, name string) (*model.Clip, error) {
	if src == nil || r == nil {
		return nil, fmt.Errorf("humanoid: Record %q: %w: nil source or rig", name, ErrRecord)
	}
	base := baseOf(src)
	if rate == 0 && base != nil {
		rate = base.SampleRate()
	}
	if !(rate > 0) || rate > MaxRecordRate {
		return nil, fmt.Errorf("humanoid: Record %q on avatar %q: %w: rate %g Hz (want above 0, at most %d)", name, r.name, ErrRecord, rate, MaxRecordRate)
	}
	if n, ok := sourceJoints(src); ok && n != r.Len() {
		return nil, fmt.Errorf("humanoid: Record %q on avatar %q: %w: the source poses %d joints, the avatar skeleton has %d", name, r.name, ErrRecord, n, r.Len())
	}
	dur := src.Duration()
	if !(dur >= 0) || math.IsInf(float64(dur), 0) {
		return nil, fmt.Errorf("humanoid: Record %q on avatar %q: %w: duration %g s", name, r.name, ErrRecord, dur)
	}
	// Frames at i/rate up to the first at or past the end (a duration
	// within a thousandth of a frame of a whole number counts as whole).
	span := float64(dur) * float64(rate)
	if span > MaxRecordFrames-1 {
		return nil, fmt.Errorf("humanoid: Record %q on avatar %q: %w: %g s at %g Hz is more than %d frames", name, r.name, ErrRecord, dur, rate, MaxRecordFrames)
	}
	frames := int(math.Ceil(span-1e-3)) + 1
	if frames < 1 {
		frames = 1
	}

	c := &model.Clip{Name: name, Humanoid: true, SampleRate: rate, Start: 0, Stop: dur}
	if base != nil {
		c.WrapMode = base.WrapMode()
		c.Settings = base.Settings()
		c.Events = append([]model.Event(nil), base.Events()...)
	}
	// RootT.xyz, RootQ.xyzw, then each goal's T.xyz and Q.xyzw: the
	// attributes from FirstRootAttribute on; then the muscles.
	const roots = model.FirstMuscleAttribute - model.FirstRootAttribute
	n := roots + model.MuscleCount
	if r.followsTDoF() {
		n += 3 * model.TDoFCount
	}
	c.Curves = make([]model.Curve, n)
	for k := range c.Curves {
		attr := uint32(model.FirstRootAttribute + k)
		prop, _ := model.HumanAttributeName(attr)
		c.Curves[k] = model.Curve{
			Target: model.Target{ClassID: model.ClassAnimator, Attribute: attr, Property: prop, Path: "", PathKnown: true},
			Kind:   model.CurveDense, Samples: make([]float32, frames), DenseBegin: 0, DenseRate: rate,
		}
	}
	c.Stats.Dense = len(c.Curves)

	local := make([]geom.Transform, r.Len())
	var p Pose
	var goals [4]Goal
	var prev [5]geom.Quat // the body's and the goals' last rotations
	for i := 0; i < frames; i++ {
		t := float32(float64(i) / float64(rate))
		if t > dur {
			t = dur
		}
		copy(local, r.rest)
		src.Sample(t, local)
		r.Extract(local, &p)
		r.Goals(&p, &goals)
		for g := 0; g < 5; g++ {
			t, q := p.RootT, p.RootQ
			if g > 0 {
				t, q = goals[g-1].T, goals[g-1].Q
			}
			if i > 0 && q.Dot(prev[g]) < 0 {
				q = q.Neg()
			}
			prev[g] = q
			for k, x := range [7]float32{t.X, t.Y, t.Z, q.X, q.Y, q.Z, q.W} {
				c.Curves[7*g+k].Samples[i] = x
			}
		}
		for m := 0; m < model.MuscleCount; m++ {
			c.Curves[roots+m].Samples[i] = p.Muscles[m]
		}
		for k := roots + model.MuscleCount; k < len(c.Curves); k++ {
			j := k - roots - model.MuscleCount
			c.Curves[k].Samples[i] = comp(p.TDoF[j/3], j%3)
		}
	}
	return c, nil
}

// baseOf returns the baked clip behind a source, if it has one.
func baseOf(src anim.Sampler) *anim.Clip {
	switch s := src.(type) {
	case *anim.Clip:
		return s
	case *Clip:
		return s.base
	case interface{ Base() *anim.Clip }:
		return s.Base()
	}
	return nil
}

// sourceJoints returns how many joints a source poses, when it says.
func sourceJoints(src anim.Sampler) (int, bool) {
	switch s := src.(type) {
	case *Clip:
		return s.rig.Len(), true
	case *rigPoser:
		return s.to.Len(), true
	case interface{ Skeleton() *anim.Skeleton }:
		if sk := s.Skeleton(); sk != nil {
			return sk.Len(), true
		}
	}
	return 0, false
}

// rigPoser plays a humanoid clip baked on one rig as poses of another: the
// muscles and root sampled on the first (muscles of bones it lacks zeroed),
// applied to the second.
type rigPoser struct {
	c    *Clip
	to   *Rig
	mask [model.MuscleCount]bool // muscles the first rig has a bone for
}

func (s *rigPoser) Duration() float32 { return s.c.Duration() }

// Base gives Record the source clip's settings, events and rate.
func (s *rigPoser) Base() *anim.Clip { return s.c.base }

// Animates reports every joint as driven: the pose is the whole rig's.
func (s *rigPoser) Animates(int) anim.Props { return anim.PropT | anim.PropR | anim.PropS }

func (s *rigPoser) Sample(t float32, dst []geom.Transform) {
	var p Pose
	s.c.SamplePose(t, &p)
	for m, ok := range s.mask {
		if !ok {
			p.Muscles[m] = 0
		}
	}
	s.to.Apply(&p, dst)
}

// Retarget rewrites a humanoid clip for another avatar: the clip is played
// on from (its muscles and root as from's bones can take them), each pose is
// put on to through the muscles, and Record reads it back on to at rate
// (0: the clip's own sample rate). The result has dense curves of RootT,
// RootQ and the 95 muscles (0 for a muscle either avatar has no bone for)
// and the clip's settings and events.
//
// A humanoid clip needs no retargeting to play on another avatar: baking it
// on that avatar's Rig (Bake) already poses it there, since muscles and the
// root are avatar-independent. Retarget is for when the clip data itself
// should be what the avatars can show: resampled, muscles of missing bones
// zeroed, twist beyond a half turn wrapped, as a clip recorded on to would
// be. With from == to it normalises a clip for its own avatar.
func Retarget(c *model.Clip, from, to *Rig, rate float32) (*model.Clip, error) {
	if c == nil || from == nil || to == nil {
		return nil, fmt.Errorf("humanoid: Retarget: %w: nil clip or rig", ErrRecord)
	}
	if !c.Humanoid {
		return nil, fmt.Errorf("humanoid: Retarget: %w: clip %q is not humanoid", ErrRecord, c.Name)
	}
	hc, err := Bake(c, from)
	if err != nil {
		return nil, err
	}
	if rate == 0 {
		rate = c.SampleRate
	}
	src := &rigPoser{c: hc, to: to}
	for i := range from.nodes {
		for _, m := range from.nodes[i].muscle {
			if m >= 0 && from.nodes[i].axes >= 0 && i != from.hips {
				src.mask[m] = true
			}
		}
	}
	out, err := Record(src, to, rate, c.Name)
	if err != nil {
		return nil, err
	}
	out.AverageSpeed, out.AverageAngularSpeed = c.AverageSpeed, c.AverageAngularSpeed
	return out, nil
}
