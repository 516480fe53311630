package robustness

import (
	"flag"
	"testing"

	"github.com/mecanim/mecanim/internal/fuzzcount"
	"github.com/mecanim/mecanim/internal/synth"
)

var genSeeds = flag.Bool("gen-seeds", false, "write the committed fuzz seeds (testdata/fuzz) from internal/synth")

// TestGenerateFuzzSeeds writes FuzzExercise's committed seeds with
// -gen-seeds, and checks that every command path accepts each of them.
func TestGenerateFuzzSeeds(t *testing.T) {
	seeds, err := synth.FileSeeds()
	if err != nil {
		t.Fatal(err)
	}
	if *genSeeds {
		if err := synth.WriteSeeds(".", "FuzzExercise", seeds); err != nil {
			t.Fatal(err)
		}
	}
	for name, b := range seeds {
		if n := exercise(b, name); n != 0 {
			t.Errorf("%s: %d steps failed", name, n)
		}
	}
}

// FuzzExercise runs arbitrary bytes through every command's library path
// (what the sweep does with damaged corpus files, guided by coverage).
func FuzzExercise(f *testing.F) {
	for _, b := range synth.SeedFiles(48 << 10) {
		f.Add(b)
	}
	count := fuzzcount.Counter("FuzzExercise")
	f.Fuzz(func(t *testing.T, data []byte) {
		count()
		exercise(data, "fuzz")
	})
}
