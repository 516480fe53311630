package gltf

import (
	"math"
	"sort"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
)

// AnimStats says how an animation was made from its clip, for reports.
type AnimStats struct {
	Humanoid bool
	// Exact tracks reproduce the runtime's value at every time (up to
	// float32 rounding); Step, Linear and Cubic count them by
	// interpolation.
	Exact, Step, Linear, Cubic int
	// Resampled tracks were sampled at Rate frames per second (Euler
	// rotations, weighted keyframes, keyframed curves looping inside the
	// clip, humanoid clips, blend-shape weights).
	Resampled int
	Rate      float32
	// SplitKeys counts the keys added just before a jump of a cubic or
	// linear track (see Generic).
	SplitKeys int
	// BetweenKeys is how far, in metres, the resampled Transform tracks
	// put a joint from where the runtime poses it: the largest distance,
	// over the joints, between its position in model space as glTF
	// interpolates the tracks and as the runtime poses it, measured
	// halfway between every two keys of the resampled tracks (where a
	// line between samples of a smooth curve is farthest from it, and
	// where glTF's slerp and Blender's per-component interpolation of a
	// rotation agree). Where the clip jumps between two keys, a time
	// nearer the jump can be farther off, by up to the jump. 0 when no
	// Transform track was resampled; set by BuildScene with
	// SceneOptions.Interpolation Linear.
	BetweenKeys float32
	// Keys counts the key times of every track.
	Keys int
	// Unresolved counts Transform channels naming no joint of the rig.
	Unresolved int
	// NothingMoves, set by BuildScene when the animation has no track,
	// says why the clip moves nothing on the character.
	NothingMoves string
}

// splitDelta is how long before a jump of a cubic or linear track (a value
// discontinuity of the curve) the extra key is placed: within it the
// export ramps linearly to the new value where the runtime still holds the
// old one.
const splitDelta = 1e-4

// Generic makes an animation from a generic clip that keeps the curves'
// own shapes, so that glTF's interpolation gives the runtime's values
// (anim.Clip.Sample of bc, the clip c baked) at every time, not just at
// keys. joints maps each joint of bc's skeleton to a rig node (-1: not
// exported).
//
// A track (a joint's translation, rotation or scale) is made from the
// curves driving its components, chosen as anim.Bake does (the last
// channel per component; undriven components keep the rest value):
//
//   - every component constant over the clip: one key (LINEAR);
//   - every piece of every component constant (steps): STEP keys;
//   - every piece at most linear (dense curves) and not a rotation:
//     LINEAR keys;
//   - otherwise CUBICSPLINE: streamed segments, unweighted Hermite
//     keyframes and dense samples are cubics (or lines) between their
//     keys. The keys of the track are the union of its components' key
//     times inside the clip plus its start and end; each interval between
//     two of them lies inside one piece of every component, where the
//     curve is one cubic, which Hermite interpolation of the values and
//     one-sided derivatives at the interval's ends reproduces exactly.
//     glTF's tangents are per-second derivatives (the spec's formula
//     multiplies them by the interval's length), so a key's in-tangent is
//     the derivative of the piece ending at it and its out-tangent that
//     of the piece starting there.
//
// Rotations: glTF interpolates a CUBICSPLINE quaternion per component and
// normalises the result, as the runtime does, so rotation tracks are exact
// too; their keys keep the data's sign (a hemisphere flip between keys
// would change the cubic). glTF requires unit key values, so each key's
// value and tangents are scaled by one over the value's length; that is
// exact when the data is unit at the keys (Unity's quaternion keys are,
// to 1e-7, when the four components are keyed together) and otherwise
// moves the curve by about the difference of neighbouring keys' lengths
// times the angle between them (components keyed at different times:
// the union key falls where the per-component cubic is not unit).
//
// Where a curve jumps (a step between cubic pieces, or a streamed key
// that does not continue its previous segment), a cubic or linear track
// gets an extra key splitDelta (0.1 ms) before the jump, holding the
// value the curve reaches there; between the two the export ramps
// linearly where the runtime holds the old value.
//
// Resampled at rate (0: the clip's sample rate, 30 without one) with
// Sample's error bound: rotations from Euler channels, tracks with
// weighted keyframes or keyframed curves that loop or ping-pong inside
// the clip's range, and curves whose times are out of order.
func Generic(c *model.Clip, bc *anim.Clip, joints []int, rate float32) (Animation, AnimStats) {
	return generic(c, bc, joints, rate, false)
}

