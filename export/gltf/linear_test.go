package gltf

import (
	"bytes"
	"math"
	"os"
	"testing"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
	qg "github.com/qmuntal/gltf"
)

// syntheticRig is the rig syntheticClip drives.
func syntheticRig(t *testing.T) (*model.Rig, *anim.Skeleton) {
	t.Helper()
	rig := &model.Rig{Name: "r", Nodes: []model.RigNode{
		{Name: "r", Parent: -1, Local: geom.Identity},
		{Name: "a", Path: "a", Parent: 0, Local: geom.Identity},
		{Name: "b", Path: "a/b", Parent: 1, Local: geom.Transform{T: geom.V3(0, 1, 0), R: geom.IdentityQuat, S: geom.V3(1, 1, 1)}},
		{Name: "c", Path: "a/c", Parent: 1, Local: geom.Identity},
	}}
	sk, err := anim.SkeletonFromRig(rig)
	if err != nil {
		t.Fatal(err)
	}
	return rig, sk
}

// TestLinearInterpolationWritesNoCubicSpline exports the clip of every
// curve form with SceneOptions.Interpolation Linear's rule: every track
// that would be CUBICSPLINE is sampled at the rate instead, steps and
// lines stay exact, and the file passes the validator.
func TestLinearInterpolationWritesNoCubicSpline(t *testing.T) {
	rig, sk := syntheticRig(t)
	clip := syntheticClip()
	bc, err := anim.Bake(clip, sk)
	if err != nil {
		t.Fatal(err)
	}
	a, st := generic(clip, bc, JointMap(sk.Paths, rig), 0, true)
	type key struct {
		node int
		path Path
	}
	// Generic's choice for each (TestGenericKeepsCurveShapes): cubic
	// tracks become resampled lines, the others stay as they were.
	want := map[key]Interpolation{
		{1, PathTranslation}: Linear, {1, PathRotation}: Linear, {1, PathScale}: Linear,
		{2, PathTranslation}: Linear, {2, PathRotation}: Linear, {2, PathScale}: Step,
		{3, PathTranslation}: Linear, {3, PathRotation}: Linear,
	}
	wantExact := map[key]bool{{2, PathTranslation}: true, {2, PathScale}: true}
	if len(a.Tracks) != len(want) {
		t.Errorf("%d tracks, want %d", len(a.Tracks), len(want))
	}
	for _, tr := range a.Tracks {
		k := key{tr.Node, tr.Path}
		interp := tr.Interpolation
		if interp == "" {
			interp = Linear
		}
		if interp != want[k] || tr.Exact != wantExact[k] {
			t.Errorf("node %d %s: %s (exact %v), want %s (exact %v)", tr.Node, tr.Path, interp, tr.Exact, want[k], wantExact[k])
		}
		if !tr.Exact && len(tr.Times) != 31 {
			t.Errorf("node %d %s: %d keys, want 31 (30 fps over 1 s)", tr.Node, tr.Path, len(tr.Times))
		}
	}
	if st.Cubic != 0 || st.Exact != 2 || st.Resampled != 6 {
		t.Errorf("stats %+v: want no cubic track, 2 exact, 6 resampled", st)
	}
	a.Stats = st
	var buf bytes.Buffer
	if err := WriteGLB(&buf, &Scene{Name: "s", Rig: rig, Animations: []Animation{a}}); err != nil {
		t.Fatal(err)
	}
	if mods := validatorPathOrEmpty(t); mods != "" {
		p := t.TempDir() + "/linear.glb"
		writeTestFile(t, p, buf.Bytes())
		checkValid(t, "linear", validate(t, mods, p))
	}
}

// smoothClip moves joint a along smooth cubics (translation and rotation),
// to measure linear keys' error between keys without jumps.
func smoothClip() *model.Clip {
	c := &model.Clip{Name: "smooth", SampleRate: 30, Start: 0, Stop: 1}
	c.Curves = append(c.Curves,
		streamed(tgt("a", model.PropPosition, 0), [3]float32{0, 0, 3}, [3]float32{0.5, 1, -2}, [3]float32{1, 0.5, 0}),
		streamed(tgt("a", model.PropPosition, 1), [3]float32{0, 2, 0}, [3]float32{0.3, 1, 3}, [3]float32{1, -1, 1}),
	)
	for i := range 4 {
		var keys [][3]float32
		for k := range 5 {
			tm := float32(k) / 4
			q := geom.AxisAngle(geom.V3(1, 1, 0).Normalize(), 2*tm*tm)
			keys = append(keys, [3]float32{tm, [4]float32{q.X, q.Y, q.Z, q.W}[i], 0})
		}
		// Slopes from the neighbouring keys (a smooth path through them).
		for k := range keys {
			lo, hi := max(k-1, 0), min(k+1, len(keys)-1)
			keys[k][2] = (keys[hi][1] - keys[lo][1]) / (keys[hi][0] - keys[lo][0])
		}
		c.Curves = append(c.Curves, streamed(tgt("a", model.PropRotation, i), keys...))
	}
	return c
}

