package humanoid

import (
	"math"

	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
)

// axisRotation returns the rotation of angle x about a bone's joint x axis
// expressed in the bone's own frame: post · Rx(x) · post⁻¹. A child in a
// limb chain applies its parent's passed-on twist this way.
func axisRotation(post geom.Quat, x float32) geom.Quat {
	return post.Mul(rotX(x)).Mul(post.Conj())
}

// localRotations fills q (by human node) with the local rotations the
// muscles give: pre · T(y, z)·Rx(x) · post⁻¹ per bone, each angle from its
// muscle, limits and sign; in a limb chain a bone keeps its share of its own
// (wrapped) twist and its child applies the rest before its own rotation.
// Nodes without axes, and the hips, keep their stored pose rotation.
func (r *Rig) localRotations(m *[model.MuscleCount]float32, q []geom.Quat) {
	var pass [MaxHumanNodes]float32
	q = q[:len(r.joints)]
	for i := range r.joints {
		q[i] = r.jointRotation(i, m, &pass)
	}
}

// localRotationsOf is localRotations for the nodes listed (each listed
// after its parent), leaving the others of q as they are.
func (r *Rig) localRotationsOf(nodes []int32, m *[model.MuscleCount]float32, q []geom.Quat) {
	var pass [MaxHumanNodes]float32
	for _, i := range nodes {
		q[i] = r.jointRotation(int(i), m, &pass)
	}
}

// jointRotation is human node i's local rotation under muscles m (see
// localRotations); pass holds the twists chain parents pass on, set here
// for i and read for its chain child. Angles that are 0 skip their
// trigonometry: the rotations they would give are exactly the identity.
func (r *Rig) jointRotation(i int, m *[model.MuscleCount]float32, pass *[MaxHumanNodes]float32) geom.Quat {
	j := &r.joints[i]
	if !j.driven {
		return j.rest
	}
	var ang [3]float32
	for k, mi := range j.muscle {
		if mi >= 0 {
			ang[k] = MuscleAngle(m[mi], j.min[k], j.max[k], j.sign[k])
		}
	}
	x := ang[0]
	if j.keep != 1 {
		x = WrapAngle(x)
		pass[i] = x * (1 - j.keep)
		x *= j.keep
	}
	var rot geom.Quat
	if x == 0 && ang[1] == 0 && ang[2] == 0 {
		rot = j.rest
	} else {
		rot = j.pre.Mul(Inner(x, ang[1], ang[2])).Mul(j.postInv)
	}
	if j.from >= 0 {
		rot = axisRotation(j.fromPost, pass[j.from]).Mul(rot)
	}
	return rot
}

// localT returns human node i's local translation under pose p (nil: the
// human skeleton's): the human skeleton's plus the pose's translation DoF
// where the avatar follows it.
func (r *Rig) localT(i int, p *Pose) geom.Vec3 {
	n := &r.nodes[i]
	if n.tdof < 0 || p == nil {
		return n.pose.T
	}
	d := p.TDoF[n.tdof].Scale(r.scale)
	return n.pose.T.Add(geom.Vec3{X: d.X / n.pscale.X, Y: d.Y / n.pscale.Y, Z: d.Z / n.pscale.Z})
}

// composeFromHips fills g (by human node) with the human skeleton's
// transforms relative to a hips at hips (its rotation and position), each
// bone taking the human skeleton's translation (with p's translation DoF)
// and scale and the rotation q. Nodes not below the hips are left as they
// are.
func (r *Rig) composeFromHips(hips geom.Transform, q []geom.Quat, g []geom.Transform, p *Pose) {
	g[r.hips] = hips
	for i := r.hips + 1; i < len(r.nodes); i++ {
		n := &r.nodes[i]
		if !n.body {
			continue
		}
		l := geom.Transform{T: r.localT(i, p), R: q[i], S: n.pose.S}
		g[i].SetMul(&g[n.parent], &l)
	}
}

