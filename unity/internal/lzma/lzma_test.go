package lzma_test

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/mecanim/mecanim/unity/internal/lzma"
)

func TestCorpusBlocksMatchOracle(t *testing.T) {
	if raceEnabled {
		// One goroutine decoding: the race detector can find nothing
		// here, and makes the reference decoder take minutes.
		t.Skip("decoding is single-threaded; proven by the run without -race")
	}
	var d lzma.Decoder
	for _, b := range lzmaBlocks(t) {
		want, err := oracle(b.src, b.size)
		if err != nil {
			t.Fatalf("%s: oracle: %v", b.name, err)
		}
		got := make([]byte, b.size)
		if err := d.Reset(b.src, b.size); err != nil {
			t.Fatalf("%s: %v", b.name, err)
		}
		if _, err := d.Decode(got, b.size); err != nil {
			t.Fatalf("%s: %v", b.name, err)
		}
		if i := firstDiff(got, want); i >= 0 {
			t.Fatalf("%s: output differs from ulikunitz/xz at byte %d of %d", b.name, i, b.size)
		}
		if d.InputPos() != len(b.src) {
			t.Errorf("%s: consumed %d of %d input bytes", b.name, d.InputPos(), len(b.src))
		}
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	return -1
}

func TestRoundTripEveryCoderPath(t *testing.T) {
	for _, kind := range []string{"mix", "text", "random", "zeros"} {
		for _, size := range []int{0, 1, 2, 17, 300, 70000} {
			for _, p := range []struct{ lc, lp, pb int }{{3, 0, 2}, {0, 0, 0}, {4, 0, 4}, {0, 4, 0}, {1, 3, 1}} {
				for _, marker := range []bool{false, true} {
					name := fmt.Sprintf("%s/%d/lc%d-lp%d-pb%d/marker=%v", kind, size, p.lc, p.lp, p.pb, marker)
					data := sample(kind, size, uint64(size))
					src := encode(t, data, p.lc, p.lp, p.pb, 1<<16, marker)
					got := make([]byte, size)
					if err := lzma.Decompress(got, src); err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					if !bytes.Equal(got, data) {
						t.Fatalf("%s: output differs at byte %d", name, firstDiff(got, data))
					}
				}
			}
		}
	}
}

// TestPrefixDecoding proves that decoding in pieces into a growing buffer
// (as a reader that needs only the start of a block does) gives the same
// bytes as decoding at once, whatever the piece boundaries cut (matches
// included).
func TestPrefixDecoding(t *testing.T) {
	data := sample("mix", 200000, 7)
	src := encode(t, data, 3, 0, 2, 1<<20, false)
	for _, c := range []struct {
		step   int
		regrow bool
	}{{1, false}, {7, false}, {1000, true}, {65536, true}} {
		step := c.step
		var d lzma.Decoder
		if err := d.Reset(src, len(data)); err != nil {
			t.Fatal(err)
		}
		full := make([]byte, len(data))
		buf := full[:0]
		for d.Pos() < len(data) {
			n := min(len(data), d.Pos()+step)
			if c.regrow {
				// A new buffer, as a reader regrowing its output would make.
				grown := make([]byte, n)
				copy(grown, buf[:d.Pos()])
				buf = grown
			} else {
				buf = full[:n]
			}
			if _, err := d.Decode(buf, n); err != nil {
				t.Fatalf("step %d: at %d: %v", step, d.Pos(), err)
			}
			if d.Pos() != n {
				t.Fatalf("step %d: decoded to %d, want %d", step, d.Pos(), n)
			}
		}
		if !bytes.Equal(buf, data) {
			t.Fatalf("step %d: output differs at byte %d", step, firstDiff(buf, data))
		}
	}
}

func TestErrors(t *testing.T) {
	data := sample("mix", 5000, 3)
	src := encode(t, data, 3, 0, 2, 1<<16, false)
	mut := func(f func(b []byte) []byte) []byte { return f(append([]byte(nil), src...)) }
	for _, c := range []struct {
		name string
		src  []byte
		size int
		want error
	}{
		{"properties byte 225", mut(func(b []byte) []byte { b[0] = 225; return b }), len(data), lzma.ErrProperties},
		{"lc+lp above 4", mut(func(b []byte) []byte { b[0] = 4 + 9*1; return b }), len(data), lzma.ErrProperties},
		{"no properties", src[:3], len(data), lzma.ErrTruncated},
		{"no range coder", src[:7], len(data), lzma.ErrTruncated},
		{"range coder's first byte not zero", mut(func(b []byte) []byte { b[5] = 1; return b }), len(data), lzma.ErrCorrupt},
		{"truncated half way", src[:len(src)/2], len(data), lzma.ErrTruncated},
		{"truncated by one byte", src[:len(src)-1], len(data), lzma.ErrTruncated},
		{"size declared larger", src, len(data) + 10, lzma.ErrTruncated},
		{"size declared smaller", src, len(data) - 10, lzma.ErrCorrupt},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := make([]byte, c.size)
			err := lzma.Decompress(out, c.src)
			if !errors.Is(err, c.want) {
				t.Fatalf("got %v, want %v", err, c.want)
			}
		})
	}
}

func TestCorruptDataNamesOffset(t *testing.T) {
	data := sample("text", 50000, 5)
	src := encode(t, data, 3, 0, 2, 1<<16, false)
	bad := append([]byte(nil), src...)
	for i := 40; i < len(bad); i += 97 {
		bad[i] ^= 0x5a
	}
	err := lzma.Decompress(make([]byte, len(data)), bad)
	var de *lzma.DataError
	if !errors.As(err, &de) {
		t.Fatalf("got %v, want a *DataError", err)
	}
	if de.Offset <= 0 || de.Offset > int64(len(bad)) {
		t.Fatalf("offset %d outside the input", de.Offset)
	}
}
