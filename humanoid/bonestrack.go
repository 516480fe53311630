package humanoid

import (
	"math"
	"slices"

	"github.com/mecanim/mecanim/geom"
)

// The compact form of Bones: per joint property (translation, rotation or
// scale) either a constant or a track of keys, linearly interpolated
// (rotations normalised after the blend), at times drawn from one table of
// key times the tracks share. Key values are quantized (see the encodings);
// the fit measured its error on the quantized values, so the bounds of
// BonesMaxErrorDeg, BonesTolerance and BonesMaxErrorT include it.

// Track properties.
const (
	propT = iota
	propR
	propS
	propCount
)

// Value encodings of a track's keys, each three uint16 words a key except
// encFloat (six).
const (
	// encRot: a unit quaternion as its three smallest components, each a
	// signed 15-bit multiple of 1/(16383·√2) (the word's high bits), the
	// largest one made positive and left out; its index is the low bits of
	// the first two words. The three follow the largest one cyclically
	// (x, y, z, w).
	encRot = iota
	// encRange: three components, each lo + q·step with q in 16 bits.
	encRange
	// encFloat: three float32 components, each as two words (low first).
	encFloat
	encCount
)

// encWords is the number of uint16 words a key takes in each encoding.
var encWords = [encCount]int{3, 3, 6}

const (
	rotQuantSteps = 1<<14 - 1 // either side of 0
	rotQuantScale = 1 / math.Sqrt2 / rotQuantSteps
)

// bonesBlock is how many entries of the time table one entry of a track's
// block index covers: a sample finds its key from the block's first one
// forward, past at most this many keys.
const bonesBlock = 32

// boneTrack is one animated property of one joint (joint -1: the root
// motion, whose T and R are Bones.root).
type boneTrack struct {
	joint int32
	prop  uint8
	enc   uint8
	n     int32      // keys: ktime[key:key+n], vals[val:val+n*encWords[enc]]
	key   int32      // first key's offset in ktime
	val   int32      // first key's offset in vals
	blk   int32      // first block's offset in blocks
	lo    [3]float32 // encRange: the components' lowest values
	step  [3]float32 // encRange: the components' quantization steps
}

// boneConst is a property that does not move (within the tolerances).
type boneConst struct {
	joint int32
	prop  uint8
	v     [4]float32 // T or S: xyz; R: xyzw
}

// trackData is the compact form shared by every track of one Bones.
type trackData struct {
	times  []float32 // key times (clip time), ascending, times[0] = 0
	ktime  []uint16  // per track, its keys' indices in times, ascending
	vals   []uint16  // per track, its keys' values (see the encodings)
	blocks []uint16  // per track, per bonesBlock times: its key in force at the block's first time
	// look finds a time's interval: look[k] is the last index of times
	// at or before k/lookRate.
	look     []uint16
	lookRate float32
}

// index builds the derived lookups (look and blocks) from times, ktime
// and the tracks, so that a decoded Bones gets exactly the baked one's.
func (d *trackData) index(sets ...[]boneTrack) {
	nt := len(d.times)
	last := d.times[nt-1]
	d.look = d.look[:0]
	d.lookRate = 0
	if last > 0 {
		d.lookRate = float32(nt) / last
		i := 0
		for k := 0; k <= nt; k++ {
			t := float32(k) / d.lookRate
			for i+1 < nt && d.times[i+1] <= t {
				i++
			}
			d.look = append(d.look, uint16(i))
		}
	}
	nb := (nt + bonesBlock - 1) / bonesBlock
	n := 0
	for _, tracks := range sets {
		n += len(tracks) * nb
	}
	d.blocks = make([]uint16, 0, n)
	d.look = slices.Clip(d.look)
	for _, tracks := range sets {
		d.indexTracks(tracks, nb)
	}
}

// indexTracks builds the block index of tracks over nb blocks.
func (d *trackData) indexTracks(tracks []boneTrack, nb int) {
	for ti := range tracks {
		tr := &tracks[ti]
		tr.blk = int32(len(d.blocks))
		kt := d.ktime[tr.key : tr.key+tr.n]
		k := 0
		for b := 0; b < nb; b++ {
			first := b * bonesBlock
			for k+1 < len(kt) && int(kt[k+1]) <= first {
				k++
			}
			d.blocks = append(d.blocks, uint16(k))
		}
	}
}

