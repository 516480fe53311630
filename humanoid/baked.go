package humanoid

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"unsafe"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
)

// Bones is a humanoid clip baked, for one rig, into the local transforms
// its muscles and root give the rig's bones, in a compact form: the form
// for playing one clip on many characters, whose tick is key lookup and
// interpolation with no muscle maths, centre of mass or body frame. The
// exact Clip stays the reference, and the one an Animator blends (it
// blends muscles, not bones). Bones keep nothing of the clip but the
// bones, the body's root motion (RootT and RootQ) and the clip's name and
// length, and save with MarshalBinary (UnmarshalBones reads them back for
// the same rig).
//
// The form (ozz-animation's, in spirit): each property (translation,
// rotation, scale) of each joint the clip drives (the human bones, and the
// joints its own Transform curves drive) is a constant where it stays
// within the tolerances, else keys linearly interpolated (rotations
// normalised after the blend), keyframe-reduced and quantized: rotations in
// three 15-bit components (the largest left out), translations and scales
// in 16 bits over their range (float32 where that range is too wide for
// the tolerance). Key times come from one table the keys index in 16 bits,
// so a clip may have at most 65,536 distinct key times (18 minutes at
// 60 Hz; more is ErrTooManyKeys).
//
// The error bound: every property is checked against the exact path
// (Clip.Sample) at the clip's own key times and frames and at the middle
// of every interval between them (intervals halved, up to six times,
// where the straight line between their ends misses the middle), on the
// quantized values. There a bone's local rotation is within
// BonesMaxErrorDeg and within the angle that moves a point at its reach
// (the farthest joint below it, plus a tenth of the human scale, as
// ozz-animation's default "distance") by BonesTolerance times the human
// scale; its scale likewise; its translation within BonesMaxErrorT times
// the human scale. A joint's model-space position is then off by at most
// the sum of these distances over it and its driven ancestors (to first
// order: each error moves everything below by at most its distance at the
// reach), which BonesStats.ModelBound states for the rig. Between the check
// points nothing is checked at bake time; the tests hold the local errors
// there to a quarter over the bounds. Where the exact path itself jumps inside an interval (a
// twist wrapping round, a clip's own jump) the halving stops at 1/64 of
// it: BonesStats counts these intervals (a sharp turn the line misses by
// less than the tolerances there is not one).
//
// Sampling finds each track's key in constant time (an index of its key
// at every 32nd key time, then a few steps forward), keeps no state and
// does not allocate. Bones is immutable and safe for concurrent use.
type Bones struct {
	name     string
	length   float32 // clip time sampling clamps to
	duration float32
	rig      *Rig
	animated []anim.Props // per joint (Animates)
	consts   []boneConst
	tracks   []boneTrack
	root     [2]boneTrack // the body's RootT and RootQ (joint -1)
	data     trackData
	stats    BonesStats
	jumps    [][2]float32 // the unresolved intervals (clip times)
	tol      bonesTol     // the tolerances it was fitted to
	nrot     int          // tracks[:nrot] are the rotations, the others after
}

const (
	// BonesMaxErrorDeg bounds a bone's local rotation error, in degrees,
	// whatever its reach.
	BonesMaxErrorDeg = 0.1
	// BonesTolerance bounds the distance a bone's rotation or scale
	// error moves a point at its reach (see Bones), as a fraction of the
	// human scale: a thousandth, ozz-animation's default tolerance (1 mm
	// at the joints below, or 10 cm away) on a human of scale 1.
	BonesTolerance = 1e-3
	// BonesMaxErrorT bounds a bone's local translation error, as a
	// fraction of the avatar's human scale (ozz-animation's 1 mm).
	BonesMaxErrorT = 1e-3
)

// BonesStats describes a baked Bones, for reports and tests.
type BonesStats struct {
	Keys     int // key times the tracks share
	Channels int // animated (not constant) properties of joints
	KeyCount int // keys of all tracks
	// Unresolved counts the intervals where the exact path jumps (the
	// fit stayed off the tolerances after the last halving);
	// UnresolvedTime is their total length in seconds.
	Unresolved     int
	UnresolvedTime float32
	// MaxErrorDeg and MaxErrorT are the largest errors found at the check
	// points outside the unresolved intervals (translation as a fraction
	// of the human scale).
	MaxErrorDeg, MaxErrorT float64
	// ModelBound bounds a joint's model-space position error, as a
	// fraction of the human scale (see Bones), from the rig's reaches
	// and the tolerances.
	ModelBound float64
	// Bytes is what the Bones keep (the rig, shared, aside).
	Bytes int
}

// Limits on the fit: halvings of an interval, the key times from the clip
// (262,144: 73 minutes at 60 Hz),
// the key times Bones index, and the values the fit holds at once (a
// property's per sampled time; 128 MB, for the halvings of one interval
// of a clip driving very many joints): a clip asking for more is refused
// rather than allocated without bound.
const (
	bonesMaxDepth  = 6
	bonesMaxKeys   = 1 << 18
	bonesMaxSrc    = 1 << 23 // the keys of all the clip's curves, before merging
	bonesMaxTimes  = 1 << 16
	bonesMaxValues = 1 << 25
)

