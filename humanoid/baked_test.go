package humanoid

import (
	"errors"
	"math"
	"math/rand"
	"runtime"
	"testing"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/internal/synth"
	"github.com/mecanim/mecanim/model"
)

// bonesError samples b and the exact clip ex at n times over the clip (and
// a little beyond) and returns the worst local rotation error of a joint
// the clip drives (degrees), translation error (fraction of the human
// scale) and model-space position error (fraction of the human scale)
// outside the unresolved intervals, and how many times fell inside them.
// Joints the clip does not drive must be exactly the exact path's.
func bonesError(t testing.TB, b *Bones, ex *Clip, n int) (rot, tr, pos float64, skipped int) {
	t.Helper()
	r := b.Rig()
	sk := r.Skeleton()
	want := make([]geom.Transform, r.Len())
	got := make([]geom.Transform, r.Len())
	mex := make([]geom.Transform, r.Len())
	mgot := make([]geom.Transform, r.Len())
	scale := rigScale(r)
	d := b.Duration()
	for i := 0; i < n; i++ {
		tm := -0.05*d + 1.1*d*float32(i)/float32(n-1)
		in := false
		for _, j := range b.jumps {
			if tm >= j[0] && tm <= j[1] {
				in = true
			}
		}
		if in {
			skipped++
			continue
		}
		ex.Sample(tm, want)
		b.Sample(tm, got)
		for j := range want {
			if b.Animates(j) != 0 {
				rot = math.Max(rot, angleDeg(got[j].R, want[j].R))
				tr = math.Max(tr, float64(got[j].T.Sub(want[j].T).Len())/scale)
			} else if got[j] != want[j] {
				t.Fatalf("t=%g joint %d (%s) is not driven but got %+v, exact %+v", tm, j, sk.Paths[j], got[j], want[j])
			}
		}
		anim.LocalToModel(sk, want, mex)
		anim.LocalToModel(sk, got, mgot)
		for j := range mex {
			pos = math.Max(pos, float64(mgot[j].T.Sub(mex[j].T).Len())/scale)
		}
	}
	return rot, tr, pos, skipped
}

// TestCorpusBonesMatchTheExactPath bakes every corpus humanoid clip's bones
// on FinalBeta2Avatar (Dab's) and drifterAvatar (non-uniform scales: no
// shortcut in the exact path) and compares them with the exact path at
// 1,000 times, outside the intervals where the exact path jumps (under 1%
// of a clip): local rotations within BonesMaxErrorDeg and translations
// within BonesMaxErrorT at the fit's check points, within a quarter more
// between them; model-space positions within the stated ModelBound.
func TestCorpusBonesMatchTheExactPath(t *testing.T) {
	set := loadCorpus(t)
	seen := map[string]bool{}
	for _, r := range corpusRigs(t) {
		if r.name != "FinalBeta2Avatar" && r.name != "drifterAvatar" {
			continue
		}
		for _, mc := range set.clips {
			// BayonettaTest (213 s) once: a long clip's float32 times.
			if seen[r.name+"/"+mc.Name] || (mc.Name == "BayonettaTest" && r.name != "FinalBeta2Avatar") {
				continue
			}
			seen[r.name+"/"+mc.Name] = true
			b, err := BakeBones(mc, r)
			if err != nil {
				t.Fatal(err)
			}
			ex, err := Bake(mc, r)
			if err != nil {
				t.Fatal(err)
			}
			rot, tr, pos, skipped := bonesError(t, b, ex, 1000)
			st := b.Stats()
			t.Logf("%-16s %-18s times %5d chans %3d keys %6d unresolved %3d (%.4fs) fit %.4f° %.2g; sampled %.4f° %.2g model %.2g (bound %.2g; %d skipped) %d B",
				mc.Name, r.name, st.Keys, st.Channels, st.KeyCount, st.Unresolved, st.UnresolvedTime, st.MaxErrorDeg, st.MaxErrorT, rot, tr, pos, st.ModelBound, skipped, st.Bytes)
			if st.MaxErrorDeg > BonesMaxErrorDeg || st.MaxErrorT > BonesMaxErrorT {
				t.Errorf("%s on %s: fit off by %.3g°, %.3g of the scale at its check points", mc.Name, r.name, st.MaxErrorDeg, st.MaxErrorT)
			}
			if rot > 1.25*BonesMaxErrorDeg || tr > 1.25*BonesMaxErrorT || pos > st.ModelBound {
				t.Errorf("%s on %s: rotation off by %.3g°, translation by %.3g, model space by %.3g of the scale (bound %.3g)", mc.Name, r.name, rot, tr, pos, st.ModelBound)
			}
			if st.UnresolvedTime > 0.01*b.Duration() {
				t.Errorf("%s on %s: unresolved over %.3gs of %.3gs", mc.Name, r.name, st.UnresolvedTime, b.Duration())
			}
		}
	}
}

