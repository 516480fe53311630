package muscleclip

import (
	"math"
	"sort"

	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/unityversion"
)

// streamedKey is one key of the streamed block before it is written.
type streamedKey struct {
	time  float32
	curve int
	c     [4]float32
}

// segments returns a curve's streamed segments as Unity's builder writes
// them: an initial segment at -MaxFloat32 holding the first value, one
// cubic segment per key up to the last, and a flat last key. A curve already
// streamed keeps its segments; a dense one becomes linear segments between
// its samples; a constant one its initial segment.
func segments(cv *model.Curve, r coefficientRule) []model.Segment {
	switch cv.Kind {
	case model.CurveStreamed:
		if len(cv.Segments) > 0 && cv.Segments[0].Time == -math.MaxFloat32 {
			return cv.Segments
		}
		out := make([]model.Segment, 0, len(cv.Segments)+1)
		out = append(out, model.Segment{Time: -math.MaxFloat32, C: [4]float32{0, 0, 0, cv.Segments[0].C[3]}})
		return append(out, cv.Segments...)
	case model.CurveKeyframed:
		keys := cv.Keys
		out := make([]model.Segment, 0, len(keys)+1)
		out = append(out, model.Segment{Time: -math.MaxFloat32, C: [4]float32{0, 0, 0, keys[0].Value}})
		for i := range keys {
			if i == len(keys)-1 {
				out = append(out, model.Segment{Time: keys[i].Time, C: [4]float32{0, 0, 0, keys[i].Value}})
				break
			}
			out = append(out, model.Segment{Time: keys[i].Time, C: r.hermite(&keys[i], &keys[i+1])})
		}
		return out
	case model.CurveDense:
		n := len(cv.Samples)
		out := make([]model.Segment, 0, n+1)
		out = append(out, model.Segment{Time: -math.MaxFloat32, C: [4]float32{0, 0, 0, cv.Samples[0]}})
		for i, x := range cv.Samples {
			t := cv.DenseBegin + float32(i)/cv.DenseRate
			slope := float32(0)
			if i < n-1 {
				slope = (cv.Samples[i+1] - x) * cv.DenseRate
			}
			out = append(out, model.Segment{Time: t, C: [4]float32{0, 0, slope, x}})
		}
		return out
	}
	return []model.Segment{{Time: -math.MaxFloat32, C: [4]float32{0, 0, 0, cv.Value}}}
}

// coefficientRule is how a Unity version computes a segment's cubic
// coefficients: the same formula, with the divisions done in two orders
// that round differently.
type coefficientRule uint8

const (
	// coefficientsCurrent: observed bit for bit on Unity 2022.3.
	coefficientsCurrent coefficientRule = iota
	// coefficients2020: observed bit for bit on Unity 2019.4 and 2020.3.
	coefficients2020
)

// ruleFor is the coefficient rule of a Unity version (the zero version:
// the current one). The change lies between 2020.3.34 and 2022.3.9; 2021
// versions are taken to have the current rule (not observed).
func ruleFor(v unityversion.Version) coefficientRule {
	if !v.IsBlank() && v.Less(unityversion.MustParse("2021.1.0a1")) {
		return coefficients2020
	}
	return coefficientsCurrent
}

// Hermite returns the cubic coefficients of the segment from key a to key
// b, in the order the streamed block stores them (dt³, dt², dt, 1), computed
// in single precision as Unity 2022's curve cache computes them. An
// infinite slope on either side gives non-finite coefficients: a step.
func Hermite(a, b *model.Keyframe) [4]float32 { return coefficientsCurrent.hermite(a, b) }

func (r coefficientRule) hermite(a, b *model.Keyframe) [4]float32 {
	dx := b.Time - a.Time
	if dx < 0.0001 {
		dx = 0.0001
	}
	dy := b.Value - a.Value
	m1, m2 := a.OutSlope, b.InSlope
	d1 := m1 * dx
	d2 := m2 * dx
	if r == coefficients2020 {
		length := 1 / (dx * dx)
		return [4]float32{(d1 + d2 - dy - dy) * length / dx, (dy + dy + dy - d1 - d1 - d2) * length, m1, a.Value}
	}
	inv := 1 / dx
	inv2 := inv * inv
	return [4]float32{(d1 + d2 - dy - dy) * inv2 * inv, (dy + dy + dy - d1 - d1 - d2) * inv2, m1, a.Value}
}

// streamedWords lays out the streamed block's data: frames of a time, a key
// count and the keys (curve index, four coefficients) in time order, keys of
// one frame in curve order, ending with the key-less frame at +Inf.
func streamedWords(curves []*model.Curve, r coefficientRule) []uint32 {
	var keys []streamedKey
	for i, cv := range curves {
		for _, s := range segments(cv, r) {
			keys = append(keys, streamedKey{s.Time, i, s.C})
		}
	}
	sort.SliceStable(keys, func(i, j int) bool {
		if keys[i].time != keys[j].time {
			return keys[i].time < keys[j].time
		}
		return keys[i].curve < keys[j].curve
	})
	var w []uint32
	for i := 0; i < len(keys); {
		j := i
		for j < len(keys) && keys[j].time == keys[i].time {
			j++
		}
		w = append(w, math.Float32bits(keys[i].time), uint32(j-i))
		for _, k := range keys[i:j] {
			w = append(w, uint32(k.curve), math.Float32bits(k.c[0]), math.Float32bits(k.c[1]), math.Float32bits(k.c[2]), math.Float32bits(k.c[3]))
		}
		i = j
	}
	return append(w, math.Float32bits(float32(math.Inf(1))), 0)
}

// denseSamples samples the dense curves frame by frame (all curves of frame
// 0, then of frame 1, ...) from start at rate.
func denseSamples(curves []*model.Curve, start, rate float32, frames int, r coefficientRule) []float32 {
	if len(curves) == 0 {
		return []float32{}
	}
	out := make([]float32, 0, frames*len(curves))
	for f := 0; f < frames; f++ {
		t := start + float32(f)/rate
		for _, cv := range curves {
			if cv.Kind == model.CurveDense && cv.DenseBegin == start && cv.DenseRate == rate && f < len(cv.Samples) {
				out = append(out, cv.Samples[f])
				continue
			}
			out = append(out, evalCompiled(cv, t, r))
		}
	}
	return out
}

// evalCompiled evaluates a curve as Unity's builder samples it: a keyframed
// curve through the cubic coefficients of its segments (dt seconds after
// the key at or before t, clamped to its first and last keys), any other
// curve as the model evaluates it.
func evalCompiled(cv *model.Curve, t float32, r coefficientRule) float32 {
	if cv.Kind != model.CurveKeyframed {
		return cv.Eval(t)
	}
	keys := cv.Keys
	if t <= keys[0].Time || len(keys) == 1 {
		return keys[0].Value
	}
	n := len(keys)
	if t >= keys[n-1].Time {
		return keys[n-1].Value
	}
	i := sort.Search(n, func(i int) bool { return keys[i].Time > t }) - 1
	if keys[i].WeightedMode != 0 || keys[i+1].WeightedMode != 0 {
		return cv.Eval(t)
	}
	c := r.hermite(&keys[i], &keys[i+1])
	if !finite4(c) {
		return keys[i].Value
	}
	dt := t - keys[i].Time
	return ((c[0]*dt+c[1])*dt+c[2])*dt + c[3]
}

func finite4(c [4]float32) bool {
	for _, x := range c {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return false
		}
	}
	return true
}
