package playable

import (
	"fmt"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/mecanim/mecanim/decode/catalog"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/model"
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

// BenchmarkLoadClipEach loads every clip of a scene with LoadClip, one
// call per clip, as a command that plays one clip does.
func BenchmarkLoadClipEach(b *testing.B) {
	for _, sc := range loadScenes {
		b.Run(sc.name, func(b *testing.B) {
			cat, clips := openCorpus(b, sc.files)
			b.ReportAllocs()
			for b.Loop() {
				for _, c := range clips {
					LoadClip(cat, c, Options{})
				}
			}
		})
	}
}

// BenchmarkLoaderEvery loads every clip of a scene with one new Loader per
// round, as a viewer or an export going through every clip does; compare
// BenchmarkLoadClipEach.
func BenchmarkLoaderEvery(b *testing.B) {
	for _, sc := range loadScenes {
		b.Run(sc.name, func(b *testing.B) {
			cat, clips := openCorpus(b, sc.files)
			b.ReportAllocs()
			for b.Loop() {
				l := NewLoader(cat)
				for _, c := range clips {
					l.LoadClip(c, Options{})
				}
			}
		})
	}
}

// TestLoaderPlaysClipsAsLoadClipDoes loads every clip of several file sets
// with one Loader and with a LoadClip call each: the same skeleton, the
// same poses to the bit, the same errors.
func TestLoaderPlaysClipsAsLoadClipDoes(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files []string
		opts  Options
	}{
		{"one humanoid avatar", loadScenes[0].files, Options{}},
		{"twelve humanoid avatars", loadScenes[1].files, Options{}},
		{"two avatars, mixed clips", []string{"lethal-emotes/customemotespackage"}, Options{}},
		{"avatar named", []string{"lethal-emotes/customemotespackage"}, Options{Avatar: "bandit1Avatar"}},
		{"generic clips", []string{"lc-example-enemy/modassets"}, Options{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cat, clips := openCorpus(t, tc.files)
			l := NewLoader(cat)
			for _, c := range clips {
				want, wantErr := LoadClip(cat, c, tc.opts)
				got, gotErr := l.LoadClip(c, tc.opts)
				if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
					t.Errorf("clip %q: error %v, want %v", c.Name, gotErr, wantErr)
					continue
				}
				if wantErr != nil {
					continue
				}
				if got.On != want.On || got.Humanoid != want.Humanoid || !reflect.DeepEqual(got.Skeleton, want.Skeleton) {
					t.Errorf("clip %q: on %s (humanoid %v), want on %s (humanoid %v), or another skeleton", c.Name, got.On, got.Humanoid, want.On, want.Humanoid)
					continue
				}
				n := want.Skeleton.Len()
				gl, gw := make([]geom.Transform, n), make([]geom.Transform, n)
				wl, ww := make([]geom.Transform, n), make([]geom.Transform, n)
				for _, at := range []float32{0, 0.25, want.Sampler.Duration() / 2, want.Sampler.Duration()} {
					got.Pose(at, gl, gw)
					want.Pose(at, wl, ww)
					if fmt.Sprint(gw) != fmt.Sprint(ww) {
						t.Errorf("clip %q at %g: poses differ", c.Name, at)
					}
				}
			}
		})
	}
}

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
		{"one humanoid avatar found", loadScenes[0].files, Options{}, 1, 4},
		{"twelve humanoid avatars refused", loadScenes[1].files, Options{}, 12, 0},
		{"avatar named", []string{"lethal-emotes/customemotespackage"}, Options{Avatar: "bandit1Avatar"}, 1, 6},
		{"animator named", loadScenes[0].files, Options{Animator: "morbman"}, 1, 4},
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

// TestLoaderDecodesOnceUnderConcurrentLoads loads the same clips from
// several goroutines through one Loader: still one decode per avatar and
// one humanoid rig (run with -race).
func TestLoaderDecodesOnceUnderConcurrentLoads(t *testing.T) {
	cat, clips := openCorpus(t, loadScenes[0].files)
	l := NewLoader(cat)
	var decodes atomic.Int32
	l.decode = func(o catalog.Object) (*model.Avatar, error) {
		decodes.Add(1)
		return cat.Avatar(o)
	}
	var wg sync.WaitGroup
	last := make([]*Playable, 8)
	for g := range last {
		wg.Go(func() {
			for _, c := range clips {
				p, err := l.LoadClip(c, Options{})
				if err != nil {
					t.Errorf("clip %q: %v", c.Name, err)
					return
				}
				last[g] = p
			}
		})
	}
	wg.Wait()
	if n := decodes.Load(); n != 1 {
		t.Errorf("%d avatar decodes, want 1", n)
	}
	for _, p := range last {
		if p != nil && p.HumanRig != last[0].HumanRig {
			t.Errorf("humanoid rig built more than once")
		}
	}
}

// openCorpus opens the corpus files and decodes every clip in them.
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
