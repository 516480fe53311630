package humanoid

import (
	"errors"
	"fmt"
	"math"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
)

// MaxHumanNodes bounds a human skeleton: its root and the 55 human bones fit
// well inside; a larger one is refused as malformed.
const MaxHumanNodes = 128

// Goal is an IK goal's position and rotation, relative to the body (see
// Rig.Goals); applying a pose does not solve it (see Rig.SolveFeet).
type Goal struct {
	T geom.Vec3
	Q geom.Quat
}

// Pose is a humanoid pose as a clip stores it: the body's position (centre
// of mass over the human scale) and rotation, the 95 muscles, and the IK
// goals (left foot, right foot, left hand, right hand).
type Pose struct {
	RootT   geom.Vec3
	RootQ   geom.Quat
	Muscles [model.MuscleCount]float32
	Goals   [4]Goal
	// TDoF are the translations of model.TDoFBones away from the
	// avatar's human skeleton, in each bone's parent frame over the human
	// scale; an avatar built with translation DoF follows them, another
	// ignores them (zero: the avatar's own translations).
	TDoF [model.TDoFCount]geom.Vec3
}

// hnode is what a Rig keeps per human skeleton node.
type hnode struct {
	parent int       // human skeleton parent, -1 for the root
	bone   int       // human bone, -1 for a node that is none (the root)
	axes   int       // index into Rig.axes, -1 for none
	muscle [3]int16  // muscle driving x, y, z, -1 for none
	keep   float32   // share of its own twist the bone keeps (1 outside the limb chains)
	from   int       // human node whose passed-on twist this bone applies, -1 none
	body   bool      // strictly below the hips
	tdof   int       // index into Pose.TDoF when the rig follows translation DoF, -1 none
	pscale geom.Vec3 // the parent's global scale in the human skeleton's pose
	node   int       // avatar skeleton node written from this bone, -1 none
	pose   geom.Transform
}

// target is a human bone written to the avatar skeleton: its avatar node,
// and the constant transform from its nearest written human ancestor (or
// the avatar root) to its avatar parent (the non-human bones between them,
// at their rest pose).
type target struct {
	node   int // avatar skeleton node
	human  int // human skeleton node
	anc    int // human skeleton node of the nearest written ancestor, -1 for the avatar root
	bridge geom.Transform
	// local says the bone's local transform is binv times its human local
	// transform (T and S of the human pose, the muscles' rotation): its
	// written ancestor is its human parent, and that parent's global
	// scale and the bridge's are uniform, so the ancestor's global
	// cancels. binv is bridge's inverse; identity says it is the identity.
	local, identity bool
	binv            geom.Transform
	// fixed says a local target's translation and scale are constants
	// (its bone follows no translation DoF): T and S of binv times the
	// human local transform, whatever the rotation.
	fixed bool
	ft    geom.Transform
}

// joint is a human node's rotation rule with its constants taken out of
// the avatar once: whether muscles drive it (a bone with axes other than
// the hips), its rotation when they do not or when every angle is 0, its
// pre- and inverse post-rotation, its limits and signs by axis (x, y,
// z), its muscles, the share of its twist it keeps, and its chain
// parent (-1 none) with that parent's post-rotation.
type joint struct {
	driven             bool
	rest, pre, postInv geom.Quat
	fromPost           geom.Quat
	min, max, sign     [3]float32
	muscle             [3]int16
	keep               float32
	from               int
}

// centre is the segment centre of a body bone for the centre of mass: n
// human skeleton nodes' positions with weights w (summing to the mass).
type centre struct {
	nodes [4]int
	w     [4]float32
	n     int
	mass  float32
}

