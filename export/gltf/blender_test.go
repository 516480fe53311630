package gltf

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/geom"
	qg "github.com/qmuntal/gltf"
)

// blenderPath returns the Blender binary ($BLENDER, else blender on the
// PATH), or skips (fails when MECANIM_REQUIRE_BLENDER=1, as .ci/run sets)
// when there is none.
func blenderPath(tb testing.TB) string {
	tb.Helper()
	name := os.Getenv("BLENDER")
	if name == "" {
		name = "blender"
	}
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	msg := "Blender not available: apt-get install blender python3-numpy (or set $BLENDER)"
	if os.Getenv("MECANIM_REQUIRE_BLENDER") == "1" {
		tb.Fatal(msg + " (required by MECANIM_REQUIRE_BLENDER=1)")
	}
	tb.Skip(msg)
	return ""
}

// blenderJob is one file for testdata/blender_check.py: the animations to
// pose (by their written names) and the clip times to pose them at.
type blenderJob struct {
	Path       string         `json:"path"`
	Animations []blenderTimes `json:"animations"`
}

type blenderTimes struct {
	Name  string    `json:"name"`
	Times []float32 `json:"times"`
}

// blenderFile is what Blender made of one file.
type blenderFile struct {
	Path        string                  `json:"path"`
	Armatures   int                     `json:"armatures"`
	Bones       int                     `json:"bones"`
	Meshes      int                     `json:"meshes"`
	ShapeKeys   int                     `json:"shapeKeys"`
	Actions     int                     `json:"actions"`
	Empties     int                     `json:"empties"`
	BoneNames   []string                `json:"boneNames"`
	ObjectNames []string                `json:"objectNames"`
	ActionNames []string                `json:"actionNames"`
	Rest        map[string][3]float64   `json:"rest"`
	Animations  []blenderAnimationPoses `json:"animations"`
}

type blenderAnimationPoses struct {
	Name    string                  `json:"name"`
	Poses   []map[string][3]float64 `json:"poses"`
	Weights []map[string][]float64  `json:"weights"`
}

// runBlender imports the jobs' files in one headless Blender and returns
// what it made of each.
func runBlender(t *testing.T, blender string, jobs []blenderJob) []blenderFile {
	t.Helper()
	dir := t.TempDir()
	in, out := filepath.Join(dir, "job.json"), filepath.Join(dir, "out.json")
	b, err := json.Marshal(map[string]any{"files": jobs})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(in, b, 0o644); err != nil {
		t.Fatal(err)
	}
	script, err := filepath.Abs(filepath.Join("testdata", "blender_check.py"))
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	cmd := exec.Command(blender, "-b", "--factory-startup", "--python-exit-code", "1", "--python", script, "--", in, out)
	log, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("blender: %v\n%s", err, tail(string(log), 3000))
	}
	var res struct {
		Version string        `json:"version"`
		Files   []blenderFile `json:"files"`
	}
	b, err = os.ReadFile(out)
	if err == nil {
		err = json.Unmarshal(b, &res)
	}
	if err != nil || len(res.Files) != len(jobs) {
		t.Fatalf("blender's report: %v (%d files for %d)\n%s", err, len(res.Files), len(jobs), tail(string(log), 3000))
	}
	cpu := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	t.Logf("Blender %s imported %d files in %v (%v CPU)", res.Version, len(jobs), time.Since(start).Round(time.Millisecond), cpu.Round(time.Millisecond))
	return res.Files
}

func tail(s string, n int) string {
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}

// blenderCase is one export for Blender and what it must make of it.
type blenderCase struct {
	id    string
	scene *Scene
	doc   *qg.Document
	// keys: the first three times of each animation are key times, where
	// Blender must pose the bones as the runtime does (within tol).
	// between: the times after them are halfway between keys of the
	// resampled tracks, where Blender must pose them within the
	// animation's BetweenKeys (plus tol); else they are only measured.
	keys, between bool
	sk            *anim.Skeleton
	clips         []anim.Sampler // parallel to the written animations
	anims         []*Animation   // parallel to the written animations
	job           blenderJob
}

