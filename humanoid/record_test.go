package humanoid

import (
	"errors"
	"math"
	"testing"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
)

// recordedPose reads a recorded clip's frame i back into a Pose (root and
// muscles; the curves are in Record's order).
func recordedPose(t *testing.T, c *model.Clip, i int) Pose {
	t.Helper()
	var p Pose
	for k := range c.Curves {
		cv := &c.Curves[k]
		if cv.Kind != model.CurveDense || i >= len(cv.Samples) {
			t.Fatalf("curve %d (%s): kind %v, %d samples, want dense with frame %d", k, cv.Target.Property, cv.Kind, len(cv.Samples), i)
		}
		setPoseFloat(&p, int(cv.Target.Attribute-model.FirstRootAttribute), cv.Samples[i])
	}
	return p
}

// A humanoid clip baked on an avatar and recorded back at its own rate
// gives, at every frame time, the clip's muscles (those the avatar has a
// bone for; the others read back as 0), RootT and RootQ: Floss and Dab on
// every corpus avatar and ChadRig. Tolerances: muscles 1e-4 (measured at
// most 4e-6: float32 rounding through the joint frames and Extract's
// atan2), RootT 1e-4 (in human scales; 3e-5 at most, on solusWing), RootQ
// 0.002° up to sign (9e-4° at most).
func TestCorpusRecordOfABakedHumanoidClipGivesItsMuscles(t *testing.T) {
	rigs := append(corpusRigs(t), chadRig(t))
	for _, name := range []string{"Floss", "Dab"} {
		clip := clipNamed(t, name)
		for _, r := range rigs {
			hc, err := Bake(clip, r)
			if err != nil {
				t.Fatal(err)
			}
			rec, err := Record(hc, r, clip.SampleRate, clip.Name)
			if err != nil {
				t.Fatal(err)
			}
			if !rec.Humanoid || rec.SampleRate != clip.SampleRate || rec.Start != 0 || rec.Stop != clip.Length() ||
				rec.Settings != clip.Settings || len(rec.Curves) != 35+model.MuscleCount || len(rec.Events) != len(clip.Events) {
				t.Fatalf("%s on %s: recorded clip header %+v", name, r.name, *rec)
			}
			frames := len(rec.Curves[0].Samples)
			if want := int(math.Round(float64(clip.Length()*clip.SampleRate))) + 1; frames != want {
				t.Errorf("%s on %s: %d frames, want %d", name, r.name, frames, want)
			}
			worstM, worstT, worstQ, worstName := 0.0, 0.0, 0.0, ""
			for i := 0; i < frames; i++ {
				tm := float32(i) / clip.SampleRate
				var want Pose
				hc.SamplePose(tm, &want)
				got := recordedPose(t, rec, i)
				for m := range want.Muscles {
					w := want.Muscles[m]
					if !r.drives(m) {
						w = 0
					}
					if d := math.Abs(float64(got.Muscles[m] - w)); d > worstM {
						worstM, worstName = d, model.MuscleNames[m]
					}
				}
				worstT = math.Max(worstT, float64(got.RootT.Sub(want.RootT).Len()))
				worstQ = math.Max(worstQ, angleDeg(got.RootQ, want.RootQ))
			}
			if worstM > 1e-4 || worstT > 1e-4 || worstQ > 0.002 {
				t.Errorf("%s on %s: muscles off by %.3g (%s), RootT by %.3g, RootQ by %.3g°", name, r.name, worstM, worstName, worstT, worstQ)
			}
			t.Logf("%-6s %-22s muscles %.2e (%s) RootT %.2e RootQ %.2e°", name, r.name, worstM, worstName, worstT, worstQ)
		}
	}
}

