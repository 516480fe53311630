package robustness

import (
	"testing"

	"github.com/mecanim/mecanim/internal/corpustest/filefuzz"
)

// TestGenerateFuzzSeeds writes FuzzExercise's committed seeds with
// -gen-seeds, and checks that every command path accepts each of them.
func TestGenerateFuzzSeeds(t *testing.T) {
	for name, b := range filefuzz.Seeds(t, "FuzzExercise") {
		if n := exercise(b, name); n != 0 {
			t.Errorf("%s: %d steps failed", name, n)
		}
	}
}

// FuzzExercise runs arbitrary bytes through every command's library path
// (what the sweep does with damaged corpus files, guided by coverage).
func FuzzExercise(f *testing.F) {
	filefuzz.Fuzz(f, func(data []byte) { exercise(data, "fuzz") })
}
