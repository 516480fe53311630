package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/bind"
	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/internal/synth"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/present/render"
	"github.com/mecanim/mecanim/present/view"
	qg "github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"
)

// corpusInputs lists every Unity file of the corpus (not the YAML sources,
// the reference dumps or the glTF characters).
func corpusInputs(t *testing.T) []string {
	dir := corpustest.Dir(t)
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if strings.Contains(rel, "source/") || strings.Contains(rel, "reference/") || strings.HasPrefix(rel, "characters/") ||
			strings.HasPrefix(rel, "animation-jobs-samples/") || strings.HasSuffix(p, ".resS") || strings.HasSuffix(p, ".md") ||
			strings.HasSuffix(p, "invalidfile") {
			return nil
		}
		out = append(out, p)
		return nil
	})
	return out
}

// TestCommandsPlaceEveryJointAlike poses every corpus clip on every
// character it plays on, at three times on the clip's frame grid, four
// ways: pose --json's model transforms, the viewer's frames, the exported
// glTF evaluated by the reader below (its own interpolation, not the
// exporter's), and the points render draws. They must agree within 1e-5
// of the character's height on every joint, the ones no curve and no
// muscle drives included.
func TestCommandsPlaceEveryJointAlike(t *testing.T) {
	if testing.Short() {
		t.Skip("poses every corpus clip four ways")
	}
	set, err := bind.Open(t.Context(), corpusInputs(t), bind.Options{})
	for _, err := range bind.Errors(err) {
		t.Log(err)
	}
	defer set.Close()
	srv, err := view.New(set, view.Options{})
	if err != nil {
		t.Fatal(err)
	}
	clipIndex := map[model.Source]int{}
	for i, it := range set.Clips() {
		clipIndex[it.Source] = i
	}
	dir := t.TempDir()
	pairs, joints, viewSkipped := 0, 0, 0
	var worst float64
	worstAt := ""
	for ci, it := range set.Characters() {
		ch, err := set.Character(t.Context(), bound.CharacterID(ci))
		if err != nil {
			t.Logf("%s: %v", it.Label, err)
			continue
		}
		motions, _, _ := set.Motions(t.Context(), ch)
		if len(motions) == 0 {
			continue
		}
		height := characterHeight(ch)
		glb := filepath.Join(dir, fmt.Sprintf("c%d.glb", ci))
		var sink bytes.Buffer
		if _, err := exportCharacter(&env{stdout: &sink, stderr: &sink, quiet: true}, set, ch, &exportOptions{noMeshes: true}, glb); err != nil {
			t.Fatalf("%s: export: %v", it.Label, err)
		}
		doc, err := qg.Open(glb)
		if err != nil {
			t.Fatal(err)
		}
		if len(doc.Animations) != len(motions) {
			t.Fatalf("%s: %d animations for %d clips", it.Label, len(doc.Animations), len(motions))
		}
		for mi, m := range motions {
			times := gridTimes(m)
			where := fmt.Sprintf("clip %q (%s) on %s", m.Clip().Name, m.Source(), it.Label)
			ways := map[string][][]geom.Vec3{
				"pose":   posePositions(t, m, times),
				"render": renderPositions(m, times),
				"glTF":   gltfPositions(t, doc, mi, times, ch.Skeleton().Len()),
			}
			if v := viewPositions(t, srv, clipIndex[m.Source()], ci, m, times); v != nil {
				ways["view"] = v
			} else {
				viewSkipped++
			}
			for name, ps := range ways {
				if len(ps) != len(times) {
					t.Fatalf("%s: %s gave %d frames for %d times", where, name, len(ps), len(times))
				}
				for k := range times {
					if len(ps[k]) != ch.Skeleton().Len() {
						t.Fatalf("%s: %s placed %d joints at t=%g, the skeleton has %d", where, name, len(ps[k]), times[k], ch.Skeleton().Len())
					}
					for j := range ps[k] {
						want := ways["pose"][k][j]
						d := float64(ps[k][j].Sub(want).Len()) / height
						// float32 resolves a position 1 km from the origin
						// to about 1e-4 m: a character placed there in its
						// scene cannot agree more closely than that.
						tol := math.Max(1e-5, 4*float64(want.Len())/(1<<23)/height)
						if d/tol*1e-5 > worst {
							worst, worstAt = d/tol*1e-5, fmt.Sprintf("%s vs pose: %s, t=%g, joint %q", name, where, times[k], ch.Skeleton().Paths[j])
						}
						if d > tol {
							t.Fatalf("%s vs pose: %s, t=%g, joint %q: %v vs %v (%.3g of the height %g)",
								name, where, times[k], ch.Skeleton().Paths[j], ps[k][j], ways["pose"][k][j], d, height)
						}
					}
				}
			}
			pairs++
			joints += ch.Skeleton().Len()
		}
	}
	if pairs < 50 {
		t.Fatalf("only %d clip-character pairs compared", pairs)
	}
	if viewSkipped > pairs/4 {
		t.Fatalf("the viewer was compared on only %d of %d pairs", pairs-viewSkipped, pairs)
	}
	t.Logf("%d clip-character pairs (%d too long for the viewer's frame cap at the clip's rate), %d joint tracks, 3 times each: worst disagreement %.3g of the height, scaled to its tolerance at 1e-5 (%s)", pairs, viewSkipped, joints, worst, worstAt)
}

