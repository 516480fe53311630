package anim

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"math"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
)

// sameBits reports where two values differ, comparing floats by their bits
// (so NaN equals NaN and -0 differs from 0), slices by length and nil-ness
// as well as elements (b keeping no more capacity than a), and skeletons by
// identity: "" when a decoded clip is the very layout Bake made.
func sameBits(a, b reflect.Value, path string) string {
	if a.Kind() != b.Kind() {
		return path + ": kinds differ"
	}
	switch a.Kind() {
	case reflect.Float32, reflect.Float64:
		if math.Float64bits(a.Float()) != math.Float64bits(b.Float()) {
			if a.Kind() == reflect.Float32 && math.Float32bits(float32(a.Float())) == math.Float32bits(float32(b.Float())) {
				return ""
			}
			return fmt.Sprintf("%s: %g != %g", path, a.Float(), b.Float())
		}
	case reflect.Bool:
		if a.Bool() != b.Bool() {
			return path + ": bools differ"
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if a.Int() != b.Int() {
			return fmt.Sprintf("%s: %d != %d", path, a.Int(), b.Int())
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if a.Uint() != b.Uint() {
			return fmt.Sprintf("%s: %d != %d", path, a.Uint(), b.Uint())
		}
	case reflect.String:
		if a.String() != b.String() {
			return fmt.Sprintf("%s: %q != %q", path, a.String(), b.String())
		}
	case reflect.Pointer:
		if a.Type() == reflect.TypeFor[*Skeleton]() {
			if a.Pointer() != b.Pointer() {
				return path + ": other skeleton"
			}
			return ""
		}
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				return path + ": nil-ness differs"
			}
			return ""
		}
		return sameBits(a.Elem(), b.Elem(), path)
	case reflect.Slice:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() || b.Cap() > a.Cap() {
			return fmt.Sprintf("%s: len %d cap %d nil %v != len %d cap %d nil %v", path, a.Len(), a.Cap(), a.IsNil(), b.Len(), b.Cap(), b.IsNil())
		}
		for i := 0; i < a.Len(); i++ {
			if d := sameBits(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", path, i)); d != "" {
				return d
			}
		}
	case reflect.Array:
		for i := 0; i < a.Len(); i++ {
			if d := sameBits(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", path, i)); d != "" {
				return d
			}
		}
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if d := sameBits(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name); d != "" {
				return d
			}
		}
	default:
		return path + ": kind " + a.Kind().String() + " not compared"
	}
	return ""
}

// roundTrip encodes c, decodes it on its skeleton and checks that the
// decoded clip is Bake's layout to the bit, encodes to the same bytes and
// samples the same at many times.
func roundTrip(t *testing.T, c *Clip) *Clip {
	t.Helper()
	b, err := c.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	got, err := UnmarshalClip(b, c.Skeleton())
	if err != nil {
		t.Fatalf("clip %q: %v", c.Name(), err)
	}
	if d := sameBits(reflect.ValueOf(c).Elem(), reflect.ValueOf(got).Elem(), "Clip"); d != "" {
		t.Fatalf("clip %q decoded differs: %s", c.Name(), d)
	}
	b2, err := got.MarshalBinary()
	if err != nil || !bytes.Equal(b, b2) {
		t.Fatalf("clip %q encodes again to other bytes (%v)", c.Name(), err)
	}
	sameSamples(t, c, got, 500)
	return got
}

