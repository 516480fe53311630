package texture

import (
	"encoding/binary"
	mathbits "math/bits"
)

// ASTC blocks (LDR profile, 2D), decoded from the Khronos Data Format
// Specification's "ASTC Compressed Texture Image Formats" chapter. A
// block is 16 bytes for a footprint of bw×bh texels (4×4 to 12×12); its
// texel (x, y) is out[4*(y*bw+x):], y counting the block's rows in their
// stored order.
//
// Colours are decoded as the LDR profile with decode_unorm8 does: endpoints
// widened to 16 bits (e·257; srgb: e·256+128), interpolated, and the top 8
// bits kept. Blocks the specification calls erroneous, and HDR content,
// decode to the error colour, opaque magenta, as LDR decoders show them.

// astcMaxFootprint is the largest block footprint (12×12).
const astcMaxFootprint = 144

var astcError = [4]uint8{255, 0, 255, 255}

// astcLevels are the integer sequence encoding's ranges, in order.
var astcLevels = [21]int{2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 24, 32, 40, 48, 64, 80, 96, 128, 160, 192, 256}

// iseShape returns how a range of n levels is encoded: trits, quints or
// neither, and the plain bits per value.
func iseShape(levels int) (trits, quints bool, nbits int) {
	switch {
	case levels%3 == 0:
		return true, false, mathbits.Len(uint(levels/3)) - 1
	case levels%5 == 0:
		return false, true, mathbits.Len(uint(levels/5)) - 1
	}
	return false, false, mathbits.Len(uint(levels)) - 1
}

// iseBits is the number of bits n values of a range take.
func iseBits(n, levels int) int {
	t, q, b := iseShape(levels)
	switch {
	case t:
		return n*b + (8*n+4)/5
	case q:
		return n*b + (7*n+2)/3
	}
	return n * b
}

// bitReader reads little-endian bit fields of a 128-bit block, limited to
// the bits [start, end): reads past end give zeros, as the integer
// sequence encoding asks.
type bitReader struct {
	lo, hi   uint64
	pos, end int
}

func (r *bitReader) read(n int) uint32 {
	p := r.pos
	r.pos += n
	if p >= r.end || n == 0 {
		return 0
	}
	n = min(n, r.end-p)
	var v uint64
	switch {
	case p >= 64:
		v = r.hi >> (p - 64)
	case p == 0:
		v = r.lo
	default:
		v = r.lo>>p | r.hi<<(64-p)
	}
	return uint32(v & (1<<n - 1))
}

// astcField returns n bits of the block at bit p.
func astcField(lo, hi uint64, p, n int) uint32 {
	r := bitReader{lo: lo, hi: hi, pos: p, end: 128}
	return r.read(n)
}

// decodeISE reads n values of the range from r into out.
func decodeISE(r *bitReader, n, levels int, out []int) {
	trits, quints, nb := iseShape(levels)
	switch {
	case trits:
		for g := 0; g < n; g += 5 {
			var m [5]uint32
			var t uint32
			m[0] = r.read(nb)
			t = r.read(2)
			m[1] = r.read(nb)
			t |= r.read(2) << 2
			m[2] = r.read(nb)
			t |= r.read(1) << 4
			m[3] = r.read(nb)
			t |= r.read(2) << 5
			m[4] = r.read(nb)
			t |= r.read(1) << 7
			tt := decodeTrits(t)
			for i := 0; i < 5 && g+i < n; i++ {
				out[g+i] = int(tt[i])<<nb | int(m[i])
			}
		}
	case quints:
		for g := 0; g < n; g += 3 {
			var m [3]uint32
			var q uint32
			m[0] = r.read(nb)
			q = r.read(3)
			m[1] = r.read(nb)
			q |= r.read(2) << 3
			m[2] = r.read(nb)
			q |= r.read(2) << 5
			qq := decodeQuints(q)
			for i := 0; i < 3 && g+i < n; i++ {
				out[g+i] = int(qq[i])<<nb | int(m[i])
			}
		}
	default:
		for i := 0; i < n; i++ {
			out[i] = int(r.read(nb))
		}
	}
}

func bitsOf(v uint32, hi, lo uint) uint32 { return v >> lo & (1<<(hi-lo+1) - 1) }

