package model

import "testing"

// The full mask compiled from an AvatarMask with every part on is the one
// Unity stores in every layer of the corpus's controllers.
func TestHumanMaskFullMatchesUnitysWords(t *testing.T) {
	want := HumanMask{0xFFFFFFFF, 0xFFFFFFFF, 0x7FFFF}
	if got := FullHumanMask(); got != want {
		t.Errorf("FullHumanMask = %#x, want %#x", got, want)
	}
	all := make([]uint32, BodyPartCount)
	for i := range all {
		all[i] = 1
	}
	if got := HumanMaskFromParts(all); got != want {
		t.Errorf("HumanMaskFromParts(all on) = %#x, want %#x", got, want)
	}
	if got := HumanMaskFromParts(nil); got != want {
		t.Errorf("HumanMaskFromParts(nil) = %#x, want the full mask (a new AvatarMask has every part on)", got)
	}
	if got := HumanMaskFromWords(nil); got != want {
		t.Errorf("HumanMaskFromWords(nil) = %#x, want full", got)
	}
	if got := HumanMaskFromWords([]uint32{0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF}); got != want {
		t.Errorf("bits past 83 kept: %#x", got)
	}
}

func TestHumanMaskPartsSelectTheirMuscles(t *testing.T) {
	tests := []struct {
		part          BodyPart
		muscles       [2]int // [first, end) in MuscleNames
		first, last   string
		root          bool
		goal          int // -1 none
		fingersOfHand int // 0 none, 1 left, 2 right
	}{
		{PartBody, [2]int{0, 9}, "Spine Front-Back", "UpperChest Twist Left-Right", false, -1, 0},
		{PartHead, [2]int{9, 21}, "Neck Nod Down-Up", "Jaw Left-Right", false, -1, 0},
		{PartLeftLeg, [2]int{21, 29}, "Left Upper Leg Front-Back", "Left Toes Up-Down", false, -1, 0},
		{PartRightLeg, [2]int{29, 37}, "Right Upper Leg Front-Back", "Right Toes Up-Down", false, -1, 0},
		{PartLeftArm, [2]int{37, 46}, "Left Shoulder Down-Up", "Left Hand In-Out", false, -1, 0},
		{PartRightArm, [2]int{46, 55}, "Right Shoulder Down-Up", "Right Hand In-Out", false, -1, 0},
		{PartLeftFingers, [2]int{55, 75}, "LeftHand.Thumb.1 Stretched", "LeftHand.Little.3 Stretched", false, -1, 1},
		{PartRightFingers, [2]int{75, 95}, "RightHand.Thumb.1 Stretched", "RightHand.Little.3 Stretched", false, -1, 2},
		{PartRoot, [2]int{0, 0}, "", "", true, -1, 0},
		{PartLeftFootIK, [2]int{0, 0}, "", "", false, 0, 0},
		{PartRightFootIK, [2]int{0, 0}, "", "", false, 1, 0},
		{PartLeftHandIK, [2]int{0, 0}, "", "", false, 2, 0},
		{PartRightHandIK, [2]int{0, 0}, "", "", false, 3, 0},
	}
	for _, tc := range tests {
		t.Run(tc.part.String(), func(t *testing.T) {
			parts := make([]uint32, BodyPartCount)
			parts[tc.part] = 1
			m := HumanMaskFromParts(parts)
			if tc.muscles[1] > 0 && (MuscleNames[tc.muscles[0]] != tc.first || MuscleNames[tc.muscles[1]-1] != tc.last) {
				t.Fatalf("muscle range %v is %q..%q", tc.muscles, MuscleNames[tc.muscles[0]], MuscleNames[tc.muscles[1]-1])
			}
			for i := 0; i < MuscleCount; i++ {
				want := i >= tc.muscles[0] && i < tc.muscles[1]
				if m.Muscle(i) != want {
					t.Errorf("muscle %d %q: %v, want %v", i, MuscleNames[i], m.Muscle(i), want)
				}
			}
			if m.Root() != tc.root {
				t.Errorf("Root() = %v", m.Root())
			}
			for g := 0; g < 4; g++ {
				if m.Goal(g) != (g == tc.goal) {
					t.Errorf("Goal(%d) = %v", g, m.Goal(g))
				}
			}
			on, ok := m.Parts()
			if !ok || len(on) != 1 || on[0] != tc.part {
				t.Errorf("Parts() = %v, %v; want [%v], true", on, ok, tc.part)
			}
			if m.String() != tc.part.String() {
				t.Errorf("String() = %q", m.String())
			}
			// The complement has every other part.
			inv := make([]uint32, BodyPartCount)
			for i := range inv {
				inv[i] = 1
			}
			inv[tc.part] = 0
			if on, ok := HumanMaskFromParts(inv).Parts(); !ok || len(on) != int(BodyPartCount)-1 {
				t.Errorf("complement Parts() = %v, %v", on, ok)
			}
		})
	}
}

func TestHumanMaskDescribesMixedAndEmptyMasks(t *testing.T) {
	tests := []struct {
		m    HumanMask
		want string
	}{
		{FullHumanMask(), "full"},
		{HumanMask{}, "none"},
		{HumanMaskFromWords([]uint32{0xFFFFFFFF, 0x3FFFFFFF}), "full"}, // Unity 5.0/5.1: 62 bits, no translation bits
		{HumanMask{0xFFFFFFFF, 0xFFFFFFFF}, "all parts"},               // every part, no translation bits
		{HumanMask{1 << 1}, "none (mixed)"},                            // one spine muscle only
		{HumanMask{1, 0, 0}, "Root"},
	}
	for _, tc := range tests {
		if got := tc.m.String(); got != tc.want {
			t.Errorf("%#x: %q, want %q", tc.m, got, tc.want)
		}
	}
	if (HumanMask{}).Muscle(-1) || FullHumanMask().Muscle(MuscleCount) || FullHumanMask().Bit(MaskBits) || FullHumanMask().Goal(4) {
		t.Error("out-of-range queries answer true")
	}
	if BodyPart(99).String() != "BodyPart(?)" {
		t.Error("unknown part name")
	}
}
