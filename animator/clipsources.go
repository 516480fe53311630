package animator

import (
	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/humanoid"
	"github.com/mecanim/mecanim/model"
)

// AnimClips is RootMotionClips over baked clips parallel to
// Controller.Clips (nil for a null or missing slot): lengths, looping
// (Loop Time), events and root motion all come from the clips.
type AnimClips []*anim.Clip

func (c AnimClips) at(i int) *anim.Clip {
	if i < 0 || i >= len(c) {
		return nil
	}
	return c[i]
}

// ClipLength implements Clips.
func (c AnimClips) ClipLength(i int) float32 {
	if x := c.at(i); x != nil {
		return x.Duration()
	}
	return 0
}

// ClipLoops implements Clips.
func (c AnimClips) ClipLoops(i int) bool {
	x := c.at(i)
	return x != nil && (x.Settings().LoopTime || x.WrapMode() == model.WrapLoop)
}

// ClipEvents implements Clips.
func (c AnimClips) ClipEvents(i int) []model.Event {
	if x := c.at(i); x != nil {
		return x.Events()
	}
	return nil
}

// ClipRootMotion implements RootMotionClips with anim.Clip.ExtractRootMotion.
func (c AnimClips) ClipRootMotion(i int, from, to float32, loops int) (geom.Vec3, geom.Quat) {
	x := c.at(i)
	if x == nil {
		return geom.Vec3{}, geom.Quat{W: 1}
	}
	m := x.ExtractRootMotion(from, to, loops)
	return m.T, m.R
}

// HumanoidClips is RootMotionClips over humanoid clips parallel to
// Controller.Clips (nil for a null or missing slot). Root motion is the
// body's: how RootT and RootQ moved, in the body frame at the start.
type HumanoidClips []*humanoid.Clip

func (c HumanoidClips) at(i int) *humanoid.Clip {
	if i < 0 || i >= len(c) {
		return nil
	}
	return c[i]
}

// ClipLength implements Clips.
func (c HumanoidClips) ClipLength(i int) float32 {
	if x := c.at(i); x != nil {
		return x.Duration()
	}
	return 0
}

// ClipLoops implements Clips.
func (c HumanoidClips) ClipLoops(i int) bool {
	x := c.at(i)
	return x != nil && (x.Base().Settings().LoopTime || x.Base().WrapMode() == model.WrapLoop)
}

// ClipEvents implements Clips.
func (c HumanoidClips) ClipEvents(i int) []model.Event {
	if x := c.at(i); x != nil {
		return x.Base().Events()
	}
	return nil
}

// ClipRootMotion implements RootMotionClips: the body's motion from clip
// time from to to across loops whole cycles (forward when loops > 0,
// backward when loops < 0), as anim.Clip.ExtractRootMotion counts them.
func (c HumanoidClips) ClipRootMotion(i int, from, to float32, loops int) (geom.Vec3, geom.Quat) {
	x := c.at(i)
	if x == nil {
		return geom.Vec3{}, geom.Quat{W: 1}
	}
	d := x.Duration()
	var m anim.RootMotion
	switch {
	case loops > 0:
		m = bodyDelta(x, from, d).Then(motionPow(bodyDelta(x, 0, d), loops-1)).Then(bodyDelta(x, 0, to))
	case loops < 0:
		m = bodyDelta(x, from, 0).Then(motionPow(bodyDelta(x, d, 0), -loops-1)).Then(bodyDelta(x, d, to))
	default:
		m = bodyDelta(x, from, to)
	}
	return m.T, m.R
}

// bodyDelta is the body's motion from clip time a to b.
func bodyDelta(c *humanoid.Clip, a, b float32) anim.RootMotion {
	var pa, pb humanoid.Pose
	c.SamplePose(a, &pa)
	c.SamplePose(b, &pb)
	inv := pa.RootQ.Normalize().Conj()
	return anim.RootMotion{T: inv.Rotate(pb.RootT.Sub(pa.RootT)), R: inv.Mul(pb.RootQ).Normalize()}
}

// motionPow is m applied n times (n ≥ 0), by squaring.
func motionPow(m anim.RootMotion, n int) anim.RootMotion {
	out := anim.RootMotion{R: geom.Quat{W: 1}}
	for b := m; n > 0; n >>= 1 {
		if n&1 != 0 {
			out = out.Then(b)
		}
		b = b.Then(b)
	}
	return out
}
