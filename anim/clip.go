package anim

import (
	"fmt"
	"sort"
	"unsafe"

	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
)

// A geom.Transform is viewed as 10 float32 slots: T.X T.Y T.Z R.X R.Y R.Z
// R.W S.X S.Y S.Z. These lines fail to compile if its layout ever changes.
var (
	_ [unsafe.Sizeof(geom.Transform{}) - 40]byte
	_ [40 - unsafe.Sizeof(geom.Transform{})]byte
	_ [unsafe.Offsetof(geom.Transform{}.R) - 12]byte
	_ [12 - unsafe.Offsetof(geom.Transform{}.R)]byte
	_ [unsafe.Offsetof(geom.Transform{}.S) - 28]byte
	_ [28 - unsafe.Offsetof(geom.Transform{}.S)]byte
)

const (
	slotsPerJoint = 10
	slotT         = 0
	slotR         = 3
	slotS         = 7
)

// poseFloats views a pose as its float slots.
func poseFloats(p []geom.Transform) []float32 {
	if len(p) == 0 {
		return nil
	}
	return unsafe.Slice(&p[0].T.X, len(p)*slotsPerJoint)
}

// Clip is a clip baked against a skeleton: immutable, shared by every
// instance playing it, safe for concurrent Sample calls. See the package
// documentation for the baked form.
type Clip struct {
	name     string
	skel     *Skeleton
	start    float32 // model clip Start: curve time of clip time 0
	length   float32 // Stop-Start (>= 0): sampling clamps to it
	duration float32 // length, or one frame when length is 0
	rate     float32
	wrap     model.WrapMode
	settings model.LoopSettings

	pose poseSet

	floats       curveSet
	floatTargets []model.Target

	root     int
	rootPose poseSet
	// motion evaluates the clip's RootT and RootQ curves (generic root
	// motion, see Bake), as T.xyz R.xyzw; hasMotion says it does.
	motion    curveSet
	hasMotion bool

	ints []model.IntCurve // integer channels: stepped, never blended

	unresolved []model.Target
	leftOut    int // channels without a single finite value
	tracks     int
	animated   []Props // per joint: which properties a channel drives
	events     []model.Event
}

// Props is a set of a joint's transform properties.
type Props uint8

// The transform properties of a joint.
const (
	PropT Props = 1 << iota // position
	PropR                   // rotation (quaternion or Euler)
	PropS                   // scale
)

// poseSet evaluates the joint channels of some joints (all of them, or the
// root alone) into their float slots.
type poseSet struct {
	set   curveSet
	rot   []int32      // joints whose quaternion is animated: normalise
	euler []eulerJoint // joints whose Euler angles are animated: convert
}

type eulerJoint struct {
	joint int32
	order geom.EulerOrder
}

// jointChan is a resolved Transform channel.
type jointChan struct {
	joint int
	prop  model.TransformProp
	comp  int
	order geom.EulerOrder
	s     scalar
}

// slotOf is the float slot of component comp of property prop of joint j.
func slotOf(j int, prop model.TransformProp, comp int) int32 {
	off := slotT
	switch prop {
	case model.PropRotation, model.PropEuler:
		off = slotR
	case model.PropScale:
		off = slotS
	}
	return int32(j*slotsPerJoint + off + comp)
}

func validComponent(t *model.Target) bool {
	switch t.Transform {
	case model.PropPosition, model.PropScale, model.PropEuler:
		return t.Component >= 0 && t.Component < 3
	case model.PropRotation:
		return t.Component >= 0 && t.Component < 4
	}
	return false
}

