package model

import "testing"

func TestHumanAttributeNamesFollowTheSpecLayout(t *testing.T) {
	cases := []struct {
		attr uint32
		want string
	}{
		{7, "RootT.x"}, {10, "RootQ.x"}, {13, "RootQ.w"}, {14, "LeftFootT.x"},
		{41, "RightHandQ.w"}, {42, "Spine Front-Back"}, {42 + 39, "Left Arm Down-Up"},
		{42 + 55, "LeftHand.Thumb.1 Stretched"}, {42 + 94, "RightHand.Little.3 Stretched"},
		{137, "SpineTDOF.x"}, {137 + 3*5 + 1, "LeftUpperLegTDOF.y"}, {137 + 3*13 + 2, "LeftShoulderTDOF.z"},
		{137 + 62, "RightHandTDOF.z"},
	}
	for _, c := range cases {
		got, ok := HumanAttributeName(c.attr)
		if !ok || got != c.want {
			t.Errorf("attr %d: got %q,%v want %q", c.attr, got, ok, c.want)
		}
		back, ok := HumanAttributeByName(c.want)
		if !ok || back != c.attr {
			t.Errorf("%q: back to %d want %d", c.want, back, c.attr)
		}
	}
	if _, ok := HumanAttributeName(6); ok {
		t.Error("attribute 6 is not humanoid")
	}
	if _, ok := HumanAttributeName(137 + 63); ok {
		t.Error("attribute 200 is not humanoid")
	}
}

func TestPathHashIsZlibCRC(t *testing.T) {
	if PathHash("") != 0 {
		t.Fatal("empty path hashes to 0")
	}
	// CRC-32 (IEEE) of "123456789" is the standard check value.
	if got := PathHash("123456789"); got != 0xCBF43926 {
		t.Fatalf("got %#x", got)
	}
}
