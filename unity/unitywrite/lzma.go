package unitywrite

import (
	"encoding/binary"
	"math/bits"
)

// LZMA coding parameters of the streams written: lc=3, lp=0, pb=2 (the
// properties byte 0x5D every Unity LZMA bundle of the corpus has).
const (
	lzmaLC       = 3
	lzmaPB       = 2
	lzmaProbInit = 1024
	lzmaTopValue = 1 << 24
	lzmaMinDict  = 1 << 16
	lzmaLitProbs = 0x300
	lzmaMinMatch = 3   // shortest match searched for (a 2-byte match rarely pays)
	lzmaMaxMatch = 273 // the longest LZMA codes
	lzmaHashBits = 16
	lzmaDepth    = 48 // candidates tried per position
)

// rangeEncoder is LZMA's binary arithmetic coder.
type rangeEncoder struct {
	low       uint64
	rng       uint32
	cache     byte
	cacheSize int64
	out       []byte
}

func (e *rangeEncoder) shiftLow() {
	if uint32(e.low) < 0xFF000000 || e.low>>32 != 0 {
		carry := byte(e.low >> 32)
		temp := e.cache
		for {
			e.out = append(e.out, temp+carry)
			temp = 0xFF
			e.cacheSize--
			if e.cacheSize == 0 {
				break
			}
		}
		e.cache = byte(e.low >> 24)
	}
	e.cacheSize++
	e.low = (e.low & 0x00FFFFFF) << 8
}

func (e *rangeEncoder) bit(p *uint16, b uint32) {
	bound := (e.rng >> 11) * uint32(*p)
	if b == 0 {
		e.rng = bound
		*p += (2048 - *p) >> 5
	} else {
		e.low += uint64(bound)
		e.rng -= bound
		*p -= *p >> 5
	}
	for e.rng < lzmaTopValue {
		e.rng <<= 8
		e.shiftLow()
	}
}

// direct codes the low n bits of v, most significant first, with a fixed
// probability of one half.
func (e *rangeEncoder) direct(v uint32, n int) {
	for i := n - 1; i >= 0; i-- {
		e.rng >>= 1
		if v>>uint(i)&1 != 0 {
			e.low += uint64(e.rng)
		}
		for e.rng < lzmaTopValue {
			e.rng <<= 8
			e.shiftLow()
		}
	}
}

// tree codes an n-bit symbol most significant bit first with p[1:1<<n].
func (e *rangeEncoder) tree(p []uint16, n int, sym uint32) {
	m := uint32(1)
	for i := n - 1; i >= 0; i-- {
		b := sym >> uint(i) & 1
		e.bit(&p[m], b)
		m = m<<1 | b
	}
}

// reverseTree codes an n-bit symbol least significant bit first with
// p[1:1<<n].
func (e *rangeEncoder) reverseTree(p []uint16, n int, sym uint32) {
	m := uint32(1)
	for i := 0; i < n; i++ {
		b := sym >> uint(i) & 1
		e.bit(&p[m], b)
		m = m<<1 | b
	}
}

// lenCoder holds the probabilities of match lengths.
type lenCoder struct {
	choice, choice2 uint16
	low, mid        [1 << lzmaPB][8]uint16
	high            [256]uint16
}

func (l *lenCoder) init() {
	l.choice, l.choice2 = lzmaProbInit, lzmaProbInit
	for p := range l.low {
		for i := range l.low[p] {
			l.low[p][i], l.mid[p][i] = lzmaProbInit, lzmaProbInit
		}
	}
	for i := range l.high {
		l.high[i] = lzmaProbInit
	}
}

// encode codes a match length minus two.
func (l *lenCoder) encode(e *rangeEncoder, n uint32, posState int) {
	switch {
	case n < 8:
		e.bit(&l.choice, 0)
		e.tree(l.low[posState][:], 3, n)
	case n < 16:
		e.bit(&l.choice, 1)
		e.bit(&l.choice2, 0)
		e.tree(l.mid[posState][:], 3, n-8)
	default:
		e.bit(&l.choice, 1)
		e.bit(&l.choice2, 1)
		e.tree(l.high[:], 8, n-16)
	}
}

