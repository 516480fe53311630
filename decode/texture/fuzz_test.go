package texture

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mecanim/mecanim/internal/fuzzcount"
)

// FuzzTexture decodes arbitrary bytes as a texture of an arbitrary format
// and size: an error or an image of exactly the size asked, never a panic,
// and never more than 8 output bytes per input byte (the densest format,
// BC1, makes 64 of 8): hostile sizes cannot make it allocate beyond the
// data present. Seeded with the Pillow cross-check blocks and, when the
// corpus is present, the first bytes of its textures.
func FuzzTexture(f *testing.F) {
	for _, c := range []struct {
		name string
		f    Format
		side int32
	}{{"bc1", DXT1, 16}, {"bc3", DXT5, 16}, {"bc7", BC7, 32}} {
		if b, err := os.ReadFile(filepath.Join("testdata", "pillow", c.name+".blocks")); err == nil {
			f.Add(int32(c.f), c.side, c.side, b)
		}
	}
	f.Add(int32(RGBA32), int32(2), int32(2), make([]byte, 16))
	f.Add(int32(RGB565), int32(3), int32(1), make([]byte, 6))
	f.Add(int32(ASTC_4x4), int32(4), int32(4), make([]byte, 16))
	for _, s := range corpusSeeds(f) {
		f.Add(s.format, s.w, s.h, s.data)
	}
	count := fuzzcount.Counter("FuzzTexture")
	f.Fuzz(func(t *testing.T, format, w, h int32, data []byte) {
		count()
		img, err := Pixels(Format(format), int(w), int(h), data)
		if err != nil {
			return
		}
		if b := img.Bounds(); b.Dx() != int(w) || b.Dy() != int(h) {
			t.Fatalf("%d×%d image for %d×%d", b.Dx(), b.Dy(), w, h)
		}
		if len(img.Pix) > 8*len(data) {
			t.Fatalf("%d bytes of pixels from %d bytes of data", len(img.Pix), len(data))
		}
	})
}

type seed struct {
	format, w, h int32
	data         []byte
}

// corpusSeeds cuts small images (at most 64×64, or the first rows) out
// of the corpus textures.
func corpusSeeds(tb testing.TB) []seed {
	if _, ok := lookupCorpus(); !ok {
		return nil
	}
	var out []seed
	for _, ct := range corpusTextures(tb) {
		v, err := ct.f.Decode(ct.o)
		if err != nil {
			continue
		}
		h, err := ReadHeader(v)
		if err != nil || !h.Format.Supported() || h.Width <= 0 || h.Height <= 0 {
			continue
		}
		w, rows := min(h.Width, 64), min(h.Height, 64)
		need, _ := h.Format.Size(w, rows)
		data := h.inline
		if len(data) == 0 && ct.f.Container != nil && h.Stream.Size >= uint32(need) {
			data, _ = ct.f.Container.ReadStream(h.Stream.Path, h.Stream.Offset, uint32(need))
		}
		if len(data) >= need {
			out = append(out, seed{int32(h.Format), int32(w), int32(rows), data[:need]})
		}
	}
	return out
}
