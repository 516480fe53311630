package assets

import (
	"bytes"
	"flag"
	"io"
	"testing"

	"github.com/mecanim/mecanim/robustness/synth"
	"github.com/mecanim/mecanim/unity/typetree"
)

var genSeeds = flag.Bool("gen-seeds", false, "write the committed fuzz seeds (testdata/fuzz) from robustness/synth")

// TestGenerateFuzzSeeds writes FuzzOpenReader's committed seeds with
// -gen-seeds, and checks that each opens.
func TestGenerateFuzzSeeds(t *testing.T) {
	seeds, err := synth.FileSeeds()
	if err != nil {
		t.Fatal(err)
	}
	if *genSeeds {
		if err := synth.WriteSeeds(".", "FuzzOpenReader", seeds); err != nil {
			t.Fatal(err)
		}
	}
	for name, b := range seeds {
		if _, err := OpenReader(bytes.NewReader(b), int64(len(b)), name, Options{}); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
}

// FuzzOpenReader opens arbitrary bytes as a Unity file and decodes, names
// and dumps every object: no panic, and every failure an error value.
func FuzzOpenReader(f *testing.F) {
	for _, b := range synth.SeedFiles(48 << 10) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ct, err := OpenReader(bytes.NewReader(data), int64(len(data)), "fuzz", Options{})
		if err != nil {
			return
		}
		for _, sf := range ct.Files {
			for i := range sf.Objects {
				o := &sf.Objects[i]
				sf.ClassName(o)
				sf.ObjectName(o)
				if v, err := sf.Decode(o); v != nil && err == nil {
					typetree.WriteJSON(io.Discard, v)
				}
			}
		}
		ct.ReadStream("archive:/CAB-synth/CAB-synth.resS", 0, 16)
	})
}