// lzmaEncoder is the coder's state and probability model.
type lzmaEncoder struct {
	rc         rangeEncoder
	state      uint32
	rep0       uint32
	isMatch    [12 << lzmaPB]uint16
	isRep      [12]uint16
	isRepG0    [12]uint16
	isRep0Long [12 << lzmaPB]uint16
	lit        []uint16
	length     lenCoder
	repLength  lenCoder
	posSlot    [4][64]uint16
	posSpecial [128]uint16
	align      [16]uint16
}

func fill(p []uint16) {
	for i := range p {
		p[i] = lzmaProbInit
	}
}

// literal codes the byte at pos: after a match, in the context of the byte
// at the match distance.
func (z *lzmaEncoder) literal(data []byte, pos int) {
	posState := pos & (1<<lzmaPB - 1)
	z.rc.bit(&z.isMatch[z.state<<lzmaPB|uint32(posState)], 0)
	prev := byte(0)
	if pos > 0 {
		prev = data[pos-1]
	}
	probs := z.lit[lzmaLitProbs*int(prev>>(8-lzmaLC)):][:lzmaLitProbs]
	b := uint32(data[pos])
	sym := uint32(1)
	if z.state >= 7 {
		mb := uint32(data[pos-int(z.rep0)-1])
		offs := uint32(0x100)
		for i := 7; i >= 0; i-- {
			bit := b >> uint(i) & 1
			mb <<= 1
			z.rc.bit(&probs[offs+mb&offs+sym], bit)
			sym = sym<<1 | bit
			offs &^= mb ^ bit<<8
		}
	} else {
		for i := 7; i >= 0; i-- {
			bit := b >> uint(i) & 1
			z.rc.bit(&probs[sym], bit)
			sym = sym<<1 | bit
		}
	}
	switch {
	case z.state < 4:
		z.state = 0
	case z.state < 10:
		z.state -= 3
	default:
		z.state -= 6
	}
}

// match codes a new match of length n at distance dist (≥ 1).
func (z *lzmaEncoder) match(pos, n int, dist uint32) {
	posState := pos & (1<<lzmaPB - 1)
	z.rc.bit(&z.isMatch[z.state<<lzmaPB|uint32(posState)], 1)
	z.rc.bit(&z.isRep[z.state], 0)
	l := uint32(n - 2)
	z.length.encode(&z.rc, l, posState)
	d := dist - 1
	var slot uint32
	if d < 4 {
		slot = d
	} else {
		top := uint32(bits.Len32(d) - 1)
		slot = top<<1 | d>>(top-1)&1
	}
	z.rc.tree(z.posSlot[min(l, 3)][:], 6, slot)
	if slot >= 4 {
		footer := int(slot>>1 - 1)
		base := (2 | slot&1) << uint(footer)
		reduced := d - base
		if slot < 14 {
			z.rc.reverseTree(z.posSpecial[base-slot:], footer, reduced)
		} else {
			z.rc.direct(reduced>>4, footer-4)
			z.rc.reverseTree(z.align[:], 4, reduced&15)
		}
	}
	z.rep0 = d
	if z.state < 7 {
		z.state = 7
	} else {
		z.state = 10
	}
}

// repMatch codes a match of length n at the last match's distance.
func (z *lzmaEncoder) repMatch(pos, n int) {
	posState := pos & (1<<lzmaPB - 1)
	z.rc.bit(&z.isMatch[z.state<<lzmaPB|uint32(posState)], 1)
	z.rc.bit(&z.isRep[z.state], 1)
	z.rc.bit(&z.isRepG0[z.state], 0)
	z.rc.bit(&z.isRep0Long[z.state<<lzmaPB|uint32(posState)], 1)
	z.repLength.encode(&z.rc, uint32(n-2), posState)
	if z.state < 7 {
		z.state = 8
	} else {
		z.state = 11
	}
}

