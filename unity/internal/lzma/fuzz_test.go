package lzma_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"

	"github.com/mecanim/mecanim/internal/fuzzcount"
	"github.com/mecanim/mecanim/unity/internal/lzma"
)

// fuzzMaxSize bounds the output size a fuzz input may ask for, so every
// input runs in bounded memory and time.
const fuzzMaxSize = 1 << 20

// fuzzSeedInput bounds the input bytes a corpus seed contributes: whole
// blocks (megabytes) would make the fuzzer's mutations crawl.
const fuzzSeedInput = 4 << 10

// FuzzLZMA is differential: whatever the input, the decoder must not panic,
// and when it succeeds, ulikunitz/xz must succeed with the same bytes. When
// it refuses a stream ulikunitz accepts, it may do so only at the end of the
// stream (it checks the range coder's final state, which ulikunitz does not),
// after producing the same bytes. The input is decoded a second time in two
// pieces split at cut, which must give the same result.
func FuzzLZMA(f *testing.F) {
	for _, s := range []struct {
		kind string
		n    int
	}{{"mix", 3000}, {"text", 500}, {"random", 64}, {"zeros", 10000}, {"mix", 1}} {
		data := sample(s.kind, s.n, uint64(s.n))
		f.Add(encode(f, data, 3, 0, 2, 1<<16, false), uint32(len(data)), uint32(len(data)/2))
		f.Add(encode(f, data, 0, 2, 0, 1<<12, true), uint32(len(data)), uint32(len(data)/3))
	}
	if blocks, ok := corpusBlocks(f); ok {
		for _, b := range blocks {
			// A block's first bytes decode to a prefix of its output:
			// seed with each prefix and the size it decodes to.
			src := b.src[:min(len(b.src), fuzzSeedInput)]
			var d lzma.Decoder
			if d.Reset(src, b.size) != nil {
				continue
			}
			n, _ := d.Decode(make([]byte, min(b.size, fuzzMaxSize)), min(b.size, fuzzMaxSize))
			f.Add(src, uint32(n), uint32(n/2))
		}
	}
	count := fuzzcount.Counter("FuzzLZMA")
	f.Fuzz(func(t *testing.T, src []byte, size, cut uint32) {
		count()
		n := int(size % fuzzMaxSize)
		got := make([]byte, n)
		var d lzma.Decoder
		err := d.Reset(src, n)
		if err == nil {
			_, err = d.Decode(got, n)
		}

		// The same stream in two pieces, the second into a new buffer.
		var d2 lzma.Decoder
		err2 := d2.Reset(src, n)
		c := 0
		if n > 0 {
			c = int(cut) % n
		}
		piece := make([]byte, c)
		if err2 == nil {
			_, err2 = d2.Decode(piece, c)
		}
		if err2 == nil {
			whole := make([]byte, n)
			copy(whole, piece)
			_, err2 = d2.Decode(whole, n)
			if err == nil && err2 == nil && !bytes.Equal(whole, got) {
				t.Fatalf("decoding in pieces split at %d gives other bytes", c)
			}
		}
		if (err == nil) != (err2 == nil) {
			t.Fatalf("one piece: %v; two pieces: %v", err, err2)
		}

		want, werr := oracle(clampDict(src, n), n)
		if werr == nil && errors.Is(err, lzma.ErrProperties) && len(src) > 0 && src[0] < 225 && int(src[0])%9+int(src[0])/9%5 > 4 {
			// lc + lp above 4: refused on purpose (see ParseProps), where
			// ulikunitz/xz decodes it.
			return
		}
		switch {
		case err == nil && werr != nil:
			t.Fatalf("decoded %d bytes that ulikunitz/xz refuses: %v", n, werr)
		case err == nil && !bytes.Equal(got, want):
			t.Fatalf("output differs from ulikunitz/xz at byte %d", firstDiff(got, want))
		case err != nil && werr == nil:
			if d.Pos() != n {
				t.Fatalf("refused after %d of %d bytes what ulikunitz/xz decodes: %v", d.Pos(), n, err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("refused at the end (%v), and the output differs from ulikunitz/xz at byte %d", err, firstDiff(got, want))
			}
		}
	})
}

// clampDict lowers a declared dictionary larger than the output to the
// output size (at least the 4 KiB minimum): no match can reach further back
// than the output's start either way, and ulikunitz/xz allocates the
// declared dictionary, which an input must not make huge.
func clampDict(src []byte, n int) []byte {
	if len(src) < lzma.PropsLen {
		return src
	}
	limit := uint32(max(n, lzma.MinDictSize))
	if binary.LittleEndian.Uint32(src[1:]) <= limit {
		return src
	}
	c := append([]byte(nil), src...)
	binary.LittleEndian.PutUint32(c[1:], limit)
	return c
}
