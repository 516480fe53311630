package serialized

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"testing"

	"github.com/mecanim/mecanim/unity/typetree"
)

// fileWriter builds a synthetic serialized file of a given format version,
// laid out as the format's versions differ (the facts the reader encodes),
// so every version branch of the reader runs.
type fileWriter struct {
	order binary.ByteOrder
	b     bytes.Buffer
}

func (w *fileWriter) u8(v uint8)    { w.b.WriteByte(v) }
func (w *fileWriter) u16(v uint16)  { binary.Write(&w.b, w.order, v) }
func (w *fileWriter) u32(v uint32)  { binary.Write(&w.b, w.order, v) }
func (w *fileWriter) u64(v uint64)  { binary.Write(&w.b, w.order, v) }
func (w *fileWriter) cstr(s string) { w.b.WriteString(s); w.b.WriteByte(0) }
func (w *fileWriter) raw(p []byte)  { w.b.Write(p) }
func (w *fileWriter) align(base int) {
	for (w.b.Len()+base)%4 != 0 {
		w.b.WriteByte(0)
	}
}

// testTree is Base { int m_X; string m_Name } as Unity lays it out.
var testTree = []typetree.Node{
	{Level: 0, Type: "Thing", Name: "Base", ByteSize: -1, Flags: 0x8000},
	{Level: 1, Type: "int", Name: "m_X", ByteSize: 4, Index: 1},
	{Level: 1, Type: "string", Name: "m_Name", ByteSize: -1, Index: 2, Flags: 0x8000},
	{Level: 2, Type: "Array", Name: "Array", ByteSize: -1, Index: 3, Flags: 0x4000, TypeFlags: 1},
	{Level: 3, Type: "int", Name: "size", ByteSize: 4, Index: 4},
	{Level: 3, Type: "char", Name: "data", ByteSize: 1, Index: 5},
}

// writeTree writes testTree in the blob format (names from the common
// string table where they are in it) or the legacy nested format.
func (w *fileWriter) writeTree(v uint32) {
	if v >= 12 || v == 10 {
		var strs bytes.Buffer
		off := func(s string) uint32 {
			for o := uint32(0); o < 2000; o++ {
				if c, ok := typetree.CommonString(o); ok && c == s {
					return o | 0x80000000
				}
			}
			o := uint32(strs.Len())
			strs.WriteString(s)
			strs.WriteByte(0)
			return o
		}
		type rec struct{ t, n uint32 }
		recs := make([]rec, len(testTree))
		for i, n := range testTree {
			recs[i] = rec{off(n.Type), off(n.Name)}
		}
		w.u32(uint32(len(testTree)))
		w.u32(uint32(strs.Len()))
		for i, n := range testTree {
			w.u16(uint16(n.Version))
			w.u8(uint8(n.Level))
			w.u8(n.TypeFlags)
			w.u32(recs[i].t)
			w.u32(recs[i].n)
			w.u32(uint32(n.ByteSize))
			w.u32(uint32(n.Index))
			w.u32(n.Flags)
			if v >= 19 {
				w.u64(0)
			}
		}
		w.raw(strs.Bytes())
		return
	}
	var rec func(i int) int
	rec = func(i int) int {
		n := testTree[i]
		w.cstr(n.Type)
		w.cstr(n.Name)
		w.u32(uint32(n.ByteSize))
		if v == 2 {
			w.u32(0)
		}
		if v != 3 {
			w.u32(uint32(n.Index))
		}
		w.u32(uint32(n.TypeFlags))
		w.u32(uint32(n.Version))
		if v != 3 {
			w.u32(n.Flags)
		}
		var kids []int
		for j := i + 1; j < len(testTree) && testTree[j].Level > n.Level; j++ {
			if testTree[j].Level == n.Level+1 {
				kids = append(kids, j)
			}
		}
		w.u32(uint32(len(kids)))
		for _, k := range kids {
			rec(k)
		}
		return 0
	}
	rec(0)
}

