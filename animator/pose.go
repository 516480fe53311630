package animator

import (
	"fmt"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
)

// PoseClip is a clip that can pose a skeleton: an *anim.Clip, or a
// humanoid clip baked onto a rig.
type PoseClip interface {
	Duration() float32
	Sample(t float32, dst []geom.Transform)
}

// Poser turns an Animator's layers into a local pose of one skeleton: per
// layer the clips it plays blended by their weights, then layers applied
// bottom-up, an override layer blending over what is below by its weight
// times its skeleton mask, an additive layer adding its difference from the
// clips' first frames. It is immutable and shared by every Animator of one
// Definition and skeleton; per-call buffers live in a PoseScratch.
//
// Skeleton masks: a joint listed in a layer's mask plays at the element's
// weight, a joint not listed at 0; a layer without a mask covers every
// joint. Humanoid body masks are not applied here.
type Poser struct {
	def   *Definition
	skel  *anim.Skeleton
	clips []PoseClip
	masks [][]float32        // per layer, per joint (nil: every joint at 1)
	refs  [][]geom.Transform // per clip: its first frame (additive reference)
	// contribs bounds the contributions of one layer.
	contribs int
}

// NewPoser prepares posing skeleton s for d with clips parallel to
// Controller.Clips (nil entries play the rest pose). Every clip must
// sample onto s.
func NewPoser(d *Definition, s *anim.Skeleton, clips []PoseClip) (*Poser, error) {
	if d == nil || s == nil {
		return nil, fmt.Errorf("animator: NewPoser: nil definition or skeleton")
	}
	p := &Poser{def: d, skel: s, clips: clips, masks: make([][]float32, len(d.c.Layers)),
		refs: make([][]geom.Transform, len(clips))}
	for li, l := range d.c.Layers {
		if len(l.SkeletonMask) == 0 {
			continue
		}
		m := make([]float32, s.Len())
		for _, e := range l.SkeletonMask {
			if j, ok := s.IndexHash(e.PathHash); ok {
				m[j] = e.Weight
			}
		}
		p.masks[li] = m
	}
	for i, c := range clips {
		if c == nil {
			continue
		}
		r := make([]geom.Transform, s.Len())
		c.Sample(0, r)
		p.refs[i] = r
	}
	p.contribs = (maxFrozen + 1) * (d.maxLeaves + 1)
	return p, nil
}

// PoseScratch holds the buffers one Pose call works in. One per goroutine
// suffices: it keeps nothing between calls.
type PoseScratch struct {
	contrib            []Contribution
	sample, layer, ref []geom.Transform
}

// NewScratch returns buffers for p.Pose.
func (p *Poser) NewScratch() *PoseScratch {
	n := p.skel.Len()
	return &PoseScratch{contrib: make([]Contribution, 0, p.contribs),
		sample: make([]geom.Transform, n), layer: make([]geom.Transform, n), ref: make([]geom.Transform, n)}
}

// Pose writes a's current local pose into dst (at least the skeleton's
// length). It allocates nothing.
func (p *Poser) Pose(a *Animator, sc *PoseScratch, dst []geom.Transform) {
	n := p.skel.Len()
	dst = dst[:n]
	copy(dst, p.skel.Rest)
	for li := range a.layers {
		w := a.layers[li].weight
		if w <= 0 {
			continue
		}
		sc.contrib = a.Contributions(li, sc.contrib)
		additive := p.def.c.Layers[li].Blending == model.BlendAdditive
		var total float32
		for j := range sc.layer {
			sc.layer[j], sc.ref[j] = geom.Transform{}, geom.Transform{}
		}
		for _, c := range sc.contrib {
			if c.Clip < 0 || c.Clip >= len(p.clips) || p.clips[c.Clip] == nil || c.Weight <= 0 {
				continue
			}
			p.clips[c.Clip].Sample(c.Time, sc.sample)
			accumulate(sc.layer, sc.sample, c.Weight)
			if additive {
				accumulate(sc.ref, p.refs[c.Clip], c.Weight)
			}
			total += c.Weight
		}
		if total <= 0 {
			continue
		}
		inv := 1 / total
		normalise(sc.layer, inv)
		mask := p.masks[li]
		if additive {
			normalise(sc.ref, inv)
			for j := range dst {
				wj := w
				if mask != nil {
					wj *= mask[j]
				}
				if wj > 0 {
					anim.AddPose(dst[j:j+1], dst[j:j+1], sc.layer[j:j+1], sc.ref[j:j+1], wj)
				}
			}
			continue
		}
		for j := range dst {
			wj := w
			if mask != nil {
				wj *= mask[j]
			}
			if wj > 0 {
				anim.BlendPoses(dst[j:j+1], dst[j:j+1], sc.layer[j:j+1], wj)
			}
		}
	}
}

// normalise divides accumulated translations and scales by the total weight
// (inv is its reciprocal) and normalises the rotations.
func normalise(pose []geom.Transform, inv float32) {
	for j := range pose {
		t := &pose[j]
		t.T, t.S = t.T.Scale(inv), t.S.Scale(inv)
		if t.R.Dot(t.R) > 0 {
			t.R = t.R.Normalize()
		} else {
			t.R = geom.Quat{W: 1}
		}
	}
}