// decodeTrits unpacks five trits from their 8-bit packing.
func decodeTrits(t uint32) [5]uint32 {
	var c, t0, t1, t2, t3, t4 uint32
	if bitsOf(t, 4, 2) == 7 {
		c = bitsOf(t, 7, 5)<<2 | bitsOf(t, 1, 0)
		t4, t3 = 2, 2
	} else {
		c = bitsOf(t, 4, 0)
		if bitsOf(t, 6, 5) == 3 {
			t4, t3 = 2, bitsOf(t, 7, 7)
		} else {
			t4, t3 = bitsOf(t, 7, 7), bitsOf(t, 6, 5)
		}
	}
	switch {
	case bitsOf(c, 1, 0) == 3:
		t2, t1 = 2, bitsOf(c, 4, 4)
		t0 = bitsOf(c, 3, 3)<<1 | (bitsOf(c, 2, 2) &^ bitsOf(c, 3, 3))
	case bitsOf(c, 3, 2) == 3:
		t2, t1, t0 = 2, 2, bitsOf(c, 1, 0)
	default:
		t2, t1 = bitsOf(c, 4, 4), bitsOf(c, 3, 2)
		t0 = bitsOf(c, 1, 1)<<1 | (bitsOf(c, 0, 0) &^ bitsOf(c, 1, 1))
	}
	return [5]uint32{t0, t1, t2, t3, t4}
}

// decodeQuints unpacks three quints from their 7-bit packing.
func decodeQuints(q uint32) [3]uint32 {
	var q0, q1, q2 uint32
	if bitsOf(q, 2, 1) == 3 && bitsOf(q, 6, 5) == 0 {
		q2 = bitsOf(q, 0, 0)<<2 | (bitsOf(q, 4, 4)&^bitsOf(q, 0, 0))<<1 | (bitsOf(q, 3, 3) &^ bitsOf(q, 0, 0))
		q1, q0 = 4, 4
	} else {
		var c uint32
		if bitsOf(q, 2, 1) == 3 {
			q2 = 4
			c = bitsOf(q, 4, 3)<<3 | (^bitsOf(q, 6, 5)&3)<<1 | bitsOf(q, 0, 0)
		} else {
			q2 = bitsOf(q, 6, 5)
			c = bitsOf(q, 4, 0)
		}
		if bitsOf(c, 2, 0) == 5 {
			q1, q0 = 4, bitsOf(c, 4, 3)
		} else {
			q1, q0 = bitsOf(c, 4, 3), bitsOf(c, 2, 0)
		}
	}
	return [3]uint32{q0, q1, q2}
}

// unquantWeight maps a weight of the range to 0…64.
func unquantWeight(v, levels int) int {
	trits, quints, nb := iseShape(levels)
	if !trits && !quints {
		// Bit replication to 6 bits.
		u := 0
		for s := 6 - nb; s > -nb; s -= nb {
			if s >= 0 {
				u |= v << s
			} else {
				u |= v >> -s
			}
		}
		u &= 63
		if u > 32 {
			u++
		}
		return u
	}
	if nb == 0 {
		if trits {
			return [3]int{0, 32, 64}[v]
		}
		return [5]int{0, 16, 32, 48, 64}[v]
	}
	m := v & (1<<nb - 1)
	d := v >> nb
	a := 0
	if m&1 == 1 {
		a = 0x7f
	}
	b1, b2 := m>>1&1, m>>2&1
	var bb, c int
	switch {
	case trits && nb == 1:
		c = 50
	case quints && nb == 1:
		c = 28
	case trits && nb == 2:
		bb, c = b1<<6|b1<<2|b1, 23
	case quints && nb == 2:
		bb, c = b1<<6|b1<<1, 13
	case trits && nb == 3:
		bb, c = b2<<6|b1<<5|b2<<1|b1, 11
	}
	u := d*c + bb
	u ^= a
	u = a&0x20 | u>>2
	if u > 32 {
		u++
	}
	return u
}

