package animator

import (
	"testing"

	"github.com/mecanim/mecanim/model"
)

func muscle(t *testing.T, name string) int {
	a, ok := model.HumanAttributeByName(name)
	if !ok || a < model.FirstMuscleAttribute {
		t.Fatalf("no muscle %q", name)
	}
	return int(a - model.FirstMuscleAttribute)
}

func TestMirrorMapSwapsSidesAndFlipsSideways(t *testing.T) {
	from, sign := mirrorMap()
	tests := []struct {
		muscle, from string
		sign         float32
	}{
		{"Left Arm Down-Up", "Right Arm Down-Up", 1},
		{"Right Upper Leg Twist In-Out", "Left Upper Leg Twist In-Out", 1},
		{"LeftHand.Index.Spread", "RightHand.Index.Spread", 1},
		{"Right Eye In-Out", "Left Eye In-Out", 1},
		{"Spine Left-Right", "Spine Left-Right", -1},
		{"Head Turn Left-Right", "Head Turn Left-Right", -1},
		{"Jaw Left-Right", "Jaw Left-Right", -1},
		{"Spine Front-Back", "Spine Front-Back", 1},
		{"Jaw Close", "Jaw Close", 1},
	}
	for _, tc := range tests {
		i := muscle(t, tc.muscle)
		if got := model.MuscleNames[from[i]]; got != tc.from || sign[i] != tc.sign {
			t.Errorf("%s takes %s × %v, want %s × %v", tc.muscle, got, sign[i], tc.from, tc.sign)
		}
	}
	for i := range from {
		if from[from[i]] != int16(i) || sign[from[i]] != sign[i] {
			t.Errorf("mirroring %s twice is not the identity", model.MuscleNames[i])
		}
	}
}