// find returns the index i of the interval of times holding clip time t
// (clamped to the table): times[i] <= t < times[i+1], or the last index.
func (d *trackData) find(t float32) int {
	if len(d.look) == 0 || !(t > 0) {
		return 0
	}
	k := len(d.look) - 1
	if x := t * d.lookRate; x < float32(k) {
		k = int(x)
	}
	i := int(d.look[k])
	times := d.times
	for i > 0 && times[i] > t { // k/lookRate rounded past t
		i--
	}
	for i+1 < len(times) && times[i+1] <= t {
		i++
	}
	return i
}

// keyAt returns the key of track tr in force in interval i of the time
// table (its last key at or before times[i]), and the blend weight toward
// the next key at clip time t (0 past the last key).
func (d *trackData) keyAt(tr *boneTrack, i int, t float32) (k int, a float32, last bool) {
	n := int(tr.n)
	kt := d.ktime[tr.key : int(tr.key)+n]
	k = int(d.blocks[int(tr.blk)+int(uint(i)/bonesBlock)])
	for k+1 < n && int(kt[k+1]) <= i {
		k++
	}
	if k+1 >= n {
		return k, 0, true
	}
	t0, t1 := d.times[kt[k]], d.times[kt[k+1]]
	a = (t - t0) / (t1 - t0)
	if !(a > 0) {
		a = 0
	} else if a > 1 {
		a = 1
	}
	return k, a, false
}

// evalRot returns rotation track tr's value at clip time t, whose interval
// of the time table is i (find).
func (d *trackData) evalRot(tr *boneTrack, i int, t float32) geom.Quat {
	k, a, last := d.keyAt(tr, i, t)
	off := int(tr.val) + 3*k
	if last {
		w := d.vals[off : off+3 : off+3]
		return decodeRot(w[0], w[1], w[2])
	}
	w := d.vals[off : off+6 : off+6]
	return nlerp(decodeRot(w[0], w[1], w[2]), decodeRot(w[3], w[4], w[5]), a)
}

// sampleRots writes the rotation tracks' values at clip time t, whose
// interval of the time table is i, into dst: evalRot for each, written
// out as one loop for speed (the tick's hot path).
func (d *trackData) sampleRots(tracks []boneTrack, i int, t float32, dst []geom.Transform) {
	blk := int(uint(i) / bonesBlock)
	times, vals, ktime, blocks := d.times, d.vals, d.ktime, d.blocks
	for ti := range tracks {
		tr := &tracks[ti]
		n := int(tr.n)
		kt := ktime[tr.key : int(tr.key)+n]
		k := int(blocks[int(tr.blk)+blk])
		for k+1 < n && int(kt[k+1]) <= i {
			k++
		}
		off := int(tr.val) + 3*k
		if k+1 >= n {
			w := vals[off : off+3 : off+3]
			dst[tr.joint].R = decodeRot(w[0], w[1], w[2])
			continue
		}
		t0, t1 := times[kt[k]], times[kt[k+1]]
		a := (t - t0) / (t1 - t0)
		if !(a > 0) {
			a = 0
		} else if a > 1 {
			a = 1
		}
		w := vals[off : off+6 : off+6]
		// The two keys' smallest three, the largest rebuilt.
		a0 := float32(int16(w[0])>>1) * rotQuantScale
		b0 := float32(int16(w[1])>>1) * rotQuantScale
		c0 := float32(int16(w[2])>>1) * rotQuantScale
		a1 := float32(int16(w[3])>>1) * rotQuantScale
		b1 := float32(int16(w[4])>>1) * rotQuantScale
		c1 := float32(int16(w[5])>>1) * rotQuantScale
		l0 := max(1-a0*a0-b0*b0-c0*c0, 0)
		l1 := max(1-a1*a1-b1*b1-c1*c1, 0)
		l0 = float32(math.Sqrt(float64(l0)))
		l1 = float32(math.Sqrt(float64(l1)))
		big0 := uint(w[0]&1|(w[1]&1)<<1) & 3
		big1 := uint(w[3]&1|(w[4]&1)<<1) & 3
		if big0 == big1 {
			// Blend in the stored order (the dot product and the norm
			// do not care), then put the components in place.
			b := a
			if l0*l1+a0*a1+b0*b1+c0*c1 < 0 {
				b = -a
			}
			c := 1 - a
			l, x, y, z := l0*c+l1*b, a0*c+a1*b, b0*c+b1*b, c0*c+c1*b
			if n := l*l + x*x + y*y + z*z; n > 0 {
				s := 1 / float32(math.Sqrt(float64(n)))
				l, x, y, z = l*s, x*s, y*s, z*s
			}
			r := &dst[tr.joint].R
			switch big0 {
			case 0:
				*r = geom.Quat{X: l, Y: x, Z: y, W: z}
			case 1:
				*r = geom.Quat{X: z, Y: l, Z: x, W: y}
			case 2:
				*r = geom.Quat{X: y, Y: z, Z: l, W: x}
			default:
				*r = geom.Quat{X: x, Y: y, Z: z, W: l}
			}
			continue
		}
		var p, q [4]float32
		p[big0], p[(big0+1)&3], p[(big0+2)&3], p[(big0+3)&3] = l0, a0, b0, c0
		q[big1], q[(big1+1)&3], q[(big1+2)&3], q[(big1+3)&3] = l1, a1, b1, c1
		b := a
		if p[0]*q[0]+p[1]*q[1]+p[2]*q[2]+p[3]*q[3] < 0 {
			b = -a
		}
		c := 1 - a
		x, y, z, ww := p[0]*c+q[0]*b, p[1]*c+q[1]*b, p[2]*c+q[2]*b, p[3]*c+q[3]*b
		if s := invNorm(x*x + y*y + z*z + ww*ww); s > 0 {
			x, y, z, ww = x*s, y*s, z*s, ww*s
		}
		dst[tr.joint].R = geom.Quat{X: x, Y: y, Z: z, W: ww}
	}
}