// unquantColor maps a colour endpoint value of the range to 0…255.
func unquantColor(v, levels int) int {
	trits, quints, nb := iseShape(levels)
	if !trits && !quints {
		u := 0
		for s := 8 - nb; s > -nb; s -= nb {
			if s >= 0 {
				u |= v << s
			} else {
				u |= v >> -s
			}
		}
		return u & 255
	}
	m := v & (1<<nb - 1)
	d := v >> nb
	a := 0
	if m&1 == 1 {
		a = 0x1ff
	}
	bit := func(i int) int { return m >> i & 1 }
	var bb, c int
	switch {
	case trits && nb == 1:
		c = 204
	case quints && nb == 1:
		c = 113
	case trits && nb == 2: // b000b0bb0
		b := bit(1)
		bb, c = b<<8|b<<4|b<<2|b<<1, 93
	case quints && nb == 2: // b0000bb00
		b := bit(1)
		bb, c = b<<8|b<<3|b<<2, 54
	case trits && nb == 3: // cb000cbcb
		b, cc := bit(1), bit(2)
		bb, c = cc<<8|b<<7|cc<<3|b<<2|cc<<1|b, 44
	case quints && nb == 3: // cb0000cbc
		b, cc := bit(1), bit(2)
		bb, c = cc<<8|b<<7|cc<<2|b<<1|cc, 26
	case trits && nb == 4: // dcb000dcb
		b, cc, dd := bit(1), bit(2), bit(3)
		bb, c = dd<<8|cc<<7|b<<6|dd<<2|cc<<1|b, 22
	case quints && nb == 4: // dcb0000dc
		b, cc, dd := bit(1), bit(2), bit(3)
		bb, c = dd<<8|cc<<7|b<<6|dd<<1|cc, 13
	case trits && nb == 5: // edcb000ed
		b, cc, dd, e := bit(1), bit(2), bit(3), bit(4)
		bb, c = e<<8|dd<<7|cc<<6|b<<5|e<<1|dd, 11
	case quints && nb == 5: // edcb0000e
		b, cc, dd, e := bit(1), bit(2), bit(3), bit(4)
		bb, c = e<<8|dd<<7|cc<<6|b<<5|e, 6
	case trits && nb == 6: // fedcb000f
		b, cc, dd, e, f := bit(1), bit(2), bit(3), bit(4), bit(5)
		bb, c = f<<8|e<<7|dd<<6|cc<<5|b<<4|f, 5
	}
	u := d*c + bb
	u ^= a
	return a&0x80 | u>>2
}

// astcBlockMode is a block's weight grid and its encoding.
type astcBlockMode struct {
	gw, gh     int // weight grid
	dual       bool
	levels     int // weight range
	weightBits int
}

// decodeBlockMode decodes the 11-bit block mode of a 2D block; false for
// a reserved or out-of-range mode.
func decodeBlockMode(m uint32) (astcBlockMode, bool) {
	var bm astcBlockMode
	r := m >> 4 & 1
	h := m >> 9 & 1
	d := m >> 10 & 1
	a := int(m >> 5 & 3)
	if m&3 != 0 {
		r |= (m & 3) << 1
		b := int(m >> 7 & 3)
		switch m >> 2 & 3 {
		case 0:
			bm.gw, bm.gh = b+4, a+2
		case 1:
			bm.gw, bm.gh = b+8, a+2
		case 2:
			bm.gw, bm.gh = a+2, b+8
		case 3:
			b &= 1
			if m&0x100 != 0 {
				bm.gw, bm.gh = b+2, a+2
			} else {
				bm.gw, bm.gh = a+2, b+6
			}
		}
	} else {
		r |= (m >> 2 & 3) << 1
		if m>>2&3 == 0 {
			return bm, false
		}
		b := int(m >> 9 & 3)
		switch m >> 7 & 3 {
		case 0:
			bm.gw, bm.gh = 12, a+2
		case 1:
			bm.gw, bm.gh = a+2, 12
		case 2:
			bm.gw, bm.gh = a+6, b+6
			d, h = 0, 0
		case 3:
			switch m >> 5 & 3 {
			case 0:
				bm.gw, bm.gh = 6, 10
			case 1:
				bm.gw, bm.gh = 10, 6
			default:
				return bm, false
			}
		}
	}
	bm.dual = d != 0
	bm.levels = astcLevels[int(r)-2+6*int(h)]
	n := bm.gw * bm.gh
	if bm.dual {
		n *= 2
	}
	bm.weightBits = iseBits(n, bm.levels)
	return bm, n <= 64 && bm.weightBits >= 24 && bm.weightBits <= 96
}

