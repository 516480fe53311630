package anim

import (
	"math"
	"math/rand"
	"sync"
	"testing"

	"github.com/mecanim/mecanim/geom"
)

func TestLocalToModelComposesParents(t *testing.T) {
	sk, _ := NewSkeleton([]string{"", "a", "a/b"}, []int{-1, 0, 1}, nil)
	local := []geom.Transform{
		{T: geom.V3(1, 0, 0), R: geom.AxisAngle(geom.V3(0, 1, 0), math.Pi/2), S: geom.V3(1, 1, 1)},
		{T: geom.V3(0, 0, 1), R: geom.IdentityQuat, S: geom.V3(2, 2, 2)},
		{T: geom.V3(0, 0, 1), R: geom.IdentityQuat, S: geom.V3(1, 1, 1)},
	}
	out := make([]geom.Transform, 3)
	LocalToModel(sk, local, out)
	// 90° about y takes +z to +x: a is at (2,0,0); b is 2 units further.
	want := []geom.Vec3{{X: 1}, {X: 2}, {X: 4}}
	for i, w := range want {
		if out[i].T.Sub(w).Len() > 1e-5 {
			t.Errorf("joint %d at %v want %v", i, out[i].T, w)
		}
	}
}

func TestBlendPoses(t *testing.T) {
	a := []geom.Transform{{T: geom.V3(0, 0, 0), R: geom.AxisAngle(geom.V3(0, 1, 0), 0.2), S: geom.V3(1, 1, 1)}}
	b := []geom.Transform{{T: geom.V3(2, 0, 0), R: geom.AxisAngle(geom.V3(0, 1, 0), 0.6).Neg(), S: geom.V3(3, 3, 3)}}
	cases := []struct {
		name  string
		w     float32
		x, s  float32
		angle float64
	}{
		{"weight 0 is a", 0, 0, 1, 0.2},
		{"weight 1 is b", 1, 2, 3, 0.6},
		{"halfway takes the short arc", 0.5, 1, 2, 0.4},
	}
	for _, k := range cases {
		dst := make([]geom.Transform, 1)
		BlendPoses(dst, a, b, k.w)
		want := geom.AxisAngle(geom.V3(0, 1, 0), float32(k.angle))
		if dst[0].T.X != k.x || dst[0].S.X != k.s || angleDeg(dst[0].R, want) > 1e-3 {
			t.Errorf("%s: got %+v", k.name, dst[0])
		}
		if l := dst[0].R.Dot(dst[0].R); math.Abs(float64(l)-1) > 1e-6 {
			t.Errorf("%s: rotation not normalised (%g)", k.name, l)
		}
	}
}

func TestAddPoseAddsTheDifferenceFromTheReference(t *testing.T) {
	base := []geom.Transform{{T: geom.V3(1, 0, 0), R: geom.AxisAngle(geom.V3(1, 0, 0), 0.3), S: geom.V3(2, 2, 2)}}
	ref := []geom.Transform{{T: geom.V3(0, 1, 0), R: geom.AxisAngle(geom.V3(0, 1, 0), 0.1), S: geom.V3(1, 1, 1)}}
	add := []geom.Transform{{T: geom.V3(0, 2, 0), R: geom.AxisAngle(geom.V3(0, 1, 0), 0.5), S: geom.V3(1.5, 1.5, 1.5)}}
	dst := make([]geom.Transform, 1)
	AddPose(dst, base, add, ref, 1)
	wantR := base[0].R.Mul(geom.AxisAngle(geom.V3(0, 1, 0), 0.4))
	if dst[0].T.Sub(geom.V3(1, 1, 0)).Len() > 1e-6 || angleDeg(dst[0].R, wantR) > 1e-3 || math.Abs(float64(dst[0].S.X-3)) > 1e-6 {
		t.Errorf("full weight: %+v", dst[0])
	}
	AddPose(dst, base, add, ref, 0)
	if dst[0].T != base[0].T || angleDeg(dst[0].R, base[0].R) > 1e-4 || dst[0].S != base[0].S {
		t.Errorf("zero weight changed the base: %+v", dst[0])
	}
	AddPose(dst, base, ref, ref, 1)
	if dst[0].T != base[0].T || angleDeg(dst[0].R, base[0].R) > 1e-4 || dst[0].S != base[0].S {
		t.Errorf("the reference itself added something: %+v", dst[0])
	}
}

