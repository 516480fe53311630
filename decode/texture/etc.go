package texture

import "encoding/binary"

// ETC1, ETC2 and EAC blocks, decoded from the Khronos Data Format
// Specification's "ETC1 Compressed Texture Image Formats" and "ETC2
// Compressed Texture Image Formats" chapters. A block is 4×4 texels; its
// texel (x, y) is px[4*y+x], y counting the block's rows in their stored
// order. ETC1 data is decoded by the ETC2 rules, which decode every ETC1
// block as ETC1 does.

// etcModifiers are the intensity modifier tables of the individual and
// differential modes: per table, the small and the large modifier.
var etcModifiers = [8][2]int32{
	{2, 8}, {5, 17}, {9, 29}, {13, 42}, {18, 60}, {24, 80}, {33, 106}, {47, 183},
}

// etcDistances are the distances of the T and H modes.
var etcDistances = [8]int32{3, 6, 11, 16, 23, 32, 41, 64}

// eacModifiers are the modifier tables of EAC blocks (alpha, R11, RG11).
var eacModifiers = [16][8]int32{
	{-3, -6, -9, -15, 2, 5, 8, 14},
	{-3, -7, -10, -13, 2, 6, 9, 12},
	{-2, -5, -8, -13, 1, 4, 7, 12},
	{-2, -4, -6, -13, 1, 3, 5, 12},
	{-3, -6, -8, -12, 2, 5, 7, 11},
	{-3, -7, -9, -11, 2, 6, 8, 10},
	{-4, -7, -8, -11, 3, 6, 7, 10},
	{-3, -5, -8, -11, 2, 4, 7, 10},
	{-2, -6, -8, -10, 1, 5, 7, 9},
	{-2, -5, -8, -10, 1, 4, 7, 9},
	{-2, -4, -8, -10, 1, 3, 7, 9},
	{-2, -5, -7, -10, 1, 4, 6, 9},
	{-3, -4, -7, -10, 2, 3, 6, 9},
	{-1, -2, -3, -10, 0, 1, 2, 9},
	{-4, -6, -8, -9, 3, 5, 7, 8},
	{-3, -5, -7, -9, 2, 4, 6, 8},
}

func clamp255(v int32) uint8 {
	switch {
	case v < 0:
		return 0
	case v > 255:
		return 255
	}
	return uint8(v)
}

// decodeETC2 decodes an ETC2 RGB block (or, with punchThrough, the colour
// and one-bit alpha of an ETC2 RGBA1 block) into px. Alpha is 255 except
// for punch-through's transparent texels, which are (0, 0, 0, 0).
func decodeETC2(b []byte, px *[16][4]uint8, punchThrough bool) {
	v := binary.BigEndian.Uint64(b)
	hi := uint32(v >> 32)
	lo := uint32(v)
	bit := func(n uint) uint32 { return uint32(v>>n) & 1 }
	field := func(top, n uint) int32 { return int32(v>>(top-n+1)) & (1<<n - 1) }
	// Index of texel (x, y): its two bits are at x*4+y (low) and +16 (high).
	var index [16]uint8
	for i := range uint(16) {
		index[4*(i&3)+i>>2] = uint8(lo>>(i+16)&1)<<1 | uint8(lo>>i&1)
	}
	diff := bit(33) == 1
	opaque := true
	if punchThrough {
		// The diff bit is the opaque bit; individual mode does not exist.
		opaque, diff = diff, true
	}
	if !diff {
		// Individual mode: two 4-bit base colours.
		var base [2][3]int32
		for c := range 3 {
			base[0][c] = field(63-uint(8*c), 4) * 17
			base[1][c] = field(59-uint(8*c), 4) * 17
		}
		etcSubblocks(px, hi, base, &index, true, false)
		return
	}
	r, g, bl := field(63, 5), field(55, 5), field(47, 5)
	dr, dg, db := signed3(field(58, 3)), signed3(field(50, 3)), signed3(field(42, 3))
	switch {
	case r+dr < 0 || r+dr > 31:
		// T mode.
		c1 := [3]int32{(field(60, 2)<<2 | field(57, 2)) * 17, field(55, 4) * 17, field(51, 4) * 17}
		c2 := [3]int32{field(47, 4) * 17, field(43, 4) * 17, field(39, 4) * 17}
		d := etcDistances[field(35, 2)<<1|int32(bit(32))]
		paint := [4][3]int32{c1, add3(c2, d), c2, add3(c2, -d)}
		etcPaint(px, paint, &index, punchThrough && !opaque)
	case g+dg < 0 || g+dg > 31:
		// H mode.
		r1, g1, b1 := field(62, 4), field(58, 3)<<1|int32(bit(52)), int32(bit(51))<<3|field(49, 3)
		r2, g2, b2 := field(46, 4), field(42, 4), field(38, 4)
		di := int32(bit(34))<<2 | int32(bit(32))<<1
		if r1<<8|g1<<4|b1 >= r2<<8|g2<<4|b2 {
			di |= 1
		}
		d := etcDistances[di]
		c1 := [3]int32{r1 * 17, g1 * 17, b1 * 17}
		c2 := [3]int32{r2 * 17, g2 * 17, b2 * 17}
		paint := [4][3]int32{add3(c1, d), add3(c1, -d), add3(c2, d), add3(c2, -d)}
		etcPaint(px, paint, &index, punchThrough && !opaque)
	case bl+db < 0 || bl+db > 31:
		// Planar mode: always opaque.
		ext6 := func(x int32) int32 { return x<<2 | x>>4 }
		ext7 := func(x int32) int32 { return x<<1 | x>>6 }
		o := [3]int32{ext6(field(62, 6)), ext7(field(56, 1)<<6 | field(54, 6)), ext6(field(48, 1)<<5 | field(44, 2)<<3 | field(41, 3))}
		hh := [3]int32{ext6(field(38, 5)<<1 | int32(bit(32))), ext7(field(31, 7)), ext6(field(24, 6))}
		vv := [3]int32{ext6(field(18, 6)), ext7(field(12, 7)), ext6(field(5, 6))}
		for y := range 4 {
			for x := range 4 {
				p := &px[4*y+x]
				for c := range 3 {
					p[c] = clamp255((int32(x)*(hh[c]-o[c]) + int32(y)*(vv[c]-o[c]) + 4*o[c] + 2) >> 2)
				}
				p[3] = 255
			}
		}
	default:
		// Differential mode.
		ext5 := func(x int32) int32 { return x<<3 | x>>2 }
		base := [2][3]int32{
			{ext5(r), ext5(g), ext5(bl)},
			{ext5(r + dr), ext5(g + dg), ext5(bl + db)},
		}
		etcSubblocks(px, hi, base, &index, opaque, punchThrough)
	}
}