// decodeASTC decodes one 16-byte block of footprint bw×bh into out
// (4 bytes a texel, bw·bh texels).
func decodeASTC(blk []byte, bw, bh int, srgb bool, out []uint8) {
	lo, hi := binary.LittleEndian.Uint64(blk), binary.LittleEndian.Uint64(blk[8:])
	fill := func(c [4]uint8) {
		for i := 0; i < bw*bh; i++ {
			copy(out[4*i:4*i+4], c[:])
		}
	}
	mode := uint32(lo & 0x7ff)
	if mode&0x1ff == 0x1fc {
		// Void-extent block: one colour.
		if mode&0x200 != 0 || astcField(lo, hi, 10, 2) != 3 {
			fill(astcError) // HDR, or reserved bits not set
			return
		}
		minS, maxS := astcField(lo, hi, 12, 13), astcField(lo, hi, 25, 13)
		minT, maxT := astcField(lo, hi, 38, 13), astcField(lo, hi, 51, 13)
		allOnes := minS == 0x1fff && maxS == 0x1fff && minT == 0x1fff && maxT == 0x1fff
		if !allOnes && (minS >= maxS || minT >= maxT) {
			fill(astcError)
			return
		}
		fill([4]uint8{uint8(hi >> 8), uint8(hi >> 24), uint8(hi >> 40), uint8(hi >> 56)})
		return
	}
	bm, ok := decodeBlockMode(mode)
	if !ok || bm.gw > bw || bm.gh > bh {
		fill(astcError)
		return
	}
	parts := int(lo>>11&3) + 1
	if parts == 4 && bm.dual {
		fill(astcError)
		return
	}
	// Colour endpoint modes.
	var cem [4]int
	below := 128 - bm.weightBits
	colourStart := 17
	seed := 0
	if parts == 1 {
		cem[0] = int(lo >> 13 & 15)
	} else {
		seed = int(lo >> 13 & 0x3ff)
		colourStart = 29
		enc := int(lo >> 23 & 0x3f)
		if enc&3 == 0 {
			for i := range parts {
				cem[i] = enc >> 2 & 15
			}
		} else {
			extra := 3*parts - 4
			below -= extra
			enc |= int(astcField(lo, hi, below, extra)) << 6
			base := enc&3 - 1
			enc >>= 2
			for i := range parts {
				cem[i] = (enc>>i&1 + base) << 2
				cem[i] |= enc >> (parts + 2*i) & 3
			}
		}
	}
	ccs := -1
	if bm.dual {
		below -= 2
		ccs = int(astcField(lo, hi, below, 2))
	}
	nInts := 0
	for i := range parts {
		nInts += 2 * (cem[i]>>2 + 1)
	}
	colourBits := below - colourStart
	if nInts > 18 || colourBits < 0 {
		fill(astcError)
		return
	}
	levels := 0
	for _, l := range astcLevels {
		if iseBits(nInts, l) <= colourBits {
			levels = l
		}
	}
	if levels < 6 {
		fill(astcError)
		return
	}
	var vals [18]int
	r := bitReader{lo: lo, hi: hi, pos: colourStart, end: colourStart + colourBits}
	decodeISE(&r, nInts, levels, vals[:nInts])
	var ep [4][2][4]int32
	k := 0
	for i := range parts {
		n := 2 * (cem[i]>>2 + 1)
		var v [8]int
		for j := 0; j < n; j++ {
			v[j] = unquantColor(vals[k+j], levels)
		}
		k += n
		e0, e1, hdr := astcEndpoints(cem[i], v)
		if hdr {
			fill(astcError)
			return
		}
		for c := range 4 {
			if srgb {
				ep[i][0][c], ep[i][1][c] = e0[c]<<8|0x80, e1[c]<<8|0x80
			} else {
				ep[i][0][c], ep[i][1][c] = e0[c]*257, e1[c]*257
			}
		}
	}
	// Weights, stored bit-reversed from the block's top.
	nw := bm.gw * bm.gh
	if bm.dual {
		nw *= 2
	}
	var wq [64]int
	wr := bitReader{lo: mathbits.Reverse64(hi), hi: mathbits.Reverse64(lo), end: bm.weightBits}
	decodeISE(&wr, nw, bm.levels, wq[:nw])
	var grid [2][64]int
	for i := 0; i < nw; i++ {
		u := unquantWeight(wq[i], bm.levels)
		if bm.dual {
			grid[i&1][i>>1] = u
		} else {
			grid[0][i] = u
		}
	}
	planes := 1
	if bm.dual {
		planes = 2
	}
	var tw [2][astcMaxFootprint]int32
	infillWeights(bw, bh, bm.gw, bm.gh, planes, &grid, &tw)
	small := bw*bh < 31
	for y := range bh {
		for x := range bw {
			p := 0
			if parts > 1 {
				p = astcPartition(seed, x, y, parts, small)
			}
			t := y*bw + x
			for c := range 4 {
				w := tw[0][t]
				if c == ccs {
					w = tw[1][t]
				}
				e0, e1 := ep[p][0][c], ep[p][1][c]
				v := (e0*(64-w) + e1*w + 32) >> 6
				out[4*t+c] = uint8(v >> 8)
			}
		}
	}
}

