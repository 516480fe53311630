package texture

import (
	"encoding/binary"
	"fmt"
	"image"
	"math"
)

// Pixels decodes the first w×h image (mip level 0) of data, stored in
// format f as Unity stores it, bottom row first, into an image whose first
// row is the top one (image.Image's order; the texture is turned the right
// way up, as glTF and PNG want it).
//
// Channel values are as stored, scaled to 8 bits; no colour-space
// conversion is made (an sRGB colour texture stays sRGB-encoded). Formats
// with fewer channels read as a shader samples them: missing colour
// channels 0, missing alpha 1 (Alpha8 is (0, 0, 0, a)). 16-bit channels
// keep their high 8 bits; half and float channels are clamped to [0, 1].
// Packed 16-bit pixels (RGB565, ARGB4444, RGBA4444) are little-endian
// words holding the channels in their name's order from the high bits
// down.
//
// It returns an *UnsupportedError for a format it does not decode and an
// error wrapping ErrMalformed when the sizes are out of range or data is
// shorter than the image; it reads nothing past the image's bytes and
// allocates at most 4·w·h bytes beyond it, w·h being bounded by the data
// present.
func Pixels(f Format, w, h int, data []byte) (*image.NRGBA, error) {
	if !f.Supported() {
		return nil, &UnsupportedError{Format: f}
	}
	if w <= 0 || h <= 0 || w > MaxSide || h > MaxSide {
		return nil, fmt.Errorf("%w: %s image of %d×%d pixels", ErrMalformed, f, w, h)
	}
	need, _ := f.Size(w, h)
	if len(data) < need {
		return nil, fmt.Errorf("%w: %s image of %d×%d pixels needs %d bytes, has %d", ErrMalformed, f, w, h, need, len(data))
	}
	data = data[:need]
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	// Unity's row y (from the bottom) is the image's row h-1-y.
	row := func(y int) []uint8 { o := (h - 1 - y) * img.Stride; return img.Pix[o : o+4*w] }
	if l := layouts[f]; l.block > 0 {
		decodeBlocks(f, w, h, data, l, row)
		return img, nil
	}
	le := binary.LittleEndian
	ps := layouts[f].pixel
	for y := 0; y < h; y++ {
		src := data[y*w*ps : (y+1)*w*ps]
		dst := row(y)
		for x := 0; x < w; x++ {
			p := src[x*ps : x*ps+ps]
			var r, g, b, a uint8 = 0, 0, 0, 255
			switch f {
			case Alpha8:
				a = p[0]
			case R8:
				r = p[0]
			case R16:
				r = p[1]
			case RG16:
				r, g = p[0], p[1]
			case RG32:
				r, g = p[1], p[3]
			case RGB24:
				r, g, b = p[0], p[1], p[2]
			case RGB48:
				r, g, b = p[1], p[3], p[5]
			case RGBA32:
				r, g, b, a = p[0], p[1], p[2], p[3]
			case RGBA64:
				r, g, b, a = p[1], p[3], p[5], p[7]
			case ARGB32:
				a, r, g, b = p[0], p[1], p[2], p[3]
			case BGRA32:
				b, g, r, a = p[0], p[1], p[2], p[3]
			case RGB565:
				v := le.Uint16(p)
				r, g, b = expand(uint32(v>>11), 5), expand(uint32(v>>5&0x3f), 6), expand(uint32(v&0x1f), 5)
			case ARGB4444:
				v := le.Uint16(p)
				a, r, g, b = uint8(v>>12)*17, uint8(v>>8&15)*17, uint8(v>>4&15)*17, uint8(v&15)*17
			case RGBA4444:
				v := le.Uint16(p)
				r, g, b, a = uint8(v>>12)*17, uint8(v>>8&15)*17, uint8(v>>4&15)*17, uint8(v&15)*17
			case RHalf:
				r = unit(half(le.Uint16(p)))
			case RGHalf:
				r, g = unit(half(le.Uint16(p))), unit(half(le.Uint16(p[2:])))
			case RGBAHalf:
				r, g, b, a = unit(half(le.Uint16(p))), unit(half(le.Uint16(p[2:]))), unit(half(le.Uint16(p[4:]))), unit(half(le.Uint16(p[6:])))
			case RFloat:
				r = unit(math.Float32frombits(le.Uint32(p)))
			case RGFloat:
				r, g = unit(math.Float32frombits(le.Uint32(p))), unit(math.Float32frombits(le.Uint32(p[4:])))
			case RGBAFloat:
				r, g = unit(math.Float32frombits(le.Uint32(p))), unit(math.Float32frombits(le.Uint32(p[4:])))
				b, a = unit(math.Float32frombits(le.Uint32(p[8:]))), unit(math.Float32frombits(le.Uint32(p[12:])))
			}
			dst[4*x], dst[4*x+1], dst[4*x+2], dst[4*x+3] = r, g, b, a
		}
	}
	return img, nil
}

