package anim

import (
	"math"
	"testing"

	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
)

func keys(pairs ...float32) []model.Keyframe {
	var k []model.Keyframe
	for i := 0; i+3 < len(pairs)+1 && i+3 <= len(pairs); i += 4 {
		k = append(k, model.Keyframe{Time: pairs[i], Value: pairs[i+1], InSlope: pairs[i+2], OutSlope: pairs[i+3]})
	}
	return k
}

func wobble(seed float64) func(float64) float64 {
	return func(t float64) float64 { return math.Sin(seed+2.3*t) + 0.3*math.Cos(seed*2+7*t) }
}

func rotCurves(path string, kind model.CurveKind, q func(float64) geom.Quat, fps, seconds float64) []model.Curve {
	var out []model.Curve
	for k := 0; k < 4; k++ {
		k := k
		f := func(t float64) float64 {
			v := q(t)
			return float64([4]float32{v.X, v.Y, v.Z, v.W}[k])
		}
		c := model.Curve{Target: tgt(path, model.PropRotation, k), Kind: kind}
		switch kind {
		case model.CurveStreamed:
			c.Segments = streamedCurve(f, fps, seconds)
		case model.CurveDense:
			for i := 0; i <= int(fps*seconds); i++ {
				c.Samples = append(c.Samples, float32(f(float64(i)/fps)))
			}
			c.DenseRate = float32(fps)
		}
		out = append(out, c)
	}
	return out
}

func spin(ax geom.Vec3, speed float64) func(float64) geom.Quat {
	return func(t float64) geom.Quat { return geom.AxisAngle(ax.Normalize(), float32(speed*t)) }
}

