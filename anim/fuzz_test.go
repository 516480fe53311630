package anim

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
)

// fuzzReader turns fuzz bytes into clip fields.
type fuzzReader struct {
	b    []byte
	nice bool // only small multiples of 1/16, never raw float bits
}

func (r *fuzzReader) byte() int {
	if len(r.b) == 0 {
		return 0
	}
	v := r.b[0]
	r.b = r.b[1:]
	return int(v)
}

// f32 is either a small "nice" number (most bytes) or raw float bits
// (NaN, infinities, denormals).
func (r *fuzzReader) f32() float32 {
	k := r.byte()
	if k < 200 || r.nice {
		return float32(k-100) / 16
	}
	if len(r.b) < 4 {
		return 0
	}
	v := math.Float32frombits(binary.LittleEndian.Uint32(r.b))
	r.b = r.b[4:]
	return v
}

// fuzzClip builds an arbitrary clip over chainSkeleton(4).
func fuzzClip(data []byte, nice bool) *model.Clip {
	r := &fuzzReader{b: data, nice: nice}
	sk := chainSkeleton(4)
	c := &model.Clip{Start: r.f32(), Stop: r.f32(), SampleRate: r.f32(), WrapMode: model.WrapMode(r.byte())}
	for len(r.b) > 0 && len(c.Curves) < 64 {
		var tg model.Target
		switch sel := r.byte(); {
		case sel < 200:
			tg = tgt(sk.Paths[sel%4], model.TransformProp(r.byte()%6), r.byte()%5)
			tg.RotationOrder = geom.EulerOrder(r.byte() % 7)
		default:
			tg = model.Target{ClassID: model.ClassAnimator, Attribute: uint32(sel)}
		}
		cv := model.Curve{Target: tg, Kind: model.CurveKind(r.byte() % 5)}
		n := r.byte() % 24
		switch cv.Kind {
		case model.CurveConstant:
			cv.Value = r.f32()
		case model.CurveStreamed:
			tm := float32(-math.MaxFloat32)
			for i := 0; i < n; i++ {
				cv.Segments = append(cv.Segments, model.Segment{Time: tm, C: [4]float32{r.f32(), r.f32(), r.f32(), r.f32()}})
				tm = float32(i) / 8
				if r.byte() > 240 && !nice {
					tm = r.f32()
				}
			}
		case model.CurveDense:
			cv.DenseBegin, cv.DenseRate = r.f32(), r.f32()
			for i := 0; i < n; i++ {
				cv.Samples = append(cv.Samples, r.f32())
			}
		default:
			cv.PreInfinity, cv.PostInfinity = model.Infinity(r.byte()%4), model.Infinity(r.byte()%4)
			tm := r.f32()
			for i := 0; i < n; i++ {
				cv.Keys = append(cv.Keys, model.Keyframe{Time: tm, Value: r.f32(), InSlope: r.f32(), OutSlope: r.f32(),
					WeightedMode: int32(r.byte() % 4), InWeight: r.f32(), OutWeight: r.f32()})
				tm += float32(r.byte()) / 64
			}
		}
		c.Curves = append(c.Curves, cv)
		if r.byte() > 220 {
			c.Events = append(c.Events, model.Event{Time: r.f32(), Function: "e"})
		}
	}
	return c
}

