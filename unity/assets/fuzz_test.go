package assets

import (
	"bytes"
	"flag"
	"io"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/internal/fuzzcount"
	"github.com/mecanim/mecanim/internal/synth"
	"github.com/mecanim/mecanim/unity/typetree"
	"github.com/mecanim/mecanim/unity/unityfs"
)

var genSeeds = flag.Bool("gen-seeds", false, "write the committed fuzz seeds (testdata/fuzz) from internal/synth")

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
	count := fuzzcount.Counter("FuzzOpenReader")
	f.Fuzz(func(t *testing.T, data []byte) {
		count()
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

// TestBundleNodesAreSniffedInDataOrder: the nodes of a bundle are read in
// the order of their data, whatever order the block info lists them in,
// so each block is decompressed once when the container is opened.
func TestBundleNodesAreSniffedInDataOrder(t *testing.T) {
	a := &unityfs.Archive{Nodes: []unityfs.Node{
		{Path: "c", Offset: 300}, {Path: "a", Offset: 0}, {Path: "d", Offset: 400},
		{Path: "b", Offset: 100}, {Path: "a-empty", Offset: 0},
	}}
	var got []string
	for _, i := range nodeOrder(a) {
		got = append(got, a.Nodes[i].Path)
	}
	if want := "a a-empty b c d"; strings.Join(got, " ") != want {
		t.Fatalf("order %q, want %q", got, want)
	}
}
