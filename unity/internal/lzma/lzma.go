// Package lzma decodes raw LZMA streams of known uncompressed size, the form
// Unity stores bundle blocks in: five bytes of properties, then range-coded
// data, with the size kept elsewhere (the bundle's block table).
//
// The decoder writes straight into the caller's output slice and uses that
// slice as its dictionary, so decoding needs no window of the declared
// dictionary size and allocates nothing per symbol; a Decoder's probability
// tables are reused across streams. Decoding can stop after any prefix of the
// output and resume later, so a reader that needs the first bytes of a large
// block need not produce the rest.
//
// Corrupt input never panics: it yields an error wrapping ErrCorrupt,
// ErrTruncated or ErrProperties that says where the problem was found.
package lzma

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Sentinel errors, wrapped by every error the package returns.
var (
	// ErrCorrupt reports compressed data that no encoder could have made.
	ErrCorrupt = errors.New("lzma: corrupt data")
	// ErrTruncated reports compressed data that ends before the output is complete.
	ErrTruncated = errors.New("lzma: truncated input")
	// ErrProperties reports a properties header outside the ranges LZMA defines.
	ErrProperties = errors.New("lzma: properties out of range")
)

// DataError is a failure inside the compressed data: what went wrong, at
// which offset of the input (counted from the start of the range-coded data,
// after the properties) and after how many output bytes.
type DataError struct {
	Err    error  // ErrCorrupt or ErrTruncated
	Offset int64  // input offset where the problem was detected
	Output int64  // output bytes produced before it
	What   string // detail
}

// Error describes the failure and where it happened.
func (e *DataError) Error() string {
	return fmt.Sprintf("%v at offset %d (after %d output bytes): %s", e.Err, e.Offset, e.Output, e.What)
}

// Unwrap returns ErrCorrupt or ErrTruncated.
func (e *DataError) Unwrap() error { return e.Err }

// PropsLen is the size of the properties header that starts a stream.
const PropsLen = 5

// MinDictSize is the smallest dictionary size LZMA uses: smaller declared
// sizes mean this one.
const MinDictSize = 4096

// Props are the coding parameters of a stream.
type Props struct {
	LC       int    // literal context bits (0 to 4 here: lc + lp ≤ 4)
	LP       int    // literal position bits (0 to 4, with LC)
	PB       int    // position bits (0 to 4)
	DictSize uint32 // the farthest back a match may reach
}

// ParseProps reads the five-byte properties header: one byte coding lc, lp
// and pb, then the little-endian dictionary size. Like liblzma it refuses
// lc+lp above 4, which no encoder writes and which would need 24 times larger
// literal tables.
func ParseProps(b []byte) (Props, error) {
	if len(b) < PropsLen {
		return Props{}, fmt.Errorf("%w: %d bytes is too short for the %d-byte properties", ErrTruncated, len(b), PropsLen)
	}
	d := int(b[0])
	if d >= 9*5*5 {
		return Props{}, fmt.Errorf("%w: properties byte %d (want below 225)", ErrProperties, d)
	}
	p := Props{LC: d % 9, LP: d / 9 % 5, PB: d / 45, DictSize: binary.LittleEndian.Uint32(b[1:])}
	if p.LC+p.LP > maxLCLP {
		return Props{}, fmt.Errorf("%w: lc=%d + lp=%d exceeds %d", ErrProperties, p.LC, p.LP, maxLCLP)
	}
	if p.DictSize < MinDictSize {
		p.DictSize = MinDictSize
	}
	return p, nil
}

// Decompress decodes the stream src (properties header included) into dst,
// which must be exactly the uncompressed size. It allocates only the decoder
// state; Decoder.Reset reuses one across streams.
func Decompress(dst, src []byte) error {
	var d Decoder
	if err := d.Reset(src, len(dst)); err != nil {
		return err
	}
	_, err := d.Decode(dst, len(dst))
	return err
}

// The format's constants (names follow the LZMA specification).
const (
	maxLCLP       = 4
	numStates     = 12
	stateRows     = 16
	posBitsMax    = 4
	probBits      = 11
	probInit      = 1 << (probBits - 1)
	moveBits      = 5
	topValue      = 1 << 24
	matchMinLen   = 2
	lenLowBits    = 3
	lenMidBits    = 3
	lenHighBits   = 8
	lenLowSyms    = 1 << lenLowBits
	lenMidSyms    = 1 << lenMidBits
	posSlotBits   = 6
	lenToPosState = 4
	startPosModel = 4
	endPosModel   = 14
	fullDistances = 1 << (endPosModel >> 1)
	alignBits     = 4
	literalProbs  = 0x300
	litStatesMax  = 1 << maxLCLP
)

type prob = uint16

// lenProbs are the probabilities of one length coder.
type lenProbs struct {
	choice  prob
	choice2 prob
	low     [1 << posBitsMax][lenLowSyms]prob
	mid     [1 << posBitsMax][lenMidSyms]prob
	high    [1 << lenHighBits]prob
}

func (l *lenProbs) reset() {
	l.choice, l.choice2 = probInit, probInit
	for i := range l.low {
		fill(l.low[i][:])
		fill(l.mid[i][:])
	}
	fill(l.high[:])
}

func fill(p []prob) {
	for i := range p {
		p[i] = probInit
	}
}