// Rig is a humanoid avatar prepared for muscle evaluation. It is immutable
// after NewRig and safe for concurrent use.
type Rig struct {
	name  string
	nodes []hnode
	axes  []model.Axes
	bone  [BoneCount]int // human bone -> human skeleton node, -1 absent
	hips  int            // human node of the hips

	centres []centre
	massSum float32
	scale   float32
	rootX   geom.Transform
	noRootQ bool // the avatar's m_RootX.q is not a rotation (rootX.R is computed)
	targets []target
	// compose lists the body nodes (below the hips, in order) whose
	// globals a pose needs: those the centre of mass and the body frame
	// read, and the written ancestors and bones of targets that are not
	// local, with their ancestors up to the hips.
	compose []int32
	// all is the work a pose of every joint takes (see plan).
	all plan
	// above lists the nodes not below the hips other than the hips (the
	// human root and any node between it and the hips), aboveG their
	// globals: no pose moves them.
	above  []int32
	aboveG []geom.Transform
	// joints holds per human node what its local rotation needs, ready to
	// use (see joint); goalChain lists the body nodes from the hips down
	// to the goal bones, and goalRot the nodes whose rotations Goals
	// needs (compose and goalChain), each in order.
	joints    []joint
	goalChain []int32
	goalRot   []int32
	paths     []string
	parents   []int
	rest      []geom.Transform
	humanOf   []int // joint -> human node, -1 for none
	// rootFrame is the avatar's stored root transform: the human space is
	// the root's parent's with the root there (see bindSkeleton).
	rootFrame geom.Transform
	skel      *anim.Skeleton
	hasHands  [2]bool
}

// Errors NewRig returns (wrapped with the avatar's name and what was wrong).
var (
	ErrNotHuman  = errors.New("avatar is not a humanoid")
	ErrMalformed = errors.New("malformed humanoid avatar")
)

// NewRig prepares a humanoid avatar over its own skeleton
// (anim.SkeletonFromAvatar: the avatar's nodes at its default pose), for
// when the files hold the avatar but not the character's GameObjects. See
// NewRigOn.
func NewRig(a *model.Avatar) (*Rig, error) {
	if a == nil {
		return nil, fmt.Errorf("humanoid: nil avatar: %w", ErrNotHuman)
	}
	s, err := anim.SkeletonFromAvatar(a)
	if err != nil {
		return nil, fmt.Errorf("humanoid: avatar %q: %w: %v", a.Name, ErrMalformed, err)
	}
	return NewRigOn(a, s)
}

