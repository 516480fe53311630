package humanoid

import (
	"math"
	"math/rand"
	"testing"

	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
)

// goalResiduals are the rms differences over a clip between the goals a
// rig's Goals computes from the clip's pose and the clip's stored goals.
type goalResiduals struct {
	t, q    [4]float64 // rule: position (normalised units) and rotation (degrees)
	noSole  [2]float64 // feet positions with the goal at the ankle (no foot height)
	down    [2]float64 // feet positions with the sole straight below the ankle
	absT    [4]float64 // positions with the goals read as absolute (no body frame)
	samples int
}

// measureGoals samples c on r at n evenly spaced times.
func measureGoals(t *testing.T, c *model.Clip, r *Rig, n int) goalResiduals {
	t.Helper()
	hc, err := Bake(c, r)
	if err != nil {
		t.Fatal(err)
	}
	var res goalResiduals
	res.samples = n
	for i := 0; i < n; i++ {
		var p Pose
		hc.SamplePose(hc.Duration()*float32(i)/float32(n), &p)
		var g [4]Goal
		r.Goals(&p, &g)
		rq := p.RootQ.Normalize()
		for k := range g {
			stored := p.Goals[k]
			d := g[k].T.Sub(stored.T)
			res.t[k] += float64(d.Dot(d))
			a := angleDeg(g[k].Q, stored.Q)
			res.q[k] += a * a
			// Absolute: the stored goal against the computed point in
			// the avatar root's frame.
			abs := p.RootT.Add(rq.Rotate(g[k].T)).Sub(stored.T)
			res.absT[k] += float64(abs.Dot(abs))
			if k <= GoalRightFoot {
				h := r.footHeight(r.bone[GoalBones[k]]) / r.scale
				ankle := g[k].T.Sub(g[k].Q.Rotate(geom.Vec3{X: h})).Sub(stored.T)
				res.noSole[k] += float64(ankle.Dot(ankle))
				// The sole straight below the ankle (the avatar root's
				// down), not along the foot's joint axis.
				below := ankle.Add(rq.Conj().Rotate(geom.Vec3{Y: -h}))
				res.down[k] += float64(below.Dot(below))
			}
		}
	}
	for k := range res.t {
		res.t[k] = math.Sqrt(res.t[k] / float64(n))
		res.q[k] = math.Sqrt(res.q[k] / float64(n))
		res.absT[k] = math.Sqrt(res.absT[k] / float64(n))
	}
	for k := range res.noSole {
		res.noSole[k] = math.Sqrt(res.noSole[k] / float64(n))
		res.down[k] = math.Sqrt(res.down[k] / float64(n))
	}
	return res
}