// expand widens an n-bit channel to 8 bits by replicating its high bits
// into the low ones (v·255/(2^n−1), exact for n = 4, within rounding
// otherwise, as GPUs widen them).
func expand(v uint32, n uint) uint8 {
	return uint8(v<<(8-n) | v>>(2*n-8))
}

// unit scales a value in [0, 1] to a byte, rounding; values outside (and
// NaN) are clamped.
func unit(x float32) uint8 {
	switch {
	case !(x > 0):
		return 0
	case x >= 1:
		return 255
	}
	return uint8(x*255 + 0.5)
}

// half converts an IEEE 754 binary16 value to float32.
func half(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1f
	frac := uint32(h) & 0x3ff
	switch {
	case exp == 0x1f:
		return math.Float32frombits(sign | 0x7f800000 | frac<<13)
	case exp == 0:
		f := float32(frac) / (1 << 24)
		if sign != 0 {
			f = -f
		}
		return f
	}
	return math.Float32frombits(sign | (exp+112)<<23 | frac<<13)
}

// decodeBlocks decodes the blocks of a block-compressed image, block rows
// from the bottom as Unity stores them (each block's own first row is its
// lowest), clipping the blocks at the image's edges.
func decodeBlocks(f Format, w, h int, data []byte, l layout, row func(y int) []uint8) {
	var px [16][4]uint8
	var texels [4 * astcMaxFootprint]uint8
	bw := (w + l.bw - 1) / l.bw
	for by := 0; by < (h+l.bh-1)/l.bh; by++ {
		for bx := 0; bx < bw; bx++ {
			blk := data[(by*bw+bx)*l.block : (by*bw+bx+1)*l.block]
			if isASTC(f) {
				decodeASTC(blk, l.bw, l.bh, false, texels[:])
				for j := 0; j < l.bh && l.bh*by+j < h; j++ {
					dst := row(l.bh*by + j)
					for i := 0; i < l.bw && l.bw*bx+i < w; i++ {
						copy(dst[4*(l.bw*bx+i):4*(l.bw*bx+i)+4], texels[4*(j*l.bw+i):])
					}
				}
				continue
			}
			decode4x4(f, blk, &px)
			for j := 0; j < 4 && 4*by+j < h; j++ {
				dst := row(4*by + j)
				for i := 0; i < 4 && 4*bx+i < w; i++ {
					copy(dst[4*(4*bx+i):4*(4*bx+i)+4], px[4*j+i][:])
				}
			}
		}
	}
}

func isASTC(f Format) bool { return f >= ASTC_4x4 && f <= ASTC_RGBA_12x12 }

// decode4x4 decodes one block of a 4×4-block format into px.
func decode4x4(f Format, blk []byte, px *[16][4]uint8) {
	opaque := func() {
		for i := range px {
			px[i][3] = 255
		}
	}
	switch f {
	case DXT1:
		decodeBC1(blk, px, true)
	case DXT5:
		decodeBC1(blk[8:], px, false)
		decodeBC4(blk, px, 3)
	case BC4:
		*px = [16][4]uint8{}
		decodeBC4(blk, px, 0)
		opaque()
	case BC5:
		*px = [16][4]uint8{}
		decodeBC4(blk, px, 0)
		decodeBC4(blk[8:], px, 1)
		opaque()
	case BC7:
		decodeBC7(blk, px)
	case ETC_RGB4, ETC2_RGB:
		decodeETC2(blk, px, false)
	case ETC2_RGBA1:
		decodeETC2(blk, px, true)
	case ETC2_RGBA8:
		decodeETC2(blk[8:], px, false)
		decodeEACAlpha(blk, px, 3)
	case EAC_R, EAC_R_SIGNED:
		*px = [16][4]uint8{}
		decodeEACChannel(blk, px, 0, f == EAC_R_SIGNED)
		opaque()
	case EAC_RG, EAC_RG_SIGNED:
		*px = [16][4]uint8{}
		decodeEACChannel(blk, px, 0, f == EAC_RG_SIGNED)
		decodeEACChannel(blk[8:], px, 1, f == EAC_RG_SIGNED)
		opaque()
	}
}