// Bake resolves a decoded clip's channels against a skeleton and lays them
// out for sampling.
//
// A Transform channel (class 4) drives the joint its target's path names
// (by Path when PathKnown, else by PathHash); a channel whose joint the
// skeleton lacks is counted in UnresolvedChannels and dropped. Every other
// channel (humanoid muscles, blend shapes, script properties) becomes a
// float track (FloatTargets, SampleFloats). When one joint has both Euler
// and quaternion rotation channels the Euler ones win; an Euler component
// without a channel is 0 degrees. When several channels drive the same
// component the last one wins.
//
// The root joint is chosen by RootRule; WithRoot picks another.
func Bake(c *model.Clip, s *Skeleton) (*Clip, error) {
	if c == nil || s == nil {
		return nil, fmt.Errorf("anim: bake: nil clip or skeleton")
	}
	if len(s.depth) != len(s.Paths) || len(s.Rest) != len(s.Paths) {
		// A Skeleton literal (not from NewSkeleton): check it and build
		// its lookup tables in a copy.
		ns, err := NewSkeleton(s.Paths, s.Parents, s.Rest)
		if err != nil {
			return nil, fmt.Errorf("anim: bake clip %q: %w", c.Name, err)
		}
		s = ns
	}
	cl := &Clip{
		name: c.Name, skel: s, start: c.Start, rate: c.SampleRate,
		wrap: c.WrapMode, settings: c.Settings,
	}
	if !geom.Finite(cl.start) {
		cl.start = 0
	}
	if l := c.Stop - c.Start; l > 0 && geom.Finite(l) {
		cl.length = l
	}
	cl.duration = c.Duration()

	var fb *setBuilder
	var fscal []scalar
	jchans := make([]jointChan, 0, len(c.Curves))
	for i := range c.Curves {
		// A value that is not a number is held at the curve's value before
		// it (a pose cannot take it); a curve without any number is left out.
		held, ok := c.Curves[i].Finite()
		if !ok {
			cl.leftOut++
			continue
		}
		cv := &held
		tg := &cv.Target
		if tg.ClassID == model.ClassTransform && tg.Transform != model.PropNone {
			j, ok := s.Resolve(tg)
			if !ok || !validComponent(tg) {
				cl.unresolved = append(cl.unresolved, *tg)
				continue
			}
			sc, err := bakeCurve(cv)
			if err != nil {
				return nil, fmt.Errorf("anim: bake clip %q: curve %d (%q %s): %w", c.Name, i, tg.Path, tg.Property, err)
			}
			jchans = append(jchans, jointChan{joint: j, prop: tg.Transform, comp: tg.Component, order: tg.RotationOrder, s: sc})
			continue
		}
		sc, err := bakeCurve(cv)
		if err != nil {
			return nil, fmt.Errorf("anim: bake clip %q: curve %d (%q %s): %w", c.Name, i, tg.Path, tg.Property, err)
		}
		cl.floatTargets = append(cl.floatTargets, *tg)
		fscal = append(fscal, sc)
	}
	fb = newSetBuilder(make([]float32, len(fscal)))
	for i, sc := range fscal {
		fb.add(int32(i), sc)
	}
	cl.floats = fb.build()
	if !c.Humanoid {
		cl.bakeMotion(fscal)
	}

	cl.animated = make([]Props, s.Len())
	for i := range jchans {
		ch := &jchans[i]
		switch ch.prop {
		case model.PropPosition:
			cl.animated[ch.joint] |= PropT
		case model.PropRotation, model.PropEuler:
			cl.animated[ch.joint] |= PropR
		case model.PropScale:
			cl.animated[ch.joint] |= PropS
		}
	}
	for _, a := range cl.animated {
		if a != 0 {
			cl.tracks++
		}
	}
	cl.pose = buildPose(s.Rest, func(j int) int { return j }, jchans)
	cl.setRoot(chooseRoot(s, jchans))

	cl.floatTargets = exact(cl.floatTargets)
	cl.ints = exact(append([]model.IntCurve(nil), c.IntCurves...))
	cl.pose.rot, cl.pose.euler = exact(cl.pose.rot), exact(cl.pose.euler)
	cl.events = exact(append([]model.Event(nil), c.Events...))
	sort.SliceStable(cl.events, func(a, b int) bool { return cl.events[a].Time < cl.events[b].Time })
	return cl, nil
}