// sameSamples checks that two clips sample, root and events included, bit
// for bit the same at n times across and beyond their duration (and at
// NaN and the infinities).
func sameSamples(tb testing.TB, a, b *Clip, n int) {
	tb.Helper()
	nj := a.Skeleton().Len()
	pa, pb := make([]geom.Transform, nj), make([]geom.Transform, nj)
	fa, fb := make([]float32, len(a.FloatTargets())), make([]float32, len(b.FloatTargets()))
	ia, ib := make([]int32, len(a.IntTargets())), make([]int32, len(b.IntTargets()))
	if len(fa) != len(fb) || len(ia) != len(ib) || a.Duration() != b.Duration() {
		tb.Fatalf("clip %q: tracks or duration differ", a.Name())
	}
	d := a.Duration()
	times := []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.Copysign(0, -1))}
	for i := 0; i <= n; i++ {
		times = append(times, -0.1*d+1.2*d*float32(i)/float32(n))
	}
	for _, tm := range times {
		a.Sample(tm, pa)
		b.Sample(tm, pb)
		for j := range pa {
			if !sameTransformBits(pa[j], pb[j]) {
				tb.Fatalf("clip %q at %g joint %d: %+v != %+v", a.Name(), tm, j, pa[j], pb[j])
			}
		}
		a.SampleFloats(tm, fa)
		b.SampleFloats(tm, fb)
		for k := range fa {
			if math.Float32bits(fa[k]) != math.Float32bits(fb[k]) {
				tb.Fatalf("clip %q at %g float %d: %g != %g", a.Name(), tm, k, fa[k], fb[k])
			}
		}
		a.SampleInts(tm, ia)
		b.SampleInts(tm, ib)
		for k := range ia {
			if ia[k] != ib[k] {
				tb.Fatalf("clip %q at %g int %d: %d != %d", a.Name(), tm, k, ia[k], ib[k])
			}
		}
		if ra, rb := a.SampleRoot(tm), b.SampleRoot(tm); !sameTransformBits(ra, rb) {
			tb.Fatalf("clip %q at %g root: %+v != %+v", a.Name(), tm, ra, rb)
		}
		ma, mb := a.ExtractRootMotion(tm, d/2, 1), b.ExtractRootMotion(tm, d/2, 1)
		if fmt.Sprint(ma) != fmt.Sprint(mb) {
			tb.Fatalf("clip %q at %g root motion: %+v != %+v", a.Name(), tm, ma, mb)
		}
	}
	var ea, eb []model.Event
	a.CollectEvents(0, d/3, 2, func(e model.Event) { ea = append(ea, e) })
	b.CollectEvents(0, d/3, 2, func(e model.Event) { eb = append(eb, e) })
	if fmt.Sprint(ea) != fmt.Sprint(eb) {
		tb.Fatalf("clip %q: events %v != %v", a.Name(), ea, eb)
	}
}

func sameTransformBits(a, b geom.Transform) bool {
	fa, fb := poseFloats([]geom.Transform{a}), poseFloats([]geom.Transform{b})
	for i := range fa {
		if math.Float32bits(fa[i]) != math.Float32bits(fb[i]) {
			return false
		}
	}
	return true
}

