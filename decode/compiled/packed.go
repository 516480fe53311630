package compiled

import (
	"fmt"
	"math"

	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/typetree"
)

// bitReader reads little-endian bit fields (least significant bit first)
// from a byte slice, as Unity's packed bit vectors store them.
type bitReader struct {
	data []byte
	pos  int // in bits
}

// read returns the next n bits (n ≤ 32); the caller has checked the length.
func (r *bitReader) read(n int) uint32 {
	var x uint64
	for got := 0; got < n; {
		b := r.data[r.pos>>3]
		off := r.pos & 7
		take := min(n-got, 8-off)
		x |= uint64(b>>off) & (1<<take - 1) << got
		got += take
		r.pos += take
	}
	return uint32(x)
}

// packedVector is the common part of Unity's PackedBitVector fields.
type packedVector struct {
	n    int
	bits int
	data []byte
}

// maxZeroBitItems bounds the item count of a vector whose bit size is 0
// (every item equal, no data): such a count is checked against nothing in
// the data, so it gets a fixed limit.
const maxZeroBitItems = 1 << 20

// readPacked reads m_NumItems, m_BitSize and m_Data, and checks that the
// data holds n items of bitsPer bits (bitsPer 0: m_BitSize).
func readPacked(v *typetree.Value, bitsPer int) (packedVector, error) {
	// The count is checked as read (a u32) before it becomes an int, which
	// may be 32 bits wide.
	n := v.Field("m_NumItems").Uint()
	p := packedVector{data: v.Field("m_Data").Bytes()}
	if bitsPer == 0 {
		bits := v.Field("m_BitSize").Uint()
		if bits > 32 {
			return p, errf(ErrMalformed, "bit size %d", bits)
		}
		p.bits = int(bits)
		bitsPer = p.bits
	}
	if bitsPer == 0 && n > maxZeroBitItems {
		return p, errf(ErrMalformed, "%d items of 0 bits (at most %d)", n, maxZeroBitItems)
	}
	if n > math.MaxInt32 || n*uint64(bitsPer) > uint64(len(p.data))*8 {
		return p, errf(ErrMalformed, "%d items of %d bits in %d bytes", n, bitsPer, len(p.data))
	}
	p.n = int(n)
	return p, nil
}

// unpackQuats decodes a PackedQuatVector: per quaternion 3 flag bits (the
// index of the largest component, which is left out, and whether it is
// negative), then the other three components in order, the one after the
// left-out one in 9 bits and the others in 10, each mapping [0, 2^b-1] to
// [-1, 1]; the left-out component is what makes the quaternion unit.
func unpackQuats(v *typetree.Value) ([][4]float32, error) {
	p, err := readPacked(v, 32)
	if err != nil {
		return nil, err
	}
	out := make([][4]float32, p.n)
	r := &bitReader{data: p.data}
	for i := range out {
		flags := r.read(3)
		big := int(flags & 3)
		var sum float64
		for j := 0; j < 4; j++ {
			if j == big {
				continue
			}
			bits := 10
			if (big+1)%4 == j {
				bits = 9
			}
			x := r.read(bits)
			c := float64(x)/(0.5*float64(uint32(1)<<bits-1)) - 1
			out[i][j] = float32(c)
			sum += c * c
		}
		w := float32(math.Sqrt(math.Max(0, 1-sum)))
		if flags&4 != 0 {
			w = -w
		}
		out[i][big] = w
	}
	return out, nil
}

// unpackInts decodes a PackedIntVector.
func unpackInts(v *typetree.Value) ([]uint32, error) {
	p, err := readPacked(v, 0)
	if err != nil {
		return nil, err
	}
	out := make([]uint32, p.n)
	r := &bitReader{data: p.data}
	for i := range out {
		out[i] = r.read(p.bits)
	}
	return out, nil
}

// unpackFloats decodes a PackedFloatVector: m_BitSize-bit integers mapping
// [0, 2^b-1] linearly onto [m_Start, m_Start+m_Range].
func unpackFloats(v *typetree.Value) ([]float32, error) {
	p, err := readPacked(v, 0)
	if err != nil {
		return nil, err
	}
	start, rng := v.Field("m_Start").Float32(), v.Field("m_Range").Float32()
	out := make([]float32, p.n)
	r := &bitReader{data: p.data}
	maxv := float64(uint64(1)<<p.bits - 1)
	for i := range out {
		x := r.read(p.bits)
		if maxv == 0 {
			out[i] = start
			continue
		}
		out[i] = float32(float64(x)/(maxv/float64(rng))) + start
	}
	return out, nil
}

// compressedRotationCurve decodes an entry of m_CompressedRotationCurves
// (legacy clips with keyframe compression) into its four component curves:
// key times are packed deltas in hundredths of a second, values packed
// quaternions, slopes packed floats holding each key's in-slope (x y z w)
// and, when there are twice as many, then every key's out-slope (else the
// out-slopes equal the in-slopes).
func compressedRotationCurve(e *typetree.Value) ([4]model.Curve, error) {
	var out [4]model.Curve
	// The quaternions take 32 bits each, so their count is bounded by the
	// data; the times and slopes (whose bit size may be 0, making any item
	// count fit in no data) are checked against it before being unpacked.
	quats, err := unpackQuats(e.Field("m_Values"))
	if err != nil {
		return out, fmt.Errorf("m_Values: %w", err)
	}
	nq := uint64(len(quats))
	if nt := e.Path("m_Times", "m_NumItems").Uint(); nt != nq {
		return out, fmt.Errorf("m_Times: %w", errf(ErrMalformed, "%d times for %d values", nt, nq))
	}
	if ns := e.Path("m_Slopes", "m_NumItems").Uint(); ns != 4*nq && ns != 8*nq {
		return out, fmt.Errorf("m_Slopes: %w", errf(ErrMalformed, "%d slopes for %d keys", ns, nq))
	}
	times, err := unpackInts(e.Field("m_Times"))
	if err != nil {
		return out, fmt.Errorf("m_Times: %w", err)
	}
	slopes, err := unpackFloats(e.Field("m_Slopes"))
	if err != nil {
		return out, fmt.Errorf("m_Slopes: %w", err)
	}
	n := len(quats)
	if len(times) != n {
		return out, errf(ErrMalformed, "%d times for %d values", len(times), n)
	}
	offs := 0
	switch len(slopes) {
	case 4 * n:
	case 8 * n:
		offs = n
	default:
		return out, errf(ErrMalformed, "%d slopes for %d keys", len(slopes), n)
	}
	var t uint64
	for c := range out {
		out[c] = model.Curve{
			Kind:         model.CurveKeyframed,
			Keys:         make([]model.Keyframe, n),
			PreInfinity:  model.Infinity(e.Field("m_PreInfinity").Int()),
			PostInfinity: model.Infinity(e.Field("m_PostInfinity").Int()),
		}
	}
	for i := 0; i < n; i++ {
		t += uint64(times[i])
		tm := float32(float64(t) * 0.01)
		for c := range out {
			out[c].Keys[i] = model.Keyframe{
				Time:      tm,
				Value:     quats[i][c],
				InSlope:   slopes[i*4+c],
				OutSlope:  slopes[(i+offs)*4+c],
				InWeight:  1.0 / 3,
				OutWeight: 1.0 / 3,
			}
		}
	}
	return out, nil
}
