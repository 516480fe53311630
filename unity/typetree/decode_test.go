package typetree

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
)

// nd builds a node.
func nd(level int, typ, name string, size int32, flags uint32) Node {
	n := Node{Level: level, Type: typ, Name: name, ByteSize: size, Flags: flags}
	if typ == "Array" || typ == "TypelessData" {
		n.TypeFlags = 1
	}
	return n
}

// strNodes is a string field at level (aligned after, as Unity writes them).
func strNodes(level int, name string) []Node {
	return []Node{
		nd(level, "string", name, -1, 0x8000),
		nd(level+1, "Array", "Array", -1, FlagAlign),
		nd(level+2, "int", "size", 4, 0),
		nd(level+2, "char", "data", 1, 0),
	}
}

// vecNodes is a vector<elem> field at level; elem nodes follow at level+2.
func vecNodes(level int, name string, flags uint32, elem ...Node) []Node {
	ns := []Node{
		nd(level, "vector", name, -1, flags),
		nd(level+1, "Array", "Array", -1, flags),
		nd(level+2, "int", "size", 4, 0),
	}
	return append(ns, elem...)
}

func tree(parts ...[]Node) *Tree {
	t := &Tree{}
	for _, p := range parts {
		t.Nodes = append(t.Nodes, p...)
	}
	return t
}

func one(n Node) []Node { return []Node{n} }

// le builds little-endian bytes from values.
func le(vals ...any) []byte {
	var b bytes.Buffer
	for _, v := range vals {
		switch x := v.(type) {
		case string:
			binary.Write(&b, binary.LittleEndian, int32(len(x)))
			b.WriteString(x)
		case []byte:
			b.Write(x)
		default:
			binary.Write(&b, binary.LittleEndian, x)
		}
	}
	return b.Bytes()
}

func TestCommonStringTableOffsetsAreConsecutive(t *testing.T) {
	for i := 1; i < len(commonStrings); i++ {
		prev, cur := commonStrings[i-1], commonStrings[i]
		if want := prev.Offset + uint32(len(prev.Str)) + 1; cur.Offset != want {
			t.Errorf("%q at %d, want %d (after %q)", cur.Str, cur.Offset, want, prev.Str)
		}
	}
	tests := []struct {
		off  uint32
		want string
		ok   bool
	}{{0, "AABB", true}, {49, "Array", true}, {222, "int", true}, {1169, "RenderingLayerMask", true}, {1, "", false}, {5000, "", false}}
	for _, tc := range tests {
		if got, ok := CommonString(tc.off); got != tc.want || ok != tc.ok {
			t.Errorf("CommonString(%d) = %q, %v; want %q, %v", tc.off, got, ok, tc.want, tc.ok)
		}
	}
}

