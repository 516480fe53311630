package texture

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkPixels decodes a 1024×1024 image of each block format and of
// RGBA32 from random bytes (every BC7, ETC2 and EAC mode occurs; ASTC
// repeats the blocks astcenc made of testdata/reference's colour image,
// since random ASTC blocks are mostly error blocks), reporting throughput
// in output pixels' bytes.
func BenchmarkPixels(b *testing.B) {
	const side = 1024
	astc := map[Format]string{ASTC_4x4: "colour-4x4", ASTC_6x6: "colour-6x6", ASTC_12x12: "colour-12x12"}
	for _, f := range []Format{RGBA32, DXT1, DXT5, BC7, ETC2_RGB, ETC2_RGBA8, EAC_RG, ASTC_4x4, ASTC_6x6, ASTC_12x12} {
		b.Run(f.String(), func(b *testing.B) {
			n, _ := f.Size(side, side)
			data := make([]byte, n)
			r := rand.New(rand.NewPCG(1, 2))
			for i := range data {
				data[i] = byte(r.Uint32())
			}
			if name, ok := astc[f]; ok {
				src, err := os.ReadFile(filepath.Join("testdata", "reference", name+".astc"))
				if err != nil {
					b.Fatal(err)
				}
				for i := 0; i < n; i += len(src) - 16 {
					copy(data[i:], src[16:])
				}
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