// TestBlenderImportsCorpusExports imports every corpus export into
// Blender 3.4 (headless) and checks what it makes of them: one armature
// per rig whose bones are the rig's nodes, everything named as the file
// names it (no ".001" renaming), the meshes, shape keys and one action per
// animation (and per mesh whose weights it animates); and the bones' world
// positions at rest and at three times per clip, against the runtime's
// pose (what `mecanim pose` prints). Default exports are checked at key
// times (Blender's importer drops CUBICSPLINE tangents, so it is right
// only there: the test logs how far generic clips stray halfway between
// keys), within 1e-4 of the rig's size; exports with Interpolation Linear
// halfway between keys, within AnimStats.BetweenKeys (what `export
// --interpolation linear` prints) and 1e-4 of the rig's size. Both allow
// for float32 rounding of positions far from the origin (4e-6 of the
// distance).
//
// Each rig is exported both ways when its default export has a
// CUBICSPLINE track; otherwise the two exports are the same file, imported
// once and checked both ways (this halves Blender's time: the rigs with
// humanoid clips only are the largest files). No corpus mesh has blend
// shapes: a synthetic face whose clip animates its shape keys (morphScene)
// is imported too, its shape key values checked at the weights' keys.
func TestBlenderImportsCorpusExports(t *testing.T) {
	blender := blenderPath(t)
	if raceEnabled {
		t.Skip("the race detector has nothing to find in Blender")
	}
	cases := blenderCorpus(t)
	dir := t.TempDir()
	var jobs []blenderJob
	for i := range cases {
		c := &cases[i]
		p := filepath.Join(dir, fmt.Sprintf("%03d.glb", i))
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		err = WriteGLB(f, c.scene)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			t.Fatalf("%s: %v", c.id, err)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		c.doc = readGLB(t, b)
		c.job.Path = p
		c.planTimes()
		jobs = append(jobs, c.job)
	}
	got := runBlender(t, blender, jobs)
	var all blenderStats
	for i := range cases {
		c := &cases[i]
		st := c.check(t, &got[i])
		t.Logf("%s: %s", c.id, st)
		if st.checks < len(c.anims) {
			t.Errorf("%s: %d bone positions checked over %d animations: Blender's import was hardly compared", c.id, st.checks, len(c.anims))
		}
		all.add(st)
	}
	t.Logf("%d files: %s", len(cases), all)
	// A floor far below what the corpus gives, so that a change that
	// silently drops rigs, animations or times from the comparison fails.
	if len(cases) < 10 || all.checks < 10_000 || all.weights == 0 {
		t.Fatalf("only %d files, %d bone positions and %d shape key values compared", len(cases), all.checks, all.weights)
	}
}

// blenderStats sums up the checks of one or more files.
type blenderStats struct {
	checks, weights int
	// atKeys: the largest error at key times, relative to the rig's size;
	// between: halfway between keys, relative to the rig's size and to
	// the animation's bound; stray: how far generic clips with cubic
	// tracks stray halfway between keys in a default export.
	atKeys, between, ofBound, stray float64
}

func (s *blenderStats) add(o blenderStats) {
	s.checks += o.checks
	s.weights += o.weights
	s.atKeys, s.between, s.ofBound, s.stray = max(s.atKeys, o.atKeys), max(s.between, o.between), max(s.ofBound, o.ofBound), max(s.stray, o.stray)
}

func (s blenderStats) String() string {
	return fmt.Sprintf("%d bone positions and %d shape key values checked; at keys within %.3g of the rig's size; halfway between keys within %.3g of it and %.3g of the printed bound (default export: generic clips stray by up to %.3g of it)",
		s.checks, s.weights, s.atKeys, s.between, s.ofBound, s.stray)
}