// ErrTooManyKeys is wrapped when baking a clip's bones would take more key
// times than Bones may hold (bones too many for its length).
var ErrTooManyKeys = errors.New("humanoid: too many key times")

// BakeBones bakes a humanoid clip (see Bake) for the rig into Bones.
func BakeBones(mc *model.Clip, r *Rig) (*Bones, error) {
	return bakeBones(mc, r, bonesTol{BonesMaxErrorDeg, BonesTolerance, BonesMaxErrorT})
}

// bonesTol are the fit's tolerances (BonesMaxErrorDeg, BonesTolerance,
// BonesMaxErrorT).
type bonesTol struct{ deg, reach, t float64 }

// bakeBones is BakeBones with the fit's tolerances.
func bakeBones(mc *model.Clip, r *Rig, tol bonesTol) (*Bones, error) {
	c, err := Bake(mc, r)
	if err != nil {
		return nil, err
	}
	wrap := func(err error) error {
		return fmt.Errorf("humanoid: bones of clip %q on avatar %q: %w", mc.Name, r.name, err)
	}
	keys, err := boneKeyTimes(mc)
	if err != nil {
		return nil, wrap(err)
	}
	f := newBoneFitter(c, tol)
	start := keys[0]
	if err := f.sampleAll(keys, start); err != nil {
		return nil, wrap(err)
	}
	// Clip time clamps as the exact clip's (anim.Clip) does.
	length := float32(0)
	if l := mc.Stop - mc.Start; l > 0 && geom.Finite(l) {
		length = l
	}
	b := &Bones{name: c.Name(), length: length, duration: c.Duration(), rig: r,
		animated: make([]anim.Props, r.Len()), tol: tol}
	for j := range b.animated {
		b.animated[j] = c.Animates(j)
	}
	if err := f.finishTracks(b); err != nil {
		return nil, wrap(err)
	}
	b.jumps = f.jumps
	b.stats.Unresolved, b.stats.UnresolvedTime = len(f.jumps), f.jumpTime
	b.stats.MaxErrorDeg, b.stats.MaxErrorT = f.maxDeg, f.maxT
	b.finish()
	return b, nil
}

// finish derives what Bones compute from their saved form: the lookups,
// the stated model-space bound and the counts.
func (b *Bones) finish() {
	d := &b.data
	// Exact sizes: Bones live long.
	b.consts = slices.Clip(b.consts)
	b.tracks = slices.Clip(b.tracks)
	b.jumps = slices.Clip(b.jumps)
	d.times, d.ktime, d.vals = slices.Clip(d.times), slices.Clip(d.ktime), slices.Clip(d.vals)
	slices.SortStableFunc(b.tracks, func(x, y boneTrack) int { return min(int(x.prop^propR), 1) - min(int(y.prop^propR), 1) })
	b.nrot = 0
	for b.nrot < len(b.tracks) && b.tracks[b.nrot].prop == propR {
		b.nrot++
	}
	d.index(b.tracks, b.root[:])
	b.stats.ModelBound = modelBound(b.rig, b.tol, b.animated)
	b.stats.Keys = len(b.data.times)
	b.stats.Channels = len(b.tracks)
	b.stats.KeyCount = 0
	for i := range b.tracks {
		b.stats.KeyCount += int(b.tracks[i].n)
	}
	b.stats.Bytes = int(unsafe.Sizeof(*b)) + len(b.name) + len(b.animated) + cap(b.consts)*int(unsafe.Sizeof(boneConst{})) +
		cap(b.tracks)*int(unsafe.Sizeof(boneTrack{})) + 8*cap(b.jumps) +
		4*cap(d.times) + 2*(cap(d.ktime)+cap(d.vals)+cap(d.blocks)+cap(d.look))
}

