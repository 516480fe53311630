package playable_test

import (
	"testing"

	"github.com/mecanim/mecanim/decode/catalog"
	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/present/playable"
	"github.com/mecanim/mecanim/unity/assets"
)

// loadScenes are file sets whose humanoid clips name no avatar: one
// humanoid avatar to find, and twelve to scan (and refuse to choose from).
var loadScenes = []struct {
	name  string
	files []string
}{
	{"one-avatar", []string{"plateup-emotes/morbman", "lethal-emotes/customemotespackage2"}},
	{"twelve-avatars", []string{"ror2-skeletons/dlc3emoteskeletons", "lethal-emotes/customemotespackage2"}},
}

// openClips opens the corpus files and decodes every clip in them.
func openClips(tb testing.TB, rel []string) (*catalog.Catalog, []*model.Clip) {
	tb.Helper()
	var paths []string
	for _, r := range rel {
		paths = append(paths, corpustest.Path(tb, r))
	}
	cat, errs := catalog.Open(paths, assets.Options{})
	if len(errs) > 0 {
		tb.Fatalf("open: %v", errs)
	}
	tb.Cleanup(func() { cat.Close() })
	var clips []*model.Clip
	for _, o := range cat.ByClass(model.ClassAnimationClip) {
		c, err := cat.Clip(o)
		if err != nil {
			tb.Fatal(err)
		}
		clips = append(clips, c)
	}
	return cat, clips
}

// BenchmarkLoadClipEach loads every clip of a scene with LoadClip, one
// call per clip, as a command that plays one clip does.
func BenchmarkLoadClipEach(b *testing.B) {
	for _, sc := range loadScenes {
		b.Run(sc.name, func(b *testing.B) {
			cat, clips := openClips(b, sc.files)
			b.ReportAllocs()
			for b.Loop() {
				for _, c := range clips {
					playable.LoadClip(cat, c, playable.Options{})
				}
			}
		})
	}
}