// NewRigOn prepares a humanoid avatar playing on skel, the character's
// skeleton (its GameObjects at their scene transforms): it checks the
// compiled human data's indices and builds the tables Apply and Extract
// use. Human bones are found in skel by their paths' hashes; every other
// joint keeps its rest transform unless a clip's curves move it, as Unity
// leaves what no curve and no muscle writes at its scene value.
func NewRigOn(a *model.Avatar, skel *anim.Skeleton) (*Rig, error) {
	if skel == nil {
		return nil, fmt.Errorf("humanoid: NewRigOn: nil skeleton")
	}
	if a == nil || !a.IsHuman() {
		name := ""
		if a != nil {
			name = a.Name
		}
		return nil, fmt.Errorf("humanoid: avatar %q: %w", name, ErrNotHuman)
	}
	bad := func(format string, args ...any) error {
		return fmt.Errorf("humanoid: avatar %q: %w: %s", a.Name, ErrMalformed, fmt.Sprintf(format, args...))
	}
	h := a.Human
	hn := len(h.Skeleton.Nodes)
	if hn > MaxHumanNodes {
		return nil, bad("human skeleton has %d nodes (at most %d)", hn, MaxHumanNodes)
	}
	if len(h.Pose) != hn {
		return nil, bad("human pose has %d transforms for %d nodes", len(h.Pose), hn)
	}
	if len(h.BoneIndex) != BodyBoneCount {
		return nil, bad("human bone index has %d entries, want %d", len(h.BoneIndex), BodyBoneCount)
	}
	r := &Rig{name: a.Name, axes: h.Skeleton.Axes, scale: h.Scale, rootX: h.RootX, hips: -1}
	r.nodes = make([]hnode, hn)
	for i, n := range h.Skeleton.Nodes {
		if n.Parent >= i || n.Parent < -1 {
			return nil, bad("human node %d has parent %d", i, n.Parent)
		}
		if n.Axes < -1 || n.Axes >= len(r.axes) {
			return nil, bad("human node %d has axes %d of %d", i, n.Axes, len(r.axes))
		}
		r.nodes[i] = hnode{parent: n.Parent, bone: -1, node: -1, tdof: -1, axes: n.Axes, muscle: [3]int16{-1, -1, -1}, keep: 1, from: -1, pose: h.Pose[i]}
	}
	for b := range r.bone {
		r.bone[b] = -1
	}
	setBone := func(b, n int) error {
		if n < 0 {
			return nil
		}
		if n >= hn {
			return bad("human bone %s is node %d of %d", BoneNames[b], n, hn)
		}
		if r.nodes[n].bone >= 0 {
			return bad("node %d is both %s and %s", n, BoneNames[r.nodes[n].bone], BoneNames[b])
		}
		r.bone[b] = n
		r.nodes[n].bone = b
		return nil
	}
	for b, n := range h.BoneIndex {
		if err := setBone(b, n); err != nil {
			return nil, err
		}
	}
	for s, hand := range [2][]int{h.LeftHand, h.RightHand} {
		has := (s == 0 && h.HasLeftHand) || (s == 1 && h.HasRightHand)
		if !has || len(hand) == 0 {
			continue
		}
		if len(hand) != 15 {
			return nil, bad("hand %d has %d bones, want 15", s, len(hand))
		}
		r.hasHands[s] = true
		for f, n := range hand {
			if err := setBone(LeftHandFirst+15*s+f, n); err != nil {
				return nil, err
			}
		}
	}
	for _, b := range []int{Hips, LeftUpperLeg, RightUpperLeg, LeftLowerLeg, RightLowerLeg, LeftFoot, RightFoot,
		Spine, Head, LeftUpperArm, RightUpperArm, LeftLowerArm, RightLowerArm, LeftHand, RightHand} {
		if r.bone[b] < 0 {
			return nil, bad("required bone %s is missing", BoneNames[b])
		}
	}
	r.hips = r.bone[Hips]
	for i := range r.nodes {
		r.nodes[i].body = r.under(i, r.hips)
		if i != r.hips && r.nodes[i].bone >= 0 && !r.nodes[i].body {
			return nil, bad("bone %s is not below the hips", BoneNames[r.nodes[i].bone])
		}
	}
	for i := range r.nodes {
		n := &r.nodes[i]
		n.pscale = geom.Vec3{X: 1, Y: 1, Z: 1}
		if n.parent >= 0 {
			n.pscale = r.nodes[n.parent].pscale.Mul(r.nodes[n.parent].pose.S)
		}
	}
	if h.HasTDoF {
		for k, b := range model.TDoFBones {
			if n := r.bone[b]; n >= 0 {
				r.nodes[n].tdof = k
			}
		}
	}
	for m, d := range Muscles {
		n := r.bone[d.Bone]
		if n >= 0 && r.nodes[n].axes >= 0 {
			r.nodes[n].muscle[d.Axis] = int16(m)
		}
	}
	// Limb twist: a bone keeps its share of its own twist and passes the
	// rest to its child in the chain.
	chain := func(parent, child int, share float32) {
		p, c := r.bone[parent], r.bone[child]
		r.nodes[p].keep = share
		if c >= 0 && r.nodes[c].parent == p && r.nodes[p].axes >= 0 {
			r.nodes[c].from = p
		}
	}
	for s := 0; s < 2; s++ {
		chain(LeftUpperArm+s, LeftLowerArm+s, h.ArmTwist)
		chain(LeftLowerArm+s, LeftHand+s, h.ForeArmTwist)
		chain(LeftUpperLeg+s, LeftLowerLeg+s, h.UpperLegTwist)
		chain(LeftLowerLeg+s, LeftFoot+s, h.LegTwist)
	}
	if err := r.buildCentres(h.BoneMass); err != nil {
		return nil, bad("%v", err)
	}
	if err := r.bindSkeleton(a, skel); err != nil {
		return nil, bad("%v", err)
	}
	r.planPose()
	if q := r.rootX.R; !q.Finite() || q.Dot(q) == 0 {
		// A stored body frame that is not a rotation (ror2's solusWing
		// stores NaN): use the builder's body frame of the stored human
		// pose, which m_RootX.q equals on every avatar that stores one
		// (see TestCorpusCentreOfMass).
		r.rootX.R = r.storedBodyFrame()
		r.noRootQ = true
	}
	return r, nil
}

