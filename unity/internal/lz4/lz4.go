// Package lz4 decodes LZ4 blocks (the raw block format, without the frame
// around it) of known uncompressed size, the form Unity stores bundle chunks
// in. Like unity/internal/lzma it decodes into the caller's output slice and
// can stop after any prefix of the output and resume later, so a reader that
// needs the first bytes of a large block need not produce the rest.
//
// Corrupt input never panics: it yields an error wrapping ErrCorrupt or
// ErrTruncated that says where the problem was found.
package lz4

import (
	"errors"
	"fmt"
)

// Sentinel errors, wrapped by every error the package returns.
var (
	// ErrCorrupt reports data no encoder could have made.
	ErrCorrupt = errors.New("lz4: corrupt data")
	// ErrTruncated reports data that ends before the output is complete.
	ErrTruncated = errors.New("lz4: truncated input")
)

// DataError is a failure inside the compressed data: what went wrong, at
// which input offset and after how many output bytes.
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

// MaxRatio is the most an LZ4 block can expand: a match's length costs at
// least one input byte per 255 output bytes.
const MaxRatio = 255

// Decompress decodes the block src into dst, which must be exactly the
// uncompressed size.
func Decompress(dst, src []byte) error {
	var d Decoder
	d.Reset(src, len(dst))
	_, err := d.Decode(dst, len(dst))
	return err
}

// Decoder decodes one LZ4 block at a time, resumably. The zero value is
// ready for Reset.
type Decoder struct {
	src  []byte
	sp   int // input position
	size int // uncompressed size
	pos  int // output bytes produced

	// The sequence in progress: literals still to copy, then (unless the
	// block ends) a match whose length and offset follow them.
	lit      int
	inSeq    bool // a token was read and its match is not yet parsed
	matchTok int  // the token's match-length nibble
	match    int  // match bytes still to copy
	off      int  // match offset
	err      error
}

// Reset prepares d to decode src into size bytes of output.
func (d *Decoder) Reset(src []byte, size int) {
	*d = Decoder{src: src, size: size}
	if size < 0 {
		d.err = fmt.Errorf("lz4: negative output size %d", size)
	}
}

// Pos returns how many output bytes have been produced.
func (d *Decoder) Pos() int { return d.pos }

// Size returns the uncompressed size given to Reset.
func (d *Decoder) Size() int { return d.size }

func (d *Decoder) fail(kind error, what string) error {
	d.err = &DataError{Err: kind, Offset: int64(d.sp), Output: int64(d.pos), What: what}
	return d.err
}

// Decode continues the block into out, the whole output buffer: its first
// Pos() bytes must hold the output so far (matches copy from them), and
// len(out) bounds how far decoding may go (at most Size()). Decode stops once
// want bytes exist, and returns the new position. When the last
// byte is produced it checks that the input ends exactly there. An error is
// sticky: later calls return it again.
func (d *Decoder) Decode(out []byte, want int) (int, error) {
	if d.err != nil {
		return d.pos, d.err
	}
	if len(out) > d.size {
		out = out[:d.size]
	}
	if len(out) < d.pos {
		return d.pos, fmt.Errorf("lz4: output buffer of %d bytes is shorter than the %d bytes already decoded", len(out), d.pos)
	}
	want = min(want, len(out))
	if d.lit == 0 && d.match == 0 && !d.inSeq {
		d.fast(out, want)
	}
	for d.pos < want {
		switch {
		case d.lit > 0:
			// Copies stop at want: a long run (a bomb's gigabyte) is not
			// produced past what the caller asked for.
			n := min(d.lit, want-d.pos)
			if len(d.src)-d.sp < n {
				return d.pos, d.fail(ErrTruncated, fmt.Sprintf("%d literals declared, %d bytes left", d.lit, len(d.src)-d.sp))
			}
			copy(out[d.pos:d.pos+n], d.src[d.sp:d.sp+n])
			d.pos += n
			d.sp += n
			d.lit -= n
		case d.match > 0:
			n := min(d.match, want-d.pos)
			copyMatch(out, d.pos, d.off, n)
			d.pos += n
			d.match -= n
		case d.inSeq:
			if err := d.readMatch(); err != nil {
				return d.pos, err
			}
		default:
			if err := d.readToken(); err != nil {
				return d.pos, err
			}
		}
	}
	if d.pos == d.size {
		return d.pos, d.finish()
	}
	return d.pos, nil
}

// fastSlack is how far past want the fast path may decode (a whole
// sequence at a time), and the room it keeps for fixed 16-byte copies.
const (
	fastSlack = 64 << 10
	fastPad   = 16
)

