package bound

import "testing"

func TestHumanHelpersKeepTheBodyAndMarkTheRest(t *testing.T) {
	// 0 root
	// 1 Armature            (not human, above the hips)
	// 2  Hips               human
	// 3   SpineExtra        not human, between Hips and Chest: body
	// 4    Chest            human
	// 5     Head            human, ends a chain
	// 6      Head_end       below a chain end: body
	// 7   IKTarget          not human, below Hips but no human below it: helper
	// 8 IKPole              not human, outside: helper
	parents := []int{-1, 0, 1, 2, 3, 4, 5, 2, 0}
	human := []bool{false, false, true, false, true, true, false, false, false}
	want := []bool{true, true, false, false, false, false, false, true, true}
	got := humanHelpers(parents, human)
	for j := range want {
		if got[j] != want[j] {
			t.Errorf("joint %d: helper %v, want %v", j, got[j], want[j])
		}
	}
}
