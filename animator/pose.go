package animator

import (
	"fmt"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
)

// Poser turns an Animator's layers into a local pose of one skeleton: per
// layer the clips it plays blended by their weights, then layers applied
// bottom-up, an override layer blending over what is below, an additive
// layer adding its difference from the clips' first frames. It is
// immutable and shared by every Animator of one Definition and skeleton;
// per-call buffers live in a PoseScratch.
//
// A layer changes only what its clips animate, property by property
// (position, rotation, scale of each joint: see anim.Clip.Animates); the
// rest is left as the layers below made it (the rest pose under the base
// layer). A clip of a state with Write Defaults on (Unity's default) also
// writes the default value (the rest pose) of every property some clip of
// the controller animates and it does not: "Write Defaults on will write
// back the default values of all animated properties (on a
// controller-wide basis) that are not animated in that particular state".
// A state without a clip writes nothing, Write Defaults or not. Where the weights of the clips animating a property sum to less
// than 1 (a direct blend tree's 0.2, a fade into a state without a clip)
// the layer blends that property in only by that sum, so it fades
// towards what is below instead of snapping; where they sum to more, they
// are normalised.
//
// Skeleton masks: a joint listed in a layer's mask plays at the element's
// weight, a joint not listed at 0; a layer without a mask covers every
// joint. Humanoid body masks are not applied here (see HumanPoser).
type Poser struct {
	def   *Definition
	skel  *anim.Skeleton
	clips []anim.Sampler     // per controller clip: its Pose (nil: none)
	masks [][]float32        // per layer, per joint (nil: every joint at 1)
	refs  [][]geom.Transform // per clip: its first frame (additive reference)
	anim  [][]anim.Props     // per clip, per joint: what it animates
	all   []anim.Props       // per joint: what any clip animates (Write Defaults)
	// contribs bounds the contributions of one layer.
	contribs int
}

// NewPoser prepares posing skeleton s for d: its clips' Pose samplers
// (Clip.Pose; a clip without one plays the rest pose), which must all
// sample onto s.
func NewPoser(d *Definition, s *anim.Skeleton) (*Poser, error) {
	if d == nil || s == nil {
		return nil, fmt.Errorf("animator: NewPoser: nil definition or skeleton")
	}
	clips := make([]anim.Sampler, len(d.clips))
	for i := range d.clips {
		clips[i] = d.clips[i].Pose
	}
	return newPoser(d, s, clips)
}

// newPoser is NewPoser over the given samplers (parallel to d's clips).
func newPoser(d *Definition, s *anim.Skeleton, clips []anim.Sampler) (*Poser, error) {
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
	p.anim = make([][]anim.Props, len(clips))
	p.all = make([]anim.Props, s.Len())
	for i, c := range clips {
		if c == nil {
			continue
		}
		r := make([]geom.Transform, s.Len())
		c.Sample(0, r)
		p.refs[i] = r
		p.anim[i] = make([]anim.Props, s.Len())
		for j := range p.anim[i] {
			p.anim[i][j] = c.Animates(j)
			p.all[j] |= p.anim[i][j]
		}
	}
	p.contribs = (maxFrozen + 1) * (d.maxLeaves + 1)
	return p, nil
}

// PoseScratch holds the buffers one Pose call works in. One per goroutine
// suffices: it keeps nothing between calls.
type PoseScratch struct {
	contrib            []Contribution
	sample, layer, ref []geom.Transform
	sum                []float32 // per joint ×3: weight of the clips animating T, R, S
}

// NewScratch returns buffers for p.Pose.
func (p *Poser) NewScratch() *PoseScratch {
	n := p.skel.Len()
	return &PoseScratch{contrib: make([]Contribution, 0, p.contribs),
		sample: make([]geom.Transform, n), layer: make([]geom.Transform, n), ref: make([]geom.Transform, n),
		sum: make([]float32, 3*n)}
}

