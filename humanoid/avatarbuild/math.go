package avatarbuild

import (
	"math"

	"github.com/mecanim/mecanim/geom"
)

// The builder works in float64 (geom is float32, as Unity stores values):
// the axes are frames built from differences of positions, which float32
// would round to 1e-5° and more on large skeletons.

type vec [3]float64

type quat [4]float64 // x, y, z, w

// xform is a transform in float64, composed as geom.Transform composes.
type xform struct {
	t vec
	r quat
	s vec
}

func vecOf(v geom.Vec3) vec   { return vec{float64(v.X), float64(v.Y), float64(v.Z)} }
func quatOf(q geom.Quat) quat { return quat{float64(q.X), float64(q.Y), float64(q.Z), float64(q.W)} }
func xformOf(t geom.Transform) xform {
	return xform{vecOf(t.T), quatOf(t.R).norm(), vecOf(t.S)}
}

func (a vec) add(b vec) vec       { return vec{a[0] + b[0], a[1] + b[1], a[2] + b[2]} }
func (a vec) sub(b vec) vec       { return vec{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }
func (a vec) scale(s float64) vec { return vec{a[0] * s, a[1] * s, a[2] * s} }
func (a vec) dot(b vec) float64   { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }
func (a vec) length() float64     { return math.Sqrt(a.dot(a)) }
func (a vec) unit() vec           { return a.scale(1 / a.length()) }
func (a vec) cross(b vec) vec {
	return vec{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}

func (q quat) mul(r quat) quat {
	return quat{
		q[3]*r[0] + q[0]*r[3] + q[1]*r[2] - q[2]*r[1],
		q[3]*r[1] - q[0]*r[2] + q[1]*r[3] + q[2]*r[0],
		q[3]*r[2] + q[0]*r[1] - q[1]*r[0] + q[2]*r[3],
		q[3]*r[3] - q[0]*r[0] - q[1]*r[1] - q[2]*r[2],
	}
}

func (q quat) conj() quat { return quat{-q[0], -q[1], -q[2], q[3]} }

func (q quat) norm() quat {
	l := math.Sqrt(q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3])
	if l == 0 {
		return quat{0, 0, 0, 1}
	}
	return quat{q[0] / l, q[1] / l, q[2] / l, q[3] / l}
}

func (q quat) rotate(v vec) vec {
	u := vec{q[0], q[1], q[2]}
	t := u.cross(v).scale(2)
	return v.add(t.scale(q[3])).add(u.cross(t))
}

func (q quat) geom() geom.Quat {
	return geom.Quat{X: float32(q[0]), Y: float32(q[1]), Z: float32(q[2]), W: float32(q[3])}
}

// frame returns the rotation whose matrix has the orthonormal columns x,
// y, z.
func frame(x, y, z vec) quat {
	return quat(geom.QuatFromAxes64([3]float64(x), [3]float64(y), [3]float64(z)))
}