// under reports whether human node n is a descendant of node anc.
func (r *Rig) under(n, anc int) bool {
	for p := r.nodes[n].parent; p >= 0; p = r.nodes[p].parent {
		if p == anc {
			return true
		}
	}
	return false
}

// bindSkeleton maps the human skeleton onto the joints of s, the
// character's skeleton: each human bone's avatar node is the joint whose
// path has the node's hash (a human bone whose node s lacks is not
// written). The joints' rest transforms are what the character holds where
// nothing animates; the bones between two human bones (and between the
// root and the hips) bridge them at their rest.
//
// The human pose lives in the space of the Animator's parent with the
// Animator's own GameObject at the transform the avatar stored for it (its
// default pose's root): Unity's avatar builder composed that transform into
// the human skeleton's pose. So the hips' local transform counts the stored
// root out, and a character whose root stands elsewhere in its scene (its
// rest) carries the body with it. Evidence: on every corpus avatar the
// human skeleton's pose equals the avatar skeleton pose's locals below the
// hips, and the first node under the human root holds its avatar global
// composed from the avatar root's stored transform; morbman's root is
// stored turned −90° about x (m_DefaultPose[0], m_AvatarSkeletonPose[0]
// and the description's "morbman(Clone)" alike), its hips (Armature) rest
// at identity in the skeleton pose, and its human pose holds the hips at
// −90° about x: upright with the root's turn counted once. The other 16
// corpus avatars store the root at identity.
func (r *Rig) bindSkeleton(a *model.Avatar, s *anim.Skeleton) error {
	an := len(a.Skeleton.Nodes)
	r.skel = s
	r.rest = s.Rest
	r.parents = s.Parents
	r.paths = s.Paths
	r.rootFrame = geom.Identity
	stored := a.DefaultPose
	if len(stored) != an {
		stored = a.SkeletonPose
	}
	if an > 0 && len(stored) == an && a.Skeleton.Nodes[0].Parent < 0 && stored[0].Finite() {
		r.rootFrame = stored[0]
	}
	jointOf := make([]int, an)
	for i, n := range a.Skeleton.Nodes {
		if n.Parent >= i || n.Parent < -1 {
			return fmt.Errorf("avatar node %d has parent %d", i, n.Parent)
		}
		jointOf[i] = -1
		if j, ok := s.IndexHash(n.PathHash); ok {
			jointOf[i] = j
		}
	}
	r.humanOf = make([]int, s.Len())
	for i := range r.humanOf {
		r.humanOf[i] = -1
	}
	if len(a.HumanSkeletonIndex) != len(r.nodes) {
		return fmt.Errorf("human skeleton index has %d entries for %d human nodes", len(a.HumanSkeletonIndex), len(r.nodes))
	}
	for h, n := range a.HumanSkeletonIndex {
		if n < -1 || n >= an {
			return fmt.Errorf("human node %d maps to avatar node %d of %d", h, n, an)
		}
		if n < 0 || r.nodes[h].bone < 0 || jointOf[n] < 0 {
			continue
		}
		j := jointOf[n]
		if r.humanOf[j] >= 0 {
			return fmt.Errorf("avatar node %d is two human bones", n)
		}
		r.humanOf[j] = h
		r.nodes[h].node = j
	}
	if r.nodes[r.hips].node < 0 {
		return errors.New("the skeleton has no joint for the hips")
	}
	// Written bones: every human bone with a joint. The root joint's frame
	// is the human space with the root at its stored transform.
	for i := range s.Len() {
		h := r.humanOf[i]
		if h < 0 {
			continue
		}
		t := target{node: i, human: h, anc: -1, bridge: geom.Identity}
		for p := r.parents[i]; p >= 0; p = r.parents[p] {
			if r.humanOf[p] >= 0 {
				t.anc = r.humanOf[p]
				break
			}
			if r.parents[p] < 0 {
				t.bridge = r.rootFrame.Mul(t.bridge) // the root: human space
				break
			}
			t.bridge = r.rest[p].Mul(t.bridge)
		}
		r.targets = append(r.targets, t)
	}
	return nil
}

