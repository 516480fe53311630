package texture

import (
	"encoding/binary"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

// The files in testdata/reference are textures compressed and decoded by
// independent codecs (testdata/reference/generate.sh made them: Arm's
// astcenc, Android's etc1tool and Mesa's llvmpipe OpenGL driver, from
// Debian). Rows there are in stored order: the first row is the first
// stored one.

func readReference(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "reference", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func readReferencePNG(t *testing.T, name string) *image.NRGBA {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "reference", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	b := img.Bounds()
	out := image.NewNRGBA(b)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			out.Set(x, y, img.At(x, y))
		}
	}
	return out
}

// astcFile is a .astc file: its footprint, size and blocks.
type astcFile struct {
	bw, bh, w, h int
	blocks       []byte
}

func readASTCFile(t *testing.T, name string) astcFile {
	b := readReference(t, name)
	if len(b) < 16 || binary.LittleEndian.Uint32(b) != 0x5CA1AB13 {
		t.Fatalf("%s: not an .astc file", name)
	}
	u24 := func(p []byte) int { return int(p[0]) | int(p[1])<<8 | int(p[2])<<16 }
	return astcFile{bw: int(b[4]), bh: int(b[5]), w: u24(b[7:]), h: u24(b[10:]), blocks: b[16:]}
}

// decodeStored decodes an ASTC image's blocks in stored order (first row
// first), without Pixels' turn.
func (a astcFile) decodeStored(srgb bool) []uint8 {
	out := make([]uint8, 4*a.w*a.h)
	var texels [4 * astcMaxFootprint]uint8
	nx := (a.w + a.bw - 1) / a.bw
	for i := 0; 16*i+16 <= len(a.blocks); i++ {
		bx, by := i%nx, i/nx
		decodeASTC(a.blocks[16*i:16*i+16], a.bw, a.bh, srgb, texels[:])
		for y := 0; y < a.bh && by*a.bh+y < a.h; y++ {
			for x := 0; x < a.bw && bx*a.bw+x < a.w; x++ {
				o := 4 * ((by*a.bh+y)*a.w + bx*a.bw + x)
				copy(out[o:o+4], texels[4*(y*a.bw+x):])
			}
		}
	}
	return out
}

// compareRGBA fails on any channel of got that differs from want by more
// than tol.
func compareRGBA(t *testing.T, name string, w int, got, want []uint8, tol int) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d bytes, reference %d", name, len(got), len(want))
	}
	for i := range got {
		if d := int(got[i]) - int(want[i]); d > tol || d < -tol {
			p := i / 4
			t.Fatalf("%s: texel (%d, %d) = %v, reference %v", name, p%w, p/w, got[4*p:4*p+4], want[4*p:4*p+4])
		}
	}
}

var astcFootprints = []string{"4x4", "5x4", "5x5", "6x5", "6x6", "8x5", "8x6", "8x8", "10x5", "10x6", "10x8", "10x10", "12x10", "12x12"}

// Every 2D ASTC footprint decodes as Arm's reference codec (astcenc's LDR
// sRGB profile keeps the interpolation's top 8 bits, as this decoder does)
// decodes it, exactly: images astcenc compressed with its thorough search
// (many partitionings, endpoint modes, weight grids, dual planes) and
// blocks of random bits (reserved modes, error blocks, void extents).
func TestASTCMatchesArmsReferenceDecoder(t *testing.T) {
	for _, fp := range astcFootprints {
		for _, img := range []string{"colour", "grey", "random"} {
			name := img + "-" + fp
			a := readASTCFile(t, name+".astc")
			if fmt.Sprintf("%dx%d", a.bw, a.bh) != fp {
				t.Fatalf("%s: footprint %d×%d", name, a.bw, a.bh)
			}
			ref := readReferencePNG(t, name+".srgb.png")
			compareRGBA(t, name, a.w, a.decodeStored(true), ref.Pix, 0)
		}
	}
}

// The linear LDR decode (what Pixels returns) matches Mesa's ASTC decoder
// exactly (both keep the interpolation's top 8 bits).
func TestASTCMatchesMesa(t *testing.T) {
	for _, fp := range astcFootprints {
		for _, img := range []string{"colour", "grey", "random"} {
			name := img + "-" + fp
			a := readASTCFile(t, name+".astc")
			compareRGBA(t, name, a.w, a.decodeStored(false), readReference(t, name+".mesa.rgba"), 0)
		}
	}
}

