package anim

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"unsafe"

	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
)

// A curveSet evaluates scalar channels into numbered float slots. It is
// built once (setBuilder) and only read afterwards.
//
// Animated cubic channels are grouped by timeline (identical key times and
// infinity modes). A timeline's coefficients are stored key-major: the
// coefficients of all its channels for key k are adjacent, so one sample
// reads one contiguous block per timeline.
type curveSet struct {
	base []float32 // every slot's value before animated channels write it

	lines  []timeline
	slots  []int32      // channel slots, grouped by timeline
	times  []float32    // key times, per timeline, each followed by the sentinel
	index  []int32      // uniform-slice key index, per long timeline
	coefs  [][4]float32 // per timeline: key-major blocks of its channels
	dense  []denseGroup // dense channels, grouped by frames (begin, rate, count)
	dslots []int32      // their slots, grouped
	dsamp  []float32    // their samples: per group frame-major (a frame's channels adjacent)

	solos []solo    // cubic channels alone on their timeline
	recs  []soloKey // their keys, each channel's followed by the sentinel

	// When the solos' key times together are few enough (see gridBudget),
	// they are evaluated through a grid instead of one lookup each: grid
	// is the sorted union of their key times, found once per sample
	// (with its own index), and keymap row g names, for every solo, its
	// key in force from grid[g] until grid[g+1].
	grid     []float32 // union of the solos' key times, then the sentinel
	gridLine timeline  // grid's lookup (times in grid, not s.times)
	gridIdx  []int32   // grid's key index
	keymap   []uint16  // rows of len(solos) keys: one per grid time, one for before
}

// solo is a cubic channel with a timeline of its own (no infinity
// mapping), laid out for the shortest path: its keys carry their time
// next to their coefficients.
type solo struct {
	first, invSlot float32
	slot           int32
	n              int32 // keys (recs[rec:rec+n+1] with the sentinel)
	idxOff         int32 // index[idxOff:idxOff+n], or -1: binary search
	rec            int32
}

// soloKey is one key of a solo channel: from T on the value is
// ((C[0]·dt + C[1])·dt + C[2])·dt + C[3], dt = t - T.
type soloKey struct {
	T float32
	C [4]float32
}

// timeline is one set of key times shared by some cubic channels.
type timeline struct {
	timeOff, n     int32 // times[timeOff:timeOff+n]
	idxOff         int32 // index[idxOff:idxOff+n], or -1: binary search
	slot0, nch     int32 // slots[slot0:slot0+nch]
	coefOff        int32 // coefs[coefOff : coefOff+n*nch]
	first, invSlot float32
	// Infinity mapping of keyframed curves whose pre or post infinity loops
	// or ping-pongs (wrap set); clamping needs no mapping.
	wrap      bool
	pre, post model.Infinity
	last      float32
}

// denseGroup is the dense channels sampled over the same frames (Mecanim's
// dense block gives all its curves one begin, rate and frame count): a
// sample computes the frame and fraction once and reads two adjacent rows.
type denseGroup struct {
	begin, rate float32
	n           int32 // frames
	slot0, nch  int32 // dslots[slot0:slot0+nch]
	off         int32 // dsamp[off:off+n*nch]
}

// sentinel follows every timeline's last key: NaN, so "has the next key
// started by t" is false for any t, even +Inf, and a walk always stops.
func sentinel() float32 { return math.Float32frombits(0x7fc00000) }

// indexMinKeys is the smallest timeline that gets a key index; shorter ones
// binary-search.
const indexMinKeys = 9

// bytes is the memory the set keeps.
func (s *curveSet) bytes() int {
	return 4*(cap(s.base)+cap(s.slots)+cap(s.times)+cap(s.index)+cap(s.dslots)+cap(s.dsamp)+cap(s.grid)+cap(s.gridIdx)) +
		16*cap(s.coefs) + 2*cap(s.keymap) +
		int(unsafe.Sizeof(timeline{}))*cap(s.lines) + int(unsafe.Sizeof(denseGroup{}))*cap(s.dense) +
		int(unsafe.Sizeof(solo{}))*cap(s.solos) + int(unsafe.Sizeof(soloKey{}))*cap(s.recs)
}