// invNorm returns 1/√l for the squared norm l of a blend of two unit
// quaternions: near 1 (keys within 23° of each other) by one Newton step
// from the tangent at 1, within 3e-9 of the square root's and faster;
// else by the square root (0 for l = 0).
func invNorm(l float32) float32 {
	if l > 0.99 && l < 1.01 {
		s := 1.5 - 0.5*l
		return s * (1.5 - 0.5*l*s*s)
	}
	if l > 0 {
		return 1 / float32(math.Sqrt(float64(l)))
	}
	return 0
}

// nlerp is the normalised blend of unit quaternions p and q (on the
// shorter arc) at a, as sampling computes it.
func nlerp(p, q geom.Quat, a float32) geom.Quat {
	b := a
	if p.X*q.X+p.Y*q.Y+p.Z*q.Z+p.W*q.W < 0 {
		b = -a
	}
	c := 1 - a
	x, y, z, w := p.X*c+q.X*b, p.Y*c+q.Y*b, p.Z*c+q.Z*b, p.W*c+q.W*b
	if s := invNorm(x*x + y*y + z*z + w*w); s > 0 {
		return geom.Quat{X: x * s, Y: y * s, Z: z * s, W: w * s}
	}
	return geom.Quat{X: x, Y: y, Z: z, W: w}
}

// evalVec returns translation or scale track tr's value at clip time t,
// whose interval of the time table is i (find).
func (d *trackData) evalVec(tr *boneTrack, i int, t float32) geom.Vec3 {
	k, a, last := d.keyAt(tr, i, t)
	var v0, v1 [4]float32
	if tr.enc == encRange {
		off := int(tr.val) + 3*k
		if last {
			w := d.vals[off : off+3 : off+3]
			return geom.Vec3{X: tr.lo[0] + float32(w[0])*tr.step[0], Y: tr.lo[1] + float32(w[1])*tr.step[1], Z: tr.lo[2] + float32(w[2])*tr.step[2]}
		}
		w := d.vals[off : off+6 : off+6]
		x0, y0, z0 := tr.lo[0]+float32(w[0])*tr.step[0], tr.lo[1]+float32(w[1])*tr.step[1], tr.lo[2]+float32(w[2])*tr.step[2]
		x1, y1, z1 := tr.lo[0]+float32(w[3])*tr.step[0], tr.lo[1]+float32(w[4])*tr.step[1], tr.lo[2]+float32(w[5])*tr.step[2]
		return geom.Vec3{X: x0 + (x1-x0)*a, Y: y0 + (y1-y0)*a, Z: z0 + (z1-z0)*a}
	}
	off := int(tr.val) + 6*k
	v0 = d.decode(tr, off)
	if last {
		return geom.Vec3{X: v0[0], Y: v0[1], Z: v0[2]}
	}
	v1 = d.decode(tr, off+6)
	return geom.Vec3{X: v0[0] + (v1[0]-v0[0])*a, Y: v0[1] + (v1[1]-v0[1])*a, Z: v0[2] + (v1[2]-v0[2])*a}
}

