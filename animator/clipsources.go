package animator

import (
	"fmt"

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

// ClipLoops implements Clips: Loop Time only, as TableFromModel.
func (c AnimClips) ClipLoops(i int) bool {
	x := c.at(i)
	return x != nil && x.Settings().LoopTime
}

// ClipEvents implements Clips.
func (c AnimClips) ClipEvents(i int) []model.Event {
	if x := c.at(i); x != nil {
		return x.Events()
	}
	return nil
}

// ClipRootSource implements RootSourceClips: a clip moves the root when
// it animates (the translation or rotation of) its root joint, masked by
// that joint's path. A clip whose channels all hold still has no root
// joint (anim.RootRule); it holds the root still when it animates the
// shallowest root joint of the other clips, else it has no root motion.
// Unity takes a rig's root motion from one joint for every clip: root all
// the clips at it (WithRoot), or each clip picks its own.
func (c AnimClips) ClipRootSource(i int) RootSource {
	x := c.at(i)
	if x == nil {
		return RootSource{}
	}
	j := x.RootJoint()
	if j < 0 {
		j = c.sharedRoot(x.Skeleton())
	}
	if j < 0 || x.Animates(j)&(anim.PropT|anim.PropR) == 0 {
		return RootSource{}
	}
	return RootSource{Moves: true, Masked: true, PathHash: model.PathHash(x.Skeleton().Paths[j])}
}

// sharedRoot is the shallowest root joint (then the lowest index) of the
// clips baked on s, or -1.
func (c AnimClips) sharedRoot(s *anim.Skeleton) int {
	depth := func(j int) int {
		d := 0
		for p := s.Parents[j]; p >= 0 && d <= len(s.Parents); p = s.Parents[p] {
			d++
		}
		return d
	}
	best, bestDepth := -1, 0
	for _, y := range c {
		if y == nil || y.Skeleton() != s {
			continue
		}
		if j := y.RootJoint(); j >= 0 {
			if d := depth(j); best < 0 || d < bestDepth || d == bestDepth && j < best {
				best, bestDepth = j, d
			}
		}
	}
	return best
}

// WithRoot returns the clips re-rooted at joint j of their skeleton (see
// anim.Clip.WithRoot), so that all take root motion from one joint as an
// Animator does: its avatar's root motion bone, or its own transform (the
// skeleton root, path "").
func (c AnimClips) WithRoot(j int) (AnimClips, error) {
	out := make(AnimClips, len(c))
	for i, x := range c {
		if x == nil {
			continue
		}
		r, err := x.WithRoot(j)
		if err != nil {
			return nil, fmt.Errorf("animator: clip %d: %w", i, err)
		}
		out[i] = r
	}
	return out, nil
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

// ClipLoops implements Clips: Loop Time only, as TableFromModel.
func (c HumanoidClips) ClipLoops(i int) bool {
	x := c.at(i)
	return x != nil && x.Base().Settings().LoopTime
}

// ClipEvents implements Clips.
func (c HumanoidClips) ClipEvents(i int) []model.Event {
	if x := c.at(i); x != nil {
		return x.Base().Events()
	}
	return nil
}

// ClipRootSource implements RootSourceClips: a humanoid clip moves the
// root (its body) when it has RootT or RootQ curves; body motion is not
// weighed by skeleton masks but taken only by layers whose body mask has
// the Root part.
func (c HumanoidClips) ClipRootSource(i int) RootSource {
	x := c.at(i)
	if x == nil {
		return RootSource{}
	}
	for _, t := range x.Base().FloatTargets() {
		if t.ClassID == model.ClassAnimator && t.Path == "" &&
			t.Attribute >= model.FirstRootAttribute && t.Attribute < model.FirstRootAttribute+7 {
			return RootSource{Moves: true, Body: true}
		}
	}
	return RootSource{}
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
