package texture

import "fmt"

// Format is Unity's TextureFormat: how a Texture2D's pixels are stored
// (m_TextureFormat).
type Format int32

// Unity's texture formats, by their TextureFormat numbers.
const (
	Alpha8             Format = 1
	ARGB4444           Format = 2
	RGB24              Format = 3
	RGBA32             Format = 4
	ARGB32             Format = 5
	RGB565             Format = 7
	R16                Format = 9
	DXT1               Format = 10 // BC1
	DXT5               Format = 12 // BC3
	RGBA4444           Format = 13
	BGRA32             Format = 14
	RHalf              Format = 15
	RGHalf             Format = 16
	RGBAHalf           Format = 17
	RFloat             Format = 18
	RGFloat            Format = 19
	RGBAFloat          Format = 20
	YUY2               Format = 21
	RGB9e5Float        Format = 22
	BC6H               Format = 24
	BC7                Format = 25
	BC4                Format = 26
	BC5                Format = 27
	DXT1Crunched       Format = 28
	DXT5Crunched       Format = 29
	PVRTC_RGB2         Format = 30
	PVRTC_RGBA2        Format = 31
	PVRTC_RGB4         Format = 32
	PVRTC_RGBA4        Format = 33
	ETC_RGB4           Format = 34
	ATC_RGB4           Format = 35
	ATC_RGBA8          Format = 36
	EAC_R              Format = 41
	EAC_R_SIGNED       Format = 42
	EAC_RG             Format = 43
	EAC_RG_SIGNED      Format = 44
	ETC2_RGB           Format = 45
	ETC2_RGBA1         Format = 46
	ETC2_RGBA8         Format = 47
	ASTC_4x4           Format = 48
	ASTC_5x5           Format = 49
	ASTC_6x6           Format = 50
	ASTC_8x8           Format = 51
	ASTC_10x10         Format = 52
	ASTC_12x12         Format = 53
	ASTC_RGBA_4x4      Format = 54
	ASTC_RGBA_5x5      Format = 55
	ASTC_RGBA_6x6      Format = 56
	ASTC_RGBA_8x8      Format = 57
	ASTC_RGBA_10x10    Format = 58
	ASTC_RGBA_12x12    Format = 59
	ETC_RGB4_3DS       Format = 60
	ETC_RGBA8_3DS      Format = 61
	RG16               Format = 62
	R8                 Format = 63
	ETC_RGB4Crunched   Format = 64
	ETC2_RGBA8Crunched Format = 65
	ASTC_HDR_4x4       Format = 66
	ASTC_HDR_5x5       Format = 67
	ASTC_HDR_6x6       Format = 68
	ASTC_HDR_8x8       Format = 69
	ASTC_HDR_10x10     Format = 70
	ASTC_HDR_12x12     Format = 71
	RG32               Format = 72
	RGB48              Format = 73
	RGBA64             Format = 74
)

var formatNames = map[Format]string{
	Alpha8: "Alpha8", ARGB4444: "ARGB4444", RGB24: "RGB24", RGBA32: "RGBA32", ARGB32: "ARGB32",
	RGB565: "RGB565", R16: "R16", DXT1: "DXT1", DXT5: "DXT5", RGBA4444: "RGBA4444", BGRA32: "BGRA32",
	RHalf: "RHalf", RGHalf: "RGHalf", RGBAHalf: "RGBAHalf", RFloat: "RFloat", RGFloat: "RGFloat",
	RGBAFloat: "RGBAFloat", YUY2: "YUY2", RGB9e5Float: "RGB9e5Float", BC6H: "BC6H", BC7: "BC7",
	BC4: "BC4", BC5: "BC5", DXT1Crunched: "DXT1Crunched", DXT5Crunched: "DXT5Crunched",
	PVRTC_RGB2: "PVRTC_RGB2", PVRTC_RGBA2: "PVRTC_RGBA2", PVRTC_RGB4: "PVRTC_RGB4", PVRTC_RGBA4: "PVRTC_RGBA4",
	ETC_RGB4: "ETC_RGB4", ATC_RGB4: "ATC_RGB4", ATC_RGBA8: "ATC_RGBA8",
	EAC_R: "EAC_R", EAC_R_SIGNED: "EAC_R_SIGNED", EAC_RG: "EAC_RG", EAC_RG_SIGNED: "EAC_RG_SIGNED",
	ETC2_RGB: "ETC2_RGB", ETC2_RGBA1: "ETC2_RGBA1", ETC2_RGBA8: "ETC2_RGBA8",
	ASTC_4x4: "ASTC_4x4", ASTC_5x5: "ASTC_5x5", ASTC_6x6: "ASTC_6x6", ASTC_8x8: "ASTC_8x8",
	ASTC_10x10: "ASTC_10x10", ASTC_12x12: "ASTC_12x12",
	ASTC_RGBA_4x4: "ASTC_RGBA_4x4", ASTC_RGBA_5x5: "ASTC_RGBA_5x5", ASTC_RGBA_6x6: "ASTC_RGBA_6x6",
	ASTC_RGBA_8x8: "ASTC_RGBA_8x8", ASTC_RGBA_10x10: "ASTC_RGBA_10x10", ASTC_RGBA_12x12: "ASTC_RGBA_12x12",
	ETC_RGB4_3DS: "ETC_RGB4_3DS", ETC_RGBA8_3DS: "ETC_RGBA8_3DS", RG16: "RG16", R8: "R8",
	ETC_RGB4Crunched: "ETC_RGB4Crunched", ETC2_RGBA8Crunched: "ETC2_RGBA8Crunched",
	ASTC_HDR_4x4: "ASTC_HDR_4x4", ASTC_HDR_5x5: "ASTC_HDR_5x5", ASTC_HDR_6x6: "ASTC_HDR_6x6",
	ASTC_HDR_8x8: "ASTC_HDR_8x8", ASTC_HDR_10x10: "ASTC_HDR_10x10", ASTC_HDR_12x12: "ASTC_HDR_12x12",
	RG32: "RG32", RGB48: "RGB48", RGBA64: "RGBA64",
}

