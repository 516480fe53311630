package lzma_test

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

	xz "github.com/ulikunitz/xz/lzma"

	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/unity/unityfs"
	"github.com/mecanim/mecanim/unity/webdata"
)

// oracle decodes a raw stream (properties header included) of the given
// size with github.com/ulikunitz/xz, the independent decoder the tests
// compare against.
func oracle(src []byte, size int) ([]byte, error) {
	if len(src) < 5 {
		return nil, errors.New("short")
	}
	hdr := make([]byte, 0, 13+len(src)-5)
	hdr = append(hdr, src[:5]...)
	hdr = binary.LittleEndian.AppendUint64(hdr, uint64(size))
	hdr = append(hdr, src[5:]...)
	r, err := xz.NewReader(bytes.NewReader(hdr))
	if err != nil {
		return nil, err
	}
	out := make([]byte, size)
	if _, err := io.ReadFull(r, out); err != nil {
		return nil, err
	}
	return out, nil
}

// encode compresses data with ulikunitz/xz's encoder and returns the raw
// stream Unity stores: properties header, then the range-coded data.
func encode(tb testing.TB, data []byte, lc, lp, pb int, dict int, marker bool) []byte {
	tb.Helper()
	var buf bytes.Buffer
	w, err := xz.WriterConfig{
		Properties: &xz.Properties{LC: lc, LP: lp, PB: pb},
		DictCap:    dict,
		Size:       int64(len(data)),
		EOSMarker:  marker,
	}.NewWriter(&buf)
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := w.Write(data); err != nil {
		tb.Fatal(err)
	}
	if err := w.Close(); err != nil {
		tb.Fatal(err)
	}
	b := buf.Bytes()
	return append(append([]byte(nil), b[:5]...), b[13:]...)
}

// block is one LZMA-compressed block of a corpus bundle.
type block struct {
	name string
	src  []byte // properties header and data
	size int    // uncompressed size
}

// corpusBlocks returns every LZMA block of every UnityFS bundle in the
// corpus, bundles inside WebData containers included; ok is false when the
// corpus is absent.
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
		off := a.DataOffset
		for i, b := range a.Blocks {
			if b.Compression() == unityfs.CompressionLZMA {
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

// lzmaBlocks is corpusBlocks for tests, which skip without the corpus.
func lzmaBlocks(t *testing.T) []block {
	t.Helper()
	corpustest.Dir(t) // skips, saying why, when the corpus is absent
	blocks, _ := corpusBlocks(t)
	if len(blocks) == 0 {
		t.Fatal("the corpus holds no LZMA block")
	}
	return blocks
}

// sample returns test data of a given kind: text-like, random, runs, or a
// mix, so encoded streams use literals, matched literals, short and long
// matches and every repeat kind.
func sample(kind string, n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, 1))
	out := make([]byte, 0, n)
	words := []string{"Transform", "m_LocalRotation", "Armature", "Hips", "Spine", "\x00\x00\x80\x3f", "clip", "curve"}
	for len(out) < n {
		switch kind {
		case "random":
			out = append(out, byte(r.Uint32()))
		case "zeros":
			out = append(out, 0)
		case "text":
			out = append(out, words[r.IntN(len(words))]...)
			out = append(out, ' ')
		default: // mix
			switch r.IntN(4) {
			case 0:
				out = append(out, byte(r.Uint32()))
			case 1:
				out = append(out, words[r.IntN(len(words))]...)
			case 2:
				if len(out) > 0 {
					d := 1 + r.IntN(min(len(out), 5000))
					l := 2 + r.IntN(300)
					for range l {
						out = append(out, out[len(out)-d])
					}
				}
			case 3:
				f := r.Float32()
				out = binary.LittleEndian.AppendUint32(out, uint32(f*1e6))
			}
		}
	}
	return out[:n]
}
