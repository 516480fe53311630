package humanoid

import (
	"math"

	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
)

// Goal indices of Pose.Goals (Unity's AvatarIKGoal order, the order of a
// clip's goal attributes 14..41).
const (
	GoalLeftFoot = iota
	GoalRightFoot
	GoalLeftHand
	GoalRightHand
)

// GoalBones are the human bones the four goals follow.
var GoalBones = [4]int{LeftFoot, RightFoot, LeftHand, RightHand}

// Goals fills g with the IK goals pose p puts the hands and feet at, in the
// frame a humanoid clip stores its goal curves (LeftFootT/Q ... RightHandT/Q).
//
// The frame, measured on the corpus (TestCorpusGoalsFollowTheLimbs): a goal
// is relative to the body, as RootT/RootQ place it, in the same normalised
// units: T = RootQ⁻¹·(point/scale − RootT) and Q = RootQ⁻¹·R·post, where R
// is the bone's global rotation in the avatar root's frame (what HumanPose
// gives), post its joint frame's post-rotation (Axes.Post), and scale the
// human scale. A hand's point
// is its bone's origin. A foot's point is the sole: the bone's origin moved
// along the joint's x axis by the foot's height in the stored human pose
// (its origin's y: every corpus avatar's stored pose has the feet's joint x
// axis pointing straight down and the ground at y = 0, its centre of mass
// at exactly the human scale), Unity's "foot bottom height".
//
// How well: no corpus clip comes with the avatar it was imported from, so
// the residuals mix the rule's error with the difference between the
// clip's source skeleton and the one it is played on. Rms over each clip
// (TestCorpusGoalsFollowTheLimbs), feet then hands, position in normalised
// units and rotation: the lethal-emotes clips on the scavenger FinalBeta2
// (Floss, Default Dance, hiphop) feet 0.022–0.053 and 1.5–3.5°, hands
// 0.072–0.101 and 1.8–4.9°; the same and Dab on the Mixamo "Y Bot" feet
// 0.039–0.078 and 3.4–5.5°, hands 0.041–0.175 and 4–19°; BayonettaTest
// (4 minutes, travelling 4 units) feet 0.04–0.09 on both. Read without the
// sole (the goal at the ankle) the feet are off by 0.08–0.15 on every pair,
// the fitted mean offset being the foot height along the joint's x axis;
// with the sole straight below the ankle instead (not turning with the
// foot) the feet fit worse on 6 of the 9 pairs (summed rms 1.10 against
// 0.95), which agrees with Unity's documented foot bottom, found by moving
// from the goal along the goal's rotation;
// read as absolute (not relative to the body) every goal is off by 0.6–4.3.
// A free constant offset per foot fitted in the goal's frame brings the
// feet to 0.016–0.043 on these pairs: the rest of a per-clip constant is
// the source skeleton's own foot height and proportions, which nothing on
// the playing avatar says. Goals does not allocate.
func (r *Rig) Goals(p *Pose, g *[4]Goal) {
	// HumanPose's globals of the goal bones alone: the rotations the
	// body's placement and the goal chains need, the chains composed.
	var gb [MaxHumanNodes]geom.Transform
	var qb [MaxHumanNodes]geom.Quat
	h, q := gb[:len(r.nodes)], qb[:len(r.nodes)]
	r.localRotationsOf(r.goalRot, &p.Muscles, q)
	b := r.placeBody(p, q, h)
	h[r.hips] = geom.Transform{T: b.T, R: b.R, S: r.nodes[r.hips].pose.S}
	for _, i := range r.goalChain {
		n := &r.nodes[i]
		l := geom.Transform{T: r.localT(int(i), p), R: q[i], S: n.pose.S}
		h[i].SetMul(&h[n.parent], &l)
	}
	r.goalsFrom(p, h, g)
}

// goalsFrom computes the goals from the human globals h of pose p.
func (r *Rig) goalsFrom(p *Pose, h []geom.Transform, g *[4]Goal) {
	rq := p.RootQ.Normalize().Conj()
	inv := float32(0)
	if r.scale != 0 {
		inv = 1 / r.scale
	}
	for k, b := range GoalBones {
		n := r.bone[b]
		if n < 0 {
			g[k] = Goal{Q: geom.IdentityQuat}
			continue
		}
		q := h[n].R
		if ax := r.nodes[n].axes; ax >= 0 {
			q = q.Mul(r.axes[ax].Post)
		}
		q = q.Normalize()
		pt := h[n].T
		if k <= GoalRightFoot {
			pt = pt.Add(q.Rotate(geom.Vec3{X: r.footHeight(n)}))
		}
		g[k] = Goal{T: rq.Rotate(pt.Scale(inv).Sub(p.RootT)), Q: rq.Mul(q).Normalize()}
	}
}

