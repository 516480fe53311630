package humanoid

import "github.com/mecanim/mecanim/geom"

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
// gives), post its joint frame's post-rotation (Axes.Post: the joint's x
// axis is the limb's direction), and scale the human scale. A hand's point
// is its bone's origin. A foot's point is the sole: the bone's origin moved
// along the joint's x axis by the foot's height in the stored human pose
// (its origin's y: every corpus avatar's stored pose has the feet's joint x
// axis pointing straight down and the ground at y = 0, its centre of mass
// at exactly the human scale), Unity's "foot bottom height".
//
// How well: no corpus clip comes with the avatar it was imported from, so
// the residuals mix the rule's error with the difference between the
// clip's source skeleton and the one it is played on. On the Mixamo-like
// clips of lethal-emotes played on the Mixamo "Y Bot" avatar the feet's
// goals are within 0.02–0.05 (normalised, rms over the clip) and 2–5° of
// the stored curves, the hands within 0.02–0.07 and 4–19°; without the
// body frame (goals taken as absolute) the same feet are off by 0.2–2.6
// and 10–35°. Fitting a free constant offset per goal in the bone's frame
// improves no pair by more than the skeletons' mismatch (see the test).
// Goals does not allocate.
func (r *Rig) Goals(p *Pose, g *[4]Goal) {
	var gb [MaxHumanNodes]geom.Transform
	h := gb[:len(r.nodes)]
	r.HumanPose(p, h)
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