func TestBakedSamplingEqualsCurveEvalForEveryForm(t *testing.T) {
	sk := chainSkeleton(4)
	j1, j2 := sk.Paths[1], sk.Paths[2]
	inf := float32(math.Inf(1))
	cases := []struct {
		name   string
		curves []model.Curve
		start  float32
		stop   float32
		rotTol float64
	}{
		{"constant translation and rotation", []model.Curve{
			{Target: tgt(j1, model.PropPosition, 1), Kind: model.CurveConstant, Value: 3},
			{Target: tgt(j1, model.PropRotation, 0), Kind: model.CurveConstant, Value: 0.5},
			{Target: tgt(j1, model.PropRotation, 3), Kind: model.CurveConstant, Value: 0.5},
		}, 0, 1, 1e-3},
		{"streamed with key index (many keys)", append(rotCurves(j1, model.CurveStreamed, spin(geom.V3(1, 2, 3), 4), 30, 2),
			model.Curve{Target: tgt(j2, model.PropPosition, 0), Kind: model.CurveStreamed, Segments: streamedCurve(wobble(1), 30, 2)}),
			0, 2, 1e-3},
		{"streamed short (binary search) with a step segment", []model.Curve{
			{Target: tgt(j1, model.PropPosition, 2), Kind: model.CurveStreamed, Segments: []model.Segment{
				{Time: -math.MaxFloat32, C: [4]float32{0, 0, 0, 5}},
				{Time: 0.1, C: [4]float32{1, 2, 3, 4}},
				{Time: 0.4, C: [4]float32{inf, 0, 0, 7}},
				{Time: 0.6, C: [4]float32{-1, 0.5, 0, 2}},
				{Time: 0.9, C: [4]float32{0, 0, 0, 2}}}},
		}, 0, 1, 1e-3},
		{"streamed only the initial frame is constant", []model.Curve{
			{Target: tgt(j1, model.PropScale, 0), Kind: model.CurveStreamed, Segments: []model.Segment{
				{Time: -math.MaxFloat32, C: [4]float32{0, 0, 0, 2}}}},
		}, 0, 1, 1e-3},
		{"solos through the grid, before and after their keys", []model.Curve{
			{Target: tgt(j1, model.PropPosition, 0), Kind: model.CurveStreamed, Segments: []model.Segment{
				{Time: -math.MaxFloat32, C: [4]float32{0, 0, 0, -3}},
				{Time: 0.5, C: [4]float32{1, 2, 3, 4}},
				{Time: 0.7, C: [4]float32{0, -1, 0, 2}},
				{Time: 0.9, C: [4]float32{0, 0, 0, 5}}}},
			{Target: tgt(j1, model.PropPosition, 1), Kind: model.CurveStreamed, Segments: []model.Segment{
				{Time: -math.MaxFloat32, C: [4]float32{0, 0, 0, 7}},
				{Time: 0.25, C: [4]float32{-1, 2, 0, 1}},
				{Time: 0.7, C: [4]float32{0, 1, 1, 2}}}},
			{Target: tgt(j2, model.PropPosition, 2), Kind: model.CurveStreamed, Segments: streamedCurve(wobble(5), 24, 1.2)},
		}, 0, 1.2, 1e-3},
		{"many solos with unaligned keys (a lookup each)", unalignedCurves(j1, j2), 0, 1.2, 1e-3},
		{"dense scalar", []model.Curve{
			{Target: tgt(j2, model.PropPosition, 0), Kind: model.CurveDense, Samples: []float32{0, 1, 4, 9, 16, 25}, DenseBegin: 0.1, DenseRate: 5},
		}, 0, 1.5, 1e-3},
		{"dense rotation", rotCurves(j1, model.CurveDense, spin(geom.V3(0, 1, 1), 3), 30, 1.5), 0, 1.5, 1e-3},
		{"dense rotation not unit", func() []model.Curve {
			c := rotCurves(j1, model.CurveDense, spin(geom.V3(0.3, 1, 1), 3), 30, 1.5)
			for i := range c[3].Samples {
				c[3].Samples[i] *= 1.01
			}
			return c
		}(), 0, 1.5, 1e-3},
		{"keyframed hermite clamp", []model.Curve{
			{Target: tgt(j1, model.PropPosition, 0), Kind: model.CurveKeyframed, PreInfinity: model.InfinityClamp, PostInfinity: model.InfinityClamp,
				Keys: keys(0.2, 1, 0, 3, 0.5, 2, -1, -1, 0.7, 0, 4, 2, 1.1, 5, 0, 0)},
		}, 0, 1.5, 1e-3},
		{"keyframed keys sharing times, the first after the clip's start", []model.Curve{
			{Target: tgt(j1, model.PropPosition, 0), Kind: model.CurveKeyframed, PreInfinity: model.InfinityClamp, PostInfinity: model.InfinityClamp,
				Keys: keys(0.3, 1, 0, 0, 0.3, 2, 0, 1, 0.6, 3, 1, 0, 0.6, 4, 0, 0, 0.6, 5, 0, 0, 0.9, 6, 0, 0, 0.9, 7, 0, 0)},
			{Target: tgt(j1, model.PropPosition, 1), Kind: model.CurveKeyframed, PreInfinity: model.InfinityClamp, PostInfinity: model.InfinityClamp,
				Keys: keys(0.5, 1, 0, 0, 0.5, 2, 0, 0)},
		}, 0, 1, 1e-3},
		{"keyframed infinite slope is a step", []model.Curve{
			{Target: tgt(j1, model.PropPosition, 0), Kind: model.CurveKeyframed, PreInfinity: model.InfinityClamp, PostInfinity: model.InfinityClamp,
				Keys: keys(0, 1, 0, inf, 0.5, 2, 0, 0, 1, 3, 0, 0)},
		}, 0, 1, 1e-3},
		{"keyframed weighted (bezier) resampled", []model.Curve{
			{Target: tgt(j1, model.PropPosition, 1), Kind: model.CurveKeyframed, PreInfinity: model.InfinityClamp, PostInfinity: model.InfinityClamp,
				Keys: []model.Keyframe{
					{Time: 0, Value: 0, OutSlope: 4, WeightedMode: model.WeightedOut, OutWeight: 0.8},
					{Time: 1, Value: 1, InSlope: -2, OutSlope: 1, WeightedMode: model.WeightedIn, InWeight: 0.05},
					{Time: 2, Value: -1, InSlope: 0}}},
		}, 0, 2, 1e-3},
		{"keyframed loop and ping-pong infinity", []model.Curve{
			{Target: tgt(j1, model.PropPosition, 0), Kind: model.CurveKeyframed, PreInfinity: model.InfinityPingPong, PostInfinity: model.InfinityLoop,
				Keys: keys(0.5, 0, 0, 2, 0.8, 1, 1, 1, 1.0, 0.5, 0, 0)},
			{Target: tgt(j1, model.PropPosition, 1), Kind: model.CurveKeyframed, PreInfinity: model.InfinityLoop, PostInfinity: model.InfinityPingPong,
				Keys: keys(0.5, 0, 0, 2, 0.6, 1, 1, 1, 0.7, 2, 1, 0, 0.8, 1, 0, 0, 0.9, 0, 1, 1, 1.0, 3, 0, 0, 1.1, 1, 0, 0, 1.2, 0, 0, 0, 1.3, 2, 0, 0, 1.4, 1, 2, 3)},
		}, 0, 4, 1e-3},
		{"euler angles in degrees", []model.Curve{
			{Target: tgt(j1, model.PropEuler, 0), Kind: model.CurveStreamed, Segments: streamedCurve(func(t float64) float64 { return 90 * math.Sin(t) }, 30, 1)},
			{Target: tgt(j1, model.PropEuler, 1), Kind: model.CurveStreamed, Segments: streamedCurve(func(t float64) float64 { return 120 * t }, 30, 1)},
			{Target: tgt(j1, model.PropEuler, 2), Kind: model.CurveConstant, Value: 10},
		}, 0, 1, 1e-3},
		{"one rotation component animated", []model.Curve{
			{Target: tgt(j2, model.PropRotation, 1), Kind: model.CurveStreamed, Segments: streamedCurve(wobble(2), 30, 1)},
		}, 0, 1, 1e-3},
		{"path known only by hash, clip starting late", []model.Curve{
			{Target: model.Target{PathHash: model.PathHash(j2), ClassID: model.ClassTransform, Transform: model.PropPosition, Component: 1},
				Kind: model.CurveStreamed, Segments: streamedCurve(wobble(3), 30, 3)},
		}, 1, 2.5, 1e-3},
		{"float channels of every form", []model.Curve{
			{Target: model.Target{ClassID: model.ClassAnimator, Attribute: 50, Property: "Spine Front-Back"}, Kind: model.CurveStreamed, Segments: streamedCurve(wobble(4), 30, 1)},
			{Target: model.Target{ClassID: model.ClassAnimator, Attribute: 51}, Kind: model.CurveDense, Samples: []float32{1, 2, 0}, DenseRate: 2},
			{Target: model.Target{ClassID: model.ClassSkinnedMeshRenderer, Attribute: 7}, Kind: model.CurveConstant, Value: 42},
			{Target: model.Target{ClassID: model.ClassMonoBehaviour, Attribute: 8}, Kind: model.CurveKeyframed, Keys: keys(0, 1, 0, 0, 1, 2, 0, 0)},
		}, 0, 1, 1e-3},
		{"zero-length clip is one pose", rotCurves(j1, model.CurveStreamed, spin(geom.V3(1, 0, 0), 2), 30, 1), 0.5, 0.5, 1e-3},
	}
	for _, k := range cases {
		t.Run(k.name, func(t *testing.T) {
			mc := &model.Clip{Name: k.name, SampleRate: 30, Start: k.start, Stop: k.stop, Curves: k.curves}
			rot, rel, frel := compareClip(t, mc, sk, 1000)
			t.Logf("max rotation error %.3g°, translation/scale %.3g, floats %.3g", rot, rel, frel)
			if rot > k.rotTol || rel > 1e-5 || frel > 1e-5 || rel != rel || frel != frel {
				t.Errorf("rotation error %.3g° (limit %.3g°), translation/scale %.3g, floats %.3g (limit 1e-5)", rot, k.rotTol, rel, frel)
			}
			sameRootPose(t, mc, sk)
		})
	}
}

