package gltf

import (
	"bytes"
	"math"
	"os"
	"testing"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
)

// streamed makes a continuous streamed curve through keys (time, value,
// slope) as Unity compiles one: a Hermite cubic from each key to the next,
// the initial frame at -MaxFloat32, the last key flat.
func streamed(tg model.Target, keys ...[3]float32) model.Curve {
	c := model.Curve{Target: tg, Kind: model.CurveStreamed}
	c.Segments = append(c.Segments, model.Segment{Time: -math.MaxFloat32, C: [4]float32{0, 0, 0, keys[0][1]}})
	for i := 0; i+1 < len(keys); i++ {
		k0, k1 := keys[i], keys[i+1]
		dt := float64(k1[0] - k0[0])
		d := float64(k1[1] - k0[1])
		m0, m1 := float64(k0[2]), float64(k1[2])
		c.Segments = append(c.Segments, model.Segment{Time: k0[0], C: [4]float32{
			float32((dt*(m0+m1) - 2*d) / (dt * dt * dt)), float32((3*d - dt*(2*m0+m1)) / (dt * dt)), k0[2], k0[1]}})
	}
	last := keys[len(keys)-1]
	c.Segments = append(c.Segments, model.Segment{Time: last[0], C: [4]float32{0, 0, 0, last[1]}})
	return c
}

func tgt(path string, p model.TransformProp, comp int) model.Target {
	return model.Target{Path: path, PathKnown: true, PathHash: model.PathHash(path), ClassID: model.ClassTransform, Transform: p, Component: comp}
}