// boneKeyTimes returns the curve times the fit starts from: the keys and
// frames of the clip's humanoid channels within [Start, Stop], Start and
// Stop, and a grid at the clip's sample rate where those are further apart.
func boneKeyTimes(mc *model.Clip) ([]float32, error) {
	start, stop := mc.Start, mc.Stop
	if !geom.Finite(start) {
		start = 0
	}
	if !(stop > start) || !geom.Finite(stop) {
		return []float32{start}, nil
	}
	rate := mc.SampleRate
	if !(rate > 0) || !geom.Finite(rate) {
		rate = 60
	}
	if n := float64(stop-start) * float64(rate); n > bonesMaxKeys {
		return nil, fmt.Errorf("%w: %.0f frames", ErrTooManyKeys, n)
	}
	var src []float32
	add := func(t float32) {
		if t >= start && t <= stop {
			src = append(src, t)
		}
	}
	for i := range mc.Curves {
		cv := &mc.Curves[i]
		tg := &cv.Target
		if tg.ClassID != model.ClassAnimator || tg.Path != "" ||
			tg.Attribute < model.FirstRootAttribute || tg.Attribute >= model.EndHumanAttribute {
			continue
		}
		switch cv.Kind {
		case model.CurveStreamed:
			for _, s := range cv.Segments {
				add(s.Time)
			}
		case model.CurveDense:
			if cv.DenseRate > 0 {
				for k := range cv.Samples {
					add(cv.DenseBegin + float32(k)/cv.DenseRate)
				}
			}
		case model.CurveKeyframed:
			for _, k := range cv.Keys {
				add(k.Time)
			}
		}
		if len(src) > bonesMaxSrc {
			return nil, fmt.Errorf("%w: more than %d keys", ErrTooManyKeys, bonesMaxSrc)
		}
	}
	src = append(src, start, stop)
	sort.Slice(src, func(i, j int) bool { return src[i] < src[j] })
	// Keys within a thousandth of a frame of the one before are one key
	// (a dense frame and a streamed key at the same frame differ by float
	// rounding), and so are grid frames near a key.
	near := float32(1e-3) / rate
	keys := make([]float32, 0, len(src)+int(float64(stop-start)*float64(rate))+2)
	j := 0
	put := func(t float32) {
		if len(keys) == 0 || t > keys[len(keys)-1]+near {
			keys = append(keys, t)
		}
	}
	for k := 0; ; k++ {
		g := start + float32(k)/rate
		if g >= stop {
			break
		}
		for j < len(src) && src[j] <= g+near {
			put(src[j])
			j++
		}
		put(g)
	}
	for ; j < len(src); j++ {
		put(src[j])
	}
	// Stop ends the last interval, however close it is to the key before.
	if keys[len(keys)-1] != stop {
		if stop-keys[len(keys)-1] <= near && len(keys) > 1 {
			keys[len(keys)-1] = stop
		} else {
			keys = append(keys, stop)
		}
	}
	if len(keys) > bonesMaxKeys {
		return nil, fmt.Errorf("%w: %d key times (at most %d)", ErrTooManyKeys, len(keys), bonesMaxKeys)
	}
	return keys, nil
}

// bchan is one property the fit follows: of joint (-1: the body's root
// motion), prop propT, propR or propS.
type bchan struct {
	joint int
	prop  uint8
	tol   float64 // T: a distance; R: an angle in radians; S: a scale difference
}

// Row tags: what a sampled time is to the reduction.
const (
	rowKey   = iota // a possible key time (and a check point)
	rowCheck        // a check point between two possible key times
	rowSkip         // a check point inside an unresolved interval
)

// boneFitter samples the exact path and reduces it to tracks.
type boneFitter struct {
	c     *Clip
	scale float64
	chans []bchan
	pose  []geom.Transform
	p     Pose
	// rows: per sampled clip time (ascending), 4 values per channel
	times   []float32
	tags    []uint8
	vals    []float32
	scratch [bonesMaxDepth + 2][]float32
	fits    []chanFit    // per channel, what the reduction made of it
	q, v    [][4]float32 // the reduction's buffers
	// the unresolved intervals, and the largest errors the reduction kept
	jumps        [][2]float32
	jumpTime     float32
	maxDeg, maxT float64
}

// rigReach returns, per joint of the rig's skeleton, the farthest distance
// from it to a joint below it (0 for a leaf) in the rest pose.
func rigReach(r *Rig) []float64 {
	sk := r.skel
	n := sk.Len()
	rest := make([]geom.Transform, n)
	for j := range rest {
		rest[j] = geom.Identity
	}
	copy(rest, sk.Rest)
	g := make([]geom.Transform, n)
	anim.LocalToModel(sk, rest, g)
	reach := make([]float64, n)
	for j := n - 1; j > 0; j-- {
		if p := sk.Parents[j]; p >= 0 && p < j {
			d := reach[j] + float64(g[j].T.Sub(g[p].T).Len())
			if d > reach[p] && !math.IsInf(d, 0) {
				reach[p] = d
			}
		}
	}
	return reach
}

// rigScale is the rig's human scale, 1 where it is not a positive finite
// number.
func rigScale(r *Rig) float64 {
	s := math.Abs(float64(r.scale))
	if !(s > 0) || math.IsInf(s, 0) {
		return 1
	}
	return s
}

// chanTol returns the tolerance of property prop of a joint of the given
// reach (see Bones).
func (tol bonesTol) chanTol(prop uint8, reach, scale float64) float64 {
	l := reach + 0.1*scale
	switch prop {
	case propT:
		return tol.t * scale
	case propS:
		return tol.reach * scale / l
	}
	a := tol.deg * math.Pi / 180
	if c := tol.reach * scale / l; c < 2 {
		a = math.Min(a, 2*math.Asin(c/2))
	}
	return a
}