// planPose works out, once per rig, which targets are local (see target)
// and which body nodes a pose must compose (Rig.compose).
func (r *Rig) planPose() {
	// Global scales of the human nodes with the hips at the origin: the
	// product of the stored pose's scales (no pose changes them).
	gs := make([]geom.Vec3, len(r.nodes))
	// Uniform up to float rounding: the difference a scale a few float
	// steps from uniform makes is of the size of that rounding.
	uniform := func(v geom.Vec3) bool {
		tol := 1e-6 * max(abs(v.X), abs(v.Y), abs(v.Z))
		return abs(v.X-v.Y) <= tol && abs(v.Y-v.Z) <= tol
	}
	for i := range r.nodes {
		n := &r.nodes[i]
		switch {
		case i == r.hips:
			gs[i] = n.pose.S
		case n.body:
			gs[i] = gs[n.parent].Mul(n.pose.S)
		}
	}
	for i := range r.targets {
		t := &r.targets[i]
		t.binv = t.bridge.Inverse()
		t.identity = t.bridge == geom.Identity
		p := r.nodes[t.human].parent
		t.local = t.anc >= 0 && t.anc == p && (t.anc == r.hips || r.nodes[t.anc].body) &&
			uniform(gs[t.anc]) && uniform(t.bridge.S)
		if t.local && r.nodes[t.human].tdof < 0 {
			n := &r.nodes[t.human]
			t.fixed = true
			t.ft = geom.Transform{T: n.pose.T, R: geom.IdentityQuat, S: n.pose.S}
			if !t.identity {
				t.ft.SetMul(&t.binv, &t.ft)
			}
		}
	}
	r.all = r.planFor(nil)
	r.compose = r.all.compose
	r.planJoints()
	// The nodes not below the hips other than the hips stand at their
	// stored pose whatever the pose: their globals, made once.
	r.above, r.aboveG = r.above[:0], r.aboveG[:0]
	above := make([]geom.Transform, len(r.nodes))
	for i := range r.nodes {
		if n := &r.nodes[i]; !n.body && i != r.hips {
			if n.parent < 0 {
				above[i] = n.pose
			} else {
				above[i] = above[n.parent].Mul(n.pose)
			}
			r.above, r.aboveG = append(r.above, int32(i)), append(r.aboveG, above[i])
		}
	}
}

// planJoints fills r.joints from the nodes and their axes, and the goal
// node lists.
func (r *Rig) planJoints() {
	r.joints = make([]joint, len(r.nodes))
	for i := range r.nodes {
		n, j := &r.nodes[i], &r.joints[i]
		j.rest, j.from = n.pose.R, -1
		if n.bone < 0 || n.axes < 0 || i == r.hips {
			continue
		}
		ax := &r.axes[n.axes]
		j.driven = true
		j.pre, j.postInv = ax.Pre, ax.Post.Conj()
		j.rest = ax.Pre.Mul(geom.IdentityQuat).Mul(j.postInv)
		for k := range j.muscle {
			j.min[k], j.max[k], j.sign[k] = comp(ax.Min, k), comp(ax.Max, k), comp(ax.Sign, k)
		}
		j.muscle, j.keep, j.from = n.muscle, n.keep, n.from
		if n.from >= 0 {
			j.fromPost = r.axes[r.nodes[n.from].axes].Post
		}
	}
	chain := make([]bool, len(r.nodes))
	for _, b := range GoalBones {
		for i := r.bone[b]; i > r.hips && r.nodes[i].body; i = r.nodes[i].parent {
			chain[i] = true
		}
	}
	inCompose := make([]bool, len(r.nodes))
	for _, i := range r.compose {
		inCompose[i] = true
	}
	r.goalChain, r.goalRot = r.goalChain[:0], r.goalRot[:0]
	for i := range r.nodes {
		if chain[i] {
			r.goalChain = append(r.goalChain, int32(i))
		}
		if chain[i] || inCompose[i] {
			r.goalRot = append(r.goalRot, int32(i))
		}
	}
}

// bodyFrameBones are the bones Rig.bodyFrame reads.
var bodyFrameBones = [...]int{Hips, LeftUpperLeg, RightUpperLeg, LeftUpperArm, RightUpperArm}

