package mesh

import (
	"encoding/binary"
	"fmt"
	"math"
)

// VertexFormat is the storage format of one component of a vertex channel,
// numbered as Unity 2019 and later number it (UnityEngine.Rendering.
// VertexAttributeFormat). Files of earlier versions use other numberings;
// FormatFromVersion maps those.
type VertexFormat uint8

// Vertex component formats (Unity 2019+ numbering).
const (
	FormatFloat VertexFormat = iota
	FormatFloat16
	FormatUNorm8
	FormatSNorm8
	FormatUNorm16
	FormatSNorm16
	FormatUInt8
	FormatSInt8
	FormatUInt16
	FormatSInt16
	FormatUInt32
	FormatSInt32
	numFormats
)

// FormatUnknown is what FormatFromVersion gives for a number its
// numbering does not have; its Size is 0, so the vertex data it is in is
// refused.
const FormatUnknown VertexFormat = 0xff

var formatNames = [...]string{"Float", "Float16", "UNorm8", "SNorm8", "UNorm16", "SNorm16", "UInt8", "SInt8", "UInt16", "SInt16", "UInt32", "SInt32"}

// String returns the name of the value, as messages print it.
func (f VertexFormat) String() string {
	if f < numFormats {
		return formatNames[f]
	}
	return fmt.Sprintf("VertexFormat(%d)", uint8(f))
}

// Size returns the bytes one component takes (0 for an unknown format).
func (f VertexFormat) Size() int {
	switch f {
	case FormatFloat, FormatUInt32, FormatSInt32:
		return 4
	case FormatFloat16, FormatUNorm16, FormatSNorm16, FormatUInt16, FormatSInt16:
		return 2
	case FormatUNorm8, FormatSNorm8, FormatUInt8, FormatSInt8:
		return 1
	}
	return 0
}

// Numbering is one of the ways Unity versions numbered vertex formats in
// m_Channels[].format.
type Numbering uint8

// Unity's vertex format numberings.
const (
	// Numbering2019 is Unity 2019.1 and later's (VertexAttributeFormat,
	// this package's VertexFormat).
	Numbering2019 Numbering = iota
	// Numbering2017 is Unity 2017.1–2018.4's: the 2019 list with a
	// Color (four UNorm8, an RGBA32 colour) inserted at 2.
	Numbering2017
	// Numbering5 is Unity 5.x's: Float, Float16, Color, Byte (UInt8),
	// UInt32.
	Numbering5
)

// String returns the name of the value, as messages print it.
func (n Numbering) String() string {
	switch n {
	case Numbering2019:
		return "Unity 2019+ numbering"
	case Numbering2017:
		return "Unity 2017-2018 numbering"
	case Numbering5:
		return "Unity 5 numbering"
	}
	return fmt.Sprintf("Numbering(%d)", uint8(n))
}

// NumberingOf returns the numbering of files written by Unity major
// version major (0 when unknown: the blanked version of some builds is
// read with the current numbering).
func NumberingOf(major int) Numbering {
	switch {
	case major >= 5 && major < 2017:
		return Numbering5
	case major >= 2017 && major < 2019:
		return Numbering2017
	}
	return Numbering2019
}

// storedColor is the number of the Color format in the numberings before
// 2019's.
const storedColor = 2

// Format maps a stored format number of the numbering to VertexFormat
// (FormatUnknown for a number the numbering does not have). The Color of
// the older numberings maps to UNorm8: it is a colour of four of them.
func (n Numbering) Format(stored uint8) VertexFormat {
	switch n {
	case Numbering5:
		switch stored {
		case 0:
			return FormatFloat
		case 1:
			return FormatFloat16
		case storedColor:
			return FormatUNorm8
		case 3:
			return FormatUInt8
		case 4:
			return FormatUInt32
		}
		return FormatUnknown
	case Numbering2017:
		switch {
		case stored < storedColor:
			return VertexFormat(stored)
		case stored == storedColor:
			return FormatUNorm8
		case stored-1 < uint8(numFormats):
			return VertexFormat(stored - 1)
		}
		return FormatUnknown
	}
	if stored < uint8(numFormats) {
		return VertexFormat(stored)
	}
	return FormatUnknown
}

// FormatFromVersion maps a stored format number of a file written by Unity
// major version major (0 when unknown) to VertexFormat: NumberingOf(major)
// .Format(stored).
func FormatFromVersion(stored uint8, major int) VertexFormat {
	return NumberingOf(major).Format(stored)
}

// Vertex channels, by index in VertexData.Channels: the order of Unity
// 2018's m_VertexData.m_Channels (UnityEngine.Rendering.VertexAttribute).
const (
	ChanPosition = 0
	ChanNormal   = 1
	ChanTangent  = 2
	ChanColor    = 3
	ChanUV0      = 4 // UV0..UV7 are 4..11
	ChanWeights  = 12
	ChanIndices  = 13
	NumChannels  = 14
)