// Pixels decodes Unity's ASTC formats (square footprints, LDR) turned the
// right way up.
func TestPixelsDecodesUnitysASTCFormats(t *testing.T) {
	for _, c := range []struct {
		f  Format
		fp string
	}{{ASTC_4x4, "4x4"}, {ASTC_5x5, "5x5"}, {ASTC_6x6, "6x6"}, {ASTC_8x8, "8x8"}, {ASTC_10x10, "10x10"}, {ASTC_12x12, "12x12"},
		{ASTC_RGBA_4x4, "4x4"}, {ASTC_RGBA_6x6, "6x6"}, {ASTC_RGBA_12x12, "12x12"}} {
		a := readASTCFile(t, "colour-"+c.fp+".astc")
		img, err := Pixels(c.f, a.w, a.h, a.blocks)
		if err != nil {
			t.Fatalf("%v: %v", c.f, err)
		}
		want := a.decodeStored(false)
		for y := 0; y < a.h; y++ {
			got := img.Pix[(a.h-1-y)*img.Stride : (a.h-1-y)*img.Stride+4*a.w]
			compareRGBA(t, fmt.Sprint(c.f), a.w, got, want[4*a.w*y:4*a.w*(y+1)], 0)
		}
	}
}

// decodeStored4x4 decodes a 4×4-block image of format f in stored order.
func decodeStored4x4(t *testing.T, f Format, w, h int, data []byte) []uint8 {
	t.Helper()
	img, err := Pixels(f, w, h, data)
	if err != nil {
		t.Fatalf("%v: %v", f, err)
	}
	out := make([]uint8, 0, 4*w*h)
	for y := h - 1; y >= 0; y-- {
		out = append(out, img.Pix[y*img.Stride:y*img.Stride+4*w]...)
	}
	return out
}

// ETC2 RGB, RGBA1 (punch-through) and RGBA8 decode random blocks (every
// mode: individual, differential, T, H, planar, and the transparent
// index) as Mesa does, exactly.
func TestETC2MatchesMesa(t *testing.T) {
	for _, c := range []struct {
		f      Format
		blocks string
		ref    string
	}{
		{ETC2_RGB, "random8.blocks", "etc2-rgb.rgba"},
		{ETC2_RGBA1, "random8.blocks", "etc2-rgba1.rgba"},
		{ETC2_RGBA8, "random16.blocks", "etc2-rgba8.rgba"},
	} {
		got := decodeStored4x4(t, c.f, 64, 64, readReference(t, c.blocks))
		compareRGBA(t, c.f.String(), 64, got, readReference(t, c.ref), 0)
	}
}

// EAC R11 and RG11, unsigned and signed, decode random blocks to the
// 11-bit values Mesa decodes, exactly.
func TestEACMatchesMesa(t *testing.T) {
	for _, c := range []struct {
		name     string
		blocks   string
		channels int
		signed   bool
	}{
		{"eac-r", "random8.blocks", 1, false},
		{"eac-r-signed", "random8.blocks", 1, true},
		{"eac-rg", "random16.blocks", 2, false},
		{"eac-rg-signed", "random16.blocks", 2, true},
	} {
		data := readReference(t, c.blocks)
		ref := readReference(t, c.name+".r11")
		bs := 8 * c.channels
		for i := 0; i < 256; i++ {
			bx, by := i%16, i/16
			for ch := 0; ch < c.channels; ch++ {
				var v [16]int32
				decodeEAC11(data[bs*i+8*ch:], &v, c.signed)
				for y := range 4 {
					for x := range 4 {
						o := 4 * ((4*by+y)*64 + 4*bx + x)
						want := int32(int16(binary.LittleEndian.Uint16(ref[o+2*ch:])))
						if v[4*y+x] != want {
							t.Fatalf("%s: block %d channel %d texel (%d, %d) = %d, Mesa %d", c.name, i, ch, x, y, v[4*y+x], want)
						}
					}
				}
			}
		}
	}
}

// ETC1 (Unity's ETC_RGB4) decodes what Android's etc1tool encoded as
// etc1tool decodes it, exactly.
func TestETC1MatchesAndroidsCodec(t *testing.T) {
	pkm := readReference(t, "etc1.pkm")
	w, h := int(binary.BigEndian.Uint16(pkm[12:])), int(binary.BigEndian.Uint16(pkm[14:]))
	got := decodeStored4x4(t, ETC_RGB4, w, h, pkm[16:])
	ref := readReferencePNG(t, "etc1.png")
	compareRGBA(t, "ETC_RGB4", w, got, ref.Pix, 0)
}