// modelBound is the bound on a joint's model-space position error (see
// Bones), as a fraction of the human scale.
func modelBound(r *Rig, tol bonesTol, animated []anim.Props) float64 {
	sk := r.skel
	reach := rigReach(r)
	scale := rigScale(r)
	// own[j]: what joint j's errors move the joints below it; sum[j]: a
	// joint's bound from its ancestors' and its translation's.
	own := make([]float64, sk.Len())
	sum := make([]float64, sk.Len())
	worst := 0.0
	for j := range own {
		p := sk.Parents[j]
		if p >= 0 && p < j {
			sum[j] = sum[p] + own[p]
		}
		if j >= len(animated) {
			continue
		}
		a := animated[j]
		if a&anim.PropT != 0 {
			sum[j] += tol.chanTol(propT, reach[j], scale)
		}
		if a&anim.PropR != 0 {
			own[j] += 2 * math.Sin(tol.chanTol(propR, reach[j], scale)/2) * reach[j]
		}
		if a&anim.PropS != 0 {
			own[j] += tol.chanTol(propS, reach[j], scale) * reach[j]
		}
		worst = math.Max(worst, sum[j])
	}
	return worst / scale
}

func newBoneFitter(c *Clip, tol bonesTol) *boneFitter {
	r := c.rig
	f := &boneFitter{c: c, scale: rigScale(r), pose: make([]geom.Transform, r.Len())}
	reach := rigReach(r)
	for j := 0; j < r.Len(); j++ {
		a := c.Animates(j)
		for prop := uint8(0); prop < propCount; prop++ {
			if a&(anim.PropT<<prop) != 0 {
				f.chans = append(f.chans, bchan{joint: j, prop: prop, tol: tol.chanTol(prop, reach[j], f.scale)})
			}
		}
	}
	// The root motion: its rotation turns the whole body.
	body := 0.0
	for _, x := range reach {
		body = math.Max(body, x)
	}
	f.chans = append(f.chans, bchan{joint: -1, prop: propT, tol: tol.chanTol(propT, body, f.scale)},
		bchan{joint: -1, prop: propR, tol: tol.chanTol(propR, body, f.scale)})
	for i := range f.scratch {
		f.scratch[i] = make([]float32, 4*len(f.chans))
	}
	f.fits = make([]chanFit, len(f.chans))
	return f
}

// sample evaluates the exact path at clip time t into v (4 values a
// channel), rotations on the hemisphere of ref's (nil: any).
func (f *boneFitter) sample(t float32, v, ref []float32) {
	c := f.c
	c.samplePose(t, &f.p)
	c.base.Sample(t, f.pose)
	c.rig.ApplyHuman(&f.p, f.pose)
	for i, ch := range f.chans {
		w := v[4*i : 4*i+4]
		var tr geom.Transform
		if ch.joint >= 0 {
			tr = f.pose[ch.joint]
		} else {
			tr = geom.Transform{T: f.p.RootT, R: f.p.RootQ}
		}
		switch ch.prop {
		case propT:
			w[0], w[1], w[2], w[3] = tr.T.X, tr.T.Y, tr.T.Z, 0
		case propS:
			w[0], w[1], w[2], w[3] = tr.S.X, tr.S.Y, tr.S.Z, 0
		default:
			q := tr.R
			if ref != nil && q.X*ref[4*i]+q.Y*ref[4*i+1]+q.Z*ref[4*i+2]+q.W*ref[4*i+3] < 0 {
				q = q.Neg()
			}
			w[0], w[1], w[2], w[3] = q.X, q.Y, q.Z, q.W
		}
	}
}

// row returns the values sampled at row k.
func (f *boneFitter) row(k int) []float32 {
	w := 4 * len(f.chans)
	return f.vals[k*w : k*w+w]
}

func (f *boneFitter) push(t float32, v []float32, tag uint8) error {
	if len(f.vals)+len(v) > bonesMaxValues {
		return fmt.Errorf("%w: %d sampled times for %d properties in one interval", ErrTooManyKeys, len(f.times), len(f.chans))
	}
	f.times = append(f.times, t)
	f.tags = append(f.tags, tag)
	f.vals = append(f.vals, v...)
	return nil
}

