package typetree

import (
	"encoding/base64"
	"encoding/binary"
	"io"
	"math"
	"strconv"
	"unicode/utf8"
)

// WriteJSON writes v as JSON: a struct becomes an object whose keys are the
// type tree's field names in tree order; arrays (vector, map, set, …) become
// arrays; integers are written exactly (64-bit included); floats in their
// shortest round-trip form for their width (float fields as 32-bit), with
// NaN and the infinities as the strings "NaN", "Infinity" and "-Infinity";
// UInt8 arrays (TypelessData, byte vectors) and blobs as base64 strings.
// Strings that are not valid UTF-8 have their bad bytes replaced by U+FFFD.
func WriteJSON(w io.Writer, v *Value) error {
	jw := jsonWriter{w: w, buf: make([]byte, 0, 64<<10)}
	jw.value(v)
	jw.buf = append(jw.buf, '\n')
	jw.flush()
	return jw.err
}

type jsonWriter struct {
	w   io.Writer
	buf []byte
	err error
}

func (j *jsonWriter) flush() {
	if j.err == nil && len(j.buf) > 0 {
		_, j.err = j.w.Write(j.buf)
	}
	j.buf = j.buf[:0]
}

func (j *jsonWriter) maybeFlush() {
	if len(j.buf) > 48<<10 {
		j.flush()
	}
}

func (j *jsonWriter) value(v *Value) {
	j.maybeFlush()
	switch v.Kind() {
	case KindInvalid:
		j.buf = append(j.buf, "null"...)
	case KindStruct:
		j.buf = append(j.buf, '{')
		for i := range v.elems {
			if i > 0 {
				j.buf = append(j.buf, ',')
			}
			j.buf = appendJSONString(j.buf, v.elems[i].node.Name)
			j.buf = append(j.buf, ':')
			j.value(&v.elems[i])
		}
		j.buf = append(j.buf, '}')
	case KindBool:
		j.buf = strconv.AppendBool(j.buf, v.num != 0)
	case KindInt:
		j.buf = strconv.AppendInt(j.buf, int64(v.num), 10)
	case KindUint:
		j.buf = strconv.AppendUint(j.buf, v.num, 10)
	case KindFloat:
		j.buf = appendJSONFloat(j.buf, math.Float64frombits(v.num), v.prim == PrimFloat32)
	case KindString:
		j.buf = appendJSONString(j.buf, v.str)
	case KindBlob:
		j.base64(v.raw)
	case KindArray:
		if v.prim == PrimNone {
			j.buf = append(j.buf, '[')
			for i := range v.elems {
				if i > 0 {
					j.buf = append(j.buf, ',')
				}
				j.value(&v.elems[i])
			}
			j.buf = append(j.buf, ']')
			return
		}
		if v.prim == PrimUint8 {
			j.base64(v.raw)
			return
		}
		j.packed(v)
	}
}

func (j *jsonWriter) base64(b []byte) {
	j.buf = append(j.buf, '"')
	// Encode in chunks (multiples of 3 bytes) to bound the buffer.
	const chunk = 3 * 8192
	for len(b) > 0 {
		n := min(len(b), chunk)
		j.buf = base64.StdEncoding.AppendEncode(j.buf, b[:n])
		b = b[n:]
		j.maybeFlush()
	}
	j.buf = append(j.buf, '"')
}

func (j *jsonWriter) packed(v *Value) {
	sz := v.prim.Size()
	var bo binary.ByteOrder = binary.LittleEndian
	if v.big {
		bo = binary.BigEndian
	}
	j.buf = append(j.buf, '[')
	for i := 0; i+sz <= len(v.raw); i += sz {
		if i > 0 {
			j.buf = append(j.buf, ',')
		}
		b := v.raw[i:]
		switch v.prim {
		case PrimBool:
			j.buf = strconv.AppendBool(j.buf, b[0] != 0)
		case PrimInt8:
			j.buf = strconv.AppendInt(j.buf, int64(int8(b[0])), 10)
		case PrimInt16:
			j.buf = strconv.AppendInt(j.buf, int64(int16(bo.Uint16(b))), 10)
		case PrimUint16:
			j.buf = strconv.AppendUint(j.buf, uint64(bo.Uint16(b)), 10)
		case PrimInt32:
			j.buf = strconv.AppendInt(j.buf, int64(int32(bo.Uint32(b))), 10)
		case PrimUint32:
			j.buf = strconv.AppendUint(j.buf, uint64(bo.Uint32(b)), 10)
		case PrimInt64:
			j.buf = strconv.AppendInt(j.buf, int64(bo.Uint64(b)), 10)
		case PrimUint64:
			j.buf = strconv.AppendUint(j.buf, bo.Uint64(b), 10)
		case PrimFloat32:
			j.buf = appendJSONFloat(j.buf, float64(math.Float32frombits(bo.Uint32(b))), true)
		case PrimFloat64:
			j.buf = appendJSONFloat(j.buf, math.Float64frombits(bo.Uint64(b)), false)
		}
		j.maybeFlush()
	}
	j.buf = append(j.buf, ']')
}

// appendJSONFloat writes f in shortest round-trip form for its width.
func appendJSONFloat(b []byte, f float64, is32 bool) []byte {
	switch {
	case math.IsNaN(f):
		return append(b, `"NaN"`...)
	case math.IsInf(f, 1):
		return append(b, `"Infinity"`...)
	case math.IsInf(f, -1):
		return append(b, `"-Infinity"`...)
	}
	bits := 64
	if is32 {
		bits = 32
	}
	return strconv.AppendFloat(b, f, 'g', -1, bits)
}

const hexDigits = "0123456789abcdef"

// appendJSONString writes s as a JSON string literal.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		// U+2028 and U+2029 are valid JSON but break JavaScript; escape them.
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
