package lz4_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	pierrec "github.com/pierrec/lz4/v4"

	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/internal/fuzzcount"
	"github.com/mecanim/mecanim/unity/internal/lz4"
	"github.com/mecanim/mecanim/unity/unityfs"
	"github.com/mecanim/mecanim/unity/webdata"
)

// block is one LZ4 block of a corpus bundle (a data block or a block info).
type block struct {
	name string
	src  []byte
	size int
}

// corpusBlocks returns every LZ4 block of every UnityFS bundle in the
// corpus, block infos and bundles inside WebData containers included; ok is
// false when the corpus is absent.
func corpusBlocks(tb testing.TB) ([]block, bool) {
	dir, ok := corpustest.Lookup()
	if !ok {
		return nil, false
	}
	var out []block
	add := func(name string, data []byte) {
		a, err := unityfs.Open(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			tb.Fatalf("%s: %v", name, err)
		}
		if c := a.Flags & unityfs.FlagCompressionMask; c == unityfs.CompressionLZ4 || c == unityfs.CompressionLZ4HC {
			off := a.DataOffset - int64(a.CompressedBlockInfoSize)
			if a.Flags&unityfs.FlagBlockInfoAtEnd != 0 {
				off = int64(len(data)) - int64(a.CompressedBlockInfoSize)
			} else if a.Flags&unityfs.FlagBlockInfoNeedPaddingAtStart != 0 {
				off = -1 // the padding hides where the info starts; skip it
			}
			if off >= 0 {
				out = append(out, block{name: name + "#info", src: data[off : off+int64(a.CompressedBlockInfoSize)], size: int(a.UncompressedBlockInfoSize)})
			}
		}
		off := a.DataOffset
		for i, b := range a.Blocks {
			if c := b.Compression(); c == unityfs.CompressionLZ4 || c == unityfs.CompressionLZ4HC {
				out = append(out, block{name: fmt.Sprintf("%s#%d", name, i), src: data[off : off+int64(b.CompressedSize)], size: int(b.UncompressedSize)})
			}
			off += int64(b.CompressedSize)
		}
	}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		switch {
		case unityfs.IsUnityFS(data):
			add(rel, data)
		case webdata.IsWebData(data):
			w, err := webdata.Open(bytes.NewReader(data), int64(len(data)))
			if err != nil {
				return nil
			}
			for i, e := range w.Entries {
				b := make([]byte, e.Size)
				if _, err := w.EntryReader(i).ReadAt(b, 0); err != nil && err != io.EOF {
					return err
				}
				if unityfs.IsUnityFS(b) {
					add(rel+"!"+e.Name, b)
				}
			}
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return out, true
}

func oracle(src []byte, size int) ([]byte, error) {
	out := make([]byte, size)
	n, err := pierrec.UncompressBlock(src, out)
	if err != nil {
		return nil, err
	}
	if n != size {
		return nil, fmt.Errorf("%d bytes, want %d", n, size)
	}
	return out, nil
}

func encode(tb testing.TB, data []byte, hc bool) []byte {
	tb.Helper()
	dst := make([]byte, pierrec.CompressBlockBound(len(data)))
	var n int
	var err error
	if hc {
		n, err = pierrec.CompressBlockHC(data, dst, pierrec.Level9, nil, nil)
	} else {
		n, err = pierrec.CompressBlock(data, dst, nil)
	}
	if err != nil {
		tb.Fatal(err)
	}
	if n == 0 {
		// Incompressible: pierrec gives up; write one literal run.
		return literalsOnly(data)
	}
	return dst[:n]
}

// literalsOnly codes data as a single sequence of literals.
func literalsOnly(data []byte) []byte {
	n := len(data)
	var out []byte
	if n < 15 {
		out = append(out, byte(n<<4))
	} else {
		out = append(out, 0xF0)
		r := n - 15
		for ; r >= 255; r -= 255 {
			out = append(out, 255)
		}
		out = append(out, byte(r))
	}
	return append(out, data...)
}

func sample(kind string, n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, 2))
	out := make([]byte, 0, n)
	for len(out) < n {
		switch kind {
		case "random":
			out = append(out, byte(r.Uint32()))
		case "zeros":
			out = append(out, 0)
		default:
			switch r.IntN(3) {
			case 0:
				out = append(out, byte(r.Uint32()))
			case 1:
				out = binary.LittleEndian.AppendUint32(out, uint32(r.Float32()*1e5))
			case 2:
				if len(out) > 0 {
					d := 1 + r.IntN(min(len(out), 3000))
					for range 4 + r.IntN(600) {
						out = append(out, out[len(out)-d])
					}
				}
			}
		}
	}
	return out[:n]
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

func TestCorpusBlocksMatchOracle(t *testing.T) {
	corpustest.Dir(t)
	blocks, _ := corpusBlocks(t)
	if len(blocks) == 0 {
		t.Fatal("the corpus holds no LZ4 block")
	}
	for _, b := range blocks {
		want, err := oracle(b.src, b.size)
		if err != nil {
			t.Fatalf("%s: oracle: %v", b.name, err)
		}
		got := make([]byte, b.size)
		if err := lz4.Decompress(got, b.src); err != nil {
			t.Fatalf("%s: %v", b.name, err)
		}
		if i := firstDiff(got, want); i >= 0 {
			t.Fatalf("%s: differs from pierrec/lz4 at byte %d", b.name, i)
		}
	}
}

