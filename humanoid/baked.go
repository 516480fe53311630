package humanoid

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"unsafe"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
)

// Bones is a humanoid clip baked, for one rig, into the local transforms
// its muscles and root give the rig's human bones: every property of every
// human bone as cubic segments over key times shared by all of them,
// fitted to the exact path (Clip.Sample). Sampling it is curve evaluation
// (anim.Clip.Sample) with no muscle maths, centre of mass or body frame:
// the form for playing one clip on many characters. The exact Clip stays
// the reference, and the one an Animator blends (it blends muscles, not
// bones).
//
// The fit: key times are the clip's own (the keys and frames of its
// humanoid channels, where the exact pose may turn sharply or jump, and at
// least its sample rate), and each interval between them gets, per
// channel, the cubic through the exact values at its ends and the exact
// slopes there (one-sided, so a jump at a key stays a jump). At a quarter,
// half and three quarters of each interval the fitted pose is compared
// with the exact one; an interval off by more than BonesMaxErrorDeg on a
// bone's rotation or BonesMaxErrorT (times the human scale) on a
// translation is halved, up to six times. Where the exact path itself
// jumps inside an interval (a twist wrapping round, a clip's own jump) the
// halving stops at 1/64 of it: BonesStats counts these intervals. Elsewhere
// the tests measure the sampled pose within twice the tolerances of the
// exact one at any time (TestBonesMatchTheExactPath).
//
// Bones is immutable and safe for concurrent use.
type Bones struct {
	exact *Clip
	pose  *anim.Clip
	stats BonesStats
	jumps [][2]float32 // the unresolved intervals (clip times)
}

const (
	// BonesMaxErrorDeg is the fit's tolerance on a human bone's local
	// rotation, in degrees.
	BonesMaxErrorDeg = 0.05
	// BonesMaxErrorT is the fit's tolerance on a human bone's local
	// translation, as a fraction of the avatar's human scale.
	BonesMaxErrorT = 1e-4
)

// BonesStats describes a baked Bones, for reports and tests.
type BonesStats struct {
	Keys     int // key times the segments share
	Channels int // animated (non-constant) channels of the human bones
	// Unresolved counts the intervals whose fit stayed off the tolerances
	// after the last halving (the exact path jumps there); UnresolvedTime
	// is their total length in seconds.
	Unresolved     int
	UnresolvedTime float32
	// MaxErrorDeg and MaxErrorT are the largest errors found at the check
	// points outside the unresolved intervals (translation as a fraction
	// of the human scale).
	MaxErrorDeg, MaxErrorT float64
	// Bytes is what the Bones keep: the baked poses and the exact clip
	// (the rig, shared, aside).
	Bytes int
}

// Limits on the fit: halvings of an interval, the key times in all, and
// the coefficients the fit holds (a key's per bone channel; 256 MB): a clip
// asking for more is refused rather than allocated without bound (a
// 213-second clip on a 41-bone avatar takes 5 M).
const (
	bonesMaxDepth = 6
	bonesMaxKeys  = 1 << 20
	bonesMaxCoefs = 1 << 24
)

// ErrTooManyKeys is wrapped when baking a clip's bones would take more key
// times than a baked clip may hold (bones too many for its length).
var ErrTooManyKeys = errors.New("humanoid: too many key times")

// BakeBones bakes a humanoid clip (see Bake) for the rig into Bones.
func BakeBones(mc *model.Clip, r *Rig) (*Bones, error) {
	return bakeBones(mc, r, BonesMaxErrorDeg, BonesMaxErrorT)
}