// footHeight returns the height of human node n's origin above the ground
// (y = 0 of the human space) in the stored human pose.
func (r *Rig) footHeight(n int) float32 {
	var chain [MaxHumanNodes]int
	k := 0
	for i := n; i >= 0 && k < len(chain); i = r.nodes[i].parent {
		chain[k] = i
		k++
	}
	x := geom.Identity
	for k--; k >= 0; k-- {
		x = x.Mul(r.nodes[chain[k]].pose)
	}
	return x.T.Y
}

// legMuscles lists the muscles SolveFeet adjusts on leg side: those of the
// upper leg, lower leg and foot.
func legMuscles(side int) (m [9]int, n int) {
	for i, d := range Muscles {
		switch d.Bone {
		case LeftUpperLeg + side, LeftLowerLeg + side, LeftFoot + side:
			if n < len(m) {
				m[n] = i
				n++
			}
		}
	}
	return m, n
}

// Solver settings: the most Gauss–Newton steps per leg, the step of the
// numeric derivative (muscle units), the weight of the rotation error
// (radians) against the position error (fractions of the leg's length),
// and the error (of both, together) at which a leg counts as solved.
const (
	solveSteps     = 30
	solveDelta     = 1e-3
	solveRotWeight = 0.5
	solveTolerance = 1e-6
)

// SolveFeet adjusts the leg muscles of p (upper leg, lower leg and foot of
// each side, kept within ±1) so that the feet reach the goals
// p.Goals[GoalLeftFoot] and p.Goals[GoalRightFoot] (in the frame Goals
// defines), blended by weight from where the feet are (0 leaves the pose, 1
// reaches the goals where the legs can). Each leg is solved in muscle
// space by damped Gauss–Newton (Levenberg–Marquardt) steps over the sole's
// position and the foot's rotation, so the result is always a pose the
// muscles can hold (a foot has no twist of its own: its turn about the leg
// comes from the leg's twist muscles, shared down the chain as Apply shares
// it). Rotation counts half as much as position (a radian against a leg's
// length); a goal out of reach ends with the leg as close as the muscles'
// ranges allow.
//
// The hips stay where the pose put them. RootT is the centre of mass, which
// moving the legs moves, so SolveFeet updates RootT (RootQ, the body frame,
// does not depend on the legs) and re-expresses all four goals relative to
// the new RootT, so that they still name the same points. SolveFeet does
// not allocate.
func (r *Rig) SolveFeet(p *Pose, weight float32) {
	if !(weight > 0) || r.scale == 0 {
		return
	}
	if weight > 1 {
		weight = 1
	}
	rq := p.RootQ.Normalize()
	var gb [MaxHumanNodes]geom.Transform
	h := gb[:len(r.nodes)]
	r.HumanPose(p, h)
	hips := h[r.hips]
	var cur [4]Goal
	r.goalsFrom(p, h, &cur)
	oldRootT := p.RootT
	for side := 0; side < 2; side++ {
		at := func(g Goal) geom.Vec3 { return p.RootT.Add(rq.Rotate(g.T)).Scale(r.scale) }
		wantT := at(cur[side]).Lerp(at(p.Goals[side]), weight)
		wantQ := rq.Mul(cur[side].Q).Nlerp(rq.Mul(p.Goals[side].Q).Normalize(), weight)
		r.solveLeg(p, hips, side, wantT, wantQ)
	}
	var rb [MaxHumanNodes]geom.Quat
	rot := rb[:len(r.nodes)]
	r.localRotations(&p.Muscles, rot)
	r.composeFromHips(hips, rot, h, p)
	p.RootT = r.centreOfMass(h).Scale(1 / r.scale)
	shift := rq.Conj().Rotate(oldRootT.Sub(p.RootT))
	for k := range p.Goals {
		p.Goals[k].T = p.Goals[k].T.Add(shift)
	}
}

// legError fills e with the error of leg side under muscles m, the hips
// at hips: the sole's offset from sole over the leg's length, and the
// rotation from the foot's joint frame to rot (axis times angle, weighted).
func (r *Rig) legError(m *[model.MuscleCount]float32, hips geom.Transform, side int, sole geom.Vec3, rot geom.Quat, e *[6]float64) {
	var gb [MaxHumanNodes]geom.Transform
	var rb [MaxHumanNodes]geom.Quat
	g, q := gb[:len(r.nodes)], rb[:len(r.nodes)]
	r.localRotations(m, q)
	r.composeFromHips(hips, q, g, nil)
	f := r.bone[LeftFoot+side]
	fr := g[f].R
	if ax := r.nodes[f].axes; ax >= 0 {
		fr = fr.Mul(r.axes[ax].Post)
	}
	fr = fr.Normalize()
	pt := g[f].T.Add(fr.Rotate(geom.Vec3{X: r.footHeight(f)}))
	d := pt.Sub(sole).Scale(1 / r.legLength(side))
	e[0], e[1], e[2] = float64(d.X), float64(d.Y), float64(d.Z)
	dq := rot.Mul(fr.Conj()).Normalize()
	if dq.W < 0 {
		dq = dq.Neg()
	}
	s := math.Sqrt(float64(dq.X)*float64(dq.X) + float64(dq.Y)*float64(dq.Y) + float64(dq.Z)*float64(dq.Z))
	k := 0.0
	if s > 1e-12 {
		k = solveRotWeight * 2 * math.Atan2(s, float64(dq.W)) / s
	}
	e[3], e[4], e[5] = k*float64(dq.X), k*float64(dq.Y), k*float64(dq.Z)
}

