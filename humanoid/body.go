package humanoid

import (
	"fmt"
	"math"

	"github.com/mecanim/mecanim/geom"
)

// buildCentres prepares the centre-of-mass rule (spec, "The hips: RootT and
// RootQ"): each body bone's mass (m_HumanBoneMass, where Unity has already
// moved a missing bone's mass to a present one) sits at its segment's
// centre: the mean of its origin and its children's origins; the hips' is
// their children's alone; the head, hands and feet use their own origin;
// toes, eyes and jaw count as no bone's children (and use their own origin);
// the left lower arm's "own origin" is the left upper arm's (the editor does
// this on both avatars the spec read). Children are the nearest present
// descendants (a missing upper chest makes the neck and shoulders the
// chest's children; checked exact on morbman, which lacks it).
//
// Two rules for avatars lacking optional bones were found from the corpus
// (m_RootX.t is the answer key; the stored centre of mass of the stored
// human pose then matches to float precision, see TestCorpusCentreOfMass):
//   - No chest (amalgamator, defective, extractor, ironHauler, solusWing,
//     tanker, worker: 7 ror2 avatars, with and without neck and shoulders):
//     the spine, which then carries the chest's and upper chest's mass, sits
//     at 0.9 of the way from the spine to the middle of the upper arms
//     (solving each avatar's m_RootX.t for the spine's centre gives 0.90000,
//     off that line by at most 6e-6 of its length).
//   - A chest but not the neck and both shoulders (FinalBeta2/ChadRig,
//     IGOTITPOGGGGG, bandit1, solusHeart, vultureBoss: no neck, with and
//     without upper chest and shoulders): the topmost trunk bone (upper
//     chest, else chest), carrying the mass of the bones it lacks above it,
//     sits at the mean of its origin and the two upper arms' (an exhaustive
//     search over small integer weights of the trunk, neck, head,
//     shoulders and upper arms finds only this, on all five). The case of a
//     neck without both shoulders is not in the corpus: on one such avatar
//     outside it, averaging the neck in as well misses the stored m_RootX.t
//     by 0.5% of the height, and this rule (the neck left out unless both
//     shoulders exist) fits it to 2e-7 (see avatarbuild's
//     TestCentreOfMassWithoutShoulders for the rule on a corpus avatar
//     rebuilt without its shoulders).
func (r *Rig) buildCentres(mass []float32) error {
	if len(mass) != BodyBoneCount {
		return fmt.Errorf("human bone mass has %d entries, want %d", len(mass), BodyBoneCount)
	}
	has := func(b int) bool { return r.bone[b] >= 0 }
	trunk := UpperChest
	if !has(trunk) {
		trunk = Chest
	}
	r.centres = r.centres[:0]
	r.massSum = 0
	for b := 0; b < BodyBoneCount; b++ {
		if !has(b) || mass[b] == 0 {
			continue
		}
		c := centre{mass: mass[b]}
		add := func(bone int, w float32) {
			if c.n < len(c.nodes) {
				c.nodes[c.n] = r.bone[bone]
				c.w[c.n] = w
				c.n++
			}
		}
		switch {
		case b == Spine && !has(Chest):
			add(Spine, 0.1)
			add(LeftUpperArm, 0.45)
			add(RightUpperArm, 0.45)
		case b == trunk && has(Chest) && !(has(Neck) && has(LeftShoulder) && has(RightShoulder)):
			add(trunk, 1)
			add(LeftUpperArm, 1)
			add(RightUpperArm, 1)
		case b == Head || b == LeftHand || b == RightHand || b == LeftFoot || b == RightFoot ||
			b == LeftToes || b == RightToes || b == LeftEye || b == RightEye || b == Jaw:
			add(b, 1)
		default:
			if b == LeftLowerArm {
				add(LeftUpperArm, 1)
			} else if b != Hips {
				add(b, 1)
			}
			for k := 0; k < BodyBoneCount; k++ {
				switch k {
				case LeftToes, RightToes, LeftEye, RightEye, Jaw:
					continue
				}
				if has(k) && presentParent(k, has) == b {
					add(k, 1)
				}
			}
		}
		if c.n == 0 {
			add(b, 1)
		}
		var sum float32
		for i := 0; i < c.n; i++ {
			sum += c.w[i]
		}
		for i := 0; i < c.n; i++ {
			c.w[i] *= c.mass / sum
		}
		r.centres = append(r.centres, c)
		r.massSum += c.mass
	}
	if r.massSum <= 0 || r.massSum != r.massSum {
		return fmt.Errorf("human bone masses sum to %v", r.massSum)
	}
	return nil
}

