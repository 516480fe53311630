package lzma_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/unity/internal/lzma"
	"github.com/mecanim/mecanim/unity/unityfs"
)

// benchBundles are the two LZMA bundles BENCHMARKS.md compares with liblzma.
var benchBundles = []struct{ name, file string }{
	{"customemotespackage", "lethal-emotes/customemotespackage"},
	{"dlc3emoteskeletons", "ror2-skeletons/dlc3emoteskeletons"},
}

// bundleBlocks returns the LZMA blocks of one corpus bundle.
func bundleBlocks(b *testing.B, file string) []block {
	data, err := os.ReadFile(corpustest.Path(b, file))
	if err != nil {
		b.Fatal(err)
	}
	a, err := unityfs.Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		b.Fatal(err)
	}
	var out []block
	off := a.DataOffset
	for _, bl := range a.Blocks {
		if bl.Compression() == unityfs.CompressionLZMA {
			out = append(out, block{name: file, src: data[off : off+int64(bl.CompressedSize)], size: int(bl.UncompressedSize)})
		}
		off += int64(bl.CompressedSize)
	}
	return out
}

// BenchmarkDecode decodes every LZMA block of a bundle into a fresh output
// buffer, as a bundle reader does (MB/s counts output bytes).
func BenchmarkDecode(b *testing.B) {
	for _, c := range benchBundles {
		b.Run(c.name, func(b *testing.B) {
			blocks := bundleBlocks(b, c.file)
			var total int64
			for _, bl := range blocks {
				total += int64(bl.size)
			}
			b.SetBytes(total)
			b.ReportAllocs()
			for b.Loop() {
				for _, bl := range blocks {
					if err := lzma.Decompress(make([]byte, bl.size), bl.src); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// BenchmarkOracle is BenchmarkDecode with github.com/ulikunitz/xz, the
// decoder this package replaces.
func BenchmarkOracle(b *testing.B) {
	for _, c := range benchBundles {
		b.Run(c.name, func(b *testing.B) {
			blocks := bundleBlocks(b, c.file)
			var total int64
			for _, bl := range blocks {
				total += int64(bl.size)
			}
			b.SetBytes(total)
			b.ReportAllocs()
			for b.Loop() {
				for _, bl := range blocks {
					if _, err := oracle(bl.src, bl.size); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