// trim gives every table of the set its exact length (appending leaves
// up to twice the room), so that what a clip keeps is what it uses.
func (s *curveSet) trim() {
	s.base = exact(s.base)
	s.lines = exact(s.lines)
	s.slots = exact(s.slots)
	s.times = exact(s.times)
	s.index = exact(s.index)
	s.coefs = exact(s.coefs)
	s.dense = exact(s.dense)
	s.dslots = exact(s.dslots)
	s.dsamp = exact(s.dsamp)
	s.solos = exact(s.solos)
	s.recs = exact(s.recs)
	s.grid = exact(s.grid)
	s.gridIdx = exact(s.gridIdx)
	s.keymap = exact(s.keymap)
}

// exact returns v with no spare capacity (nil when empty).
func exact[T any](v []T) []T {
	if len(v) == 0 {
		return nil
	}
	if cap(v) == len(v) {
		return v
	}
	return append(make([]T, 0, len(v)), v...)
}

// subset returns the channels of s writing slots lo..hi-1, laid out again
// as a set of their own with those slots numbered from 0 (and their base
// values).
func (s *curveSet) subset(lo, hi int32) curveSet {
	in := func(sl int32) bool { return sl >= lo && sl < hi }
	b := newSetBuilder(append([]float32(nil), s.base[lo:hi]...))
	for i := range s.lines {
		ln := &s.lines[i]
		n, nch := int(ln.n), int(ln.nch)
		for c, sl := range s.slots[ln.slot0 : int(ln.slot0)+nch] {
			if !in(sl) {
				continue
			}
			sc := scalar{kind: model.CurveStreamed, pre: ln.pre, post: ln.post, wrap: ln.wrap,
				times: s.times[ln.timeOff : int(ln.timeOff)+n], coefs: make([][4]float32, n)}
			for k := range sc.coefs {
				sc.coefs[k] = s.coefs[int(ln.coefOff)+k*nch+c]
			}
			b.add(sl-lo, sc)
		}
	}
	for i := range s.solos {
		so := &s.solos[i]
		if !in(so.slot) {
			continue
		}
		recs := s.recs[so.rec : so.rec+so.n]
		sc := scalar{kind: model.CurveStreamed, times: make([]float32, len(recs)), coefs: make([][4]float32, len(recs))}
		for k, r := range recs {
			sc.times[k], sc.coefs[k] = r.T, r.C
		}
		b.add(so.slot-lo, sc)
	}
	for i := range s.dense {
		g := &s.dense[i]
		nch := int(g.nch)
		for c, sl := range s.dslots[g.slot0 : int(g.slot0)+nch] {
			if !in(sl) {
				continue
			}
			sc := scalar{kind: model.CurveDense, begin: g.begin, rate: g.rate, samples: make([]float32, g.n)}
			for f := range sc.samples {
				sc.samples[f] = s.dsamp[int(g.off)+f*nch+c]
			}
			b.add(sl-lo, sc)
		}
	}
	return b.build()
}

// eval writes every slot's value at curve time t into out (len >= slots).
func (s *curveSet) eval(t float32, out []float32) {
	copy(out, s.base)
	for i := range s.lines {
		ln := &s.lines[i]
		tt := t
		if ln.wrap {
			tt = ln.mapTime(t)
		}
		k, dt := s.find(ln, tt)
		nch := int(ln.nch)
		slots := s.slots[ln.slot0 : int(ln.slot0)+nch]
		off := int(ln.coefOff) + k*nch
		block := s.coefs[off : off+nch]
		block = block[:len(slots)]
		for j, sl := range slots {
			c := &block[j]
			out[sl] = ((c[0]*dt+c[1])*dt+c[2])*dt + c[3]
		}
	}
	if len(s.keymap) > 0 {
		s.evalGrid(t, out)
	} else {
		s.evalSolos(t, out)
	}
	for i := range s.dense {
		s.evalDenseGroup(&s.dense[i], t, out)
	}
}

// evalGrid evaluates the solos through the grid: one lookup, then per
// solo a read of its key from the grid row and the cubic, without
// branches.
func (s *curveSet) evalGrid(t float32, out []float32) {
	g := s.gridFind(t)
	ns := len(s.solos)
	row := s.keymap[g*ns : g*ns+ns]
	solos := s.solos[:len(row)]
	recs := s.recs
	for i, k := range row {
		so := &solos[i]
		r := &recs[int(so.rec)+int(k)]
		dt := t - r.T
		if dt < 0 {
			dt = 0
		}
		out[so.slot] = ((r.C[0]*dt+r.C[1])*dt+r.C[2])*dt + r.C[3]
	}
}

