package catalog_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/mecanim/mecanim/decode/catalog"
	"github.com/mecanim/mecanim/internal/corpustest/filefuzz"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/assets"
)

// TestGenerateFuzzSeeds writes FuzzCatalog's committed seeds with
// -gen-seeds, and checks that the catalog of each decodes cleanly.
func TestGenerateFuzzSeeds(t *testing.T) {
	for name, b := range filefuzz.Seeds(t, "FuzzCatalog") {
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
	_, rerrs := cat.Rigs(context.Background())
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
	filefuzz.Fuzz(f, func(data []byte) { exerciseCatalog(data) })
}
