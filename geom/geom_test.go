package geom

import (
	"math"
	"math/rand"
	"testing"
)

func near(a, b float32) bool { return math.Abs(float64(a-b)) < 1e-5 }

func TestRotateMatchesAxisAngle(t *testing.T) {
	cases := []struct {
		name string
		q    Quat
		in   Vec3
		want Vec3
	}{
		{"90 about y takes x to -z", AxisAngle(V3(0, 1, 0), math.Pi/2), V3(1, 0, 0), V3(0, 0, -1)},
		{"90 about z takes x to y", AxisAngle(V3(0, 0, 1), math.Pi/2), V3(1, 0, 0), V3(0, 1, 0)},
		{"90 about x takes y to z", AxisAngle(V3(1, 0, 0), math.Pi/2), V3(0, 1, 0), V3(0, 0, 1)},
		{"identity", IdentityQuat, V3(1, 2, 3), V3(1, 2, 3)},
	}
	for _, c := range cases {
		got := c.q.Rotate(c.in)
		if !near(got.X, c.want.X) || !near(got.Y, c.want.Y) || !near(got.Z, c.want.Z) {
			t.Errorf("%s: got %v want %v", c.name, got, c.want)
		}
	}
}

func TestEulerDefaultOrderIsZThenXThenY(t *testing.T) {
	e := V3(30, 40, 50)
	q := FromEuler(e, OrderZXY)
	v := V3(0.3, -0.2, 0.9)
	step := AxisAngle(V3(0, 0, 1), 50*math.Pi/180).Rotate(v)
	step = AxisAngle(V3(1, 0, 0), 30*math.Pi/180).Rotate(step)
	step = AxisAngle(V3(0, 1, 0), 40*math.Pi/180).Rotate(step)
	got := q.Rotate(v)
	if !near(got.X, step.X) || !near(got.Y, step.Y) || !near(got.Z, step.Z) {
		t.Fatalf("got %v want %v", got, step)
	}
}

func TestTransformInverseUndoesMul(t *testing.T) {
	a := Transform{T: V3(1, 2, 3), R: AxisAngle(V3(0, 1, 0), 0.7), S: V3(2, 2, 2)}
	p := V3(0.5, -1, 4)
	back := a.Inverse().Point(a.Point(p))
	if !near(back.X, p.X) || !near(back.Y, p.Y) || !near(back.Z, p.Z) {
		t.Fatalf("got %v want %v", back, p)
	}
}

func TestNlerpTakesShortArc(t *testing.T) {
	q := AxisAngle(V3(0, 1, 0), 0.1)
	r := AxisAngle(V3(0, 1, 0), 0.3).Neg()
	m := q.Nlerp(r, 0.5)
	if a := AngleBetween(m, AxisAngle(V3(0, 1, 0), 0.2)); a > 1e-4 {
		t.Fatalf("midpoint off by %g rad", a)
	}
}

// Mul and SetMul compose exactly as their definition spells it, p.T +
// p.R.Rotate(p.S·c.T), p.R·c.R and p.S·c.S, to the bit (they are written out
// in scalars for speed), including when SetMul writes over an operand.
func TestTransformMulIsTheComposition(t *testing.T) {
	tr := func(k float32) Transform {
		return Transform{T: V3(0.3*k, -1.2, 2+k), R: AxisAngle(V3(0.2, 0.9, -0.4).Normalize(), 0.7*k), S: V3(1, 1.5+k, 0.5)}
	}
	for k := float32(0); k < 5; k++ {
		p, c := tr(k), tr(2-k)
		want := Transform{T: p.T.Add(p.R.Rotate(p.S.Mul(c.T))), R: p.R.Mul(c.R), S: p.S.Mul(c.S)}
		if got := p.Mul(c); got != want {
			t.Errorf("Mul %d: got %+v want %+v", int(k), got, want)
		}
		var o Transform
		o.SetMul(&p, &c)
		pa, ca := p, c
		pa.SetMul(&pa, &c)
		ca.SetMul(&p, &ca)
		if o != want || pa != want || ca != want {
			t.Errorf("SetMul %d: got %+v, over p %+v, over c %+v; want %+v", int(k), o, pa, ca, want)
		}
	}
}

// Renormalize gives Normalize's result within a float step for quaternions
// rounding has left near unit length, and is Normalize farther off.
func TestRenormalizeIsNormalizeNearUnitLength(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for i := 0; i < 10000; i++ {
		q := Quat{X: float32(rng.NormFloat64()), Y: float32(rng.NormFloat64()), Z: float32(rng.NormFloat64()), W: float32(rng.NormFloat64())}.Normalize()
		for _, scale := range []float32{1, 1 + 3e-7, 1 - 5e-7, 1.0004, 0.9996, 2, 0.1} {
			s := Quat{X: q.X * scale, Y: q.Y * scale, Z: q.Z * scale, W: q.W * scale}
			got, want := s.Renormalize(), s.Normalize()
			for k, d := range []float32{got.X - want.X, got.Y - want.Y, got.Z - want.Z, got.W - want.W} {
				if math.Abs(float64(d)) > 2.5e-7 {
					t.Fatalf("%v scaled by %g: component %d of %v, Normalize gives %v", q, scale, k, got, want)
				}
			}
		}
	}
	if (Quat{}).Renormalize() != IdentityQuat {
		t.Error("the zero quaternion does not renormalize to the identity")
	}
}