// compressLZMA encodes data as Unity stores an LZMA block: the five
// property bytes, then the range-coded stream, no size and no end marker
// (the block table holds the size). Matches are found greedily through
// hash chains of three-byte prefixes, one position ahead (lazily); the rest
// is coded as literals.
func compressLZMA(data []byte) ([]byte, error) {
	dict := uint32(lzmaMinDict)
	for dict < uint32(len(data)) && dict < 1<<26 {
		dict <<= 1
	}
	props := make([]byte, 5, 5+len(data)/2)
	props[0] = byte((lzmaPB*5+0)*9 + lzmaLC)
	binary.LittleEndian.PutUint32(props[1:], dict)
	z := &lzmaEncoder{rc: rangeEncoder{rng: 0xFFFFFFFF, cacheSize: 1, out: props}, lit: make([]uint16, lzmaLitProbs<<lzmaLC)}
	fill(z.isMatch[:])
	fill(z.isRep[:])
	fill(z.isRepG0[:])
	fill(z.isRep0Long[:])
	fill(z.lit)
	z.length.init()
	z.repLength.init()
	for i := range z.posSlot {
		fill(z.posSlot[i][:])
	}
	fill(z.posSpecial[:])
	fill(z.align[:])

	head := make([]int32, 1<<lzmaHashBits)
	for i := range head {
		head[i] = -1
	}
	prev := make([]int32, len(data))
	hash := func(p int) uint32 {
		return (uint32(data[p]) | uint32(data[p+1])<<8 | uint32(data[p+2])<<16) * 2654435761 >> (32 - lzmaHashBits)
	}
	insert := func(p int) {
		if p+lzmaMinMatch <= len(data) {
			h := hash(p)
			prev[p] = head[h]
			head[h] = int32(p)
		}
	}
	longest := func(pos int) (int, int) {
		bestLen, bestDist := 0, 0
		if pos+lzmaMinMatch > len(data) {
			return 0, 0
		}
		limit := min(lzmaMaxMatch, len(data)-pos)
		cand := head[hash(pos)]
		for depth := 0; cand >= 0 && depth < lzmaDepth; depth++ {
			c := int(cand)
			if pos-c > int(dict) {
				break
			}
			n := 0
			for n < limit && data[c+n] == data[pos+n] {
				n++
			}
			if n > bestLen {
				bestLen, bestDist = n, pos-c
				if n == limit {
					break
				}
			}
			cand = prev[c]
		}
		if bestLen < lzmaMinMatch || (bestLen == lzmaMinMatch && bestDist > 1<<14) {
			return 0, 0
		}
		return bestLen, bestDist
	}
	// Lazy matching: a match is taken unless the next position starts a
	// longer one, in which case this byte goes as a literal.
	// repeat is the length of the match at the last match's distance.
	repeat := func(pos int) int {
		r := int(z.rep0) + 1
		if pos < r || pos == 0 {
			return 0
		}
		limit := min(lzmaMaxMatch, len(data)-pos)
		k := 0
		for k < limit && data[pos-r+k] == data[pos+k] {
			k++
		}
		return k
	}
	n, dist := longest(0)
	for pos := 0; pos < len(data); {
		// A repeat of the last distance costs little: taken when it is
		// about as long as the best new match.
		if rl := repeat(pos); rl >= 2 && rl+1 >= n {
			z.repMatch(pos, rl)
			for i := 0; i < rl; i++ {
				insert(pos + i)
			}
			pos += rl
			n, dist = longest(pos)
			continue
		}
		if n == 0 {
			z.literal(data, pos)
			insert(pos)
			pos++
			n, dist = longest(pos)
			continue
		}
		insert(pos)
		if n < lzmaMaxMatch {
			if n2, d2 := longest(pos + 1); n2 > n+1 {
				z.literal(data, pos)
				pos++
				n, dist = n2, d2
				continue
			}
		}
		z.match(pos, n, uint32(dist))
		for i := 1; i < n; i++ {
			insert(pos + i)
		}
		pos += n
		n, dist = longest(pos)
	}
	for i := 0; i < 5; i++ {
		z.rc.shiftLow()
	}
	return z.rc.out, nil
}