// synthHumanClip is a humanoid clip for the synthetic avatar: every muscle
// a dense 30 Hz wave (up to 1.3 of its range, up to 3 cycles a second),
// the body moving and turning, and one muscle stepping from -0.5 to 0.5 at
// a streamed key (a jump of the exact path at a key time).
func synthHumanClip(seconds float32) *model.Clip {
	rng := rand.New(rand.NewSource(11))
	const rate = 30
	n := int(seconds*rate) + 1
	mc := &model.Clip{Name: "synth-human", Humanoid: true, SampleRate: rate, Stop: seconds, WrapMode: model.WrapLoop}
	attr := func(a int) model.Target {
		return model.Target{ClassID: model.ClassAnimator, Attribute: uint32(a)}
	}
	dense := func(f func(t float64) float64) []float32 {
		s := make([]float32, n)
		for k := range s {
			s[k] = float32(f(float64(k) / rate))
		}
		return s
	}
	for m := 0; m < model.MuscleCount; m++ {
		if m == 9 {
			mc.Curves = append(mc.Curves, model.Curve{Target: attr(model.FirstMuscleAttribute + m), Kind: model.CurveStreamed,
				Segments: []model.Segment{{Time: 0, C: [4]float32{0, 0, 0, -0.5}}, {Time: seconds / 2, C: [4]float32{0, 0, 0, 0.5}}}})
			continue
		}
		amp, fr, ph := 0.2+1.1*rng.Float64(), 0.5+2.5*rng.Float64(), 6*rng.Float64()
		mc.Curves = append(mc.Curves, model.Curve{Target: attr(model.FirstMuscleAttribute + m), Kind: model.CurveDense, DenseRate: rate,
			Samples: dense(func(t float64) float64 { return amp * math.Sin(ph+2*math.Pi*fr*t) })})
	}
	root := []func(t float64) float64{
		func(t float64) float64 { return 0.3 * t }, func(t float64) float64 { return 1 + 0.05*math.Sin(4*t) }, func(t float64) float64 { return 0 },
		func(t float64) float64 { return 0 }, func(t float64) float64 { return math.Sin(0.4 * t) }, func(t float64) float64 { return 0 }, func(t float64) float64 { return math.Cos(0.4 * t) },
	}
	for k, f := range root {
		mc.Curves = append(mc.Curves, model.Curve{Target: attr(model.FirstRootAttribute + k), Kind: model.CurveDense, DenseRate: rate, Samples: dense(f)})
	}
	return mc
}