// sampleAll samples the exact path at the key times (curve times; start
// is clip time 0) and between them, halving an interval whose middle the
// straight line between its ends misses.
func (f *boneFitter) sampleAll(keys []float32, start float32) error {
	v := make([]float32, 4*len(f.chans))
	left := make([]float32, 4*len(f.chans))
	f.sample(keys[0]-start, v, nil)
	if err := f.push(keys[0]-start, v, rowKey); err != nil {
		return err
	}
	for k := 1; k < len(keys); k++ {
		a, b := keys[k-1]-start, keys[k]-start
		ia := len(f.times) - 1
		f.sample(b, v, f.row(ia))
		// Where the path jumps at b, the interval ends on the value just
		// before b (its left limit), a key time of its own.
		if end := math.Nextafter32(b, a); end > a {
			f.sample(end, left, f.row(ia))
			if f.jumpsAt(left, v) {
				if err := f.refine(a, ia, end, left, 0); err != nil {
					return err
				}
				if err := f.push(end, left, rowKey); err != nil {
					return err
				}
				f.align(v, left)
				if err := f.push(b, v, rowKey); err != nil {
					return err
				}
				if len(f.vals) >= bonesWindow {
					f.reduceWindow()
				}
				continue
			}
		}
		if err := f.refine(a, ia, b, v, 0); err != nil {
			return err
		}
		if err := f.push(b, v, rowKey); err != nil {
			return err
		}
		if len(f.vals) >= bonesWindow {
			f.reduceWindow()
		}
	}
	f.reduceWindow()
	return nil
}

// jumpsAt reports whether the values v0 and v1 differ by more than half a
// tolerance on some channel.
func (f *boneFitter) jumpsAt(v0, v1 []float32) bool {
	for i, ch := range f.chans {
		if chanErr(ch.prop, v0[4*i:4*i+4], v0[4*i:4*i+4], v1[4*i:4*i+4], 0) > ch.tol/2 {
			return true
		}
	}
	return false
}

// align puts v's rotations on the hemisphere of ref's.
func (f *boneFitter) align(v, ref []float32) {
	for i, ch := range f.chans {
		if ch.prop != propR {
			continue
		}
		w, r := v[4*i:4*i+4], ref[4*i:4*i+4]
		if w[0]*r[0]+w[1]*r[1]+w[2]*r[2]+w[3]*r[3] < 0 {
			w[0], w[1], w[2], w[3] = -w[0], -w[1], -w[2], -w[3]
		}
	}
}

// refine samples the middle of (a, b), a's values at row ia and b's vb,
// and adds it as a check point or, when the line between a and b misses
// it by more than half the tolerances, as a key time between the halves.
func (f *boneFitter) refine(a float32, ia int, b float32, vb []float32, depth int) error {
	m := a + (b-a)/2
	if !(m > a && m < b) {
		return nil
	}
	vm := f.scratch[depth]
	f.sample(m, vm, f.row(ia))
	va := f.row(ia)
	worst := 0.0 // the miss, in tolerances
	for i, ch := range f.chans {
		worst = math.Max(worst, chanErr(ch.prop, va[4*i:4*i+4], vb[4*i:4*i+4], vm[4*i:4*i+4], 0.5)/ch.tol)
	}
	if worst <= 0.5 {
		return f.push(m, vm, rowCheck)
	}
	if depth >= bonesMaxDepth {
		// The path turns sharply inside (a kink): a check point while the
		// line misses it by less than the tolerance, else a jump.
		if worst <= 1 {
			return f.push(m, vm, rowCheck)
		}
		f.jumps = append(f.jumps, [2]float32{a, b})
		f.jumpTime += b - a
		return f.push(m, vm, rowSkip)
	}
	if err := f.refine(a, ia, m, vm, depth+1); err != nil {
		return err
	}
	if err := f.push(m, vm, rowKey); err != nil {
		return err
	}
	return f.refine(m, len(f.times)-1, b, vb, depth+1)
}

// chanErr is how far the interpolation at s between v0 and v1 (as
// sampling does it) is from the value v: a distance for T and S, an angle
// in radians for R.
func chanErr(prop uint8, v0, v1, v []float32, s float32) float64 {
	if prop != propR {
		var d2 float64
		for k := 0; k < 3; k++ {
			x := float64(v0[k] + (v1[k]-v0[k])*s - v[k])
			d2 += x * x
		}
		return math.Sqrt(d2)
	}
	q := nlerp(geom.Quat{X: v0[0], Y: v0[1], Z: v0[2], W: v0[3]}, geom.Quat{X: v1[0], Y: v1[1], Z: v1[2], W: v1[3]}, s)
	return quatAngle([4]float32{q.X, q.Y, q.Z, q.W}, [4]float32(v))
}

// quatAngle is the angle in radians between the rotations of the
// (unnormalised) quaternions a and b.
func quatAngle(a, b [4]float32) float64 {
	var na, nb, dot float64
	for k := 0; k < 4; k++ {
		na += float64(a[k]) * float64(a[k])
		nb += float64(b[k]) * float64(b[k])
		dot += float64(a[k]) * float64(b[k])
	}
	if na == 0 || nb == 0 {
		return math.Pi
	}
	na, nb = math.Sqrt(na), math.Sqrt(nb)
	s := 1.0
	if dot < 0 {
		s = -1
	}
	var d2, s2 float64
	for k := 0; k < 4; k++ {
		x, y := float64(a[k])/na, s*float64(b[k])/nb
		d2 += (x - y) * (x - y)
		s2 += (x + y) * (x + y)
	}
	// |a-b| and |a+b| are 2 sin and 2 cos of half the angle between a and
	// b on the 4D sphere, which is half the rotation's angle.
	return 4 * math.Atan2(math.Sqrt(d2), math.Sqrt(s2))
}