// The goal frame measured on the corpus: the clips' stored goals against
// Rig.Goals of their own poses. No corpus clip comes with the avatar it was
// imported from, so the residuals are the rule's error plus the mismatch
// between the clip's source skeleton and the avatar; the pairs below are
// the best-matching ones (the Mixamo-like lethal-emotes clips on the Mixamo
// "Y Bot", and on FinalBeta2, the scavenger the hiphop clip was packed
// with). Each row pins the measured rms (feet and hands: position in
// normalised units, rotation in degrees) with a little headroom, and
// checks that the alternatives are worse: goals at the ankle instead of the
// sole, and goals read as absolute instead of relative to the body.
func TestCorpusGoalsFollowTheLimbs(t *testing.T) {
	set := loadCorpus(t)
	rigs := map[string]*Rig{}
	for _, r := range corpusRigs(t) {
		rigs[r.Name()] = r
	}
	clips := map[string]*model.Clip{}
	for _, c := range set.clips {
		if clips[c.Name] == nil {
			clips[c.Name] = c
		}
	}
	cases := []struct {
		clip, avatar string
		// measured rms: feet T, feet Q (°), hands T, hands Q (°), max over left and right
		feetT, feetQ, handsT, handsQ float64
	}{
		{"Floss", "FinalBeta2Avatar", 0.023, 2.8, 0.094, 4.9},
		{"Default Dance", "FinalBeta2Avatar", 0.046, 3.5, 0.101, 4.6},
		{"hiphop", "FinalBeta2Avatar", 0.053, 2.0, 0.074, 1.9},
		{"BayonettaTest", "FinalBeta2Avatar", 0.090, 4.8, 0.263, 12.1},
		{"Dab", "Y BotAvatar", 0.050, 5.3, 0.168, 19.2},
		{"BayonettaTest", "Y BotAvatar", 0.056, 5.5, 0.175, 12.5},
		{"Floss", "Y BotAvatar", 0.055, 5.0, 0.062, 7.8},
		{"Default Dance", "Y BotAvatar", 0.078, 5.4, 0.048, 6.8},
		{"hiphop", "Y BotAvatar", 0.070, 4.0, 0.042, 5.0},
	}
	const headroom = 1.05
	var ruleSum, downSum float64
	for _, tc := range cases {
		t.Run(tc.clip+"/"+tc.avatar, func(t *testing.T) {
			c, r := clips[tc.clip], rigs[tc.avatar]
			if c == nil || r == nil {
				t.Fatalf("clip %q or avatar %q not in the corpus", tc.clip, tc.avatar)
			}
			res := measureGoals(t, c, r, 300)
			max2 := func(v [4]float64, from int) float64 { return math.Max(v[from], v[from+1]) }
			got := [4]float64{max2(res.t, 0), max2(res.q, 0), max2(res.t, 2), max2(res.q, 2)}
			want := [4]float64{tc.feetT, tc.feetQ, tc.handsT, tc.handsQ}
			names := [4]string{"feet T", "feet Q°", "hands T", "hands Q°"}
			for i := range got {
				if got[i] > want[i]*headroom {
					t.Errorf("%s rms %.4f, measured %.4f", names[i], got[i], want[i])
				}
			}
			t.Logf("rms feet %.3f %.3f (%.1f° %.1f°) hands %.3f %.3f (%.1f° %.1f°); ankle %.3f %.3f; straight down %.3f %.3f; absolute %.3f %.3f",
				res.t[0], res.t[1], res.q[0], res.q[1], res.t[2], res.t[3], res.q[2], res.q[3],
				res.noSole[0], res.noSole[1], res.down[0], res.down[1], res.absT[0], res.absT[1])
			ruleSum += res.t[0] + res.t[1]
			downSum += res.down[0] + res.down[1]
			for k := 0; k < 2; k++ {
				if res.noSole[k] <= res.t[k] {
					t.Errorf("foot %d: the ankle (%.4f) fits better than the sole (%.4f)", k, res.noSole[k], res.t[k])
				}
			}
			for k := range res.t {
				if res.absT[k] < 2*res.t[k] {
					t.Errorf("goal %d: absolute frame %.4f is not clearly worse than the body frame %.4f", k, res.absT[k], res.t[k])
				}
			}
		})
	}
	// The sole along the foot's joint axis against straight below the
	// ankle: better on 6 of the 9 pairs, and over all (0.95 against 1.10,
	// feet rms summed).
	t.Logf("feet rms summed: along the joint axis %.3f, straight down %.3f", ruleSum, downSum)
	if ruleSum >= downSum {
		t.Errorf("the sole straight down (%.3f) fits better than along the foot's joint axis (%.3f)", downSum, ruleSum)
	}
}