// characterHeight is the vertical extent of the character's joints at
// rest (1 for a flat one).
func characterHeight(ch *bound.Character) float64 {
	sk := ch.Skeleton()
	world := make([]geom.Transform, sk.Len())
	anim.LocalToModel(sk, sk.Rest, world)
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, x := range world {
		if y := float64(x.T.Y); !math.IsInf(y, 0) && !math.IsNaN(y) {
			lo, hi = math.Min(lo, y), math.Max(hi, y)
		}
	}
	if !(hi-lo > 1e-3) {
		return 1
	}
	return hi - lo
}

// gridTimes picks three times on the clip's frame grid (where resampled
// exports hold exact keys): its start, a third and two thirds in.
func gridTimes(m *bound.Motion) []float32 {
	rate := float64(m.Clip().SampleRate)
	if !(rate > 0) || math.IsInf(rate, 0) {
		rate = 30
	}
	n := math.Floor(float64(m.Duration())*rate + 1e-6)
	return []float32{0, float32(math.Floor(n/3) / rate), float32(math.Floor(2*n/3) / rate)}
}

func posePositions(t *testing.T, m *bound.Motion, times []float32) [][]geom.Vec3 {
	var at []string
	for _, x := range times {
		at = append(at, strconv.FormatFloat(float64(x), 'g', -1, 32))
	}
	var out, errb bytes.Buffer
	if err := printPose(&env{stdout: &out, stderr: &errb}, m, at, 0, true); err != nil {
		t.Fatal(err)
	}
	var p struct {
		Frames []struct {
			Joints []struct {
				Model struct{ T [3]float32 } `json:"model"`
			} `json:"joints"`
		} `json:"frames"`
	}
	if err := json.Unmarshal(out.Bytes(), &p); err != nil {
		t.Fatal(err)
	}
	res := make([][]geom.Vec3, len(times))
	for k, pose := range p.Frames {
		for _, j := range pose.Joints {
			res[k] = append(res[k], geom.V3(j.Model.T[0], j.Model.T[1], j.Model.T[2]))
		}
	}
	return res
}

// viewPositions asks the viewer for frames at the clip's rate and takes
// the frames at the times (nil when the clip is too long for the viewer to
// send at that rate).
func viewPositions(t *testing.T, srv *view.Server, clip, char int, m *bound.Motion, times []float32) [][]geom.Vec3 {
	rate := float64(m.Clip().SampleRate)
	if !(rate > 0) || rate > view.MaxRate {
		rate = 30
	}
	f, err := srv.ClipFrames(clip, char, rate, false)
	if err != nil {
		t.Fatal(err)
	}
	if f.Rate != rate {
		return nil
	}
	n := len(f.Paths)
	res := make([][]geom.Vec3, len(times))
	for k, x := range times {
		fr := int(math.Round(float64(x) * rate))
		for j := 0; j < n; j++ {
			p := f.Positions[3*(fr*n+j):]
			res[k] = append(res[k], geom.V3(p[0], p[1], p[2]))
		}
	}
	return res
}

