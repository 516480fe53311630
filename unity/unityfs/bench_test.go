package unityfs_test

import (
	"bytes"
	"io"
	"os"
	"testing"

	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/unity/unityfs"
)

// BenchmarkOpenReadAll opens a corpus bundle held in memory and reads every
// node fully; the MB/s figure is decompressed bytes per second.
func BenchmarkOpenReadAll(b *testing.B) {
	for _, c := range []struct{ name, file string }{
		{"lzma-customemotespackage", "lethal-emotes/customemotespackage"},
		{"lzma-dlc3emoteskeletons", "ror2-skeletons/dlc3emoteskeletons"},
		{"lz4hc-sekai", "sekai/ladies_s_31_0001"},
	} {
		b.Run(c.name, func(b *testing.B) {
			data, err := os.ReadFile(corpustest.Path(b, c.file))
			if err != nil {
				b.Fatal(err)
			}
			a, err := openBytes(b, data)
			if err != nil {
				b.Fatal(err)
			}
			var total int64
			for _, n := range a.Nodes {
				total += n.Size
			}
			b.SetBytes(total)
			b.ReportAllocs()
			for b.Loop() {
				a, err := unityfs.Open(bytes.NewReader(data), int64(len(data)))
				if err != nil {
					b.Fatal(err)
				}
				for i := range a.Nodes {
					if _, err := io.Copy(io.Discard, a.NodeReader(i)); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// BenchmarkOpen measures reading only the header and block info.
func BenchmarkOpen(b *testing.B) {
	data, err := os.ReadFile(corpustest.Path(b, "sekai/ladies_s_31_0001"))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := unityfs.Open(bytes.NewReader(data), int64(len(data))); err != nil {
			b.Fatal(err)
		}
	}
}
