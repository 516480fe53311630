package animator

import (
	"fmt"
	"strings"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/humanoid"
	"github.com/mecanim/mecanim/model"
)

// HumanPoser poses a humanoid rig from an Animator whose clips are
// humanoid, blending in muscle space as Mecanim does: per layer the clips'
// muscles, body position and rotation and IK goals weighted by their
// blend weights, then layers bottom-up. An override layer interpolates
// towards its pose by its weight, an additive layer adds its difference
// from its clips' first frames. A mirrored state's clips are mirrored left
// for right (see mirrorMap).
//
// Body masks (model.HumanMask): a layer changes only what its mask sets:
// the body position and rotation, each body muscle, each hand's fingers,
// each IK goal; what it does not set stays as the layers below left it. On
// the base layer what the mask leaves out is the zero pose (muscles 0, the
// body and goals at the origin, unrotated), as Unity's runtime copies the
// base layer. As in Poser, a layer whose clips' weights sum to less than 1
// (a direct blend tree, a fade into a state without a clip) blends in only
// by that sum. The clips' Transform curves of bones that are not human
// bones are blended as Poser does, with the layers' skeleton masks (Apply).
// It is immutable and shared; per-call buffers live in a HumanScratch.
type HumanPoser struct {
	def   *Definition
	rig   *humanoid.Rig
	clips []*humanoid.Clip
	refs  []humanoid.Pose // per clip: its first frame
	rest  humanoid.Pose   // the rig's rest pose in muscle space
	n     int             // contributions bound
	masks []humanMask     // per layer
	// generic blends the clips' non-human Transform curves; nil when no
	// clip moves a non-human bone.
	generic *Poser
	// mirrorFrom and mirrorSign map muscles for mirrored states.
	mirrorFrom [model.MuscleCount]int16
	mirrorSign [model.MuscleCount]float32
}

// humanMask is a layer's body mask unpacked for blending.
type humanMask struct {
	full   bool
	root   bool
	muscle [model.MuscleCount]bool
	goal   [4]bool
}

func unpackMask(m model.HumanMask) humanMask {
	u := humanMask{full: m.Full(), root: m.Root()}
	for i := range u.muscle {
		u.muscle[i] = m.Muscle(i)
	}
	for g := range u.goal {
		u.goal[g] = m.Goal(g)
	}
	return u
}

// NewHumanPoser prepares posing rig r for d: the muscles of d's humanoid
// clips (Clip.Human, baked onto r), and the Transform curves every clip has
// on bones that are not human bones (Clip.Pose; a generic clip's curves on
// human bones give way to the muscles, as a humanoid Animator's do).
func NewHumanPoser(d *Definition, r *humanoid.Rig) (*HumanPoser, error) {
	if d == nil || r == nil {
		return nil, fmt.Errorf("animator: NewHumanPoser: nil definition or rig")
	}
	clips := make([]*humanoid.Clip, len(d.clips))
	p := &HumanPoser{def: d, rig: r, clips: clips, refs: make([]humanoid.Pose, len(clips)),
		n: (maxFrozen + 1) * (d.maxLeaves + 1), masks: make([]humanMask, len(d.c.Layers))}
	for li := range d.c.Layers {
		p.masks[li] = unpackMask(d.c.Layers[li].HumanMask())
	}
	skel := r.Skeleton()
	generic := make([]anim.Sampler, len(clips))
	moves := false
	for i := range d.clips {
		dc := &d.clips[i]
		switch c := dc.Human; {
		case c != nil:
			if c.Rig() != r {
				return nil, fmt.Errorf("animator: NewHumanPoser: clip %q is baked onto another rig", c.Name())
			}
			clips[i] = c
			c.SamplePose(0, &p.refs[i])
			generic[i] = c.Base()
			moves = moves || c.Base().TrackCount() > 0 || movesNonHuman(c.Base(), r)
		case dc.Pose != nil:
			generic[i] = dc.Pose
			moves = true
		}
	}
	if moves {
		g, err := newPoser(d, skel, generic)
		if err != nil {
			return nil, err
		}
		p.generic = g
	}
	r.Extract(skel.Rest, &p.rest)
	p.mirrorFrom, p.mirrorSign = mirrorMap()
	return p, nil
}