// syntheticClip drives three joints with every curve form Generic meets.
func syntheticClip() *model.Clip {
	inf := float32(math.Inf(1))
	rot := func(c int) model.Target { return tgt("a", model.PropRotation, c) }
	q0 := geom.AxisAngle(geom.V3(0, 1, 0), 0.3)
	q1 := geom.AxisAngle(geom.V3(1, 0, 0), 1.2)
	q2 := geom.AxisAngle(geom.V3(0, 0, 1), -0.7)
	qc := func(q geom.Quat, i int) float32 { return [4]float32{q.X, q.Y, q.Z, q.W}[i] }
	c := &model.Clip{Name: "synthetic", SampleRate: 30, Start: 0, Stop: 1}
	// a: position x and y keyed at different times (cubic over the union).
	c.Curves = append(c.Curves,
		streamed(tgt("a", model.PropPosition, 0), [3]float32{0, 0, 1}, [3]float32{0.5, 1, -2}, [3]float32{1, 0.5, 0}),
		streamed(tgt("a", model.PropPosition, 1), [3]float32{0, 2, 0}, [3]float32{0.3, 1, 3}, [3]float32{1, -1, 1}),
		model.Curve{Target: tgt("a", model.PropPosition, 2), Kind: model.CurveConstant, Value: 4},
	)
	// a: rotation by cubics between unit keys, with a step segment from
	// 0.6 to 0.8 (jumps at both ends).
	q3 := geom.AxisAngle(geom.V3(0, 1, 1).Normalize(), 2)
	q4 := geom.AxisAngle(geom.V3(1, 0, 1).Normalize(), 0.2)
	for i := range 4 {
		cv := streamed(rot(i), [3]float32{0, qc(q0, i), 0.5}, [3]float32{0.4, qc(q1, i), -0.3}, [3]float32{0.6, qc(q2, i), 0})
		n := len(cv.Segments)
		cv.Segments[n-1].C = [4]float32{inf, 0, 0, qc(q3, i)}
		tail := streamed(rot(i), [3]float32{0.8, qc(q4, i), 0.4}, [3]float32{1, qc(q0, i), 0})
		cv.Segments = append(cv.Segments, tail.Segments[1:]...)
		c.Curves = append(c.Curves, cv)
	}
	// a: scale by weighted keyframes (resampled).
	c.Curves = append(c.Curves, model.Curve{Target: tgt("a", model.PropScale, 0), Kind: model.CurveKeyframed, Keys: []model.Keyframe{
		{Time: 0, Value: 1, OutSlope: 2, WeightedMode: model.WeightedOut, OutWeight: 0.6},
		{Time: 1, Value: 2, InSlope: 0},
	}, PreInfinity: model.InfinityClamp, PostInfinity: model.InfinityClamp})
	// b: dense position (linear), step-only scale, dense rotation (cubic
	// with linear tangents, the runtime's nlerp).
	dense := func(tg model.Target, v ...float32) model.Curve {
		return model.Curve{Target: tg, Kind: model.CurveDense, Samples: v, DenseBegin: 0, DenseRate: 4}
	}
	c.Curves = append(c.Curves,
		dense(tgt("a/b", model.PropPosition, 0), 0, 1, 0.5, 0.7, 2),
		dense(tgt("a/b", model.PropPosition, 2), 1, 1, 3, 0, 0),
		model.Curve{Target: tgt("a/b", model.PropScale, 1), Kind: model.CurveStreamed, Segments: []model.Segment{
			{Time: 0, C: [4]float32{0, 0, 0, 1}}, {Time: 0.25, C: [4]float32{0, 0, 0, 2}}, {Time: 0.75, C: [4]float32{0, inf, 0, 0.5}},
		}},
	)
	for i := range 4 {
		var v []float32
		for k := range 5 {
			q := geom.AxisAngle(geom.V3(1, 1, 0).Normalize(), float32(k)*0.6)
			v = append(v, qc(q, i))
		}
		c.Curves = append(c.Curves, dense(tgt("a/b", model.PropRotation, i), v...))
	}
	// c: Euler rotation (resampled) and unweighted keyframes with an
	// infinite slope (a step inside a keyframed curve: split key).
	for i := range 3 {
		tg := tgt("a/c", model.PropEuler, i)
		c.Curves = append(c.Curves, model.Curve{Target: tg, Kind: model.CurveKeyframed, Keys: []model.Keyframe{
			{Time: 0, Value: 0, OutSlope: 90}, {Time: 1, Value: 90 * float32(i+1), InSlope: 0},
		}, PreInfinity: model.InfinityClamp, PostInfinity: model.InfinityClamp})
	}
	c.Curves = append(c.Curves, model.Curve{Target: tgt("a/c", model.PropPosition, 1), Kind: model.CurveKeyframed, Keys: []model.Keyframe{
		{Time: 0, Value: 0, OutSlope: 1}, {Time: 0.5, Value: 1, InSlope: 0, OutSlope: inf}, {Time: 0.7, Value: 3, InSlope: inf, OutSlope: 0}, {Time: 1, Value: 2, InSlope: -1},
	}, PreInfinity: model.InfinityClamp, PostInfinity: model.InfinityClamp})
	return c
}