// decode returns the key value at vals[off:].
func (d *trackData) decode(tr *boneTrack, off int) [4]float32 {
	switch tr.enc {
	case encRot:
		w := d.vals[off : off+3]
		q := decodeRot(w[0], w[1], w[2])
		return [4]float32{q.X, q.Y, q.Z, q.W}
	case encRange:
		w := d.vals[off : off+3]
		return [4]float32{tr.lo[0] + float32(w[0])*tr.step[0], tr.lo[1] + float32(w[1])*tr.step[1], tr.lo[2] + float32(w[2])*tr.step[2], 0}
	default:
		w := d.vals[off : off+6]
		return [4]float32{
			math.Float32frombits(uint32(w[0]) | uint32(w[1])<<16),
			math.Float32frombits(uint32(w[2]) | uint32(w[3])<<16),
			math.Float32frombits(uint32(w[4]) | uint32(w[5])<<16), 0}
	}
}

// decodeRot is encRot's decoding.
func decodeRot(w0, w1, w2 uint16) geom.Quat {
	a := float32(int16(w0)>>1) * rotQuantScale
	b := float32(int16(w1)>>1) * rotQuantScale
	c := float32(int16(w2)>>1) * rotQuantScale
	l := 1 - a*a - b*b - c*c
	if l < 0 {
		l = 0
	}
	l = float32(math.Sqrt(float64(l)))
	switch w0&1 | (w1&1)<<1 {
	case 0:
		return geom.Quat{X: l, Y: a, Z: b, W: c}
	case 1:
		return geom.Quat{X: c, Y: l, Z: a, W: b}
	case 2:
		return geom.Quat{X: b, Y: c, Z: l, W: a}
	}
	return geom.Quat{X: a, Y: b, Z: c, W: l}
}

// encodeRot is encRot's encoding of the unit quaternion q.
func encodeRot(q geom.Quat) [3]uint16 {
	v := [4]float64{float64(q.X), float64(q.Y), float64(q.Z), float64(q.W)}
	if l := math.Sqrt(v[0]*v[0] + v[1]*v[1] + v[2]*v[2] + v[3]*v[3]); l > 0 {
		for k := range v {
			v[k] /= l
		}
	} else {
		v = [4]float64{0, 0, 0, 1}
	}
	big := 0
	for k := 1; k < 4; k++ {
		if math.Abs(v[k]) > math.Abs(v[big]) {
			big = k
		}
	}
	if v[big] < 0 {
		for k := range v {
			v[k] = -v[k]
		}
	}
	var w [3]uint16
	for k := 0; k < 3; k++ {
		x := math.Round(v[(big+1+k)&3] / rotQuantScale)
		x = math.Max(-rotQuantSteps, math.Min(rotQuantSteps, x))
		w[k] = uint16(int16(x) << 1)
	}
	w[0] |= uint16(big & 1)
	w[1] |= uint16(big >> 1)
	return w
}

// encodeVec appends v's key words in encoding enc with tr's range.
func encodeVec(vals []uint16, tr *boneTrack, v [3]float32) []uint16 {
	if tr.enc == encFloat {
		for _, x := range v {
			b := math.Float32bits(x)
			vals = append(vals, uint16(b), uint16(b>>16))
		}
		return vals
	}
	for k, x := range v {
		q := 0.0
		if tr.step[k] > 0 {
			q = math.Round(float64(x-tr.lo[k]) / float64(tr.step[k]))
		}
		vals = append(vals, uint16(math.Max(0, math.Min(65535, q))))
	}
	return vals
}