// genericOf samples a clip over a skeleton at rate into a generic clip:
// dense position, rotation and scale curves for every joint.
func genericOf(src anim.Sampler, s *anim.Skeleton, rate float32, name string) *model.Clip {
	dur := src.Duration()
	frames := int(math.Ceil(float64(dur)*float64(rate)-1e-3)) + 1
	c := &model.Clip{Name: name, SampleRate: rate, Stop: dur}
	local := make([]geom.Transform, s.Len())
	first := make([]int, s.Len())
	for j := range first {
		first[j] = len(c.Curves)
		for _, pr := range []struct {
			p model.TransformProp
			n int
		}{{model.PropPosition, 3}, {model.PropRotation, 4}, {model.PropScale, 3}} {
			for k := 0; k < pr.n; k++ {
				c.Curves = append(c.Curves, model.Curve{
					Target: model.Target{Path: s.Paths[j], PathHash: model.PathHash(s.Paths[j]), PathKnown: true, ClassID: model.ClassTransform,
						Attribute: uint32(pr.p), Transform: pr.p, Component: k, Property: model.TransformPropertyName(pr.p, k)},
					Kind: model.CurveDense, Samples: make([]float32, frames), DenseRate: rate,
				})
			}
		}
	}
	prev := make([]geom.Quat, s.Len())
	for i := 0; i < frames; i++ {
		tm := float32(float64(i) / float64(rate))
		if tm > dur {
			tm = dur
		}
		src.Sample(tm, local)
		for j, l := range local {
			q := l.R
			if i > 0 && q.Dot(prev[j]) < 0 {
				q = q.Neg()
			}
			prev[j] = q
			v := [10]float32{l.T.X, l.T.Y, l.T.Z, q.X, q.Y, q.Z, q.W, l.S.X, l.S.Y, l.S.Z}
			for k, x := range v {
				c.Curves[first[j]+k].Samples[i] = x
			}
		}
	}
	return c
}

// tPose returns the avatar's T-pose: the stored human pose's globals, by
// human skeleton node.
func tPose(r *Rig) []geom.Transform {
	g := make([]geom.Transform, len(r.nodes))
	r.storedGlobals(g)
	return g
}

// boneDelta returns each human bone's rotation in the avatar root's frame
// relative to the avatar's T-pose: G·G_T⁻¹, the turn that takes the bone
// from the T-pose to the pose, comparable between avatars whatever their
// bones' own axes; the identity for a bone the avatar lacks.
func boneDelta(r *Rig, local, tpose []geom.Transform) [BoneCount]geom.Quat {
	m := modelOf(r, local)
	var d [BoneCount]geom.Quat
	for b := range d {
		d[b] = geom.IdentityQuat
		if n, h := r.AvatarNode(b), r.HumanNode(b); n >= 0 {
			d[b] = m[n].R.Mul(tpose[h].R.Conj()).Normalize()
		}
	}
	return d
}

// sameChain reports whether bone b has the same human bones above it on
// both avatars (a bone the other avatar lacks bends its children there and
// not on the other).
func sameChain(a, b *Rig, bone int) bool {
	if a.HumanNode(bone) < 0 || b.HumanNode(bone) < 0 {
		return false
	}
	anc := func(r *Rig) []int {
		var s []int
		for n := r.nodes[r.HumanNode(bone)].parent; n >= 0; n = r.nodes[n].parent {
			if r.nodes[n].bone >= 0 {
				s = append(s, r.nodes[n].bone)
			}
		}
		return s
	}
	x, y := anc(a), anc(b)
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		if x[i] != y[i] {
			return false
		}
	}
	return true
}