// infillWeights spreads the weight grid over the block's texels
// (bilinear, as the specification's fixed-point rule has it).
func infillWeights(bw, bh, gw, gh, planes int, grid *[2][64]int, tw *[2][astcMaxFootprint]int32) {
	ds := (1024 + bw/2) / (bw - 1)
	dt := (1024 + bh/2) / (bh - 1)
	for t := range bh {
		for s := range bw {
			gs := (ds*s*(gw-1) + 32) >> 6
			gt := (dt*t*(gh-1) + 32) >> 6
			js, fs := gs>>4, gs&15
			jt, ft := gt>>4, gt&15
			w11 := (fs*ft + 8) >> 4
			w10 := ft - w11
			w01 := fs - w11
			w00 := 16 - fs - ft + w11
			v0 := js + jt*gw
			for p := range planes {
				at := func(i int) int {
					if i < gw*gh {
						return grid[p][i]
					}
					return 0
				}
				sum := at(v0)*w00 + at(v0+1)*w01 + at(v0+gw)*w10 + at(v0+gw+1)*w11
				tw[p][t*bw+s] = int32((sum + 8) >> 4)
			}
		}
	}
}

// astcEndpoints decodes a colour endpoint mode's values into its two
// endpoints; hdr for the HDR modes, which the LDR profile does not decode.
func astcEndpoints(mode int, v [8]int) (e0, e1 [4]int32, hdr bool) {
	c := func(x int) int32 { return int32(max(0, min(255, x))) }
	rgba := func(r, g, b, a int) [4]int32 { return [4]int32{c(r), c(g), c(b), c(a)} }
	blue := func(r, g, b, a int) [4]int32 { return rgba((r+b)>>1, (g+b)>>1, b, a) }
	transfer := func(a, b int) (int, int) {
		// bit_transfer_signed: b takes a's top bit, a becomes signed.
		b >>= 1
		b |= a & 0x80
		a >>= 1
		a &= 0x3f
		if a&0x20 != 0 {
			a -= 0x40
		}
		return a, b
	}
	switch mode {
	case 0:
		return rgba(v[0], v[0], v[0], 255), rgba(v[1], v[1], v[1], 255), false
	case 1:
		l0 := v[0]>>2 | v[1]&0xc0
		l1 := min(l0+v[1]&0x3f, 255)
		return rgba(l0, l0, l0, 255), rgba(l1, l1, l1, 255), false
	case 4:
		return rgba(v[0], v[0], v[0], v[2]), rgba(v[1], v[1], v[1], v[3]), false
	case 5:
		v[1], v[0] = transfer(v[1], v[0])
		v[3], v[2] = transfer(v[3], v[2])
		return rgba(v[0], v[0], v[0], v[2]), rgba(v[0]+v[1], v[0]+v[1], v[0]+v[1], v[2]+v[3]), false
	case 6:
		return rgba(v[0]*v[3]>>8, v[1]*v[3]>>8, v[2]*v[3]>>8, 255), rgba(v[0], v[1], v[2], 255), false
	case 8:
		if v[1]+v[3]+v[5] >= v[0]+v[2]+v[4] {
			return rgba(v[0], v[2], v[4], 255), rgba(v[1], v[3], v[5], 255), false
		}
		return blue(v[1], v[3], v[5], 255), blue(v[0], v[2], v[4], 255), false
	case 9:
		v[1], v[0] = transfer(v[1], v[0])
		v[3], v[2] = transfer(v[3], v[2])
		v[5], v[4] = transfer(v[5], v[4])
		if v[1]+v[3]+v[5] >= 0 {
			return rgba(v[0], v[2], v[4], 255), rgba(v[0]+v[1], v[2]+v[3], v[4]+v[5], 255), false
		}
		return blue(v[0]+v[1], v[2]+v[3], v[4]+v[5], 255), blue(v[0], v[2], v[4], 255), false
	case 10:
		return rgba(v[0]*v[3]>>8, v[1]*v[3]>>8, v[2]*v[3]>>8, v[4]), rgba(v[0], v[1], v[2], v[5]), false
	case 12:
		if v[1]+v[3]+v[5] >= v[0]+v[2]+v[4] {
			return rgba(v[0], v[2], v[4], v[6]), rgba(v[1], v[3], v[5], v[7]), false
		}
		return blue(v[1], v[3], v[5], v[7]), blue(v[0], v[2], v[4], v[6]), false
	case 13:
		v[1], v[0] = transfer(v[1], v[0])
		v[3], v[2] = transfer(v[3], v[2])
		v[5], v[4] = transfer(v[5], v[4])
		v[7], v[6] = transfer(v[7], v[6])
		if v[1]+v[3]+v[5] >= 0 {
			return rgba(v[0], v[2], v[4], v[6]), rgba(v[0]+v[1], v[2]+v[3], v[4]+v[5], v[6]+v[7]), false
		}
		return blue(v[0]+v[1], v[2]+v[3], v[4]+v[5], v[6]+v[7]), blue(v[0], v[2], v[4], v[6]), false
	}
	return e0, e1, true
}

