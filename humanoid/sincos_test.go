package humanoid

import (
	"math"
	"math/rand"
	"testing"
)

// TestJointTrigonometryMatchesTheStandardLibrarysInFloat32 checks that the
// joint rotations' sine, cosine and half-angle tangent, kept as float32,
// are the standard library's over every half angle a joint can take
// (beyond a quarter turn sinCos is math.Sincos itself).
func TestJointTrigonometryMatchesTheStandardLibrarysInFloat32(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	differ := 0
	const n = 200000
	for i := 0; i < n; i++ {
		a := float64(float32((rng.Float64()*2 - 1) * math.Pi)) // a joint angle; its half is what sinCos gets
		s, c := sinCos(a / 2)
		ws, wc := math.Sincos(a / 2)
		if float32(s) != float32(ws) || float32(c) != float32(wc) || float32(s/c) != float32(math.Tan(a/2)) {
			differ++
			if differ < 5 {
				t.Errorf("angle %v: sin, cos, tan %v %v %v, want %v %v %v", a,
					float32(s), float32(c), float32(s/c), float32(ws), float32(wc), float32(math.Tan(a/2)))
			}
		}
	}
	if differ > 0 {
		t.Errorf("%d of %d angles differ", differ, n)
	}
}
