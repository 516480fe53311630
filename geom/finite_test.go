package geom

import (
	"math"
	"testing"
)

// TestFiniteRejectsNaNAndInfinities: numbers, including the largest and
// the smallest, are finite; NaN and both infinities are not, in a scalar
// or in any component of a vector or quaternion.
func TestFiniteRejectsNaNAndInfinities(t *testing.T) {
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	for _, tc := range []struct {
		x    float32
		want bool
	}{
		{0, true}, {-1.5, true}, {math.MaxFloat32, true}, {-math.MaxFloat32, true}, {math.SmallestNonzeroFloat32, true},
		{nan, false}, {inf, false}, {-inf, false},
	} {
		if got := Finite(tc.x); got != tc.want {
			t.Errorf("Finite(%g) = %v, want %v", tc.x, got, tc.want)
		}
		if got := Finite64(float64(tc.x)); got != tc.want {
			t.Errorf("Finite64(%g) = %v, want %v", tc.x, got, tc.want)
		}
		for i := 0; i < 3; i++ {
			v := Vec3{1, 2, 3}
			*[]*float32{&v.X, &v.Y, &v.Z}[i] = tc.x
			if got := v.Finite(); got != tc.want {
				t.Errorf("%v.Finite() = %v, want %v", v, got, tc.want)
			}
		}
		for i := 0; i < 4; i++ {
			q := IdentityQuat
			*[]*float32{&q.X, &q.Y, &q.Z, &q.W}[i] = tc.x
			if got := q.Finite(); got != tc.want {
				t.Errorf("%v.Finite() = %v, want %v", q, got, tc.want)
			}
		}
	}
}
