package humanoid

import (
	"fmt"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
)

// maxFloatTracks bounds the float tracks Sample evaluates on the stack; a
// clip with more (blend shapes beside the humanoid channels) is refused.
const maxFloatTracks = 512

// Clip is a humanoid clip baked onto a Rig: sampling evaluates its RootT,
// RootQ, muscles and goals and applies them to the avatar skeleton. It is
// immutable and safe for concurrent Sample calls.
type Clip struct {
	rig   *Rig
	base  *anim.Clip
	slots []int16 // per float track: index into the Pose's float layout, -1 ignored
	def   Pose    // values of channels the clip does not drive
	// noGoal marks the IK goals the clip has no curves for: sampling puts
	// them where the pose puts the hand or foot (Rig.Goals), so that
	// solving IK towards them changes nothing.
	noGoal [4]bool
	anyNo  bool
	// body is the clip's RootT and RootQ channels alone, baked apart so
	// that root motion (two samples a tick) does not evaluate every
	// muscle; bodySlots are its float tracks' slots. nil: base has none.
	body      *anim.Clip
	bodySlots []int16
}

// Pose float layout of a clip's humanoid attributes: attribute 7+k for the
// root and goals (k < 35), 42+m for muscle m, then the translation DoF.
func setPoseFloat(p *Pose, slot int, v float32) {
	switch {
	case slot < 3:
		setVec(&p.RootT, slot, v)
	case slot < 7:
		setQuat(&p.RootQ, slot-3, v)
	case slot < 35:
		g := &p.Goals[(slot-7)/7]
		k := (slot - 7) % 7
		if k < 3 {
			setVec(&g.T, k, v)
		} else {
			setQuat(&g.Q, k-3, v)
		}
	case slot < 35+model.MuscleCount:
		p.Muscles[slot-35] = v
	default:
		k := slot - 35 - model.MuscleCount
		setVec(&p.TDoF[k/3], k%3, v)
	}
}

func setVec(v *geom.Vec3, i int, x float32) {
	switch i {
	case 0:
		v.X = x
	case 1:
		v.Y = x
	default:
		v.Z = x
	}
}

func setQuat(q *geom.Quat, i int, x float32) {
	switch i {
	case 0:
		q.X = x
	case 1:
		q.Y = x
	case 2:
		q.Z = x
	default:
		q.W = x
	}
}

// Skeleton returns the skeleton the rig plays on (NewRigOn's, or the
// avatar's own for NewRig).
func (r *Rig) Skeleton() *anim.Skeleton {
	return r.skel
}

// Bake prepares a humanoid clip for sampling on the rig. Channels of the
// Animator (class 95, path "") with humanoid attributes drive the pose;
// Transform curves of the clip drive non-human bones; channels the clip
// lacks take the values of the avatar's rest pose (its muscles, RootT and
// RootQ as Extract reads them), translation DoF 0.
func Bake(c *model.Clip, r *Rig) (*Clip, error) {
	if c == nil || r == nil {
		return nil, fmt.Errorf("humanoid: Bake: nil clip or rig")
	}
	base, err := anim.Bake(c, r.skel)
	if err != nil {
		return nil, fmt.Errorf("humanoid: clip %q on avatar %q: %w", c.Name, r.name, err)
	}
	ft := base.FloatTargets()
	if len(ft) > maxFloatTracks {
		return nil, fmt.Errorf("humanoid: clip %q has %d float tracks (at most %d)", c.Name, len(ft), maxFloatTracks)
	}
	hc := &Clip{rig: r, base: base, slots: make([]int16, len(ft))}
	r.Extract(r.rest, &hc.def)
	// Translation DoF a clip lacks are none: the avatar's own translations.
	hc.def.TDoF = [model.TDoFCount]geom.Vec3{}
	for i := range hc.def.Goals {
		hc.def.Goals[i].Q = geom.IdentityQuat
	}
	for i, t := range ft {
		hc.slots[i] = -1
		if t.ClassID != model.ClassAnimator || t.Path != "" {
			continue
		}
		a := t.Attribute
		if a >= model.FirstRootAttribute && a < model.EndHumanAttribute {
			hc.slots[i] = int16(a - model.FirstRootAttribute)
		}
	}
	for g := range hc.noGoal {
		hc.noGoal[g] = true
	}
	for _, s := range hc.slots {
		if g := (int(s) - 7) / 7; s >= 7 && g < 4 {
			hc.noGoal[g] = false
		}
	}
	hc.anyNo = hc.noGoal != [4]bool{}
	if err := hc.bakeBody(c); err != nil {
		return nil, fmt.Errorf("humanoid: clip %q on avatar %q: %w", c.Name, r.name, err)
	}
	return hc, nil
}

