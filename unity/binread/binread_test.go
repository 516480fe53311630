package binread

import (
	"encoding/binary"
	"errors"
	"testing"
)

func TestReadsBothByteOrders(t *testing.T) {
	data := []byte{0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08}
	cases := []struct {
		name  string
		order binary.ByteOrder
		u16   uint16
		u32   uint32
	}{
		{"little-endian", binary.LittleEndian, 0x0201, 0x06050403},
		{"big-endian", binary.BigEndian, 0x0102, 0x03040506},
	}
	for _, c := range cases {
		r := New(data, c.order)
		if got := r.U16("a"); got != c.u16 {
			t.Errorf("%s: U16 %#x want %#x", c.name, got, c.u16)
		}
		if got := r.U32("b"); got != c.u32 {
			t.Errorf("%s: U32 %#x want %#x", c.name, got, c.u32)
		}
		if r.Err() != nil || r.Len() != 2 {
			t.Errorf("%s: err %v, %d left", c.name, r.Err(), r.Len())
		}
	}
}

func TestTheFirstErrorSticksWithItsOffset(t *testing.T) {
	r := New([]byte{1, 2, 3}, binary.LittleEndian)
	r.Base = 100
	r.U16("first")
	if v := r.U32("the field that does not fit"); v != 0 {
		t.Errorf("short read gave %d, want 0", v)
	}
	r.U8("later")
	var e *Error
	if !errors.As(r.Err(), &e) {
		t.Fatalf("error %v is not *Error", r.Err())
	}
	if e.Offset != 102 || e.What != "the field that does not fit" || !errors.Is(e, ErrShort) {
		t.Fatalf("got offset %d what %q err %v", e.Offset, e.What, e.Err)
	}
}

func TestCountRefusesCountsThatCannotFit(t *testing.T) {
	cases := []struct {
		name    string
		data    []byte
		minSize int
		want    int
		fails   bool
	}{
		{"fits", []byte{2, 0, 0, 0, 9, 9, 9, 9, 9, 9, 9, 9}, 4, 2, false},
		{"too many for what remains", []byte{3, 0, 0, 0, 9, 9, 9, 9, 9, 9, 9, 9}, 4, 0, true},
		{"negative", []byte{0xFF, 0xFF, 0xFF, 0xFF}, 1, 0, true},
		{"a huge count in a tiny input", []byte{0xFF, 0xFF, 0xFF, 0x7F, 0}, 1, 0, true},
		{"zero-size elements count as one byte", []byte{5, 0, 0, 0, 1, 2, 3, 4, 5}, 0, 5, false},
	}
	for _, c := range cases {
		r := New(c.data, binary.LittleEndian)
		n := r.Count(c.minSize, "items")
		if n != c.want || (r.Err() != nil) != c.fails {
			t.Errorf("%s: count %d err %v, want %d fails=%v", c.name, n, r.Err(), c.want, c.fails)
		}
	}
}

func TestCStringAndAlignAndSeek(t *testing.T) {
	r := New([]byte("abc\x00\x00\x00\x00\x00xyz"), binary.LittleEndian)
	if s := r.CString(10, "name"); s != "abc" || r.Pos() != 4 {
		t.Fatalf("got %q at %d", s, r.Pos())
	}
	r.U8("pad")
	r.Align(4)
	if r.Pos() != 8 {
		t.Fatalf("aligned to %d", r.Pos())
	}
	if s := r.CString(2, "unterminated"); s != "" || r.Err() == nil {
		t.Fatalf("unterminated string read as %q, err %v", s, r.Err())
	}
	r2 := New([]byte{1, 2}, binary.LittleEndian)
	r2.Seek(5)
	if r2.Err() == nil {
		t.Fatal("seek past the end did not fail")
	}
}

func TestNothingReadsAfterAnError(t *testing.T) {
	r := New([]byte{1}, binary.LittleEndian)
	r.U32("too long")
	if b := r.Take(1, "after"); b != nil {
		t.Fatal("Take after an error returned bytes")
	}
	if f := r.F64("after"); f != 0 {
		t.Fatal("F64 after an error returned a value")
	}
}
