package unitywrite

import "encoding/binary"

// LZMA coding parameters of the streams written: lc=3, lp=0, pb=2 (the
// properties byte 0x5D every Unity LZMA bundle of the corpus has).
const (
	lzmaLC         = 3
	lzmaPB         = 2
	lzmaProbInit   = 1024
	lzmaTopValue   = 1 << 24
	lzmaMinDict    = 1 << 16
	lzmaLiteralLen = 0x300
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

// compressLZMA encodes data as Unity stores an LZMA block: the five
// property bytes, then the range-coded stream, no size and no end marker
// (the block table holds the size). Every byte is coded as a literal in the
// context of the previous one: a valid stream any LZMA decoder reads, smaller
// than the data when its bytes are skewed, but without LZ77 matches.
func compressLZMA(data []byte) ([]byte, error) {
	dict := uint32(lzmaMinDict)
	for dict < uint32(len(data)) && dict < 1<<26 {
		dict <<= 1
	}
	props := make([]byte, 5)
	props[0] = byte((lzmaPB*5+0)*9 + lzmaLC)
	binary.LittleEndian.PutUint32(props[1:], dict)
	e := &rangeEncoder{rng: 0xFFFFFFFF, cacheSize: 1, out: props}
	var isMatch [1 << lzmaPB]uint16 // state stays 0: only literals
	for i := range isMatch {
		isMatch[i] = lzmaProbInit
	}
	lit := make([]uint16, lzmaLiteralLen<<lzmaLC)
	for i := range lit {
		lit[i] = lzmaProbInit
	}
	prev := byte(0)
	for pos, b := range data {
		e.bit(&isMatch[pos&(1<<lzmaPB-1)], 0)
		probs := lit[lzmaLiteralLen*int(prev>>(8-lzmaLC)):]
		sym := uint32(1)
		for i := 7; i >= 0; i-- {
			bit := uint32(b>>uint(i)) & 1
			e.bit(&probs[sym], bit)
			sym = sym<<1 | bit
		}
		prev = b
	}
	for i := 0; i < 5; i++ {
		e.shiftLow()
	}
	return e.out, nil
}