// Pose writes a's current local pose into dst (at least the skeleton's
// length). It allocates nothing.
func (p *Poser) Pose(a *Animator, sc *PoseScratch, dst []geom.Transform) {
	n := p.skel.Len()
	dst = dst[:n]
	copy(dst, p.skel.Rest)
	for li := range a.layers {
		w := a.layers[li].weight
		if !(w > 0) {
			continue
		}
		sc.contrib = a.Contributions(li, sc.contrib)
		additive := p.def.c.Layers[li].Blending == model.BlendAdditive
		only, played := playing(sc.contrib, p.clips)
		if played == 1 {
			// One clip: its sample is the layer, weighted as a whole.
			c := sc.contrib[only]
			p.clips[c.Clip].Sample(c.Time, sc.sample)
			l := layerValues{pose: sc.sample, props: p.propsOf(c), weight: c.Weight}
			if additive {
				l.ref = p.refs[c.Clip]
			}
			p.blendLayer(dst, &l, li, w, additive)
			continue
		}
		clear(sc.sum) // a property's first clip sets layer and ref, the others add
		for _, c := range sc.contrib {
			if !playable(c, p.clips) {
				continue
			}
			p.clips[c.Clip].Sample(c.Time, sc.sample)
			var ref []geom.Transform
			if additive {
				ref = p.refs[c.Clip]
			}
			addAnimated(sc.layer, sc.ref, sc.sample, ref, p.propsOf(c), sc.sum, c.Weight)
		}
		if played > 0 {
			p.blendLayer(dst, &layerValues{pose: sc.layer, ref: sc.ref, sum: sc.sum}, li, w, additive)
		}
	}
}

// playable reports whether contribution c plays one of clips (a clip
// there, at a weight above 0): Poser's samplers or HumanPoser's humanoid
// clips.
func playable[C comparable](c Contribution, clips []C) bool {
	var none C
	return c.Clip >= 0 && c.Clip < len(clips) && clips[c.Clip] != none && c.Weight > 0
}

// playing returns how many of contrib play one of clips, and the index of
// the last that does (-1 for none).
func playing[C comparable](contrib []Contribution, clips []C) (last, n int) {
	last = -1
	for k, c := range contrib {
		if playable(c, clips) {
			last, n = k, n+1
		}
	}
	return last, n
}

// propsOf returns what contribution c's clip writes per joint: what it
// animates, or, with Write Defaults, also the defaults (its samples hold
// the rest pose) of what other clips animate and it does not.
func (p *Poser) propsOf(c Contribution) []anim.Props {
	if c.WriteDefaults {
		return p.all
	}
	return p.anim[c.Clip]
}

// layerValues is what a layer blends over the layers below: either the
// weighted sums of several clips' properties (pose, and ref for an
// additive layer) with each property's weight sum in sum, or one clip's
// sample (pose, ref its reference) with what it writes in props, all of
// it at weight.
type layerValues struct {
	pose, ref []geom.Transform
	sum       []float32 // per joint ×3; nil: one clip
	props     []anim.Props
	weight    float32
}

// addAnimated adds w × src to acc, and w × ref to accRef when ref is not
// nil (an additive layer's reference), for the properties each joint's
// clip animates (translations and scales linearly, rotations as
// sign-aligned sums), and w to the property's weight sum. A property's
// first clip (its sum still 0) sets acc and accRef instead, so that they
// need no clearing between layers.
func addAnimated(acc, accRef, src, ref []geom.Transform, props []anim.Props, sum []float32, w float32) {
	for j := range acc {
		a := props[j]
		if a == 0 {
			continue
		}
		d, s := &acc[j], &src[j]
		first := [3]bool{sum[3*j] == 0, sum[3*j+1] == 0, sum[3*j+2] == 0}
		if a&anim.PropT != 0 {
			d.T = addScaled(d.T, s.T, w, first[0])
			sum[3*j] += w
		}
		if a&anim.PropR != 0 {
			d.R = addAligned(d.R, s.R, w, first[1])
			sum[3*j+1] += w
		}
		if a&anim.PropS != 0 {
			d.S = addScaled(d.S, s.S, w, first[2])
			sum[3*j+2] += w
		}
		if ref == nil {
			continue
		}
		d, s = &accRef[j], &ref[j]
		if a&anim.PropT != 0 {
			d.T = addScaled(d.T, s.T, w, first[0])
		}
		if a&anim.PropR != 0 {
			d.R = addAligned(d.R, s.R, w, first[1])
		}
		if a&anim.PropS != 0 {
			d.S = addScaled(d.S, s.S, w, first[2])
		}
	}
}