// generic is Generic; when linear, tracks that would be CUBICSPLINE are
// resampled at rate instead (SceneOptions.Interpolation).
func generic(c *model.Clip, bc *anim.Clip, joints []int, rate float32, linear bool) (Animation, AnimStats) {
	if !(rate > 0) {
		rate = c.SampleRate
		if !(rate > 0) || math.IsInf(float64(rate), 0) {
			rate = 30
		}
	}
	sk := bc.Skeleton()
	st := AnimStats{Rate: rate, Unresolved: bc.UnresolvedChannels()}
	a := Animation{Name: c.Name}
	start, length := clipSpan(c)

	chans := jointChannels(c, sk)
	var resampled []geom.Transform // poses at the resampling times, lazily
	var rtimes []float32
	resample := func(j int, p Path, node int) {
		if resampled == nil {
			rtimes = sampleTimes(bc.Duration(), rate)
			n := sk.Len()
			resampled = make([]geom.Transform, n*len(rtimes))
			for f, tm := range rtimes {
				bc.Sample(tm, resampled[f*n:(f+1)*n])
			}
		}
		n := sk.Len()
		var v []float32
		var prev geom.Quat
		for f := range rtimes {
			x := resampled[f*n+j]
			switch p {
			case PathTranslation:
				v = append(v, x.T.X, x.T.Y, x.T.Z)
			case PathScale:
				v = append(v, x.S.X, x.S.Y, x.S.Z)
			case PathRotation:
				q := x.R.Normalize()
				if f > 0 && q.Dot(prev) < 0 {
					q = q.Neg()
				}
				prev = q
				v = append(v, q.X, q.Y, q.Z, q.W)
			}
		}
		a.Tracks = append(a.Tracks, Track{Node: node, Path: p, Times: rtimes, Values: v})
		st.Resampled++
		st.Keys += len(rtimes)
	}

	for j := range sk.Len() {
		if j >= len(joints) || joints[j] < 0 {
			continue
		}
		node := joints[j]
		jc := chans[j]
		if jc == nil {
			continue
		}
		rest := sk.Rest[j]
		for _, p := range []Path{PathTranslation, PathRotation, PathScale} {
			var comps []*model.Curve
			var restV []float32
			switch p {
			case PathTranslation:
				comps, restV = jc.t[:], []float32{rest.T.X, rest.T.Y, rest.T.Z}
			case PathScale:
				comps, restV = jc.s[:], []float32{rest.S.X, rest.S.Y, rest.S.Z}
			case PathRotation:
				if jc.euler {
					comps, restV = jc.e[:], []float32{0, 0, 0}
				} else {
					comps, restV = jc.r[:], []float32{rest.R.X, rest.R.Y, rest.R.Z, rest.R.W}
				}
			}
			driven := false
			for _, cv := range comps {
				driven = driven || cv != nil
			}
			if !driven {
				continue
			}
			pws := make([]pw, len(comps))
			ok := true
			for k, cv := range comps {
				if cv == nil {
					pws[k] = pw{first: float64(restV[k])}
					continue
				}
				pws[k], ok = pieces(cv, start, start+length)
				if !ok {
					break
				}
			}
			if ok && p == PathRotation && jc.euler {
				// Euler angles: exact only when constant.
				var e [3]float64
				for k := range pws {
					if !pws[k].constantOn(start, start+length) {
						ok = false
						break
					}
					e[k], _ = pws[k].eval(start, false)
				}
				if ok {
					q := geom.FromEuler(geom.Vec3{X: float32(e[0]), Y: float32(e[1]), Z: float32(e[2])}, jc.order)
					pws = []pw{{first: float64(q.X)}, {first: float64(q.Y)}, {first: float64(q.Z)}, {first: float64(q.W)}}
				}
			}
			if !ok {
				resample(j, p, node)
				continue
			}
			tr, kind, split := exactTrack(pws, start, length, p == PathRotation)
			if linear && tr.Interpolation == CubicSpline {
				resample(j, p, node)
				continue
			}
			tr.Node, tr.Path, tr.Exact = node, p, true
			if kind == constantTrack {
				if p == PathRotation {
					if !movesQuat(tr.Values, rest.R) {
						continue
					}
				} else if !moves(tr.Values, restV) {
					continue
				}
			}
			a.Tracks = append(a.Tracks, tr)
			st.Exact++
			st.Keys += len(tr.Times)
			st.SplitKeys += split
			switch tr.Interpolation {
			case Step:
				st.Step++
			case CubicSpline:
				st.Cubic++
			default:
				st.Linear++
			}
		}
	}
	return a, st
}