// A generic clip posing a humanoid avatar's skeleton (Floss sampled on
// avatar A into per-joint dense Transform curves, baked with anim.Bake on
// A's skeleton), recorded with Record and played on avatar B, over every
// ordered pair of the 17 corpus avatars and ChadRig:
//
//   - B takes exactly the pose the humanoid clip itself gives B once the
//     muscles of bones A lacks are zeroed (what A could show of it): every
//     human bone's rotation within 0.01°, its position within posTol. So
//     Record recovers the humanoid clip from A's bone rotations, and the
//     recorded clip retargets as the original does.
//   - Each human bone's turn from its avatar's T-pose (the stored human
//     pose), in the root's frame, is the same on B as on A only as far as
//     the two avatars' T-poses and joint frames agree in muscle space:
//     muscle retargeting keeps muscles, not these turns. The same avatar
//     twice (FinalBeta2, compiled, and ChadRig, its YAML source) agrees
//     within 0.01°; other pairs sharing the bone chain are logged: 0.6° rms
//     (IGOTITPOGGGGG to bandit1) to 25°, and vendor, whose legs rest far
//     from the others' T-pose in muscle space, 55° and more.
func TestCorpusRecordOfAGenericClipRetargetsToEveryAvatar(t *testing.T) {
	rigs := append(corpusRigs(t), chadRig(t))
	clip := clipNamed(t, "Floss")
	const rate = 15 // half Floss's rate: 25 frames, half the test time
	type stat struct {
		sum  float64
		n    int
		max  float64
		pair string
	}
	var stats [BoneCount]stat
	sameAvatar := func(a, b *Rig) bool {
		return a == b || (a.name == "FinalBeta2Avatar" && b.name == "ChadRigAvatar") || (b.name == "FinalBeta2Avatar" && a.name == "ChadRigAvatar")
	}
	for _, a := range rigs {
		hc, err := Bake(clip, a)
		if err != nil {
			t.Fatal(err)
		}
		gen := genericOf(hc, a.Skeleton(), rate, clip.Name)
		ga, err := anim.Bake(gen, a.Skeleton())
		if err != nil {
			t.Fatal(err)
		}
		rec, err := Record(ga, a, rate, clip.Name)
		if err != nil {
			t.Fatal(err)
		}
		frames := len(rec.Curves[0].Samples)
		la := make([]geom.Transform, a.Len())
		ta := tPose(a)
		for _, b := range rigs {
			hb, err := Bake(rec, b)
			if err != nil {
				t.Fatal(err)
			}
			lb := make([]geom.Transform, b.Len())
			ref := make([]geom.Transform, b.Len())
			tb := tPose(b)
			worstR, worstT, worstTurn := 0.0, 0.0, 0.0
			for i := 0; i < frames; i++ {
				tm := float32(i) / rate
				ga.Sample(tm, la)
				hb.Sample(tm, lb)
				var p Pose
				hc.SamplePose(tm, &p)
				for m := range p.Muscles {
					if !a.drives(m) {
						p.Muscles[m] = 0
					}
				}
				b.Apply(&p, ref)
				mb, mr := modelOf(b, lb), modelOf(b, ref)
				for _, tg := range b.targets {
					worstR = math.Max(worstR, angleDeg(mb[tg.node].R, mr[tg.node].R))
					worstT = math.Max(worstT, float64(mb[tg.node].T.Sub(mr[tg.node].T).Len()))
				}
				da, db := boneDelta(a, la, ta), boneDelta(b, lb, tb)
				for bone := 0; bone < BodyBoneCount; bone++ {
					if !sameChain(a, b, bone) {
						continue
					}
					d := angleDeg(da[bone], db[bone])
					worstTurn = math.Max(worstTurn, d)
					if a == b {
						continue
					}
					s := &stats[bone]
					s.sum += d * d
					s.n++
					if d > s.max {
						s.max, s.pair = d, a.name+" → "+b.name
					}
				}
			}
			if worstR > 0.01 || worstT > posTol(b) {
				t.Errorf("%s → %s: %.3g° (%.3g) from the humanoid clip's own pose", a.name, b.name, worstR, worstT)
			}
			if sameAvatar(a, b) && worstTurn > 0.01 {
				t.Errorf("%s → %s: bones turn %.3g° differently from the T-pose on the same avatar", a.name, b.name, worstTurn)
			}
		}
	}
	for b, s := range stats {
		if s.n > 0 {
			t.Logf("turn from the T-pose, A vs B: %-14s rms %6.2f° max %6.2f° (%s) over %d", BoneNames[b], math.Sqrt(s.sum/float64(s.n)), s.max, s.pair, s.n)
		}
	}
}

