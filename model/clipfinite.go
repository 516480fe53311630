package model

import (
	"fmt"
	"math"

	"github.com/mecanim/mecanim/geom"
)

// What a shipped clip holds is read as it is: a value that is NaN or
// infinite (a script property Unity recorded so, a key the editor wrote)
// is a value of the clip, reported by NotFinite, printed by sample as the
// data says, and held (Finite) only where it would enter a pose or an
// output file. Only key times that are not numbers are damage (CheckTimes):
// keys without a time have no order.

// curveName names curve i of a clip in messages: "curve 3 (Hips
// m_LocalPosition.y)", the root "root", an unnamed path "#hash".
func curveName(i int, t *Target) string {
	p := t.Path
	switch {
	case !t.PathKnown:
		p = UnnamedPath(t.PathHash)
	case p == "":
		p = "root"
	}
	return fmt.Sprintf("curve %d (%s %s)", i, p, t.Property)
}

// CheckTimes reports the first key time of the clip's curves that is not
// a number (NaN, or infinite where a time must be finite) and a dense
// block whose start or rate is not: structural damage, since such keys
// have no place in time. A streamed key may be at -MaxFloat32 (the
// initial frame).
func (c *Clip) CheckTimes() error {
	for i := range c.Curves {
		cv := &c.Curves[i]
		switch cv.Kind {
		case CurveDense:
			if v, bad := notFinite(cv.DenseBegin, cv.DenseRate); bad && len(cv.Samples) > 0 {
				return &NotFiniteError{Where: curveName(i, &cv.Target) + " dense start or rate", Value: v}
			}
		case CurveStreamed:
			for k, s := range cv.Segments {
				if !geom.Finite(s.Time) {
					return &NotFiniteError{Where: fmt.Sprintf("%s streamed key %d time", curveName(i, &cv.Target), k), Value: s.Time}
				}
			}
		case CurveKeyframed:
			for k, key := range cv.Keys {
				if !geom.Finite(key.Time) {
					return &NotFiniteError{Where: fmt.Sprintf("%s key %d time", curveName(i, &cv.Target), k), Value: key.Time}
				}
			}
		}
	}
	return nil
}

// NotFinite lists the curves of the clip holding a value that is NaN or
// infinite, one error per curve naming its first such value (More counts
// the others): a constant, a dense sample, a streamed key's value or
// coefficients that are neither a step's nor a curve's, a keyframe's value
// or a slope that is NaN. Infinite slopes are steps, as Unity writes them,
// and are not listed. Integer and object curves hold no floats.
func (c *Clip) NotFinite() []*NotFiniteError {
	var out []*NotFiniteError
	for i := range c.Curves {
		if e := c.Curves[i].notFinite(true); e != nil {
			e.Where = curveName(i, &c.Curves[i].Target) + " " + e.Where
			out = append(out, e)
		}
	}
	return out
}

// AllFinite reports whether every value of the curve is a number a pose
// can use. Streamed coefficients that are neither a step's nor a curve's
// do not count: every evaluation takes their segment for a step.
func (cv *Curve) AllFinite() bool { return cv.notFinite(false) == nil }