// blenderCorpus builds the exports the Blender test imports.
func blenderCorpus(t *testing.T) []blenderCase {
	t.Helper()
	cs := corpusScenes(t)
	var out []blenderCase
	for i, c := range cs {
		ch := corpusChars[i]
		ls, errs := BuildScene(ch, corpusMotions[i], SceneOptions{Interpolation: Linear})
		if len(errs) != len(c.errs) {
			t.Fatalf("%s: %d errors building it linear, %d exact", c.id, len(errs), len(c.errs))
		}
		if hasCubic(c.scene) {
			out = append(out,
				blenderCase{id: c.id, scene: c.scene, sk: ch.Skeleton(), clips: c.clips, keys: true},
				blenderCase{id: c.id + " (linear)", scene: ls, sk: ch.Skeleton(), clips: c.clips, between: true})
		} else {
			out = append(out, blenderCase{id: c.id + " (default = linear)", scene: ls, sk: ch.Skeleton(), clips: c.clips, keys: true, between: true})
		}
	}
	// The synthetic face whose clip animates shape keys (no corpus mesh
	// has blend shapes), its weights kept exactly and sampled.
	ms, bc, msk := morphScene(t)
	out = append(out, blenderCase{id: "synthetic morph", scene: ms, sk: msk, clips: []anim.Sampler{bc, bc}, keys: true})
	for i := range out {
		c := &out[i]
		// The written animations (those with a track), with their clips.
		var clips []anim.Sampler
		for k := range c.scene.Animations {
			if len(c.scene.Animations[k].Tracks) > 0 {
				c.anims = append(c.anims, &c.scene.Animations[k])
				clips = append(clips, c.clips[k])
			}
		}
		c.clips = clips
	}
	return out
}

// planTimes chooses the times each animation is posed at: when keys, its
// first and last keys and the inner key time most tracks have (ties: the
// one nearest the middle); then three times halfway between keys of its
// resampled tracks (of all its tracks when none is resampled), near a
// quarter, a half and three quarters of the clip.
func (c *blenderCase) planTimes() {
	for k, a := range c.anims {
		name := c.doc.Animations[k].Name
		dur := c.clips[k].Duration()
		var keys, resampled []float32
		for _, tr := range a.Tracks {
			if tr.Path == PathWeights {
				continue
			}
			keys = append(keys, tr.Times...)
			if !tr.Exact {
				resampled = append(resampled, tr.Times...)
			}
		}
		sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
		sort.Slice(resampled, func(i, j int) bool { return resampled[i] < resampled[j] })
		between := keys
		if len(resampled) > 0 {
			between = resampled
		}
		halfway := func(frac float32) float32 {
			want := frac * dur
			i := sort.Search(len(between), func(i int) bool { return between[i] > want })
			for ; i < len(between); i++ {
				if i > 0 && between[i] > between[i-1] {
					return between[i-1] + (between[i]-between[i-1])/2
				}
			}
			return want
		}
		times := []float32{halfway(0.25), halfway(0.5), halfway(0.75)}
		if c.keys {
			count := map[float32]int{}
			for _, x := range keys {
				count[x]++
			}
			mid, best := dur/2, -1
			for x, n := range count {
				if x <= 0 || x >= dur {
					continue
				}
				if n > best || n == best && math.Abs(float64(x-dur/2)) < math.Abs(float64(mid-dur/2)) {
					mid, best = x, n
				}
			}
			times = append([]float32{0, mid, dur}, times...)
		}
		c.job.Animations = append(c.job.Animations, blenderTimes{name, times})
	}
}

// exactAt reports whether Blender's import gives node j's world transform
// exactly at time tm: every track of j and its ancestors is constant, a
// step, a line of translations or scales (which Blender interpolates as
// glTF does), or keyed at tm.
func (c *blenderCase) exactAt(a *Animation, j int, tm float32) bool {
	for ; j >= 0; j = c.scene.Rig.Nodes[j].Parent {
		for _, tr := range a.Tracks {
			if tr.Node != j || tr.Path == PathWeights || len(tr.Times) == 1 || tr.Interpolation == Step ||
				(tr.Interpolation == Linear || tr.Interpolation == "") && tr.Path != PathRotation {
				continue
			}
			i := sort.Search(len(tr.Times), func(i int) bool { return tr.Times[i] >= tm })
			if i == len(tr.Times) || tr.Times[i] != tm {
				return false
			}
		}
	}
	return true
}