// fast decodes whole sequences while they fit, with fixed-size copies for
// short runs and few checks, stopping at want (give or take a sequence
// ending within fastSlack). Anything else (a sequence that does not fit in
// the input or the output, an error, the block's end) it leaves to the
// general path, at the start of that sequence; bytes it wrote past the
// returned position are scratch.
func (d *Decoder) fast(out []byte, want int) {
	src, sp, pos := d.src, d.sp, d.pos
	end := min(len(out), want+fastSlack) - fastPad // output limit
	for pos < want {
		sp0, pos0 := sp, pos
		if len(src)-sp < 2*fastPad || end-pos < 2*fastPad {
			break
		}
		tok := src[sp]
		sp++
		ll, ml := int(tok>>4), int(tok&15)
		if ll == 15 {
			for {
				if sp >= len(src) || ll > end {
					ll = -1
					break
				}
				b := int(src[sp])
				sp++
				ll += b
				if b != 255 {
					break
				}
			}
		}
		if ll < 0 || len(src)-sp < ll+fastPad || end-pos < ll {
			sp, pos = sp0, pos0
			break
		}
		if ll <= 16 {
			*(*[16]byte)(out[pos : pos+16]) = *(*[16]byte)(src[sp : sp+16])
		} else {
			copy(out[pos:pos+ll], src[sp:sp+ll])
		}
		sp += ll
		pos += ll
		off := int(src[sp]) | int(src[sp+1])<<8
		sp += 2
		if ml == 15 {
			for {
				if sp >= len(src) || ml > end {
					ml = -1
					break
				}
				b := int(src[sp])
				sp++
				ml += b
				if b != 255 {
					break
				}
			}
		}
		if ml < 0 || off == 0 || off > pos || end-pos < ml+4 {
			sp, pos = sp0, pos0
			break
		}
		ml += 4
		if off >= 16 && ml <= 16 {
			*(*[16]byte)(out[pos : pos+16]) = *(*[16]byte)(out[pos-off : pos-off+16])
		} else {
			copyMatch(out, pos, off, ml)
		}
		pos += ml
	}
	d.sp, d.pos = sp, pos
}

// readToken reads a sequence's token and literal length.
func (d *Decoder) readToken() error {
	if d.sp >= len(d.src) {
		return d.fail(ErrTruncated, fmt.Sprintf("input ends at output byte %d of %d", d.pos, d.size))
	}
	tok := int(d.src[d.sp])
	d.sp++
	lit, err := d.length(tok >> 4)
	if err != nil {
		return err
	}
	d.lit, d.matchTok, d.inSeq = lit, tok&15, true
	if d.lit > d.size-d.pos {
		return d.fail(ErrCorrupt, fmt.Sprintf("%d literals at output byte %d run past the declared size %d", d.lit, d.pos, d.size))
	}
	return nil
}

// readMatch reads the offset and length of the match that follows a
// sequence's literals.
func (d *Decoder) readMatch() error {
	if len(d.src)-d.sp < 2 {
		return d.fail(ErrTruncated, "input ends inside a match offset")
	}
	d.off = int(d.src[d.sp]) | int(d.src[d.sp+1])<<8
	d.sp += 2
	if d.off == 0 || d.off > d.pos {
		return d.fail(ErrCorrupt, fmt.Sprintf("match offset %d at output byte %d", d.off, d.pos))
	}
	n, err := d.length(d.matchTok)
	if err != nil {
		return err
	}
	d.match, d.inSeq = n+4, false
	if d.match > d.size-d.pos {
		return d.fail(ErrCorrupt, fmt.Sprintf("a %d-byte match at output byte %d runs past the declared size %d", d.match, d.pos, d.size))
	}
	return nil
}

// length completes a 4-bit length: 15 means more bytes follow, each added,
// until one below 255.
func (d *Decoder) length(n int) (int, error) {
	if n != 15 {
		return n, nil
	}
	for {
		if d.sp >= len(d.src) {
			return 0, d.fail(ErrTruncated, "input ends inside a length")
		}
		b := int(d.src[d.sp])
		d.sp++
		n += b
		if n > d.size {
			return 0, d.fail(ErrCorrupt, fmt.Sprintf("length %d exceeds the declared size %d", n, d.size))
		}
		if b != 255 {
			return n, nil
		}
	}
}

// finish checks, once the output is complete, that the block ends there:
// after the literals of a last sequence that has no match.
func (d *Decoder) finish() error {
	if d.size == 0 {
		// An empty block is one token with no literals, as the
		// reference decoder requires.
		if len(d.src) == 1 && d.src[0] == 0 {
			d.sp = 1
			return nil
		}
		return d.fail(ErrCorrupt, fmt.Sprintf("an empty block is the single byte 0, not %d bytes", len(d.src)))
	}
	if d.lit == 0 && d.match == 0 {
		if !d.inSeq && d.sp < len(d.src) {
			// A last token with no literals (any literal would run past
			// the size, which readToken refuses).
			if err := d.readToken(); err != nil {
				return err
			}
		}
		if d.sp == len(d.src) && d.inSeq {
			if d.matchTok != 0 {
				// Encoders write the last token's match length as 0;
				// pierrec/lz4 refuses anything else, and so do we.
				return d.fail(ErrCorrupt, fmt.Sprintf("the last sequence's token declares a match (length nibble %d)", d.matchTok))
			}
			return nil
		}
	}
	return d.fail(ErrCorrupt, fmt.Sprintf("the block does not end with its last literals at the declared size (%d of %d input bytes used)", d.sp, len(d.src)))
}

// copyMatch appends n bytes copied from dist bytes back; the ranges overlap
// when dist < n, which repeats the last dist bytes.
func copyMatch(out []byte, pos, dist, n int) {
	src := pos - dist
	if dist >= n {
		copy(out[pos:pos+n], out[src:src+n])
		return
	}
	for n > 0 {
		// Each copy doubles the repeated run.
		c := copy(out[pos:pos+n], out[src:pos])
		pos += c
		n -= c
	}
}
