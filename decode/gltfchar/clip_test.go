package gltfchar

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
	qg "github.com/qmuntal/gltf"
)

// refChannel is a glTF channel as the test wrote it, evaluated by the
// specification's formulas (Appendix C) in float64.
type refChannel struct {
	node   int // glTF node
	path   string
	interp string
	times  []float64
	values [][]float64 // per output element (3 per key for CUBICSPLINE)
}

func (c *refChannel) at(tc float64) []float64 {
	n := len(c.times)
	cubic := c.interp == "CUBICSPLINE"
	val := func(k int) []float64 {
		if cubic {
			return c.values[3*k+1]
		}
		return c.values[k]
	}
	norm := func(v []float64) []float64 {
		if c.path != "rotation" {
			return v
		}
		l := math.Sqrt(v[0]*v[0] + v[1]*v[1] + v[2]*v[2] + v[3]*v[3])
		return []float64{v[0] / l, v[1] / l, v[2] / l, v[3] / l}
	}
	if n == 1 || tc <= c.times[0] {
		return norm(val(0))
	}
	if tc >= c.times[n-1] {
		return norm(val(n - 1))
	}
	k := sort.SearchFloat64s(c.times, tc)
	if c.times[k] > tc {
		k--
	}
	td := c.times[k+1] - c.times[k]
	u := (tc - c.times[k]) / td
	v0, v1 := val(k), val(k+1)
	out := make([]float64, len(v0))
	switch c.interp {
	case "STEP":
		copy(out, v0)
		return norm(out)
	case "LINEAR":
		if c.path == "rotation" {
			a, b := norm(v0), norm(v1)
			d := a[0]*b[0] + a[1]*b[1] + a[2]*b[2] + a[3]*b[3]
			s := 1.0
			if d < 0 {
				s, d = -1, -d
			}
			om := math.Acos(min(d, 1))
			wa, wb := 1-u, u
			if om > 1e-9 {
				wa, wb = math.Sin((1-u)*om)/math.Sin(om), math.Sin(u*om)/math.Sin(om)
			}
			for i := range out {
				out[i] = wa*a[i] + s*wb*b[i]
			}
			return norm(out)
		}
		for i := range out {
			out[i] = v0[i] + (v1[i]-v0[i])*u
		}
		return out
	}
	b0, a1 := c.values[3*k+2], c.values[3*(k+1)]
	u2, u3 := u*u, u*u*u
	for i := range out {
		out[i] = (2*u3-3*u2+1)*v0[i] + td*(u3-2*u2+u)*b0[i] + (-2*u3+3*u2)*v1[i] + td*(u3-u2)*a1[i]
	}
	return norm(out)
}