// gridFind returns the keymap row for t: the last grid time at or before
// t, or the row past the grid's times when t is before them all.
func (s *curveSet) gridFind(t float32) int {
	ln := &s.gridLine
	times := s.grid
	if !(t >= times[0]) {
		return int(ln.n)
	}
	if ln.idxOff < 0 {
		return lastAtOrBefore(times[:ln.n], t)
	}
	k := int(s.gridIdx[ln.slotOf(t)])
	k += step(times[k+1], t)
	k += step(times[k+1], t)
	for times[k+1] <= t {
		k++
	}
	return k
}

// lastAtOrBefore returns the index of the last of the ascending times at
// or before t, or 0 when none is (or t is NaN): the binary search for
// timelines too short to carry a slot index.
func lastAtOrBefore(times []float32, t float32) int {
	lo, hi := 0, len(times)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if times[m] <= t {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return max(lo-1, 0)
}

// evalSolos evaluates each solo with its own lookup.
func (s *curveSet) evalSolos(t float32, out []float32) {
	for i := range s.solos {
		so := &s.solos[i]
		n := int(so.n)
		recs := s.recs[so.rec : int(so.rec)+n+1]
		var k int
		if so.idxOff >= 0 {
			f := (t - so.first) * so.invSlot
			if !(f > 0) {
				f = 0
			}
			k = int(s.index[int(so.idxOff)+min(int(min(f, float32(n-1))), n-1)])
			k += step(recs[k+1].T, t)
			k += step(recs[k+1].T, t)
			for recs[k+1].T <= t {
				k++
			}
		} else {
			lo, hi := 0, n
			for lo < hi {
				m := int(uint(lo+hi) >> 1)
				if recs[m].T <= t {
					lo = m + 1
				} else {
					hi = m
				}
			}
			k = max(lo-1, 0)
		}
		r := &recs[k]
		dt := t - r.T
		if dt < 0 {
			dt = 0
		}
		out[so.slot] = ((r.C[0]*dt+r.C[1])*dt+r.C[2])*dt + r.C[3]
	}
}

// evalDenseGroup is model's dense rule (clamped, linear between samples,
// the same arithmetic) for every channel of a group.
func (s *curveSet) evalDenseGroup(g *denseGroup, t float32, out []float32) {
	nch, n := int(g.nch), int(g.n)
	slots := s.dslots[g.slot0 : int(g.slot0)+nch]
	rows := s.dsamp[g.off : int(g.off)+n*nch]
	f := (t - g.begin) * g.rate
	if !(f > 0) || f >= float32(n-1) {
		k := 0
		if f > 0 {
			k = n - 1
		}
		a := rows[k*nch : k*nch+nch]
		a = a[:len(slots)]
		for j, sl := range slots {
			out[sl] = a[j]
		}
		return
	}
	k := int(f)
	frac := f - float32(k)
	a := rows[k*nch : k*nch+nch]
	b := rows[k*nch+nch : k*nch+2*nch]
	a, b = a[:len(slots)], b[:len(slots)]
	for j, sl := range slots {
		out[sl] = a[j] + (b[j]-a[j])*frac
	}
}

// find returns the key of ln in force at t and the time since it (never
// negative: before the first key the first key's value holds).
func (s *curveSet) find(ln *timeline, t float32) (int, float32) {
	n := int(ln.n)
	times := s.times[ln.timeOff : int(ln.timeOff)+n+1] // with the sentinel
	var k int
	if ln.idxOff < 0 {
		k = lastAtOrBefore(times[:n], t)
	} else {
		k = int(s.index[int(ln.idxOff)+ln.slotOf(t)])
		// On average about one key starts in a slice: two steps the
		// compiler makes branch-free (conditional moves), then a loop
		// that rarely runs. The sentinel ends every walk.
		k += step(times[k+1], t)
		k += step(times[k+1], t)
		for times[k+1] <= t {
			k++
		}
	}
	dt := t - times[k]
	if dt < 0 {
		dt = 0
	}
	return k, dt
}

// step is 1 when a key at time kt has started by t, else 0, computed
// without a branch (a data-dependent branch here mispredicts about half
// the time).
func step(kt, t float32) int {
	var i int
	if kt <= t {
		i = 1
	}
	return i
}

// slotOf maps a time to its uniform slice of the timeline (0..n-1). It is
// monotone in t, which is what makes the index sound.
func (ln *timeline) slotOf(t float32) int {
	f := (t - ln.first) * ln.invSlot
	if f > 0 {
		if f < float32(ln.n) {
			return int(f)
		}
		return int(ln.n) - 1
	}
	return 0
}

// mapTime applies loop/ping-pong infinity as model.EvalKeys does.
func (ln *timeline) mapTime(t float32) float32 {
	first, last := ln.first, ln.last
	if !(t < first || t > last) {
		return t
	}
	mode := ln.post
	if t < first {
		mode = ln.pre
	}
	span := last - first
	if span <= 0 || (mode != model.InfinityLoop && mode != model.InfinityPingPong) {
		return t
	}
	off := float64(t - first)
	cycles := math.Floor(off / float64(span))
	local := float32(off - cycles*float64(span))
	if mode == model.InfinityPingPong && int64(cycles)%2 != 0 {
		local = span - local
	}
	return first + local
}

// scalar is one channel baked, before it is laid out in a set.
type scalar struct {
	kind  model.CurveKind // CurveConstant, CurveStreamed (cubic) or CurveDense
	value float32         // constant
	// cubic
	times     []float32
	coefs     [][4]float32
	pre, post model.Infinity
	wrap      bool
	// dense
	samples     []float32
	begin, rate float32
}

// bakeCurve converts a decoded curve to its baked form.
func bakeCurve(c *model.Curve) (scalar, error) {
	switch c.Kind {
	case model.CurveConstant:
		return scalar{kind: model.CurveConstant, value: c.Value}, nil
	case model.CurveStreamed:
		return bakeStreamed(c.Segments)
	case model.CurveDense:
		if len(c.Samples) == 0 {
			return scalar{kind: model.CurveConstant}, nil
		}
		s := scalar{kind: model.CurveDense, samples: c.Samples, begin: c.DenseBegin, rate: c.DenseRate}
		if allEqual(c.Samples) {
			return scalar{kind: model.CurveConstant, value: c.Samples[0]}, nil
		}
		return s, nil
	case model.CurveKeyframed:
		return bakeKeys(c.Keys, c.PreInfinity, c.PostInfinity)
	}
	return scalar{}, fmt.Errorf("unknown curve kind %d", c.Kind)
}

func allEqual(v []float32) bool {
	for _, x := range v[1:] {
		if x != v[0] {
			return false
		}
	}
	return true
}

// bakeStreamed keeps the segments, turning the initial frame (at
// -MaxFloat32) and segments with non-finite coefficients into steps holding
// their value. The initial frame's time becomes the next key's time (it is
// the value before that key, which find's clamp provides).
func bakeStreamed(segs []model.Segment) (scalar, error) {
	if len(segs) == 0 {
		return scalar{kind: model.CurveConstant}, nil
	}
	s := scalar{kind: model.CurveStreamed,
		times: make([]float32, len(segs)), coefs: make([][4]float32, len(segs))}
	for i := range segs {
		g := &segs[i]
		tm := g.Time
		c := g.C
		if tm == -math.MaxFloat32 || !geom.Finite(c[0]) || !geom.Finite(c[1]) || !geom.Finite(c[2]) || !geom.Finite(c[3]) {
			c = [4]float32{0, 0, 0, g.C[3]}
		}
		if tm == -math.MaxFloat32 {
			tm = 0
			if i+1 < len(segs) {
				tm = segs[i+1].Time
			}
		}
		if math.IsNaN(float64(tm)) || (i > 0 && tm < s.times[i-1]) {
			return scalar{}, fmt.Errorf("streamed key %d at time %g is out of order", i, g.Time)
		}
		s.times[i], s.coefs[i] = tm, c
	}
	return simplifyCubic(s), nil
}

// simplifyCubic returns a constant when every segment holds one value.
func simplifyCubic(s scalar) scalar {
	v := s.coefs[0][3]
	for _, c := range s.coefs {
		if c[0] != 0 || c[1] != 0 || c[2] != 0 || c[3] != v {
			return s
		}
	}
	return scalar{kind: model.CurveConstant, value: v}
}

// bakeKeys converts keyframes to cubic segments: Hermite segments exactly
// (as polynomials in the time since their key), weighted ones by
// subdivision, steps as steps, and the last key as a flat segment.
func bakeKeys(keys []model.Keyframe, pre, post model.Infinity) (scalar, error) {
	switch len(keys) {
	case 0:
		return scalar{kind: model.CurveConstant}, nil
	case 1:
		return scalar{kind: model.CurveConstant, value: keys[0].Value}, nil
	}
	s := scalar{kind: model.CurveStreamed, pre: pre, post: post}
	n := len(keys)
	for i := 0; i+1 < n; i++ {
		k0, k1 := &keys[i], &keys[i+1]
		if !(k1.Time >= k0.Time) { // also NaN
			return scalar{}, fmt.Errorf("key %d at time %g is out of order", i+1, k1.Time)
		}
		dt := k1.Time - k0.Time
		m0, m1 := k0.OutSlope, k1.InSlope
		switch {
		case dt <= 0:
			// Only ever used before the first key (a later key of the
			// same time wins at and after it), where the first key holds.
			s.add(k0.Time, [4]float32{0, 0, 0, k0.Value})
		case !geom.Finite(m0) || !geom.Finite(m1):
			s.add(k0.Time, [4]float32{0, 0, 0, k0.Value})
		case k0.WeightedMode&model.WeightedOut != 0 || k1.WeightedMode&model.WeightedIn != 0:
			bakeWeighted(&s, *k0, *k1)
		default:
			s.add(k0.Time, hermite(float64(k0.Value), float64(k1.Value), float64(m0), float64(m1), float64(dt)))
		}
	}
	s.add(keys[n-1].Time, [4]float32{0, 0, 0, keys[n-1].Value})
	if keys[n-1].Time > keys[0].Time {
		s.wrap = isWrap(pre) || isWrap(post)
	}
	return simplifyCubic(s), nil
}

func isWrap(m model.Infinity) bool { return m == model.InfinityLoop || m == model.InfinityPingPong }

func (s *scalar) add(t float32, c [4]float32) {
	s.times = append(s.times, t)
	s.coefs = append(s.coefs, c)
}

// hermite returns the power-basis coefficients, in the time x since the
// first key, of the cubic Hermite segment of values v0, v1 and per-second
// slopes m0, m1 over dt seconds.
func hermite(v0, v1, m0, m1, dt float64) [4]float32 {
	d := v1 - v0
	c0 := (dt*(m0+m1) - 2*d) / (dt * dt * dt)
	c1 := (3*d - dt*(2*m0+m1)) / (dt * dt)
	return [4]float32{float32(c0), float32(c1), float32(m0), float32(v0)}
}

// bakeWeighted appends cubic pieces fitting the weighted (Bezier) segment
// from k0 to k1: each piece is the Hermite cubic of the exact value and
// slope at its ends. A piece's error is measured where Sample would
// evaluate it (float32 times, the sampler's float32 arithmetic) against the
// exact curve (model.EvalKeys) at three interior points, and the worst piece
// is halved until every piece is within weightedTolerance, the halves could
// not be told apart in float32 time, or the segment has maxWeightedPieces
// pieces (bounding the work and memory a file's keys can ask for). Halving
// the worst piece first spreads the budget where the fit is poorest; halving
// depth-first would spend it all on one spot the fit cannot reach and leave
// the rest of the segment coarse.
func bakeWeighted(s *scalar, k0, k1 model.Keyframe) {
	pair := []model.Keyframe{k0, k1}
	exact := func(t float32) float32 {
		return model.EvalKeys(pair, model.InfinityClamp, model.InfinityClamp, t)
	}
	t0, dt := float64(k0.Time), float64(k1.Time-k0.Time)
	w0, w1 := 1.0/3, 1.0/3
	if k0.WeightedMode&model.WeightedOut != 0 {
		w0 = float64(k0.OutWeight)
	}
	if k1.WeightedMode&model.WeightedIn != 0 {
		w1 = float64(k1.InWeight)
	}
	bz := bezier{x1: w0, x2: 1 - w1,
		y0: float64(k0.Value), y1: float64(k0.Value) + w0*dt*float64(k0.OutSlope),
		y2: float64(k1.Value) - w1*dt*float64(k1.InSlope), y3: float64(k1.Value)}
	tol := bz.tolerance()
	limit := maxWeightedPieces
	if !geom.Finite64(tol) || !(w0 >= 0 && w0 <= 1 && w1 >= 0 && w1 <= 1) {
		limit = 1 // no meaningful fit to refine: one piece
	}
	// at is the value and slope at time t (a float32 time of the segment).
	at := func(t float32) (float64, float64) {
		switch t {
		case k0.Time:
			_, sl := bz.at(0, dt)
			return bz.y0, sl
		case k1.Time:
			_, sl := bz.at(1, dt)
			return bz.y3, sl
		}
		return bz.at((float64(t)-t0)/dt, dt)
	}
	type piece struct {
		ta, tb float32 // start and end time
		va, sa float64 // value and slope at ta
		vb, sb float64 // at tb
		c      [4]float32
		err    float64 // largest error found; -1 once it cannot be split
	}
	fit := func(p *piece) {
		p.c = hermite(p.va, p.vb, p.sa, p.sb, float64(p.tb-p.ta))
		p.err = 0
		for _, f := range [...]float32{0.25, 0.5, 0.75} {
			t := p.ta + f*(p.tb-p.ta)
			x := t - p.ta
			c := &p.c
			got := ((c[0]*x+c[1])*x+c[2])*x + c[3] // as Sample computes it
			e := math.Abs(float64(got) - float64(exact(t)))
			if !(e <= p.err) { // also NaN
				p.err = e
			}
		}
	}
	va, sa := at(k0.Time)
	vb, sb := at(k1.Time)
	pieces := []piece{{ta: k0.Time, tb: k1.Time, va: va, sa: sa, vb: vb, sb: sb}} // in time order
	fit(&pieces[0])
	for len(pieces) < limit {
		worst := -1
		for i := range pieces {
			if e := pieces[i].err; !(e <= tol) && (worst < 0 || !(e <= pieces[worst].err)) {
				worst = i
			}
		}
		if worst < 0 {
			break
		}
		p := pieces[worst]
		m := p.ta + (p.tb-p.ta)/2
		if !(m > p.ta && m < p.tb) {
			pieces[worst].err = -1 // no float32 time between its ends
			continue
		}
		vm, sm := at(m)
		a := piece{ta: p.ta, tb: m, va: p.va, sa: p.sa, vb: vm, sb: sm}
		b := piece{ta: m, tb: p.tb, va: vm, sa: sm, vb: p.vb, sb: p.sb}
		fit(&a)
		fit(&b)
		pieces = append(pieces, piece{})
		copy(pieces[worst+2:], pieces[worst+1:])
		pieces[worst], pieces[worst+1] = a, b
	}
	for i := range pieces {
		s.add(pieces[i].ta, pieces[i].c)
	}
}

// tolerance is how close the resampled pieces of a weighted segment must
// come to it: 1e-6 of the span of its control values (at least 1e-9), or,
// when that is finer than float32 can tell apart, four float32 steps (ulps)
// at its largest value (the exact curve's own result is a float32, and the
// sampler's float32 arithmetic rounds too; a finer target cannot be met and
// would only spend the piece budget).
func (b *bezier) tolerance() float64 {
	span := math.Max(math.Abs(b.y0-b.y3), math.Max(math.Abs(b.y1-b.y0), math.Abs(b.y2-b.y3)))
	mag := math.Max(math.Max(math.Abs(b.y0), math.Abs(b.y1)), math.Max(math.Abs(b.y2), math.Abs(b.y3)))
	ulp := float64(math.Nextafter32(float32(mag), float32(math.Inf(1))) - float32(mag))
	return math.Max(1e-6*math.Max(1e-3, span), 4*ulp)
}

// maxWeightedPieces is the most cubic pieces one weighted key segment is
// resampled into.
const maxWeightedPieces = 256

// bezier is a weighted key segment: control points (0,y0) (x1,y1) (x2,y2)
// (1,y3) in normalised time.
type bezier struct{ x1, x2, y0, y1, y2, y3 float64 }

// at returns the value and its derivative per second at normalised time x
// of a segment dt seconds long.
func (b *bezier) at(x, dt float64) (v, slope float64) {
	bx := func(u float64) float64 {
		iu := 1 - u
		return 3*iu*iu*u*b.x1 + 3*iu*u*u*b.x2 + u*u*u
	}
	lo, hi := 0.0, 1.0
	for i := 0; i < 80; i++ {
		m := (lo + hi) / 2
		if bx(m) < x {
			lo = m
		} else {
			hi = m
		}
	}
	u := (lo + hi) / 2
	iu := 1 - u
	v = iu*iu*iu*b.y0 + 3*iu*iu*u*b.y1 + 3*iu*u*u*b.y2 + u*u*u*b.y3
	dx := 3*iu*iu*b.x1 + 6*iu*u*(b.x2-b.x1) + 3*u*u*(1-b.x2)
	dy := 3*iu*iu*(b.y1-b.y0) + 6*iu*u*(b.y2-b.y1) + 3*u*u*(b.y3-b.y2)
	if math.Abs(dx) < 1e-9 {
		// A vertical handle: take the slope from a nearby chord instead.
		e := 1e-4
		ua, ub := math.Max(0, u-e), math.Min(1, u+e)
		ya := (1-ua)*(1-ua)*(1-ua)*b.y0 + 3*(1-ua)*(1-ua)*ua*b.y1 + 3*(1-ua)*ua*ua*b.y2 + ua*ua*ua*b.y3
		yb := (1-ub)*(1-ub)*(1-ub)*b.y0 + 3*(1-ub)*(1-ub)*ub*b.y1 + 3*(1-ub)*ub*ub*b.y2 + ub*ub*ub*b.y3
		xd := bx(ub) - bx(ua)
		if xd <= 0 {
			return v, 0
		}
		return v, (yb - ya) / xd / dt
	}
	return v, dy / dx / dt
}

// setBuilder lays out channels into a curveSet.
type setBuilder struct {
	base  []float32
	lines map[string]int
	pend  []pendingLine
	dense map[denseKey]int
	dpend []pendingDense
}

type denseKey struct {
	begin, rate uint32
	n           int
}

type pendingDense struct {
	begin, rate float32
	n           int
	slots       []int32
	samples     [][]float32
}

type pendingLine struct {
	s     scalar // times and infinity of the line (coefs unused)
	slots []int32
	coefs [][][4]float32
}

func newSetBuilder(base []float32) *setBuilder {
	return &setBuilder{base: base, lines: map[string]int{}, dense: map[denseKey]int{}}
}

// add lays out an animated (non-constant) channel writing slot.
func (b *setBuilder) add(slot int32, s scalar) {
	switch s.kind {
	case model.CurveConstant:
		b.base[slot] = s.value
	case model.CurveDense:
		k := denseKey{math.Float32bits(s.begin), math.Float32bits(s.rate), len(s.samples)}
		i, ok := b.dense[k]
		if !ok {
			i = len(b.dpend)
			b.dense[k] = i
			b.dpend = append(b.dpend, pendingDense{begin: s.begin, rate: s.rate, n: len(s.samples)})
		}
		p := &b.dpend[i]
		p.slots = append(p.slots, slot)
		p.samples = append(p.samples, s.samples)
	default:
		key := lineKey(&s)
		i, ok := b.lines[key]
		if !ok {
			i = len(b.pend)
			b.lines[key] = i
			b.pend = append(b.pend, pendingLine{s: s})
		}
		p := &b.pend[i]
		p.slots = append(p.slots, slot)
		p.coefs = append(p.coefs, s.coefs)
	}
}

func lineKey(s *scalar) string {
	buf := make([]byte, 0, 4*len(s.times)+9)
	buf = binary.LittleEndian.AppendUint32(buf, uint32(s.pre))
	buf = binary.LittleEndian.AppendUint32(buf, uint32(s.post))
	if s.wrap {
		buf = append(buf, 1)
	} else {
		buf = append(buf, 0)
	}
	for _, t := range s.times {
		buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(t))
	}
	return string(buf)
}