// Decoder decodes raw LZMA streams. The zero value is ready for Reset; one
// Decoder may be reused for any number of streams, one at a time.
type Decoder struct {
	// range decoder
	in   []byte
	ip   int
	rng  uint32
	code uint32

	// stream parameters
	props  Props
	size   int // uncompressed size
	pos    int // output bytes produced
	lc     uint
	lpMask int
	pbMask int

	// coder state
	state   uint32
	rep     [4]uint32
	pending int   // bytes of the current match still to copy
	err     error // sticky
	done    bool

	// Tables indexed by state have 16 rows rather than numStates, so an
	// index masked with 15 needs no bounds check.
	isMatch    [stateRows << posBitsMax]prob
	isRep      [stateRows]prob
	isRepG0    [stateRows]prob
	isRepG1    [stateRows]prob
	isRepG2    [stateRows]prob
	isRep0Long [stateRows << posBitsMax]prob
	posSlot    [lenToPosState][1 << posSlotBits]prob
	posSpecial [1 + fullDistances - endPosModel]prob
	align      [1 << alignBits]prob
	lenDec     lenProbs
	repLenDec  lenProbs
	literal    [litStatesMax][literalProbs]prob
}

// Reset prepares d to decode src (properties header included) into size
// bytes of output. It reads the properties and the range coder's first five
// bytes.
func (d *Decoder) Reset(src []byte, size int) error {
	p, err := ParseProps(src)
	if err != nil {
		d.err = err
		return err
	}
	if size < 0 {
		d.err = fmt.Errorf("lzma: negative output size %d", size)
		return d.err
	}
	d.props = p
	d.in, d.size, d.pos = src[PropsLen:], size, 0
	d.lc = uint(p.LC)
	d.lpMask = 1<<p.LP - 1
	d.pbMask = 1<<p.PB - 1
	d.state, d.rep, d.pending, d.err, d.done = 0, [4]uint32{}, 0, nil, false
	fill(d.isMatch[:])
	fill(d.isRep[:])
	fill(d.isRepG0[:])
	fill(d.isRepG1[:])
	fill(d.isRepG2[:])
	fill(d.isRep0Long[:])
	for i := range d.posSlot {
		fill(d.posSlot[i][:])
	}
	fill(d.posSpecial[:])
	fill(d.align[:])
	d.lenDec.reset()
	d.repLenDec.reset()
	for i := range 1 << (p.LC + p.LP) {
		fill(d.literal[i][:])
	}
	// The range coder starts with a zero byte and the 32-bit code.
	if len(d.in) < 5 {
		return d.fail(ErrTruncated, 0, fmt.Sprintf("%d bytes cannot start a range coder (need 5)", len(d.in)))
	}
	if d.in[0] != 0 {
		return d.fail(ErrCorrupt, 0, fmt.Sprintf("range coder starts with byte %#x, want 0", d.in[0]))
	}
	d.rng = 0xFFFFFFFF
	d.code = binary.BigEndian.Uint32(d.in[1:])
	d.ip = 5
	if d.code == d.rng {
		return d.fail(ErrCorrupt, 1, "range coder's initial code equals its range")
	}
	return nil
}

// Props returns the properties of the stream being decoded.
func (d *Decoder) Props() Props { return d.props }

// Pos returns how many output bytes have been produced.
func (d *Decoder) Pos() int { return d.pos }

// Size returns the uncompressed size given to Reset.
func (d *Decoder) Size() int { return d.size }

// InputPos returns how many bytes of src (properties header included) the
// decoder has consumed.
func (d *Decoder) InputPos() int { return PropsLen + d.ip }

func (d *Decoder) fail(kind error, off int, what string) error {
	d.err = &DataError{Err: kind, Offset: int64(off), Output: int64(d.pos), What: what}
	return d.err
}

// Decode continues the stream into out, the whole output buffer: its first
// Pos() bytes must hold the output so far (it is the dictionary), and len(out)
// bounds how far decoding may go (at most Size()). Decode stops once at least
// want bytes exist (or at len(out)), and returns the new position. After the
// last byte of the stream it checks that the range coder ends cleanly. An
// error is sticky: later calls return it again.
func (d *Decoder) Decode(out []byte, want int) (int, error) {
	if d.err != nil {
		return d.pos, d.err
	}
	if len(out) > d.size {
		out = out[:d.size]
	}
	if len(out) < d.pos {
		return d.pos, fmt.Errorf("lzma: output buffer of %d bytes is shorter than the %d bytes already decoded", len(out), d.pos)
	}
	want = min(want, len(out))
	if d.pos < want {
		if err := d.run(out, want); err != nil {
			return d.pos, err
		}
	}
	if d.pos == d.size && !d.done {
		if err := d.finish(); err != nil {
			return d.pos, err
		}
	}
	return d.pos, nil
}

// finish checks the end of the stream. An encoder that knows the size ends
// with the range coder's flush, after which the code is zero; one that does
// not writes an end marker. Either is accepted.
func (d *Decoder) finish() error {
	if d.pending > 0 {
		return d.fail(ErrCorrupt, d.ip, "a match runs past the declared size")
	}
	if d.rng < topValue {
		d.rng <<= 8
		d.code = d.code<<8 | uint32(d.byteAt(d.ip))
		d.ip++
	}
	if d.ip > len(d.in) {
		return d.fail(ErrTruncated, len(d.in), "input ends inside the last symbol")
	}
	if d.code != 0 {
		if !d.endMarker() {
			if d.err != nil {
				return d.err
			}
			return d.fail(ErrCorrupt, d.ip, "data continues after the declared size")
		}
	}
	d.done = true
	return nil
}

func (d *Decoder) byteAt(i int) byte {
	if uint(i) < uint(len(d.in)) {
		return d.in[i]
	}
	return 0
}
