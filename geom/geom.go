// Package geom holds the small vector, quaternion and transform types shared
// by the decoded model and the runtime. Values are float32, as Unity stores
// and evaluates them; all frames are Unity's left-handed frame (x right,
// y up, z forward) unless a function says otherwise.
package geom

import "math"

// Vec3 is a 3-component vector.
type Vec3 struct{ X, Y, Z float32 }

// Quat is a rotation quaternion (x, y, z, w), Unity's component order.
type Quat struct{ X, Y, Z, W float32 }

// Transform is a translation, rotation and scale, applied scale first, then
// rotation, then translation (Unity's TRS order).
type Transform struct {
	T Vec3
	R Quat
	S Vec3
}

// IdentityQuat is the rotation that does nothing. Read-only: do not modify
// (every importer shares it).
var IdentityQuat = Quat{0, 0, 0, 1}

// Identity is the transform that does nothing. Read-only: do not modify
// (every importer shares it).
var Identity = Transform{R: Quat{0, 0, 0, 1}, S: Vec3{1, 1, 1}}

// V3 builds a Vec3.
func V3(x, y, z float32) Vec3 { return Vec3{x, y, z} }

// Add returns a+b.
func (a Vec3) Add(b Vec3) Vec3 { return Vec3{a.X + b.X, a.Y + b.Y, a.Z + b.Z} }

// Sub returns a-b.
func (a Vec3) Sub(b Vec3) Vec3 { return Vec3{a.X - b.X, a.Y - b.Y, a.Z - b.Z} }

// Scale returns a*s.
func (a Vec3) Scale(s float32) Vec3 { return Vec3{a.X * s, a.Y * s, a.Z * s} }

// Mul returns the component-wise product.
func (a Vec3) Mul(b Vec3) Vec3 { return Vec3{a.X * b.X, a.Y * b.Y, a.Z * b.Z} }

// Dot returns the dot product.
func (a Vec3) Dot(b Vec3) float32 { return a.X*b.X + a.Y*b.Y + a.Z*b.Z }

// Cross returns the cross product a×b.
func (a Vec3) Cross(b Vec3) Vec3 {
	return Vec3{a.Y*b.Z - a.Z*b.Y, a.Z*b.X - a.X*b.Z, a.X*b.Y - a.Y*b.X}
}

// Len returns the Euclidean length.
func (a Vec3) Len() float32 { return float32(math.Sqrt(float64(a.Dot(a)))) }

// Normalize returns a scaled to unit length (a itself when its length is 0).
func (a Vec3) Normalize() Vec3 {
	l := a.Len()
	if l == 0 {
		return a
	}
	return a.Scale(1 / l)
}

// Lerp interpolates linearly from a to b.
func (a Vec3) Lerp(b Vec3, t float32) Vec3 {
	return Vec3{a.X + (b.X-a.X)*t, a.Y + (b.Y-a.Y)*t, a.Z + (b.Z-a.Z)*t}
}

// Mul returns the Hamilton product q*r (r applied first, then q).
func (q Quat) Mul(r Quat) Quat {
	return Quat{
		q.W*r.X + q.X*r.W + q.Y*r.Z - q.Z*r.Y,
		q.W*r.Y - q.X*r.Z + q.Y*r.W + q.Z*r.X,
		q.W*r.Z + q.X*r.Y - q.Y*r.X + q.Z*r.W,
		q.W*r.W - q.X*r.X - q.Y*r.Y - q.Z*r.Z,
	}
}

// Conj returns the conjugate (the inverse of a unit quaternion).
func (q Quat) Conj() Quat { return Quat{-q.X, -q.Y, -q.Z, q.W} }

// Dot returns the 4D dot product.
func (q Quat) Dot(r Quat) float32 { return q.X*r.X + q.Y*r.Y + q.Z*r.Z + q.W*r.W }

// Neg returns -q (the same rotation).
func (q Quat) Neg() Quat { return Quat{-q.X, -q.Y, -q.Z, -q.W} }

// Normalize returns q scaled to unit length (identity when q is zero).
func (q Quat) Normalize() Quat {
	l := float32(math.Sqrt(float64(q.Dot(q))))
	if l == 0 || l != l {
		return IdentityQuat
	}
	inv := 1 / l
	return Quat{q.X * inv, q.Y * inv, q.Z * inv, q.W * inv}
}

// Rotate applies the rotation q to v.
func (q Quat) Rotate(v Vec3) Vec3 {
	// v' = v + w·t + u×t with t = 2·u×v, u = (x, y, z); written out in
	// scalars (one leaf call, no nested ones).
	tx := 2 * (q.Y*v.Z - q.Z*v.Y)
	ty := 2 * (q.Z*v.X - q.X*v.Z)
	tz := 2 * (q.X*v.Y - q.Y*v.X)
	return Vec3{
		v.X + q.W*tx + (q.Y*tz - q.Z*ty),
		v.Y + q.W*ty + (q.Z*tx - q.X*tz),
		v.Z + q.W*tz + (q.X*ty - q.Y*tx),
	}
}