// FuzzBakeAndSample bakes arbitrary clips (NaN and infinite values and
// times, keys out of order, unknown kinds and properties) and plays them:
// Bake either fails with an error or gives a clip that samples, extracts
// root motion and collects events without panicking, whatever the time.
func FuzzBakeAndSample(f *testing.F) {
	f.Add([]byte{0, 116, 30, 5, 1, 2, 0, 1, 8, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16})
	f.Add([]byte{100, 140, 200, 0, 0, 0xc0, 0x7f, 1, 2, 1, 0, 3, 6, 150, 160, 170, 180, 190, 110, 120})
	f.Add([]byte{100, 132, 130, 1, 3, 3, 1, 3, 12, 1, 2, 100, 120, 140, 160, 180, 101, 102, 103, 104, 105, 250, 10})
	f.Add([]byte{90, 150, 110, 2, 2, 4, 2, 2, 3, 20, 100, 110, 120, 130, 140, 150, 160, 170, 230, 120, 3, 1, 2})
	f.Fuzz(func(t *testing.T, data []byte) {
		mc := fuzzClip(data, false)
		sk := chainSkeleton(4)
		c, err := Bake(mc, sk)
		if err != nil {
			return
		}
		d := c.Duration()
		if !(d > 0) {
			t.Fatalf("duration %g", d)
		}
		pose := make([]geom.Transform, sk.Len())
		fl := make([]float32, len(c.FloatTargets()))
		for _, tm := range []float32{-1, 0, d / 3, d, 2 * d, float32(math.NaN()), float32(math.Inf(1))} {
			c.Sample(tm, pose)
			c.SampleFloats(tm, fl)
			_ = c.SampleRoot(tm)
			for _, mode := range []model.WrapMode{model.WrapDefault, model.WrapOnce, model.WrapLoop, model.WrapPingPong, model.WrapClampForever} {
				nt, loops := c.Advance(tm, d*1.7, mode)
				if loops > 3 || loops < -3 {
					continue
				}
				_ = c.ExtractRootMotion(tm, nt, loops)
				c.CollectEvents(tm, nt, loops, func(model.Event) {})
			}
		}
	})
}

// FuzzBakedEqualsEval is the differential form of the proof: for clips of
// well-behaved numbers (multiples of 1/16, keys in time order or sharing
// times, any curve form, weights, infinities, steps), sampling the baked
// clip equals model.Curve.Eval within the stated bounds.
func FuzzBakedEqualsEval(f *testing.F) {
	f.Add([]byte{0, 116, 30, 5, 1, 2, 0, 1, 8, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16})
	f.Add([]byte{100, 132, 130, 1, 3, 3, 1, 3, 12, 1, 2, 100, 120, 140, 160, 180, 101, 102, 103, 104, 105, 250, 10})
	f.Add([]byte{90, 150, 110, 2, 2, 4, 2, 2, 3, 20, 100, 110, 120, 130, 140, 150, 160, 170, 230, 120, 3, 1, 2})
	f.Fuzz(func(t *testing.T, data []byte) {
		mc := fuzzClip(data, true)
		for i := range mc.Curves {
			if k := mc.Curves[i].Keys; len(k) > 0 {
				for j := range k {
					// Weights outside [0, 1] make the Bezier's time
					// non-monotone: not a curve the editor writes.
					k[j].InWeight = float32(math.Mod(math.Abs(float64(k[j].InWeight)), 1))
					k[j].OutWeight = float32(math.Mod(math.Abs(float64(k[j].OutWeight)), 1))
				}
			}
		}
		sk := chainSkeleton(4)
		if _, err := Bake(mc, sk); err != nil {
			return
		}
		rot, rel, frel := compareClip(t, mc, sk, 64)
		if rot > 1e-3 || rel > 1e-4 || frel > 1e-4 {
			t.Fatalf("rotation %.3g°, translation/scale %.3g, floats %.3g", rot, rel, frel)
		}
		if !hasRootMotionCurves(mc) {
			sameRootPose(t, mc, sk)
		}
	})
}

// hasRootMotionCurves reports whether SampleRoot gives c's RootT and RootQ
// rather than its root joint.
func hasRootMotionCurves(c *model.Clip) bool {
	for i := range c.Curves {
		if tg := &c.Curves[i].Target; tg.ClassID == model.ClassAnimator && tg.PathHash == 0 && model.IsRootMotionAttribute(tg.Attribute) {
			return !c.Humanoid
		}
	}
	return false
}