// bonesMaxSpan is how many possible key times one key may span: it bounds
// the reduction's work (its checks grow with the square of the span).
const bonesMaxSpan = 256

// bonesWindow is how many sampled values the fit holds before it reduces
// them (16 MB): a long clip is reduced window by window, every property
// keyed where one window ends and the next begins.
const bonesWindow = 1 << 22

// chanFit is what the reduction has made of one channel so far.
type chanFit struct {
	keyT  []float32    // key times (clip time)
	keyV  [][4]float32 // key values: rotations as quantized, T and S exact
	words []uint16     // rotation keys' encRot words
	first [4]float32   // the channel's first value
	moves bool         // some value is off the first by more than the tolerance
}

// reduceWindow reduces the sampled rows to keys, channel by channel (the
// first row a key of every channel, as the last row becomes), and keeps
// the last row as the next window's first.
func (f *boneFitter) reduceWindow() {
	nrow := len(f.times)
	var keyRows []int // possible key times' rows
	for k, tg := range f.tags {
		if tg == rowKey {
			keyRows = append(keyRows, k)
		}
	}
	if cap(f.q) < nrow {
		f.q = make([][4]float32, nrow)
		f.v = make([][4]float32, nrow)
	}
	q, v := f.q[:nrow], f.v[:nrow]
	width := 4 * len(f.chans)
	for ci, ch := range f.chans {
		cf := &f.fits[ci]
		for k := 0; k < nrow; k++ {
			copy(v[k][:], f.vals[k*width+4*ci:])
		}
		tol := ch.tol
		if ch.prop != propR {
			tol *= bonesQuantMargin
		}
		first := len(cf.keyT) == 0
		if first {
			cf.first = v[0]
		}
		for k := 0; k < nrow && !cf.moves; k++ {
			if f.tags[k] != rowSkip && chanErr(ch.prop, cf.first[:], cf.first[:], v[k][:], 0) > ch.tol {
				cf.moves = true
			}
		}
		// The values keys may take: rotations quantized, the others
		// exact (quantized when their range is known, within the margin).
		for _, k := range keyRows {
			if ch.prop == propR {
				w := encodeRot(geom.Quat{X: v[k][0], Y: v[k][1], Z: v[k][2], W: v[k][3]})
				r := decodeRot(w[0], w[1], w[2])
				q[k] = [4]float32{r.X, r.Y, r.Z, r.W}
			} else {
				q[k] = v[k]
			}
		}
		if first {
			f.addKey(cf, ch, f.times[0], q[0], v[0])
		} else {
			q[0] = cf.keyV[len(cf.keyV)-1] // the previous window's last key
		}
		// From each key, the farthest possible key time whose line from
		// it stays within the tolerance at every check point between.
		// (Doubling the span while it holds, then halving between the
		// last that held and the first that did not.)
		for ki := 0; ki+1 < len(keyRows); {
			limit := min(len(keyRows)-1, ki+bonesMaxSpan)
			best, step := ki+1, 1
			for best < limit {
				kj := min(best+step, limit)
				if f.spanOK(ch, q, v, keyRows[ki], keyRows[kj], tol) {
					best, step = kj, 2*step
					continue
				}
				for lo, hi := best, kj; ; {
					mid := lo + (hi-lo)/2
					if mid == lo {
						best = lo
						break
					}
					if f.spanOK(ch, q, v, keyRows[ki], keyRows[mid], tol) {
						lo = mid
					} else {
						hi = mid
					}
				}
				break
			}
			e := f.spanErr(ch, q, v, keyRows[ki], keyRows[best])
			if ch.prop == propR {
				f.maxDeg = math.Max(f.maxDeg, e*180/math.Pi)
			} else if ch.prop == propT {
				f.maxT = math.Max(f.maxT, e/f.scale)
			}
			k := keyRows[best]
			f.addKey(cf, ch, f.times[k], q[k], v[k])
			ki = best
		}
	}
	last := f.row(nrow - 1)
	f.times = append(f.times[:0], f.times[nrow-1])
	f.tags = append(f.tags[:0], rowKey)
	f.vals = append(f.vals[:0], last...)
}

// bonesQuantMargin is the part of a translation's or scale's tolerance the
// reduction may use: their 16-bit quantization (a step at most an eighth
// of the tolerance, see finishTracks) takes at most √3/16 of it.
const bonesQuantMargin = 0.85

// addKey appends a key at clip time t of value q (the exact value v).
func (f *boneFitter) addKey(cf *chanFit, ch bchan, t float32, q, v [4]float32) {
	cf.keyT = append(cf.keyT, t)
	cf.keyV = append(cf.keyV, q)
	if ch.prop == propR {
		w := encodeRot(geom.Quat{X: v[0], Y: v[1], Z: v[2], W: v[3]})
		cf.words = append(cf.words, w[:]...)
	}
}