// Bones sampled at any time is the exact path within a quarter more than
// the fit's tolerances and within the stated model-space bound, on a
// synthetic clip with a jump at a key, which the key times keep (nothing
// unresolved), at the stated tolerances and at finer ones; joints the clip
// does not drive are exactly the exact path's.
func TestBonesMatchTheExactPath(t *testing.T) {
	r, err := NewRig(synth.HumanAvatar())
	if err != nil {
		t.Fatal(err)
	}
	mc := synthHumanClip(2)
	ex, err := Bake(mc, r)
	if err != nil {
		t.Fatal(err)
	}
	for _, tol := range [][2]float64{{BonesMaxErrorDeg, BonesMaxErrorT}, {1e-2, 1e-5}} {
		b, err := bakeBones(mc, r, bonesTol{tol[0], BonesTolerance, tol[1]})
		if err != nil {
			t.Fatal(err)
		}
		st := b.Stats()
		rot, tr, pos, skipped := bonesError(t, b, ex, 2000)
		t.Logf("tolerances %g° %g: %+v; sampled: rotation %.3g°, translation %.3g, model-space %.3g of the scale", tol[0], tol[1], st, rot, tr, pos)
		if st.Unresolved != 0 || skipped != 0 {
			t.Errorf("%d unresolved intervals (%d samples in them)", st.Unresolved, skipped)
		}
		if rot > 1.25*tol[0] || tr > 1.25*tol[1] {
			t.Errorf("sampled bones off the exact path by %.3g° and %.3g of the scale", rot, tr)
		}
		if st.Channels == 0 || st.Keys < 60 || (tol[0] < BonesMaxErrorDeg && st.Keys <= 60) { // 60 frame intervals
			t.Errorf("tolerance %g°: %+v", tol[0], st)
		}
		if pos > st.ModelBound {
			t.Errorf("model space off by %.3g of the scale, bound %.3g", pos, st.ModelBound)
		}
		if b.Duration() != ex.Duration() {
			t.Errorf("duration %v, the clip's %v", b.Duration(), ex.Duration())
		}
	}
}

// dabOnFinalBeta2 is the ozz comparison's humanoid case: the corpus clip
// Dab on FinalBeta2Avatar's own 120-node skeleton.
func dabOnFinalBeta2(b testing.TB) (*model.Clip, *Rig) {
	set := loadCorpus(b)
	var mc *model.Clip
	for _, c := range set.clips {
		if c.Name == "Dab" {
			mc = c
			break
		}
	}
	for _, a := range set.avatars {
		if a.Name == "FinalBeta2Avatar" && mc != nil {
			r, err := NewRig(a)
			if err != nil {
				b.Fatal(err)
			}
			return mc, r
		}
	}
	b.Skip("no Dab or FinalBeta2Avatar")
	return nil, nil
}

// posePerTick plays s forward at 60 Hz on r's skeleton, local pose and
// model space each tick, reporting the thread's CPU time per tick.
func posePerTick(b *testing.B, s anim.Sampler, r *Rig) {
	sk := r.Skeleton()
	local := make([]geom.Transform, sk.Len())
	world := make([]geom.Transform, sk.Len())
	d := s.Duration()
	tm := float32(0)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ReportAllocs()
	b.ResetTimer()
	c0 := threadCPU()
	for i := 0; i < b.N; i++ {
		s.Sample(tm, local)
		anim.LocalToModel(sk, local, world)
		if tm += 1.0 / 60; tm >= d {
			tm -= d
		}
	}
	if cpu := threadCPU() - c0; cpu > 0 {
		b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/tick")
	}
	b.ReportMetric(float64(sk.Len()), "joints")
}

// BenchmarkDabExact is a humanoid character's tick through the exact path
// (muscles to bones each tick): Dab on FinalBeta2Avatar, local pose and
// model space.
func BenchmarkDabExact(b *testing.B) {
	mc, r := dabOnFinalBeta2(b)
	c, err := Bake(mc, r)
	if err != nil {
		b.Fatal(err)
	}
	posePerTick(b, c, r)
}

// BenchmarkDabBones is the same tick through the clip's baked Bones.
func BenchmarkDabBones(b *testing.B) {
	mc, r := dabOnFinalBeta2(b)
	bones, err := BakeBones(mc, r)
	if err != nil {
		b.Fatal(err)
	}
	posePerTick(b, bones, r)
	b.ReportMetric(float64(bones.Stats().Bytes), "baked-bytes")
}

// BenchmarkBakeBonesDab is baking Dab's bones for FinalBeta2Avatar (once
// per clip and rig).
func BenchmarkBakeBonesDab(b *testing.B) {
	mc, r := dabOnFinalBeta2(b)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := BakeBones(mc, r); err != nil {
			b.Fatal(err)
		}
	}
}

