package typetree

import (
	"encoding/binary"
	"math"
)

// Kind is the shape of a decoded value.
type Kind uint8

// Value kinds.
const (
	KindInvalid Kind = iota // the nil *Value (a missing field)
	KindStruct              // named fields in tree order
	KindBool
	KindInt    // signed integer of any width
	KindUint   // unsigned integer of any width
	KindFloat  // float or double
	KindString // string
	KindArray  // array, vector, map (of pairs), set, staticvector, TypelessData
	KindBlob   // raw bytes of a fixed-size field whose type is not a known primitive
)

// String returns the name of the value, as messages print it.
func (k Kind) String() string {
	return [...]string{"invalid", "struct", "bool", "int", "uint", "float", "string", "array", "blob"}[k]
}

// Value is one decoded field: a struct of named fields, a scalar, a string or
// an array. Arrays of unaligned primitives are stored packed (the object's
// bytes, not copied) and read through the bulk accessors (Float32s, Uint32s,
// Bytes …) or element by element with Index.
//
// Unity wraps every array in a node of its own (vector, map, set,
// staticvector → Array → size, data); the value of such a field is the
// array itself, so v.Field("m_Component").Len() counts the components and
// Index(i) is element i (for a map, a pair struct with "first" and
// "second"). A string field is a string, not an array of char.
//
// All methods accept a nil *Value (a missing field) and then return zero
// values, so lookups chain: v.Path("m_MuscleClip", "m_Clip").Field("data").Len().
// Use Lookup or Has when a missing field must be told from a zero one.
//
// A Value refers to the byte slice it was decoded from; do not modify that
// slice while the Value is in use.
type Value struct {
	node  *Node
	kind  Kind
	prim  Prim // scalars: the primitive; packed arrays: the element primitive
	big   bool // packed arrays: big-endian bytes
	num   uint64
	str   string
	elems []Value // struct fields or (unpacked) array elements
	raw   []byte  // packed array bytes or a blob
	elem  *Node   // arrays: the element ("data") node
}

// Node returns the type-tree node the value was decoded with (for a vector,
// map etc. the outer node; for an array element the "data" node).
func (v *Value) Node() *Node {
	if v == nil {
		return nil
	}
	return v.node
}

// Name returns the field name ("m_Name", "data", ...).
func (v *Value) Name() string {
	if v == nil || v.node == nil {
		return ""
	}
	return v.node.Name
}

// Type returns the Unity type name ("float", "vector", "PPtr<Transform>", ...).
func (v *Value) Type() string {
	if v == nil || v.node == nil {
		return ""
	}
	return v.node.Type
}

// Kind returns the value's shape; KindInvalid for nil.
func (v *Value) Kind() Kind {
	if v == nil {
		return KindInvalid
	}
	return v.kind
}

// Prim returns the primitive kind of a scalar, or of a packed array's elements.
func (v *Value) Prim() Prim {
	if v == nil {
		return PrimNone
	}
	return v.prim
}

// Packed reports whether v is an array of primitives stored packed.
func (v *Value) Packed() bool { return v != nil && v.kind == KindArray && v.prim != PrimNone }

// ElemNode returns an array's element node (nil for non-arrays).
func (v *Value) ElemNode() *Node {
	if v == nil {
		return nil
	}
	return v.elem
}

// Field returns the struct field with the given name, or nil.
func (v *Value) Field(name string) *Value {
	if v == nil || v.kind != KindStruct {
		return nil
	}
	for i := range v.elems {
		if v.elems[i].node.Name == name {
			return &v.elems[i]
		}
	}
	return nil
}

// Lookup is Field with an explicit found flag.
func (v *Value) Lookup(name string) (*Value, bool) {
	f := v.Field(name)
	return f, f != nil
}

// Has reports whether v is a struct with the named field.
func (v *Value) Has(name string) bool { return v.Field(name) != nil }

// Path follows a chain of field names; nil if any is missing.
func (v *Value) Path(names ...string) *Value {
	for _, n := range names {
		v = v.Field(n)
		if v == nil {
			return nil
		}
	}
	return v
}

// Fields returns a struct's fields in tree order (nil otherwise). The slice
// is the value's own: do not modify it.
func (v *Value) Fields() []Value {
	if v == nil || v.kind != KindStruct {
		return nil
	}
	return v.elems
}

// Len returns the number of elements of an array, bytes of a string or blob,
// or fields of a struct.
func (v *Value) Len() int {
	if v == nil {
		return 0
	}
	switch v.kind {
	case KindArray:
		if v.prim != PrimNone {
			return len(v.raw) / v.prim.Size()
		}
		return len(v.elems)
	case KindStruct:
		return len(v.elems)
	case KindString:
		return len(v.str)
	case KindBlob:
		return len(v.raw)
	}
	return 0
}