// spanOK reports whether spanErr is within tol, faster: rotations by
// their quaternions' cosine, translations and scales by squared distances.
func (f *boneFitter) spanOK(ch bchan, q, v [][4]float32, i, j int, tol float64) bool {
	cos := math.Cos(tol / 2)
	ok := func(p, w [4]float32) bool {
		if ch.prop != propR {
			dx, dy, dz := float64(p[0]-w[0]), float64(p[1]-w[1]), float64(p[2]-w[2])
			return dx*dx+dy*dy+dz*dz <= tol*tol
		}
		var np, nw, dot float64
		for k := 0; k < 4; k++ {
			np += float64(p[k]) * float64(p[k])
			nw += float64(w[k]) * float64(w[k])
			dot += float64(p[k]) * float64(w[k])
		}
		// The rotations' angle is 2·acos(|p·w|/(|p||w|)).
		return dot*dot >= cos*cos*np*nw
	}
	if !ok(q[i], v[i]) || !ok(q[j], v[j]) {
		return false
	}
	t0, t1 := f.times[i], f.times[j]
	p0 := geom.Quat{X: q[i][0], Y: q[i][1], Z: q[i][2], W: q[i][3]}
	p1 := geom.Quat{X: q[j][0], Y: q[j][1], Z: q[j][2], W: q[j][3]}
	for k := i + 1; k < j; k++ {
		if f.tags[k] == rowSkip {
			continue
		}
		a := (f.times[k] - t0) / (t1 - t0)
		var p [4]float32
		if ch.prop == propR {
			r := nlerp(p0, p1, a)
			p = [4]float32{r.X, r.Y, r.Z, r.W}
		} else {
			for c := 0; c < 3; c++ {
				p[c] = q[i][c] + (q[j][c]-q[i][c])*a
			}
		}
		if !ok(p, v[k]) {
			return false
		}
	}
	return true
}

// spanErr is the largest error of the line between the key values at
// rows i and j against the exact values at the rows between them (at the
// ends, the quantization's), unresolved intervals aside.
func (f *boneFitter) spanErr(ch bchan, q, v [][4]float32, i, j int) float64 {
	e := math.Max(chanErr(ch.prop, q[i][:], q[i][:], v[i][:], 0), chanErr(ch.prop, q[j][:], q[j][:], v[j][:], 0))
	t0, t1 := f.times[i], f.times[j]
	for k := i + 1; k < j; k++ {
		if f.tags[k] == rowSkip {
			continue
		}
		a := (f.times[k] - t0) / (t1 - t0)
		if d := chanErr(ch.prop, q[i][:], q[j][:], v[k][:], a); d > e {
			e = d
		}
	}
	return e
}

// restProp returns property prop of tr as a channel's values.
func restProp(tr *geom.Transform, prop uint8) [4]float32 {
	switch prop {
	case propT:
		return [4]float32{tr.T.X, tr.T.Y, tr.T.Z, 0}
	case propR:
		return [4]float32{tr.R.X, tr.R.Y, tr.R.Z, tr.R.W}
	}
	return [4]float32{tr.S.X, tr.S.Y, tr.S.Z, 0}
}

