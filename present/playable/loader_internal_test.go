package playable

import (
	"testing"

	"github.com/mecanim/mecanim/decode/catalog"
	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/assets"
)

// TestLoaderDecodesEachAvatarOnce loads every clip of files whose humanoid
// clips name no avatar, twice over, and counts the avatar decodes: each
// avatar object is decoded once, not once per clip, and the clips that
// play share one humanoid rig.
func TestLoaderDecodesEachAvatarOnce(t *testing.T) {
	for _, tc := range []struct {
		name    string
		files   []string
		opts    Options
		decodes int // avatar objects in the files a load looks at
		played  int // clips that play
	}{
		{"one humanoid avatar found", []string{"plateup-emotes/morbman", "lethal-emotes/customemotespackage2"}, Options{}, 1, 4},
		{"twelve humanoid avatars refused", []string{"ror2-skeletons/dlc3emoteskeletons", "lethal-emotes/customemotespackage2"}, Options{}, 12, 0},
		{"avatar named", []string{"lethal-emotes/customemotespackage"}, Options{Avatar: "bandit1Avatar"}, 1, 6},
		{"animator named", []string{"plateup-emotes/morbman", "lethal-emotes/customemotespackage2"}, Options{Animator: "morbman"}, 1, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cat, clips := openCorpus(t, tc.files)
			l := NewLoader(cat)
			decodes := 0
			l.decode = func(o catalog.Object) (*model.Avatar, error) {
				decodes++
				return cat.Avatar(o)
			}
			played := 0
			var rig any
			for range 2 {
				played = 0
				for _, c := range clips {
					p, err := l.LoadClip(c, tc.opts)
					if err != nil {
						continue
					}
					played++
					if p.HumanRig == nil {
						continue
					}
					if rig == nil {
						rig = p.HumanRig
					} else if rig != any(p.HumanRig) {
						t.Errorf("clip %q: humanoid rig built again", c.Name)
					}
				}
			}
			if decodes != tc.decodes {
				t.Errorf("%d avatar decodes for %d clips loaded twice, want %d", decodes, len(clips), tc.decodes)
			}
			if played != tc.played {
				t.Errorf("%d clips played, want %d", played, tc.played)
			}
		})
	}
}

func openCorpus(tb testing.TB, rel []string) (*catalog.Catalog, []*model.Clip) {
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
