package catalog_test

import (
	"context"
	"errors"
	"testing"

	"github.com/mecanim/mecanim/decode/catalog"
	"github.com/mecanim/mecanim/internal/synth"
	"github.com/mecanim/mecanim/unity/assets"
)

// A context that has ended stops Open before its first file (a nil
// catalog) and Rigs before its first file with a rig, and Rigs keeps
// nothing then: a later call builds every rig.
func TestOpenAndRigsStopWhenTheirContextEnds(t *testing.T) {
	files := []string{
		synth.NewScene(t, synth.Options{Full: true}).Write("a.assets"),
		synth.NewScene(t, synth.Options{Full: true}).Write("b.assets"),
	}
	ended, cancel := context.WithCancel(t.Context())
	cancel()
	if cat, err := catalog.Open(ended, files, assets.Options{}); cat != nil || !errors.Is(err, context.Canceled) {
		t.Fatalf("Open: catalog %v, error %v", cat != nil, err)
	}
	cat, err := catalog.Open(t.Context(), files, assets.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer cat.Close()
	rigs, errs := cat.Rigs(ended)
	if len(rigs) != 0 || len(errs) != 1 || !errors.Is(errs[0], context.Canceled) {
		t.Fatalf("Rigs: %d rigs, errors %v", len(rigs), errs)
	}
	if rigs, errs := cat.Rigs(t.Context()); len(rigs) != len(files) || len(errs) != 0 {
		t.Errorf("Rigs after a cancelled call: %d rigs, errors %v; want %d", len(rigs), errs, len(files))
	}
}