// movesNonHuman reports whether clip c, at rest otherwise, holds a
// non-human bone away from the rig's rest pose (a constant Transform curve
// is folded into the clip's base pose rather than kept as a track).
func movesNonHuman(c *anim.Clip, r *humanoid.Rig) bool {
	skel := r.Skeleton()
	buf := make([]geom.Transform, skel.Len())
	c.Sample(0, buf)
	for j := range buf {
		if buf[j] != skel.Rest[j] && !r.IsHumanNode(j) {
			return true
		}
	}
	return false
}

// HumanScratch holds the buffers of one HumanPoser call; one per goroutine.
type HumanScratch struct {
	contrib       []Contribution
	sample, layer humanoid.Pose
	ref           humanoid.Pose
	generic       *PoseScratch
}

// NewScratch returns buffers for p's calls.
func (p *HumanPoser) NewScratch() *HumanScratch {
	sc := &HumanScratch{contrib: make([]Contribution, 0, p.n)}
	if p.generic != nil {
		sc.generic = p.generic.NewScratch()
	}
	return sc
}

// Pose writes a's current humanoid pose into out. It allocates nothing.
func (p *HumanPoser) Pose(a *Animator, sc *HumanScratch, out *humanoid.Pose) {
	p.pose(a, sc, out, true)
}

// pose is Pose; without goals (for Apply, which does not read them), the
// IK goals are neither computed for clips without goal curves nor blended:
// out's goals are then meaningless.
func (p *HumanPoser) pose(a *Animator, sc *HumanScratch, out *humanoid.Pose, goals bool) {
	*out = p.rest
	for li := range a.layers {
		w := a.layers[li].weight
		if !(w > 0) {
			continue
		}
		sc.contrib = a.Contributions(li, sc.contrib)
		additive := p.def.c.Layers[li].Blending == model.BlendAdditive
		only, played := playing(sc.contrib, p.clips)
		if played == 0 {
			continue
		}
		var total float32
		if played == 1 {
			// One clip: its sample is the layer (rotations normalised as
			// a weighted sum's are), weighted as a whole.
			c := sc.contrib[only]
			p.sample(c, &sc.layer, goals)
			// Curves interpolated component by component leave the
			// rotations near unit length: renormalised (a zero one
			// becomes the identity, as normQuat makes it).
			sc.layer.RootQ = sc.layer.RootQ.Renormalize()
			for g := 0; goals && g < len(sc.layer.Goals); g++ {
				sc.layer.Goals[g].Q = sc.layer.Goals[g].Q.Renormalize()
			}
			if additive {
				sc.ref = p.refs[c.Clip]
				if c.Mirror {
					p.mirror(&sc.ref)
				}
			}
			total = c.Weight
		} else {
			sc.layer, sc.ref = humanoid.Pose{}, humanoid.Pose{}
			for _, c := range sc.contrib {
				if !playable(c, p.clips) {
					continue
				}
				p.sample(c, &sc.sample, goals)
				addHuman(&sc.layer, &sc.sample, c.Weight)
				if additive {
					r := p.refs[c.Clip]
					if c.Mirror {
						p.mirror(&r)
					}
					addHuman(&sc.ref, &r, c.Weight)
				}
				total += c.Weight
			}
			scaleHuman(&sc.layer, 1/total)
			if additive {
				scaleHuman(&sc.ref, 1/total)
			}
		}
		m := &p.masks[li]
		if li == 0 && !m.full {
			zeroUnmasked(out, m)
		}
		if additive {
			addDelta(out, &sc.layer, &sc.ref, w*total, m, goals)
		} else {
			lerpHuman(out, &sc.layer, w*min(total, 1), m, goals)
		}
	}
}

// sample writes contribution c's clip's pose at its time into x, mirrored
// when c is (the goals the clip has no curves for computed when goals is
// set).
func (p *HumanPoser) sample(c Contribution, x *humanoid.Pose, goals bool) {
	if goals {
		p.clips[c.Clip].SamplePose(c.Time, x)
	} else {
		p.clips[c.Clip].SampleMuscles(c.Time, x)
	}
	if c.Mirror {
		p.mirror(x)
	}
}

// Apply poses a and writes the local transforms over the rig's skeleton
// into dst (len r.Len()): the human bones from the blended humanoid pose,
// the other bones from the clips' Transform curves blended with the
// layers' skeleton masks (their rest pose where no clip moves them).
func (p *HumanPoser) Apply(a *Animator, sc *HumanScratch, dst []geom.Transform) {
	var hp humanoid.Pose
	p.pose(a, sc, &hp, false)
	if p.generic == nil {
		p.rig.Apply(&hp, dst)
		return
	}
	p.generic.Pose(a, sc.generic, dst)
	p.rig.ApplyHuman(&hp, dst)
}