// followsTDoF reports whether the rig follows translation DoF (the avatar
// was built with them and has one of their bones).
func (r *Rig) followsTDoF() bool {
	for i := range r.nodes {
		if r.nodes[i].tdof >= 0 {
			return true
		}
	}
	return false
}

// Name returns the avatar's name.
func (r *Rig) Name() string { return r.name }

// Len returns the number of joints of the rig's skeleton (the length of
// the pose Apply writes).
func (r *Rig) Len() int { return len(r.parents) }

// HumanNode returns the human skeleton node that plays human bone b (-1 when
// the avatar lacks it).
func (r *Rig) HumanNode(b int) int {
	if b < 0 || b >= BoneCount {
		return -1
	}
	return r.bone[b]
}

// AvatarNode returns the avatar skeleton node of human bone b (-1 when the
// avatar lacks it).
func (r *Rig) AvatarNode(b int) int {
	h := r.HumanNode(b)
	if h < 0 {
		return -1
	}
	for _, t := range r.targets {
		if t.human == h {
			return t.node
		}
	}
	return -1
}

// Scale returns the avatar's human scale (m_Scale).
func (r *Rig) Scale() float32 { return r.scale }

// Limits returns the rotation limits (radians, x twist, y, z) and signs of
// human bone b, and false when the avatar lacks the bone or its axes.
func (r *Rig) Limits(b int) (min, max, sign geom.Vec3, ok bool) {
	n := r.HumanNode(b)
	if n < 0 || r.nodes[n].axes < 0 {
		return
	}
	ax := &r.axes[r.nodes[n].axes]
	return ax.Min, ax.Max, ax.Sign, true
}

// comp returns component i (0 x, 1 y, 2 z) of v.
func comp(v geom.Vec3, i int) float32 {
	switch i {
	case 0:
		return v.X
	case 1:
		return v.Y
	}
	return v.Z
}

// MuscleAngle returns the angle in radians a muscle value gives on an axis
// with the given limits and sign: sgn·v·max for v ≥ 0, sgn·(−v·min) below;
// values beyond ±1 continue linearly (overshoot).
func MuscleAngle(v, min, max, sgn float32) float32 {
	if v >= 0 {
		return sgn * v * max
	}
	return sgn * (-v * min)
}

// AngleMuscle is the inverse of MuscleAngle (0 where the limit on that side
// is 0).
func AngleMuscle(angle, min, max, sgn float32) float32 {
	a := angle * sgn
	if a >= 0 {
		if max == 0 {
			return 0
		}
		return a / max
	}
	if min == 0 {
		return 0
	}
	return -a / min
}

// WrapAngle wraps an angle in radians into (−π, π].
func WrapAngle(x float32) float32 {
	const twoPi = 2 * math.Pi
	if x > -math.Pi && x <= math.Pi {
		return x
	}
	return x - twoPi*float32(math.Ceil((float64(x)-math.Pi)/twoPi))
}

