package gltf

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/decode/catalog"
	"github.com/mecanim/mecanim/decode/compiled"
	"github.com/mecanim/mecanim/decode/mesh"
	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/assets"
	"github.com/mecanim/mecanim/unity/serialized"
)

// corpusScene is one rig of the corpus with what was found on it.
type corpusScene struct {
	id    string
	scene *Scene
	errs  []error // renderers whose meshes could not be found or decoded
}

var (
	scenesOnce sync.Once
	scenes     []corpusScene
	scenesErr  error
)

// corpusScenes builds a scene for every Animator rig of the corpus: its
// meshes (found through a catalog of every corpus file) and, for rigs
// whose file holds generic clips, those clips sampled at 30 fps.
func corpusScenes(tb testing.TB) []corpusScene {
	tb.Helper()
	dir := corpustest.Dir(tb)
	scenesOnce.Do(func() { scenes, scenesErr = buildCorpusScenes(dir) })
	if scenesErr != nil {
		tb.Fatal(scenesErr)
	}
	return scenes
}

func buildCorpusScenes(dir string) ([]corpusScene, error) {
	var cts []*assets.Container
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if strings.Contains(p, "/source/") || strings.Contains(p, "/reference/") || strings.HasSuffix(p, ".resS") {
			return nil
		}
		if ct, err := assets.Open(p, assets.Options{}); err == nil {
			cts = append(cts, ct)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	cat := catalog.New(cts...)
	resolve := func(from *assets.File, ref model.Ref) (*assets.File, *serialized.Object, bool) {
		o, ok := cat.Resolve(from, ref)
		return o.File, o.Object, ok
	}
	var out []corpusScene
	for _, ct := range cts {
		rel, _ := filepath.Rel(dir, ct.Path)
		for _, f := range ct.Files {
			rigs, err := compiled.Rigs(f.File)
			if err != nil || len(rigs) == 0 {
				continue
			}
			var clips []*model.Clip
			for i := range f.Objects {
				o := &f.Objects[i]
				if o.ClassID != model.ClassAnimationClip {
					continue
				}
				if c, err := cat.Clip(catalog.Object{File: f, Object: o}); err == nil && !c.Humanoid {
					clips = append(clips, c)
				}
			}
			for _, rig := range rigs {
				att, errs := mesh.Attach(f, rig, resolve)
				s := &Scene{Name: rig.Name, Rig: rig, Meshes: FromAttached(att)}
				if sk, err := anim.SkeletonFromRig(rig); err == nil {
					for _, c := range clips {
						bc, err := anim.Bake(c, sk)
						if err != nil || bc.UnresolvedChannels() > 0 && bc.UnresolvedChannels() == len(c.Curves) {
							continue
						}
						s.Animations = append(s.Animations, Sample(c.Name, bc, JointMap(sk.Paths, rig), sk.Rest, 30))
					}
				}
				out = append(out, corpusScene{id: rel + "#" + f.Name + ":" + rig.Name, scene: s, errs: errs})
			}
		}
	}
	return out, nil
}

// TestCorpusRigsExport writes every corpus rig with its meshes and
// animations as .glb, reads it back and checks the node transforms, skins
// each skinned mesh at rest, and (when available) runs the Khronos
// validator, which must report no error.
func TestCorpusRigsExport(t *testing.T) {
	cs := corpusScenes(t)
	if len(cs) < 20 {
		t.Fatalf("only %d corpus rigs", len(cs))
	}
	mods := ""
	if _, err := os.Stat("/nonexistent"); err != nil {
		mods = validatorPathOrEmpty(t)
	}
	dir := t.TempDir()
	meshes, tracks := 0, 0
	for i, c := range cs {
		for _, err := range c.errs {
			t.Logf("%s: %v", c.id, err)
		}
		var buf bytes.Buffer
		if err := WriteGLB(&buf, c.scene); err != nil {
			t.Errorf("%s: %v", c.id, err)
			continue
		}
		doc := readGLB(t, buf.Bytes())
		checkRigNodes(t, doc, c.scene.Rig)
		worst := checkSkinAtRest(t, doc, c.scene, 1e-4)
		meshes += len(c.scene.Meshes)
		for _, a := range c.scene.Animations {
			tracks += len(a.Tracks)
		}
		t.Logf("%s: %d nodes, %d meshes, %d animations, %d bytes; rest pose off the bind pose by up to %.3g", c.id, len(c.scene.Rig.Nodes), len(c.scene.Meshes), len(c.scene.Animations), buf.Len(), worst)
		if mods != "" {
			p := filepath.Join(dir, "rig"+string(rune('a'+i%26))+".glb")
			if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			checkValid(t, c.id, validate(t, mods, p))
		}
	}
	t.Logf("%d rigs, %d meshes, %d animation tracks", len(cs), meshes, tracks)
}