// addScaled returns acc + w·v, or w·v for the first term.
func addScaled(acc, v geom.Vec3, w float32, first bool) geom.Vec3 {
	if first {
		return v.Scale(w)
	}
	return acc.Add(v.Scale(w))
}

// addAligned returns acc + w·q with q turned to acc's side (q and −q are
// one rotation), or w·q for the first term.
func addAligned(acc, q geom.Quat, w float32, first bool) geom.Quat {
	if first {
		return geom.Quat{X: q.X * w, Y: q.Y * w, Z: q.Z * w, W: q.W * w}
	}
	if acc.Dot(q) < 0 {
		q = q.Neg()
	}
	return geom.Quat{X: acc.X + q.X*w, Y: acc.Y + q.Y*w, Z: acc.Z + q.Z*w, W: acc.W + q.W*w}
}

// blendLayer lays layer li's accumulated pose (weight w) over dst, property
// by property: a property no clip animates is left alone; one the clips
// animate with weight sum s is normalised and blended in by w × the
// skeleton mask × min(s, 1) (override), or its difference from the
// reference added by w × the mask × s (additive: the weighted sum of the
// clips' differences). One clip's sample needs no normalising: its
// rotations are the sampler's, unit already. A rotation blended in fully
// is taken as it is.
func (p *Poser) blendLayer(dst []geom.Transform, l *layerValues, li int, w float32, additive bool) {
	mask := p.masks[li]
	one := geom.Vec3{X: 1, Y: 1, Z: 1}
	single := l.sum == nil
	for j := range dst {
		wj := w
		if mask != nil {
			wj *= mask[j]
		}
		if !(wj > 0) {
			continue
		}
		var props anim.Props
		if single {
			if props = l.props[j]; props == 0 {
				continue
			}
		}
		d, x := &dst[j], &l.pose[j]
		var r *geom.Transform // read by additive layers only
		if additive {
			r = &l.ref[j]
		}
		for k := 0; k < 3; k++ {
			var s, inv float32
			if single {
				if props&(anim.PropT<<k) == 0 {
					continue
				}
				s, inv = l.weight, 1
			} else {
				if s = l.sum[3*j+k]; !(s > 0) {
					continue
				}
				inv = 1 / s
			}
			f := wj * min(s, 1)
			if additive {
				f = wj * s
			}
			switch k {
			case 0:
				v := x.T.Scale(inv)
				if additive {
					d.T = d.T.Add(v.Sub(r.T.Scale(inv)).Scale(f))
				} else {
					d.T = d.T.Lerp(v, f)
				}
			case 1:
				var v, ref geom.Quat
				switch {
				case single:
					// The sampler's rotations are normalised already.
					v = x.R
					if additive {
						ref = r.R
					}
				case additive:
					v, ref = normQuat(x.R), normQuat(r.R)
				default:
					v = normQuat(x.R)
				}
				switch {
				case additive && ref == v:
					// No difference from the reference (a joint the
					// additive clip holds still): nothing to add.
				case additive && f == 1:
					d.R = d.R.Mul(ref.Conj().Mul(v)).Renormalize()
				case additive:
					d.R = d.R.Mul(scaleTurn(ref.Conj().Mul(v), f)).Renormalize()
				case f == 1:
					d.R = v
				default:
					d.R = d.R.Nlerp(v, f)
				}
			case 2:
				v := x.S.Scale(inv)
				if additive {
					rs := r.S.Scale(inv)
					ds := geom.Vec3{X: ratio(v.X, rs.X), Y: ratio(v.Y, rs.Y), Z: ratio(v.Z, rs.Z)}
					d.S = d.S.Mul(one.Lerp(ds, f))
				} else {
					d.S = d.S.Lerp(v, f)
				}
			}
		}
	}
}

// scaleTurn scales rotation d by f for an additive layer: towards it from
// no rotation for f up to 1 (nlerp, as anim.AddPose), and by its angle
// times f beyond (clips whose weights sum above 1 add their turns as
// their translations add, linearly).
func scaleTurn(d geom.Quat, f float32) geom.Quat {
	if f > 1 {
		return quatPow(d, f)
	}
	return geom.Quat{W: 1}.Nlerp(d, f)
}

// ratio is a/r, or 1 (no change) for a zero reference.
func ratio(a, r float32) float32 {
	if r == 0 {
		return 1
	}
	return a / r
}