// Every corpus avatar's stored human pose has its feet's joint x axis
// pointing straight down, which is what makes "the sole" a point along it;
// at the stored pose (RootT the stored centre of mass, RootQ identity) the
// feet's goals lie on the ground (y = 0 of the human space) below the
// ankles and the goals' rotations are the joint frames.
func TestGoalsAtRestPutTheSolesOnTheGround(t *testing.T) {
	for _, r := range corpusRigs(t) {
		var sg [MaxHumanNodes]geom.Transform
		h := sg[:len(r.nodes)]
		r.storedGlobals(h)
		p := Pose{RootT: r.rootX.T.Scale(1 / r.scale), RootQ: geom.IdentityQuat}
		var g [4]Goal
		r.goalsFrom(&p, h, &g)
		for k := GoalLeftFoot; k <= GoalRightFoot; k++ {
			n := r.bone[GoalBones[k]]
			down := h[n].R.Mul(r.axes[r.nodes[n].axes].Post).Rotate(geom.Vec3{X: 1})
			if d := down.Sub(geom.V3(0, -1, 0)).Len(); d > 1e-5 {
				t.Errorf("%s foot %d: joint x axis at rest %v, not down", r.Name(), k, down)
			}
			sole := p.RootT.Add(g[k].T).Scale(r.scale)
			want := geom.V3(h[n].T.X, 0, h[n].T.Z)
			if d := sole.Sub(want).Len(); d > 1e-5*abs(r.scale) {
				t.Errorf("%s foot %d: sole at rest %v, want %v below the ankle", r.Name(), k, sole, want)
			}
		}
	}
}

// Goals are relative to the body: moving and turning the body (RootT,
// RootQ) leaves them unchanged.
func TestGoalsAreRelativeToTheBody(t *testing.T) {
	r := chadRig(t)
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 50; i++ {
		p := restPose(r)
		for m := range p.Muscles {
			p.Muscles[m] = rng.Float32()*2 - 1
		}
		var a, b [4]Goal
		r.Goals(&p, &a)
		p.RootT = geom.V3(rng.Float32()*10-5, rng.Float32()*2, rng.Float32()*10-5)
		p.RootQ = geom.AxisAngle(geom.V3(rng.Float32()-0.5, rng.Float32()-0.5, rng.Float32()-0.5).Normalize(), rng.Float32()*6)
		r.Goals(&p, &b)
		for k := range a {
			if d := a[k].T.Sub(b[k].T).Len(); d > 1e-4 {
				t.Errorf("pose %d goal %d: T moved by %v with the body", i, k, d)
			}
			if d := angleDeg(a[k].Q, b[k].Q); d > 0.05 {
				t.Errorf("pose %d goal %d: Q turned by %v° with the body", i, k, d)
			}
		}
	}
}

func TestGoalsDoesNotAllocate(t *testing.T) {
	r := chadRig(t)
	p := restPose(r)
	var g [4]Goal
	if n := testing.AllocsPerRun(100, func() { r.Goals(&p, &g) }); n != 0 {
		t.Errorf("Goals allocates %v times", n)
	}
}

func BenchmarkGoals(b *testing.B) {
	r := chadRig(b)
	p := restPose(r)
	var g [4]Goal
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r.Goals(&p, &g)
	}
}

// legMuscle reports whether muscle m moves a leg (upper leg, lower leg, foot).
func legMuscle(m int) bool {
	switch Muscles[m].Bone {
	case LeftUpperLeg, RightUpperLeg, LeftLowerLeg, RightLowerLeg, LeftFoot, RightFoot:
		return true
	}
	return false
}

// solveRigs are the avatars the IK tests run on: the YAML ChadRig and the
// corpus avatars with a full leg chain and ordinary proportions.
func solveRigs(t *testing.T) []*Rig {
	rigs := []*Rig{chadRig(t)}
	for _, r := range corpusRigs(t) {
		switch r.Name() {
		case "Y BotAvatar", "bandit1Avatar", "morbmanAvatar", "drifterAvatar", "vultureBossAvatar":
			rigs = append(rigs, r)
		}
	}
	return rigs
}

