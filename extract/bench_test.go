package extract_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/mecanim/mecanim/extract"
	"github.com/mecanim/mecanim/internal/corpustest"
)

// BenchmarkExtract extracts the whole corpus and a synthetic game of 32
// bundles (characters with 2 clips of 50,000 frames) with 1 and 2
// workers: MB/s of input files (SetBytes) and of decompressed data.
func BenchmarkExtract(b *testing.B) {
	parent := b
	games := map[string]string{"synthetic32": ""}
	if dir, ok := corpustest.Lookup(); ok {
		games["corpus"] = dir
	}
	for _, name := range []string{"corpus", "synthetic32"} {
		dir, ok := games[name]
		if !ok {
			continue
		}
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/j%d", name, workers), func(b *testing.B) {
				if dir == "" {
					// In the parent's folder: the game serves both worker counts.
					dir, _ = writeLargeGame(parent, 32, 50_000)
				}
				out := filepath.Join(b.TempDir(), "out")
				var files, expanded int64
				for b.Loop() {
					var last extract.Progress
					m, err := extract.Extract(context.Background(), []string{dir}, extract.Options{Out: out, Workers: workers, Force: true, NoMeshes: true,
						Progress: func(p extract.Progress) { last = p }})
					if err != nil || len(m.Failed) > 0 {
						b.Fatal(err, m.Failed)
					}
					files, expanded = last.Bytes, last.Expanded
				}
				b.SetBytes(files)
				b.ReportMetric(float64(expanded)*float64(b.N)/1e6/b.Elapsed().Seconds(), "MB-decompressed/s")
			})
		}
	}
}