// solveLeg moves the muscles of leg side of p towards the sole point and
// foot joint frame (avatar root's frame, avatar units), the hips at hips.
// It starts from the pose's muscles; when that ends short of the goal (a
// local minimum: the knee bent the other way, the leg twisted through the
// other side) it starts again from the leg's neutral muscles (all 0) and
// keeps the better result.
func (r *Rig) solveLeg(p *Pose, hips geom.Transform, side int, sole geom.Vec3, rot geom.Quat) {
	if r.bone[LeftUpperLeg+side] < 0 || r.bone[LeftLowerLeg+side] < 0 || r.bone[LeftFoot+side] < 0 || r.legLength(side) <= 0 {
		return
	}
	ms, n := legMuscles(side)
	best := p.Muscles
	err := r.descend(&best, ms[:n], hips, side, sole, rot)
	if err > solveTolerance*solveTolerance {
		m := p.Muscles
		for _, i := range ms[:n] {
			m[i] = 0
		}
		if e := r.descend(&m, ms[:n], hips, side, sole, rot); e < err {
			best = m
		}
	}
	p.Muscles = best
}

// sq is the squared length of an error vector.
func sq(v *[6]float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x * x
	}
	return s
}

// descend runs the damped Gauss–Newton steps on muscles ms of m and returns
// the squared error reached.
func (r *Rig) descend(mus *[model.MuscleCount]float32, ms []int, hips geom.Transform, side int, sole geom.Vec3, rot geom.Quat) float64 {
	n := len(ms)
	var e, e2 [6]float64
	r.legError(mus, hips, side, sole, rot, &e)
	lambda := 1e-3
	for step := 0; step < solveSteps && sq(&e) > solveTolerance*solveTolerance; step++ {
		// Numeric Jacobian, one column per muscle.
		var jac [9][6]float64
		for c := 0; c < n; c++ {
			m := *mus
			m[ms[c]] += solveDelta
			r.legError(&m, hips, side, sole, rot, &e2)
			for i := range e2 {
				jac[c][i] = (e2[i] - e[i]) / solveDelta
			}
		}
		// (JᵀJ + λ·diag) dx = −Jᵀe, retried with more damping until
		// the error falls.
		improved := false
		for try := 0; try < 8 && !improved; try++ {
			var a [9][10]float64
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					s := 0.0
					for k := range e {
						s += jac[i][k] * jac[j][k]
					}
					a[i][j] = s
				}
				a[i][i] += lambda * (1 + a[i][i])
				s := 0.0
				for k := range e {
					s += jac[i][k] * e[k]
				}
				a[i][n] = -s
			}
			dx, ok := solveLinear(&a, n)
			if !ok {
				lambda *= 10
				continue
			}
			m := *mus
			for c := 0; c < n; c++ {
				v := m[ms[c]] + float32(dx[c])
				m[ms[c]] = max(-1, min(1, v))
			}
			r.legError(&m, hips, side, sole, rot, &e2)
			if sq(&e2) < sq(&e) {
				*mus, e = m, e2
				lambda = max(lambda/10, 1e-9)
				improved = true
			} else {
				lambda *= 10
			}
		}
		if !improved {
			break
		}
	}
	return sq(&e)
}

// solveLinear solves the n×n system a (augmented with its right-hand side
// in column n) by Gaussian elimination with partial pivoting.
func solveLinear(a *[9][10]float64, n int) (x [9]float64, ok bool) {
	for c := 0; c < n; c++ {
		p := c
		for i := c + 1; i < n; i++ {
			if math.Abs(a[i][c]) > math.Abs(a[p][c]) {
				p = i
			}
		}
		if math.Abs(a[p][c]) < 1e-15 {
			return x, false
		}
		a[c], a[p] = a[p], a[c]
		for i := c + 1; i < n; i++ {
			f := a[i][c] / a[c][c]
			for j := c; j <= n; j++ {
				a[i][j] -= f * a[c][j]
			}
		}
	}
	for i := n - 1; i >= 0; i-- {
		s := a[i][n]
		for j := i + 1; j < n; j++ {
			s -= a[i][j] * x[j]
		}
		x[i] = s / a[i][i]
	}
	return x, true
}

// legLength returns the length of leg side (0 left, 1 right) from hip to
// ankle when straight: the upper and lower legs' lengths.
func (r *Rig) legLength(side int) float32 {
	l, f := r.bone[LeftLowerLeg+side], r.bone[LeftFoot+side]
	if l < 0 || f < 0 {
		return 0
	}
	return r.nodes[l].pose.T.Len() + r.nodes[f].pose.T.Len()
}