// codecModels are clips whose baked forms have every layout: timelines with and without
// key indexes and infinity mapping, solos through a grid and with their
// own lookups, dense groups, Euler joints, float, integer and root motion
// tracks, events, unresolved channels, values of -0 and values held over
// NaN.
func codecModels(t testing.TB) []codecModel {
	negZero := float32(math.Copysign(0, -1))
	nan := float32(math.NaN())
	tree := treeSkeleton(12)
	sk := chainSkeleton(4)
	j1, j2 := sk.Paths[1], sk.Paths[2]
	var out []codecModel
	bake := func(mc *model.Clip, s *Skeleton) { out = append(out, codecModel{mc, s}) }
	bake(synthClip(tree, 30, 1.5, 1, 1), tree)
	bake(synthClipKeep(tree, 30, 1, 1, 2, 0.7), tree)
	bake(synthDenseClip(tree, 30, 1, 2, 3), tree)
	bake(&model.Clip{Name: "unaligned", SampleRate: 30, Stop: 1.2, Curves: unalignedCurves(j1, j2)}, sk)
	bake(&model.Clip{Name: "infinities and Euler", SampleRate: 30, Start: 0.25, Stop: 4, WrapMode: model.WrapPingPong,
		Settings: model.LoopSettings{LoopTime: true, Mirror: true, CycleOffset: 0.5, Level: negZero},
		Curves: []model.Curve{
			{Target: tgt(j1, model.PropPosition, 0), Kind: model.CurveKeyframed, PreInfinity: model.InfinityPingPong, PostInfinity: model.InfinityLoop,
				Keys: keys(0.5, 0, 0, 2, 0.8, 1, 1, 1, 1.0, 0.5, 0, 0)},
			{Target: tgt(j1, model.PropPosition, 1), Kind: model.CurveKeyframed, PreInfinity: model.InfinityLoop, PostInfinity: model.InfinityPingPong,
				Keys: keys(0.5, 0, 0, 2, 0.6, 1, 1, 1, 0.7, 2, 1, 0, 0.8, 1, 0, 0, 0.9, 0, 1, 1, 1.0, 3, 0, 0, 1.1, 1, 0, 0, 1.2, 0, 0, 0, 1.3, 2, 0, 0, 1.4, 1, 2, 3)},
			{Target: tgt(j1, model.PropPosition, 2), Kind: model.CurveKeyframed,
				Keys: []model.Keyframe{
					{Time: 0, Value: 0, OutSlope: 4, WeightedMode: model.WeightedOut, OutWeight: 0.8},
					{Time: 1, Value: 1, InSlope: -2, OutSlope: 1, WeightedMode: model.WeightedIn, InWeight: 0.05},
					{Time: 2, Value: -1, InSlope: 0}}},
			{Target: tgt(j2, model.PropEuler, 0), Kind: model.CurveStreamed, Segments: streamedCurve(func(t float64) float64 { return 90 * math.Sin(t) }, 30, 1)},
			{Target: tgt(j2, model.PropEuler, 2), Kind: model.CurveConstant, Value: negZero},
			{Target: tgt(sk.Paths[3], model.PropRotation, 1), Kind: model.CurveDense, Samples: []float32{0, 0.5, negZero, nan, 1}, DenseRate: 4},
			{Target: tgt("not/a/joint", model.PropPosition, 0), Kind: model.CurveConstant, Value: 1},
			{Target: model.Target{ClassID: model.ClassAnimator, Attribute: 50, Property: "Spine Front-Back"}, Kind: model.CurveStreamed, Segments: streamedCurve(wobble(4), 30, 1)},
			{Target: model.Target{ClassID: model.ClassSkinnedMeshRenderer, Attribute: 7, Path: "Body", PathKnown: true}, Kind: model.CurveDense, Samples: []float32{1, nan, 0, negZero}, DenseRate: 2},
			{Target: model.Target{ClassID: model.ClassMonoBehaviour, Attribute: 8, Script: model.Ref{FileID: 1, PathID: -5}}, Kind: model.CurveConstant, Value: negZero},
			{Target: model.Target{ClassID: model.ClassMonoBehaviour, Attribute: 9}, Kind: model.CurveDense, Samples: []float32{nan, nan}},
		},
		IntCurves: []model.IntCurve{{Target: model.Target{ClassID: 1, Attribute: 3, Property: "m_IsActive"}, Keys: []model.IntKey{{Time: 0, Value: 1}, {Time: 0.5, Value: -7}}}},
		Events:    []model.Event{{Time: 1, Function: "b", Float: nan}, {Time: 0.5, Function: "a", Data: "x", Object: model.Ref{FileID: 2, PathID: 9}, Int: -3, MessageOptions: 1}},
	}, sk)
	var motion []model.Curve
	for a := uint32(model.FirstRootAttribute); a < model.FirstRootAttribute+7; a++ {
		motion = append(motion, model.Curve{Target: model.Target{ClassID: model.ClassAnimator, Attribute: a}, Kind: model.CurveStreamed,
			Segments: streamedCurve(wobble(float64(a)), 30, 1)})
	}
	bake(&model.Clip{Name: "root motion curves", SampleRate: 30, Stop: 1, Curves: motion}, sk)
	bake(&model.Clip{Name: "zero length", SampleRate: 30, Start: 0.5, Stop: 0.5, Curves: rotCurves(j1, model.CurveStreamed, spin(geom.V3(1, 0, 0), 2), 30, 1)}, sk)
	bake(&model.Clip{Name: "empty"}, sk)
	var none []model.Curve
	for i := 0; i < 300; i++ {
		none = append(none, model.Curve{Target: tgt(j1, model.PropPosition, i%3), Kind: model.CurveDense, Samples: []float32{nan, nan}})
	}
	bake(&model.Clip{Name: "every channel left out", Curves: none}, sk)
	for seed := 0; seed < 40; seed++ {
		data := make([]byte, 300)
		for i := range data {
			data[i] = byte((i*7 + seed*31 + i*i*seed) % 251)
		}
		mc := fuzzClip(data, seed%2 == 0)
		mc.Name = fmt.Sprintf("fuzz %d", seed)
		if _, err := Bake(mc, sk); err == nil {
			bake(mc, sk)
		}
	}
	return out
}

// codecModel is a model clip and the skeleton codecClips bakes it on.
type codecModel struct {
	Clip     *model.Clip
	Skeleton *Skeleton
}

