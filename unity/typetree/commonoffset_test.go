package typetree

import "testing"

func TestCommonStringOffsetIsCommonStringsInverse(t *testing.T) {
	for _, c := range commonStrings {
		off, ok := CommonStringOffset(c.Str)
		if !ok {
			t.Fatalf("%q not found", c.Str)
		}
		if s, _ := CommonString(off); s != c.Str {
			t.Errorf("%q: offset %d names %q", c.Str, off, s)
		}
	}
	if _, ok := CommonStringOffset("m_NotACommonString"); ok {
		t.Error("a name outside the table was found")
	}
}
