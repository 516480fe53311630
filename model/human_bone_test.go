package model

import "testing"

// Human bones name themselves as the table does, and hang from their
// parents as Unity's HumanTrait.GetParentBone says (fingers from their
// hand, segment by segment).
func TestHumanBonesNameAndParent(t *testing.T) {
	for _, tc := range []struct {
		bone   HumanBone
		name   string
		parent HumanBone
	}{
		{HumanHips, "Hips", -1},
		{HumanLeftLowerArm, "LeftLowerArm", HumanLeftUpperArm},
		{HumanNeck, "Neck", HumanUpperChest},
		{HumanJaw, "Jaw", HumanHead},
		{HumanFinger(0, 0, 0), "Left Thumb Proximal", HumanLeftHand},
		{HumanFinger(0, 0, 1), "Left Thumb Intermediate", HumanFinger(0, 0, 0)},
		{HumanFinger(1, 4, 2), "Right Little Distal", HumanFinger(1, 4, 1)},
		{HumanFinger(1, 1, 0), "Right Index Proximal", HumanRightHand},
		{HumanBoneCount, "HumanBone(55)", -1},
		{-2, "HumanBone(-2)", -1},
	} {
		if got := tc.bone.String(); got != tc.name {
			t.Errorf("%d: String %q, want %q", int(tc.bone), got, tc.name)
		}
		if got := tc.bone.Parent(); got != tc.parent {
			t.Errorf("%s: Parent %v, want %v", tc.name, got, tc.parent)
		}
	}
}
