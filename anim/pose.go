package anim

import (
	"math"

	"github.com/mecanim/mecanim/geom"
)

// LocalToModel composes a local pose (each joint relative to its parent)
// into model space (each joint relative to the skeleton's root space):
// out[i] = out[parent]·local[i] (geom.Transform.Mul). out and local must
// hold at least s.Len() transforms; out may not alias local. On amd64 it
// composes in 4-wide SSE vectors (assembly), to the same bits as the
// scalar form other processors (and the purego build tag) use.
func LocalToModel(s *Skeleton, local, out []geom.Transform) {
	n := s.Len()
	local, out = local[:n], out[:n]
	parents := s.Parents[:n]
	if haveVectorPose {
		localToModelVector(parents, local, out)
		return
	}
	localToModelScalar(parents, local, out)
}

// localToModelScalar is LocalToModel in scalar arithmetic: the form on
// other processors, and the oracle of the vector form.
func localToModelScalar(parents []int, local, out []geom.Transform) {
	localToModelFrom(parents, local, out, 0)
}

// localToModelFrom is localToModelScalar from joint start on.
func localToModelFrom(parents []int, local, out []geom.Transform, start int) {
	for i := start; i < len(out); i++ {
		c := &local[i]
		p := parents[i]
		if p < 0 {
			out[i] = *c
			continue
		}
		out[i].SetMul(&out[p], c)
	}
}

// BlendPoses writes the blend of poses a and b by weight w (0 gives a,
// 1 gives b) into dst: translations and scales linearly, rotations along
// the shorter arc and normalised (nlerp). It blends len(dst) joints; dst may
// alias a or b.
func BlendPoses(dst, a, b []geom.Transform, w float32) {
	n := len(dst)
	a, b = a[:n], b[:n]
	for i := range dst {
		x, y := &a[i], &b[i]
		dst[i] = geom.Transform{T: x.T.Lerp(y.T, w), R: x.R.Nlerp(y.R, w), S: x.S.Lerp(y.S, w)}
	}
}

// AddPose applies an additive pose by weight w on top of base, into dst.
// The additive's difference from the reference pose (typically its first
// frame) is what is added, per joint: translation base.T + w·(add.T -
// ref.T); rotation base.R·nlerp(identity, ref.R⁻¹·add.R, w); scale
// base.S·lerp(1, add.S/ref.S, w) (a zero reference scale adds nothing). It
// covers len(dst) joints; dst may alias base.
func AddPose(dst, base, additive, reference []geom.Transform, w float32) {
	n := len(dst)
	base, additive, reference = base[:n], additive[:n], reference[:n]
	for i := range dst {
		b, a, r := &base[i], &additive[i], &reference[i]
		dr := r.R.Conj().Mul(a.R)
		ds := geom.Vec3{X: ratio(a.S.X, r.S.X), Y: ratio(a.S.Y, r.S.Y), Z: ratio(a.S.Z, r.S.Z)}
		one := geom.Vec3{X: 1, Y: 1, Z: 1}
		dst[i] = geom.Transform{
			T: b.T.Add(a.T.Sub(r.T).Scale(w)),
			R: b.R.Mul(geom.IdentityQuat.Nlerp(dr, w)).Normalize(),
			S: b.S.Mul(one.Lerp(ds, w)),
		}
	}
}

func ratio(a, r float32) float32 {
	if r == 0 {
		return 1
	}
	return a / r
}

// unitQuat returns (x, y, z, w) scaled to unit length, or the identity when
// it has no direction (zero or NaN): geom.Quat.Normalize's arithmetic, on
// four scalars.
func unitQuat(x, y, z, w float32) (float32, float32, float32, float32) {
	l := float32(math.Sqrt(float64(x*x + y*y + z*z + w*w)))
	if l == 0 || l != l {
		return 0, 0, 0, 1
	}
	inv := 1 / l
	return x * inv, y * inv, z * inv, w * inv
}