// build lays everything out, with key indexes for long timelines.
func (b *setBuilder) build() curveSet {
	s := curveSet{base: b.base}
	for _, p := range b.dpend {
		s.dense = append(s.dense, denseGroup{begin: p.begin, rate: p.rate, n: int32(p.n),
			slot0: int32(len(s.dslots)), nch: int32(len(p.slots)), off: int32(len(s.dsamp))})
		s.dslots = append(s.dslots, p.slots...)
		for f := 0; f < p.n; f++ {
			for _, smp := range p.samples {
				s.dsamp = append(s.dsamp, smp[f])
			}
		}
	}
	for _, p := range b.pend {
		n := len(p.s.times)
		if len(p.slots) == 1 && !p.s.wrap {
			so := solo{slot: p.slots[0], n: int32(n), idxOff: -1, rec: int32(len(s.recs)), first: p.s.times[0]}
			for k, tm := range p.s.times {
				s.recs = append(s.recs, soloKey{T: tm, C: p.coefs[0][k]})
			}
			s.recs = append(s.recs, soloKey{T: sentinel()})
			s.solos = append(s.solos, so)
			continue
		}
		ln := timeline{
			timeOff: int32(len(s.times)), n: int32(n), idxOff: -1,
			slot0: int32(len(s.slots)), nch: int32(len(p.slots)),
			coefOff: int32(len(s.coefs)),
			first:   p.s.times[0], last: p.s.times[n-1],
			wrap: p.s.wrap, pre: p.s.pre, post: p.s.post,
		}
		s.times = append(s.times, p.s.times...)
		s.times = append(s.times, sentinel())
		s.slots = append(s.slots, p.slots...)
		for k := 0; k < n; k++ {
			for j := range p.slots {
				s.coefs = append(s.coefs, p.coefs[j][k])
			}
		}
		if idx, inv, ok := buildIndex(p.s.times, len(s.index), &s.index); ok {
			ln.idxOff, ln.invSlot = int32(idx), inv
		}
		s.lines = append(s.lines, ln)
	}
	s.buildGrid()
	if len(s.keymap) == 0 { // each solo finds its own keys: give it an index
		for i := range s.solos {
			so := &s.solos[i]
			times := make([]float32, so.n)
			for k, r := range s.recs[so.rec : so.rec+so.n] {
				times[k] = r.T
			}
			if idx, inv, ok := buildIndex(times, len(s.index), &s.index); ok {
				so.idxOff, so.invSlot = int32(idx), inv
			}
		}
	}
	s.trim()
	return s
}