func renderPositions(m *bound.Motion, times []float32) [][]geom.Vec3 {
	c := render.FromMotion(m)
	buf := make([]geom.Transform, len(c.Parents))
	res := make([][]geom.Vec3, len(times))
	for k, x := range times {
		c.Pose(x, buf)
		for _, b := range buf {
			res[k] = append(res[k], b.T)
		}
	}
	return res
}

// gltfPositions evaluates animation a of a glTF document at the times, on
// its own: each channel's sampler (STEP, LINEAR with slerp for rotations,
// CUBICSPLINE's Hermite with tangents scaled by the key interval), node
// transforms composed down the hierarchy, positions mirrored back into
// Unity's frame.
func gltfPositions(t *testing.T, doc *qg.Document, a int, times []float32, n int) [][]geom.Vec3 {
	type trs struct {
		t, s [3]float64
		r    [4]float64
	}
	anim := doc.Animations[a]
	res := make([][]geom.Vec3, len(times))
	for k, x := range times {
		local := make([]trs, len(doc.Nodes))
		for i, nd := range doc.Nodes {
			local[i] = trs{nd.TranslationOrDefault(), nd.ScaleOrDefault(), nd.RotationOrDefault()}
		}
		for _, ch := range anim.Channels {
			s := anim.Samplers[ch.Sampler]
			in, err := modeler.ReadAccessor(doc, doc.Accessors[s.Input], nil)
			if err != nil {
				t.Fatal(err)
			}
			out, err := modeler.ReadAccessor(doc, doc.Accessors[s.Output], nil)
			if err != nil {
				t.Fatal(err)
			}
			v := evalSampler(in.([]float32), flatten(out), s.Interpolation, ch.Target.Path, x)
			nd := &local[*ch.Target.Node]
			switch ch.Target.Path {
			case qg.TRSTranslation:
				copy(nd.t[:], v)
			case qg.TRSScale:
				copy(nd.s[:], v)
			case qg.TRSRotation:
				copy(nd.r[:], v)
			}
		}
		world := make([]geom.Transform, len(doc.Nodes))
		var walk func(i int, parent geom.Transform)
		walk = func(i int, parent geom.Transform) {
			l := local[i]
			q := geom.Quat{X: float32(l.r[0]), Y: float32(l.r[1]), Z: float32(l.r[2]), W: float32(l.r[3])}
			world[i] = parent.Mul(geom.Transform{T: geom.V3(float32(l.t[0]), float32(l.t[1]), float32(l.t[2])), R: q.Normalize(),
				S: geom.V3(float32(l.s[0]), float32(l.s[1]), float32(l.s[2]))})
			for _, c := range doc.Nodes[i].Children {
				walk(c, world[i])
			}
		}
		walk(0, geom.Identity)
		for j := 0; j < n; j++ {
			p := world[j].T
			res[k] = append(res[k], geom.V3(-p.X, p.Y, p.Z))
		}
	}
	return res
}

func flatten(v any) []float64 {
	var out []float64
	switch x := v.(type) {
	case [][3]float32:
		for _, e := range x {
			out = append(out, float64(e[0]), float64(e[1]), float64(e[2]))
		}
	case [][4]float32:
		for _, e := range x {
			out = append(out, float64(e[0]), float64(e[1]), float64(e[2]), float64(e[3]))
		}
	case []float32:
		for _, e := range x {
			out = append(out, float64(e))
		}
	}
	return out
}

