package anim

import (
	"fmt"
	"math"
	"math/rand"

	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
)

// chainSkeleton is a root GameObject ("") with a chain of n-1 joints below.
func chainSkeleton(n int) *Skeleton {
	paths := make([]string, n)
	parents := make([]int, n)
	rest := make([]geom.Transform, n)
	parents[0] = -1
	rest[0] = geom.Identity
	p := ""
	for i := 1; i < n; i++ {
		if p == "" {
			p = fmt.Sprintf("j%d", i)
		} else {
			p = fmt.Sprintf("%s/j%d", p, i)
		}
		paths[i], parents[i] = p, i-1
		rest[i] = geom.Transform{T: geom.V3(0, 0.1, 0), R: geom.AxisAngle(geom.V3(1, 0, 0), 0.1), S: geom.V3(1, 1, 1)}
	}
	s, err := NewSkeleton(paths, parents, rest)
	if err != nil {
		panic(err)
	}
	return s
}

func tgt(path string, prop model.TransformProp, comp int) model.Target {
	return model.Target{Path: path, PathHash: model.PathHash(path), PathKnown: true,
		ClassID: model.ClassTransform, Transform: prop, Component: comp, RotationOrder: geom.OrderZXY}
}

// streamedCurve is a Mecanim-style streamed curve through values f(t) at
// fps with Catmull-Rom slopes, starting with the -MaxFloat32 frame.
func streamedCurve(f func(float64) float64, fps, seconds float64) []model.Segment {
	n := int(math.Round(seconds*fps)) + 1
	dt := 1 / fps
	segs := []model.Segment{{Time: -math.MaxFloat32, C: [4]float32{0, 0, 0, float32(f(0))}}}
	for i := 0; i < n; i++ {
		t0 := float64(i) * dt
		v0, v1 := f(t0), f(t0+dt)
		m0 := (f(t0+dt) - f(t0-dt)) / (2 * dt)
		m1 := (f(t0+2*dt) - f(t0)) / (2 * dt)
		if i == n-1 {
			segs = append(segs, model.Segment{Time: float32(t0), C: [4]float32{0, 0, 0, float32(v0)}})
			break
		}
		segs = append(segs, model.Segment{Time: float32(t0), C: hermite(v0, v1, m0, m1, dt)})
	}
	return segs
}

// synthClip is a Mecanim-style clip over sk: every joint below the root
// has streamed rotation (4 curves) and translation (3 curves) at fps for
// seconds, with keysMul times the keys; scale is constant. Rotations are
// smooth random wobbles.
func synthClip(sk *Skeleton, fps float64, seconds float64, keysMul int, seed int64) *model.Clip {
	return synthClipKeep(sk, fps, seconds, keysMul, seed, 1)
}

// synthClipKeep is synthClip with each animated curve keeping only a random
// fraction keep of its keys (as keyframe reduction leaves them), so curves
// no longer share key times.
func synthClipKeep(sk *Skeleton, fps float64, seconds float64, keysMul int, seed int64, keep float64) *model.Clip {
	rng := rand.New(rand.NewSource(seed))
	thin := func(segs []model.Segment) []model.Segment {
		if keep >= 1 {
			return segs
		}
		out := segs[:2]
		for _, g := range segs[2:] {
			if rng.Float64() < keep {
				out = append(out, g)
			}
		}
		return out
	}
	c := &model.Clip{Name: "synth", SampleRate: float32(fps), Start: 0, Stop: float32(seconds), WrapMode: model.WrapLoop}
	rate := fps * float64(keysMul)
	for j := 1; j < sk.Len(); j++ {
		p := sk.Paths[j]
		ax := geom.V3(float32(rng.NormFloat64()), float32(rng.NormFloat64()), float32(rng.NormFloat64())).Normalize()
		ph, fr := rng.Float64()*6, 0.5+rng.Float64()*2
		q := func(t float64) geom.Quat {
			return geom.AxisAngle(ax, float32(0.8*math.Sin(ph+2*math.Pi*fr*t)))
		}
		comps := []func(geom.Quat) float32{
			func(q geom.Quat) float32 { return q.X }, func(q geom.Quat) float32 { return q.Y },
			func(q geom.Quat) float32 { return q.Z }, func(q geom.Quat) float32 { return q.W }}
		for k := 0; k < 4; k++ {
			k := k
			c.Curves = append(c.Curves, model.Curve{Target: tgt(p, model.PropRotation, k), Kind: model.CurveStreamed,
				Segments: thin(streamedCurve(func(t float64) float64 { return float64(comps[k](q(t))) }, rate, seconds))})
		}
		for k := 0; k < 3; k++ {
			amp, off := rng.Float64(), rng.Float64()
			c.Curves = append(c.Curves, model.Curve{Target: tgt(p, model.PropPosition, k), Kind: model.CurveStreamed,
				Segments: thin(streamedCurve(func(t float64) float64 { return off + amp*math.Sin(ph+3*t) }, rate, seconds))})
		}
		for k := 0; k < 3; k++ {
			c.Curves = append(c.Curves, model.Curve{Target: tgt(p, model.PropScale, k), Kind: model.CurveConstant, Value: 1})
		}
	}
	return c
}

