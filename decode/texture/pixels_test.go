package texture

import (
	"encoding/binary"
	"errors"
	"image"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// at returns the pixel at (x, y) of img, y counted from the top.
func at(img *image.NRGBA, x, y int) [4]uint8 {
	o := img.PixOffset(x, y)
	return [4]uint8(img.Pix[o : o+4])
}

// Every uncompressed format decodes a 2×2 image stored bottom row first:
// the stored first pixel is the returned image's bottom-left one.
func TestUncompressedFormatsDecodeEachChannel(t *testing.T) {
	le := binary.LittleEndian
	h16 := func(x uint16) []byte { return le.AppendUint16(nil, x) }
	f32 := func(xs ...float32) []byte {
		var b []byte
		for _, x := range xs {
			b = le.AppendUint32(b, math.Float32bits(x))
		}
		return b
	}
	cat := func(bs ...[]byte) []byte {
		var out []byte
		for _, b := range bs {
			out = append(out, b...)
		}
		return out
	}
	for _, c := range []struct {
		f     Format
		pixel []byte   // the bottom-left pixel as stored
		want  [4]uint8 // what it decodes to
	}{
		{Alpha8, []byte{77}, [4]uint8{0, 0, 0, 77}},
		{R8, []byte{77}, [4]uint8{77, 0, 0, 255}},
		{R16, h16(0xabcd), [4]uint8{0xab, 0, 0, 255}},
		{RG16, []byte{10, 20}, [4]uint8{10, 20, 0, 255}},
		{RG32, cat(h16(0x1122), h16(0x3344)), [4]uint8{0x11, 0x33, 0, 255}},
		{RGB24, []byte{1, 2, 3}, [4]uint8{1, 2, 3, 255}},
		{RGB48, cat(h16(0x0100), h16(0x0200), h16(0x0300)), [4]uint8{1, 2, 3, 255}},
		{RGBA32, []byte{1, 2, 3, 4}, [4]uint8{1, 2, 3, 4}},
		{RGBA64, cat(h16(0x0100), h16(0x0200), h16(0x0300), h16(0x04ff)), [4]uint8{1, 2, 3, 4}},
		{ARGB32, []byte{4, 1, 2, 3}, [4]uint8{1, 2, 3, 4}},
		{BGRA32, []byte{3, 2, 1, 4}, [4]uint8{1, 2, 3, 4}},
		{RGB565, h16(0xfbff), [4]uint8{255, 0x7d, 255, 255}}, // green 31 of 63
		{RGB565, h16(0x8410), [4]uint8{0x84, 0x82, 0x84, 255}},
		{ARGB4444, h16(0x8f30), [4]uint8{0xff, 0x33, 0, 0x88}},
		{RGBA4444, h16(0x8f30), [4]uint8{0x88, 0xff, 0x33, 0}},
		{RHalf, h16(0x3800), [4]uint8{128, 0, 0, 255}},                                            // 0.5
		{RGHalf, cat(h16(0x3c00), h16(0xbc00)), [4]uint8{255, 0, 0, 255}},                         // 1, -1
		{RGBAHalf, cat(h16(0x3400), h16(0x3c00), h16(0x7c00), h16(0)), [4]uint8{64, 255, 255, 0}}, // .25, 1, inf, 0
		{RFloat, f32(0.2), [4]uint8{51, 0, 0, 255}},
		{RGFloat, f32(2, float32(math.NaN())), [4]uint8{255, 0, 0, 255}},
		{RGBAFloat, f32(0, 0.6, 1, 0.4), [4]uint8{0, 153, 255, 102}},
	} {
		t.Run(c.f.String(), func(t *testing.T) {
			ps := len(c.pixel)
			// Bottom row: the pixel then zeros; top row: zeros.
			data := append(append([]byte{}, c.pixel...), make([]byte, 3*ps)...)
			img, err := Pixels(c.f, 2, 2, data)
			if err != nil {
				t.Fatal(err)
			}
			if got := at(img, 0, 1); got != c.want {
				t.Errorf("bottom-left %v, want %v", got, c.want)
			}
			if n, _ := c.f.Size(2, 2); n != 4*ps {
				t.Errorf("Size %d, want %d", n, 4*ps)
			}
			if _, err := Pixels(c.f, 2, 2, data[:len(data)-1]); !errors.Is(err, ErrMalformed) {
				t.Errorf("short data: err %v", err)
			}
		})
	}
}

// bc1Block packs a BC1 block: two 5:6:5 colours and a 2-bit code per texel.
func bc1Block(c0, c1 uint16, codes [16]uint8) []byte {
	b := binary.LittleEndian.AppendUint16(nil, c0)
	b = binary.LittleEndian.AppendUint16(b, c1)
	var bits uint32
	for i, c := range codes {
		bits |= uint32(c) << (2 * i)
	}
	return binary.LittleEndian.AppendUint32(b, bits)
}

// bc4Block packs a BC3 alpha (BC4) block: two endpoints and a 3-bit code
// per texel.
func bc4Block(a0, a1 uint8, codes [16]uint8) []byte {
	var bits uint64
	for i, c := range codes {
		bits |= uint64(c) << (3 * i)
	}
	b := []byte{a0, a1}
	for k := range 6 {
		b = append(b, uint8(bits>>(8*k)))
	}
	return b
}

// The texels of a 4×4 image in a block's order, from Pixels' image: block
// row j is image row 3−j (Unity's rows go up).
func blockTexels(img *image.NRGBA) [16][4]uint8 {
	var out [16][4]uint8
	for i := range out {
		out[i] = at(img, i%4, 3-i/4)
	}
	return out
}

func TestBC1DecodesBothModes(t *testing.T) {
	const red, blue = 0xf800, 0x001f
	codes := [16]uint8{0, 1, 2, 3, 3, 2, 1, 0}
	img, err := Pixels(DXT1, 4, 4, bc1Block(red, blue, codes))
	if err != nil {
		t.Fatal(err)
	}
	px := blockTexels(img)
	// Four colours: red, blue and the thirds between them.
	want := [4][4]uint8{{255, 0, 0, 255}, {0, 0, 255, 255}, {170, 0, 85, 255}, {85, 0, 170, 255}}
	for i := range 8 {
		if px[i] != want[codes[i]] {
			t.Errorf("four-colour texel %d: %v, want %v", i, px[i], want[codes[i]])
		}
	}
	// colour0 ≤ colour1: the midpoint and opaque black (Unity's DXT1 has
	// no alpha).
	img, _ = Pixels(DXT1, 4, 4, bc1Block(blue, red, codes))
	px = blockTexels(img)
	want = [4][4]uint8{{0, 0, 255, 255}, {255, 0, 0, 255}, {128, 0, 128, 255}, {0, 0, 0, 255}}
	for i := range 8 {
		if px[i] != want[codes[i]] {
			t.Errorf("three-colour texel %d: %v, want %v", i, px[i], want[codes[i]])
		}
	}
}

func TestBC3DecodesAlphaAndAlwaysFourColours(t *testing.T) {
	var codes [16]uint8
	for i := range codes {
		codes[i] = uint8(i % 8)
	}
	// 0x001f ≤ 0xf800: BC1 alone would take the three-colour mode; BC3's
	// colour block never does.
	blk := append(bc4Block(255, 0, codes), bc1Block(0x001f, 0xf800, [16]uint8{3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3})...)
	img, err := Pixels(DXT5, 4, 4, blk)
	if err != nil {
		t.Fatal(err)
	}
	px := blockTexels(img)
	// Eight alphas: 255, 0 and the sevenths between.
	wantA := []uint8{255, 0, 219, 182, 146, 109, 73, 36}
	for i := range px {
		if px[i][3] != wantA[codes[i]] || [3]uint8(px[i][:3]) != [3]uint8{170, 0, 85} {
			t.Errorf("texel %d: %v, want alpha %d over (170, 0, 85)", i, px[i], wantA[codes[i]])
		}
	}
	// a0 ≤ a1: six alphas, then 0 and 255.
	img, _ = Pixels(DXT5, 4, 4, append(bc4Block(0, 255, codes), make([]byte, 8)...))
	px = blockTexels(img)
	wantA = []uint8{0, 255, 51, 102, 153, 204, 0, 255}
	for i := range px {
		if px[i][3] != wantA[codes[i]] {
			t.Errorf("six-alpha texel %d: alpha %d, want %d", i, px[i][3], wantA[codes[i]])
		}
	}
	// BC4 and BC5 are the same blocks in red (and green).
	img, _ = Pixels(BC5, 4, 4, append(bc4Block(255, 0, codes), bc4Block(0, 255, codes)...))
	px = blockTexels(img)
	if px[2] != [4]uint8{219, 51, 0, 255} {
		t.Errorf("BC5 texel 2: %v", px[2])
	}
	img, _ = Pixels(BC4, 4, 4, bc4Block(255, 0, codes))
	if px := blockTexels(img); px[3] != [4]uint8{182, 0, 0, 255} {
		t.Errorf("BC4 texel 3: %v", px[3])
	}
}

// bitWriter packs fields lowest bit first, as BC7 blocks store them.
type bitWriter struct {
	b   [16]byte
	pos int
}

func (w *bitWriter) put(v uint32, n int) {
	for k := 0; k < n; k++ {
		if v>>k&1 != 0 {
			w.b[w.pos/8] |= 1 << (w.pos % 8)
		}
		w.pos++
	}
}

// The BC7 modes as the specification's table gives them, written out
// again here so that the test does not share the decoder's table.
var specModes = [8]struct{ ns, pb, rb, isb, cb, ab, epb, spb, ib, ib2 int }{
	{3, 4, 0, 0, 4, 0, 1, 0, 3, 0},
	{2, 6, 0, 0, 6, 0, 0, 1, 3, 0},
	{3, 6, 0, 0, 5, 0, 0, 0, 2, 0},
	{2, 6, 0, 0, 7, 0, 1, 0, 2, 0},
	{1, 0, 2, 1, 5, 6, 0, 0, 2, 3},
	{1, 0, 2, 0, 7, 8, 0, 0, 2, 2},
	{1, 0, 0, 0, 7, 7, 1, 0, 4, 0},
	{2, 6, 0, 0, 5, 5, 1, 0, 2, 0},
}

// Every BC7 mode round-trips known colours: each subset's endpoint 0 is
// black-ish and endpoint 1 full (all stored bits and P-bits set), texels
// take endpoint 0 or 1 by their index, and the subsets follow the
// partition picked (two- and three-subset partitions with anchors other
// than texel 15).
func TestBC7DecodesEveryMode(t *testing.T) {
	for mode, m := range specModes {
		part := map[int]int{2: 17, 3: 2}[m.ns] // anchors 2 / 15 and 8
		var w bitWriter
		w.put(1<<mode, mode+1)
		w.put(uint32(part), m.pb)
		w.put(0, m.rb)
		w.put(0, m.isb)
		// Endpoint 0 of subset s stores s in each channel, endpoint 1
		// all ones.
		for range 3 {
			for s := 0; s < m.ns; s++ {
				w.put(uint32(s), m.cb)
				w.put(1<<m.cb-1, m.cb)
			}
		}
		for s := 0; s < m.ns && m.ab > 0; s++ {
			w.put(uint32(s), m.ab)
			w.put(1<<m.ab-1, m.ab)
		}
		// P-bits 0 for endpoint 0, 1 for endpoint 1; a shared one 1.
		for s := 0; s < m.ns*m.epb; s++ {
			w.put(0, 1)
			w.put(1, 1)
		}
		for s := 0; s < m.ns*m.spb; s++ {
			w.put(1, 1)
		}
		anchors := map[int]bool{0: true}
		switch m.ns {
		case 2:
			anchors[2] = true // partition 17
		case 3:
			anchors[15], anchors[8] = true, true // partition 2
		}
		// Texel i: the top index (endpoint 1) when i is odd and not an
		// anchor, else 0.
		top := func(bits int) uint32 { return 1<<bits - 1 }
		for i := range 16 {
			bits := m.ib
			if anchors[i] {
				bits--
			}
			if i%2 == 1 && !anchors[i] {
				w.put(top(bits), bits)
			} else {
				w.put(0, bits)
			}
		}
		for i := 0; i < 16 && m.ib2 > 0; i++ {
			bits := m.ib2
			if i == 0 {
				bits--
			}
			if i%2 == 1 {
				w.put(top(bits), bits)
			} else {
				w.put(0, bits)
			}
		}
		if w.pos != 128 {
			t.Fatalf("mode %d: %d bits", mode, w.pos)
		}
		img, err := Pixels(BC7, 4, 4, w.b[:])
		if err != nil {
			t.Fatal(err)
		}
		px := blockTexels(img)
		for i := range 16 {
			s := int(partitionOf(m.ns, part, i))
			// Endpoint values widened to 8 bits: stored s (with P-bit
			// 0) or all ones (with P-bit 1).
			cbits, abits := m.cb+m.epb+m.spb, m.ab
			if m.ab > 0 {
				abits += m.epb
			}
			e0 := widenSpec(uint32(s)<<(m.epb), cbits)
			if m.spb > 0 {
				e0 = widenSpec(uint32(s)<<1|1, cbits)
			}
			want := [4]uint8{uint8(e0), uint8(e0), uint8(e0), 255}
			if m.ab > 0 {
				a0 := widenSpec(uint32(s)<<m.epb, abits)
				want[3] = uint8(a0)
			}
			if i%2 == 1 && !anchors[i] {
				want = [4]uint8{255, 255, 255, 255}
			}
			if px[i] != want {
				t.Errorf("mode %d texel %d (subset %d): %v, want %v", mode, i, s, px[i], want)
			}
		}
	}
}

// partitionOf reads the subset of texel i from the specification's
// partition patterns for the two partitions the test uses.
func partitionOf(ns, part, i int) int {
	switch {
	case ns == 2 && part == 17:
		return [16]int{0, 1, 1, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0}[i]
	case ns == 3 && part == 2:
		return [16]int{0, 0, 0, 0, 2, 0, 0, 1, 2, 2, 1, 1, 2, 2, 1, 1}[i]
	}
	return 0
}

// widenSpec is the specification's widening of an n-bit endpoint value:
// its bits at the top of the byte, its high bits repeated below.
func widenSpec(v uint32, n int) uint32 {
	out := uint32(0)
	for k := 0; k < 8; k++ {
		bit := n - 1 - k%n
		out = out<<1 | v>>bit&1
	}
	return out
}

// Random blocks decode as Pillow (Debian's python3-pil 9.4, an
// independent decoder) decodes them: BC7 exactly (the format is
// bit-exact), BC1 and BC3 within 1 (the specification leaves the rounding
// of interpolated values to the decoder; Pillow truncates, this package
// rounds), BC1's three-colour black opaque here (Unity's DXT1 has no
// alpha) where Pillow makes it transparent. testdata/pillow/gen.py wrote
// the blocks and Pillow's pixels.
func TestBlocksDecodeAsPillowDecodesThem(t *testing.T) {
	for _, c := range []struct {
		name string
		f    Format
		side int
		tol  int
	}{{"bc1", DXT1, 16, 1}, {"bc3", DXT5, 16, 1}, {"bc7", BC7, 32, 0}} {
		blocks, err := os.ReadFile(filepath.Join("testdata", "pillow", c.name+".blocks"))
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join("testdata", "pillow", c.name+".rgba"))
		if err != nil {
			t.Fatal(err)
		}
		// Pillow's rows go down; Pixels' rows are Unity's upside down,
		// so Pillow's row y is Pixels' row side-1-y.
		img, err := Pixels(c.f, c.side, c.side, blocks)
		if err != nil {
			t.Fatal(err)
		}
		off, transparent := 0, 0
		for y := 0; y < c.side; y++ {
			for x := 0; x < c.side; x++ {
				got := at(img, x, c.side-1-y)
				w := want[4*(y*c.side+x) : 4*(y*c.side+x)+4]
				for k := range 4 {
					d := int(got[k]) - int(w[k])
					if c.f == DXT1 && k == 3 && w[3] == 0 && got[3] == 255 {
						transparent++
						continue
					}
					if d != 0 {
						off++
					}
					if d > c.tol || d < -c.tol {
						t.Fatalf("%s: pixel (%d, %d) = %v, Pillow %v", c.name, x, y, got, w)
					}
				}
			}
		}
		t.Logf("%s: %d channels off by one, %d three-colour blacks", c.name, off, transparent)
	}
}