// sameRootPose checks that every joint taken as the root (WithRoot) samples
// as SampleRoot exactly what Sample gives it: the root pose is the joint's
// part of the clip, laid out on its own.
func sameRootPose(t *testing.T, mc *model.Clip, sk *Skeleton) {
	t.Helper()
	c, err := Bake(mc, sk)
	if err != nil {
		t.Fatal(err)
	}
	pose := make([]geom.Transform, sk.Len())
	for j := 0; j < sk.Len(); j++ {
		r, err := c.WithRoot(j)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i <= 200; i++ {
			tm := -0.1*c.Duration() + 1.2*c.Duration()*float32(i)/200
			c.Sample(tm, pose)
			if got := r.SampleRoot(tm); got != pose[j] {
				t.Fatalf("joint %d at %g: SampleRoot %+v, Sample %+v", j, tm, got, pose[j])
			}
		}
	}
}

// The root pose of every form: a dense clip, one whose curves have their
// own keys (solos through a grid) and one with too many unaligned keys for
// a grid (solos with their own lookups).
func TestRootPoseIsTheJointOfThePose(t *testing.T) {
	tree := treeSkeleton(12)
	sameRootPose(t, synthDenseClip(tree, 30, 1, 2, 1), tree)
	sameRootPose(t, synthClipKeep(tree, 30, 1, 1, 2, 0.7), tree)
	sk := chainSkeleton(4)
	sameRootPose(t, &model.Clip{Name: "u", SampleRate: 30, Stop: 1.2, Curves: unalignedCurves(sk.Paths[1], sk.Paths[2])}, sk)
}

