package gltf

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/bind"
	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/decode/catalog"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/unity/assets"
	qg "github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"
)

// corpusScene is one rig of the corpus with what was found on it.
type corpusScene struct {
	id    string
	scene *Scene
	errs  []error // renderers whose meshes could not be found or decoded
	// clips are the bound clips the scene's animations were made from
	// (parallel to scene.Animations), with their joints' rig nodes.
	clips  []anim.Sampler
	joints [][]int
}

var (
	scenesOnce sync.Once
	scenes     []corpusScene
	scenesErr  error
	// corpusChars and corpusMotions are each scene's character and the
	// clips bound to it (for benchmarks that build scenes again).
	corpusChars   []*bound.Character
	corpusMotions [][]*bound.Motion
)

// corpusScenes builds a scene for every Animator rig of the corpus: its
// meshes (found through a set of every corpus file), the generic clips of
// its file (kept exact, see Generic) and, on rigs with a humanoid avatar,
// every humanoid clip of the corpus, resampled at each clip's own rate.
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
	set, _ := bind.NewWith(context.Background(), catalog.New(cts...), nil, bind.Options{})
	clipItems := set.Clips()
	var out []corpusScene
	for ci, item := range set.Characters() {
		ch, err := set.Character(context.Background(), bound.CharacterID(ci))
		if err != nil {
			continue
		}
		rel, _ := filepath.Rel(dir, item.Source.Container)
		// Its file's generic clips; every humanoid clip on a humanoid rig.
		var motions []*bound.Motion
		for k, it := range clipItems {
			c, err := set.Clip(bound.ClipID(k))
			if err != nil {
				continue
			}
			if c.Humanoid && ch.Human() == nil || !c.Humanoid && it.Source.File != item.Source.File {
				continue
			}
			if m, err := set.Motion(context.Background(), bound.ClipID(k), ch); err == nil {
				motions = append(motions, m)
			}
		}
		corpusChars, corpusMotions = append(corpusChars, ch), append(corpusMotions, motions)
		s, errs := BuildScene(ch, motions, SceneOptions{})
		cs := corpusScene{id: rel + "#" + item.Source.File + ":" + item.Name, scene: s, errs: errs}
		joints := make([]int, ch.Skeleton().Len())
		for i := range joints {
			joints[i] = i
		}
		for _, m := range motions {
			cs.clips, cs.joints = append(cs.clips, m), append(cs.joints, joints)
		}
		if len(cs.clips) != len(s.Animations) {
			return nil, fmt.Errorf("%s: %d clips bound, %d animations", cs.id, len(cs.clips), len(s.Animations))
		}
		out = append(out, cs)
	}
	return out, nil
}

// TestCorpusRigsExport writes every corpus rig with its meshes and
// animations as .glb, reads it back and checks the node transforms, skins
// each skinned mesh at rest, and (when available) runs the Khronos
// validator, which must report no error, on it and, when it has a cubic
// track, on its export with Interpolation Linear.
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
		checkAnimations(t, doc, c.scene)
		worst := checkSkinAtRest(t, doc, c.scene, 1e-4)
		meshes += len(c.scene.Meshes)
		for _, a := range c.scene.Animations {
			tracks += len(a.Tracks)
		}
		t.Logf("%s: %d nodes, %d meshes, %d materials, %d animations, %d bytes; rest pose off the bind pose by up to %.3g", c.id, len(c.scene.Rig.Nodes), len(c.scene.Meshes), len(doc.Materials), len(c.scene.Animations), buf.Len(), worst)
		if mods != "" {
			p := filepath.Join(dir, "rig"+string(rune('a'+i%26))+".glb")
			if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			checkValid(t, c.id, validate(t, mods, p))
			if hasCubic(c.scene) {
				// Written with Interpolation Linear, it is another file.
				ls, _ := BuildScene(corpusChars[i], corpusMotions[i], SceneOptions{Interpolation: Linear})
				var lb bytes.Buffer
				if err := WriteGLB(&lb, ls); err != nil {
					t.Fatalf("%s (linear): %v", c.id, err)
				}
				if err := os.WriteFile(p, lb.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				checkValid(t, c.id+" (linear)", validate(t, mods, p))
			}
		}
	}
	t.Logf("%d rigs, %d meshes, %d animation tracks", len(cs), meshes, tracks)
}

// hasCubic reports whether a scene has a CUBICSPLINE track (else its
// export with Interpolation Linear is the same file).
func hasCubic(s *Scene) bool {
	for _, a := range s.Animations {
		for _, tr := range a.Tracks {
			if tr.Interpolation == CubicSpline {
				return true
			}
		}
	}
	return false
}

