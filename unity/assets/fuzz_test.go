package assets

import (
	"bytes"
	"flag"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/mecanim/mecanim/internal/corpustest"
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

// addFileSeeds adds the synthetic files, the example bundle and the small
// corpus files (and the first bytes of the large ones) as seeds.
func addFileSeeds(f *testing.F) {
	seeds, err := synth.FileSeeds()
	if err != nil {
		f.Fatal(err)
	}
	for _, b := range seeds {
		f.Add(b)
	}
	if b, err := os.ReadFile("../../examples/hello.bundle"); err == nil {
		f.Add(b)
	}
	if dir, ok := corpustest.Lookup(); ok {
		_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			info, err := d.Info()
			if err != nil || info.Size() > 48<<10 {
				return nil
			}
			if b, err := os.ReadFile(p); err == nil {
				f.Add(b)
			}
			return nil
		})
	}
}

// FuzzOpenReader opens arbitrary bytes as a Unity file and decodes, names
// and dumps every object: no panic, and every failure an error value.
func FuzzOpenReader(f *testing.F) {
	addFileSeeds(f)
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