// objectBytes encodes a Thing.
func objectBytes(order binary.ByteOrder, x int32, name string) []byte {
	var b bytes.Buffer
	binary.Write(&b, order, x)
	binary.Write(&b, order, int32(len(name)))
	b.WriteString(name)
	for b.Len()%4 != 0 {
		b.WriteByte(0)
	}
	return b.Bytes()
}

// buildFile writes a version-v file with two Things (path ids 1 and 1<<40 when
// 64-bit ids exist) and one external reference, laid out as Unity lays
// files out.
func buildFile(v uint32, big bool) []byte { return buildFileWith(v, big, padding{}) }

// padding adds zero bytes to buildFile's layout: before the data offset
// (after its rounding up to 16), between the two objects (after the
// rounding up to 8) and after the last object.
type padding struct{ meta, between, tail int }

func buildFileWith(v uint32, big bool, pad padding) []byte {
	var order binary.ByteOrder = binary.LittleEndian
	if big {
		order = binary.BigEndian
	}
	const classID = 1001
	pids := []int64{1, -7}
	if v >= 14 {
		pids[1] = 1 << 40
	}
	objs := [][]byte{objectBytes(order, 42, "first"), objectBytes(order, -3, "second one")}
	headerSize := 20
	if v >= 22 {
		headerSize = 48
	}
	if v < 9 {
		headerSize = 16
	}
	m := &fileWriter{order: order}
	metaBase := headerSize // where the metadata starts (alignment is relative to the file)
	if v >= 7 {
		m.cstr("2019.4.1f1")
	}
	if v >= 8 {
		m.u32(5)
	}
	if v >= 13 {
		m.u8(1)
	}
	m.u32(1) // one type
	m.u32(classID)
	if v >= 16 {
		m.u8(0)
	}
	if v >= 17 {
		m.u16(0xffff)
	}
	if v >= 13 {
		m.raw(bytes.Repeat([]byte{0xab}, 16))
	}
	m.writeTree(v)
	if v >= 21 {
		m.u32(0)
	}
	if v >= 7 && v < 14 {
		m.u32(0)
	}
	m.u32(uint32(len(objs)))
	start := 0
	for i, ob := range objs {
		if v < 14 {
			m.u32(uint32(pids[i]))
		} else {
			m.align(metaBase)
			m.u64(uint64(pids[i]))
		}
		if v >= 22 {
			m.u64(uint64(start))
		} else {
			m.u32(uint32(start))
		}
		m.u32(uint32(len(ob)))
		if v < 16 {
			m.u32(classID)
			m.u16(classID)
		} else {
			m.u32(0)
		}
		if v < 11 {
			m.u16(0)
		}
		if v >= 11 && v < 17 {
			m.u16(0xffff)
		}
		if v == 15 || v == 16 {
			m.u8(0)
		}
		start += len(ob)
		for start%8 != 0 {
			start++
		}
		start += pad.between
	}
	if v >= 11 {
		m.u32(1)
		m.u32(0)
		if v < 14 {
			m.u32(9)
		} else {
			m.align(metaBase)
			m.u64(9)
		}
	}
	m.u32(1)
	if v >= 6 {
		m.cstr("")
	}
	if v >= 5 {
		g := [16]byte{8: 0x0e}
		m.raw(g[:])
		m.u32(3)
	}
	m.cstr("Library/unity default resources")
	if v >= 20 {
		m.u32(0)
	}
	if v >= 5 {
		m.cstr("user")
	}
	meta := m.b.Bytes()
	var data bytes.Buffer
	for i, ob := range objs {
		data.Write(ob)
		for data.Len()%8 != 0 {
			data.WriteByte(0)
		}
		if i < len(objs)-1 {
			data.Write(make([]byte, pad.between))
		}
	}
	data.Write(make([]byte, pad.tail))
	be := binary.BigEndian
	var out bytes.Buffer
	var hdr [48]byte
	endian := byte(0)
	if big {
		endian = 1
	}
	if v < 9 {
		// Data first, metadata (with its endianness byte) at the end.
		dataOffset := headerSize
		fileSize := headerSize + data.Len() + 1 + len(meta)
		be.PutUint32(hdr[0:], uint32(1+len(meta)))
		be.PutUint32(hdr[4:], uint32(fileSize))
		be.PutUint32(hdr[8:], v)
		be.PutUint32(hdr[12:], uint32(dataOffset))
		out.Write(hdr[:16])
		out.Write(data.Bytes())
		out.WriteByte(endian)
		out.Write(meta)
		return out.Bytes()
	}
	dataOffset := headerSize + len(meta)
	for dataOffset%16 != 0 {
		dataOffset++
	}
	dataOffset += pad.meta
	fileSize := dataOffset + data.Len()
	if v >= 22 {
		be.PutUint32(hdr[8:], v)
		hdr[16] = endian
		be.PutUint32(hdr[20:], uint32(len(meta)))
		be.PutUint64(hdr[24:], uint64(fileSize))
		be.PutUint64(hdr[32:], uint64(dataOffset))
	} else {
		be.PutUint32(hdr[0:], uint32(len(meta)))
		be.PutUint32(hdr[4:], uint32(fileSize))
		be.PutUint32(hdr[8:], v)
		be.PutUint32(hdr[12:], uint32(dataOffset))
		hdr[16] = endian
	}
	out.Write(hdr[:headerSize])
	out.Write(meta)
	for out.Len() < dataOffset {
		out.WriteByte(0)
	}
	out.Write(data.Bytes())
	return out.Bytes()
}