// finishTracks turns the channels' keys into b's constants and tracks,
// over one table of the key times they use.
func (f *boneFitter) finishTracks(b *Bones) error {
	var all []float32
	for ci := range f.fits {
		cf := &f.fits[ci]
		if cf.moves || f.chans[ci].joint < 0 {
			all = append(all, cf.keyT...)
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
	times := all[:0]
	for _, t := range all {
		if len(times) == 0 || t > times[len(times)-1] {
			times = append(times, t)
		}
	}
	if len(times) == 0 {
		times = append(times, 0)
	}
	if len(times) > bonesMaxTimes {
		return fmt.Errorf("%w: %d key times (at most %d)", ErrTooManyKeys, len(times), bonesMaxTimes)
	}
	b.data.times = append([]float32(nil), times...)
	for ci, ch := range f.chans {
		cf := &f.fits[ci]
		if !cf.moves && ch.joint >= 0 {
			// A property at its rest needs nothing: Sample starts from it.
			if rest := f.c.rig.skel.Rest; ch.joint >= len(rest) || restProp(&rest[ch.joint], ch.prop) != cf.first {
				b.consts = append(b.consts, boneConst{joint: int32(ch.joint), prop: ch.prop, v: cf.first})
			}
			continue
		}
		keyT, keyV, words := cf.keyT, cf.keyV, cf.words
		if !cf.moves { // the root's constant: one key
			keyT, keyV = keyT[:1], keyV[:1]
			if words != nil {
				words = words[:3]
			}
		}
		tr := boneTrack{joint: int32(ch.joint), prop: ch.prop, n: int32(len(keyT)),
			key: int32(len(b.data.ktime)), val: int32(len(b.data.vals))}
		j := 0
		for _, t := range keyT {
			for b.data.times[j] < t {
				j++
			}
			b.data.ktime = append(b.data.ktime, uint16(j))
		}
		if ch.prop == propR {
			tr.enc = encRot
			b.data.vals = append(b.data.vals, words...)
		} else {
			tr.enc = encRange
			lo, hi := keyV[0], keyV[0]
			for _, x := range keyV {
				for c := 0; c < 3; c++ {
					lo[c], hi[c] = min(lo[c], x[c]), max(hi[c], x[c])
				}
			}
			for c := 0; c < 3; c++ {
				tr.lo[c] = lo[c]
				tr.step[c] = (hi[c] - lo[c]) / 65535
				if !(float64(tr.step[c]) <= ch.tol/8) || !geom.Finite(tr.step[c]) {
					tr.enc = encFloat
				}
			}
			if tr.enc == encFloat {
				tr.lo, tr.step = [3]float32{}, [3]float32{}
			}
			for _, x := range keyV {
				b.data.vals = encodeVec(b.data.vals, &tr, [3]float32{x[0], x[1], x[2]})
			}
		}
		if ch.joint < 0 {
			b.root[ch.prop] = tr
			continue
		}
		b.tracks = append(b.tracks, tr)
	}
	return nil
}

// Name returns the clip's name.
func (b *Bones) Name() string { return b.name }

// Duration returns the clip's length in seconds (never 0).
func (b *Bones) Duration() float32 { return b.duration }

// Rig returns the rig the bones were baked for.
func (b *Bones) Rig() *Rig { return b.rig }

// Stats returns how the bones were baked.
func (b *Bones) Stats() BonesStats { return b.stats }

// clipTime clamps t into [0, length] as the exact clip does.
func (b *Bones) clipTime(t float32) float32 {
	if !(t > 0) {
		return 0
	} else if t > b.length {
		return b.length
	}
	return t
}

// Sample writes the local pose at clip time t over the rig's skeleton (len
// Rig().Len()): the joints the clip drives from their tracks, the others
// at rest. It does not allocate.
func (b *Bones) Sample(t float32, dst []geom.Transform) {
	rest := b.rig.skel.Rest
	n := b.rig.Len()
	if len(dst) < n {
		panic(fmt.Sprintf("humanoid: Sample of bones %q into %d transforms; the skeleton has %d", b.name, len(dst), n))
	}
	if len(rest) == n {
		copy(dst, rest)
	} else {
		for j := range dst[:n] {
			dst[j] = geom.Identity
		}
	}
	dst = dst[:n]
	for i := range b.consts {
		c := &b.consts[i]
		p := &dst[c.joint]
		switch c.prop {
		case propR:
			p.R = geom.Quat{X: c.v[0], Y: c.v[1], Z: c.v[2], W: c.v[3]}
		case propT:
			p.T = geom.Vec3{X: c.v[0], Y: c.v[1], Z: c.v[2]}
		default:
			p.S = geom.Vec3{X: c.v[0], Y: c.v[1], Z: c.v[2]}
		}
	}
	t = b.clipTime(t)
	k := b.data.find(t)
	b.data.sampleRots(b.tracks[:b.nrot], k, t, dst)
	for i := range b.tracks[b.nrot:] {
		tr := &b.tracks[b.nrot+i]
		if tr.prop == propT {
			dst[tr.joint].T = b.data.evalVec(tr, k, t)
		} else {
			dst[tr.joint].S = b.data.evalVec(tr, k, t)
		}
	}
}

// Animates reports which properties of joint j the clip drives (as
// Clip.Animates).
func (b *Bones) Animates(j int) anim.Props {
	if j < 0 || j >= len(b.animated) {
		return 0
	}
	return b.animated[j]
}

// ExtractRootMotion returns the body's motion between clip times (as
// Clip.ExtractRootMotion, from the fitted RootT and RootQ).
func (b *Bones) ExtractRootMotion(from, to float32, loops int) anim.RootMotion {
	return anim.LoopMotion(b.bodyDelta, b.duration, from, to, loops)
}

// bodyDelta is the body's motion from clip time t0 to t1.
func (b *Bones) bodyDelta(t0, t1 float32) anim.RootMotion {
	return anim.MotionBetween(b.body(t0), b.body(t1))
}

// body is the body's RootT and RootQ at clip time t.
func (b *Bones) body(t float32) geom.Transform {
	t = b.clipTime(t)
	k := b.data.find(t)
	return geom.Transform{T: b.data.evalVec(&b.root[0], k, t), R: b.data.evalRot(&b.root[1], k, t), S: geom.Vec3{X: 1, Y: 1, Z: 1}}
}

var (
	_ anim.Sampler   = (*Bones)(nil)
	_ anim.RootMover = (*Bones)(nil)
)