// notFinite returns the curve's first value that is not finite (Where
// without the curve's name) and how many more there are, or nil; with
// coefs, streamed coefficients that are neither a step's nor a curve's
// count too.
func (cv *Curve) notFinite(coefs bool) *NotFiniteError {
	var first *NotFiniteError
	see := func(where func() string, v float32) {
		if first == nil {
			first = &NotFiniteError{Where: where(), Value: v}
			return
		}
		first.More++
	}
	switch cv.Kind {
	case CurveConstant:
		if !geom.Finite(cv.Value) {
			see(func() string { return "constant value" }, cv.Value)
		}
	case CurveDense:
		for k, x := range cv.Samples {
			if !geom.Finite(x) {
				see(func() string { return fmt.Sprintf("dense frame %d", k) }, x)
			}
		}
	case CurveStreamed:
		for k, s := range cv.Segments {
			switch {
			case !geom.Finite(s.C[3]):
				see(func() string { return fmt.Sprintf("streamed key %d (at %g s)", k, s.Time) }, s.C[3])
			case coefs && !stepOrCurve(s.C):
				see(func() string {
					return fmt.Sprintf("streamed key %d (at %g s) coefficients %v, neither a step's nor a curve's,", k, s.Time, s.C[:3])
				}, firstNotFinite(s.C[:3]))
			}
		}
	case CurveKeyframed:
		for k, key := range cv.Keys {
			at := func(field string) func() string {
				return func() string { return fmt.Sprintf("key %d (at %g s) %s", k, key.Time, field) }
			}
			switch {
			case !geom.Finite(key.Value):
				see(at("value"), key.Value)
			case math.IsNaN(float64(key.InSlope)):
				see(at("inSlope"), key.InSlope)
			case math.IsNaN(float64(key.OutSlope)):
				see(at("outSlope"), key.OutSlope)
			}
		}
	}
	return first
}

// Finite returns the curve with every value that is not finite held: a
// dense sample or a streamed or keyframed key takes the value the curve
// has just before it (the first finite one when it comes first) and holds
// it as a step; coefficients that are neither a step's nor a curve's
// become a step. ok is false when the curve has no finite value at all:
// it is then left out. A curve whose values are all finite (AllFinite) is
// returned as it is (its slices shared), any other as a copy.
func (cv *Curve) Finite() (out Curve, ok bool) {
	if cv.AllFinite() {
		return *cv, true
	}
	out = *cv
	inf := float32(math.Inf(1))
	switch cv.Kind {
	case CurveConstant:
		return out, false
	case CurveDense:
		out.Samples = append([]float32(nil), cv.Samples...)
		first, found := firstFinite(len(out.Samples), func(k int) float32 { return out.Samples[k] })
		if !found {
			return out, false
		}
		prev := first
		for k, x := range out.Samples {
			if geom.Finite(x) {
				prev = x
				continue
			}
			out.Samples[k] = prev
		}
	case CurveStreamed:
		out.Segments = append([]Segment(nil), cv.Segments...)
		first, found := firstFinite(len(out.Segments), func(k int) float32 { return out.Segments[k].C[3] })
		if !found {
			return out, false
		}
		for k := range out.Segments {
			s := &out.Segments[k]
			switch {
			case !geom.Finite(s.C[3]):
				held := first
				if k > 0 {
					p := &out.Segments[k-1]
					if held = EvalSegment(p, s.Time-p.Time); !geom.Finite(held) {
						held = p.C[3]
					}
				}
				*s = Segment{Time: s.Time, C: [4]float32{inf, inf, inf, held}}
			case !stepOrCurve(s.C):
				s.C[0], s.C[1], s.C[2] = inf, inf, inf
			}
		}
	case CurveKeyframed:
		out.Keys = append([]Keyframe(nil), cv.Keys...)
		first, found := firstFinite(len(out.Keys), func(k int) float32 { return out.Keys[k].Value })
		if !found {
			return out, false
		}
		for k := range out.Keys {
			key := &out.Keys[k]
			switch {
			case !geom.Finite(key.Value):
				key.Value = first
				if k > 0 {
					key.Value = out.Keys[k-1].Value
					out.Keys[k-1].OutSlope = inf
				}
				key.InSlope = inf
				if math.IsNaN(float64(key.OutSlope)) {
					key.OutSlope = inf
				}
			case math.IsNaN(float64(key.InSlope)) || math.IsNaN(float64(key.OutSlope)):
				if math.IsNaN(float64(key.InSlope)) {
					key.InSlope = inf
				}
				if math.IsNaN(float64(key.OutSlope)) {
					key.OutSlope = inf
				}
			}
		}
	}
	return out, true
}

// firstFinite returns the first finite value of n values got by at.
func firstFinite(n int, at func(int) float32) (float32, bool) {
	for k := 0; k < n; k++ {
		if x := at(k); geom.Finite(x) {
			return x, true
		}
	}
	return 0, false
}