// Stored channel lists. Unity wrote m_Channels with one entry per shader
// channel it knew, so the length tells the list:
//   - 14 (2018.2 on): this package's order, skin weights and indices last;
//   - 12 (2018.1): the same without the two skin channels (the skin is in
//     m_Skin; the 2018.1 scripting reference lists these 12 as
//     Experimental.Rendering.VertexAttribute);
//   - 8 (5.0–2017.4): position, normal, colour, UV0–UV3, tangent (the
//     shader channels of those versions: 5.0 added UV2 and UV3; the skin
//     is in m_Skin).
var (
	order12 = [12]int{ChanPosition, ChanNormal, ChanTangent, ChanColor, ChanUV0, ChanUV0 + 1, ChanUV0 + 2, ChanUV0 + 3, ChanUV0 + 4, ChanUV0 + 5, ChanUV0 + 6, ChanUV0 + 7}
	order8  = [8]int{ChanPosition, ChanNormal, ChanColor, ChanUV0, ChanUV0 + 1, ChanUV0 + 2, ChanUV0 + 3, ChanTangent}
)

// ChannelOrder returns, for a stored m_Channels list of n entries, the
// channel (Chan*) each entry is; ok is false for a length no Unity version
// wrote.
func ChannelOrder(n int) (order []int, ok bool) {
	switch n {
	case NumChannels:
		o := make([]int, NumChannels)
		for i := range o {
			o[i] = i
		}
		return o, true
	case len(order12):
		return order12[:], true
	case len(order8):
		return order8[:], true
	}
	return nil, false
}

// Channel is one vertex attribute's place in the vertex data.
type Channel struct {
	Stream    int
	Offset    int // within a vertex of its stream
	Format    VertexFormat
	Dimension int // components, 0 when the channel is absent
}

// Size returns the bytes of one vertex's value of the channel.
func (c Channel) Size() int { return c.Format.Size() * c.Dimension }

// Stream is where one stream of interleaved vertices lies in the vertex data.
type Stream struct {
	Offset int // byte offset of vertex 0 in the data
	Stride int // bytes per vertex
}

// VertexData is a mesh's raw vertex buffer with the description of its
// channels.
type VertexData struct {
	VertexCount int
	Channels    []Channel // NumChannels entries, indexed by Chan*
	Data        []byte
}

// maxStreams bounds the stream numbers a channel may name (Unity has 4).
const maxStreams = 4

// Streams lays the streams out as Unity does: each stream's vertices are
// interleaved, a stride being the end of its furthest channel; streams
// follow each other in order, each starting on a 16-byte boundary. It
// returns the layout and the number of bytes the streams need, and checks
// that Data holds them.
func (vd *VertexData) Streams() ([]Stream, int, error) {
	if vd.VertexCount < 0 {
		return nil, 0, fmt.Errorf("negative vertex count %d", vd.VertexCount)
	}
	n := 0
	for i, c := range vd.Channels {
		if c.Dimension == 0 {
			continue
		}
		if c.Stream < 0 || c.Stream >= maxStreams {
			return nil, 0, fmt.Errorf("channel %d: stream %d out of range", i, c.Stream)
		}
		if c.Format.Size() == 0 {
			return nil, 0, fmt.Errorf("channel %d: unknown vertex format %d", i, c.Format)
		}
		if c.Dimension < 0 || c.Dimension > 4 || c.Offset < 0 || c.Offset > 255 {
			return nil, 0, fmt.Errorf("channel %d: dimension %d at offset %d out of range", i, c.Dimension, c.Offset)
		}
		if c.Stream+1 > n {
			n = c.Stream + 1
		}
	}
	streams := make([]Stream, n)
	for _, c := range vd.Channels {
		if c.Dimension == 0 {
			continue
		}
		if end := c.Offset + c.Size(); end > streams[c.Stream].Stride {
			streams[c.Stream].Stride = end
		}
	}
	off := 0
	for s := range streams {
		off = (off + 15) &^ 15
		streams[s].Offset = off
		size := int64(streams[s].Stride) * int64(vd.VertexCount)
		if size > int64(len(vd.Data)) || int64(off)+size > int64(len(vd.Data)) {
			return nil, 0, fmt.Errorf("stream %d (%d vertices × %d bytes at %d) runs past the %d bytes of vertex data", s, vd.VertexCount, streams[s].Stride, off, len(vd.Data))
		}
		off += int(size)
	}
	return streams, off, nil
}

