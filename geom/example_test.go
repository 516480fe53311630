package geom_test

import (
	"fmt"
	"math"

	"github.com/mecanim/mecanim/geom"
)

// Compose a parent's and a child's local transforms into the child's place
// in the parent's space, as a skeleton's local-to-model pass does: scale,
// then rotation, then translation.
func ExampleTransform_Mul() {
	parent := geom.Transform{T: geom.V3(0, 1, 0), R: geom.AxisAngle(geom.V3(0, 1, 0), 3.14159265/2), S: geom.V3(1, 1, 1)}
	child := geom.Transform{T: geom.V3(0, 0, 0.5), R: geom.IdentityQuat, S: geom.V3(1, 1, 1)}
	p := parent.Mul(child).T
	fmt.Printf("%.2f %.2f %.2f\n", p.X, p.Y, p.Z)
	// Output: 0.50 1.00 0.00
}

// Unity's Euler angles (degrees, applied z, then x, then y: OrderZXY) as a
// quaternion; AngleBetween measures how far apart two rotations are (radians).
func ExampleFromEuler() {
	q := geom.FromEuler(geom.V3(0, 90, 0), geom.OrderZXY)
	fmt.Printf("%.0f°\n", geom.AngleBetween(q, geom.IdentityQuat)*180/math.Pi)
	// Output: 90°
}
