package assetbundle

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/mecanim/mecanim/decode/compiled"
	"github.com/mecanim/mecanim/encode/muscleclip"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/assets"
	"github.com/mecanim/mecanim/unity/unitywrite"
)

// waveClip is a small generic clip: one animated rotation.
func waveClip(name string) *model.Clip {
	c := &model.Clip{Name: name, SampleRate: 30, Stop: 1, UseHighQualityCurve: true}
	for comp, vals := range [][3]float32{{0, 0.5, 0}, {0, 0, 0}, {0, 0, 0}, {1, 0.8660254, 1}} {
		t := model.Target{Path: "Arm", PathHash: model.PathHash("Arm"), PathKnown: true, ClassID: model.ClassTransform,
			Attribute: uint32(model.PropRotation), Transform: model.PropRotation, Component: comp}
		cv := model.Curve{Target: t, Kind: model.CurveKeyframed}
		for k, v := range vals {
			cv.Keys = append(cv.Keys, model.Keyframe{Time: float32(k) / 2, Value: v})
		}
		c.Curves = append(c.Curves, cv)
	}
	return c
}

func packClips(t *testing.T, target *Target, comp unitywrite.Compression, names ...string) []byte {
	t.Helper()
	var list []Asset
	for _, n := range names {
		f, err := muscleclip.Compile(waveClip(n), muscleclip.Options{Version: target.LayoutVersion()})
		if err != nil {
			t.Fatal(err)
		}
		list = append(list, Asset{Path: ContainerPath("Assets/Emotes", n, ".anim"), ClassID: model.ClassAnimationClip, Fields: f})
	}
	b, err := Pack(target, list, Options{Name: "emotes", Compression: comp})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// readClips opens a packed bundle and decodes its clips by name, and its
// container paths.
func readClips(t *testing.T, b []byte) (map[string]*model.Clip, []string, *assets.Container) {
	t.Helper()
	c, err := assets.OpenReader(bytes.NewReader(b), int64(len(b)), "packed.bundle", assets.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	clips := map[string]*model.Clip{}
	var paths []string
	f := c.Files[0]
	for i := range f.Objects {
		o := &f.Objects[i]
		v, err := f.Decode(o)
		if err != nil {
			t.Fatalf("object %d: %v", o.PathID, err)
		}
		switch o.ClassID {
		case model.ClassAnimationClip:
			cl, err := compiled.Clip(v, f.UnityVersion)
			if err != nil {
				t.Fatal(err)
			}
			clips[cl.Name] = cl
		case classAssetBundle:
			for _, e := range v.Field("m_Container").Elems() {
				paths = append(paths, e.Field("first").Str())
			}
		}
	}
	return clips, paths, c
}

func TestPackedClipsReadBackEqual(t *testing.T) {
	for _, version := range []string{"2019.4.26f1", "2021.3.33f1", "2022.3.9f1"} {
		for _, comp := range []unitywrite.Compression{unitywrite.StoreNone, unitywrite.StoreLZ4HC, unitywrite.StoreLZMA} {
			target, err := TargetForVersion(version, 5)
			if err != nil {
				t.Fatal(err)
			}
			clips, paths, c := readClips(t, packClips(t, target, comp, "Wave", "Bow"))
			if len(clips) != 2 || len(paths) != 2 || paths[0] != "assets/emotes/bow.anim" || paths[1] != "assets/emotes/wave.anim" {
				t.Fatalf("%s %s: clips %d, container %v", version, comp, len(clips), paths)
			}
			if c.Files[0].UnityVersion != version {
				t.Errorf("version %q", c.Files[0].UnityVersion)
			}
			src := waveClip("Wave")
			got := clips["Wave"]
			for i := range src.Curves {
				for k := 0; k <= 60; k++ {
					tm := float32(k) / 60
					if d := math.Abs(float64(got.Curves[i].Eval(tm) - src.Curves[i].Eval(tm))); d > 1e-5 {
						t.Fatalf("%s: curve %d at %g differs by %g", version, i, tm, d)
					}
				}
			}
		}
	}
}

// A game that strips its type trees gets a bundle without them, with the
// game's type hashes, decoded by the built-in layouts of its version.
func TestStrippedTargetGivesAStrippedBundle(t *testing.T) {
	full, err := TargetForVersion("2022.3.9f1", 5)
	if err != nil {
		t.Fatal(err)
	}
	full.embed = false
	game := packClips(t, full, unitywrite.StoreLZ4HC, "Idle")
	path := filepath.Join(t.TempDir(), "game.bundle")
	if err := os.WriteFile(path, game, 0o644); err != nil {
		t.Fatal(err)
	}
	target, err := TargetOf(path)
	if err != nil {
		t.Fatal(err)
	}
	if !target.Stripped() {
		t.Fatal("target not seen as stripped")
	}
	clips, _, c := readClips(t, packClips(t, target, unitywrite.StoreLZMA, "Wave"))
	if clips["Wave"] == nil || c.Files[0].EnableTypeTree {
		t.Errorf("clips %v, type trees %v", clips, c.Files[0].EnableTypeTree)
	}
}

func TestPackRefusesAssetsThatCannotShareABundle(t *testing.T) {
	target, _ := TargetForVersion("2022.3.9f1", 5)
	f, _ := muscleclip.Compile(waveClip("a"), muscleclip.Options{})
	cases := []struct {
		name string
		list []Asset
		opts Options
	}{
		{"no name", []Asset{{Path: "a", ClassID: 74, Fields: f}}, Options{}},
		{"nothing", nil, Options{Name: "x"}},
		{"same path", []Asset{{Path: "a", ClassID: 74, Fields: f}, {Path: "a", ClassID: 74, Fields: f}}, Options{Name: "x"}},
		{"same id", []Asset{{Path: "a", PathID: 5, ClassID: 74, Fields: f}, {Path: "b", PathID: 5, ClassID: 74, Fields: f}}, Options{Name: "x"}},
		{"bundle's id", []Asset{{Path: "a", PathID: 1, ClassID: 74, Fields: f}}, Options{Name: "x"}},
		{"preload outside", []Asset{{Path: "a", ClassID: 74, Fields: f, Preload: []int64{99}}}, Options{Name: "x"}},
	}
	for _, tc := range cases {
		if _, err := Pack(target, tc.list, tc.opts); !errors.Is(err, ErrAssets) {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
	if _, err := TargetForVersion("not a version", 5); !errors.Is(err, ErrTarget) {
		t.Errorf("bad version: %v", err)
	}
}
