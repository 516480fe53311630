package texture

import "encoding/binary"

// bc7Mode is one row of BC7's mode table (Khronos Data Format
// Specification, "Mode-dependent BPTC parameters").
type bc7Mode struct {
	ns  int // subsets
	pb  int // partition selection bits
	rb  int // rotation bits
	isb int // index selection bits
	cb  int // colour bits per channel and endpoint
	ab  int // alpha bits per endpoint
	epb int // per-endpoint P-bits (0 or 1)
	spb int // shared P-bits (0 or 1: one per subset)
	ib  int // index bits
	ib2 int // secondary index bits
}

var bc7Modes = [8]bc7Mode{
	{ns: 3, pb: 4, cb: 4, epb: 1, ib: 3},
	{ns: 2, pb: 6, cb: 6, spb: 1, ib: 3},
	{ns: 3, pb: 6, cb: 5, ib: 2},
	{ns: 2, pb: 6, cb: 7, epb: 1, ib: 2},
	{ns: 1, rb: 2, isb: 1, cb: 5, ab: 6, ib: 2, ib2: 3},
	{ns: 1, rb: 2, cb: 7, ab: 8, ib: 2, ib2: 2},
	{ns: 1, cb: 7, ab: 7, epb: 1, ib: 4},
	{ns: 2, pb: 6, cb: 5, ab: 5, epb: 1, ib: 2},
}

// bc7Weights are the interpolation factors (of 64) of 2-, 3- and 4-bit
// indices ("BPTC interpolation factors").
var bc7Weights = [5][]uint32{
	2: {0, 21, 43, 64},
	3: {0, 9, 18, 27, 37, 46, 55, 64},
	4: {0, 4, 9, 13, 17, 21, 26, 30, 34, 38, 43, 47, 51, 55, 60, 64},
}

// bits reads a 128-bit little-endian block field by field, lowest bits
// first.
type bits struct {
	lo, hi uint64
	pos    int
}

func (b *bits) read(n int) uint32 {
	var v uint64
	switch {
	case n == 0:
		return 0
	case b.pos >= 64:
		v = b.hi >> (b.pos - 64)
	case b.pos+n <= 64:
		v = b.lo >> b.pos
	default:
		v = b.lo>>b.pos | b.hi<<(64-b.pos)
	}
	b.pos += n
	return uint32(v & (1<<n - 1))
}

// decodeBC7 decodes a BC7 block (Khronos Data Format Specification, "BPTC
// Compressed Texture Image Formats", BC7; bit-exact as the specification
// requires): the mode from the lowest set bit, then partition, rotation,
// index selection, endpoints, P-bits and indices, interpolated with 6-bit
// factors. A block whose low byte is 0 (no mode) decodes to zeros, as the
// specification asks of decoders.
func decodeBC7(blk []byte, px *[16][4]uint8) {
	if blk[0] == 0 {
		*px = [16][4]uint8{}
		return
	}
	b := bits{lo: binary.LittleEndian.Uint64(blk), hi: binary.LittleEndian.Uint64(blk[8:])}
	mode := 0
	for blk[0]>>mode&1 == 0 {
		mode++
	}
	m := bc7Modes[mode]
	b.pos = mode + 1
	part := int(b.read(m.pb))
	rot := b.read(m.rb)
	isel := b.read(m.isb)

	// Endpoints: [subset*2+endpoint][channel], as stored (not yet
	// widened), then P-bits, then widened to 8 bits.
	var ep [6][4]uint32
	n := 2 * m.ns
	for c := range 3 {
		for e := 0; e < n; e++ {
			ep[e][c] = b.read(m.cb)
		}
	}
	if m.ab > 0 {
		for e := 0; e < n; e++ {
			ep[e][3] = b.read(m.ab)
		}
	}
	cbits, abits := m.cb, m.ab
	switch {
	case m.epb > 0:
		for e := 0; e < n; e++ {
			p := b.read(1)
			for c := range 4 {
				ep[e][c] = ep[e][c]<<1 | p
			}
		}
		cbits++
		if abits > 0 {
			abits++
		}
	case m.spb > 0:
		for s := 0; s < m.ns; s++ {
			p := b.read(1)
			for e := 2 * s; e < 2*s+2; e++ {
				for c := range 4 {
					ep[e][c] = ep[e][c]<<1 | p
				}
			}
		}
		cbits++
		if abits > 0 {
			abits++
		}
	}
	for e := 0; e < n; e++ {
		for c := range 3 {
			ep[e][c] = widen(ep[e][c], cbits)
		}
		if abits > 0 {
			ep[e][3] = widen(ep[e][3], abits)
		} else {
			ep[e][3] = 255
		}
	}

	// Subsets and anchors of the block's partition.
	var subset [16]uint8
	anchor := [16]bool{0: true}
	switch m.ns {
	case 2:
		subset = partition2[part]
		anchor[anchor2[part]] = true
	case 3:
		subset = partition3[part]
		anchor[anchor3Second[part]] = true
		anchor[anchor3Third[part]] = true
	}
	var idx, idx2 [16]uint32
	for i := range 16 {
		w := m.ib
		if anchor[i] {
			w--
		}
		idx[i] = b.read(w)
	}
	if m.ib2 > 0 {
		for i := range 16 {
			w := m.ib2
			if i == 0 {
				w--
			}
			idx2[i] = b.read(w)
		}
	}

	for i := range 16 {
		s := subset[i]
		e0, e1 := &ep[2*s], &ep[2*s+1]
		ci, cb := idx[i], m.ib
		ai, ab := idx[i], m.ib
		if m.ib2 > 0 {
			if isel == 1 {
				ci, cb = idx2[i], m.ib2
			} else {
				ai, ab = idx2[i], m.ib2
			}
		}
		var out [4]uint8
		for c := range 3 {
			out[c] = lerp64(e0[c], e1[c], bc7Weights[cb][ci])
		}
		out[3] = lerp64(e0[3], e1[3], bc7Weights[ab][ai])
		switch rot {
		case 1:
			out[0], out[3] = out[3], out[0]
		case 2:
			out[1], out[3] = out[3], out[1]
		case 3:
			out[2], out[3] = out[3], out[2]
		}
		px[i] = out
	}
}

// widen scales an n-bit endpoint channel (n ≤ 8) to 8 bits by shifting it
// to the top and replicating its high bits below.
func widen(v uint32, n int) uint32 {
	if n >= 8 {
		return v
	}
	v <<= 8 - n
	return v | v>>n
}

// lerp64 is BPTC's interpolation: ((64−w)·e0 + w·e1 + 32) >> 6.
func lerp64(e0, e1, w uint32) uint8 {
	return uint8(((64-w)*e0 + w*e1 + 32) >> 6)
}