// Renormalize is Normalize for a q that rounding has left a few float
// steps off unit length (a product of unit quaternions, a unit one scaled
// and scaled back): there the series 1 − e/2 + 3e²/8 of 1/√(1+e), with
// e = |q|² − 1, is exact to float precision and spares a square root and
// a division. Farther from unit length it is Normalize.
func (q Quat) Renormalize() Quat {
	e := q.Dot(q) - 1
	if !(e > -1e-3 && e < 1e-3) {
		return q.Normalize()
	}
	inv := 1 - e*(0.5-0.375*e)
	return Quat{X: q.X * inv, Y: q.Y * inv, Z: q.Z * inv, W: q.W * inv}
}

// AxisAngle returns the rotation of angle radians about the unit axis.
func AxisAngle(axis Vec3, angle float32) Quat {
	s, c := math.Sincos(float64(angle) / 2)
	return Quat{axis.X * float32(s), axis.Y * float32(s), axis.Z * float32(s), float32(c)}
}

// Nlerp blends from q to r by t along the shorter arc and normalises.
func (q Quat) Nlerp(r Quat, t float32) Quat {
	if q.Dot(r) < 0 {
		r = r.Neg()
	}
	return Quat{
		q.X + (r.X-q.X)*t, q.Y + (r.Y-q.Y)*t, q.Z + (r.Z-q.Z)*t, q.W + (r.W-q.W)*t,
	}.Normalize()
}

// AngleBetween returns the angle in radians of the rotation taking q to r
// (0..π), treating q and -q as the same rotation.
func AngleBetween(q, r Quat) float64 {
	d := math.Abs(float64(q.Normalize().Dot(r.Normalize())))
	if d > 1 {
		d = 1
	}
	return 2 * math.Acos(d)
}

// Mul composes parent*child: the child's transform expressed in the parent's
// space (Unity's non-shearing approximation for non-uniform scale).
func (p Transform) Mul(c Transform) (o Transform) {
	o.SetMul(&p, &c)
	return o
}

// SetMul sets o to p.Mul(c), reading and writing through pointers: the
// form for loops over poses (o may be p or c).
func (o *Transform) SetMul(p, c *Transform) {
	// p.T + p.R.Rotate(p.S·c.T), p.R·c.R, p.S·c.S, written out in scalars
	// (the same arithmetic as Rotate and Quat.Mul), every operand read
	// before o is written.
	qx, qy, qz, qw := p.R.X, p.R.Y, p.R.Z, p.R.W
	vx, vy, vz := p.S.X*c.T.X, p.S.Y*c.T.Y, p.S.Z*c.T.Z
	tx := 2 * (qy*vz - qz*vy)
	ty := 2 * (qz*vx - qx*vz)
	tz := 2 * (qx*vy - qy*vx)
	ox := p.T.X + (vx + qw*tx + (qy*tz - qz*ty))
	oy := p.T.Y + (vy + qw*ty + (qz*tx - qx*tz))
	oz := p.T.Z + (vz + qw*tz + (qx*ty - qy*tx))
	rx, ry, rz, rw := c.R.X, c.R.Y, c.R.Z, c.R.W
	ax := qw*rx + qx*rw + qy*rz - qz*ry
	ay := qw*ry - qx*rz + qy*rw + qz*rx
	az := qw*rz + qx*ry - qy*rx + qz*rw
	aw := qw*rw - qx*rx - qy*ry - qz*rz
	sx, sy, sz := p.S.X*c.S.X, p.S.Y*c.S.Y, p.S.Z*c.S.Z
	// Field by field: a copy of a whole temporary would be read back
	// wider than it was written, which stalls the next joint's loads.
	o.T.X, o.T.Y, o.T.Z = ox, oy, oz
	o.R.X, o.R.Y, o.R.Z, o.R.W = ax, ay, az, aw
	o.S.X, o.S.Y, o.S.Z = sx, sy, sz
}

// Point applies the transform to a point.
func (p Transform) Point(v Vec3) Vec3 { return p.T.Add(p.R.Rotate(p.S.Mul(v))) }

// Inverse returns the inverse transform (exact for uniform scale).
func (p Transform) Inverse() Transform {
	inv := p.R.Conj()
	s := Vec3{recip(p.S.X), recip(p.S.Y), recip(p.S.Z)}
	return Transform{T: s.Mul(inv.Rotate(p.T)).Scale(-1), R: inv, S: s}
}

func recip(x float32) float32 {
	if x == 0 {
		return 0
	}
	return 1 / x
}

// EulerOrder is Unity's rotation order for Euler angles (m_RotationOrder).
type EulerOrder int