// checkAnimations reads every exported channel back and checks its keys
// are the track's, mirrored.
func checkAnimations(t *testing.T, doc *qg.Document, s *Scene) {
	t.Helper()
	var given []Animation // those with something to animate (glTF needs a channel)
	for _, a := range s.Animations {
		if len(a.Tracks) > 0 {
			given = append(given, a)
		}
	}
	if len(doc.Animations) != len(given) {
		t.Errorf("%d animations written, %d given", len(doc.Animations), len(given))
		return
	}
	for ai, a := range doc.Animations {
		tracks := given[ai].Tracks
		if len(a.Channels) != len(tracks) {
			t.Errorf("animation %q: %d channels for %d tracks", a.Name, len(a.Channels), len(tracks))
			continue
		}
		for ci, ch := range a.Channels {
			tr := tracks[ci]
			out, err := modeler.ReadAccessor(doc, doc.Accessors[a.Samplers[ch.Sampler].Output], nil)
			if err != nil {
				t.Fatal(err)
			}
			var got []float32
			switch v := out.(type) {
			case [][3]float32:
				for _, x := range v {
					got = append(got, x[:]...)
				}
			case [][4]float32:
				for _, x := range v {
					got = append(got, x[:]...)
				}
			}
			sign := [4]float32{1, 1, 1, 1}
			comps := 3
			switch tr.Path {
			case PathTranslation:
				sign[0] = -1
			case PathRotation:
				sign, comps = [4]float32{1, -1, -1, 1}, 4
			}
			if len(got) != len(tr.Values) || *ch.Target.Node != tr.Node {
				t.Errorf("animation %q channel %d: %d values on node %d, want %d on %d", a.Name, ci, len(got), *ch.Target.Node, len(tr.Values), tr.Node)
				continue
			}
			for i, x := range got {
				if !near(float64(x), float64(sign[i%comps]*tr.Values[i]), 1e-6) {
					t.Errorf("animation %q channel %d (%s): value %d = %g, track %g", a.Name, ci, tr.Path, i, x, tr.Values[i])
					break
				}
			}
		}
	}
}

// TestSampleErrorBetweenKeys measures what linear keys at 30 and 60 fps
// lose against the exact clip: the largest distance (translations) and
// angle (rotations, glTF's slerp between keys) halfway between keys, over
// the corpus's generic clips and the humanoid clips Dab and Floss (others,
// such as nobones, jump between frames and converge no faster). The keys
// are exact, so the error is the
// interpolation's alone and must fall as h²: halving h divides it by about
// four (at least three is required).
func TestSampleErrorBetweenKeys(t *testing.T) {
	var errT, errR []float64
	for _, rate := range []float32{30, 60} {
		var worstT, worstR float64
		where := ""
		for _, c := range corpusScenes(t) {
			for k, clip := range c.clips {
				if m, ok := clip.(*bound.Motion); ok && m.Humanoid() && m.Clip().Name != "Dab" && m.Clip().Name != "Floss" {
					continue
				}
				joints := c.joints[k]
				n := len(joints)
				a, b, mid := make([]geom.Transform, n), make([]geom.Transform, n), make([]geom.Transform, n)
				h := 1 / rate
				for t0 := float32(0); t0+h <= clip.Duration(); t0 += h {
					clip.Sample(t0, a)
					clip.Sample(t0+h, b)
					clip.Sample(t0+h/2, mid)
					for j := range n {
						if joints[j] < 0 {
							continue
						}
						lt := a[j].T.Lerp(b[j].T, 0.5)
						if d := float64(lt.Sub(mid[j].T).Len()); d > worstT {
							worstT, where = d, fmt.Sprintf("%s clip %d t=%g joint %d (T)", c.id, k, t0, j)
						}
						if d := geom.AngleBetween(slerpHalf(a[j].R, b[j].R), mid[j].R) * 180 / math.Pi; d > worstR {
							worstR = d
						}
					}
				}
			}
		}
		t.Logf("%g fps: translation error up to %.3g m (%s), rotation error up to %.3g°", rate, worstT, where, worstR)
		errT, errR = append(errT, worstT), append(errR, worstR)
	}
	if errT[1] > errT[0]/3 || errR[1] > errR[0]/3 {
		t.Errorf("doubling the rate took the error from %g m, %g° to %g m, %g°: not second order", errT[0], errR[0], errT[1], errR[1])
	}
}

// slerpHalf returns the rotation halfway from q to r along the shorter arc.
func slerpHalf(q, r geom.Quat) geom.Quat {
	if q.Dot(r) < 0 {
		r = r.Neg()
	}
	return geom.Quat{X: q.X + r.X, Y: q.Y + r.Y, Z: q.Z + r.Z, W: q.W + r.W}.Normalize()
}