// centreOfMass returns the centre of mass of the human skeleton's global
// transforms g (indexed by human node).
func (r *Rig) centreOfMass(g []geom.Transform) geom.Vec3 {
	var sum geom.Vec3
	for i := range r.centres {
		c := &r.centres[i]
		for k := 0; k < c.n; k++ {
			sum = sum.Add(g[c.nodes[k]].T.Scale(c.w[k]))
		}
	}
	return sum.Scale(1 / r.massSum)
}

// bodyFrame returns the body frame of the human skeleton's global
// transforms g: up from the middle of the upper legs to the middle of the
// upper arms; lateral the sum of the right-minus-left vectors of the upper
// arms and the upper legs made perpendicular to up; forward their cross
// product. The spec measures this as not the whole of Unity's: against the
// editor's hips it is off by 0.05° rms over spine poses, 0.25° rms (3.2° at
// most) over random poses of every muscle, 0.6° rms on a second avatar; the
// up axis alone is exact (6e-5°). What Unity's builder stores as m_RootX.q
// is restFrame, which turns from this frame about up where the lateral
// vector is not perpendicular to up.
func (r *Rig) bodyFrame(g []geom.Transform) geom.Quat {
	q, _ := r.bodyFrameOK(g)
	return q
}

// bodyFrameOK is bodyFrame, and false when the lateral axis is undefined
// (the frame then follows the hips' x axis).
func (r *Rig) bodyFrameOK(g []geom.Transform) (geom.Quat, bool) {
	lul, rul := g[r.bone[LeftUpperLeg]].T, g[r.bone[RightUpperLeg]].T
	lua, rua := g[r.bone[LeftUpperArm]].T, g[r.bone[RightUpperArm]].T
	up := lua.Add(rua).Sub(lul.Add(rul)).Scale(0.5).Normalize()
	lat := rua.Sub(lua).Add(rul.Sub(lul))
	lat = lat.Sub(up.Scale(lat.Dot(up)))
	ok := true
	if l := lat.Len(); l == 0 || l < 1e-6*abs(r.scale) {
		ok = false
		// Coinciding left and right bones (ror2's solusWing, whose stored
		// m_RootX.q is NaN): the lateral axis is undefined; take the hips'
		// x axis, which keeps the frame a rotation that follows the hips.
		x := g[r.hips].R.Rotate(geom.Vec3{X: 1})
		lat = x.Sub(up.Scale(x.Dot(up)))
	}
	lat = lat.Normalize()
	fwd := lat.Cross(up)
	return geom.QuatFromAxes(lat, up, fwd), ok
}