// Record refuses what it cannot record, with ErrRecord.
func TestRecordRefusesBadArguments(t *testing.T) {
	r := chadRig(t)
	other := corpusRigs(t)[0]
	hc, err := Bake(clipNamed(t, "Floss"), other)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		src  anim.Sampler
		r    *Rig
		rate float32
	}{
		{"nil source", nil, r, 30},
		{"nil rig", hc, nil, 30},
		{"negative rate", hc, other, -1},
		{"NaN rate", hc, other, float32(math.NaN())},
		{"rate too high", hc, other, MaxRecordRate * 2},
		{"source on another skeleton", hc, r, 30},
	}
	for _, c := range cases {
		if _, err := Record(c.src, c.r, c.rate, "x"); !errors.Is(err, ErrRecord) {
			t.Errorf("%s: %v, want ErrRecord", c.name, err)
		}
	}
	if _, err := Retarget(&model.Clip{Name: "generic"}, r, r, 30); !errors.Is(err, ErrRecord) {
		t.Errorf("generic clip: %v, want ErrRecord", err)
	}
}

// Retarget of Floss from avatar A to avatar B, played on B, is Floss's own
// pose on B with the muscles of bones A or B lacks zeroed (every human
// bone within 0.01°, positions within posTol), for every ordered pair of
// corpus avatars; its header is Floss's (rate, length, settings, events).
func TestCorpusRetargetPlaysAsTheClipWithTheMusclesBothAvatarsHave(t *testing.T) {
	rigs := append(corpusRigs(t), chadRig(t))
	clip := clipNamed(t, "Floss")
	for _, a := range rigs {
		for _, b := range rigs {
			rt, err := Retarget(clip, a, b, 0)
			if err != nil {
				t.Fatal(err)
			}
			if !rt.Humanoid || rt.SampleRate != clip.SampleRate || rt.Stop != clip.Length() || rt.Settings != clip.Settings || len(rt.Events) != len(clip.Events) {
				t.Fatalf("%s → %s: header %+v", a.name, b.name, *rt)
			}
			orig, err := Bake(clip, b)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Bake(rt, b)
			if err != nil {
				t.Fatal(err)
			}
			lg := make([]geom.Transform, b.Len())
			lw := make([]geom.Transform, b.Len())
			worstR, worstT := 0.0, 0.0
			for i := 0; i < len(rt.Curves[0].Samples); i += 3 {
				tm := float32(i) / rt.SampleRate
				got.Sample(tm, lg)
				var p Pose
				orig.SamplePose(tm, &p)
				for m := range p.Muscles {
					if !a.drives(m) || !b.drives(m) {
						p.Muscles[m] = 0
					}
				}
				b.Apply(&p, lw)
				mg, mw := modelOf(b, lg), modelOf(b, lw)
				for _, tg := range b.targets {
					worstR = math.Max(worstR, angleDeg(mg[tg.node].R, mw[tg.node].R))
					worstT = math.Max(worstT, float64(mg[tg.node].T.Sub(mw[tg.node].T).Len()))
				}
			}
			if worstR > 0.01 || worstT > posTol(b) {
				t.Errorf("%s → %s: %.3g° (%.3g) from Floss's own pose", a.name, b.name, worstR, worstT)
			}
		}
	}
}

// BenchmarkRecord records Floss baked on bandit1 at its 30 Hz (49 frames):
// one Sample and one Extract per frame, the clip's curves allocated once.
func BenchmarkRecord(b *testing.B) {
	r := rigNamedB(b, "bandit1Avatar")
	var clip *model.Clip
	for _, c := range loadCorpus(b).clips {
		if c.Name == "Floss" {
			clip = c
		}
	}
	hc, err := Bake(clip, r)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Record(hc, r, 30, "Floss"); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/49, "ns/frame")
}

func rigNamedB(b *testing.B, name string) *Rig {
	for _, a := range loadCorpus(b).avatars {
		if a.Name == name {
			r, err := NewRig(a)
			if err != nil {
				b.Fatal(err)
			}
			return r
		}
	}
	b.Fatalf("no avatar %q", name)
	return nil
}