func TestEveryFormatVersionReadsTheSameContent(t *testing.T) {
	for v := uint32(5); v <= 23; v++ {
		for _, big := range []bool{false, true} {
			t.Run(fmt.Sprintf("v%d big=%v", v, big), func(t *testing.T) {
				b := buildFile(v, big)
				if v >= 9 && !IsSerializedFile(b[:min(48, len(b))], int64(len(b))) {
					t.Error("IsSerializedFile = false")
				}
				f, err := Open(bytes.NewReader(b), int64(len(b)), "synthetic")
				if err != nil {
					t.Fatal(err)
				}
				if f.Version != v || f.BigEndian != big || len(f.Objects) != 2 || len(f.Types) != 1 {
					t.Fatalf("version %d big %v, %d objects, %d types", f.Version, f.BigEndian, len(f.Objects), len(f.Types))
				}
				if v >= 7 && f.UnityVersion != "2019.4.1f1" {
					t.Errorf("unity version %q", f.UnityVersion)
				}
				if v >= 8 && f.Platform != 5 {
					t.Errorf("platform %d", f.Platform)
				}
				if len(f.Externals) != 1 || f.Externals[0].Path != "Library/unity default resources" ||
					(v >= 5 && (f.Externals[0].Type != 3 || GUIDString(f.Externals[0].GUID) != "0000000000000000e000000000000000")) {
					t.Errorf("externals %+v", f.Externals)
				}
				if v >= 11 && (len(f.ScriptTypes) != 1 || f.ScriptTypes[0].PathID != 9) {
					t.Errorf("script types %+v", f.ScriptTypes)
				}
				if v >= 5 && f.UserInfo != "user" {
					t.Errorf("user info %q", f.UserInfo)
				}
				wantX := []int64{42, -3}
				wantName := []string{"first", "second one"}
				for i := range f.Objects {
					o := &f.Objects[i]
					if o.ClassID != 1001 {
						t.Errorf("object %d class %d", o.PathID, o.ClassID)
					}
					val, err := f.Decode(o)
					if err != nil {
						t.Fatal(err)
					}
					if val.Field("m_X").Int() != wantX[i] || val.Field("m_Name").Str() != wantName[i] {
						t.Errorf("object %d: m_X %d m_Name %q", o.PathID, val.Field("m_X").Int(), val.Field("m_Name").Str())
					}
				}
				if _, ok := f.Object(f.Objects[1].PathID); !ok {
					t.Error("Object lookup failed")
				}
			})
		}
	}
}