// A clip whose bones would take more memory than a baked clip may hold is
// refused with ErrTooManyKeys, before the fit allocates it.
func TestBakeBonesRefusesTooLongClips(t *testing.T) {
	r, err := NewRig(synth.HumanAvatar())
	if err != nil {
		t.Fatal(err)
	}
	for _, stop := range []float32{1e9, 40000, 20000} {
		mc := synthHumanClip(1)
		mc.Stop = stop
		if _, err := BakeBones(mc, r); !errors.Is(err, ErrTooManyKeys) {
			t.Errorf("a %g s clip: %v, want ErrTooManyKeys", stop, err)
		}
	}
}

// FuzzBakeBones bakes arbitrary humanoid clips (NaN and infinite values and
// times, keys out of order, any rate and length) on the synthetic avatar:
// BakeBones either fails with an error or gives Bones that sample without
// panicking at any time.
func FuzzBakeBones(f *testing.F) {
	f.Add([]byte{16, 30, 3, 9, 1, 200, 100, 50, 25, 12})
	f.Add([]byte{255, 255, 2, 0, 2, 0xff, 0xc0, 0x7f, 0, 7, 3, 1, 2, 3, 4})
	f.Add([]byte{1, 0, 4, 50, 0, 128, 50, 1, 64, 50, 2, 32, 8, 0, 0})
	r, err := NewRig(synth.HumanAvatar())
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		at := 0
		next := func() byte {
			if at >= len(data) {
				return 0
			}
			at++
			return data[at-1]
		}
		val := func() float32 {
			switch b := next(); b {
			case 0xff:
				return float32(math.NaN())
			case 0xfe:
				return float32(math.Inf(1))
			default:
				return float32(int8(b)) / 32
			}
		}
		mc := &model.Clip{Name: "fuzz", Humanoid: true, Stop: float32(next()) / 16, SampleRate: float32(next())}
		for n := int(next() % 8); n > 0; n-- {
			tg := model.Target{ClassID: model.ClassAnimator, Attribute: uint32(model.FirstRootAttribute + int(next())%(35+model.MuscleCount))}
			cv := model.Curve{Target: tg}
			switch next() % 3 {
			case 0:
				cv.Kind, cv.Value = model.CurveConstant, val()
			case 1:
				cv.Kind, cv.DenseBegin, cv.DenseRate = model.CurveDense, val(), float32(next())
				for k := int(next() % 16); k > 0; k-- {
					cv.Samples = append(cv.Samples, val())
				}
			default:
				cv.Kind = model.CurveStreamed
				for k := int(next() % 16); k > 0; k-- {
					cv.Segments = append(cv.Segments, model.Segment{Time: float32(next()) / 32, C: [4]float32{val(), val(), val(), val()}})
				}
			}
			mc.Curves = append(mc.Curves, cv)
		}
		b, err := BakeBones(mc, r)
		if err != nil {
			return
		}
		pose := make([]geom.Transform, r.Len())
		d := b.Duration()
		for _, tm := range []float32{-1, 0, d / 3, d, 2 * d, float32(math.NaN()), float32(math.Inf(1))} {
			b.Sample(tm, pose)
		}
		_ = b.ExtractRootMotion(0, d, 1)
	})
}

// BenchmarkLoadBonesDab is loading Dab's saved bones for FinalBeta2Avatar
// (UnmarshalBones): what a server does instead of BakeBonesDab.
func BenchmarkLoadBonesDab(b *testing.B) {
	mc, r := dabOnFinalBeta2(b)
	bones, err := BakeBones(mc, r)
	if err != nil {
		b.Fatal(err)
	}
	data, err := bones.MarshalBinary()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ReportMetric(float64(len(data)), "file-bytes")
	for b.Loop() {
		if _, err := UnmarshalBones(data, r); err != nil {
			b.Fatal(err)
		}
	}
}