// check compares what Blender made of the case's file with the scene and
// the runtime.
func (c *blenderCase) check(t *testing.T, got *blenderFile) (st blenderStats) {
	t.Helper()
	s, doc := c.scene, c.doc
	want := expectedCounts(s)
	if got.Armatures != want.armatures || got.Bones != want.bones || got.Meshes != want.meshes || got.ShapeKeys != want.shapeKeys || got.Actions != want.actions || got.Empties != 0 {
		t.Errorf("%s: Blender made %d armatures, %d bones, %d meshes, %d shape keys, %d actions, %d empties; want %d, %d, %d, %d, %d, 0",
			c.id, got.Armatures, got.Bones, got.Meshes, got.ShapeKeys, got.Actions, got.Empties,
			want.armatures, want.bones, want.meshes, want.shapeKeys, want.actions)
	}
	// Names: Blender renames what clashes ("head.001"); nothing may.
	names := map[string]bool{}
	for _, n := range doc.Nodes {
		names[n.Name] = true
	}
	for _, n := range got.BoneNames {
		if !names[n] {
			t.Errorf("%s: Blender bone %q is no node's name", c.id, n)
			break
		}
	}
	for _, n := range got.ObjectNames {
		if !names[n] {
			t.Errorf("%s: Blender object %q is no node's name", c.id, n)
			break
		}
	}
	anims := map[string]bool{}
	for _, a := range doc.Animations {
		anims[a.Name] = true
	}
	for _, n := range got.ActionNames {
		// An action is named for its animation and the object it moves.
		ok := false
		for a := range anims {
			if o, found := strings.CutPrefix(n, a+"_"); found && names[o] {
				ok = true
			}
		}
		if !ok {
			t.Errorf("%s: Blender action %q is not named for an animation and a node", c.id, n)
			break
		}
	}

	size := float64(RigSize(s.Rig))
	if size == 0 {
		size = 1
	}
	tol := func(p [3]float64) float64 { return 1e-4*size + 4e-6*math.Sqrt(p[0]*p[0]+p[1]*p[1]+p[2]*p[2]) }
	// At rest.
	wr := unityWorlds(s.Rig)
	for j := range s.Rig.Nodes {
		name := doc.Nodes[j].Name
		p, ok := got.Rest[name]
		if !ok {
			t.Errorf("%s: no bone %q", c.id, name)
			return
		}
		w := [3]float64{-wr[j][0][3], wr[j][1][3], wr[j][2][3]}
		d := dist(p, w)
		st.atKeys = max(st.atKeys, d/size)
		if d > tol(w) {
			t.Errorf("%s: bone %q rests at %v, want %v (%.3g m off)", c.id, name, p, w, d)
			return
		}
		st.checks++
	}
	// Animated.
	nj := c.sk.Len()
	local, world := make([]geom.Transform, nj), make([]geom.Transform, nj)
	for k, ap := range got.Animations {
		a, clip, times := c.anims[k], c.clips[k], c.job.Animations[k].Times
		if len(ap.Poses) != len(times) {
			t.Fatalf("%s: animation %q: %d poses for %d times", c.id, ap.Name, len(ap.Poses), len(times))
		}
		generic, cubic := true, false
		if m, ok := clip.(*bound.Motion); ok {
			generic = !m.Humanoid()
		}
		for _, tr := range a.Tracks {
			cubic = cubic || tr.Interpolation == CubicSpline
		}
		bad := 0
		for ti, tm := range times {
			atKey := c.keys && ti < 3
			st.weights += c.checkWeights(t, a, ap.Name, tm, ap.Weights[ti])
			clip.Sample(tm, local)
			anim.LocalToModel(c.sk, local, world)
			for j := range nj {
				name := doc.Nodes[j].Name
				p, ok := ap.Poses[ti][name]
				if !ok {
					t.Errorf("%s: animation %q: no bone %q", c.id, ap.Name, name)
					return
				}
				v := ConvertVec(world[j].T)
				w := [3]float64{float64(v.X), float64(v.Y), float64(v.Z)}
				d := dist(p, w)
				var limit float64
				switch {
				case atKey:
					if !c.exactAt(a, j, tm) {
						continue
					}
					limit = tol(w)
					st.atKeys = max(st.atKeys, d/size)
				case c.between:
					limit = tol(w) + float64(a.Stats.BetweenKeys)
					st.between = max(st.between, d/size)
					st.ofBound = max(st.ofBound, d/limit)
				default:
					if generic && cubic {
						st.stray = max(st.stray, d/size)
					}
					continue
				}
				st.checks++
				if d > limit {
					if bad++; bad <= 3 {
						t.Errorf("%s: animation %q at %g s: bone %q at %v, pose %v: %.3g m off (%.3g of the rig's size; allowed %.3g m)", c.id, ap.Name, tm, name, p, w, d, d/size, limit)
					}
				}
			}
		}
	}
	return st
}

