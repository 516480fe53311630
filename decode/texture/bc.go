package texture

import "encoding/binary"

// decodeBC1 decodes a BC1 colour block (S3TC; Khronos Data Format
// Specification, "S3TC Compressed Texture Image Formats") into px, opaque.
// threeColour allows the block's second mode (colour0 ≤ colour1: one
// interpolated colour and black), which BC1 has and the colour blocks of
// BC2/BC3 do not. Unity's DXT1 is BC1 without alpha, so that black is
// opaque. Interpolated values are rounded to the nearest 8-bit value.
func decodeBC1(b []byte, px *[16][4]uint8, threeColour bool) {
	c0, c1 := binary.LittleEndian.Uint16(b), binary.LittleEndian.Uint16(b[2:])
	bits := binary.LittleEndian.Uint32(b[4:])
	var pal [4][4]uint8
	pal[0] = rgb565(c0)
	pal[1] = rgb565(c1)
	for k := range 3 {
		a, c := uint32(pal[0][k]), uint32(pal[1][k])
		if c0 > c1 || !threeColour {
			pal[2][k] = uint8((2*a + c + 1) / 3)
			pal[3][k] = uint8((a + 2*c + 1) / 3)
		} else {
			pal[2][k] = uint8((a + c + 1) / 2)
			pal[3][k] = 0
		}
	}
	pal[2][3], pal[3][3] = 255, 255
	for i := range px {
		px[i] = pal[bits>>(2*i)&3]
	}
}

// rgb565 widens a 5:6:5 colour (red in the high bits) to 8 bits a channel,
// opaque.
func rgb565(c uint16) [4]uint8 {
	return [4]uint8{expand(uint32(c>>11), 5), expand(uint32(c>>5&0x3f), 6), expand(uint32(c&0x1f), 5), 255}
}

// decodeBC4 decodes a BC3 alpha block (two 8-bit endpoints and 3-bit codes;
// BC4's red block is the same) into channel ch of px. Interpolated values
// are rounded to the nearest 8-bit value.
func decodeBC4(b []byte, px *[16][4]uint8, ch int) {
	a0, a1 := uint32(b[0]), uint32(b[1])
	var pal [8]uint8
	pal[0], pal[1] = b[0], b[1]
	if a0 > a1 {
		for i := uint32(1); i < 7; i++ {
			pal[i+1] = uint8(((7-i)*a0 + i*a1 + 3) / 7)
		}
	} else {
		for i := uint32(1); i < 5; i++ {
			pal[i+1] = uint8(((5-i)*a0 + i*a1 + 2) / 5)
		}
		pal[6], pal[7] = 0, 255
	}
	var bits uint64
	for k := 5; k >= 0; k-- {
		bits = bits<<8 | uint64(b[2+k])
	}
	for i := range px {
		px[i][ch] = pal[bits>>(3*i)&7]
	}
}