func TestPixelsRefusesWhatItCannotDecode(t *testing.T) {
	for _, c := range []struct {
		f    Format
		want string
	}{
		{ASTC_HDR_6x6, "texture: format ASTC_HDR_6x6 is not decoded"},
		{PVRTC_RGBA4, "texture: format PVRTC_RGBA4 is not decoded"},
		{ETC2_RGBA8Crunched, "texture: format ETC2_RGBA8Crunched is not decoded (crunch compression)"},
		{DXT1Crunched, "texture: format DXT1Crunched is not decoded (crunch compression)"},
	} {
		_, err := Pixels(c.f, 8, 8, make([]byte, 64))
		var ue *UnsupportedError
		if !errors.As(err, &ue) || ue.Format != c.f || err.Error() != c.want {
			t.Errorf("%v: err %v, want %q", c.f, err, c.want)
		}
	}
	if Format(99).String() != "TextureFormat(99)" || DXT5.String() != "DXT5" {
		t.Errorf("names %v %v", Format(99), DXT5)
	}
	for _, c := range []struct {
		w, h int
		n    int
	}{{0, 4, 64}, {4, -1, 64}, {MaxSide + 1, 1, 1 << 20}, {5, 5, 63}, {1 << 15, 1 << 15, 1024}} {
		if _, err := Pixels(BC7, c.w, c.h, make([]byte, c.n)); !errors.Is(err, ErrMalformed) {
			t.Errorf("%d×%d in %d bytes: err %v", c.w, c.h, c.n, err)
		}
	}
	// A 5×5 BC1 image is 2×2 blocks; the right and top texels of the
	// outer blocks fall outside.
	img, err := Pixels(DXT1, 5, 5, make([]byte, 32))
	if err != nil || img.Bounds().Dx() != 5 || img.Bounds().Dy() != 5 {
		t.Errorf("5×5: %v %v", img.Bounds(), err)
	}
}