// codecClips are codecModels baked, each also with its root on no joint
// and on the last joint (WithRoot).
func codecClips(t testing.TB) []*Clip {
	var out []*Clip
	for _, m := range codecModels(t) {
		c, err := Bake(m.Clip, m.Skeleton)
		if err != nil {
			t.Fatalf("%s: %v", m.Clip.Name, err)
		}
		out = append(out, c)
		for _, j := range []int{-1, m.Skeleton.Len() - 1} {
			r, err := c.WithRoot(j)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, r)
		}
	}
	return out
}

func TestDecodedClipIsTheBakedLayoutToTheBit(t *testing.T) {
	for _, c := range codecClips(t) {
		roundTrip(t, c)
	}
}

// TestEncodingKnowsEveryModelField fails when a model type a baked clip
// keeps gains or loses a field: the encoding must then say how it is
// saved (and ClipVersion change).
func TestEncodingKnowsEveryModelField(t *testing.T) {
	want := map[reflect.Type]int{
		reflect.TypeFor[model.Target]():       10,
		reflect.TypeFor[model.Event]():        7,
		reflect.TypeFor[model.IntCurve]():     2,
		reflect.TypeFor[model.IntKey]():       2,
		reflect.TypeFor[model.LoopSettings](): 14,
		reflect.TypeFor[model.Ref]():          2,
	}
	for typ, n := range want {
		if typ.NumField() != n {
			t.Errorf("%v has %d fields; the baked clip encoding saves %d", typ, typ.NumField(), n)
		}
	}
	if got := len(settingsFlags(&model.LoopSettings{})); got != 11 {
		t.Errorf("%d loop setting flags", got)
	}
}

func TestDecodingRefusesAnotherSkeleton(t *testing.T) {
	sk := chainSkeleton(4)
	c, err := Bake(synthClip(sk, 30, 1, 1, 1), sk)
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	moved := chainSkeleton(4)
	moved.Rest[2].T.X = 1
	renamed, _ := NewSkeleton([]string{"", "a", "a/b", "a/b/c"}, []int{-1, 0, 1, 2}, sk.Rest)
	for _, k := range []struct {
		name string
		s    *Skeleton
	}{{"more joints", chainSkeleton(5)}, {"another rest pose", moved}, {"other paths", renamed}} {
		_, err := UnmarshalClip(b, k.s)
		var fe *FormatError
		if !errors.As(err, &fe) || !errors.Is(err, ErrMalformedClip) {
			t.Errorf("%s: %v, want a FormatError", k.name, err)
		}
	}
	if _, err := UnmarshalClip(b, chainSkeleton(4)); err != nil {
		t.Errorf("an equal skeleton: %v", err)
	}
}

// TestDamagedClipsAreErrorsNeverPanics cuts every encoded clip at every
// byte (a FormatError each time) and changes every byte of some small ones
// in three ways (an error, or a clip that samples without panicking), and
// checks the version and what follows the clip.
func TestDamagedClipsAreErrorsNeverPanics(t *testing.T) {
	clips := codecClips(t)
	for ci, c := range clips {
		b, err := c.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		step := max(1, len(b)/2000) // every byte of a small clip, 2,000 cuts of a large one
		for n := 0; n < len(b); n += step {
			_, err := UnmarshalClip(b[:n], c.Skeleton())
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("clip %q cut at %d: %v, want a FormatError", c.Name(), n, err)
			}
		}
		if ci%3 != 0 || len(b) > 4000 {
			continue
		}
		d := append([]byte(nil), b...)
		for i := range d {
			for _, x := range []byte{0x01, 0x80, 0xff} {
				d[i] ^= x
				exercise(t, d, c.Skeleton())
				d[i] ^= x
			}
		}
	}
	b, _ := clips[0].MarshalBinary()
	v := append([]byte(nil), b...)
	v[len(clipMagic)] = ClipVersion + 1
	var ue *UnsupportedError
	if _, err := UnmarshalClip(v, clips[0].Skeleton()); !errors.As(err, &ue) || !errors.Is(err, ErrUnsupportedClip) {
		t.Errorf("version %d: %v, want an UnsupportedError", ClipVersion+1, err)
	}
	if _, err := UnmarshalClip(append(b, 0), clips[0].Skeleton()); !errors.Is(err, ErrMalformedClip) {
		t.Errorf("a byte after the clip: %v", err)
	}
}