// Index returns element i of an array (nil when out of range). For packed
// arrays it builds a new scalar Value; prefer the bulk accessors there.
func (v *Value) Index(i int) *Value {
	if v == nil || v.kind != KindArray || i < 0 {
		return nil
	}
	if v.prim == PrimNone {
		if i >= len(v.elems) {
			return nil
		}
		return &v.elems[i]
	}
	sz := v.prim.Size()
	if i >= len(v.raw)/sz {
		return nil
	}
	e := &Value{node: v.elem}
	e.setPrim(v.prim, v.raw[i*sz:], v.big)
	return e
}

// Elems returns an unpacked array's elements (nil for packed arrays and
// non-arrays). The slice is the value's own: do not modify it.
func (v *Value) Elems() []Value {
	if v == nil || v.kind != KindArray || v.prim != PrimNone {
		return nil
	}
	return v.elems
}

// setPrim decodes a primitive from b (which holds at least p.Size() bytes).
func (v *Value) setPrim(p Prim, b []byte, big bool) {
	v.prim = p
	var u uint64
	switch p.Size() {
	case 1:
		u = uint64(b[0])
	case 2:
		if big {
			u = uint64(binary.BigEndian.Uint16(b))
		} else {
			u = uint64(binary.LittleEndian.Uint16(b))
		}
	case 4:
		if big {
			u = uint64(binary.BigEndian.Uint32(b))
		} else {
			u = uint64(binary.LittleEndian.Uint32(b))
		}
	case 8:
		if big {
			u = binary.BigEndian.Uint64(b)
		} else {
			u = binary.LittleEndian.Uint64(b)
		}
	}
	switch p {
	case PrimBool:
		v.kind = KindBool
	case PrimInt8:
		v.kind, u = KindInt, uint64(int64(int8(u)))
	case PrimInt16:
		v.kind, u = KindInt, uint64(int64(int16(u)))
	case PrimInt32:
		v.kind, u = KindInt, uint64(int64(int32(u)))
	case PrimInt64:
		v.kind = KindInt
	case PrimUint8, PrimUint16, PrimUint32, PrimUint64:
		v.kind = KindUint
	case PrimFloat32:
		v.kind, u = KindFloat, math.Float64bits(float64(math.Float32frombits(uint32(u))))
	case PrimFloat64:
		v.kind = KindFloat
	}
	v.num = u
}

// Int returns a numeric value as int64 (floats truncated, bools 0/1).
func (v *Value) Int() int64 {
	if v == nil {
		return 0
	}
	switch v.kind {
	case KindInt, KindUint, KindBool:
		return int64(v.num)
	case KindFloat:
		return int64(math.Float64frombits(v.num))
	}
	return 0
}

// Uint returns a numeric value as uint64 (floats truncated, bools 0/1).
func (v *Value) Uint() uint64 {
	if v == nil {
		return 0
	}
	switch v.kind {
	case KindInt, KindUint, KindBool:
		return v.num
	case KindFloat:
		return uint64(math.Float64frombits(v.num))
	}
	return 0
}

// Float returns a numeric value as float64 (a float field's value exactly).
func (v *Value) Float() float64 {
	if v == nil {
		return 0
	}
	switch v.kind {
	case KindFloat:
		return math.Float64frombits(v.num)
	case KindInt:
		return float64(int64(v.num))
	case KindUint, KindBool:
		return float64(v.num)
	}
	return 0
}

// Float32 returns Float() as float32 (exact for float fields).
func (v *Value) Float32() float32 { return float32(v.Float()) }

// Bool returns a bool field's value (or whether a number is non-zero).
func (v *Value) Bool() bool {
	if v == nil {
		return false
	}
	switch v.kind {
	case KindBool, KindInt, KindUint:
		return v.num != 0
	case KindFloat:
		return math.Float64frombits(v.num) != 0
	}
	return false
}

// Str returns a string field's value ("" otherwise). Unity strings are bytes
// and are returned unchanged (not necessarily valid UTF-8).
func (v *Value) Str() string {
	if v == nil || v.kind != KindString {
		return ""
	}
	return v.str
}

// Bytes returns the bytes of a packed array of 1-byte elements (UInt8, SInt8,
// char, bool: e.g. TypelessData, m_PlatformBlob), of a blob, or of a string.
// The slice refers to the decoded data; do not modify it.
func (v *Value) Bytes() []byte {
	if v == nil {
		return nil
	}
	switch v.kind {
	case KindArray:
		if v.prim.Size() == 1 {
			return v.raw
		}
	case KindBlob:
		return v.raw
	case KindString:
		return []byte(v.str)
	}
	return nil
}