// treeSkeleton is a humanoid-shaped hierarchy of about n joints, depth
// first as Unity lists GameObjects: a root, a spine chain, and limbs and
// fingers branching from it (parents mostly the joint just before), with
// non-trivial rest rotations and scale 1.
func treeSkeleton(n int) *Skeleton {
	rng := rand.New(rand.NewSource(int64(n)))
	paths := []string{""}
	parents := []int{-1}
	rest := []geom.Transform{geom.Identity}
	add := func(parent int) int {
		paths = append(paths, fmt.Sprintf("%s/j%d", paths[parent], len(paths)))
		parents = append(parents, parent)
		ax := geom.V3(float32(rng.NormFloat64()), float32(rng.NormFloat64()), float32(rng.NormFloat64())).Normalize()
		rest = append(rest, geom.Transform{T: geom.V3(0, 0.1, 0.02), R: geom.AxisAngle(ax, float32(rng.Float64())), S: geom.V3(1, 1, 1)})
		return len(paths) - 1
	}
	chain := func(from, k int) int {
		for ; k > 0 && len(paths) < n; k-- {
			from = add(from)
		}
		return from
	}
	spine := chain(0, 5)
	for len(paths) < n {
		limb := chain(spine, 4)
		for f := 0; f < 5 && len(paths) < n; f++ {
			chain(limb, 3)
		}
		spine = chain(spine, 1)
	}
	for i := range paths {
		if i == 0 {
			paths[i] = ""
		} else {
			paths[i] = paths[i][1:]
		}
	}
	s, err := NewSkeleton(paths, parents, rest)
	if err != nil {
		panic(err)
	}
	return s
}

// synthDenseClip is a clip of dense curves (samples at fps, as Mecanim's
// dense block and resampled exports hold them) over sk: the joints j with
// j%every == 1 get a dense rotation (4 curves) and translation (3 curves),
// the others constant ones, every scale is constant.
func synthDenseClip(sk *Skeleton, fps, seconds float64, every int, seed int64) *model.Clip {
	rng := rand.New(rand.NewSource(seed))
	n := int(math.Round(seconds*fps)) + 1
	c := &model.Clip{Name: "dense", SampleRate: float32(fps), Start: 0, Stop: float32(seconds), WrapMode: model.WrapLoop}
	for j := 1; j < sk.Len(); j++ {
		p := sk.Paths[j]
		ax := geom.V3(float32(rng.NormFloat64()), float32(rng.NormFloat64()), float32(rng.NormFloat64())).Normalize()
		ph, fr := rng.Float64()*6, 0.5+rng.Float64()*2
		animated := j%every == 1
		var q [4][]float32
		var tr [3][]float32
		for f := 0; f < n; f++ {
			t := float64(f) / fps
			r := geom.AxisAngle(ax, float32(0.8*math.Sin(ph+2*math.Pi*fr*t)))
			for k, v := range [4]float32{r.X, r.Y, r.Z, r.W} {
				q[k] = append(q[k], v)
			}
			for k := range tr {
				tr[k] = append(tr[k], float32(0.1*float64(k+1)+0.05*math.Sin(ph+3*t+float64(k))))
			}
		}
		for k := range q {
			cv := model.Curve{Target: tgt(p, model.PropRotation, k), Kind: model.CurveConstant, Value: q[k][0]}
			if animated {
				cv = model.Curve{Target: cv.Target, Kind: model.CurveDense, Samples: q[k], DenseRate: float32(fps)}
			}
			c.Curves = append(c.Curves, cv)
		}
		for k := range tr {
			cv := model.Curve{Target: tgt(p, model.PropPosition, k), Kind: model.CurveConstant, Value: tr[k][0]}
			if animated {
				cv = model.Curve{Target: cv.Target, Kind: model.CurveDense, Samples: tr[k], DenseRate: float32(fps)}
			}
			c.Curves = append(c.Curves, cv)
			c.Curves = append(c.Curves, model.Curve{Target: tgt(p, model.PropScale, k), Kind: model.CurveConstant, Value: 1})
		}
	}
	return c
}