// jointCurves are the curves driving one joint's components (nil: not
// driven), chosen as anim.Bake chooses them.
type jointCurves struct {
	t, s  [3]*model.Curve
	r     [4]*model.Curve
	e     [3]*model.Curve
	euler bool
	order geom.EulerOrder
}

// jointChannels resolves the clip's Transform channels to the skeleton's
// joints as anim.Bake does: by path (when known) else by path hash; the
// last channel per component wins; Euler channels on a joint replace its
// quaternion channels.
func jointChannels(c *model.Clip, sk *anim.Skeleton) []*jointCurves {
	out := make([]*jointCurves, sk.Len())
	for i := range c.Curves {
		cv := &c.Curves[i]
		tg := &cv.Target
		if tg.ClassID != model.ClassTransform || tg.Transform == model.PropNone {
			continue
		}
		j, ok := -1, false
		if tg.PathKnown {
			j, ok = sk.Index(tg.Path)
		}
		if !ok {
			j, ok = sk.IndexHash(tg.PathHash)
		}
		if !ok {
			continue
		}
		jc := out[j]
		if jc == nil {
			jc = &jointCurves{}
			out[j] = jc
		}
		k := tg.Component
		switch tg.Transform {
		case model.PropPosition:
			if k >= 0 && k < 3 {
				jc.t[k] = cv
			}
		case model.PropScale:
			if k >= 0 && k < 3 {
				jc.s[k] = cv
			}
		case model.PropRotation:
			if k >= 0 && k < 4 {
				jc.r[k] = cv
			}
		case model.PropEuler:
			if k >= 0 && k < 3 {
				jc.e[k] = cv
				jc.euler, jc.order = true, tg.RotationOrder
			}
		}
	}
	return out
}

// pw is a curve as the runtime evaluates it: piecewise cubic in curve
// time, piece i from breaks[i] being ((c0·x + c1)·x + c2)·x + c3 at x
// seconds after it; before the first break, the first piece's value at 0;
// with no breaks, first everywhere.
type pw struct {
	breaks []float64
	coefs  [][4]float64
	first  float64
}