func signed3(x int32) int32 {
	if x >= 4 {
		return x - 8
	}
	return x
}

func add3(c [3]int32, d int32) [3]int32 { return [3]int32{c[0] + d, c[1] + d, c[2] + d} }

// etcSubblocks paints the two half-blocks of the individual and
// differential modes. Without opaque (punch-through's non-opaque blocks)
// index 2 is transparent and the small modifiers are 0.
func etcSubblocks(px *[16][4]uint8, hi uint32, base [2][3]int32, index *[16]uint8, opaque, punchThrough bool) {
	flip := hi&1 == 1
	tables := [2]int32{int32(hi >> 5 & 7), int32(hi >> 2 & 7)}
	for y := range 4 {
		for x := range 4 {
			sub := 0
			if (!flip && x >= 2) || (flip && y >= 2) {
				sub = 1
			}
			m := etcModifiers[tables[sub]]
			idx := index[4*y+x]
			p := &px[4*y+x]
			if punchThrough && !opaque && idx == 2 {
				*p = [4]uint8{}
				continue
			}
			var d int32
			switch idx {
			case 0:
				d = m[0]
			case 1:
				d = m[1]
			case 2:
				d = -m[0]
			case 3:
				d = -m[1]
			}
			if punchThrough && !opaque && (idx == 0 || idx == 2) {
				d = 0
			}
			for c := range 3 {
				p[c] = clamp255(base[sub][c] + d)
			}
			p[3] = 255
		}
	}
}

// etcPaint paints the T and H modes' four paint colours by index; with
// transparent, index 2 is (0, 0, 0, 0).
func etcPaint(px *[16][4]uint8, paint [4][3]int32, index *[16]uint8, transparent bool) {
	for y := range 4 {
		for x := range 4 {
			idx := index[4*y+x]
			p := &px[4*y+x]
			if transparent && idx == 2 {
				*p = [4]uint8{}
				continue
			}
			for c := range 3 {
				p[c] = clamp255(paint[idx][c])
			}
			p[3] = 255
		}
	}
}

// decodeEACAlpha decodes an ETC2 RGBA8 alpha block (8-bit EAC) into
// channel ch of px.
func decodeEACAlpha(b []byte, px *[16][4]uint8, ch int) {
	base, mult := int32(b[0]), int32(b[1]>>4)
	table := &eacModifiers[b[1]&15]
	bits := binary.BigEndian.Uint64(b) & (1<<48 - 1)
	for y := range 4 {
		for x := range 4 {
			i := uint(x*4 + y)
			px[4*y+x][ch] = clamp255(base + table[bits>>(45-3*i)&7]*mult)
		}
	}
}

// decodeEAC11 decodes an EAC R11 block (one channel of R11 or RG11) into
// its 11-bit values: unsigned 0…2047, or, signed, −1023…1023.
func decodeEAC11(b []byte, out *[16]int32, signed bool) {
	mult := int32(b[1] >> 4)
	table := &eacModifiers[b[1]&15]
	bits := binary.BigEndian.Uint64(b) & (1<<48 - 1)
	var base int32
	if signed {
		base = int32(int8(b[0]))
		if base == -128 {
			base = -127
		}
		base *= 8
	} else {
		base = int32(b[0])*8 + 4
	}
	for y := range 4 {
		for x := range 4 {
			i := uint(x*4 + y)
			m := table[bits>>(45-3*i)&7]
			if mult != 0 {
				m *= mult * 8
			}
			v := base + m
			if signed {
				v = max(-1023, min(1023, v))
			} else {
				v = max(0, min(2047, v))
			}
			out[4*y+x] = v
		}
	}
}

// eac11Byte scales an 11-bit EAC value to a byte: unsigned 0…2047 to
// 0…255, signed −1023…1023 to 0…255 (−1 to 0, 0 to 128, 1 to 255, as a
// normal map stores signed values in an unsigned texture).
func eac11Byte(v int32, signed bool) uint8 {
	if signed {
		return uint8((int64(v+1023)*255*2 + 2046) / 4092)
	}
	return uint8((int64(v)*255*2 + 2047) / 4094)
}

// decodeEACChannel decodes an EAC R11 block into channel ch of px, scaled
// to bytes.
func decodeEACChannel(b []byte, px *[16][4]uint8, ch int, signed bool) {
	var v [16]int32
	decodeEAC11(b, &v, signed)
	for i := range px {
		px[i][ch] = eac11Byte(v[i], signed)
	}
}