func TestPrimitivesDecodeInBothByteOrders(t *testing.T) {
	tests := []struct {
		typ  string
		size int32
		le   []byte
		kind Kind
		i    int64
		f    float64
	}{
		{"bool", 1, []byte{1}, KindBool, 1, 1},
		{"SInt8", 1, []byte{0xfe}, KindInt, -2, -2},
		{"UInt8", 1, []byte{0xfe}, KindUint, 254, 254},
		{"char", 1, []byte{'A'}, KindUint, 65, 65},
		{"SInt16", 2, []byte{0xfe, 0xff}, KindInt, -2, -2},
		{"short", 2, []byte{0xfe, 0xff}, KindInt, -2, -2},
		{"UInt16", 2, []byte{0xfe, 0xff}, KindUint, 65534, 65534},
		{"unsigned short", 2, []byte{0x01, 0x02}, KindUint, 0x0201, 0x0201},
		{"int", 4, []byte{0xfe, 0xff, 0xff, 0xff}, KindInt, -2, -2},
		{"SInt32", 4, []byte{0xfe, 0xff, 0xff, 0xff}, KindInt, -2, -2},
		{"unsigned int", 4, []byte{0xfe, 0xff, 0xff, 0xff}, KindUint, 0xfffffffe, 0xfffffffe},
		{"UInt32", 4, []byte{1, 0, 0, 0}, KindUint, 1, 1},
		{"Type*", 4, []byte{7, 0, 0, 0}, KindUint, 7, 7},
		{"SInt64", 8, le(int64(-1 << 62)), KindInt, -1 << 62, -1 << 62},
		{"long long", 8, le(int64(-3)), KindInt, -3, -3},
		{"UInt64", 8, le(uint64(1<<63 + 5)), KindUint, -1<<63 + 5, float64(uint64(1<<63 + 5))},
		{"unsigned long long", 8, le(uint64(9)), KindUint, 9, 9},
		{"FileSize", 8, le(uint64(12)), KindUint, 12, 12},
		{"float", 4, le(float32(1.5)), KindFloat, 1, 1.5},
		{"double", 8, le(float64(-2.25)), KindFloat, -2, -2.25},
	}
	for _, tc := range tests {
		t.Run(tc.typ, func(t *testing.T) {
			tr := tree(one(nd(0, "Base", "Base", -1, 0)), one(nd(1, tc.typ, "x", tc.size, 0)))
			be := make([]byte, len(tc.le))
			for i := range be {
				be[i] = tc.le[len(tc.le)-1-i]
			}
			for _, c := range []struct {
				order binary.ByteOrder
				data  []byte
			}{{binary.LittleEndian, tc.le}, {binary.BigEndian, be}} {
				v, err := Decode(tr, c.data, c.order)
				if err != nil {
					t.Fatalf("%v: %v", c.order, err)
				}
				x := v.Field("x")
				if x.Kind() != tc.kind || x.Int() != tc.i || x.Float() != tc.f {
					t.Errorf("%v: kind %v int %d float %g; want %v %d %g", c.order, x.Kind(), x.Int(), x.Float(), tc.kind, tc.i, tc.f)
				}
			}
		})
	}
}

func TestAlignmentFlagPadsAfterAnyNode(t *testing.T) {
	tr := tree(
		one(nd(0, "Base", "Base", -1, 0)),
		one(nd(1, "bool", "a", 1, FlagAlign)),
		one(nd(1, "int", "b", 4, 0)),
		strNodes(1, "s"),
		vecNodes(1, "bytes", FlagAlign, nd(3, "UInt8", "data", 1, 0)),
		one(nd(1, "UInt8", "c", 1, 0)),
		one(nd(1, "UInt8", "d", 1, 0)),
		// Align flag only on the Array node of a vector.
		[]Node{nd(1, "vector", "v", -1, 0), nd(2, "Array", "Array", -1, FlagAlign), nd(3, "int", "size", 4, 0), nd(3, "SInt8", "data", 1, 0)},
		one(nd(1, "int", "e", 4, 0)),
	)
	// a, pad to 4, b, s (5 bytes, padded), bytes (2, padded), c and d
	// unaligned, v's size int read unaligned, its element, pad, e.
	data := le(uint8(1), []byte{0, 0, 0}, int32(7), "abcde", []byte{0, 0, 0},
		int32(2), []byte{9, 8}, []byte{0, 0}, uint8(3), uint8(4),
		int32(1), int8(-1), []byte{0}, int32(42))
	v, err := Decode(tr, data, binary.LittleEndian)
	if err != nil {
		t.Fatal(err)
	}
	if !v.Field("a").Bool() || v.Field("b").Int() != 7 || v.Field("s").Str() != "abcde" ||
		!bytes.Equal(v.Field("bytes").Bytes(), []byte{9, 8}) || v.Field("c").Int() != 3 || v.Field("d").Int() != 4 ||
		v.Field("v").Index(0).Int() != -1 || v.Field("e").Int() != 42 {
		var sb strings.Builder
		WriteJSON(&sb, v)
		t.Errorf("decoded %s", sb.String())
	}
}