// TestSampleIsSafeConcurrently samples one clip from many goroutines at
// different times; run with -race. Every goroutine must see exactly what a
// lone Sample gives.
func TestSampleIsSafeConcurrently(t *testing.T) {
	sk := chainSkeleton(20)
	c, err := Bake(synthClip(sk, 30, 2, 1, 1), sk)
	if err != nil {
		t.Fatal(err)
	}
	const times = 64
	want := make([][]geom.Transform, times)
	for i := range want {
		want[i] = make([]geom.Transform, sk.Len())
		c.Sample(float32(i)/times*2, want[i])
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			got := make([]geom.Transform, sk.Len())
			for r := 0; r < 50; r++ {
				i := (g*7 + r*13) % times
				c.Sample(float32(i)/times*2, got)
				_ = c.SampleRoot(float32(i) / times * 2)
				for j := range got {
					if got[j] != want[i][j] {
						errs <- "concurrent sample differs"
						return
					}
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
}

func TestSampleAllocatesNothing(t *testing.T) {
	sk := chainSkeleton(20)
	c, _ := Bake(synthClip(sk, 30, 2, 1, 1), sk)
	dst := make([]geom.Transform, sk.Len())
	fl := make([]float32, len(c.FloatTargets()))
	if n := testing.AllocsPerRun(100, func() {
		c.Sample(0.7, dst)
		c.SampleFloats(0.7, fl)
		_ = c.SampleRoot(0.7)
	}); n != 0 {
		t.Fatalf("%g allocations per sample", n)
	}
}

// LocalToModel is out[i] = out[parent]·local[i] with geom.Transform.Mul, to
// the bit, on a branching skeleton.
func TestLocalToModelIsTransformMul(t *testing.T) {
	sk := treeSkeleton(94)
	local := append([]geom.Transform(nil), sk.Rest...)
	for i := range local {
		local[i].T = local[i].T.Scale(float32(i%7) - 3)
		local[i].S = geom.V3(1, 1+float32(i%3)/4, 0.5)
	}
	out := make([]geom.Transform, sk.Len())
	LocalToModel(sk, local, out)
	for i, p := range sk.Parents {
		want := local[i]
		if p >= 0 {
			want = out[p].Mul(local[i])
		}
		if out[i] != want {
			t.Fatalf("joint %d: got %+v want %+v", i, out[i], want)
		}
	}
}

// The oracle's angle is the rotation's: AxisAngle by θ is θ from the
// identity (and from its negation), down to angles float32 acos cannot
// resolve.
func TestAngleDegIsTheRotationAngle(t *testing.T) {
	for _, deg := range []float64{1e-4, 0.01, 1, 45, 120, 179} {
		q := geom.AxisAngle(geom.V3(0, 0.6, 0.8), float32(deg*math.Pi/180))
		for _, r := range []geom.Quat{q, q.Neg()} {
			if got := angleDeg(geom.IdentityQuat, r); math.Abs(got-deg) > 1e-3*deg {
				t.Errorf("%g°: angleDeg says %g°", deg, got)
			}
		}
	}
}

// The vector form of LocalToModel (SSE assembly on amd64) is the scalar
// form to the bit, on random poses of a branching skeleton with
// non-uniform scales, and writes nothing past the last joint (on other
// processors, and with the purego tag, both are the scalar form).
func TestVectorLocalToModelIsScalar(t *testing.T) {
	forest, err := NewSkeleton([]string{"a", "a/b", "a/b/c", "d", "d/e", "a/f", "a/b/c/g", "d/e/h"}, []int{-1, 0, 1, -1, 3, 0, 2, 4}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Parents changed after NewSkeleton checked them: a parent after its
	// child, and a joint its own parent, read what the scalar form reads.
	later, self := treeSkeleton(12), chainSkeleton(6)
	later.Parents[5] = 9
	self.Parents[3] = 3
	empty, err := NewSkeleton(nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, sk := range []*Skeleton{treeSkeleton(94), chainSkeleton(20), forest, later, self, empty, chainSkeleton(1)} {
		vectorIsScalar(t, sk)
	}
	t.Logf("vector form in use: %v", haveVectorPose)
}

func vectorIsScalar(t *testing.T, sk *Skeleton) {
	rng := rand.New(rand.NewSource(4))
	local := make([]geom.Transform, sk.Len())
	got := make([]geom.Transform, sk.Len()+1)
	want := make([]geom.Transform, sk.Len()+1)
	for k := 0; k < 50; k++ {
		for i := range local {
			ax := geom.V3(float32(rng.NormFloat64()), float32(rng.NormFloat64()), float32(rng.NormFloat64())).Normalize()
			local[i] = geom.Transform{T: geom.V3(rng.Float32()-0.5, rng.Float32(), rng.Float32()*3), R: geom.AxisAngle(ax, 6*rng.Float32()),
				S: geom.V3(0.5+rng.Float32(), 0.5+rng.Float32(), 1)}
		}
		sentinel := geom.Transform{T: geom.V3(7, 7, 7)}
		got[sk.Len()], want[sk.Len()] = sentinel, sentinel
		localToModelVector(sk.Parents, local, got[:sk.Len()])
		localToModelScalar(sk.Parents, local, want[:sk.Len()])
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("%d joints, pose %d joint %d: vector %+v, scalar %+v", sk.Len(), k, i, got[i], want[i])
			}
		}
	}
}