// gridBudget bounds the grid's key map: at most this many entries per key
// of the solos (2 bytes each against a key's 20), so a clip whose curves
// keep their own, unaligned key times falls back to per-solo lookups.
const gridBudget = 4

// buildGrid makes the solos' grid when it is small enough.
func (s *curveSet) buildGrid() {
	ns := len(s.solos)
	if ns < 2 {
		return
	}
	var all []float32
	for _, so := range s.solos {
		if so.n > math.MaxUint16 {
			return
		}
		for _, r := range s.recs[so.rec : so.rec+so.n] {
			all = append(all, r.T)
		}
	}
	slices.Sort(all) // key times are never NaN
	grid := all[:0]
	for i, x := range all {
		if i == 0 || x != grid[len(grid)-1] {
			grid = append(grid, x)
		}
	}
	if len(grid)*ns > gridBudget*len(all) {
		return
	}
	s.layGrid(grid)
}

// layGrid lays out the solos' grid of the sorted, distinct union of their
// key times: the key map and the grid's lookup.
func (s *curveSet) layGrid(grid []float32) {
	ns := len(s.solos)
	// One row per grid time, then a row of first keys for times before
	// the grid (where a solo holds its first key's value, even when that
	// key shares its time with the next one).
	keymap := make([]uint16, (len(grid)+1)*ns)
	for c, so := range s.solos {
		recs := s.recs[so.rec : so.rec+so.n]
		j := 0
		for g, x := range grid {
			for j+1 < len(recs) && recs[j+1].T <= x {
				j++
			}
			keymap[g*ns+c] = uint16(j)
		}
	}
	s.grid = append(append([]float32(nil), grid...), sentinel())
	s.keymap = keymap
	s.gridLine = timeline{n: int32(len(grid)), idxOff: -1, first: grid[0], last: grid[len(grid)-1]}
	if _, inv, ok := buildIndex(grid, 0, &s.gridIdx); ok {
		s.gridLine.idxOff, s.gridLine.invSlot = 0, inv
	}
}

// buildIndex appends the key index of a timeline of at least indexMinKeys
// keys to *index (at offset off) and returns its offset and slices per
// second; ok is false when the timeline binary-searches instead.
//
// The timeline's span is cut into n uniform slices (n keys); entry s names
// the last key whose own slice is before s. Since slotOf is monotone, every
// time in slice s is at or after that key, so walking forward from it finds
// the key in force, and with keys spread evenly the walk is about one step.
func buildIndex(times []float32, off int, index *[]int32) (int, float32, bool) {
	n := len(times)
	inv, ok := indexSlices(times)
	if !ok {
		return 0, 0, false
	}
	ln := timeline{first: times[0], invSlot: inv, n: int32(n)}
	j := 0
	for sl := 0; sl < n; sl++ {
		for j+1 < n && ln.slotOf(times[j+1]) < sl {
			j++
		}
		*index = append(*index, int32(j))
	}
	return off, inv, true
}

// indexSlices is buildIndex's choice: whether a timeline gets a key index,
// and its slices per second.
func indexSlices(times []float32) (float32, bool) {
	n := len(times)
	if n < indexMinKeys {
		return 0, false
	}
	inv := float32(n) / (times[n-1] - times[0])
	return inv, inv > 0 && geom.Finite(inv)
}