// Unity's rotation orders. The name lists the axes in the order the
// rotations are applied; Unity's default (4) applies Z, then X, then Y.
const (
	OrderXYZ EulerOrder = 0
	OrderXZY EulerOrder = 1
	OrderYZX EulerOrder = 2
	OrderYXZ EulerOrder = 3
	OrderZXY EulerOrder = 4
	OrderZYX EulerOrder = 5
)

// FromEuler returns the rotation of Euler angles in degrees applied in the
// given order (OrderZXY: Z first, then X, then Y, i.e. q = qy*qx*qz).
func FromEuler(deg Vec3, order EulerOrder) Quat {
	const d2r = math.Pi / 180
	qx := AxisAngle(Vec3{1, 0, 0}, deg.X*d2r)
	qy := AxisAngle(Vec3{0, 1, 0}, deg.Y*d2r)
	qz := AxisAngle(Vec3{0, 0, 1}, deg.Z*d2r)
	switch order {
	case OrderXYZ:
		return qz.Mul(qy).Mul(qx)
	case OrderXZY:
		return qy.Mul(qz).Mul(qx)
	case OrderYZX:
		return qx.Mul(qz).Mul(qy)
	case OrderYXZ:
		return qz.Mul(qx).Mul(qy)
	case OrderZYX:
		return qx.Mul(qy).Mul(qz)
	default: // OrderZXY
		return qy.Mul(qx).Mul(qz)
	}
}

// Finite reports whether x is a number and not an infinity: the test every
// reader of untrusted curves and poses makes before using a value.
func Finite(x float32) bool { return Finite64(float64(x)) }

// Finite64 reports whether x is a number and not an infinity.
func Finite64(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// Finite reports whether every component of the vector is finite.
func (a Vec3) Finite() bool { return Finite(a.X) && Finite(a.Y) && Finite(a.Z) }

// Finite reports whether every component of the quaternion is finite.
func (q Quat) Finite() bool { return Finite(q.X) && Finite(q.Y) && Finite(q.Z) && Finite(q.W) }

// Finite reports whether every component of t is finite.
func (t Transform) Finite() bool {
	return t.T.Finite() && t.R.Finite() && t.S.Finite()
}

// QuatFromAxes64 returns the rotation (x, y, z, w) whose matrix has the
// orthonormal columns x, y and z, computed in float64 and normalised (the
// identity when NaN or infinite columns give no number).
// Readers of matrices (glTF nodes, skin bind poses) and the avatar builder
// share it, so that a frame is made from axes one way.
func QuatFromAxes64(x, y, z [3]float64) [4]float64 {
	q := quatFromAxes(x, y, z)
	l := math.Sqrt(q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3])
	if !(l > 0) || math.IsInf(l, 0) {
		return [4]float64{0, 0, 0, 1}
	}
	return [4]float64{q[0] / l, q[1] / l, q[2] / l, q[3] / l}
}

// QuatFromAxes is QuatFromAxes64 for float32 axes: the rotation whose
// matrix has the orthonormal columns x, y and z, computed in float64 and
// normalised in float32.
func QuatFromAxes(x, y, z Vec3) Quat {
	q := quatFromAxes([3]float64{float64(x.X), float64(x.Y), float64(x.Z)},
		[3]float64{float64(y.X), float64(y.Y), float64(y.Z)},
		[3]float64{float64(z.X), float64(z.Y), float64(z.Z)})
	return Quat{X: float32(q[0]), Y: float32(q[1]), Z: float32(q[2]), W: float32(q[3])}.Normalize()
}

// quatFromAxes is the rotation of columns x, y, z, not normalised: from
// the largest of the trace and the diagonal, for precision.
func quatFromAxes(x, y, z [3]float64) [4]float64 {
	m00, m11, m22 := x[0], y[1], z[2]
	switch tr := m00 + m11 + m22; {
	case tr > 0:
		s := math.Sqrt(tr+1) * 2
		return [4]float64{(y[2] - z[1]) / s, (z[0] - x[2]) / s, (x[1] - y[0]) / s, s / 4}
	case m00 > m11 && m00 > m22:
		s := math.Sqrt(1+m00-m11-m22) * 2
		return [4]float64{s / 4, (y[0] + x[1]) / s, (z[0] + x[2]) / s, (y[2] - z[1]) / s}
	case m11 > m22:
		s := math.Sqrt(1+m11-m00-m22) * 2
		return [4]float64{(y[0] + x[1]) / s, s / 4, (z[1] + y[2]) / s, (z[0] - x[2]) / s}
	default:
		s := math.Sqrt(1+m22-m00-m11) * 2
		return [4]float64{(z[0] + x[2]) / s, (z[1] + y[2]) / s, s / 4, (x[1] - y[0]) / s}
	}
}