// reachableGoals returns p with goals its own legs could reach: the feet's
// goals of q (p with other leg muscles), expressed relative to p's body
// with the hips where p puts them.
func reachableGoals(r *Rig, p *Pose, rng *rand.Rand, spread float32) Pose {
	q := *p
	for m := range q.Muscles {
		if legMuscle(m) {
			q.Muscles[m] = (rng.Float32()*2 - 1) * spread
		}
	}
	hp, hq := humanGlobals(r, p), humanGlobals(r, &q)
	var g [4]Goal
	r.Goals(&q, &g)
	// Same RootQ and trunk, so the hips differ only in position.
	shift := p.RootQ.Normalize().Conj().Rotate(hq[r.hips].T.Sub(hp[r.hips].T).Scale(1 / r.scale))
	shift = shift.Add(p.RootQ.Normalize().Conj().Rotate(q.RootT.Sub(p.RootT)))
	out := *p
	for k := GoalLeftFoot; k <= GoalRightFoot; k++ {
		out.Goals[k] = Goal{T: g[k].T.Sub(shift), Q: g[k].Q}
	}
	return out
}

// randomBody returns a pose with random trunk, arm and leg muscles.
func randomBody(r *Rig, rng *rand.Rand) Pose {
	p := restPose(r)
	for m := range p.Muscles {
		p.Muscles[m] = (rng.Float32()*2 - 1) * 0.5
	}
	p.RootT = geom.V3(rng.Float32()-0.5, 0.9+rng.Float32()*0.2, rng.Float32()-0.5)
	p.RootQ = geom.AxisAngle(geom.V3(0, 1, 0), rng.Float32()*6).Mul(geom.AxisAngle(geom.V3(1, 0, 0), rng.Float32()-0.5))
	var g [4]Goal
	r.Goals(&p, &g)
	p.Goals = g
	return p
}

// worldGoals returns the feet's goal points and rotations in the avatar
// root's frame (normalised units).
func worldGoals(p *Pose) (t [2]geom.Vec3, q [2]geom.Quat) {
	rq := p.RootQ.Normalize()
	for k := range t {
		t[k] = p.RootT.Add(rq.Rotate(p.Goals[k].T))
		q[k] = rq.Mul(p.Goals[k].Q)
	}
	return
}

// SolveFeet brings the feet onto goals another pose of the same legs
// reached: the soles to the goal points, the feet to the goals' rotations,
// the hips where they were.
func TestSolveFeetReachesReachableGoals(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for _, r := range solveRigs(t) {
		var worstT, worstQ float64
		for i := 0; i < 40; i++ {
			base := randomBody(r, rng)
			p := reachableGoals(r, &base, rng, 0.6)
			wantT, wantQ := worldGoals(&p)
			hips := humanGlobals(r, &p)[r.hips]
			r.SolveFeet(&p, 1)
			var g [4]Goal
			r.Goals(&p, &g)
			rq := p.RootQ.Normalize()
			for k := range wantT {
				gotT := p.RootT.Add(rq.Rotate(g[k].T))
				worstT = math.Max(worstT, float64(gotT.Sub(wantT[k]).Len()))
				worstQ = math.Max(worstQ, angleDeg(rq.Mul(g[k].Q), wantQ[k]))
				if d := g[k].T.Sub(p.Goals[k].T).Len(); d > 1e-3 {
					t.Errorf("%s pose %d foot %d: goal not re-expressed for the new RootT (%v off)", r.Name(), i, k, d)
				}
			}
			if d := humanGlobals(r, &p)[r.hips].T.Sub(hips.T).Len() / abs(r.scale); d > 1e-4 {
				t.Errorf("%s pose %d: hips moved by %v", r.Name(), i, d)
			}
		}
		t.Logf("%s: worst sole %.2g (normalised), worst foot rotation %.2g°", r.Name(), worstT, worstQ)
		if worstT > 1e-5 {
			t.Errorf("%s: a sole missed its goal by %.4f (normalised)", r.Name(), worstT)
		}
		if worstQ > 0.01 {
			t.Errorf("%s: a foot missed its goal rotation by %.2f°", r.Name(), worstQ)
		}
	}
}