// TestGenericKeepsCurveShapes exports a clip with every curve form, reads
// the file back and checks glTF's interpolation gives the runtime's values
// between keys (exact tracks within 1e-5, except inside the 0.1 ms before a
// jump), each track with the interpolation its curves call for.
func TestGenericKeepsCurveShapes(t *testing.T) {
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
	clip := syntheticClip()
	bc, err := anim.Bake(clip, sk)
	if err != nil {
		t.Fatal(err)
	}
	joints := JointMap(sk.Paths, rig)
	a, st := Generic(clip, bc, joints, 0)
	a.Stats = st
	want := map[[2]any]Interpolation{
		{1, PathTranslation}: CubicSpline, {1, PathRotation}: CubicSpline, {1, PathScale}: Linear,
		{2, PathTranslation}: Linear, {2, PathRotation}: CubicSpline, {2, PathScale}: Step,
		{3, PathTranslation}: CubicSpline, {3, PathRotation}: Linear,
	}
	wantExact := map[[2]any]bool{{1, PathScale}: false, {3, PathRotation}: false}
	if len(a.Tracks) != len(want) {
		t.Errorf("%d tracks, want %d", len(a.Tracks), len(want))
	}
	for _, tr := range a.Tracks {
		k := [2]any{tr.Node, tr.Path}
		interp := tr.Interpolation
		if interp == "" {
			interp = Linear
		}
		if w, ok := want[k]; !ok || w != interp {
			t.Errorf("node %d %s: %s, want %s", tr.Node, tr.Path, interp, w)
		}
		ex, ok := wantExact[k]
		if !ok {
			ex = true
		}
		if tr.Exact != ex {
			t.Errorf("node %d %s: exact %v, want %v", tr.Node, tr.Path, tr.Exact, ex)
		}
	}
	// Node 1's translation keys are the union of x's and y's key times.
	for _, tr := range a.Tracks {
		if tr.Node == 1 && tr.Path == PathTranslation {
			if got := tr.Times; len(got) != 4 || got[1] != 0.3 || got[2] != 0.5 {
				t.Errorf("node 1 translation keys at %v, want 0 0.3 0.5 1", got)
			}
		}
	}
	if st.SplitKeys != 3 || st.Exact != 6 || st.Resampled != 2 || st.Rate != 30 {
		t.Errorf("stats %+v: want 3 split keys, 6 exact tracks, 2 resampled at 30 fps", st)
	}
	s := &Scene{Name: "s", Rig: rig, Animations: []Animation{a}}
	var buf bytes.Buffer
	if err := WriteGLB(&buf, s); err != nil {
		t.Fatal(err)
	}
	e := compareAnimations(t, readGLB(t, buf.Bytes()), corpusScene{id: "synthetic", scene: s, clips: []anim.Sampler{bc}, joints: [][]int{joints}})
	if e.exactRel > 1e-5 || e.exactDeg > 1e-3 {
		t.Errorf("exact tracks off by %.3g (relative) at %s, %.3g° at %s", e.exactRel, e.where[0], e.exactDeg, e.where[1])
	}
	t.Logf("exact within %.2g rel, %.2g°; resampled within %.2g, %.2g°", e.exactRel, e.exactDeg, e.resampledAbs, e.resampledDeg)
	if mods := validatorPathOrEmpty(t); mods != "" {
		p := t.TempDir() + "/synthetic.glb"
		if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		checkValid(t, "synthetic", validate(t, mods, p))
	}
}

// FuzzGeneric turns bytes into curves of every form on a three-joint rig
// (times, values and slopes from the bytes, NaN and infinities included)
// and exports them: Generic must not panic and the scene must write
// (keys strictly increasing, values matching their keys). Seeded with the
// synthetic clip's curves.
func FuzzGeneric(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20}, float32(0), float32(1))
	f.Add([]byte{7, 200, 0, 0, 128, 127, 255, 255, 0, 0, 192, 127, 1, 2, 3, 4, 5, 6, 7, 8}, float32(0.25), float32(0.5))
	f.Fuzz(func(t *testing.T, data []byte, start, stop float32) {
		rig := &model.Rig{Name: "r", Nodes: []model.RigNode{
			{Name: "r", Parent: -1, Local: geom.Identity},
			{Name: "a", Path: "a", Parent: 0, Local: geom.Identity},
			{Name: "b", Path: "a/b", Parent: 1, Local: geom.Identity},
		}}
		sk, err := anim.SkeletonFromRig(rig)
		if err != nil {
			t.Fatal(err)
		}
		clip := syntheticClip()
		clip.Start, clip.Stop = start, stop
		pos := 0
		next := func() float32 {
			if pos+4 > len(data) {
				pos = len(data)
				return 0
			}
			v := math.Float32frombits(uint32(data[pos]) | uint32(data[pos+1])<<8 | uint32(data[pos+2])<<16 | uint32(data[pos+3])<<24)
			pos += 4
			return v
		}
		for pos < len(data) && len(clip.Curves) < 64 {
			sel := data[pos]
			pos++
			props := []model.TransformProp{model.PropPosition, model.PropRotation, model.PropScale, model.PropEuler}
			tg := tgt([]string{"a", "a/b", ""}[sel%3], props[sel/3%4], int(sel/12%4))
			cv := model.Curve{Target: tg, Kind: model.CurveKind(sel / 48 % 4)}
			n := int(sel%5) + 1
			switch cv.Kind {
			case model.CurveConstant:
				cv.Value = next()
			case model.CurveStreamed:
				for range n {
					cv.Segments = append(cv.Segments, model.Segment{Time: next(), C: [4]float32{next(), next(), next(), next()}})
				}
			case model.CurveDense:
				cv.DenseBegin, cv.DenseRate = next(), next()
				for range n {
					cv.Samples = append(cv.Samples, next())
				}
			case model.CurveKeyframed:
				for range n {
					cv.Keys = append(cv.Keys, model.Keyframe{Time: next(), Value: next(), InSlope: next(), OutSlope: next(), WeightedMode: int32(sel % 4), InWeight: 0.3, OutWeight: 0.5})
				}
				cv.PreInfinity, cv.PostInfinity = model.Infinity(sel%3), model.Infinity(sel/3%3)
			}
			clip.Curves = append(clip.Curves, cv)
		}
		if l := float64(stop) - float64(start); !(l <= 100) {
			clip.Stop = start + 100 // bound the resampling work
		}
		bc, err := anim.Bake(clip, sk)
		if err != nil {
			return
		}
		a, _ := Generic(clip, bc, JointMap(sk.Paths, rig), 30)
		for _, tr := range a.Tracks {
			if len(tr.Times) > 1e6 {
				t.Fatalf("%d keys", len(tr.Times))
			}
		}
		var buf bytes.Buffer
		if err := WriteGLB(&buf, &Scene{Name: "f", Rig: rig, Animations: []Animation{a}}); err != nil {
			t.Fatalf("export: %v", err)
		}
	})
}