// pieces returns the runtime's piecewise form of a curve over [from, to]
// (curve time), or false when the curve is not piecewise cubic there as
// stored (weighted keys, keys that wrap inside the range, bad times) or
// holds a value that is not a number (the runtime holds it; resampling
// writes what it plays).
func pieces(c *model.Curve, from, to float64) (pw, bool) {
	if !c.AllFinite() {
		return pw{}, false
	}
	switch c.Kind {
	case model.CurveConstant:
		return pw{first: float64(c.Value)}, true
	case model.CurveStreamed:
		segs := c.Segments
		if len(segs) == 0 {
			return pw{}, true
		}
		var p pw
		for i := range segs {
			g := &segs[i]
			tm := float64(g.Time)
			cf := g.C
			if g.Time == -math.MaxFloat32 || !geom.Finite(cf[0]) || !geom.Finite(cf[1]) || !geom.Finite(cf[2]) || !geom.Finite(cf[3]) {
				cf = [4]float32{0, 0, 0, g.C[3]}
			}
			if g.Time == -math.MaxFloat32 {
				tm = 0
				if i+1 < len(segs) {
					tm = float64(segs[i+1].Time)
				}
			}
			if math.IsNaN(tm) || (i > 0 && tm < p.breaks[i-1]) {
				return pw{}, false
			}
			p.breaks = append(p.breaks, tm)
			p.coefs = append(p.coefs, [4]float64{float64(cf[0]), float64(cf[1]), float64(cf[2]), float64(cf[3])})
		}
		p.first = p.coefs[0][3]
		return p, true
	case model.CurveDense:
		n := len(c.Samples)
		if n == 0 {
			return pw{}, true
		}
		rate, begin := float64(c.DenseRate), float64(c.DenseBegin)
		if n == 1 {
			return pw{first: float64(c.Samples[0])}, true
		}
		if !(rate > 0) || !geom.Finite64(rate) || !geom.Finite64(begin) {
			return pw{}, false
		}
		p := pw{first: float64(c.Samples[0]), breaks: make([]float64, n), coefs: make([][4]float64, n)}
		for i, s := range c.Samples {
			p.breaks[i] = begin + float64(i)/rate
			slope := 0.0
			if i+1 < n {
				slope = (float64(c.Samples[i+1]) - float64(s)) * rate
			}
			p.coefs[i] = [4]float64{0, 0, slope, float64(s)}
		}
		return p, true
	case model.CurveKeyframed:
		keys := c.Keys
		switch len(keys) {
		case 0:
			return pw{}, true
		case 1:
			return pw{first: float64(keys[0].Value)}, true
		}
		n := len(keys)
		first, last := float64(keys[0].Time), float64(keys[n-1].Time)
		if last > first && (from < first && isWrap(c.PreInfinity) || to > last && isWrap(c.PostInfinity)) {
			return pw{}, false
		}
		var p pw
		for i := 0; i+1 < n; i++ {
			k0, k1 := &keys[i], &keys[i+1]
			if !(k1.Time >= k0.Time) {
				return pw{}, false
			}
			dt := float64(k1.Time) - float64(k0.Time)
			m0, m1 := float64(k0.OutSlope), float64(k1.InSlope)
			var cf [4]float64
			switch {
			case dt <= 0, !geom.Finite64(m0), !geom.Finite64(m1):
				cf = [4]float64{0, 0, 0, float64(k0.Value)}
			case k0.WeightedMode&model.WeightedOut != 0 || k1.WeightedMode&model.WeightedIn != 0:
				return pw{}, false
			default:
				v0, v1 := float64(k0.Value), float64(k1.Value)
				d := v1 - v0
				cf = [4]float64{(dt*(m0+m1) - 2*d) / (dt * dt * dt), (3*d - dt*(2*m0+m1)) / (dt * dt), m0, v0}
			}
			p.breaks = append(p.breaks, float64(k0.Time))
			p.coefs = append(p.coefs, cf)
		}
		p.breaks = append(p.breaks, last)
		p.coefs = append(p.coefs, [4]float64{0, 0, 0, float64(keys[n-1].Value)})
		p.first = p.coefs[0][3]
		return p, true
	}
	return pw{}, false
}

// clipSpan is where a clip's curves start (0 when not finite) and how long
// it plays (0 when not positive and finite), its length rounded to float32
// as the runtime keeps it.
func clipSpan(c *model.Clip) (start, length float64) {
	start = float64(c.Start)
	if !geom.Finite64(start) {
		start = 0
	}
	length = float64(c.Stop) - float64(c.Start)
	if !(length > 0) || !geom.Finite64(length) {
		length = 0
	}
	return start, float64(float32(length))
}

func isWrap(m model.Infinity) bool { return m == model.InfinityLoop || m == model.InfinityPingPong }

// piece returns the piece in force at t: the last one starting at or
// before t (left: strictly before), -1 before the first.
func (p *pw) piece(t float64, left bool) int {
	return sort.Search(len(p.breaks), func(i int) bool {
		if left {
			return p.breaks[i] >= t
		}
		return p.breaks[i] > t
	}) - 1
}

// eval returns the value and derivative at t, of the piece in force at t
// (left: of the piece ending at t).
func (p *pw) eval(t float64, left bool) (v, d float64) {
	if len(p.breaks) == 0 {
		return p.first, 0
	}
	k := p.piece(t, left)
	if k < 0 {
		return p.coefs[0][3], 0
	}
	c := &p.coefs[k]
	x := t - p.breaks[k]
	return ((c[0]*x+c[1])*x+c[2])*x + c[3], (3*c[0]*x+2*c[1])*x + c[2]
}

// evalIn evaluates piece k (-1: the value before the first break) at t.
func (p *pw) evalIn(k int, t float64) (v, d float64) {
	if len(p.breaks) == 0 {
		return p.first, 0
	}
	if k < 0 {
		return p.coefs[0][3], 0
	}
	c := &p.coefs[k]
	x := t - p.breaks[k]
	return ((c[0]*x+c[1])*x+c[2])*x + c[3], (3*c[0]*x+2*c[1])*x + c[2]
}