// Floats decodes channel ch of every vertex into dst as float32 values,
// dim per vertex (normalised formats scaled to [0,1] or [-1,1], integer
// formats converted by value). It returns dst (reallocated when too short)
// and the channel's dimension; a channel that is absent gives nil, 0.
func (vd *VertexData) Floats(ch int, dst []float32) ([]float32, int, error) {
	if ch < 0 || ch >= len(vd.Channels) || vd.Channels[ch].Dimension == 0 {
		return nil, 0, nil
	}
	streams, _, err := vd.Streams()
	if err != nil {
		return nil, 0, err
	}
	c := vd.Channels[ch]
	s := streams[c.Stream]
	dim, cs := c.Dimension, c.Format.Size()
	n := vd.VertexCount * dim
	if cap(dst) < n {
		dst = make([]float32, n)
	}
	dst = dst[:n]
	le := binary.LittleEndian
	switch c.Format {
	case FormatFloat: // the common case, without a switch per component
		for v := 0; v < vd.VertexCount; v++ {
			b := vd.Data[s.Offset+v*s.Stride+c.Offset:]
			b = b[:4*dim]
			out := dst[v*dim : v*dim+dim]
			for k := range out {
				out[k] = math.Float32frombits(le.Uint32(b[4*k:]))
			}
		}
		return dst, dim, nil
	case FormatFloat16:
		for v := 0; v < vd.VertexCount; v++ {
			b := vd.Data[s.Offset+v*s.Stride+c.Offset:]
			b = b[:2*dim]
			out := dst[v*dim : v*dim+dim]
			for k := range out {
				out[k] = Half(le.Uint16(b[2*k:]))
			}
		}
		return dst, dim, nil
	}
	for v := 0; v < vd.VertexCount; v++ {
		p := s.Offset + v*s.Stride + c.Offset
		out := dst[v*dim : v*dim+dim]
		for k := range out {
			b := vd.Data[p+k*cs:]
			var x float32
			switch c.Format {
			case FormatFloat:
				x = math.Float32frombits(le.Uint32(b))
			case FormatFloat16:
				x = Half(le.Uint16(b))
			case FormatUNorm8:
				x = float32(b[0]) / 255
			case FormatSNorm8:
				x = max(float32(int8(b[0]))/127, -1)
			case FormatUNorm16:
				x = float32(le.Uint16(b)) / 65535
			case FormatSNorm16:
				x = max(float32(int16(le.Uint16(b)))/32767, -1)
			case FormatUInt8:
				x = float32(b[0])
			case FormatSInt8:
				x = float32(int8(b[0]))
			case FormatUInt16:
				x = float32(le.Uint16(b))
			case FormatSInt16:
				x = float32(int16(le.Uint16(b)))
			case FormatUInt32:
				x = float32(le.Uint32(b))
			case FormatSInt32:
				x = float32(int32(le.Uint32(b)))
			}
			out[k] = x
		}
	}
	return dst, dim, nil
}

// Uints decodes an integer channel (blend indices) of every vertex, dim per
// vertex; float channels are converted by value.
func (vd *VertexData) Uints(ch int) ([]uint32, int, error) {
	if ch < 0 || ch >= len(vd.Channels) || vd.Channels[ch].Dimension == 0 {
		return nil, 0, nil
	}
	c := vd.Channels[ch]
	switch c.Format {
	case FormatUInt8, FormatUInt16, FormatUInt32, FormatSInt8, FormatSInt16, FormatSInt32:
	default:
		f, dim, err := vd.Floats(ch, nil)
		if err != nil {
			return nil, 0, err
		}
		out := make([]uint32, len(f))
		for i, x := range f {
			if x > 0 {
				out[i] = uint32(x)
			}
		}
		return out, dim, nil
	}
	streams, _, err := vd.Streams()
	if err != nil {
		return nil, 0, err
	}
	s := streams[c.Stream]
	dim, cs := c.Dimension, c.Format.Size()
	out := make([]uint32, vd.VertexCount*dim)
	le := binary.LittleEndian
	for v := 0; v < vd.VertexCount; v++ {
		p := s.Offset + v*s.Stride + c.Offset
		for k := 0; k < dim; k++ {
			b := vd.Data[p+k*cs:]
			var x uint32
			switch cs {
			case 1:
				x = uint32(b[0])
			case 2:
				x = uint32(le.Uint16(b))
			default:
				x = le.Uint32(b)
			}
			out[v*dim+k] = x
		}
	}
	return out, dim, nil
}

// Half converts an IEEE 754 binary16 value to float32.
func Half(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1f
	frac := uint32(h) & 0x3ff
	switch {
	case exp == 0x1f: // inf, NaN
		return math.Float32frombits(sign | 0x7f800000 | frac<<13)
	case exp == 0:
		if frac == 0 {
			return math.Float32frombits(sign)
		}
		// Subnormal: value = frac * 2^-24.
		f := float32(frac) * (1.0 / (1 << 24))
		if sign != 0 {
			f = -f
		}
		return f
	}
	return math.Float32frombits(sign | (exp+112)<<23 | frac<<13)
}
