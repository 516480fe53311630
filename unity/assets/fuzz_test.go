package assets

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/internal/corpustest/filefuzz"
	"github.com/mecanim/mecanim/unity/typetree"
	"github.com/mecanim/mecanim/unity/unityfs"
)

// TestGenerateFuzzSeeds writes FuzzOpenReader's committed seeds with
// -gen-seeds, and checks that each opens.
func TestGenerateFuzzSeeds(t *testing.T) {
	for name, b := range filefuzz.Seeds(t, "FuzzOpenReader") {
		if _, err := OpenReader(bytes.NewReader(b), int64(len(b)), name, Options{}); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
}

// FuzzOpenReader opens arbitrary bytes as a Unity file and decodes, names
// and dumps every object: no panic, and every failure an error value.
func FuzzOpenReader(f *testing.F) {
	filefuzz.Fuzz(f, func(data []byte) {
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