// TestBetweenKeysMeasuresTheWrittenFile checks AnimStats.BetweenKeys
// against the file written: evaluating its channels as glTF says (not as
// betweenKeys does) halfway between keys gives the same largest distance
// from the runtime's pose (within float32 rounding); elsewhere between keys the distance stays
// within it (a smooth clip); and doubling the rate divides it by about
// four (second order).
func TestBetweenKeysMeasuresTheWrittenFile(t *testing.T) {
	rig, sk := syntheticRig(t)
	clip := smoothClip()
	bc, err := anim.Bake(clip, sk)
	if err != nil {
		t.Fatal(err)
	}
	var got []float32
	for _, rate := range []float32{30, 60} {
		a, st := generic(clip, bc, JointMap(sk.Paths, rig), rate, true)
		a.Stats = st
		bk := betweenKeys(&a, bc, sk)
		got = append(got, bk)
		var buf bytes.Buffer
		if err := WriteGLB(&buf, &Scene{Name: "s", Rig: rig, Animations: []Animation{a}}); err != nil {
			t.Fatal(err)
		}
		doc := readGLB(t, buf.Bytes())
		chs := readChannels(t, doc)[0]
		n := len(rig.Nodes)
		local, world := make([]geom.Transform, n), make([]geom.Transform, n)
		var halfway, elsewhere float64
		for i := 0; float32(i)/rate < 1; i++ {
			for _, u := range []float64{0.5, 0.2, 0.8} {
				tm := (float64(i) + u) / float64(rate)
				bc.Sample(float32(tm), local)
				anim.LocalToModel(sk, local, world)
				fw := fileWorlds(doc, chs, tm)
				for j := range n {
					w := ConvertVec(world[j].T)
					d := dist([3]float64{fw[j][0][3], fw[j][1][3], fw[j][2][3]}, [3]float64{float64(w.X), float64(w.Y), float64(w.Z)})
					if u == 0.5 {
						halfway = max(halfway, d)
					} else {
						elsewhere = max(elsewhere, d)
					}
				}
			}
		}
		t.Logf("%g fps: BetweenKeys %.4g m; the file strays %.4g m halfway between keys, %.4g m at a fifth", rate, bk, halfway, elsewhere)
		if !(bk > 0) || math.Abs(halfway-float64(bk)) > 1e-4*float64(bk)+1e-6 {
			t.Errorf("%g fps: BetweenKeys %g m, but the file strays %g m halfway between keys", rate, bk, halfway)
		}
		if elsewhere > float64(bk)*(1+1e-4) {
			t.Errorf("%g fps: the file strays %g m a fifth of the way between keys, more than BetweenKeys %g m", rate, elsewhere, bk)
		}
	}
	if r := got[0] / got[1]; r < 3 || r > 5 {
		t.Errorf("BetweenKeys %g m at 30 fps, %g m at 60: ratio %.3g, want about 4", got[0], got[1], r)
	}
}

// fileWorlds returns every node's world matrix at time tm with the
// channels' values (evaluated as glTF says) in place of the nodes' own.
func fileWorlds(doc *qg.Document, chs []channel, tm float64) []mat {
	posed := &qg.Document{}
	for _, n := range doc.Nodes {
		c := *n
		posed.Nodes = append(posed.Nodes, &c)
	}
	for i := range chs {
		ch := &chs[i]
		v := ch.at(tm)
		n := posed.Nodes[ch.node]
		switch ch.path {
		case "translation":
			n.Translation = [3]float64{v[0], v[1], v[2]}
		case "rotation":
			n.Rotation = [4]float64{v[0], v[1], v[2], v[3]}
		case "scale":
			n.Scale = [3]float64{v[0], v[1], v[2]}
		}
	}
	return worlds(posed)
}

func writeTestFile(t *testing.T, p string, b []byte) {
	t.Helper()
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