func TestArraysOfPrimitivesArePackedWithBulkAccessors(t *testing.T) {
	tr := tree(
		one(nd(0, "Base", "Base", -1, 0)),
		vecNodes(1, "f", 0, nd(3, "float", "data", 4, 0)),
		vecNodes(1, "u", 0, nd(3, "unsigned int", "data", 4, 0)),
		vecNodes(1, "i", 0, nd(3, "int", "data", 4, 0)),
		vecNodes(1, "h", 0, nd(3, "UInt16", "data", 2, 0)),
		vecNodes(1, "l", 0, nd(3, "SInt64", "data", 8, 0)),
		vecNodes(1, "d", 0, nd(3, "double", "data", 8, 0)),
		vecNodes(1, "b", 0, nd(3, "bool", "data", 1, 0)),
		[]Node{nd(1, "TypelessData", "blob", -1, 0), nd(2, "int", "size", 4, 0), nd(2, "UInt8", "data", 1, 0)},
	)
	data := le(int32(2), float32(1.5), float32(-2), int32(1), uint32(7), int32(2), int32(-1), int32(3),
		int32(1), uint16(9), int32(1), int64(-5), int32(1), float64(0.5), int32(2), []byte{1, 0},
		int32(3), []byte{1, 2, 3})
	v, err := Decode(tr, data, binary.LittleEndian)
	if err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		name string
		ok   bool
	}{
		{"Float32s", equal(v.Field("f").Float32s(), []float32{1.5, -2})},
		{"Uint32s", equal(v.Field("u").Uint32s(), []uint32{7})},
		{"Int32s", equal(v.Field("i").Int32s(), []int32{-1, 3})},
		{"Uint16s", equal(v.Field("h").Uint16s(), []uint16{9})},
		{"Int64s", equal(v.Field("l").Int64s(), []int64{-5})},
		{"Float64s", equal(v.Field("d").Float64s(), []float64{0.5})},
		{"Bools", equal(v.Field("b").Bools(), []bool{true, false})},
		{"Bytes", bytes.Equal(v.Field("blob").Bytes(), []byte{1, 2, 3})},
		{"Packed", v.Field("f").Packed() && v.Field("f").Len() == 2},
		{"Index", v.Field("f").Index(1).Float() == -2 && v.Field("f").Index(2) == nil},
		{"wrong type", v.Field("f").Uint32s() == nil && v.Field("u").Float32s() == nil},
	}
	for _, c := range checks {
		if !c.ok {
			t.Errorf("%s failed", c.name)
		}
	}
}

