package texture

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mecanim/mecanim/internal/fuzzcount"
)

// FuzzTexture decodes arbitrary bytes as a texture of an arbitrary format
// and size: an error or an image of exactly the size asked, never a panic,
// and never more than 36 output bytes per input byte (the densest format,
// ASTC 12×12, makes 576 of 16): hostile sizes cannot make it allocate
// beyond the data present. Seeded with the Pillow and reference
// cross-check blocks and, when the corpus is present, the first bytes of
// its textures.
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
	for _, c := range []struct {
		name string
		f    Format
		side int32
	}{{"random8", ETC2_RGBA1, 64}, {"random8", EAC_R_SIGNED, 64}, {"random16", ETC2_RGBA8, 64}, {"random16", EAC_RG, 64}, {"etc1", ETC_RGB4, 60}} {
		if b, err := os.ReadFile(filepath.Join("testdata", "reference", c.name+".blocks")); err == nil {
			f.Add(int32(c.f), c.side, c.side, b)
		}
	}
	for _, c := range []struct {
		name string
		f    Format
	}{{"colour-4x4", ASTC_4x4}, {"grey-6x6", ASTC_6x6}, {"colour-12x12", ASTC_RGBA_12x12}, {"random-8x8", ASTC_8x8}} {
		if b, err := os.ReadFile(filepath.Join("testdata", "reference", c.name+".astc")); err == nil && len(b) > 16 {
			f.Add(int32(c.f), int32(b[7]), int32(b[10]), b[16:])
		}
	}
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
		if len(img.Pix) > 36*len(data) {
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

// FuzzASTCBlock decodes arbitrary 16-byte blocks at every 2D footprint:
// never a panic, every texel written (an error block is magenta, never
// left over from an earlier block).
func FuzzASTCBlock(f *testing.F) {
	for _, name := range []string{"colour-4x4", "grey-10x6", "random-12x12"} {
		if b, err := os.ReadFile(filepath.Join("testdata", "reference", name+".astc")); err == nil {
			for i := 16; i+16 <= len(b) && i < 16*40; i += 16 {
				f.Add(b[i:i+16], uint8(i/16))
			}
		}
	}
	count := fuzzcount.Counter("FuzzASTCBlock")
	footprints := [][2]int{{4, 4}, {5, 4}, {5, 5}, {6, 5}, {6, 6}, {8, 5}, {8, 6}, {8, 8}, {10, 5}, {10, 6}, {10, 8}, {10, 10}, {12, 10}, {12, 12}}
	f.Fuzz(func(t *testing.T, blk []byte, fp uint8) {
		count()
		if len(blk) < 16 {
			return
		}
		d := footprints[int(fp)%len(footprints)]
		var a, b [4 * astcMaxFootprint]uint8
		for i := range b {
			b[i] = 0xa5
		}
		decodeASTC(blk[:16], d[0], d[1], false, a[:])
		decodeASTC(blk[:16], d[0], d[1], false, b[:])
		if n := 4 * d[0] * d[1]; string(a[:n]) != string(b[:n]) {
			t.Fatalf("%dx%d block %x: the decode depends on what the buffer held", d[0], d[1], blk[:16])
		}
	})
}