// bodyPose fills q (by human node) with the pose's local rotations and g
// with the globals of the hips and the body nodes in Rig.compose as they
// stand with the hips at the origin unrotated, and returns where the pose
// places the hips: the globals of the pose are h·g for them. The nodes not
// below the hips other than the hips get their stored pose.
func (r *Rig) bodyPose(p *Pose, q []geom.Quat, g []geom.Transform) (h geom.Transform) {
	r.localRotations(&p.Muscles, q)
	return r.placeBody(p, q, g)
}

// placeBody is bodyPose once q holds the local rotations of the nodes in
// Rig.compose.
func (r *Rig) placeBody(p *Pose, q []geom.Quat, g []geom.Transform) (h geom.Transform) {
	return r.placeBodyOf(r.compose, p, q, g)
}

// placeBodyOf is placeBody composing the body nodes listed (Rig.compose,
// or a Part's share of it: every node the centre of mass and the body
// frame read is in both).
func (r *Rig) placeBodyOf(compose []int32, p *Pose, q []geom.Quat, g []geom.Transform) (h geom.Transform) {
	for k, i := range r.above {
		g[i] = r.aboveG[k]
	}
	g[r.hips] = geom.Transform{R: geom.IdentityQuat, S: r.nodes[r.hips].pose.S}
	for _, i := range compose {
		n := &r.nodes[i]
		l := geom.Transform{T: r.localT(int(i), p), R: q[i], S: n.pose.S}
		g[i].SetMul(&g[n.parent], &l)
	}
	com := r.centreOfMass(g)
	bf := r.bodyFrame(g)
	hq := p.RootQ.Normalize().Mul(r.rootX.R).Mul(bf.Conj()).Normalize()
	ht := p.RootT.Scale(r.scale).Sub(hq.Rotate(com))
	return geom.Transform{T: ht, R: hq, S: geom.Vec3{X: 1, Y: 1, Z: 1}}
}

// HumanPose fills g (by human skeleton node, len ≥ the human node count)
// with the global transforms (in the avatar root's frame) the pose gives:
// local rotations from the muscles, then the hips placed so that the centre
// of mass is RootT times the human scale and the body frame is RootQ times
// the stored body frame (m_RootX.q). Nodes not below the hips other than
// the hips (the human root and any node between it and the hips), which no
// pose moves, get their stored pose.
func (r *Rig) HumanPose(p *Pose, g []geom.Transform) {
	var qb [MaxHumanNodes]geom.Quat
	q := qb[:len(r.nodes)]
	h := r.bodyPose(p, q, g)
	hipsS := r.nodes[r.hips].pose.S
	r.composeFromHips(geom.Transform{T: h.T, R: h.R, S: hipsS}, q, g, p)
}

// Apply writes the pose's local transforms over the rig's skeleton into
// dst (len Len()): every human bone from the muscles and RootT/RootQ, every
// other joint at its rest transform. The IK goals are not evaluated. Apply does not
// allocate.
func (r *Rig) Apply(p *Pose, dst []geom.Transform) {
	copy(dst, r.rest)
	r.ApplyHuman(p, dst)
}

// ApplyHuman writes the pose's human bones into dst (len Len()) and leaves
// every other node as it is, so that a humanoid pose can be laid over
// transforms that other curves have posed. It does not allocate.
func (r *Rig) ApplyHuman(p *Pose, dst []geom.Transform) {
	r.applyHuman(&r.all, p, dst)
}

// applyHuman is ApplyHuman for the work plan pl lists (Rig.all, or a
// Part's).
func (r *Rig) applyHuman(pl *plan, p *Pose, dst []geom.Transform) {
	var gb [MaxHumanNodes]geom.Transform
	var qb [MaxHumanNodes]geom.Quat
	g, q := gb[:len(r.nodes)], qb[:len(r.nodes)]
	r.localRotationsOf(pl.rotate, &p.Muscles, q)
	h := r.placeBodyOf(pl.compose, p, q, g)
	r.write(pl.targets, q, g, h, dst, p)
}