// degreeOn returns the highest degree of the pieces in force over
// [from, to] (0 constant, 1 linear, 3 cubic) and whether the value stays
// one constant there.
func (p *pw) degreeOn(from, to float64) (deg int, constant bool) {
	if len(p.breaks) == 0 {
		return 0, true
	}
	k0 := max(p.piece(from, false), 0)
	k1 := max(p.piece(to, false), 0)
	constant = true
	v := p.coefs[k0][3]
	for k := k0; k <= k1; k++ {
		c := &p.coefs[k]
		switch {
		case c[0] != 0 || c[1] != 0:
			deg = 3
		case c[2] != 0:
			deg = max(deg, 1)
		}
		if c[0] != 0 || c[1] != 0 || c[2] != 0 || c[3] != v {
			constant = false
		}
	}
	return deg, constant
}

func (p *pw) constantOn(from, to float64) bool {
	_, c := p.degreeOn(from, to)
	return c
}

type trackKind int

const (
	constantTrack trackKind = iota
	stepTrack
	linearTrack
	cubicTrack
)

// exactTrack builds the keys of a track whose components are pws over
// curve time [start, start+length]; key times are clip times (curve time
// minus start). It returns the track (Node and Path unset), its kind and
// how many split keys it needed.
func exactTrack(pws []pw, start, length float64, rotation bool) (Track, trackKind, int) {
	nc := len(pws)
	end := start + length
	deg, allConst := 0, true
	for k := range pws {
		d, c := pws[k].degreeOn(start, end)
		deg = max(deg, d)
		allConst = allConst && c
	}
	if allConst || length == 0 {
		v := make([]float32, nc)
		for k := range pws {
			x, _ := pws[k].eval(start, false)
			v[k] = float32(x)
		}
		if rotation {
			normalizeQuat(v)
		}
		return Track{Times: []float32{0}, Values: v}, constantTrack, 0
	}
	// Key times: the union of the components' breaks inside the range, as
	// float32 clip times, with the ends.
	var ts []float32
	ts = append(ts, 0)
	for k := range pws {
		for _, b := range pws[k].breaks {
			if b > start && b < end {
				ts = append(ts, float32(b-start))
			}
		}
	}
	ts = append(ts, float32(length))
	sort.Slice(ts, func(i, j int) bool { return ts[i] < ts[j] })
	times := ts[:1]
	for _, x := range ts[1:] {
		if x > times[len(times)-1] {
			times = append(times, x)
		}
	}
	kind := cubicTrack
	switch {
	case deg == 0:
		kind = stepTrack
	case deg == 1 && !rotation:
		kind = linearTrack
	}
	per := nc
	if kind == cubicTrack {
		per = 3 * nc
	}
	tr := Track{Times: make([]float32, 0, len(times)), Values: make([]float32, 0, per*len(times))}
	split := 0
	vp, dp := make([]float64, nc), make([]float64, nc) // right side
	vm, dm := make([]float64, nc), make([]float64, nc) // left side
	key := func(t float32, in, v, out []float64) {
		tr.Times = append(tr.Times, t)
		base := len(tr.Values)
		if kind == cubicTrack {
			for k := range nc {
				tr.Values = append(tr.Values, float32(in[k]))
			}
		}
		for k := range nc {
			tr.Values = append(tr.Values, float32(v[k]))
		}
		if kind == cubicTrack {
			for k := range nc {
				tr.Values = append(tr.Values, float32(out[k]))
			}
			if rotation {
				l := math.Sqrt(v[0]*v[0] + v[1]*v[1] + v[2]*v[2] + v[3]*v[3])
				if l > 0 {
					for i := base; i < len(tr.Values); i++ {
						tr.Values[i] = float32(float64(tr.Values[i]) / l)
					}
				}
			}
		}
	}
	// Each component is evaluated at its own break where it has one at the
	// key (a float32 time may fall just past a float64 break, a dense
	// curve's 0.1 s, or just before it, and would read the wrong piece's
	// slope), else at the key's time.
	next := make([]int, nc) // per component, its first break not yet passed
	us := make([]float64, nc)
	for i, tk := range times {
		u := start + float64(tk)
		if i == len(times)-1 {
			u = end
		}
		jump := false
		for k := range pws {
			us[k] = u
			br := pws[k].breaks
			for next[k] < len(br) && float32(br[next[k]]-start) < tk {
				next[k]++
			}
			if next[k] < len(br) && float32(br[next[k]]-start) == tk {
				us[k] = br[next[k]]
			}
			vp[k], dp[k] = pws[k].eval(us[k], false)
			vm[k], dm[k] = pws[k].eval(us[k], true)
			if i > 0 && math.Abs(vp[k]-vm[k]) > 1e-5*max(1, math.Abs(vp[k])) {
				jump = true
			}
		}
		if kind == stepTrack {
			key(tk, nil, vp, nil)
			continue
		}
		if jump {
			// A key just before the jump, on the piece ending there.
			prev := tr.Times[len(tr.Times)-1]
			ta := tk - float32(splitDelta)
			if !(ta > prev) {
				ta = prev + (tk-prev)/2
			}
			if ta > prev && ta < tk {
				ua := start + float64(ta)
				va, da := make([]float64, nc), make([]float64, nc)
				ramp := make([]float64, nc)
				for k := range pws {
					kk := pws[k].piece(us[k], true)
					va[k], da[k] = pws[k].evalIn(kk, ua)
					ramp[k] = (vp[k] - va[k]) / (u - ua)
				}
				key(ta, da, va, ramp)
				key(tk, ramp, vp, dp)
				split++
				continue
			}
		}
		key(tk, dm, vp, dp)
	}
	interp := Linear
	switch kind {
	case stepTrack:
		interp = Step
	case cubicTrack:
		interp = CubicSpline
	}
	tr.Interpolation = interp
	return tr, kind, split
}

