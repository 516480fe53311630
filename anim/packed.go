package anim

import (
	"math"

	"github.com/mecanim/mecanim/geom"
)

// PackedQuat is a unit quaternion in 8 bytes, "smallest three": bits 0-1
// name the largest component by magnitude, bit 2 is its sign, and three
// 20-bit fields (bits 3-22, 23-42, 43-62) hold the other three components,
// each in [-1/√2, 1/√2], in x, y, z, w order skipping the largest. The
// largest is rebuilt as sqrt(1 - the others' squares) with its sign.
//
// Keeping the sign (rather than folding q into -q) lets a packed track
// reproduce exactly the component-wise interpolation of the raw samples.
//
// Error: each stored component is within half a step, √2/(2²⁰-1)/2 ≈ 6.7e-7,
// of the true one; the rotation decoded is within 2.5e-4 degrees of the one
// packed (measured over random rotations in TestPackedQuatErrorBound, which
// asserts the bound PackedQuatMaxErrorDeg).
type PackedQuat uint64

// PackedQuatMaxErrorDeg is the largest angle, in degrees, between a unit
// quaternion and PackQuat's encoding of it, decoded.
const PackedQuatMaxErrorDeg = 2.5e-4

const (
	packBits  = 20
	packMask  = 1<<packBits - 1
	packRange = math.Sqrt2 / 2 // |smaller components| <= 1/√2
	packScale = packMask / (2 * packRange)
)

// PackQuat packs q (normalised first; the zero quaternion packs as the
// identity).
func PackQuat(q geom.Quat) PackedQuat {
	q = q.Normalize()
	c := [4]float64{float64(q.X), float64(q.Y), float64(q.Z), float64(q.W)}
	big := 0
	for i := 1; i < 4; i++ {
		if math.Abs(c[i]) > math.Abs(c[big]) {
			big = i
		}
	}
	p := uint64(big)
	if c[big] < 0 {
		p |= 1 << 2
	}
	shift := uint(3)
	for i := 0; i < 4; i++ {
		if i == big {
			continue
		}
		v := math.Round((c[i] + packRange) * packScale)
		if v < 0 {
			v = 0
		} else if v > packMask {
			v = packMask
		}
		p |= uint64(v) << shift
		shift += packBits
	}
	return PackedQuat(p)
}

// Unpack returns the quaternion (unit length to float32 precision).
func (p PackedQuat) Unpack() geom.Quat {
	const inv = float32(1 / packScale)
	const off = float32(packRange)
	a := float32(p>>3&packMask)*inv - off
	b := float32(p>>23&packMask)*inv - off
	c := float32(p>>43&packMask)*inv - off
	d2 := 1 - a*a - b*b - c*c
	var d float32
	if d2 > 0 {
		d = float32(math.Sqrt(float64(d2)))
	}
	if p&4 != 0 {
		d = -d
	}
	switch p & 3 {
	case 0:
		return geom.Quat{X: d, Y: a, Z: b, W: c}
	case 1:
		return geom.Quat{X: a, Y: d, Z: b, W: c}
	case 2:
		return geom.Quat{X: a, Y: b, Z: d, W: c}
	}
	return geom.Quat{X: a, Y: b, Z: c, W: d}
}