// restFrame returns the body frame Unity's avatar builder stores as
// m_RootX.q for the human skeleton's global transforms g (in the human
// space), and false where bodyFrameOK finds the lateral axis undefined
// (returning its fallback). It shares bodyFrame's up axis and lateral
// vector but turns about up differently: the frame is the shortest
// rotation s taking the human space's +y to up, followed by the twist about
// +y of the shortest rotation taking +x to the lateral vector seen from s
// (s⁻¹·lateral, not made perpendicular to up). Where the lateral vector is
// perpendicular to up this is bodyFrame, s followed by a turn θ about +y;
// where it rises t out of the plane perpendicular to up, the turn is less,
// 2·atan(cos t·sin θ / (1 + cos t·cos θ)), about θ·(1 − tan²(t/2)).
//
// Found from the corpus: it gives every stored m_RootX.q of the 16 corpus
// avatars that store one to 4.2e-5° (float32 noise; the largest on
// solusHeart, whose coordinates are near 100), where bodyFrame misses
// extractor, vendor, defective and droneTech (lateral vectors rising 26° to
// 31°, turns 7° to 16°) by 0.51°, 0.45°, 0.78° and 1.23°, and still fits
// FinalBeta2's skewed landmarks (which the sum of the two right-minus-left
// vectors, not their unit vectors, fits). The same construction from the
// arms alone, from the sum of unit vectors or from the forward vector
// misses by 4.3°, 15° and 1.2°, the other rules tried by 1.2° to 66° (the
// table is humanoid/avatarbuild's TestRootQHypotheses). Whether the
// runtime's body rotation also turns from the human space this way (rather
// than from a frame that follows the body: it is not the same in every
// frame, and undefined for a body turned 180°) is not known, so bodyFrame,
// which the runtime uses, stays the rule that is.
// Where up points straight down or the lateral vector seen from s points
// along −x, the construction is undefined and bodyFrame is returned.
func (r *Rig) restFrame(g []geom.Transform) (geom.Quat, bool) {
	q, ok := r.bodyFrameOK(g)
	if !ok {
		return q, false
	}
	v := func(b int) [3]float64 {
		p := g[r.bone[b]].T
		return [3]float64{float64(p.X), float64(p.Y), float64(p.Z)}
	}
	lul, rul, lua, rua := v(LeftUpperLeg), v(RightUpperLeg), v(LeftUpperArm), v(RightUpperArm)
	var up, lat [3]float64
	for i := range up {
		up[i] = lua[i] + rua[i] - lul[i] - rul[i]
		lat[i] = rua[i] - lua[i] + rul[i] - lul[i]
	}
	if f, ok := frameFromHumanSpace(up, lat); ok {
		return f, true
	}
	return q, true
}

// frameFromHumanSpace returns restFrame's rotation for an up and a lateral
// vector (neither need be unit), and false where it is undefined.
func frameFromHumanSpace(up, lat [3]float64) (geom.Quat, bool) {
	unit := func(v [3]float64) ([3]float64, bool) {
		l := math.Sqrt(v[0]*v[0] + v[1]*v[1] + v[2]*v[2])
		return [3]float64{v[0] / l, v[1] / l, v[2] / l}, l > 0 && !math.IsInf(l, 0) && !math.IsNaN(l)
	}
	u, ok1 := unit(up)
	l, ok2 := unit(lat)
	if !ok1 || !ok2 || 1+u[1] < 1e-6 {
		return geom.Quat{}, false
	}
	// s, the shortest rotation from +y to u: (y × u, 1 + y·u), normalised.
	sn := math.Sqrt(u[2]*u[2] + u[0]*u[0] + (1+u[1])*(1+u[1]))
	s := [4]float64{u[2] / sn, 0, -u[0] / sn, (1 + u[1]) / sn}
	// l seen from s: s⁻¹·l.
	ls := rotate64([4]float64{-s[0], -s[1], -s[2], s[3]}, l)
	// The twist about +y of the shortest rotation from +x to ls, whose
	// quaternion is (x × ls, 1 + x·ls) = (0, −ls.z, ls.y, 1 + ls.x).
	ty, tw := -ls[2], 1+ls[0]
	tn := math.Hypot(ty, tw)
	if tn < 1e-9 {
		return geom.Quat{}, false
	}
	ty, tw = ty/tn, tw/tn
	// s · (0, ty, 0, tw).
	q := [4]float64{
		s[0]*tw - s[2]*ty,
		s[3]*ty + s[1]*tw,
		s[2]*tw + s[0]*ty,
		s[3]*tw - s[1]*ty,
	}
	return geom.Quat{X: float32(q[0]), Y: float32(q[1]), Z: float32(q[2]), W: float32(q[3])}.Normalize(), true
}