// String returns Unity's name of the format (TextureFormat(n) for a number
// Unity does not name).
func (f Format) String() string {
	if s, ok := formatNames[f]; ok {
		return s
	}
	return fmt.Sprintf("TextureFormat(%d)", int32(f))
}

// layout is how a format decoded here stores its pixels: bytes per pixel,
// or, for block formats, bytes per block of bw×bh texels.
type layout struct {
	pixel  int // bytes per pixel (0 for block formats)
	block  int // bytes per block (0 for pixel formats)
	bw, bh int // block footprint in texels
}

var layouts = map[Format]layout{
	Alpha8: {pixel: 1}, R8: {pixel: 1},
	ARGB4444: {pixel: 2}, RGBA4444: {pixel: 2}, RGB565: {pixel: 2}, R16: {pixel: 2}, RG16: {pixel: 2}, RHalf: {pixel: 2},
	RGB24:  {pixel: 3},
	RGBA32: {pixel: 4}, ARGB32: {pixel: 4}, BGRA32: {pixel: 4}, RGHalf: {pixel: 4}, RFloat: {pixel: 4}, RG32: {pixel: 4},
	RGB48:    {pixel: 6},
	RGBAHalf: {pixel: 8}, RGFloat: {pixel: 8}, RGBA64: {pixel: 8},
	RGBAFloat: {pixel: 16},
	DXT1:      {block: 8, bw: 4, bh: 4}, BC4: {block: 8, bw: 4, bh: 4},
	DXT5: {block: 16, bw: 4, bh: 4}, BC5: {block: 16, bw: 4, bh: 4}, BC7: {block: 16, bw: 4, bh: 4},
	ETC_RGB4: {block: 8, bw: 4, bh: 4}, ETC2_RGB: {block: 8, bw: 4, bh: 4}, ETC2_RGBA1: {block: 8, bw: 4, bh: 4},
	ETC2_RGBA8: {block: 16, bw: 4, bh: 4},
	EAC_R:      {block: 8, bw: 4, bh: 4}, EAC_R_SIGNED: {block: 8, bw: 4, bh: 4},
	EAC_RG: {block: 16, bw: 4, bh: 4}, EAC_RG_SIGNED: {block: 16, bw: 4, bh: 4},
	ASTC_4x4: {block: 16, bw: 4, bh: 4}, ASTC_5x5: {block: 16, bw: 5, bh: 5}, ASTC_6x6: {block: 16, bw: 6, bh: 6},
	ASTC_8x8: {block: 16, bw: 8, bh: 8}, ASTC_10x10: {block: 16, bw: 10, bh: 10}, ASTC_12x12: {block: 16, bw: 12, bh: 12},
	ASTC_RGBA_4x4: {block: 16, bw: 4, bh: 4}, ASTC_RGBA_5x5: {block: 16, bw: 5, bh: 5}, ASTC_RGBA_6x6: {block: 16, bw: 6, bh: 6},
	ASTC_RGBA_8x8: {block: 16, bw: 8, bh: 8}, ASTC_RGBA_10x10: {block: 16, bw: 10, bh: 10}, ASTC_RGBA_12x12: {block: 16, bw: 12, bh: 12},
}

// Supported reports whether this package decodes the format's pixels.
func (f Format) Supported() bool {
	_, ok := layouts[f]
	return ok
}

// Crunched reports whether the format is one of Unity's crunch-compressed
// ones (a second, variable-length compression over DXT or ETC blocks),
// which this package does not decode.
func (f Format) Crunched() bool {
	switch f {
	case DXT1Crunched, DXT5Crunched, ETC_RGB4Crunched, ETC2_RGBA8Crunched:
		return true
	}
	return false
}

// Size returns the bytes of one w×h image of the format (a mip level), and
// false for a format this package does not decode or a size that does not
// fit an int.
func (f Format) Size(w, h int) (int, bool) {
	l, ok := layouts[f]
	if !ok || w < 0 || h < 0 || w > MaxSide || h > MaxSide {
		return 0, false
	}
	if l.block > 0 {
		return ((w + l.bw - 1) / l.bw) * ((h + l.bh - 1) / l.bh) * l.block, true
	}
	return w * h * l.pixel, true
}

// MaxSide is the largest width or height decoded (Unity's own limit is
// 16384).
const MaxSide = 1 << 15