// Swing returns the swing rotation T(y, z) whose quaternion is
// normalize(0, tan(y/2), tan(z/2), 1).
func Swing(y, z float32) geom.Quat {
	if y == 0 && z == 0 {
		return geom.IdentityQuat
	}
	if y == 0 || z == 0 {
		// About one axis: normalize(0, tan(a/2), 0, 1) is (0, sin(a/2),
		// 0, cos(a/2)) with w made positive.
		s, c := sinCos(float64(y+z) / 2)
		if c < 0 {
			s, c = -s, -c
		}
		if z == 0 {
			return geom.Quat{Y: float32(s), W: float32(c)}
		}
		return geom.Quat{Z: float32(s), W: float32(c)}
	}
	// normalize(0, sy/cy, sz/cz, 1) with the tangents' denominators
	// multiplied through: (0, sy·cz, sz·cy, cy·cz) over its length.
	sy, cy := sinCos(float64(y) / 2)
	sz, cz := sinCos(float64(z) / 2)
	qy, qz, qw := sy*cz, sz*cy, cy*cz
	l := math.Sqrt(qy*qy + qz*qz + qw*qw)
	if qw < 0 {
		l = -l // w stays positive, as 1 is
	}
	if !(l != 0) {
		return geom.IdentityQuat
	}
	inv := 1 / l
	return geom.Quat{Y: float32(qy * inv), Z: float32(qz * inv), W: float32(qw * inv)}
}

// rotX is the rotation of angle x about the x axis.
func rotX(x float32) geom.Quat {
	if x == 0 {
		return geom.IdentityQuat
	}
	s, c := sinCos(float64(x) / 2)
	return geom.Quat{X: float32(s), W: float32(c)}
}

// sinCos returns the sine and cosine of a, to far better than float32
// precision (what its callers keep): within a quarter turn of 0, where the
// half angles of a joint's rotations lie, by their Taylor series to the
// 14th power (the first term left out is below 1e-12 of the result);
// elsewhere by math.Sincos.
func sinCos(a float64) (s, c float64) {
	if !(a >= -math.Pi/4 && a <= math.Pi/4) {
		return math.Sincos(a)
	}
	z := a * a
	s = a * (1 + z*(-1.0/6+z*(1.0/120+z*(-1.0/5040+z*(1.0/362880+z*(-1.0/39916800+z*(1.0/6227020800)))))))
	c = 1 + z*(-1.0/2+z*(1.0/24+z*(-1.0/720+z*(1.0/40320+z*(-1.0/3628800+z*(1.0/479001600+z*(-1.0/87178291200)))))))
	return s, c
}

// Inner returns the rotation inside a joint for angles x (twist), y, z:
// T(y, z)·Rx(x).
func Inner(x, y, z float32) geom.Quat {
	sw := Swing(y, z)
	if x == 0 {
		return sw // times the identity, exactly
	}
	// sw·Rx(x) written out without the terms that are 0 (sw.X and
	// Rx's y and z): the same sums in the same order as Quat.Mul.
	rx := rotX(x)
	return geom.Quat{
		X: sw.W * rx.X,
		Y: sw.Y*rx.W + sw.Z*rx.X,
		Z: sw.Z*rx.W - sw.Y*rx.X,
		W: sw.W * rx.W,
	}
}

// SplitInner is the inverse of Inner: the angles (x in (−π, π], y and z in
// (−π, π)) of a joint rotation.
func SplitInner(q geom.Quat) (x, y, z float32) {
	// q = T·Rx with T = (0, b, c, a)/n, Rx = (s, 0, 0, co):
	// q = (a·s, co·b + s·c, co·c − s·b, a·co).
	ix, iy, iz, iw := float64(q.X), float64(q.Y), float64(q.Z), float64(q.W)
	a := math.Hypot(ix, iw)
	if a == 0 {
		// A half-turn swing: the twist is undefined; take it as 0.
		return 0, float32(2 * math.Atan2(iy, 0)), float32(2 * math.Atan2(iz, 0))
	}
	s, co := ix/a, iw/a
	b := co*iy - s*iz
	c := s*iy + co*iz
	x = WrapAngle(float32(2 * math.Atan2(ix, iw)))
	return x, float32(2 * math.Atan2(b, a)), float32(2 * math.Atan2(c, a))
}