// IsHumanNode reports whether joint j of the rig's skeleton is written from a
// human bone (Apply and ApplyHuman set it; curves on it have no effect).
func (r *Rig) IsHumanNode(j int) bool {
	return j >= 0 && j < len(r.humanOf) && r.humanOf[j] >= 0 // a target per such node
}

// writeGlobals turns human globals g into the human bones' avatar local
// transforms (other nodes of dst are left alone): each bone's global
// relative to its written ancestor's global and the bridge between them.
// It is write's definition, for any globals.
func (r *Rig) writeGlobals(g []geom.Transform, dst []geom.Transform) {
	for _, t := range r.targets {
		pg := t.bridge
		if t.anc >= 0 {
			pg = g[t.anc].Mul(t.bridge)
		}
		l := pg.Inverse().Mul(g[t.human])
		l.R = l.R.Normalize()
		dst[t.node] = l
	}
}

// write turns a body pose (bodyPose's q, g and h) into the listed targets'
// avatar local transforms (other nodes of dst are left alone): the local
// transform of the bone's global relative to its written ancestor's
// global and the bridge between them; a local target's is binv times its
// human local transform (the globals cancel out).
func (r *Rig) write(targets []int32, q []geom.Quat, g []geom.Transform, h geom.Transform, dst []geom.Transform, p *Pose) {
	for _, ti := range targets {
		t := &r.targets[ti]
		var l geom.Transform
		switch {
		case t.fixed:
			// What the case below gives, its constant part made once.
			l = t.ft
			l.R = q[t.human]
			if !t.identity {
				l.R = t.binv.R.Mul(l.R)
			}
		case t.local:
			n := &r.nodes[t.human]
			l = geom.Transform{T: r.localT(t.human, p), R: q[t.human], S: n.pose.S}
			if !t.identity {
				l.SetMul(&t.binv, &l)
			}
		case t.anc >= 0:
			ga, gh := h.Mul(g[t.anc]), h.Mul(g[t.human])
			pg := ga.Mul(t.bridge)
			l = pg.Inverse().Mul(gh)
		default:
			gh := h.Mul(g[t.human])
			l.SetMul(&t.binv, &gh)
		}
		l.R = l.R.Renormalize()
		dst[t.node] = l
	}
}

