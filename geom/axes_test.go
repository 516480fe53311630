package geom

import (
	"math"
	"testing"
)

// The rotation made from a rotation's own axes is that rotation, whichever
// of the trace and the diagonal it is computed from; axes that are not
// numbers give the identity.
func TestQuatFromAxesRebuildsTheRotation(t *testing.T) {
	for _, q := range []Quat{
		IdentityQuat,
		AxisAngle(V3(0, 1, 0), 3.1),                  // trace < 0, y largest
		AxisAngle(V3(1, 0, 0), 3.0),                  // x largest
		AxisAngle(V3(0, 0, 1), -3.0),                 // z largest
		AxisAngle(V3(1, 2, 3).Normalize(), 0.7),      // trace > 0
		AxisAngle(V3(-1, 0.5, 0.2).Normalize(), 2.9), // trace < 0
	} {
		x, y, z := q.Rotate(V3(1, 0, 0)), q.Rotate(V3(0, 1, 0)), q.Rotate(V3(0, 0, 1))
		got := QuatFromAxes(x, y, z)
		if d := math.Abs(float64(got.Dot(q))); d < 1-1e-6 {
			t.Errorf("axes of %v give %v", q, got)
		}
	}
	nan := math.NaN()
	if q := QuatFromAxes64([3]float64{nan, 0, 0}, [3]float64{0, 1, 0}, [3]float64{0, 0, 1}); q != [4]float64{0, 0, 0, 1} {
		t.Errorf("NaN axes give %v, want the identity", q)
	}
}
