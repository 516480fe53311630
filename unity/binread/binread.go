// Package binread is a small bounds-checked reader over a byte slice, used by
// every Unity binary decoder. It never panics on short input: each read that
// would run past the end records an error (with the offset) and returns a zero
// value, so decoders can read a run of fields and check Err once.
package binread

import (
	"encoding/binary"
	"fmt"
	"math"
)

// ErrShort is returned (wrapped in *Error) when a read needs more bytes than remain.
var ErrShort = fmt.Errorf("unexpected end of data")

// Error says where a read failed and what it wanted.
type Error struct {
	Offset int64  // absolute offset of the failed read (Base + position)
	What   string // what was being read
	Err    error
}

// Error describes the failure and where it happened.
func (e *Error) Error() string {
	return fmt.Sprintf("at offset %d: %s: %v", e.Offset, e.What, e.Err)
}

// Unwrap returns the underlying cause.
func (e *Error) Unwrap() error { return e.Err }

// Reader reads little- or big-endian values from a byte slice.
type Reader struct {
	buf   []byte
	pos   int
	Order binary.ByteOrder
	// Base is added to positions in error messages, so that a reader over a
	// slice of a larger file reports file offsets.
	Base int64
	err  error
}

// New returns a Reader over b in the given byte order.
func New(b []byte, order binary.ByteOrder) *Reader {
	return &Reader{buf: b, Order: order}
}

// Err returns the first error met, or nil.
func (r *Reader) Err() error { return r.err }

// Fail records err (if no error is recorded yet) at the current offset.
func (r *Reader) Fail(what string, err error) {
	if r.err == nil {
		r.err = &Error{Offset: r.Base + int64(r.pos), What: what, Err: err}
	}
}

// Pos returns the current position within the slice.
func (r *Reader) Pos() int { return r.pos }

// Len returns the number of unread bytes.
func (r *Reader) Len() int { return len(r.buf) - r.pos }

// Bytes returns the whole underlying slice.
func (r *Reader) Bytes() []byte { return r.buf }

// Seek moves to an absolute position within the slice.
func (r *Reader) Seek(pos int) {
	if pos < 0 || pos > len(r.buf) {
		r.Fail(fmt.Sprintf("seek to %d", pos), ErrShort)
		r.pos = len(r.buf)
		return
	}
	r.pos = pos
}

// Align advances to the next multiple of n (relative to the slice start).
func (r *Reader) Align(n int) {
	if rem := r.pos % n; rem != 0 {
		r.Skip(n-rem, "alignment padding")
	}
}

func (r *Reader) take(n int, what string) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || n > len(r.buf)-r.pos {
		r.Fail(what, fmt.Errorf("%w: need %d bytes, %d remain", ErrShort, n, len(r.buf)-r.pos))
		r.pos = len(r.buf)
		return nil
	}
	b := r.buf[r.pos : r.pos+n]
	r.pos += n
	return b
}

// Skip advances n bytes.
func (r *Reader) Skip(n int, what string) { r.take(n, what) }

// Take returns the next n bytes (a sub-slice, not a copy), or nil on error.
func (r *Reader) Take(n int, what string) []byte { return r.take(n, what) }

// U8 reads a byte.
func (r *Reader) U8(what string) uint8 {
	b := r.take(1, what)
	if b == nil {
		return 0
	}
	return b[0]
}

// Bool reads a byte as a boolean.
func (r *Reader) Bool(what string) bool { return r.U8(what) != 0 }

// U16 reads an unsigned 16-bit integer.
func (r *Reader) U16(what string) uint16 {
	b := r.take(2, what)
	if b == nil {
		return 0
	}
	return r.Order.Uint16(b)
}

// U32 reads an unsigned 32-bit integer.
func (r *Reader) U32(what string) uint32 {
	b := r.take(4, what)
	if b == nil {
		return 0
	}
	return r.Order.Uint32(b)
}

// U64 reads an unsigned 64-bit integer.
func (r *Reader) U64(what string) uint64 {
	b := r.take(8, what)
	if b == nil {
		return 0
	}
	return r.Order.Uint64(b)
}

// I16 reads a signed 16-bit integer.
func (r *Reader) I16(what string) int16 { return int16(r.U16(what)) }

// I32 reads a signed 32-bit integer.
func (r *Reader) I32(what string) int32 { return int32(r.U32(what)) }

// I64 reads a signed 64-bit integer.
func (r *Reader) I64(what string) int64 { return int64(r.U64(what)) }

// F32 reads an IEEE 754 single.
func (r *Reader) F32(what string) float32 { return math.Float32frombits(r.U32(what)) }

// F64 reads an IEEE 754 double.
func (r *Reader) F64(what string) float64 { return math.Float64frombits(r.U64(what)) }

// CString reads a NUL-terminated string of at most max bytes (excluding the NUL).
func (r *Reader) CString(max int, what string) string {
	if r.err != nil {
		return ""
	}
	rest := r.buf[r.pos:]
	lim := len(rest)
	if lim > max+1 {
		lim = max + 1
	}
	for i := 0; i < lim; i++ {
		if rest[i] == 0 {
			s := string(rest[:i])
			r.pos += i + 1
			return s
		}
	}
	r.Fail(what, fmt.Errorf("no string terminator within %d bytes", lim))
	r.pos = len(r.buf)
	return ""
}

// Count reads a 32-bit element count and checks that count*minSize bytes
// could still remain, so that a corrupt count can never cause a huge
// allocation. minSize is the smallest encoded size of one element (at least 1
// is assumed for 0).
func (r *Reader) Count(minSize int, what string) int {
	n := r.I32(what)
	if r.err != nil {
		return 0
	}
	if n < 0 {
		r.Fail(what, fmt.Errorf("negative count %d", n))
		return 0
	}
	if minSize < 1 {
		minSize = 1
	}
	if int64(n)*int64(minSize) > int64(r.Len()) {
		r.Fail(what, fmt.Errorf("count %d (at least %d bytes each) exceeds the %d bytes remaining", n, minSize, r.Len()))
		return 0
	}
	return int(n)
}
