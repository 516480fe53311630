package texture

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkPixels decodes a 1024×1024 image of each block format and of
// RGBA32 from random bytes (every BC7 mode occurs), reporting throughput
// in output pixels' bytes.
func BenchmarkPixels(b *testing.B) {
	const side = 1024
	for _, f := range []Format{RGBA32, DXT1, DXT5, BC7} {
		b.Run(f.String(), func(b *testing.B) {
			n, _ := f.Size(side, side)
			data := make([]byte, n)
			r := rand.New(rand.NewPCG(1, 2))
			for i := range data {
				data[i] = byte(r.Uint32())
			}
			b.SetBytes(4 * side * side)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Pixels(f, side, side, data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