// rotate64 rotates v by the unit quaternion q (x, y, z, w).
func rotate64(q [4]float64, v [3]float64) [3]float64 {
	// t = 2·(q.xyz × v); v + w·t + q.xyz × t.
	t := [3]float64{
		2 * (q[1]*v[2] - q[2]*v[1]),
		2 * (q[2]*v[0] - q[0]*v[2]),
		2 * (q[0]*v[1] - q[1]*v[0]),
	}
	return [3]float64{
		v[0] + q[3]*t[0] + q[1]*t[2] - q[2]*t[1],
		v[1] + q[3]*t[1] + q[2]*t[0] - q[0]*t[2],
		v[2] + q[3]*t[2] + q[0]*t[1] - q[1]*t[0],
	}
}

// HumanCheck compares the rules with what the avatar stores: the centre of
// mass of the stored human pose against m_RootX.t, the builder's body frame
// (restFrame) against m_RootX.q, and the human scale.
type HumanCheck struct {
	CenterOfMass [3]float32 `json:"center_of_mass"`
	StoredRootT  [3]float32 `json:"stored_root_t"`
	// BodyFrameAngleDeg is the angle between the body frame rule and
	// m_RootX.q; -1 when the avatar stores no rotation there (NaN).
	BodyFrameAngleDeg float64 `json:"body_frame_angle_deg"`
	Scale             float32 `json:"scale"`
	CenterOfMassError float64 `json:"center_of_mass_error"`
}

// storedGlobals fills g with the stored human pose's global transforms.
func (r *Rig) storedGlobals(g []geom.Transform) {
	for i, n := range r.nodes {
		if n.parent < 0 {
			g[i] = n.pose
		} else {
			g[i] = g[n.parent].Mul(n.pose)
		}
	}
}

// storedBodyFrame returns the builder's body frame (restFrame) of the
// stored human pose.
func (r *Rig) storedBodyFrame() geom.Quat {
	var buf [MaxHumanNodes]geom.Transform
	g := buf[:len(r.nodes)]
	r.storedGlobals(g)
	q, _ := r.restFrame(g)
	return q
}

// RestBody returns the body transform of the avatar's stored human pose by
// the rules of this file, its centre of mass (T) and body frame (R): what an
// avatar builder stores as m_RootX (R is restFrame's, not bodyFrame's). It
// returns false when the body frame is undefined (the left and right upper
// arms and upper legs coincide across the body: Unity stores NaN there); R
// is then the fallback that follows the hips.
func (r *Rig) RestBody() (geom.Transform, bool) {
	var buf [MaxHumanNodes]geom.Transform
	g := buf[:len(r.nodes)]
	r.storedGlobals(g)
	q, ok := r.restFrame(g)
	return geom.Transform{T: r.centreOfMass(g), R: q, S: geom.Vec3{X: 1, Y: 1, Z: 1}}, ok
}

// Check evaluates the centre-of-mass rule and the body frame on the avatar's
// stored human pose and compares them with the stored m_RootX.
func (r *Rig) Check() HumanCheck {
	var buf [MaxHumanNodes]geom.Transform
	g := buf[:len(r.nodes)]
	r.storedGlobals(g)
	com := r.centreOfMass(g)
	bf, _ := r.restFrame(g)
	t := r.rootX.T
	angle := angleBetween(bf, r.rootX.R) * 180 / math.Pi
	if r.noRootQ {
		angle = -1
	}
	return HumanCheck{
		CenterOfMass:      [3]float32{com.X, com.Y, com.Z},
		StoredRootT:       [3]float32{t.X, t.Y, t.Z},
		BodyFrameAngleDeg: angle,
		Scale:             r.scale,
		CenterOfMassError: float64(com.Sub(t).Len()),
	}
}

func abs(x float32) float32 {
	if x < 0 {
		return -x
	}
	return x
}

// angleBetween is the angle in radians of the rotation from a to b, precise
// near 0 (unlike an arc cosine of the dot product in float32).
func angleBetween(a, b geom.Quat) float64 {
	d := a.Normalize().Conj().Mul(b.Normalize())
	v := math.Sqrt(float64(d.X)*float64(d.X) + float64(d.Y)*float64(d.Y) + float64(d.Z)*float64(d.Z))
	return 2 * math.Atan2(v, math.Abs(float64(d.W)))
}