func TestRoundTrip(t *testing.T) {
	for _, kind := range []string{"mix", "random", "zeros"} {
		for _, n := range []int{0, 1, 14, 15, 16, 300, 131072, 1 << 20} {
			for _, hc := range []bool{false, true} {
				data := sample(kind, n, uint64(n))
				src := encode(t, data, hc)
				got := make([]byte, n)
				if err := lz4.Decompress(got, src); err != nil {
					t.Fatalf("%s/%d/hc=%v: %v", kind, n, hc, err)
				}
				if !bytes.Equal(got, data) {
					t.Fatalf("%s/%d/hc=%v: differs at byte %d", kind, n, hc, firstDiff(got, data))
				}
			}
		}
	}
}

// TestPrefixDecoding proves that decoding in pieces, into a buffer that is
// regrown between pieces, gives the bytes of decoding at once.
func TestPrefixDecoding(t *testing.T) {
	data := sample("mix", 300000, 9)
	src := encode(t, data, true)
	for _, step := range []int{1, 5, 999, 70000} {
		var d lz4.Decoder
		d.Reset(src, len(data))
		buf := make([]byte, 0)
		full := make([]byte, len(data))
		for d.Pos() < len(data) {
			n := min(len(data), d.Pos()+step)
			if step >= 999 {
				grown := make([]byte, n)
				copy(grown, buf[:d.Pos()])
				buf = grown
			} else {
				buf = full[:n]
			}
			if _, err := d.Decode(buf, n); err != nil {
				t.Fatalf("step %d at %d: %v", step, d.Pos(), err)
			}
			if d.Pos() != n {
				t.Fatalf("step %d: decoded to %d, want %d", step, d.Pos(), n)
			}
		}
		if !bytes.Equal(buf, data) {
			t.Fatalf("step %d: differs at byte %d", step, firstDiff(buf, data))
		}
	}
}

func TestErrors(t *testing.T) {
	data := sample("mix", 5000, 4)
	src := encode(t, data, false)
	for _, c := range []struct {
		name string
		src  []byte
		size int
		want error
	}{
		{"truncated", src[:len(src)/2], len(data), lz4.ErrTruncated},
		{"empty input", nil, 10, lz4.ErrTruncated},
		{"size declared larger", src, len(data) + 1, lz4.ErrTruncated},
		{"size declared smaller", src, len(data) - 1, lz4.ErrCorrupt},
		{"zero offset", []byte{0x10, 'a', 0, 0, 0x50, 1, 2, 3, 4, 5}, 10, lz4.ErrCorrupt},
		{"offset before the start", []byte{0x10, 'a', 2, 0, 0x50, 1, 2, 3, 4, 5}, 10, lz4.ErrCorrupt},
		{"input after the last literals", append(literalsOnly([]byte("abc")), 0), 3, lz4.ErrCorrupt},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := lz4.Decompress(make([]byte, c.size), c.src)
			if !errors.Is(err, c.want) {
				t.Fatalf("got %v, want %v", err, c.want)
			}
		})
	}
}

const fuzzMaxSize = 1 << 20

// FuzzLZ4 is differential: the decoder must not panic, and when it succeeds
// pierrec/lz4 must succeed with the same bytes; it may refuse what pierrec
// accepts only at the end of the block (it checks that the input ends with
// the last literals), after producing the same bytes. Decoding in two pieces
// split at cut must give the same result.
func FuzzLZ4(f *testing.F) {
	for _, n := range []int{0, 20, 3000} {
		data := sample("mix", n, uint64(n))
		f.Add(encode(f, data, false), uint32(n), uint32(n/2))
		f.Add(encode(f, data, true), uint32(n), uint32(n/3))
	}
	if blocks, ok := corpusBlocks(f); ok {
		for _, b := range blocks {
			if len(b.src) <= 4<<10 {
				f.Add(b.src, uint32(b.size), uint32(b.size/2))
			}
		}
	}
	count := fuzzcount.Counter("FuzzLZ4")
	f.Fuzz(func(t *testing.T, src []byte, size, cut uint32) {
		count()
		n := int(size % fuzzMaxSize)
		got := make([]byte, n)
		var d lz4.Decoder
		d.Reset(src, n)
		_, err := d.Decode(got, n)

		var d2 lz4.Decoder
		d2.Reset(src, n)
		c := 0
		if n > 0 {
			c = int(cut) % n
		}
		piece := make([]byte, c)
		_, err2 := d2.Decode(piece, c)
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

		want, werr := oracle(src, n)
		switch {
		case err == nil && werr != nil:
			t.Fatalf("decoded %d bytes that pierrec/lz4 refuses: %v", n, werr)
		case err == nil && !bytes.Equal(got, want):
			t.Fatalf("output differs from pierrec/lz4 at byte %d", firstDiff(got, want))
		case err != nil && werr == nil:
			if d.Pos() != n || !bytes.Equal(got, want) {
				t.Fatalf("refused after %d of %d bytes what pierrec/lz4 decodes: %v", d.Pos(), n, err)
			}
		}
	})
}

// BenchmarkDecode compares this decoder with pierrec/lz4 (assembly on
// amd64) on the corpus's LZ4 bundle chunks.
func BenchmarkDecode(b *testing.B) {
	blocks, ok := corpusBlocks(b)
	if !ok {
		b.Skip("corpus not found")
	}
	var total int64
	for _, bl := range blocks {
		total += int64(bl.size)
	}
	for _, c := range []struct {
		name string
		f    func(dst, src []byte) error
	}{
		{"ours", lz4.Decompress},
		{"pierrec", func(dst, src []byte) error { _, err := pierrec.UncompressBlock(src, dst); return err }},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(total)
			b.ReportAllocs()
			for b.Loop() {
				for _, bl := range blocks {
					if err := c.f(make([]byte, bl.size), bl.src); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
