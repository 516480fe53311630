package sprite

import (
	"image"
	"testing"

	"github.com/mecanim/mecanim/internal/fuzzcount"
)

// FuzzCut cuts sprites of arbitrary rectangles, offsets, pivots, packing
// settings and tight outlines out of a small texture: an error or an image, never a
// panic, and never an image out of proportion to the texels cut.
func FuzzCut(f *testing.F) {
	f.Add(float32(2), float32(1), float32(3), float32(2), float32(5), float32(4), float32(1), float32(0), uint32(1|4<<2), float32(0.5), float32(0.5))
	f.Add(float32(0), float32(0), float32(8), float32(4), float32(8), float32(4), float32(0), float32(0), uint32(0), float32(0), float32(1))
	f.Add(float32(0), float32(0), float32(4), float32(4), float32(4), float32(4), float32(2), float32(0), uint32(64), float32(0.5), float32(0.5))
	count := fuzzcount.Counter("FuzzCut")
	tex := testTexture()
	f.Fuzz(func(t *testing.T, x, y, w, h, sw, sh, ox, oy float32, settings uint32, px, py float32) {
		count()
		s := &Sprite{Name: "fuzz", Rect: Rect{0, 0, sw, sh}, Pivot: [2]float32{px, py},
			Render: RenderData{TextureRect: Rect{x, y, w, h}, Offset: [2]float32{ox, oy}, Packed: settings&1 != 0, Rotation: Rotation(settings >> 2 & 15)}}
		if settings&64 != 0 { // a tight outline from the same numbers
			s.PixelsToUnits = ox
			s.Outline = [][3][2]float32{{{x, y}, {w, h}, {px, py}}}
		}
		img, _, err := Cut(tex, s)
		if err != nil {
			return
		}
		if n := img.Bounds().Dx() * img.Bounds().Dy(); n > 16*32+1<<22 || img.Bounds().Min != (image.Point{}) {
			t.Fatalf("%v image from a 32-texel texture", img.Bounds())
		}
	})
}