// Goals the pose already meets (its own Rig.Goals) leave it unchanged, at
// any weight; weight 0 leaves any pose unchanged.
func TestSolveFeetLeavesAPoseThatMeetsItsGoals(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for _, r := range solveRigs(t) {
		for i := 0; i < 20; i++ {
			p := randomBody(r, rng)
			for _, w := range []float32{1, 0.5} {
				q := p
				r.SolveFeet(&q, w)
				for m := range q.Muscles {
					if d := abs(q.Muscles[m] - p.Muscles[m]); d > 2e-3 {
						t.Errorf("%s pose %d weight %v: muscle %d moved %v", r.Name(), i, w, m, d)
					}
				}
				if d := q.RootT.Sub(p.RootT).Len(); d > 1e-4 {
					t.Errorf("%s pose %d weight %v: RootT moved %v", r.Name(), i, w, d)
				}
			}
			far := reachableGoals(r, &p, rng, 0.8)
			q := far
			r.SolveFeet(&q, 0)
			if q != far {
				t.Errorf("%s pose %d: weight 0 changed the pose", r.Name(), i)
			}
		}
	}
}

// Half the weight puts the soles about half way; goals out of reach
// straighten the leg towards them without NaNs.
func TestSolveFeetWeightsAndUnreachableGoals(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	r := chadRig(t)
	for i := 0; i < 20; i++ {
		base := randomBody(r, rng)
		p := reachableGoals(r, &base, rng, 0.6)
		wantT, _ := worldGoals(&p)
		var g0 [4]Goal
		r.Goals(&p, &g0)
		fromT, _ := worldGoals(&Pose{RootT: p.RootT, RootQ: p.RootQ, Goals: g0})
		half := p
		r.SolveFeet(&half, 0.5)
		var g [4]Goal
		r.Goals(&half, &g)
		gotT, _ := worldGoals(&Pose{RootT: half.RootT, RootQ: half.RootQ, Goals: g})
		for k := range gotT {
			mid := fromT[k].Lerp(wantT[k], 0.5)
			if d := gotT[k].Sub(mid).Len(); d > 1e-3 {
				t.Errorf("pose %d foot %d: half weight %v from the midpoint", i, k, d)
			}
		}
		// Out of reach: two metres (normalised) below the body.
		far := base
		far.Goals[GoalLeftFoot].T = geom.V3(0, -3, 0)
		before := humanGlobals(r, &far)
		r.SolveFeet(&far, 1)
		after := humanGlobals(r, &far)
		for m := range far.Muscles {
			if !geom.Finite(far.Muscles[m]) {
				t.Fatalf("pose %d: muscle %d is %v", i, m, far.Muscles[m])
			}
		}
		leg := func(g []geom.Transform) float32 {
			return g[r.bone[LeftFoot]].T.Sub(g[r.bone[LeftUpperLeg]].T).Len()
		}
		if leg(after) < leg(before) || leg(after) < 0.99*r.legLength(0) {
			t.Errorf("pose %d: out-of-reach goal left the leg bent (hip to ankle %v, full %v)", i, leg(after), r.legLength(0))
		}
	}
}

func TestSolveFeetDoesNotAllocate(t *testing.T) {
	r := chadRig(t)
	rng := rand.New(rand.NewSource(2))
	base := randomBody(r, rng)
	p := reachableGoals(r, &base, rng, 0.6)
	if n := testing.AllocsPerRun(20, func() { q := p; r.SolveFeet(&q, 1) }); n != 0 {
		t.Errorf("SolveFeet allocates %v times", n)
	}
}

func BenchmarkSolveFeet(b *testing.B) {
	r := chadRig(b)
	rng := rand.New(rand.NewSource(1))
	base := randomBody(r, rng)
	p := reachableGoals(r, &base, rng, 0.6)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		q := p
		r.SolveFeet(&q, 1)
	}
}
