package catalog_test

import (
	"bytes"
	"flag"
	"testing"

	"github.com/mecanim/mecanim/decode/catalog"
	"github.com/mecanim/mecanim/internal/fuzzcount"
	"github.com/mecanim/mecanim/internal/synth"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/assets"
)

var genSeeds = flag.Bool("gen-seeds", false, "write the committed fuzz seeds (testdata/fuzz) from internal/synth")

// TestGenerateFuzzSeeds writes FuzzCatalog's committed seeds with
// -gen-seeds, and checks that the catalog of each decodes cleanly.
func TestGenerateFuzzSeeds(t *testing.T) {
	seeds, err := synth.FileSeeds()
	if err != nil {
		t.Fatal(err)
	}
	if *genSeeds {
		if err := synth.WriteSeeds(".", "FuzzCatalog", seeds); err != nil {
			t.Fatal(err)
		}
	}
	for name, b := range seeds {
		if n := exerciseCatalog(b); n != 0 {
			t.Errorf("%s: %d errors", name, n)
		}
	}
}

// exerciseCatalog opens data and decodes everything a catalog offers; it
// returns how many steps failed.
func exerciseCatalog(data []byte) (errs int) {
	ct, err := assets.OpenReader(bytes.NewReader(data), int64(len(data)), "fuzz", assets.Options{})
	if err != nil {
		return 1
	}
	cat := catalog.New(ct)
	defer cat.Close()
	cat.Names()
	_, rerrs := cat.Rigs()
	errs += len(rerrs)
	for _, o := range cat.ByClass(model.ClassAvatar) {
		if _, err := cat.Avatar(o); err != nil {
			errs++
		}
	}
	for _, o := range cat.ByClass(model.ClassAnimationClip) {
		if _, err := cat.Clip(o); err != nil {
			errs++
		}
		cat.Name(o)
	}
	for _, o := range cat.ByClass(model.ClassAnimatorController) {
		ctl, err := cat.Controller(o)
		if err != nil {
			errs++
			continue
		}
		_, cerrs := cat.ControllerClips(o, ctl)
		errs += len(cerrs)
	}
	if _, err := cat.Rig("Synth"); err != nil {
		errs++
	}
	return errs
}

// FuzzCatalog opens arbitrary bytes and decodes every rig, avatar, clip and
// controller through a catalog: errors are fine, panics are not.
func FuzzCatalog(f *testing.F) {
	for _, b := range synth.SeedFiles(48 << 10) {
		f.Add(b)
	}
	count := fuzzcount.Counter("FuzzCatalog")
	f.Fuzz(func(t *testing.T, data []byte) {
		count()
		exerciseCatalog(data)
	})
}