// TestBlendShapesKeepCurveShapes drives a blend shape by a streamed curve
// and checks the exported weights (CUBICSPLINE, read back and evaluated as
// glTF says) are the runtime's weights between keys too.
func TestBlendShapesKeepCurveShapes(t *testing.T) {
	s := twoBoneScene()
	tg := model.Target{PathKnown: true, PathHash: model.PathHash(""), ClassID: model.ClassSkinnedMeshRenderer, Attribute: model.PathHash("up")}
	clip := &model.Clip{Name: "smile", SampleRate: 30, Stop: 1, Curves: []model.Curve{
		streamed(tg, [3]float32{0, 0, 50}, [3]float32{0.4, 80, 0}, [3]float32{1, 20, -10}),
	}}
	sk, err := anim.SkeletonFromRig(s.Rig)
	if err != nil {
		t.Fatal(err)
	}
	bc, err := anim.Bake(clip, sk)
	if err != nil {
		t.Fatal(err)
	}
	tracks, rest := BlendShapes(clip, s.Rig, s.Meshes)
	if len(tracks) != 1 || len(rest) != 0 || tracks[0].Interpolation != CubicSpline || len(tracks[0].Times) != 3 {
		t.Fatalf("%d exact tracks (%+v), %d to resample", len(tracks), tracks, len(rest))
	}
	s.Animations = []Animation{{Name: "smile", Tracks: tracks}}
	var buf bytes.Buffer
	if err := WriteGLB(&buf, s); err != nil {
		t.Fatal(err)
	}
	doc := readGLB(t, buf.Bytes())
	chans := readChannels(t, doc)
	var ch *channel
	for k := range chans[0] {
		if chans[0][k].path == "weights" {
			ch = &chans[0][k]
		}
	}
	if ch == nil {
		t.Fatal("no weights channel")
	}
	vals := make([]float32, 1)
	worst := 0.0
	for i := range 101 {
		tc := float64(i) / 100
		bc.SampleFloats(float32(tc), vals)
		worst = max(worst, math.Abs(ch.at(tc)[0]*100-float64(vals[0])))
	}
	if worst > 1e-3 {
		t.Errorf("weights off the runtime's by up to %g (of 100)", worst)
	}
	if mods := validatorPathOrEmpty(t); mods != "" {
		p := t.TempDir() + "/smile.glb"
		if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		checkValid(t, "smile", validate(t, mods, p))
	}
}