// bakeMotion lays out a generic clip's RootT and RootQ curves (Animator
// channels of the Animator's own GameObject, attributes 7 to 13): the
// motion Unity baked from a generic avatar's root motion node. A generic
// Animator takes its root motion from them rather than from a joint
// (ExtractRootMotion); the clip's Transform curves still pose the bones.
func (c *Clip) bakeMotion(fscal []scalar) {
	b := newSetBuilder([]float32{0, 0, 0, 0, 0, 0, 1})
	for i, t := range c.floatTargets {
		if t.ClassID == model.ClassAnimator && t.PathHash == 0 && model.IsRootMotionAttribute(t.Attribute) {
			b.add(int32(t.Attribute-model.FirstRootAttribute), fscal[i])
			c.hasMotion = true
		}
	}
	if c.hasMotion {
		c.motion = b.build()
	}
}

// RootRule documents how Bake picks the root joint: the shallowest joint
// (fewest ancestors, then lowest index) whose translation is animated (not
// constant); failing that the shallowest whose rotation is animated;
// failing that none (-1). On a generic rig this is the hips or the
// armature's top bone that carries the motion through the world.
const RootRule = "shallowest joint with animated translation, else with animated rotation, else -1"

func chooseRoot(s *Skeleton, ch []jointChan) int {
	best := [2]int{-1, -1}
	for i := range ch {
		c := &ch[i]
		if c.s.kind == model.CurveConstant {
			continue
		}
		r := 1
		if c.prop == model.PropPosition {
			r = 0
		} else if c.prop == model.PropScale {
			continue
		}
		b := best[r]
		if b < 0 || s.depth[c.joint] < s.depth[b] || (s.depth[c.joint] == s.depth[b] && c.joint < b) {
			best[r] = c.joint
		}
	}
	if best[0] >= 0 {
		return best[0]
	}
	return best[1]
}

// WithRoot returns a clip sharing this one's tracks whose root joint (for
// SampleRoot and ExtractRootMotion) is j (-1 for none).
func (c *Clip) WithRoot(j int) (*Clip, error) {
	if j < -1 || j >= c.skel.Len() {
		return nil, fmt.Errorf("anim: clip %q: root joint %d out of range [-1, %d)", c.name, j, c.skel.Len())
	}
	d := *c
	d.setRoot(j)
	return &d, nil
}

func (c *Clip) setRoot(j int) {
	c.root = j
	c.rootPose = poseSet{}
	if j >= 0 {
		c.rootPose = c.pose.joint(j)
	}
}