func equal[T comparable](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// pairTree is map<string, PPtr> followed by an int.
func pairTree() *Tree {
	return tree(
		one(nd(0, "Base", "Base", -1, 0)),
		[]Node{nd(1, "map", "m", -1, 0), nd(2, "Array", "Array", -1, 0), nd(3, "int", "size", 4, 0), nd(3, "pair", "data", -1, 0)},
		strNodes(4, "first"),
		[]Node{nd(4, "PPtr<Object>", "second", 12, 0), nd(5, "int", "m_FileID", 4, 0), nd(5, "SInt64", "m_PathID", 8, 0)},
		one(nd(1, "int", "tail", 4, 0)),
	)
}

func TestMapsArePairsAndPPtrsReadTheirIDs(t *testing.T) {
	data := le(int32(2), "ab", []byte{0, 0}, int32(1), int64(-9), "", int32(0), int64(1<<40), int32(5))
	v, err := Decode(pairTree(), data, binary.LittleEndian)
	if err != nil {
		t.Fatal(err)
	}
	m := v.Field("m")
	if m.Kind() != KindArray || m.Len() != 2 || m.Type() != "map" || m.ElemNode().Type != "pair" {
		t.Fatalf("map: kind %v len %d type %s", m.Kind(), m.Len(), m.Type())
	}
	if m.Index(0).Field("first").Str() != "ab" {
		t.Errorf("first key %q", m.Index(0).Field("first").Str())
	}
	fid, pid, ok := m.Index(1).Field("second").PPtr()
	if !ok || fid != 0 || pid != 1<<40 {
		t.Errorf("PPtr = %d, %d, %v", fid, pid, ok)
	}
	if v.Path("m", "nope") != nil || v.Path("tail").Int() != 5 {
		t.Error("Path")
	}
	var missing *Value
	if missing.Field("x").Index(3).Len() != 0 || missing.Str() != "" || missing.Kind() != KindInvalid {
		t.Error("nil Value methods")
	}
}

func TestBadDataGivesErrorsNamingTheField(t *testing.T) {
	z12 := make([]byte, 12)
	tests := []struct {
		name     string
		data     []byte
		wantPath string
		wantErr  error
	}{
		{"empty", nil, "Base.m", ErrShort},
		{"huge count checked before allocating", le(int32(0x7fffffff), int32(0)), "Base.m", ErrShort},
		{"negative count", le(int32(-1)), "Base.m", nil},
		{"string longer than the data", le(int32(1), int32(100), z12), "Base.m[0].first", ErrShort},
		{"cut in a PPtr", le(int32(1), "ab", []byte{0, 0}, int32(1), int32(0)), "Base.m[0].second.m_PathID", ErrShort},
		{"bad second element", le(int32(2), "", int32(0), int64(1), int32(50), z12), "Base.m[1].first", ErrShort},
		{"missing tail", le(int32(0)), "Base.tail", ErrShort},
		// A string one byte shorter than written: its last byte is left
		// in the padding, which Unity writes as zeros.
		{"data in the padding", le(int32(1), int32(3), []byte("abcd"), int32(0), int64(1), int32(0)), "Base.m[0].first", ErrPadding},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Decode(pairTree(), tc.data, binary.LittleEndian)
			var de *DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("err = %v, want *DecodeError", err)
			}
			if de.Path != tc.wantPath {
				t.Errorf("path %q, want %q (%v)", de.Path, tc.wantPath, err)
			}
			if tc.wantErr != nil && !errors.Is(err, tc.wantErr) {
				t.Errorf("err %v does not wrap %v", err, tc.wantErr)
			}
		})
	}
}

func TestTrailingBytesAreReportedWithTheValue(t *testing.T) {
	data := le(int32(0), int32(5), int32(99))
	v, err := Decode(pairTree(), data, binary.LittleEndian)
	var te *TrailingError
	if !errors.As(err, &te) || te.Consumed != 8 || te.Size != 12 {
		t.Fatalf("err = %v, want TrailingError 8 of 12", err)
	}
	if v.Field("tail").Int() != 5 {
		t.Error("value not returned with the trailing error")
	}
	l, _ := Compile(pairTree())
	_, n, err := l.DecodePrefix(data, binary.LittleEndian, Options{})
	if err != nil || n != 8 {
		t.Errorf("DecodePrefix = %d, %v", n, err)
	}
}

func TestMalformedTreesAreRejected(t *testing.T) {
	deep := &Tree{}
	for i := 0; i <= MaxDepth+1; i++ {
		deep.Nodes = append(deep.Nodes, nd(i, "S", "s", -1, 0))
	}
	tests := []struct {
		name string
		t    *Tree
	}{
		{"nil", nil},
		{"empty", &Tree{}},
		{"root not at level 0", tree(one(nd(1, "Base", "Base", -1, 0)))},
		{"skipped level", tree(one(nd(0, "Base", "Base", -1, 0)), one(nd(2, "int", "x", 4, 0)))},
		{"second root", tree(one(nd(0, "Base", "Base", -1, 0)), one(nd(0, "int", "x", 4, 0)))},
		{"too deep", deep},
	}
	for _, tc := range tests {
		if _, err := Compile(tc.t); !errors.Is(err, ErrBadTree) {
			t.Errorf("%s: err = %v, want ErrBadTree", tc.name, err)
		}
	}
}