// ApplyPart is Apply for the joints of part (humanoid.Rig.Part, of p's
// rig) only: they get what Apply gives them; other joints of dst are
// either left as they are or posed from the clips' non-human curves.
func (p *HumanPoser) ApplyPart(a *Animator, sc *HumanScratch, part *humanoid.Part, dst []geom.Transform) {
	var hp humanoid.Pose
	p.pose(a, sc, &hp, false)
	if p.generic == nil {
		part.Apply(&hp, dst)
		return
	}
	p.generic.Pose(a, sc.generic, dst)
	part.ApplyHuman(&hp, dst)
}

func addQuat(acc *geom.Quat, q geom.Quat, w float32) {
	if acc.Dot(q) < 0 {
		q = q.Neg()
	}
	*acc = geom.Quat{X: acc.X + q.X*w, Y: acc.Y + q.Y*w, Z: acc.Z + q.Z*w, W: acc.W + q.W*w}
}

func normQuat(q geom.Quat) geom.Quat {
	if q.Dot(q) > 0 {
		return q.Normalize()
	}
	return geom.Quat{W: 1}
}

// addHuman adds w × x to acc (rotations as sign-aligned sums).
func addHuman(acc, x *humanoid.Pose, w float32) {
	acc.RootT = acc.RootT.Add(x.RootT.Scale(w))
	addQuat(&acc.RootQ, x.RootQ, w)
	for m := range acc.Muscles {
		acc.Muscles[m] += x.Muscles[m] * w
	}
	for g := range acc.Goals {
		acc.Goals[g].T = acc.Goals[g].T.Add(x.Goals[g].T.Scale(w))
		addQuat(&acc.Goals[g].Q, x.Goals[g].Q, w)
	}
}

// scaleHuman divides an accumulated pose by its total weight (inv is the
// reciprocal) and normalises its rotations.
func scaleHuman(p *humanoid.Pose, inv float32) {
	p.RootT = p.RootT.Scale(inv)
	p.RootQ = normQuat(p.RootQ)
	for m := range p.Muscles {
		p.Muscles[m] *= inv
	}
	for g := range p.Goals {
		p.Goals[g].T = p.Goals[g].T.Scale(inv)
		p.Goals[g].Q = normQuat(p.Goals[g].Q)
	}
}

// zeroUnmasked sets what m leaves out to the zero pose (muscles 0, the
// body and goals at the origin, unrotated): the base layer under a body
// mask.
func zeroUnmasked(dst *humanoid.Pose, m *humanMask) {
	id := geom.Quat{W: 1}
	if !m.root {
		dst.RootT, dst.RootQ = geom.Vec3{}, id
	}
	for i := range dst.Muscles {
		if !m.muscle[i] {
			dst.Muscles[i] = 0
		}
	}
	for g := range dst.Goals {
		if !m.goal[g] {
			dst.Goals[g] = humanoid.Goal{Q: id}
		}
	}
}

// lerpHuman moves dst towards x by w where m sets it (the IK goals only
// when goals is set: a pose for Apply leaves them unread).
func lerpHuman(dst, x *humanoid.Pose, w float32, m *humanMask, goals bool) {
	if m.root {
		dst.RootT = dst.RootT.Lerp(x.RootT, w)
		dst.RootQ = dst.RootQ.Nlerp(x.RootQ, w)
	}
	for i := range dst.Muscles {
		if m.muscle[i] {
			dst.Muscles[i] += (x.Muscles[i] - dst.Muscles[i]) * w
		}
	}
	if !goals {
		return
	}
	for g := range dst.Goals {
		if m.goal[g] {
			dst.Goals[g].T = dst.Goals[g].T.Lerp(x.Goals[g].T, w)
			dst.Goals[g].Q = dst.Goals[g].Q.Nlerp(x.Goals[g].Q, w)
		}
	}
}