// buildPose lays out joint channels over the joints rest describes; local
// maps a skeleton joint to its index in rest (-1: not laid out).
func buildPose(rest []geom.Transform, local func(int) int, chans []jointChan) poseSet {
	n := len(rest)
	base := make([]float32, n*slotsPerJoint)
	copy(base, poseFloats(rest))

	// Resolve local joints and keep the last channel per slot; Euler wins
	// over quaternion channels on the same joint.
	type lc struct {
		i, lj int32 // chans[i] on local joint lj (-1: superseded)
	}
	euler := make([]bool, n)
	order := make([]geom.EulerOrder, n)
	for i := range chans {
		if lj := local(chans[i].joint); lj >= 0 && chans[i].prop == model.PropEuler {
			euler[lj], order[lj] = true, chans[i].order
		}
	}
	last := make([]int32, len(base)) // per slot: 1 + its channel's index in keep
	keep := make([]lc, 0, len(chans))
	for i := range chans {
		c := &chans[i]
		lj := local(c.joint)
		if lj < 0 || (c.prop == model.PropRotation && euler[lj]) {
			continue
		}
		sl := slotOf(lj, c.prop, c.comp)
		if sl < 0 || int(sl) >= len(last) {
			continue
		}
		if k := last[sl]; k > 0 {
			keep[k-1].lj = -1 // superseded
		}
		last[sl] = int32(len(keep) + 1)
		keep = append(keep, lc{int32(i), int32(lj)})
	}
	for j := range euler {
		if euler[j] {
			b := base[j*slotsPerJoint+slotR:]
			b[0], b[1], b[2], b[3] = 0, 0, 0, 0
		}
	}

	b := newSetBuilder(base)
	rotDriven := make([]bool, n)
	rotAnim := make([]bool, n)
	eulerAnim := make([]bool, n)
	for _, k := range keep {
		if k.lj < 0 {
			continue
		}
		c, lj := &chans[k.i], k.lj
		anim := c.s.kind != model.CurveConstant
		switch c.prop {
		case model.PropRotation:
			rotDriven[lj] = true
			rotAnim[lj] = rotAnim[lj] || anim
		case model.PropEuler:
			eulerAnim[lj] = eulerAnim[lj] || anim
		}
		b.add(slotOf(int(lj), c.prop, c.comp), c.s)
	}

	var ps poseSet
	for j := 0; j < n; j++ {
		r := base[j*slotsPerJoint+slotR : j*slotsPerJoint+slotR+4]
		switch {
		case euler[j] && eulerAnim[j]:
			ps.euler = append(ps.euler, eulerJoint{int32(j), order[j]})
		case euler[j]:
			q := geom.FromEuler(geom.Vec3{X: r[0], Y: r[1], Z: r[2]}, order[j])
			r[0], r[1], r[2], r[3] = q.X, q.Y, q.Z, q.W
		case rotAnim[j]:
			ps.rot = append(ps.rot, int32(j))
		case rotDriven[j]:
			q := geom.Quat{X: r[0], Y: r[1], Z: r[2], W: r[3]}.Normalize()
			r[0], r[1], r[2], r[3] = q.X, q.Y, q.Z, q.W
		}
	}
	ps.set = b.build()
	return ps
}

// joint returns the part of p that poses joint j, as a pose set of one
// joint (the root pose WithRoot samples).
func (p *poseSet) joint(j int) poseSet {
	lo := int32(j * slotsPerJoint)
	ps := poseSet{set: p.set.subset(lo, lo+slotsPerJoint)}
	for _, r := range p.rot {
		if int(r) == j {
			ps.rot = []int32{0}
		}
	}
	for _, e := range p.euler {
		if int(e.joint) == j {
			ps.euler = []eulerJoint{{0, e.order}}
		}
	}
	return ps
}

// eval poses the set's joints at curve time t into their float slots.
func (p *poseSet) eval(t float32, out []float32) {
	p.set.eval(t, out)
	for _, j := range p.rot {
		r := out[int(j)*slotsPerJoint+slotR : int(j)*slotsPerJoint+slotR+4]
		r[0], r[1], r[2], r[3] = unitQuat(r[0], r[1], r[2], r[3])
	}
	for _, e := range p.euler {
		r := out[int(e.joint)*slotsPerJoint+slotR : int(e.joint)*slotsPerJoint+slotR+4]
		q := geom.FromEuler(geom.Vec3{X: r[0], Y: r[1], Z: r[2]}, e.order)
		r[0], r[1], r[2], r[3] = q.X, q.Y, q.Z, q.W
	}
}

// curveTime maps clip time (clamped into [0, Duration]) to the decoded
// curves' time.
func (c *Clip) curveTime(t float32) float32 {
	if !(t > 0) {
		t = 0
	} else if t > c.length {
		t = c.length
	}
	return c.start + t
}

// Name returns the clip's name.
func (c *Clip) Name() string { return c.name }

// Duration returns how long the clip plays, in seconds: its length, or one
// frame (1/SampleRate, 1/60 s without a rate) when that is 0. Never 0.
func (c *Clip) Duration() float32 { return c.duration }

// Skeleton returns the skeleton the clip was baked against (the only one
// it may be sampled onto).
func (c *Clip) Skeleton() *Skeleton { return c.skel }

// WrapMode returns the decoded clip's wrap mode.
func (c *Clip) WrapMode() model.WrapMode { return c.wrap }

// Settings returns the decoded clip's loop settings.
func (c *Clip) Settings() model.LoopSettings { return c.settings }