func TestBakeResolvesChannels(t *testing.T) {
	sk := chainSkeleton(3)
	mc := &model.Clip{Name: "r", Stop: 1, Curves: []model.Curve{
		{Target: tgt(sk.Paths[1], model.PropPosition, 0), Kind: model.CurveStreamed, Segments: streamedCurve(wobble(1), 10, 1)},
		{Target: tgt("missing", model.PropPosition, 0), Kind: model.CurveConstant, Value: 1},
		{Target: model.Target{PathHash: 12345, ClassID: model.ClassTransform, Transform: model.PropScale}, Kind: model.CurveConstant},
		{Target: tgt(sk.Paths[2], model.PropRotation, 7), Kind: model.CurveConstant},
		{Target: model.Target{ClassID: model.ClassAnimator, Attribute: 42}, Kind: model.CurveConstant, Value: 0.5},
	}, Events: []model.Event{{Time: 0.7, Function: "b"}, {Time: 0.2, Function: "a"}, {Time: 0.7, Function: "c"}}}
	c, err := Bake(mc, sk)
	if err != nil {
		t.Fatal(err)
	}
	if got := c.UnresolvedChannels(); got != 3 {
		t.Errorf("unresolved %d want 3", got)
	}
	if got := len(c.FloatTargets()); got != 1 {
		t.Errorf("float targets %d want 1", got)
	}
	if c.RootJoint() != 1 || c.TrackCount() != 1 {
		t.Errorf("root %d tracks %d, want 1 and 1", c.RootJoint(), c.TrackCount())
	}
	var names string
	for _, e := range c.Events() {
		names += e.Function
	}
	if names != "abc" {
		t.Errorf("events in order %q want abc (by time, stable)", names)
	}
	if c.Duration() != 1 {
		t.Errorf("duration %g", c.Duration())
	}
	z, _ := Bake(&model.Clip{Stop: 0, SampleRate: 30}, sk)
	if z.Duration() != float32(1)/30 {
		t.Errorf("zero-length clip lasts %g, want one frame", z.Duration())
	}
}

