//go:build goexperiment.simd && amd64

package anim

import (
	"simd/archsimd"
	"unsafe"

	"github.com/mecanim/mecanim/geom"
)

// haveVectorPose says LocalToModel has a vector form on this build and
// machine: built with GOEXPERIMENT=simd (Go's experimental simd/archsimd)
// on amd64, running on a processor with AVX.
var haveVectorPose = archsimd.X86.AVX()

// f4 views the four floats from p (within a pose's float slots).
func f4(p *float32) *[4]float32 { return (*[4]float32)(unsafe.Pointer(p)) }

// localToModelVector is localToModelScalar with each joint's composition
// in 4-wide vectors: the same products and sums in the same order, lane by
// lane, so the same result to the bit (TestVectorLocalToModelIsScalar).
// A transform is 10 floats (T xyz, R xyzw, S xyz); its vectors are read
// at T (T and R.x), R, and R.w (R.w and S), all inside the transform. A
// joint whose parent is the joint before it (most are) takes the parent's
// vectors from the registers rather than reading back what was just
// stored (overlapping stores, which a load cannot be forwarded from).
func localToModelVector(parents []int, local, out []geom.Transform) {
	signX := archsimd.LoadFloat32x4(&[4]float32{1, -1, 1, -1})
	signY := archsimd.LoadFloat32x4(&[4]float32{1, 1, -1, -1})
	signZ := archsimd.LoadFloat32x4(&[4]float32{-1, 1, 1, -1})
	last := len(out) - 1
	var pt, q, ps archsimd.Float32x4 // the joint before's T, R and S (S in lanes 0-2)
	carried := false
	for i, p := range parents {
		c := &local[i]
		if p < 0 || i == last {
			if p < 0 {
				out[i] = *c
			} else {
				out[i].SetMul(&out[p], c)
			}
			carried = false
			continue
		}
		if p != i-1 || !carried {
			pp := &out[p]
			q = archsimd.LoadFloat32x4(f4(&pp.R.X))
			pt = archsimd.LoadFloat32x4(f4(&pp.T.X))
			ps = archsimd.LoadFloat32x4(f4(&pp.R.W))
			ps = ps.SelectFromPair(1, 2, 3, 3, ps) // S xyz
		}
		r := archsimd.LoadFloat32x4(f4(&c.R.X))
		ct := archsimd.LoadFloat32x4(f4(&c.T.X))
		cs := archsimd.LoadFloat32x4(f4(&c.R.W))
		cs = cs.SelectFromPair(1, 2, 3, 3, cs) // S xyz
		qx := q.SelectFromPair(0, 0, 0, 0, q)
		qy := q.SelectFromPair(1, 1, 1, 1, q)
		qz := q.SelectFromPair(2, 2, 2, 2, q)
		qw := q.SelectFromPair(3, 3, 3, 3, q)
		// T: p.T + (v + w·t + u×t), t = 2·u×v, v = p.S·c.T.
		uyzx := q.SelectFromPair(1, 2, 0, 3, q)
		uzxy := q.SelectFromPair(2, 0, 1, 3, q)
		v := ps.Mul(ct)
		t := uyzx.Mul(v.SelectFromPair(2, 0, 1, 3, v)).Sub(uzxy.Mul(v.SelectFromPair(1, 2, 0, 3, v)))
		t = t.Add(t)
		ut := uyzx.Mul(t.SelectFromPair(2, 0, 1, 3, t)).Sub(uzxy.Mul(t.SelectFromPair(1, 2, 0, 3, t)))
		ot := pt.Add(v.Add(qw.Mul(t)).Add(ut))
		// R: p.R·c.R, as qw·r + qx·(rw, -rz, ry, -rx) + qy·(rz, rw, -rx, -ry) + qz·(-ry, rx, rw, -rz).
		or := qw.Mul(r).
			Add(qx.Mul(r.SelectFromPair(3, 2, 1, 0, r).Mul(signX))).
			Add(qy.Mul(r.SelectFromPair(2, 3, 0, 1, r).Mul(signY))).
			Add(qz.Mul(r.SelectFromPair(1, 0, 3, 2, r).Mul(signZ)))
		os := ps.Mul(cs)
		o := &out[i]
		ot.Store(f4(&o.T.X)) // its fourth lane lands on R.x, written next
		or.Store(f4(&o.R.X))
		// R.w, S xyz
		or.SelectFromPair(3, 3, 4, 4, os).SelectFromPair(0, 2, 5, 6, os).Store(f4(&o.R.W))
		pt, q, ps, carried = ot, or, os, true
	}
}