// SampleRate returns the decoded clip's sample rate (frames per second).
func (c *Clip) SampleRate() float32 { return c.rate }

// TrackCount returns how many joints the clip drives.
func (c *Clip) TrackCount() int { return c.tracks }

// Animates reports which of joint j's properties the clip has channels
// for, constant ones included: what a layer playing the clip overrides
// (0 for a joint out of range).
func (c *Clip) Animates(j int) Props {
	if j < 0 || j >= len(c.animated) {
		return 0
	}
	return c.animated[j]
}

// RootJoint returns the joint that carries the motion through the world,
// or -1 if none does (see RootRule).
func (c *Clip) RootJoint() int { return c.root }

// UnresolvedChannels returns how many Transform channels named a joint the
// skeleton does not have (see Unresolved).
func (c *Clip) UnresolvedChannels() int { return len(c.unresolved) }

// Unresolved returns the targets of the Transform channels that name a
// joint the skeleton does not have (or a component the property lacks), in
// the clip's curve order, so that a server can say which paths its rigs
// miss: Target.PathName names each (the path, or its hash when no name
// table knew it). A clip usually animates objects that are not joints of
// the rig it plays on (a prop, a light, a child prefab), which Unity
// ignores as these are. Shared: do not modify.
func (c *Clip) Unresolved() []model.Target { return c.unresolved }

// Events returns the clip's events ordered by time (do not modify).
func (c *Clip) Events() []model.Event { return c.events }

// FloatTargets returns what each float track drives (non-Transform
// channels: humanoid muscles and goals, blend shapes, properties), in the
// decoded clip's order.
func (c *Clip) FloatTargets() []model.Target { return c.floatTargets }

// Sample writes the local pose at clip time t (clamped into [0, Duration])
// into dst, which must hold at least Skeleton().Len() transforms (further
// entries are left alone). Joints the clip does not drive get their rest
// transform. It keeps no state, allocates nothing and may be called from
// many goroutines at once.
func (c *Clip) Sample(t float32, dst []geom.Transform) {
	n := c.skel.Len()
	if len(dst) < n {
		panic(fmt.Sprintf("anim: Sample of clip %q into %d transforms; the skeleton has %d", c.name, len(dst), n))
	}
	c.pose.eval(c.curveTime(t), poseFloats(dst[:n]))
}

// SampleFloats writes the float tracks at clip time t into dst (parallel
// to FloatTargets; it must be at least that long).
func (c *Clip) SampleFloats(t float32, dst []float32) {
	if len(dst) < len(c.floatTargets) {
		panic(fmt.Sprintf("anim: SampleFloats of clip %q into %d floats; it has %d tracks", c.name, len(dst), len(c.floatTargets)))
	}
	c.floats.eval(c.curveTime(t), dst)
}

// IntTargets returns what each integer track drives (int, enum and hash
// properties), in the decoded clip's order.
func (c *Clip) IntTargets() []model.Target {
	out := make([]model.Target, len(c.ints))
	for i := range c.ints {
		out[i] = c.ints[i].Target
	}
	return out
}

// SampleInts writes the integer tracks at clip time t into dst (parallel
// to IntTargets; it must be at least that long): each the value of its
// last key at or before t, held, never interpolated.
func (c *Clip) SampleInts(t float32, dst []int32) {
	if len(dst) < len(c.ints) {
		panic(fmt.Sprintf("anim: SampleInts of clip %q into %d ints; it has %d tracks", c.name, len(dst), len(c.ints)))
	}
	ct := c.curveTime(t)
	for i := range c.ints {
		dst[i] = c.ints[i].Eval(ct)
	}
}

// LeftOutChannels counts the clip's float channels left out because none
// of their values is a number (model.Clip.NotFinite names them).
func (c *Clip) LeftOutChannels() int { return c.leftOut }