// TestZeroLengthClipLastsOneFrame proves that a clip of no length (Stop
// at or before Start) lasts one frame of its rate, or 1/60 s when the rate
// gives no usable frame (0, negative, NaN, infinite, or so small that a
// frame overflows): never 0, which Advance and looping would divide by.
func TestZeroLengthClipLastsOneFrame(t *testing.T) {
	sk := chainSkeleton(2)
	inf := float32(math.Inf(1))
	cases := []struct {
		name        string
		start, stop float32
		rate        float32
		want        float32
	}{
		{"30 fps", 0, 0, 30, float32(1) / 30},
		{"stop before start", -3.125, -3.25, 60, float32(1) / 60},
		{"no rate", 0, 0, 0, float32(1) / 60},
		{"negative rate", 0, 0, -24, float32(1) / 60},
		{"NaN rate", 0, 0, float32(math.NaN()), float32(1) / 60},
		{"infinite rate (1/rate is 0)", -3.125, -3.25, inf, float32(1) / 60},
		{"denormal rate (1/rate overflows)", 0, 0, math.SmallestNonzeroFloat32, float32(1) / 60},
		{"huge rate", 0, 0, math.MaxFloat32, 1 / float32(math.MaxFloat32)},
	}
	for _, k := range cases {
		c, err := Bake(&model.Clip{Start: k.start, Stop: k.stop, SampleRate: k.rate}, sk)
		if err != nil {
			t.Errorf("%s: %v", k.name, err)
			continue
		}
		if d := c.Duration(); d != k.want || !(d > 0) {
			t.Errorf("%s: duration %g, want %g", k.name, d, k.want)
		}
	}
}

func TestNewSkeletonRejectsBadHierarchies(t *testing.T) {
	cases := []struct {
		name    string
		paths   []string
		parents []int
		rest    []geom.Transform
		ok      bool
	}{
		{"chain", []string{"", "a", "a/b"}, []int{-1, 0, 1}, nil, true},
		{"child before parent", []string{"", "a", "a/b"}, []int{-1, 2, 0}, nil, false},
		{"self parent", []string{"", "a"}, []int{-1, 1}, nil, false},
		{"length mismatch", []string{"", "a"}, []int{-1}, nil, false},
		{"rest mismatch", []string{"", "a"}, []int{-1, 0}, []geom.Transform{geom.Identity}, false},
		{"duplicate paths keep the first", []string{"", "a", "a"}, []int{-1, 0, 0}, nil, true},
	}
	for _, k := range cases {
		s, err := NewSkeleton(k.paths, k.parents, k.rest)
		if (err == nil) != k.ok {
			t.Errorf("%s: err %v", k.name, err)
			continue
		}
		if s != nil {
			if i, ok := s.Index("a"); !ok || i != 1 {
				t.Errorf("%s: Index(a) = %d %v", k.name, i, ok)
			}
		}
	}
}

func TestSkeletonFromRig(t *testing.T) {
	r := &model.Rig{Name: "r", Nodes: []model.RigNode{
		{Name: "root", Path: "", Parent: -1, Local: geom.Identity},
		{Name: "hips", Path: "hips", Parent: 0, Local: geom.Transform{T: geom.V3(0, 1, 0), R: geom.IdentityQuat, S: geom.V3(1, 1, 1)}},
	}}
	s, err := SkeletonFromRig(r)
	if err != nil {
		t.Fatal(err)
	}
	if s.Len() != 2 || s.Rest[1].T.Y != 1 || s.Parents[1] != 0 {
		t.Fatalf("skeleton %+v", s)
	}
	if i, ok := s.IndexHash(model.PathHash("hips")); !ok || i != 1 {
		t.Fatalf("IndexHash = %d %v", i, ok)
	}
}

// unalignedCurves are six translation channels keyed at six different
// rates, so their key times hardly coincide.
func unalignedCurves(p1, p2 string) []model.Curve {
	var out []model.Curve
	for i, rate := range []float64{17, 19, 23, 29, 31, 37} {
		p := p1
		if i >= 3 {
			p = p2
		}
		out = append(out, model.Curve{Target: tgt(p, model.PropPosition, i%3), Kind: model.CurveStreamed,
			Segments: streamedCurve(wobble(float64(i)), rate, 1.2)})
	}
	return out
}