// evalSampler evaluates a glTF animation sampler at time x.
func evalSampler(in []float32, out []float64, interp qg.Interpolation, path qg.TRSProperty, x float32) []float64 {
	comps := 3
	if path == qg.TRSRotation {
		comps = 4
	}
	stride := comps
	if interp == qg.InterpolationCubicSpline {
		stride = 3 * comps
	}
	value := func(k int) []float64 {
		off := k * stride
		if interp == qg.InterpolationCubicSpline {
			off += comps
		}
		return out[off : off+comps]
	}
	if x <= in[0] {
		return value(0)
	}
	last := len(in) - 1
	if x >= in[last] {
		return value(last)
	}
	k := 0
	for k+1 < len(in) && in[k+1] <= x {
		k++
	}
	t0, t1 := float64(in[k]), float64(in[k+1])
	h := t1 - t0
	u := (float64(x) - t0) / h
	a, b := value(k), value(k+1)
	r := make([]float64, comps)
	switch {
	case interp == qg.InterpolationStep:
		copy(r, a)
	case interp == qg.InterpolationCubicSpline:
		outT := out[k*stride+2*comps : k*stride+3*comps]
		inT := out[(k+1)*stride : (k+1)*stride+comps]
		u2, u3 := u*u, u*u*u
		for c := range r {
			r[c] = (2*u3-3*u2+1)*a[c] + (u3-2*u2+u)*h*outT[c] + (-2*u3+3*u2)*b[c] + (u3-u2)*h*inT[c]
		}
	case path == qg.TRSRotation:
		// Spherical interpolation along the shorter arc.
		d := a[0]*b[0] + a[1]*b[1] + a[2]*b[2] + a[3]*b[3]
		bb := append([]float64(nil), b...)
		if d < 0 {
			d = -d
			for c := range bb {
				bb[c] = -bb[c]
			}
		}
		wa, wb := 1-u, u
		if d < 0.9999999 {
			th := math.Acos(d)
			wa, wb = math.Sin((1-u)*th)/math.Sin(th), math.Sin(u*th)/math.Sin(th)
		}
		for c := range r {
			r[c] = wa*a[c] + wb*bb[c]
		}
	default:
		for c := range r {
			r[c] = a[c] + (b[c]-a[c])*u
		}
	}
	return r
}

// A prop the scene parks 8 km from the hand (the avatar's default pose
// keeps it at the hand) stays there in every command: the pose command as
// a user runs it, the viewer, the glTF and the sheet.
func TestAParkedPropStaysParkedInEveryCommand(t *testing.T) {
	p, gun := synth.ParkedScene(t)
	out, stderr, code := runCLI("pose", p, "--clip", "Idle", "--at", "0.1", "--json")
	if code != exitOK {
		t.Fatalf("pose: exit %d: %s", code, stderr)
	}
	var pose struct {
		Frames []struct {
			Joints []struct {
				Path  string                 `json:"path"`
				Local struct{ T [3]float32 } `json:"local"`
			} `json:"joints"`
		} `json:"frames"`
	}
	if err := json.Unmarshal([]byte(out), &pose); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, j := range pose.Frames[0].Joints {
		if strings.HasSuffix(j.Path, "/Gun") {
			found = true
			if j.Local.T != [3]float32{gun.X, gun.Y, gun.Z} {
				t.Errorf("pose --json: the gun at %v, want the scene's %v", j.Local.T, gun)
			}
		}
	}
	if !found {
		t.Fatal("pose --json has no Gun joint")
	}
	set, err := bind.Open(t.Context(), []string{p}, bind.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	i, _ := set.FindClip("Idle")
	m, err := set.Motion(t.Context(), i, nil)
	if err != nil {
		t.Fatal(err)
	}
	ch := m.On()
	glb := filepath.Join(t.TempDir(), "parked.glb")
	var sink bytes.Buffer
	if _, err := exportCharacter(&env{stdout: &sink, stderr: &sink, quiet: true}, set, ch, &exportOptions{clips: []string{"Idle"}, noMeshes: true}, glb); err != nil {
		t.Fatal(err)
	}
	doc, err := qg.Open(glb)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := view.New(set, view.Options{})
	if err != nil {
		t.Fatal(err)
	}
	times := []float32{0, 0.1, 0.2}
	g, _ := ch.Skeleton().Index(synth.BonePath(19) + "/Gun")
	for name, ps := range map[string][][]geom.Vec3{
		"pose":   posePositions(t, m, times),
		"view":   viewPositions(t, srv, int(i), 0, m, times),
		"render": renderPositions(m, times),
		"glTF":   gltfPositions(t, doc, 0, times, ch.Skeleton().Len()),
	} {
		if ps == nil {
			t.Fatalf("%s: no positions", name)
		}
		for k := range times {
			if d := ps[k][g].Sub(ps[k][19]).Len(); math.Abs(float64(d)-8000) > 0.01 {
				t.Errorf("%s at t=%g: the gun %g m from the hand, want 8000", name, times[k], d)
			}
		}
	}
}
