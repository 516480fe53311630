package assets

import (
	"errors"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/unity/typetree"
)

// BenchmarkOpenListDecodeAll opens the largest corpus bundles, lists every
// object with its name and decodes every object: what `mecanim ls` and a
// full dump do. Throughput is in decompressed bytes of serialized data.
func BenchmarkOpenListDecodeAll(b *testing.B) {
	dir, ok := corpustest.Lookup()
	if !ok {
		b.Skip("corpus not found")
	}
	for _, rel := range []string{"lethal-emotes/customemotespackage", "ror2-skeletons/dlc3emoteskeletons", "sekai/ladies_s_31_0001"} {
		b.Run(filepath.Base(rel), func(b *testing.B) {
			p := filepath.Join(dir, rel)
			var total int64
			var peak uint64
			for i := 0; i < b.N; i++ {
				c, err := Open(p, Options{})
				if err != nil {
					b.Fatal(err)
				}
				total = 0
				for _, f := range c.Files {
					total += f.FileSize
					for j := range f.Objects {
						o := &f.Objects[j]
						if _, err := f.ObjectName(o); err != nil {
							b.Fatal(err)
						}
						if _, err := f.Decode(o); err != nil {
							var te *typetree.TrailingError
							if !errors.As(err, &te) {
								b.Fatal(err)
							}
						}
					}
				}
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				if ms.HeapInuse > peak {
					peak = ms.HeapInuse
				}
				c.Close()
			}
			b.SetBytes(total)
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
		})
	}
}