// PPtr returns the m_FileID and m_PathID fields of a PPtr value.
func (v *Value) PPtr() (fileID int32, pathID int64, ok bool) {
	f, p := v.Field("m_FileID"), v.Field("m_PathID")
	if f == nil || p == nil {
		return 0, 0, false
	}
	return int32(f.Int()), p.Int(), true
}

// packedOf returns the raw bytes when v is a packed array of exactly p.
func (v *Value) packedOf(p ...Prim) ([]byte, bool) {
	if v == nil || v.kind != KindArray {
		return nil, false
	}
	for _, q := range p {
		if v.prim == q {
			return v.raw, true
		}
	}
	return nil, false
}

// Float32s returns a packed float array as a new []float32 (nil when v is
// not an array of float).
func (v *Value) Float32s() []float32 {
	b, ok := v.packedOf(PrimFloat32)
	if !ok {
		return nil
	}
	out := make([]float32, len(b)/4)
	if v.big {
		for i := range out {
			out[i] = math.Float32frombits(binary.BigEndian.Uint32(b[4*i:]))
		}
	} else {
		for i := range out {
			out[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
		}
	}
	return out
}

// Float64s returns a packed double array as a new []float64.
func (v *Value) Float64s() []float64 {
	u := v.u64s(PrimFloat64)
	if u == nil {
		return nil
	}
	out := make([]float64, len(u))
	for i, x := range u {
		out[i] = math.Float64frombits(x)
	}
	return out
}

// Uint32s returns a packed array of 32-bit integers (either signedness) as a new []uint32.
func (v *Value) Uint32s() []uint32 {
	b, ok := v.packedOf(PrimUint32, PrimInt32)
	if !ok {
		return nil
	}
	out := make([]uint32, len(b)/4)
	if v.big {
		for i := range out {
			out[i] = binary.BigEndian.Uint32(b[4*i:])
		}
	} else {
		for i := range out {
			out[i] = binary.LittleEndian.Uint32(b[4*i:])
		}
	}
	return out
}

// Int32s returns a packed array of 32-bit integers (either signedness) as a new []int32.
func (v *Value) Int32s() []int32 {
	u := v.Uint32s()
	if u == nil {
		return nil
	}
	out := make([]int32, len(u))
	for i, x := range u {
		out[i] = int32(x)
	}
	return out
}

// Uint16s returns a packed array of 16-bit integers (either signedness) as a new []uint16.
func (v *Value) Uint16s() []uint16 {
	b, ok := v.packedOf(PrimUint16, PrimInt16)
	if !ok {
		return nil
	}
	out := make([]uint16, len(b)/2)
	for i := range out {
		if v.big {
			out[i] = binary.BigEndian.Uint16(b[2*i:])
		} else {
			out[i] = binary.LittleEndian.Uint16(b[2*i:])
		}
	}
	return out
}

// Int16s returns a packed array of 16-bit integers (either signedness) as a new []int16.
func (v *Value) Int16s() []int16 {
	u := v.Uint16s()
	if u == nil {
		return nil
	}
	out := make([]int16, len(u))
	for i, x := range u {
		out[i] = int16(x)
	}
	return out
}

func (v *Value) u64s(p ...Prim) []uint64 {
	b, ok := v.packedOf(p...)
	if !ok {
		return nil
	}
	out := make([]uint64, len(b)/8)
	for i := range out {
		if v.big {
			out[i] = binary.BigEndian.Uint64(b[8*i:])
		} else {
			out[i] = binary.LittleEndian.Uint64(b[8*i:])
		}
	}
	return out
}

// Uint64s returns a packed array of 64-bit integers (either signedness) as a new []uint64.
func (v *Value) Uint64s() []uint64 { return v.u64s(PrimUint64, PrimInt64) }

// Int64s returns a packed array of 64-bit integers (either signedness) as a new []int64.
func (v *Value) Int64s() []int64 {
	u := v.u64s(PrimUint64, PrimInt64)
	if u == nil {
		return nil
	}
	out := make([]int64, len(u))
	for i, x := range u {
		out[i] = int64(x)
	}
	return out
}

// Bools returns a packed bool array as a new []bool.
func (v *Value) Bools() []bool {
	b, ok := v.packedOf(PrimBool)
	if !ok {
		return nil
	}
	out := make([]bool, len(b))
	for i, x := range b {
		out[i] = x != 0
	}
	return out
}

// Strings returns an array of strings as a new []string (nil when v is not
// an array whose elements are strings).
func (v *Value) Strings() []string {
	if v == nil || v.kind != KindArray || v.prim != PrimNone {
		return nil
	}
	out := make([]string, len(v.elems))
	for i := range v.elems {
		if v.elems[i].kind != KindString {
			return nil
		}
		out[i] = v.elems[i].str
	}
	return out
}
