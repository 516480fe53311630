package model

import (
	"math"

	"github.com/mecanim/mecanim/geom"
)

// Eval returns the curve's value at time t (seconds, in the clip's time).
//
// What happens outside the keys:
//   - constant: the value everywhere;
//   - streamed: before the first segment, the first segment's value (C[3]);
//     a segment at -MaxFloat32 (the initial frame) holds its value until the
//     next key; after the last segment its cubic continues, as the data says
//     (Unity's compiled last keys are flat; clips clamp time to [Start, Stop]);
//   - dense: clamped to the first and last sample, linear between samples;
//   - keyframed: the pre/post infinity modes (clamp, loop, ping-pong).
func (c *Curve) Eval(t float32) float32 {
	switch c.Kind {
	case CurveConstant:
		return c.Value
	case CurveStreamed:
		return evalStreamed(c.Segments, t)
	case CurveDense:
		return evalDense(c.Samples, c.DenseBegin, c.DenseRate, t)
	case CurveKeyframed:
		return EvalKeys(c.Keys, c.PreInfinity, c.PostInfinity, t)
	}
	return 0
}

// EvalSegment evaluates one streamed segment dt seconds after its key.
func EvalSegment(s *Segment, dt float32) float32 {
	if !geom.Finite(s.C[0]) || !geom.Finite(s.C[1]) || !geom.Finite(s.C[2]) || !geom.Finite(s.C[3]) {
		return s.C[3]
	}
	if s.Time == -math.MaxFloat32 {
		return s.C[3]
	}
	return ((s.C[0]*dt+s.C[1])*dt+s.C[2])*dt + s.C[3]
}

func evalStreamed(segs []Segment, t float32) float32 {
	if len(segs) == 0 {
		return 0
	}
	// Last segment with Time <= t.
	lo, hi := 0, len(segs)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if segs[m].Time <= t {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo == 0 {
		return segs[0].C[3]
	}
	s := &segs[lo-1]
	return EvalSegment(s, t-s.Time)
}

func evalDense(samples []float32, begin, rate, t float32) float32 {
	n := len(samples)
	if n == 0 {
		return 0
	}
	f := (t - begin) * rate
	if !(f > 0) { // also NaN
		return samples[0]
	}
	if f >= float32(n-1) {
		return samples[n-1]
	}
	i := int(f)
	frac := f - float32(i)
	a, b := samples[i], samples[i+1]
	return a + (b-a)*frac
}

// EvalKeys evaluates an editor AnimationCurve at t: cubic Hermite between keys
// with per-second slopes, a step where a slope is infinite, and the cubic
// Bezier in time and value where a side is weighted. Outside the keys the
// infinity modes apply.
func EvalKeys(keys []Keyframe, pre, post Infinity, t float32) float32 {
	n := len(keys)
	if n == 0 {
		return 0
	}
	if n == 1 {
		return keys[0].Value
	}
	first, last := keys[0].Time, keys[n-1].Time
	span := last - first
	if t < first || t > last {
		mode := post
		if t < first {
			mode = pre
		}
		if span <= 0 || mode == InfinityClamp || (mode != InfinityLoop && mode != InfinityPingPong) {
			if t < first {
				return keys[0].Value
			}
			return keys[n-1].Value
		}
		off := float64(t - first)
		cycles := math.Floor(off / float64(span))
		local := float32(off - cycles*float64(span))
		if mode == InfinityPingPong && int64(cycles)%2 != 0 {
			local = span - local
		}
		t = first + local
	}
	// Last key with Time <= t.
	lo, hi := 0, n
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if keys[m].Time <= t {
			lo = m + 1
		} else {
			hi = m
		}
	}
	i := lo - 1
	if i < 0 {
		return keys[0].Value
	}
	if i >= n-1 {
		return keys[n-1].Value
	}
	return evalKeySegment(&keys[i], &keys[i+1], t)
}

func evalKeySegment(k0, k1 *Keyframe, t float32) float32 {
	dt := k1.Time - k0.Time
	if dt <= 0 {
		return k1.Value
	}
	m0, m1 := k0.OutSlope, k1.InSlope
	if !geom.Finite(m0) || !geom.Finite(m1) {
		return k0.Value
	}
	outW := k0.WeightedMode&WeightedOut != 0
	inW := k1.WeightedMode&WeightedIn != 0
	if !outW && !inW {
		s := (t - k0.Time) / dt
		s2 := s * s
		s3 := s2 * s
		h00 := 2*s3 - 3*s2 + 1
		h10 := s3 - 2*s2 + s
		h01 := -2*s3 + 3*s2
		h11 := s3 - s2
		return h00*k0.Value + h10*dt*m0 + h01*k1.Value + h11*dt*m1
	}
	w0, w1 := float32(1.0/3), float32(1.0/3)
	if outW {
		w0 = k0.OutWeight
	}
	if inW {
		w1 = k1.InWeight
	}
	return bezierWeighted(float64(k0.Time), float64(k0.Value), float64(m0), float64(w0),
		float64(k1.Time), float64(k1.Value), float64(m1), float64(w1), float64(t))
}

// bezierWeighted evaluates the cubic Bezier in (time, value) whose handles lie
// w0 and w1 of the span from the keys along their slopes, at time t.
func bezierWeighted(t0, v0, m0, w0, t1, v1, m1, w1, t float64) float32 {
	dt := t1 - t0
	// Control points in normalised time x in [0,1].
	x1, x2 := w0, 1-w1
	y0, y1 := v0, v0+w0*dt*m0
	y2, y3 := v1-w1*dt*m1, v1
	x := (t - t0) / dt
	bx := func(u float64) float64 {
		iu := 1 - u
		return 3*iu*iu*u*x1 + 3*iu*u*u*x2 + u*u*u
	}
	// Solve bx(u) = x by bisection with Newton steps; bx is monotone for
	// handles inside the span (weights are clamped to [0, 1] by the editor).
	lo, hi := 0.0, 1.0
	u := x
	for i := 0; i < 64; i++ {
		f := bx(u) - x
		if math.Abs(f) < 1e-12 {
			break
		}
		if f > 0 {
			hi = u
		} else {
			lo = u
		}
		iu := 1 - u
		d := 3*iu*iu*x1 + 6*iu*u*(x2-x1) + 3*u*u*(1-x2)
		nu := u - f/d
		if d == 0 || nu <= lo || nu >= hi || math.IsNaN(nu) {
			nu = (lo + hi) / 2
		}
		u = nu
	}
	iu := 1 - u
	return float32(iu*iu*iu*y0 + 3*iu*iu*u*y1 + 3*iu*u*u*y2 + u*u*u*y3)
}