// exercise decodes data on s and, when it decodes, plays what came out:
// what the fuzz target does with each input.
func exercise(tb testing.TB, data []byte, s *Skeleton) {
	c, err := UnmarshalClip(data, s)
	if err != nil {
		var fe *FormatError
		var ue *UnsupportedError
		if !errors.As(err, &fe) && !errors.As(err, &ue) {
			tb.Fatalf("error of no known type: %v", err)
		}
		return
	}
	d := c.Duration()
	pose := make([]geom.Transform, s.Len())
	fl := make([]float32, len(c.FloatTargets()))
	in := make([]int32, len(c.IntTargets()))
	for _, tm := range []float32{-1, 0, d / 3, d / 2, d, 2 * d, float32(math.NaN()), float32(math.Inf(1))} {
		c.Sample(tm, pose)
		c.SampleFloats(tm, fl)
		c.SampleInts(tm, in)
		_ = c.SampleRoot(tm)
		nt, loops := c.Advance(tm, d*1.7, model.WrapLoop)
		if loops <= 3 && loops >= -3 {
			_ = c.ExtractRootMotion(tm, nt, loops)
			c.CollectEvents(tm, nt, loops, func(model.Event) {})
		}
	}
	for j := -1; j <= s.Len(); j++ {
		_ = c.Animates(j)
	}
	_ = c.Stats()
	again, err := c.MarshalBinary()
	if err != nil {
		tb.Fatalf("a decoded clip does not encode: %v", err)
	}
	c2, err := UnmarshalClip(again, s)
	if err != nil {
		tb.Fatalf("a decoded clip encoded does not decode: %v", err)
	}
	sameSamples(tb, c, c2, 16)
}

// TestBakedEncodingHasItsVersion fails when what Bake makes of the test
// clips, or how it is encoded, changes (or the test clips do): a clip saved before the change
// would then load as the old bake. Change ClipVersion (older saved clips
// are then refused) and the hash below together. (Float arithmetic may
// fuse differently on other architectures: amd64 only.)
func TestBakedEncodingHasItsVersion(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skip("the hash is of amd64's arithmetic")
	}
	h := sha256.New()
	for _, c := range codecClips(t) {
		b, err := c.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		h.Write(b)
	}
	const version, want = 2, "30ded1495232c557"
	if got := fmt.Sprintf("%x", h.Sum(nil)[:8]); ClipVersion != version || got != want {
		t.Errorf("baked clips of version %d encode to %s, not version %d's %s: if Bake or the encoding changed, change ClipVersion and this test's version and hash",
			ClipVersion, got, version, want)
	}
}

// TestAGridThatIsNotTheSolosKeyTimesIsAFormatError: a saved grid that
// misses a solo's key time, holds a time no solo has, or is out of order
// would look keys up wrongly: refused.
func TestAGridThatIsNotTheSolosKeyTimesIsAFormatError(t *testing.T) {
	tree := treeSkeleton(12)
	c, err := Bake(synthClipKeep(tree, 30, 1, 1, 2, 0.7), tree)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.pose.set.keymap) == 0 {
		t.Fatal("the clip has no grid")
	}
	n := int(c.pose.set.gridLine.n)
	grid := c.pose.set.grid[:n]
	cases := []struct {
		name string
		grid []float32
	}{
		{"a key time missing", append(append([]float32(nil), grid[:3]...), grid[4:]...)},
		{"a time no solo has", append(append(append([]float32(nil), grid[:3]...), (grid[2]+grid[3])/2), grid[3:]...)},
		{"two times swapped", append(append(append([]float32(nil), grid[:2]...), grid[3], grid[2]), grid[4:]...)},
		{"a time twice", append(append([]float32(nil), grid[:3]...), grid[2:]...)},
	}
	for _, k := range cases {
		d := *c
		d.pose.set.grid = append(k.grid, sentinel())
		d.pose.set.gridLine.n = int32(len(k.grid))
		b, err := d.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		_, err = UnmarshalClip(b, tree)
		var fe *FormatError
		if !errors.As(err, &fe) || !strings.Contains(fe.Detail, "grid") {
			t.Errorf("%s: %v, want a FormatError about the grid", k.name, err)
		}
	}
}