// Extract is the inverse of Apply: from local transforms over the rig's
// skeleton it finds the muscles, RootT and RootQ that reproduce the human
// bones' rotations (as Unity's GetHumanPose, it reads the rotations; the
// translations are the human skeleton's). Angles outside a bone's limits
// give muscles beyond ±1. The goals are left as they are.
//
// A pose the muscles cannot hold exactly (from another rig, a generic
// clip) is read as Unity's retargeting reads it: every bone keeps its
// direction and the hands and feet their whole rotation; what a bone
// cannot hold goes into twist. Each bone is read against its parent as
// the muscles will pose the parent; a lower arm or leg's sideways bend
// and a hand or foot's twist become the twist of the limb bone above
// (then shared down the chain by the avatar's twist settings), and a
// shoulder's or finger's twist is dropped.
func (r *Rig) Extract(local []geom.Transform, p *Pose) {
	var ab [256]geom.Transform
	var ag []geom.Transform
	if len(local) <= len(ab) {
		ag = ab[:len(local)]
	} else {
		ag = make([]geom.Transform, len(local))
	}
	for i := range local {
		if i >= len(r.parents) || r.parents[i] < 0 {
			ag[i] = r.rootFrame // the human space (see bindSkeleton)
			continue
		}
		ag[i] = ag[r.parents[i]].Mul(local[i])
	}
	var gb [MaxHumanNodes]geom.Transform
	g := gb[:len(r.nodes)]
	for i := range g {
		n := &r.nodes[i]
		switch {
		case n.node >= 0 && n.node < len(ag):
			g[i] = ag[n.node]
		case n.parent < 0:
			g[i] = n.pose
		default:
			g[i] = g[n.parent].Mul(n.pose)
		}
	}
	var qb, base [MaxHumanNodes]geom.Quat
	var ang [MaxHumanNodes][3]float32
	var child [MaxHumanNodes]int // the chain child that takes a bone's passed-on twist, -1 none
	q := qb[:len(r.nodes)]
	for i := range child[:len(r.nodes)] {
		child[i] = -1
	}
	p.Muscles = [model.MuscleCount]float32{}
	// Each bone is read relative to its parent as the pose will put the
	// parent (base: the parent's rotation from the angles it can hold,
	// with the whole of its twist), so that what a parent cannot hold
	// (a shoulder's twist, an elbow's sideways bend) does not turn its
	// children: every bone keeps its direction.
	for i := range r.nodes {
		n := &r.nodes[i]
		if n.parent < 0 || i == r.hips || !n.body {
			base[i] = g[i].R
			q[i] = g[i].R
			if n.parent >= 0 {
				q[i] = g[n.parent].R.Conj().Mul(g[i].R).Normalize()
			}
			continue
		}
		q[i] = g[n.parent].R.Conj().Mul(g[i].R).Normalize()
		if n.bone < 0 || n.axes < 0 {
			base[i] = base[n.parent].Mul(n.pose.R)
			continue
		}
		ax := &r.axes[n.axes]
		rot := base[n.parent].Conj().Mul(g[i].R).Normalize()
		turn := geom.IdentityQuat
		if n.from >= 0 {
			// The twist about the parent's axis this bone cannot hold
			// itself belongs to the parent's twist (see passedTwist).
			post := r.axes[r.nodes[n.from].axes].Post
			// The hint: the pass that leaves the parent's twist as read
			// (what a pose this rig made passed on).
			kp := r.nodes[n.from].keep
			hint := float32(0)
			if kp > 0 {
				hint = ang[n.from][0] * (1 - kp) / kp
			}
			pass := r.passedTwist(n, post, rot, hint)
			turn = axisRotation(post, pass)
			rot = turn.Conj().Mul(rot)
			ang[n.from][0] += pass
			child[n.from] = i
		}
		x, y, z := SplitInner(ax.Pre.Conj().Mul(rot).Mul(ax.Post))
		var held [3]float32
		for k, a := range [3]float32{x, y, z} {
			if mi := n.muscle[k]; mi >= 0 {
				lo, hi, sg := comp(ax.Min, k), comp(ax.Max, k), comp(ax.Sign, k)
				held[k] = MuscleAngle(AngleMuscle(a, lo, hi, sg), lo, hi, sg)
			}
		}
		ang[i] = held
		base[i] = base[n.parent].Mul(turn).Mul(ax.Pre.Mul(Inner(held[0], held[1], held[2])).Mul(ax.Post.Conj())).Normalize()
	}
	for i := range r.nodes {
		n := &r.nodes[i]
		if n.bone < 0 || n.axes < 0 || i == r.hips || n.parent < 0 || !n.body {
			continue
		}
		ax := &r.axes[n.axes]
		a := ang[i]
		switch {
		case child[i] >= 0:
			// Its own twist and what its child took: the whole twist.
			a[0] = WrapAngle(a[0])
		case n.keep != 1:
			// A share kept with no child in the chain to take the rest.
			a[0] = 0
			if n.keep > 0 {
				a[0] = WrapAngle(ang[i][0] / n.keep)
			}
		}
		for k, mi := range n.muscle {
			if mi >= 0 {
				p.Muscles[mi] = AngleMuscle(a[k], comp(ax.Min, k), comp(ax.Max, k), comp(ax.Sign, k))
			}
		}
	}
	// Translation DoF: each bone's offset from the human skeleton's
	// translation, turned as its parent, in the pose's units over the
	// human scale.
	p.TDoF = [model.TDoFCount]geom.Vec3{}
	for i := range r.nodes {
		n := &r.nodes[i]
		if n.tdof < 0 || n.parent < 0 || r.scale == 0 {
			continue
		}
		t := g[n.parent].R.Conj().Rotate(g[i].T.Sub(g[n.parent].T))
		p.TDoF[n.tdof] = t.Sub(n.pscale.Mul(n.pose.T)).Scale(1 / r.scale)
	}
	// The body as read (GetHumanPose reads the bones' rotations):
	// rotations as read, translations the human skeleton's with the
	// translation DoF.
	r.composeFromHips(g[r.hips], q, g, p)
	com := r.centreOfMass(g)
	bf := r.bodyFrame(g)
	if r.scale != 0 {
		p.RootT = com.Scale(1 / r.scale)
	}
	p.RootQ = bf.Mul(r.rootX.R.Conj()).Normalize()
}