// astcPartition is the partition of texel (x, y) in a block of the given
// partition count and seed (the specification's hash).
func astcPartition(seed, x, y, count int, small bool) int {
	if small {
		x <<= 1
		y <<= 1
	}
	seed += (count - 1) * 1024
	rnum := hash52(uint32(seed))
	var s [12]uint32
	for i := range 8 {
		s[i] = rnum >> (4 * i) & 15
	}
	s[8] = rnum >> 18 & 15
	s[9] = rnum >> 22 & 15
	s[10] = rnum >> 26 & 15
	s[11] = (rnum>>30 | rnum<<2) & 15
	for i := range s {
		s[i] *= s[i]
	}
	var sh1, sh2 uint
	if seed&1 != 0 {
		sh1 = 5
		if seed&2 != 0 {
			sh1 = 4
		}
		sh2 = 5
		if count == 3 {
			sh2 = 6
		}
	} else {
		sh1 = 5
		if count == 3 {
			sh1 = 6
		}
		sh2 = 5
		if seed&2 != 0 {
			sh2 = 4
		}
	}
	sh3 := sh2
	if seed&0x10 != 0 {
		sh3 = sh1
	}
	for i := 0; i < 8; i += 2 {
		s[i] >>= sh1
		s[i+1] >>= sh2
	}
	for i := 8; i < 12; i++ {
		s[i] >>= sh3
	}
	ux, uy := uint32(x), uint32(y)
	a := (s[0]*ux + s[1]*uy + rnum>>14) & 0x3f
	b := (s[2]*ux + s[3]*uy + rnum>>10) & 0x3f
	c := (s[4]*ux + s[5]*uy + rnum>>6) & 0x3f
	d := (s[6]*ux + s[7]*uy + rnum>>2) & 0x3f
	if count < 4 {
		d = 0
	}
	if count < 3 {
		c = 0
	}
	switch {
	case a >= b && a >= c && a >= d:
		return 0
	case b >= c && b >= d:
		return 1
	case c >= d:
		return 2
	}
	return 3
}

func hash52(p uint32) uint32 {
	p ^= p >> 15
	p *= 0xEEDE0891
	p ^= p >> 5
	p += p << 16
	p ^= p >> 7
	p ^= p >> 3
	p ^= p << 6
	p ^= p >> 17
	return p
}
