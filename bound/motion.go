package bound

import (
	"errors"
	"fmt"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/animator"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/humanoid"
	"github.com/mecanim/mecanim/model"
)

// Motion is a clip bound to a character: sampling it writes every joint of
// the character's skeleton (a generic clip's curves, a humanoid clip's
// muscles through the avatar, the scene transforms where neither writes).
// It is immutable and safe for concurrent use.
type Motion struct {
	clip    *model.Clip
	src     model.Source
	on      *Character
	generic *anim.Clip
	human   *humanoid.Clip
	trace   int        // see TraceJoint
	from    *Character // see RetargetedFrom
}

// ErrNotHumanoid is wrapped when a humanoid clip is bound to a character
// without a humanoid avatar.
var ErrNotHumanoid = errors.New("no humanoid avatar")

// Bind bakes a clip onto a character: a generic clip over its skeleton, a
// humanoid clip through its humanoid avatar. Every clip takes root motion
// from the character's root motion joint, as one Animator does for all its
// clips (a generic clip with RootT and RootQ curves from those).
func Bind(c *model.Clip, src model.Source, on *Character) (*Motion, error) {
	if c == nil || on == nil {
		return nil, fmt.Errorf("bound: Bind: nil clip or character")
	}
	m := &Motion{clip: c, src: src, on: on}
	if c.Humanoid {
		if on.human == nil {
			why := "has no avatar"
			switch {
			case on.noAvatar != "":
				why = "has no avatar: " + on.noAvatar
			case on.avatar != nil:
				why = fmt.Sprintf("has the generic avatar %q", on.avatar.Name)
			}
			return nil, fmt.Errorf("clip %q (%s) is humanoid and %s %s: %w", c.Name, src, on.Describe(), why, ErrNotHumanoid)
		}
		h, err := humanoid.Bake(c, on.human)
		if err != nil {
			return nil, fmt.Errorf("clip %q (%s) on %s: %w", c.Name, src, on.Describe(), err)
		}
		m.human = h
		return m, nil
	}
	g, err := anim.Bake(c, on.skel)
	if err != nil {
		return nil, fmt.Errorf("clip %q (%s) on %s: %w", c.Name, src, on.Describe(), err)
	}
	m.trace = g.RootJoint()
	if m.generic, err = g.WithRoot(on.rootJoint); err != nil {
		return nil, err
	}
	return m, nil
}

// Clip returns the decoded clip. Shared: do not modify.
func (m *Motion) Clip() *model.Clip { return m.clip }

// Source returns where the clip was read.
func (m *Motion) Source() model.Source { return m.src }

// On returns the character the clip is bound to.
func (m *Motion) On() *Character { return m.on }

// Humanoid reports whether the clip plays through muscles.
func (m *Motion) Humanoid() bool { return m.human != nil }

// Generic returns the clip baked on the character's skeleton (nil for a
// humanoid clip).
func (m *Motion) Generic() *anim.Clip { return m.generic }

// HumanClip returns the humanoid clip baked on the character's humanoid
// rig (nil for a generic clip).
func (m *Motion) HumanClip() *humanoid.Clip { return m.human }

// Floats returns the baked clip whose float tracks (blend shapes,
// properties, the humanoid channels) the motion carries: the generic clip,
// or the humanoid clip's base.
func (m *Motion) Floats() *anim.Clip {
	if m.human != nil {
		return m.human.Base()
	}
	return m.generic
}

func (m *Motion) sampler() anim.Sampler {
	if m.human != nil {
		return m.human
	}
	return m.generic
}

// Duration returns how long the clip plays (never 0).
func (m *Motion) Duration() float32 { return m.sampler().Duration() }

// Sample writes the skeleton's local pose at clip time t into dst (one
// transform per joint). It allocates nothing.
func (m *Motion) Sample(t float32, dst []geom.Transform) { m.sampler().Sample(t, dst) }

// Animates reports which properties of joint j the clip drives.
func (m *Motion) Animates(j int) anim.Props { return m.sampler().Animates(j) }

// Pose samples the clip at t into local and, when model is not nil, the
// joints' transforms in model space (see the package documentation).
func (m *Motion) Pose(t float32, local, model []geom.Transform) {
	m.Sample(t, local)
	if model != nil {
		anim.LocalToModel(m.on.skel, local, model)
	}
}

// ExtractRootMotion returns how the character's root moved between two
// clip times (anim.Clip.ExtractRootMotion's convention): the body's motion
// for a humanoid clip, the root motion joint's (or RootT and RootQ's) for a
// generic one.
func (m *Motion) ExtractRootMotion(from, to float32, loops int) anim.RootMotion {
	if m.human != nil {
		return m.human.ExtractRootMotion(from, to, loops)
	}
	return m.generic.ExtractRootMotion(from, to, loops)
}

// AnimatorClip returns the clip as a controller's Animator and posers take
// it.
func (m *Motion) AnimatorClip() animator.Clip {
	if m.human != nil {
		return animator.HumanClip(m.human)
	}
	return animator.GenericClip(m.generic)
}

var (
	_ anim.Sampler   = (*Motion)(nil)
	_ anim.RootMover = (*Motion)(nil)
)