func TestSolosUseTheGridOnlyWhenItIsSmall(t *testing.T) {
	sk := chainSkeleton(4)
	j1, j2 := sk.Paths[1], sk.Paths[2]
	aligned := []model.Curve{
		{Target: tgt(j1, model.PropPosition, 0), Kind: model.CurveStreamed, Segments: streamedCurve(wobble(1), 30, 1)},
		{Target: tgt(j1, model.PropPosition, 1), Kind: model.CurveStreamed, Segments: streamedCurve(wobble(2), 15, 1)},
		{Target: tgt(j2, model.PropPosition, 2), Kind: model.CurveStreamed, Segments: streamedCurve(wobble(3), 10, 1)},
	}
	cases := []struct {
		name   string
		curves []model.Curve
		grid   int
	}{
		{"keys on a common frame grid", aligned, 3},
		{"keys at unrelated rates", unalignedCurves(j1, j2), 0},
	}
	for _, k := range cases {
		c, err := Bake(&model.Clip{Stop: 1.2, Curves: k.curves}, sk)
		if err != nil {
			t.Fatal(err)
		}
		if st := c.Stats(); st.GridChannels != k.grid {
			t.Errorf("%s: %d channels through the grid, want %d (%+v)", k.name, st.GridChannels, k.grid, st)
		}
	}
}

func TestBakeAcceptsASkeletonLiteral(t *testing.T) {
	lit := &Skeleton{Paths: []string{"", "a"}, Parents: []int{-1, 0}, Rest: []geom.Transform{geom.Identity, geom.Identity}}
	mc := &model.Clip{Stop: 1, Curves: []model.Curve{{Target: tgt("a", model.PropPosition, 0), Kind: model.CurveStreamed,
		Segments: streamedCurve(wobble(1), 10, 1)}}}
	c, err := Bake(mc, lit)
	if err != nil {
		t.Fatal(err)
	}
	if c.RootJoint() != 1 || c.TrackCount() != 1 || lit.Depth(1) != 1 {
		t.Fatalf("root %d tracks %d depth %d", c.RootJoint(), c.TrackCount(), lit.Depth(1))
	}
	bad := &Skeleton{Paths: []string{"", "a"}, Parents: []int{-1, 1}}
	if _, err := Bake(mc, bad); err == nil {
		t.Fatal("a skeleton literal whose joint is its own parent baked")
	}
}