// Bends (radians) of a lower arm or leg from its parent's twist axis
// below which it counts as straight and above which as bent (see
// passedTwist).
const (
	straightBend = 5 * math.Pi / 180
	bentBend     = 15 * math.Pi / 180
)

// passedTwist returns how much of a limb bone's local rotation rot is a
// twist about its chain parent's axis (post: the parent's post rotation):
// the angle p such that, with post·Rx(p)·post⁻¹ taken off rot, what
// remains has no component on the degree of freedom the bone lacks. A
// lower arm or leg has no y (its one swing is the bend): the remainder's
// twist axis must stay in its pre frame's x-y plane, which the parent's
// twist solves (of the two angles that do, the one nearer hint: the
// two are a half turn apart where the bend axis is square to the
// parent's twist axis, nearer on rigs whose frames are not). A hand or
// foot has no twist: the remainder's twist must be 0. So a bone's
// direction and the end bone's whole rotation stay as read, and the twist
// goes to the bone that has one, as Unity's retargeting does.
func (r *Rig) passedTwist(n *hnode, post geom.Quat, rot geom.Quat, hint float32) float32 {
	ax := &r.axes[n.axes]
	if n.muscle[AxisX] < 0 {
		// q(p) = B·Rx(−p)·Q with B = pre⁻¹·post, Q = post⁻¹·rot·post_n;
		// its x component is c·X1 − s·X2 (c, s: cos and sin of p/2).
		b := ax.Pre.Conj().Mul(post)
		qq := post.Conj().Mul(rot).Mul(ax.Post)
		x1 := b.Mul(qq).X
		x2 := b.Mul(geom.Quat{X: 1}).Mul(qq).X
		sh, ch := math.Sincos(float64(hint) / 2)
		if math.Abs(ch*float64(x1)-sh*float64(x2)) <= 1e-6 {
			// As a pose this rig made passed it on, or a frame where the
			// parent's twist cannot undo the bone's own.
			return hint
		}
		return WrapAngle(float32(2 * math.Atan2(float64(x1), float64(x2))))
	}
	if n.muscle[AxisY] >= 0 {
		return hint
	}
	// The remainder's x axis ⊥ its pre frame's z: (Rx(p)·a)·w = 0 with
	// a = post⁻¹·pre·e_z and w = post⁻¹·rot·post_n·e_x.
	a := post.Conj().Mul(ax.Pre).Rotate(geom.Vec3{Z: 1})
	w := post.Conj().Mul(rot).Mul(ax.Post).Rotate(geom.Vec3{X: 1})
	c := float64(a.Y*w.Y + a.Z*w.Z)
	s := float64(a.Y*w.Z - a.Z*w.Y)
	d := float64(a.X * w.X)
	h := math.Hypot(c, s)
	if h < 1e-9 {
		return hint
	}
	if f := c*math.Cos(float64(hint)) + s*math.Sin(float64(hint)) + d; math.Abs(f) <= 1e-6 {
		return hint // as a pose this rig made passed it on (the roots are ill-conditioned where they meet)
	}
	phi := math.Atan2(s, c)
	dp := math.Acos(max(-1, min(1, -d/h)))
	p1, p2 := WrapAngle(float32(phi+dp)), WrapAngle(float32(phi-dp))
	d1, d2 := WrapAngle(p1-hint), WrapAngle(p2-hint)
	if abs(d2) < abs(d1) {
		d1 = d2
	}
	// A straight limb's sideways bend says nothing of where it bends:
	// fade the pass in over the first degrees of bend so that a limb
	// near straight keeps its twist where it is read.
	bend := math.Acos(math.Max(-1, math.Min(1, float64(w.X))))
	fade := float32(math.Max(0, math.Min(1, (bend-straightBend)/(bentBend-straightBend))))
	return WrapAngle(hint + fade*d1)
}