// animatedGLB builds a root with two animated children (and a mesh of two
// morph targets on the second), one channel per path and interpolation,
// rotations up to 170° apart between LINEAR keys; vrm0 adds an (empty)
// VRM 0.x extension so that the file is read with MirrorZ.
func animatedGLB(t testing.TB, seed uint64, vrm0 bool) ([]byte, []refChannel) {
	rng := rand.New(rand.NewPCG(seed, 7))
	b := newBuilder()
	root := b.node("r", -1, [3]float64{}, [4]float64{0, 0, 0, 1})
	a := b.node("a", root, [3]float64{0.1, 0.5, -0.2}, [4]float64{0, 0.38268343, 0, 0.92387953})
	c := b.node("b", a, [3]float64{0, 0.3, 0}, [4]float64{0.2, 0, 0, 0.9797959})
	pos := b.floats([]float32{0, 0, 0, 1, 0, 0, 0, 1, 0}, qg.AccessorVec3)
	d1 := b.floats([]float32{0, 0.1, 0, 0, 0, 0, 0.2, 0, 0}, qg.AccessorVec3)
	d2 := b.floats([]float32{0, 0, 0.3, 0, 0, 0, 0, 0, 0}, qg.AccessorVec3)
	b.doc.Meshes = []*qg.Mesh{{Name: "m", Primitives: []*qg.Primitive{{Attributes: qg.PrimitiveAttributes{qg.POSITION: pos},
		Targets: []qg.PrimitiveAttributes{{qg.POSITION: d1}, {qg.POSITION: d2}}}}, Extras: map[string]any{"targetNames": []string{"blink", "smile"}}}}
	b.doc.Nodes[c].Mesh = qg.Index(0)
	times := func(n int) []float32 {
		ts := make([]float32, n)
		tm := 0.2 + rng.Float64()*0.2
		for i := range ts {
			ts[i] = float32(tm)
			tm += 0.1 + rng.Float64()*0.6
		}
		return ts
	}
	randQuat := func() [4]float64 {
		q := [4]float64{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
		return unitQuat(q)
	}
	// turn returns q turned by angle radians about a random axis.
	turn := func(q [4]float64, angle float64) [4]float64 {
		ax := [3]float64{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
		l := math.Sqrt(ax[0]*ax[0] + ax[1]*ax[1] + ax[2]*ax[2])
		s, cs := math.Sin(angle/2), math.Cos(angle/2)
		r := [4]float64{ax[0] / l * s, ax[1] / l * s, ax[2] / l * s, cs}
		return [4]float64{
			r[3]*q[0] + r[0]*q[3] + r[1]*q[2] - r[2]*q[1],
			r[3]*q[1] - r[0]*q[2] + r[1]*q[3] + r[2]*q[0],
			r[3]*q[2] + r[0]*q[1] - r[1]*q[0] + r[2]*q[3],
			r[3]*q[3] - r[0]*q[0] - r[1]*q[1] - r[2]*q[2],
		}
	}
	var refs []refChannel
	ga := &qg.Animation{Name: "test"}
	add := func(node int, path string, interp qg.Interpolation, typ qg.AccessorType, ts []float32, vals [][]float64) {
		var flat []float32
		for _, v := range vals {
			for _, x := range v {
				flat = append(flat, float32(x))
			}
		}
		// The reference sees the float32 values the file holds.
		ref := refChannel{node: node, path: path, interp: interp.String()}
		for _, tm := range ts {
			ref.times = append(ref.times, float64(tm))
		}
		for _, v := range vals {
			r := make([]float64, len(v))
			for i, x := range v {
				r[i] = float64(float32(x))
			}
			ref.values = append(ref.values, r)
		}
		refs = append(refs, ref)
		in := b.floats(ts, qg.AccessorScalar)
		out := b.floats(flat, typ)
		ga.Samplers = append(ga.Samplers, &qg.AnimationSampler{Input: in, Output: out, Interpolation: interp})
		trs := map[string]qg.TRSProperty{"translation": qg.TRSTranslation, "rotation": qg.TRSRotation, "scale": qg.TRSScale, "weights": qg.TRSWeights}[path]
		ga.Channels = append(ga.Channels, &qg.AnimationChannel{Sampler: len(ga.Samplers) - 1, Target: qg.AnimationChannelTarget{Node: qg.Index(node), Path: trs}})
	}
	vec := func(n, comps int, scale float64) [][]float64 {
		out := make([][]float64, n)
		for i := range out {
			out[i] = make([]float64, comps)
			for k := range out[i] {
				out[i][k] = (rng.Float64()*2 - 1) * scale
			}
		}
		return out
	}
	// a: LINEAR translation, LINEAR rotation (large turns, a sign flip),
	// STEP scale.
	add(a, "translation", qg.InterpolationLinear, qg.AccessorVec3, times(6), vec(6, 3, 1))
	ts := times(7)
	var rots [][]float64
	q := randQuat()
	for i := range ts {
		if i > 0 {
			q = turn(q, []float64{0.05, 2.9, 1.2, 0.4, 2.2, 0.01, 1.7}[i])
		}
		v := []float64{q[0], q[1], q[2], q[3]}
		if i == 3 {
			v = []float64{-q[0], -q[1], -q[2], -q[3]}
		}
		rots = append(rots, v)
	}
	add(a, "rotation", qg.InterpolationLinear, qg.AccessorVec4, ts, rots)
	add(a, "scale", qg.InterpolationStep, qg.AccessorVec3, times(4), vec(4, 3, 2))
	// b: CUBICSPLINE translation and rotation, LINEAR scale, morph
	// weights.
	ts = times(5)
	cub := vec(15, 3, 1)
	add(c, "translation", qg.InterpolationCubicSpline, qg.AccessorVec3, ts, cub)
	var crot [][]float64
	for range ts {
		q := randQuat()
		tan := vec(2, 4, 0.8)
		crot = append(crot, tan[0], []float64{q[0], q[1], q[2], q[3]}, tan[1])
	}
	add(c, "rotation", qg.InterpolationCubicSpline, qg.AccessorVec4, ts, crot)
	add(c, "scale", qg.InterpolationLinear, qg.AccessorVec3, times(3), vec(3, 3, 1.5))
	ts = times(4)
	add(c, "weights", qg.InterpolationLinear, qg.AccessorScalar, ts, vec(8, 1, 1))
	b.doc.Animations = []*qg.Animation{ga}
	if vrm0 {
		b.doc.Extensions = qg.Extensions{"VRM": map[string]any{"humanoid": map[string]any{"humanBones": []any{}}}}
	}
	return b.glb(t), refs
}

// TestClipsFollowGLTFInterpolation samples the clips the reader makes
// through anim.Bake and compares them with glTF's interpolation of the
// file's channels, converted into Unity's frame: STEP, LINEAR (but
// rotations) and CUBICSPLINE within float32 rounding, LINEAR rotations
// within SlerpToleranceRad.
func TestClipsFollowGLTFInterpolation(t *testing.T) {
	worstSlerp := 0.0
	for seed := range uint64(8) {
		for _, vrm0 := range []bool{false, true} {
			data, refs := animatedGLB(t, seed, vrm0)
			c := read(t, data, Config{})
			if want := map[bool]Mirror{false: MirrorX, true: MirrorZ}[vrm0]; c.Mirror != want {
				t.Fatalf("mirror %s, want %s", c.Mirror, want)
			}
			f := newFrame(c.Mirror)
			sk, err := anim.SkeletonFromRig(c.Rig)
			if err != nil {
				t.Fatal(err)
			}
			bc, err := anim.Bake(c.Clips[0], sk)
			if err != nil {
				t.Fatal(err)
			}
			if bc.UnresolvedChannels() != 0 {
				t.Fatalf("%d unresolved channels", bc.UnresolvedChannels())
			}
			pose := make([]geom.Transform, sk.Len())
			floats := make([]float32, len(bc.FloatTargets()))
			stop := float64(c.Clips[0].Stop)
			for k := 0; k <= 2000; k++ {
				tm := float32(stop * (float64(k)/2000*1.1 - 0.05))
				bc.Sample(tm, pose)
				bc.SampleFloats(tm, floats)
				for ri := range refs {
					r := &refs[ri]
					want := r.at(float64(max(0, min(tm, float32(stop)))))
					ji := -1
					for i, g := range c.Nodes {
						if g == r.node {
							ji = i
						}
					}
					got := pose[ji]
					what := fmt.Sprintf("seed %d vrm0 %v t %g: node %d %s %s", seed, vrm0, tm, r.node, r.interp, r.path)
					switch r.path {
					case "translation":
						w := f.vec([3]float32{float32(want[0]), float32(want[1]), float32(want[2])})
						if d := got.T.Sub(w).Len(); d > 2e-6*max(1, w.Len()) {
							t.Fatalf("%s: %v, want %v", what, got.T, w)
						}
					case "scale":
						w := geom.Vec3{X: float32(want[0]), Y: float32(want[1]), Z: float32(want[2])}
						if d := got.S.Sub(w).Len(); d > 2e-6*max(1, w.Len()) {
							t.Fatalf("%s: %v, want %v", what, got.S, w)
						}
					case "rotation":
						w := f.quat([4]float32{float32(want[0]), float32(want[1]), float32(want[2]), float32(want[3])})
						e := quatAngle(got.R, w)
						lim := 2e-6
						if r.interp == "LINEAR" {
							worstSlerp = max(worstSlerp, e)
							lim += SlerpToleranceRad
						}
						if e > lim {
							t.Fatalf("%s: %v, want %v (%g rad apart)", what, got.R, w, e)
						}
					case "weights":
						for s, name := range []string{"blink", "smile"} {
							fi := -1
							for i, tg := range bc.FloatTargets() {
								if tg.ClassID == model.ClassSkinnedMeshRenderer && tg.Property == "blendShape."+name && tg.Attribute == model.PathHash(name) {
									fi = i
								}
							}
							ws := weightAt(r, s, float64(max(0, min(tm, float32(stop)))))
							if fi < 0 || math.Abs(float64(floats[fi])-100*ws) > 2e-4 {
								t.Fatalf("%s %s: %g, want %g", what, name, floats[fi], 100*ws)
							}
						}
					}
				}
			}
		}
	}
	t.Logf("LINEAR rotations within %.2g rad of glTF's slerp (tolerance %g)", worstSlerp, SlerpToleranceRad)
}

// weightAt evaluates morph target s of a weights channel of two targets.
func weightAt(r *refChannel, s int, tc float64) float64 {
	one := refChannel{path: "weights", interp: r.interp, times: r.times}
	for k := range len(r.times) {
		one.values = append(one.values, r.values[2*k+s])
	}
	return one.at(tc)[0]
}

// TestSlerpKeysBound checks SlerpToleranceRad on single intervals of
// every turn from 0 to 180°: the curve made for a LINEAR rotation stays
// within it of the slerp, and would not without the extra pieces.
func TestSlerpKeysBound(t *testing.T) {
	worst := 0.0
	for deg := 0.5; deg <= 180; deg += 0.5 {
		h := deg * math.Pi / 360
		q0 := [4]float64{0, 0, 0, 1}
		q1 := [4]float64{math.Sin(h) * 0.6, math.Sin(h) * 0.8, 0, math.Cos(h)}
		v := []float32{0, 0, 0, 1, float32(q1[0]), float32(q1[1]), float32(q1[2]), float32(q1[3])}
		keys := slerpKeys([]float32{0, 1}, v)
		cv := func(c int) *model.Curve {
			return &model.Curve{Kind: model.CurveKeyframed, Keys: keys[c]}
		}
		q1 = unitQuat([4]float64{float64(v[4]), float64(v[5]), float64(v[6]), float64(v[7])})
		om := math.Acos(min(1, dot4(q0, q1)))
		for k := 0; k <= 200; k++ {
			u := float64(k) / 200
			want, _ := slerpAt(q0, q1, om, u)
			got := geom.Quat{X: cv(0).Eval(float32(u)), Y: cv(1).Eval(float32(u)), Z: cv(2).Eval(float32(u)), W: cv(3).Eval(float32(u))}
			e := quatAngle(got, geom.Quat{X: float32(want[0]), Y: float32(want[1]), Z: float32(want[2]), W: float32(want[3])})
			worst = max(worst, e)
		}
		if deg == 180 && len(keys[0]) < 10 {
			t.Errorf("a 180° turn is %d keys", len(keys[0]))
		}
	}
	t.Logf("worst %.3g rad", worst)
	if worst > SlerpToleranceRad+1e-6 {
		t.Errorf("worst %g rad", worst)
	}
}
