// Package filefuzz is the harness the fuzz targets that open whole Unity
// files share: their seeds (the synthetic files of internal/synth, the
// example bundle and the small corpus files, added at run time and never
// committed), the -gen-seeds flag that writes the synthetic ones as the
// target's committed seeds, and the execution counter of internal/fuzzcount.
//
// It lives beside corpustest rather than inside it because internal/synth,
// which builds the seeds, itself imports corpustest.
package filefuzz

import (
	"flag"
	"testing"

	"github.com/mecanim/mecanim/internal/fuzzcount"
	"github.com/mecanim/mecanim/internal/synth"
)

// MaxCorpusSeed bounds the size of a corpus file added as a seed: larger
// files slow every fuzz iteration down more than they add coverage.
const MaxCorpusSeed = 48 << 10

var genSeeds = flag.Bool("gen-seeds", false, "write the committed fuzz seeds (testdata/fuzz) from internal/synth")

// Seeds returns synth.FileSeeds by name, failing t when they cannot be
// built. With -gen-seeds it first writes them as target's committed seeds
// (testdata/fuzz/target in the test's directory), so the caller's check of
// each seed also proves what was written.
func Seeds(t *testing.T, target string) map[string][]byte {
	t.Helper()
	seeds, err := synth.FileSeeds()
	if err != nil {
		t.Fatal(err)
	}
	if *genSeeds {
		if err := synth.WriteSeeds(".", target, seeds); err != nil {
			t.Fatal(err)
		}
	}
	return seeds
}

// Fuzz adds synth.SeedFiles(MaxCorpusSeed) to f's seeds and fuzzes body
// with arbitrary bytes, counting executions under f's name (see fuzzcount).
// body must not panic on any input; errors are its own business.
func Fuzz(f *testing.F, body func(data []byte)) {
	for _, b := range synth.SeedFiles(MaxCorpusSeed) {
		f.Add(b)
	}
	count := fuzzcount.Counter(f.Name())
	f.Fuzz(func(t *testing.T, data []byte) {
		count()
		body(data)
	})
}