// addDelta adds w × (x − ref) to dst where m sets it: muscles and
// positions by difference, rotations by the rotation from ref to x (the
// IK goals only when goals is set).
func addDelta(dst, x, ref *humanoid.Pose, w float32, m *humanMask, goals bool) {
	if m.root {
		dst.RootT = dst.RootT.Add(x.RootT.Sub(ref.RootT).Scale(w))
		dst.RootQ = dst.RootQ.Mul(scaleTurn(ref.RootQ.Conj().Mul(x.RootQ), w)).Normalize()
	}
	for i := range dst.Muscles {
		if m.muscle[i] {
			dst.Muscles[i] += (x.Muscles[i] - ref.Muscles[i]) * w
		}
	}
	if !goals {
		return
	}
	for g := range dst.Goals {
		if m.goal[g] {
			dst.Goals[g].T = dst.Goals[g].T.Add(x.Goals[g].T.Sub(ref.Goals[g].T).Scale(w))
			dst.Goals[g].Q = dst.Goals[g].Q.Mul(scaleTurn(ref.Goals[g].Q.Conj().Mul(x.Goals[g].Q), w)).Normalize()
		}
	}
}

// mirrorMap gives per muscle the muscle whose value it takes when a pose is
// mirrored and the sign to apply: a Left muscle and its Right twin swap
// (their directions are defined symmetrically: Down-Up, Front-Back, In-Out,
// Stretch, Spread), a muscle of the body's midline that bends or turns
// sideways ("Left-Right") changes sign, others keep their value. This is
// inferred from the muscles' definitions, not measured.
func mirrorMap() (from [model.MuscleCount]int16, sign [model.MuscleCount]float32) {
	index := make(map[string]int, model.MuscleCount)
	for i, n := range model.MuscleNames {
		index[n] = i
	}
	swap := [][2]string{{"Left ", "Right "}, {"LeftHand.", "RightHand."}}
	for i, n := range model.MuscleNames {
		from[i], sign[i] = int16(i), 1
		twin := ""
		for _, s := range swap {
			switch {
			case strings.HasPrefix(n, s[0]):
				twin = s[1] + n[len(s[0]):]
			case strings.HasPrefix(n, s[1]):
				twin = s[0] + n[len(s[1]):]
			}
		}
		if j, ok := index[twin]; ok {
			from[i] = int16(j)
		} else if strings.HasSuffix(n, "Left-Right") {
			sign[i] = -1
		}
	}
	return from, sign
}

// mirrorT and mirrorQ reflect a position and a rotation across the body's
// sagittal (y-z) plane.
func mirrorT(v geom.Vec3) geom.Vec3 { return geom.Vec3{X: -v.X, Y: v.Y, Z: v.Z} }
func mirrorQ(q geom.Quat) geom.Quat { return geom.Quat{X: q.X, Y: -q.Y, Z: -q.Z, W: q.W} }

// mirror reflects p left for right: muscles by the mirror map, the body
// across its sagittal plane, the left and right goals swapped and
// reflected.
func (p *HumanPoser) mirror(x *humanoid.Pose) {
	m := x.Muscles
	for i := range x.Muscles {
		x.Muscles[i] = m[p.mirrorFrom[i]] * p.mirrorSign[i]
	}
	x.RootT, x.RootQ = mirrorT(x.RootT), mirrorQ(x.RootQ)
	g := x.Goals
	for i := range x.Goals {
		s := g[i^1] // goals are left foot, right foot, left hand, right hand
		x.Goals[i] = humanoid.Goal{T: mirrorT(s.T), Q: mirrorQ(s.Q)}
	}
}

// FootIK returns how much Foot IK the Animator's base layer asks for now:
// 1 in a state whose Foot IK setting (model.State.IKOnFeet) is on, 0 in
// one where it is off, blended across a transition by its progress (an
// interrupted transition's frozen source counts as its current state).
// Unity then solves the legs so the feet reach the clips' foot goals by
// that weight. HumanPoser does not, as it costs far more than a pose
// (BENCHMARKS.md, BenchmarkSolveFeet): to do it, call
// humanoid.Rig.SolveFeet(&pose, w) on the pose Pose gives, then Rig.Apply.
func (p *HumanPoser) FootIK(a *Animator) float32 {
	if len(a.layers) == 0 {
		return 0
	}
	info := a.Layer(0)
	ik := func(s int) float32 {
		sm := a.machine(0)
		if s >= 0 && s < len(sm.States) && sm.States[s].IKOnFeet {
			return 1
		}
		return 0
	}
	w := ik(info.State)
	if info.InTransition {
		w += (ik(info.Next) - w) * info.Transition
	}
	return w
}