// bakeBones is BakeBones with the fit's tolerances.
func bakeBones(mc *model.Clip, r *Rig, tolR, tolT float64) (*Bones, error) {
	c, err := Bake(mc, r)
	if err != nil {
		return nil, err
	}
	keys, err := boneKeyTimes(mc)
	if err != nil {
		return nil, fmt.Errorf("humanoid: bones of clip %q on avatar %q: %w", mc.Name, r.name, err)
	}
	if len(keys)*len(r.targets)*boneChans > bonesMaxCoefs {
		return nil, fmt.Errorf("humanoid: bones of clip %q on avatar %q: %w: %d for %d bones", mc.Name, r.name, ErrTooManyKeys, len(keys), len(r.targets))
	}
	f := newBoneFitter(c, mc.Start)
	f.tolR, f.tolT = tolR, tolT
	for k := 0; k+1 < len(keys); k++ {
		if err := f.fit(keys[k], keys[k+1], 0); err != nil {
			return nil, fmt.Errorf("humanoid: bones of clip %q on avatar %q: %w", mc.Name, r.name, err)
		}
	}
	if len(keys) == 1 { // a clip of no length: one pose
		f.fitPoint(keys[0])
	}
	gen := &model.Clip{Name: mc.Name, SampleRate: mc.SampleRate, Start: mc.Start, Stop: mc.Stop,
		WrapMode: mc.WrapMode, Settings: mc.Settings}
	// The clip's own Transform curves on joints that are not human bones
	// (their exact path), then the fitted human bones.
	for i := range mc.Curves {
		tg := &mc.Curves[i].Target
		if tg.ClassID != model.ClassTransform || tg.Transform == model.PropNone {
			continue
		}
		if j, ok := r.skel.Resolve(tg); ok && r.IsHumanNode(j) {
			continue
		}
		gen.Curves = append(gen.Curves, mc.Curves[i])
	}
	gen.Curves = f.curves(gen.Curves, r)
	pose, err := anim.Bake(gen, r.skel)
	if err != nil {
		return nil, fmt.Errorf("humanoid: bones of clip %q on avatar %q: %w", mc.Name, r.name, err)
	}
	b := &Bones{exact: c, pose: pose, stats: f.stats, jumps: f.jumps}
	b.stats.Keys = len(f.times)
	b.stats.Bytes = int(unsafe.Sizeof(*b)) + pose.Stats().Bytes + c.bytes() + 8*len(b.jumps)
	return b, nil
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
		if len(src) > bonesMaxKeys {
			return nil, fmt.Errorf("%w: more than %d keys", ErrTooManyKeys, bonesMaxKeys)
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
	out := keys
	return out, nil
}

// boneFitter fits the human bones' channels interval by interval, in time
// order.
type boneFitter struct {
	c      *Clip
	start  float32 // curve time of clip time 0
	pose   []geom.Transform
	ntgt   int
	scale  float64
	times  []float32    // accepted key times
	coefs  [][4]float32 // per key, per channel (10 a target: T xyz, R xyzw, S xyz)
	prev   []geom.Quat  // per target: the rotation the last interval ended on
	hasPrv bool
	stats  BonesStats
	jumps  [][2]float32
	// per fit: the channel values at the six fit times, then the check times
	at         [6][]float64
	chk        []float64
	co         [][4]float64
	first      []geom.Quat
	tolR, tolT float64 // the tolerances (BonesMaxErrorDeg, BonesMaxErrorT)
}

const boneChans = 10

func newBoneFitter(c *Clip, start float32) *boneFitter {
	n := len(c.rig.targets)
	f := &boneFitter{c: c, start: start, pose: make([]geom.Transform, c.rig.Len()), ntgt: n,
		scale: math.Abs(float64(c.rig.scale)), prev: make([]geom.Quat, n), chk: make([]float64, n*boneChans)}
	if !(f.scale > 0) || math.IsInf(f.scale, 0) {
		f.scale = 1
	}
	for i := range f.at {
		f.at[i] = make([]float64, n*boneChans)
	}
	f.co = make([][4]float64, n*boneChans)
	f.first = make([]geom.Quat, n)
	return f
}

// sample evaluates the exact path at curve time t into v (10 channels per
// target), rotations on the hemisphere of ref (per target).
func (f *boneFitter) sample(t float32, v []float64, ref []geom.Quat) {
	f.c.Sample(t-f.start, f.pose)
	for i, tg := range f.c.rig.targets {
		p := &f.pose[tg.node]
		q := p.R
		if ref != nil && q.Dot(ref[i]) < 0 {
			q = q.Neg()
		}
		w := v[i*boneChans : i*boneChans+boneChans]
		w[0], w[1], w[2] = float64(p.T.X), float64(p.T.Y), float64(p.T.Z)
		w[3], w[4], w[5], w[6] = float64(q.X), float64(q.Y), float64(q.Z), float64(q.W)
		w[7], w[8], w[9] = float64(p.S.X), float64(p.S.Y), float64(p.S.Z)
	}
}

func quatAt(w []float64) geom.Quat {
	return geom.Quat{X: float32(w[3]), Y: float32(w[4]), Z: float32(w[5]), W: float32(w[6])}
}

// fitPoint accepts a single pose at curve time t (a clip of no length).
func (f *boneFitter) fitPoint(t float32) {
	f.sample(t, f.at[0], nil)
	f.times = append(f.times, t)
	for _, x := range f.at[0] {
		f.coefs = append(f.coefs, [4]float32{0, 0, 0, float32(x)})
	}
}

// fit fits [a, b) (curve times), halving it while the fit is off the
// tolerances.
func (f *boneFitter) fit(a, b float32, depth int) error {
	if len(f.times) >= bonesMaxKeys || (len(f.times)+1)*f.ntgt*boneChans > bonesMaxCoefs {
		return fmt.Errorf("%w: more than %d for %d bones", ErrTooManyKeys, len(f.times), f.ntgt)
	}
	eps := (b - a) / 64
	end := math.Nextafter32(b, a) // just before b: the left limit at b
	ts := [6]float32{a, a + eps, a + 2*eps, b - 2*eps, b - eps, end}
	// Slopes need the difference points resolved by float32 time (four
	// steps of it between them); a shorter interval gets the line through
	// its ends, and is not halved further.
	ulp := math.Nextafter32(max(abs(a), abs(b)), float32(math.Inf(1))) - max(abs(a), abs(b))
	slopes := eps >= 4*ulp
	var ref []geom.Quat
	if f.hasPrv {
		ref = f.prev
	}
	f.sample(a, f.at[0], ref)
	if !(end > a) {
		// No float32 time inside: hold the value at a.
		f.accept(a, b, nil)
		return nil
	}
	// Align the interval's samples with its first.
	first := f.first
	for i := range first {
		first[i] = quatAt(f.at[0][i*boneChans:])
	}
	x0 := float64(a)
	dt := float64(end) - x0
	co := f.co[:f.ntgt*boneChans]
	if slopes {
		for k := 1; k < 6; k++ {
			f.sample(ts[k], f.at[k], first)
		}
		// Slopes at the ends by one-sided three-point differences over
		// the float32 times actually sampled (their spacing is not
		// exactly eps), written on differences so that a channel that
		// does not move gets slopes of exactly 0.
		d0 := oneSided(float64(ts[1])-x0, float64(ts[2])-x0)
		d1 := oneSided(float64(ts[4])-float64(end), float64(ts[3])-float64(end))
		for ch := range co {
			v0, w0 := f.at[0][ch], f.at[5][ch]
			m0 := d0[1]*(f.at[1][ch]-v0) + d0[2]*(f.at[2][ch]-v0)
			m1 := d1[1]*(f.at[4][ch]-w0) + d1[2]*(f.at[3][ch]-w0)
			co[ch] = hermite64(v0, w0, m0, m1, dt)
		}
	} else {
		f.sample(end, f.at[5], first)
		for ch := range co {
			v0, w0 := f.at[0][ch], f.at[5][ch]
			co[ch] = [4]float64{0, 0, (w0 - v0) / dt, v0}
		}
	}
	// Check at five points inside (a Hermite fit's error peaks at a third
	// or a half of the interval, as slope or curvature dominates).
	worstR, worstT := 0.0, 0.0
	for _, fr := range [...]float32{0.2, 0.35, 0.5, 0.65, 0.8} {
		t := a + (b-a)*fr
		f.sample(t, f.chk, first)
		x := float64(t) - x0
		for i := 0; i < f.ntgt; i++ {
			w := f.chk[i*boneChans:]
			c := co[i*boneChans:]
			var g [7]float64
			for k := range g {
				g[k] = ((c[k][0]*x+c[k][1])*x+c[k][2])*x + c[k][3]
			}
			worstT = math.Max(worstT, math.Sqrt((g[0]-w[0])*(g[0]-w[0])+(g[1]-w[1])*(g[1]-w[1])+(g[2]-w[2])*(g[2]-w[2]))/f.scale)
			worstR = math.Max(worstR, quatAngleDeg(g[3:7], w[3:7]))
		}
	}

	if !(worstR <= f.tolR && worstT <= f.tolT) {
		if depth < bonesMaxDepth && slopes {
			m := a + (b-a)/2
			if m > a && m < b {
				if err := f.fit(a, m, depth+1); err != nil {
					return err
				}
				return f.fit(m, b, depth+1)
			}
		}
		f.stats.Unresolved++
		f.stats.UnresolvedTime += b - a
		f.jumps = append(f.jumps, [2]float32{a - f.start, b - f.start})
	} else {
		f.stats.MaxErrorDeg = math.Max(f.stats.MaxErrorDeg, worstR)
		f.stats.MaxErrorT = math.Max(f.stats.MaxErrorT, worstT)
	}
	f.accept(a, b, co)
	return nil
}

// accept appends the interval from a with coefficients co (nil: hold the
// values sampled at a) and remembers the rotations it ends on.
func (f *boneFitter) accept(a, b float32, co [][4]float64) {
	f.times = append(f.times, a)
	for ch := 0; ch < f.ntgt*boneChans; ch++ {
		if co == nil {
			f.coefs = append(f.coefs, [4]float32{0, 0, 0, float32(f.at[0][ch])})
			continue
		}
		c := co[ch]
		f.coefs = append(f.coefs, [4]float32{float32(c[0]), float32(c[1]), float32(c[2]), float32(c[3])})
	}
	for i := range f.prev {
		if co == nil {
			f.prev[i] = quatAt(f.at[0][i*boneChans:])
		} else {
			f.prev[i] = quatAt(f.at[5][i*boneChans:])
		}
	}
	f.hasPrv = true
}

// curves appends the fitted channels to cs as curves (constant where a
// channel does not move).
func (f *boneFitter) curves(cs []model.Curve, r *Rig) []model.Curve {
	nk := len(f.times)
	for i, tg := range r.targets {
		path := r.paths[tg.node]
		for ch := 0; ch < boneChans; ch++ {
			col := i*boneChans + ch
			prop, comp := model.PropPosition, ch
			switch {
			case ch >= 7:
				prop, comp = model.PropScale, ch-7
			case ch >= 3:
				prop, comp = model.PropRotation, ch-3
			}
			target := model.Target{Path: path, PathHash: model.PathHash(path), PathKnown: true,
				ClassID: model.ClassTransform, Transform: prop, Component: comp}
			v0 := f.coefs[col][3]
			still := true
			for k := 0; k < nk && still; k++ {
				c := f.coefs[k*f.ntgt*boneChans+col]
				w := float32(1)
				if k+1 < nk {
					w = f.times[k+1] - f.times[k]
				}
				tol := float32(1e-6) // rotation components
				switch {
				case ch < 3:
					tol = 1e-6 * float32(f.scale)
				case ch >= 7:
					tol = 1e-6 * abs(v0)
				}
				still = abs(c[3]-v0) <= tol && abs(c[2])*w <= tol && abs(c[1])*w*w <= tol && abs(c[0])*w*w*w <= tol
			}
			if still {
				cs = append(cs, model.Curve{Target: target, Kind: model.CurveConstant, Value: v0})
				continue
			}
			f.stats.Channels++
			segs := make([]model.Segment, nk)
			for k := range segs {
				segs[k] = model.Segment{Time: f.times[k], C: f.coefs[k*f.ntgt*boneChans+col]}
			}
			cs = append(cs, model.Curve{Target: target, Kind: model.CurveStreamed, Segments: segs})
		}
	}
	return cs
}

// oneSided returns the weights of the three-point difference for the
// derivative at 0 of a function sampled at 0, h1 and h2 (h1, h2 of one
// sign, distinct): f'(0) ≈ w0·f(0) + w1·f(h1) + w2·f(h2).
func oneSided(h1, h2 float64) [3]float64 {
	return [3]float64{-(h1 + h2) / (h1 * h2), h2 / (h1 * (h2 - h1)), -h1 / (h2 * (h2 - h1))}
}

// hermite64 returns the power-basis coefficients, in the time since the
// first end, of the cubic of values v0, v1 and slopes m0, m1 dt apart.
func hermite64(v0, v1, m0, m1, dt float64) [4]float64 {
	d := v1 - v0
	return [4]float64{(dt*(m0+m1) - 2*d) / (dt * dt * dt), (3*d - dt*(2*m0+m1)) / (dt * dt), m0, v0}
}

// quatAngleDeg is the angle in degrees between the rotations of the
// (unnormalised) quaternions a and b.
func quatAngleDeg(a, b []float64) float64 {
	var na, nb, dot float64
	for k := 0; k < 4; k++ {
		na += a[k] * a[k]
		nb += b[k] * b[k]
		dot += a[k] * b[k]
	}
	if na == 0 || nb == 0 {
		return 180
	}
	na, nb = math.Sqrt(na), math.Sqrt(nb)
	s := 1.0
	if dot < 0 {
		s = -1
	}
	var d2, s2 float64
	for k := 0; k < 4; k++ {
		x, y := a[k]/na, s*b[k]/nb
		d2 += (x - y) * (x - y)
		s2 += (x + y) * (x + y)
	}
	// |a-b| and |a+b| are 2 sin and 2 cos of half the angle between a and
	// b on the 4D sphere, which is half the rotation's angle.
	return 4 * math.Atan2(math.Sqrt(d2), math.Sqrt(s2)) * 180 / math.Pi
}

// Clip returns the exact clip the bones were fitted to (its float tracks,
// events, root motion and pose).
func (b *Bones) Clip() *Clip { return b.exact }

// Name returns the clip's name.
func (b *Bones) Name() string { return b.exact.Name() }

// Duration returns the clip's length in seconds (never 0).
func (b *Bones) Duration() float32 { return b.exact.Duration() }

// Rig returns the rig the bones were baked for.
func (b *Bones) Rig() *Rig { return b.exact.rig }

// Poses returns the baked poses as a clip over the rig's skeleton.
func (b *Bones) Poses() *anim.Clip { return b.pose }

// Stats returns how the bones were baked.
func (b *Bones) Stats() BonesStats { return b.stats }

// Sample writes the local pose at clip time t over the rig's skeleton (len
// Rig().Len()): the human bones from the fit, the other joints from the
// clip's Transform curves or their rest. It does not allocate.
func (b *Bones) Sample(t float32, dst []geom.Transform) { b.pose.Sample(t, dst) }

// Animates reports which properties of joint j the clip drives (as
// Clip.Animates).
func (b *Bones) Animates(j int) anim.Props { return b.exact.Animates(j) }

// ExtractRootMotion returns the body's motion between clip times (as
// Clip.ExtractRootMotion).
func (b *Bones) ExtractRootMotion(from, to float32, loops int) anim.RootMotion {
	return b.exact.ExtractRootMotion(from, to, loops)
}

var (
	_ anim.Sampler   = (*Bones)(nil)
	_ anim.RootMover = (*Bones)(nil)
)