func TestVariableSizeLeafOfUnknownTypeIsAnError(t *testing.T) {
	tr := tree(one(nd(0, "Base", "Base", -1, 0)), one(nd(1, "Mystery", "x", -1, 0)))
	if _, err := Decode(tr, le(int32(1)), binary.LittleEndian); !errors.Is(err, ErrUnknownLayout) {
		t.Errorf("err = %v, want ErrUnknownLayout", err)
	}
	// A fixed-size unknown leaf is kept as a blob.
	tr = tree(one(nd(0, "Base", "Base", -1, 0)), one(nd(1, "Mystery", "x", 3, 0)))
	v, err := Decode(tr, []byte{1, 2, 3}, binary.LittleEndian)
	if err != nil || v.Field("x").Kind() != KindBlob || !bytes.Equal(v.Field("x").Bytes(), []byte{1, 2, 3}) {
		t.Errorf("blob: %v %v", v, err)
	}
}

func TestWriteJSONKeepsOrderExactIntegersAndShortestFloats(t *testing.T) {
	tr := tree(
		one(nd(0, "Base", "Base", -1, 0)),
		one(nd(1, "SInt64", "z_big", 8, 0)),
		one(nd(1, "UInt64", "a_ubig", 8, 0)),
		one(nd(1, "float", "f", 4, 0)),
		one(nd(1, "double", "d", 8, 0)),
		one(nd(1, "float", "nan", 4, 0)),
		one(nd(1, "float", "inf", 4, 0)),
		one(nd(1, "float", "ninf", 4, 0)),
		one(nd(1, "bool", "b", 1, FlagAlign)),
		strNodes(1, "s"),
		vecNodes(1, "bytes", 0, nd(3, "UInt8", "data", 1, 0)),
		vecNodes(1, "fs", 0, nd(3, "float", "data", 4, 0)),
		vecNodes(1, "ss", 0, strNodes(3, "data")...),
	)
	data := le(int64(-9007199254740993), uint64(18446744073709551615), float32(0.1), float64(0.1),
		float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), true, []byte{0, 0, 0},
		"q\"\\\n\x01\xff", []byte{0, 0}, int32(3), []byte{1, 2, 3}, int32(2), float32(4.16028e-08), float32(1), int32(1), "x")
	v, err := Decode(tr, data, binary.LittleEndian)
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	if err := WriteJSON(&sb, v); err != nil {
		t.Fatal(err)
	}
	want := `{"z_big":-9007199254740993,"a_ubig":18446744073709551615,"f":0.1,"d":0.1,"nan":"NaN","inf":"Infinity","ninf":"-Infinity","b":true,"s":"q\"\\\n\u0001\ufffd","bytes":"AQID","fs":[4.16028e-08,1],"ss":["x"]}` + "\n"
	if got := v.Field("ss").Strings(); !equal(got, []string{"x"}) {
		t.Errorf("Strings() = %q", got)
	}
	if v.Field("fs").Strings() != nil {
		t.Error("Strings() of a float array is not nil")
	}
	if sb.String() != want {
		t.Errorf("got  %s\nwant %s", sb.String(), want)
	}
	if !json.Valid([]byte(sb.String())) {
		t.Error("not valid JSON")
	}
}

// An object whose class has no serialized fields (a tree of its root
// alone, size 0, as globalgamemanagers' managers have) is an empty object,
// not an empty blob written as "".
func TestAClassWithoutFieldsIsAnEmptyObject(t *testing.T) {
	l, err := Compile(&Tree{Nodes: []Node{nd(0, "GlobalGameManager", "Base", 0, 0)}})
	if err != nil {
		t.Fatal(err)
	}
	v, err := l.Decode(nil, binary.LittleEndian)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteJSON(&b, v); err != nil {
		t.Fatal(err)
	}
	if v.Kind() != KindStruct || b.String() != "{}\n" {
		t.Errorf("kind %v, JSON %q: want an empty struct, {}", v.Kind(), b.String())
	}
}