// TestBakeWeightedFitsWholeSegment proves that a weighted (Bezier) key
// segment is resampled within its tolerance everywhere, not only where the
// refinement started: values large against their span (where 1e-6 of the
// span is below float32 resolution), near-vertical handles, a short
// segment and late times (coarse float32 time) each stay within two
// tolerances at 2,000 times across the segment, in at most
// maxWeightedPieces pieces.
func TestBakeWeightedFitsWholeSegment(t *testing.T) {
	cases := []struct {
		name   string
		k0, k1 model.Keyframe
	}{
		// Found by FuzzBakedEqualsEval: the fit could not get within
		// 1e-6·0.61 of values near 8.5 (float32 steps there are 9.5e-7),
		// so depth-first halving spent all 256 pieces near one time and
		// left the segment's last quarter a single piece 2.8e-3 off.
		{"values large against their span",
			model.Keyframe{Time: -3.25, Value: 8.5625, OutSlope: -0.75},
			model.Keyframe{Time: -2.5, Value: 8.0625, InSlope: -3.25, WeightedMode: model.WeightedIn, InWeight: 0.25}},
		{"near-vertical handles",
			model.Keyframe{Time: 0, Value: 0, OutSlope: 40, WeightedMode: model.WeightedOut, OutWeight: 0.95},
			model.Keyframe{Time: 1, Value: 1, InSlope: -40, WeightedMode: model.WeightedIn, InWeight: 0.95}},
		{"handles of weight zero",
			model.Keyframe{Time: 0, Value: -2, OutSlope: 3, WeightedMode: model.WeightedIn | model.WeightedOut, OutWeight: 0},
			model.Keyframe{Time: 0.5, Value: 2, InSlope: 3, WeightedMode: model.WeightedIn | model.WeightedOut, InWeight: 0}},
		{"short segment",
			model.Keyframe{Time: 0.25, Value: 1, OutSlope: 100, WeightedMode: model.WeightedOut, OutWeight: 0.7},
			model.Keyframe{Time: 0.25 + 1.0/256, Value: 1.5, InSlope: 0}},
		{"late times",
			model.Keyframe{Time: 3000, Value: 5, OutSlope: 2, WeightedMode: model.WeightedOut, OutWeight: 0.6},
			model.Keyframe{Time: 3002, Value: -5, InSlope: -1, WeightedMode: model.WeightedIn, InWeight: 0.1}},
	}
	for _, k := range cases {
		t.Run(k.name, func(t *testing.T) {
			var s scalar
			bakeWeighted(&s, k.k0, k.k1)
			if len(s.times) > maxWeightedPieces {
				t.Fatalf("%d pieces (limit %d)", len(s.times), maxWeightedPieces)
			}
			dt := float64(k.k1.Time - k.k0.Time)
			w0, w1 := 1.0/3, 1.0/3
			if k.k0.WeightedMode&model.WeightedOut != 0 {
				w0 = float64(k.k0.OutWeight)
			}
			if k.k1.WeightedMode&model.WeightedIn != 0 {
				w1 = float64(k.k1.InWeight)
			}
			bz := bezier{x1: w0, x2: 1 - w1, y0: float64(k.k0.Value), y1: float64(k.k0.Value) + w0*dt*float64(k.k0.OutSlope),
				y2: float64(k.k1.Value) - w1*dt*float64(k.k1.InSlope), y3: float64(k.k1.Value)}
			tol := bz.tolerance()
			pair := []model.Keyframe{k.k0, k.k1}
			worst, at := 0.0, float32(0)
			for i := 0; i <= 2000; i++ {
				tm := k.k0.Time + float32(i)/2000*(k.k1.Time-k.k0.Time)
				p := 0
				for p+1 < len(s.times) && s.times[p+1] <= tm {
					p++
				}
				x := tm - s.times[p]
				c := s.coefs[p]
				got := ((c[0]*x+c[1])*x+c[2])*x + c[3]
				if e := math.Abs(float64(got - model.EvalKeys(pair, model.InfinityClamp, model.InfinityClamp, tm))); !(e <= worst) {
					worst, at = e, tm
				}
			}
			t.Logf("%d pieces, worst error %.3g at %g (tolerance %.3g)", len(s.times), worst, at, tol)
			if !(worst <= 2*tol) {
				t.Errorf("worst error %.3g at t=%g, more than twice the tolerance %.3g (%d pieces)", worst, at, tol, len(s.times))
			}
		})
	}
}

// Animates names the properties each joint has channels for, constant
// ones included; joints without channels and out-of-range joints have none.
func TestAnimatesNamesEachJointsDrivenProperties(t *testing.T) {
	sk := chainSkeleton(4)
	mc := &model.Clip{Name: "a", Stop: 1, Curves: []model.Curve{
		{Target: tgt(sk.Paths[1], model.PropPosition, 0), Kind: model.CurveStreamed, Segments: streamedCurve(wobble(1), 10, 1)},
		{Target: tgt(sk.Paths[1], model.PropScale, 2), Kind: model.CurveConstant, Value: 2},
		{Target: tgt(sk.Paths[2], model.PropRotation, 3), Kind: model.CurveConstant, Value: 1},
		{Target: tgt(sk.Paths[3], model.PropEuler, 1), Kind: model.CurveConstant, Value: 30},
	}}
	c, err := Bake(mc, sk)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		joint int
		want  Props
	}{{-1, 0}, {0, 0}, {1, PropT | PropS}, {2, PropR}, {3, PropR}, {4, 0}}
	for _, tc := range tests {
		if got := c.Animates(tc.joint); got != tc.want {
			t.Errorf("joint %d: %03b, want %03b", tc.joint, got, tc.want)
		}
	}
	if c.TrackCount() != 3 {
		t.Errorf("TrackCount %d, want 3 joints", c.TrackCount())
	}
}