// checkWeights checks Blender's shape key values at time tm against the
// animation's weights tracks where tm is one of their keys (Blender's
// curves pass through the keys: between them it draws its own Bézier for
// a CUBICSPLINE track). It returns how many values it checked.
func (c *blenderCase) checkWeights(t *testing.T, a *Animation, anim string, tm float32, got map[string][]float64) int {
	t.Helper()
	n := 0
	for _, tr := range a.Tracks {
		if tr.Path != PathWeights {
			continue
		}
		k := sort.Search(len(tr.Times), func(i int) bool { return tr.Times[i] >= tm })
		if k == len(tr.Times) || tr.Times[k] != tm {
			continue
		}
		per := len(tr.Values) / len(tr.Times)
		vals := tr.Values[k*per : (k+1)*per]
		if tr.Interpolation == CubicSpline {
			per /= 3
			vals = vals[per : 2*per]
		}
		obj := c.doc.Nodes[tr.Node].Name + " (mesh)"
		w, ok := got[obj]
		if !ok || len(w) != per {
			t.Errorf("%s: animation %q: mesh %q has shape keys %v, want %d", c.id, anim, obj, w, per)
			continue
		}
		for i := range per {
			if math.Abs(w[i]-float64(vals[i])/100) > 1e-5 {
				t.Errorf("%s: animation %q at %g s: %q shape key %d at %g, want %g", c.id, anim, tm, obj, i, w[i], vals[i]/100)
			}
			n++
		}
	}
	return n
}

// counts are what Blender must make of an export.
type counts struct{ armatures, bones, meshes, shapeKeys, actions int }

// expectedCounts says what Blender's importer must make of a scene, from
// what `mecanim export` reports of it (its nodes, meshes and animations):
// one armature whose bones are the rig's nodes (and the joints standing
// in for bones outside the rig), every mesh an object with a shape key
// per blend shape and a basis, an action per animation and per mesh whose
// weights it animates.
func expectedCounts(s *Scene) counts {
	c := counts{armatures: 1, bones: len(s.Rig.Nodes)}
	for _, mi := range s.Meshes {
		for _, j := range mi.Joints {
			if j < 0 && mi.Mesh != nil && (mi.Mesh.BoneWeights != nil || mi.Mesh.HasVariableSkin()) {
				c.bones++
			}
		}
		if mi.Mesh == nil || mi.Mesh.VertexCount == 0 {
			continue
		}
		c.meshes++
		if k := len(mi.Mesh.BlendShapes); k > 0 {
			c.shapeKeys += k + 1
		}
	}
	for _, a := range s.Animations {
		moves := false
		weights := map[int]bool{}
		for _, t := range a.Tracks {
			if t.Path == PathWeights {
				weights[t.Node] = true
			} else {
				moves = true
			}
		}
		if moves {
			c.actions++ // the armature's
		}
		c.actions += len(weights)
	}
	return c
}