// SampleRoot returns where the clip's root motion stands at clip time t:
// the body its RootT and RootQ curves give when it has them (generic root
// motion), else the root joint's local transform (evaluating only its
// channels), else the identity.
func (c *Clip) SampleRoot(t float32) geom.Transform {
	if c.hasMotion {
		var v [7]float32
		c.motion.eval(c.curveTime(t), v[:])
		q := geom.Quat{X: v[3], Y: v[4], Z: v[5], W: v[6]}
		if q.Dot(q) > 0 {
			q = q.Normalize()
		} else {
			q = geom.IdentityQuat
		}
		return geom.Transform{T: geom.Vec3{X: v[0], Y: v[1], Z: v[2]}, R: q, S: geom.Vec3{X: 1, Y: 1, Z: 1}}
	}
	var tr [1]geom.Transform
	if c.root < 0 {
		return geom.Identity
	}
	c.rootPose.eval(c.curveTime(t), poseFloats(tr[:]))
	return tr[0]
}

// HasRootMotionCurves reports whether the clip's root motion comes from
// its RootT and RootQ curves (see Bake) rather than from a joint.
func (c *Clip) HasRootMotionCurves() bool { return c.hasMotion }

// movesRoot reports whether the clip has root motion to extract.
func (c *Clip) movesRoot() bool { return c.hasMotion || c.root >= 0 }

// Stats describes a baked clip's layout, for reports and benchmarks.
type Stats struct {
	Joints        int // joints the clip drives (TrackCount)
	CubicChannels int // animated channels stored as cubic segments
	Timelines     int // distinct key-time sets they share (one lookup each per sample)
	GridChannels  int // channels of their own timeline found through the clip's grid
	IndexedLines  int // timelines with a key index (more than 8 keys)
	DenseChannels int // channels stored as samples
	DenseGroups   int // sets of them sampled over the same frames (one frame lookup each)
	EulerJoints   int // joints rotated by animated Euler angles
	FloatTracks   int // non-Transform tracks
	// Bytes is the memory the clip keeps: its curves, root pose, float
	// track targets, events and tables (the skeleton, shared by every
	// clip baked against it, aside).
	Bytes int
}

// Stats returns the clip's layout statistics (pose and float tracks).
func (c *Clip) Stats() Stats {
	st := Stats{Joints: c.tracks, EulerJoints: len(c.pose.euler), FloatTracks: len(c.floatTargets)}
	for _, s := range []*curveSet{&c.pose.set, &c.floats} {
		st.CubicChannels += len(s.slots)
		st.Timelines += len(s.lines)
		for _, l := range s.lines {
			if l.idxOff >= 0 {
				st.IndexedLines++
			}
		}
		if len(s.keymap) > 0 {
			st.GridChannels += len(s.solos)
			st.Timelines -= len(s.solos) - 1
			if s.gridLine.idxOff >= 0 {
				st.IndexedLines++
			}
		}
		st.CubicChannels += len(s.solos)
		st.Timelines += len(s.solos)
		for _, so := range s.solos {
			if so.idxOff >= 0 {
				st.IndexedLines++
			}
		}
		st.DenseChannels += len(s.dslots)
		st.DenseGroups += len(s.dense)
	}
	st.Bytes = int(unsafe.Sizeof(*c)) + len(c.name) + len(c.animated) +
		c.pose.bytes() + c.floats.bytes() + c.rootPose.bytes() + c.motion.bytes()
	for i := range c.floatTargets {
		t := &c.floatTargets[i]
		st.Bytes += int(unsafe.Sizeof(*t)) + len(t.Path) + len(t.Property)
	}
	for i := range c.events {
		e := &c.events[i]
		st.Bytes += int(unsafe.Sizeof(*e)) + len(e.Function) + len(e.Data)
	}
	for i := range c.ints {
		ic := &c.ints[i]
		st.Bytes += int(unsafe.Sizeof(*ic)) + len(ic.Target.Path) + len(ic.Target.Property) + 8*cap(ic.Keys)
	}
	return st
}

// bytes is the memory a pose set keeps.
func (p *poseSet) bytes() int {
	return p.set.bytes() + 4*cap(p.rot) + int(unsafe.Sizeof(eulerJoint{}))*cap(p.euler)
}
