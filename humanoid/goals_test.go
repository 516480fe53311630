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
			t.Logf("rms feet %.3f %.3f (%.1f° %.1f°) hands %.3f %.3f (%.1f° %.1f°); ankle %.3f %.3f; absolute %.3f %.3f",
				res.t[0], res.t[1], res.q[0], res.q[1], res.t[2], res.t[3], res.q[2], res.q[3],
				res.noSole[0], res.noSole[1], res.absT[0], res.absT[1])
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
	for i := 0; i < b.N; i++ {
		r.Goals(&p, &g)
	}
}