// bakeBody bakes the clip's RootT and RootQ curves (Clip.body), each
// evaluated with the arithmetic base evaluates it with.
func (hc *Clip) bakeBody(c *model.Clip) error {
	body := *c
	body.Curves, body.IntCurves, body.ObjectCurves, body.Events = nil, nil, nil, nil
	for _, cv := range c.Curves {
		t := cv.Target
		if t.ClassID == model.ClassAnimator && t.Path == "" && t.Attribute >= model.FirstRootAttribute && t.Attribute < model.FirstRootAttribute+7 {
			body.Curves = append(body.Curves, cv)
		}
	}
	if len(body.Curves) == 0 || len(body.Curves) > 7 {
		return nil // none, or a channel twice: sampleBody samples base
	}
	b, err := anim.Bake(&body, hc.rig.skel)
	if err != nil {
		return err
	}
	for _, t := range b.FloatTargets() {
		hc.bodySlots = append(hc.bodySlots, int16(t.Attribute-model.FirstRootAttribute))
	}
	hc.body = b
	return nil
}

// Name returns the clip's name.
func (c *Clip) Name() string { return c.base.Name() }

// Duration returns the clip's length in seconds (never 0).
func (c *Clip) Duration() float32 { return c.base.Duration() }

// Rig returns the rig the clip was baked onto.
func (c *Clip) Rig() *Rig { return c.rig }

// Base returns the underlying baked clip (its float tracks, events, timing).
func (c *Clip) Base() *anim.Clip { return c.base }

// Animates reports which properties of avatar node j the clip drives:
// all of a human bone's (the muscles and the body set them), else those
// its Transform curves drive (anim.Clip.Animates).
func (c *Clip) Animates(j int) anim.Props {
	if c.rig.IsHumanNode(j) {
		return anim.PropT | anim.PropR | anim.PropS
	}
	return c.base.Animates(j)
}

// SamplePose evaluates the clip's humanoid channels at time t into p. An
// IK goal the clip has no curves for is where the pose puts its hand or
// foot (Rig.Goals).
func (c *Clip) SamplePose(t float32, p *Pose) {
	c.samplePose(t, p)
	if c.anyNo {
		var g [4]Goal
		c.rig.Goals(p, &g)
		for i, no := range c.noGoal {
			if no {
				p.Goals[i] = g[i]
			}
		}
	}
}

// SampleMuscles is SamplePose for a caller that reads no goals (one that
// applies the pose to the rig, which ignores them): the goals the clip has
// no curves for keep the clip's defaults instead of being computed from
// the pose, which would cost a second pose of the whole body.
func (c *Clip) SampleMuscles(t float32, p *Pose) { c.samplePose(t, p) }

// samplePose is SamplePose without the goals the clip has no curves for.
func (c *Clip) samplePose(t float32, p *Pose) {
	var buf [maxFloatTracks]float32
	f := buf[:len(c.slots)]
	c.base.SampleFloats(t, f)
	*p = c.def
	for i, s := range c.slots {
		if s >= 0 {
			setPoseFloat(p, int(s), f[i])
		}
	}
}

// Sample writes the local pose at time t over the avatar skeleton (len
// Rig().Len()): human bones from the muscles and the root, other bones from
// the clip's Transform curves or their rest pose. It does not allocate.
func (c *Clip) Sample(t float32, dst []geom.Transform) {
	var p Pose
	c.samplePose(t, &p)
	c.base.Sample(t, dst)
	c.rig.ApplyHuman(&p, dst)
}

// ExtractRootMotion returns how the body moved between clip times from
// and to across loops whole cycles (the convention of
// anim.Clip.ExtractRootMotion): RootT and RootQ's motion, in the body frame
// at the start. It is a humanoid clip's root motion.
func (c *Clip) ExtractRootMotion(from, to float32, loops int) anim.RootMotion {
	return anim.LoopMotion(c.bodyDelta, c.Duration(), from, to, loops)
}

// bodyDelta is the body's motion from clip time a to b.
func (c *Clip) bodyDelta(a, b float32) anim.RootMotion {
	return anim.MotionBetween(c.sampleBody(a), c.sampleBody(b))
}

// sampleBody returns RootT and RootQ at clip time t (as samplePose gives
// them).
func (c *Clip) sampleBody(t float32) geom.Transform {
	if c.body == nil {
		var p Pose
		c.samplePose(t, &p)
		return geom.Transform{T: p.RootT, R: p.RootQ}
	}
	var buf [7]float32
	f := buf[:len(c.bodySlots)]
	c.body.SampleFloats(t, f)
	x := geom.Transform{T: c.def.RootT, R: c.def.RootQ}
	for i, s := range c.bodySlots {
		if s < 3 {
			setVec(&x.T, int(s), f[i])
		} else {
			setQuat(&x.R, int(s)-3, f[i])
		}
	}
	return x
}

// MovesBody reports whether the clip has RootT or RootQ curves: whether it
// carries the body through the world.
func (c *Clip) MovesBody() bool {
	for _, s := range c.slots {
		if s >= 0 && s < 7 {
			return true
		}
	}
	return false
}

var (
	_ anim.Sampler   = (*Clip)(nil)
	_ anim.RootMover = (*Clip)(nil)
)