// normalizeQuat scales x, y, z, w to unit length (the zero quaternion
// becomes the identity, as the runtime makes it).
func normalizeQuat(v []float32) {
	q := geom.Quat{X: v[0], Y: v[1], Z: v[2], W: v[3]}
	if q.Dot(q) == 0 {
		v[0], v[1], v[2], v[3] = 0, 0, 0, 1
		return
	}
	q = q.Normalize()
	v[0], v[1], v[2], v[3] = q.X, q.Y, q.Z, q.W
}

// BlendShapes makes a weights track for each mesh whose blend shapes the
// clip drives (bound as SampleBlendShapes binds them), keeping the
// curves' shapes as Generic does: keys at the union of the shapes' key
// times, STEP, LINEAR or CUBICSPLINE, so that glTF's interpolation gives
// the runtime's weights at every time. Shapes the clip does not drive keep
// the renderer's weight. Meshes whose curves cannot be kept exactly
// (weighted keys, keys looping inside the clip) are returned in resample,
// for SampleBlendShapes.
func BlendShapes(c *model.Clip, rig *model.Rig, meshes []model.MeshInstance) (tracks []Track, resample []model.MeshInstance) {
	start, length := clipSpan(c)
	for _, m := range meshes {
		if m.Mesh == nil || len(m.Mesh.BlendShapes) == 0 || m.Node < 0 || m.Node >= len(rig.Nodes) {
			continue
		}
		ph := model.PathHash(rig.Nodes[m.Node].Path)
		shapes := m.Mesh.BlendShapes
		curves := make([]*model.Curve, len(shapes))
		driven := false
		for i := range c.Curves {
			t := &c.Curves[i].Target
			if t.ClassID != model.ClassSkinnedMeshRenderer || t.PathHash != ph {
				continue
			}
			for si, bs := range shapes {
				if t.Attribute == model.PathHash(bs.Name) || (bs.NameHash != 0 && t.Attribute == bs.NameHash) {
					curves[si], driven = &c.Curves[i], true
				}
			}
		}
		if !driven {
			continue
		}
		pws := make([]pw, len(shapes))
		ok := true
		for si, cv := range curves {
			if cv == nil {
				if si < len(m.BlendShapeWeights) {
					pws[si].first = float64(m.BlendShapeWeights[si])
				}
				continue
			}
			if pws[si], ok = pieces(cv, start, start+length); !ok {
				break
			}
		}
		if !ok {
			resample = append(resample, m)
			continue
		}
		tr, _, _ := exactTrack(pws, start, length, false)
		tr.Node, tr.Path, tr.Exact = m.Node, PathWeights, true
		tracks = append(tracks, tr)
	}
	return tracks, resample
}
