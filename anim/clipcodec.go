package anim

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
)

// A baked clip's encoding (MarshalBinary) lets a server keep the clips it
// baked and load them without baking again. It holds what Bake computed
// (the base pose, timelines, solos, the times of their grid, dense groups,
// targets, events) and nothing that can be derived again cheaply: the key
// indexes, the grid's key map and the root joint's pose are rebuilt by the
// same code that built them, so they cannot disagree with the curves they
// index. (The grid's times are saved because finding them again sorts
// every solo key; the reader checks they are exactly the union.)
//
// Layout, little-endian: the magic "MCBK", the version (uvarint), the
// skeleton's joint count (uvarint) and fingerprint (u64, see
// skeletonFingerprint), then the clip's fields. Counts and indexes are
// uvarints, signed numbers zigzag varints, floats their 4-byte bits (so
// -0 and NaN survive), strings a length then their bytes. A curve set
// gives the totals of its tables before them, so the reader allocates
// each table once, bounded by the bytes that remain. The encoding carries
// no checksum: a container that stores it (package boundfile) checks its
// bytes.

// ClipVersion is the version of the baked clip encoding MarshalBinary
// writes and UnmarshalClip reads. It changes whenever the encoding or
// what Bake makes of a clip changes, so that a clip saved by an older
// build is refused rather than played differently from a fresh bake.
const ClipVersion = 2

// clipMagic starts every encoded clip.
const clipMagic = "MCBK"

// Errors of UnmarshalClip: a *FormatError unwraps to ErrMalformedClip, an
// *UnsupportedError to ErrUnsupportedClip.
var (
	// ErrMalformedClip reports bytes that are not a baked clip: cut short,
	// damaged, or baked on another skeleton than the one given.
	ErrMalformedClip = errors.New("anim: malformed baked clip")
	// ErrUnsupportedClip reports a baked clip of another encoding
	// version: bake it again from its model clip.
	ErrUnsupportedClip = errors.New("anim: unsupported baked clip")
)

// FormatError says where an encoded clip is damaged and how.
type FormatError struct {
	Clip   string // the clip's name, once read ("" before)
	Offset int    // byte offset in the encoding
	Detail string
}

// Error names the clip, the offset and the damage.
func (e *FormatError) Error() string {
	name := ""
	if e.Clip != "" {
		name = fmt.Sprintf(" %q", e.Clip)
	}
	return fmt.Sprintf("%v%s at byte %d: %s", ErrMalformedClip, name, e.Offset, e.Detail)
}

// Unwrap returns ErrMalformedClip.
func (e *FormatError) Unwrap() error { return ErrMalformedClip }

// UnsupportedError says which encoding version a build cannot read.
type UnsupportedError struct {
	Version uint64
}

// Error names the version.
func (e *UnsupportedError) Error() string {
	return fmt.Sprintf("%v: version %d (this build reads %d): bake it again", ErrUnsupportedClip, e.Version, ClipVersion)
}

// Unwrap returns ErrUnsupportedClip.
func (e *UnsupportedError) Unwrap() error { return ErrUnsupportedClip }

// skeletonFingerprint hashes what a baked clip depends on in its skeleton:
// the joints' paths (which channels resolve to which joint), parents and
// rest transforms (the base pose of joints no constant channel sets). It
// is FNV-1a over bytes for the paths and over 32-bit words for the
// numbers, 64 bits.
func skeletonFingerprint(s *Skeleton) uint64 {
	const prime = 1099511628211
	h := uint64(14695981039346656037)
	h = (h ^ uint64(len(s.Paths))) * prime
	for i, p := range s.Paths {
		h = (h ^ uint64(uint32(s.Parents[i]))) * prime
		h = (h ^ uint64(len(p))) * prime
		for k := 0; k < len(p); k++ {
			h = (h ^ uint64(p[k])) * prime
		}
	}
	for _, f := range poseFloats(s.Rest) {
		h = (h ^ uint64(math.Float32bits(f))) * prime
	}
	return h
}

// MarshalBinary encodes the baked clip (see UnmarshalClip).
func (c *Clip) MarshalBinary() ([]byte, error) { return c.AppendBinary(nil) }

// AppendBinary appends the baked clip's encoding to b (see UnmarshalClip).
// It fails only for a clip whose events no order by time can be checked
// for (a NaN time between others), which a decoded Unity clip never has.
func (c *Clip) AppendBinary(b []byte) ([]byte, error) {
	for i := 1; i < len(c.events); i++ {
		if c.events[i].Time < c.events[i-1].Time {
			return nil, fmt.Errorf("anim: encode clip %q: event %d at %g after one at %g", c.name, i, c.events[i].Time, c.events[i-1].Time)
		}
	}
	w := clipWriter{b: b}
	w.b = append(w.b, clipMagic...)
	w.u(ClipVersion)
	w.u(uint64(c.skel.Len()))
	w.b = binary.LittleEndian.AppendUint64(w.b, skeletonFingerprint(c.skel))
	w.str(c.name)
	w.f32(c.start)
	w.f32(c.length)
	w.f32(c.duration)
	w.f32(c.rate)
	w.i(int64(c.wrap))
	w.settings(&c.settings)
	w.i(int64(c.root))
	w.u(uint64(c.leftOut))
	for _, a := range c.animated {
		w.b = append(w.b, byte(a))
	}
	w.poseSet(&c.pose)
	w.u(uint64(len(c.floatTargets)))
	for i := range c.floatTargets {
		w.target(&c.floatTargets[i])
	}
	w.set(&c.floats)
	if c.hasMotion {
		w.b = append(w.b, 1)
		w.set(&c.motion)
	} else {
		w.b = append(w.b, 0)
	}
	w.u(uint64(len(c.ints)))
	for i := range c.ints {
		ic := &c.ints[i]
		w.target(&ic.Target)
		w.u(uint64(len(ic.Keys)))
		for _, k := range ic.Keys {
			w.f32(k.Time)
			w.i(int64(k.Value))
		}
	}
	w.u(uint64(len(c.unresolved)))
	for i := range c.unresolved {
		w.target(&c.unresolved[i])
	}
	w.u(uint64(len(c.events)))
	for i := range c.events {
		e := &c.events[i]
		w.f32(e.Time)
		w.str(e.Function)
		w.str(e.Data)
		w.ref(e.Object)
		w.f32(e.Float)
		w.i(int64(e.Int))
		w.i(int64(e.MessageOptions))
	}
	return w.b, nil
}

type clipWriter struct{ b []byte }

func (w *clipWriter) u(v uint64)    { w.b = binary.AppendUvarint(w.b, v) }
func (w *clipWriter) i(v int64)     { w.b = binary.AppendVarint(w.b, v) }
func (w *clipWriter) f32(v float32) { w.b = binary.LittleEndian.AppendUint32(w.b, math.Float32bits(v)) }

func (w *clipWriter) f32s(v []float32) {
	for _, x := range v {
		w.f32(x)
	}
}

func (w *clipWriter) str(s string) {
	w.u(uint64(len(s)))
	w.b = append(w.b, s...)
}

func (w *clipWriter) ref(r model.Ref) {
	w.i(int64(r.FileID))
	w.i(r.PathID)
}

// settingsFlags are LoopSettings' booleans, one bit each in this order.
func settingsFlags(s *model.LoopSettings) []*bool {
	return []*bool{&s.LoopTime, &s.LoopBlend, &s.LoopBlendOrientation, &s.LoopBlendPositionY, &s.LoopBlendPositionXZ,
		&s.KeepOriginalOrientation, &s.KeepOriginalPositionY, &s.KeepOriginalPositionXZ, &s.HeightFromFeet,
		&s.StartAtOrigin, &s.Mirror}
}

func (w *clipWriter) settings(s *model.LoopSettings) {
	var bits uint64
	for i, f := range settingsFlags(s) {
		if *f {
			bits |= 1 << i
		}
	}
	w.u(bits)
	w.f32(s.CycleOffset)
	w.f32(s.OrientationOffsetY)
	w.f32(s.Level)
}

func (w *clipWriter) target(t *model.Target) {
	w.str(t.Path)
	w.u(uint64(t.PathHash))
	if t.PathKnown {
		w.b = append(w.b, 1)
	} else {
		w.b = append(w.b, 0)
	}
	w.i(int64(t.ClassID))
	w.u(uint64(t.Attribute))
	w.u(uint64(t.Transform))
	w.i(int64(t.Component))
	w.str(t.Property)
	w.i(int64(t.RotationOrder))
	w.ref(t.Script)
}

func (w *clipWriter) poseSet(p *poseSet) {
	w.set(&p.set)
	w.u(uint64(len(p.rot)))
	for _, j := range p.rot {
		w.u(uint64(j))
	}
	w.u(uint64(len(p.euler)))
	for _, e := range p.euler {
		w.u(uint64(e.joint))
		w.i(int64(e.order))
	}
}

// set writes a curve set: its base values (as many as its slots, which
// the reader knows), then its timelines, solos and dense groups, each
// preceded by its count and the totals of the tables it fills.
func (w *clipWriter) set(s *curveSet) {
	w.f32s(s.base)
	var nt, nc int
	for i := range s.lines {
		nt += int(s.lines[i].n)
		nc += int(s.lines[i].n * s.lines[i].nch)
	}
	w.u(uint64(len(s.lines)))
	w.u(uint64(nt))
	w.u(uint64(len(s.slots)))
	w.u(uint64(nc))
	for i := range s.lines {
		ln := &s.lines[i]
		n, nch := int(ln.n), int(ln.nch)
		w.u(uint64(n))
		w.u(uint64(nch))
		w.i(int64(ln.pre))
		w.i(int64(ln.post))
		if ln.wrap {
			w.b = append(w.b, 1)
		} else {
			w.b = append(w.b, 0)
		}
		w.f32s(s.times[ln.timeOff : int(ln.timeOff)+n])
		for _, sl := range s.slots[ln.slot0 : int(ln.slot0)+nch] {
			w.u(uint64(sl))
		}
		for _, c := range s.coefs[ln.coefOff : int(ln.coefOff)+n*nch] {
			w.f32s(c[:])
		}
	}
	nk := 0
	for i := range s.solos {
		nk += int(s.solos[i].n)
	}
	w.u(uint64(len(s.solos)))
	w.u(uint64(nk))
	for i := range s.solos {
		so := &s.solos[i]
		w.u(uint64(so.slot))
		w.u(uint64(so.n))
		for _, r := range s.recs[so.rec : so.rec+so.n] {
			w.f32(r.T)
			w.f32s(r.C[:])
		}
	}
	if len(s.keymap) > 0 {
		w.u(uint64(s.gridLine.n))
		w.f32s(s.grid[:s.gridLine.n])
	} else {
		w.u(0)
	}
	w.u(uint64(len(s.dense)))
	w.u(uint64(len(s.dslots)))
	w.u(uint64(len(s.dsamp)))
	for i := range s.dense {
		g := &s.dense[i]
		w.f32(g.begin)
		w.f32(g.rate)
		w.u(uint64(g.n))
		w.u(uint64(g.nch))
		for _, sl := range s.dslots[g.slot0 : g.slot0+g.nch] {
			w.u(uint64(sl))
		}
		w.f32s(s.dsamp[g.off : int(g.off)+int(g.n*g.nch)])
	}
}

// UnmarshalClip decodes a clip MarshalBinary encoded, for the skeleton it
// was baked on: the result samples bit for bit as the clip encoded.
//
// The reader trusts nothing: every count is bounded by the bytes that
// remain before anything is allocated for it, every joint, slot and key
// index is checked against what it indexes, key times must be numbers in
// order, and the key indexes and grid the sampler walks are rebuilt from
// the keys, not read. Damaged bytes, or a clip baked on a skeleton of
// other joints, paths, parents or rest pose than s, are a *FormatError;
// another encoding version an *UnsupportedError.
func UnmarshalClip(data []byte, s *Skeleton) (*Clip, error) {
	if s == nil {
		return nil, fmt.Errorf("anim: UnmarshalClip: nil skeleton")
	}
	if len(s.depth) != len(s.Paths) || len(s.Rest) != len(s.Paths) {
		ns, err := NewSkeleton(s.Paths, s.Parents, s.Rest)
		if err != nil {
			return nil, fmt.Errorf("anim: UnmarshalClip: %w", err)
		}
		s = ns
	}
	r := &clipReader{b: data}
	if len(data) > math.MaxInt32 {
		r.fail("%d bytes, over the 2 GiB a clip may take", len(data))
		return nil, r.err
	}
	c := r.clip(s)
	if r.err == nil && r.left() != 0 {
		r.fail("%d bytes after the clip", r.left())
	}
	if r.err != nil {
		return nil, r.err
	}
	return c, nil
}

// clipReader reads an encoded clip, keeping the first error (then reading
// nothing more).
type clipReader struct {
	b    []byte
	off  int
	name string
	err  error
	in   string    // the curve set being read ("" outside one), for errors
	tmp  []float32 // scratch: a solo's key times
}

// label names an item of the curve set being read, for an error.
func (r *clipReader) label(item string) string {
	if r.in == "" {
		return item
	}
	return r.in + " " + item
}

func (r *clipReader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = &FormatError{Clip: r.name, Offset: r.off, Detail: fmt.Sprintf(format, args...)}
	}
}

func (r *clipReader) left() int { return len(r.b) - r.off }

func (r *clipReader) take(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || r.left() < n {
		r.fail("cut short: %d bytes wanted, %d left", n, r.left())
		return nil
	}
	p := r.b[r.off : r.off+n]
	r.off += n
	return p
}

func (r *clipReader) u() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b[r.off:])
	if n <= 0 {
		r.fail("bad unsigned integer")
		return 0
	}
	r.off += n
	return v
}

func (r *clipReader) i() int64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Varint(r.b[r.off:])
	if n <= 0 {
		r.fail("bad integer")
		return 0
	}
	r.off += n
	return v
}

// i32 reads a signed integer that must fit 32 bits.
func (r *clipReader) i32(what string) int32 {
	at := r.off
	v := r.i()
	if v < math.MinInt32 || v > math.MaxInt32 {
		r.off = at
		r.fail("%s %d overflows 32 bits", what, v)
		return 0
	}
	return int32(v)
}

func (r *clipReader) byte(what string, max uint8) uint8 {
	b := r.take(1)
	if b == nil {
		return 0
	}
	if b[0] > max {
		r.off--
		r.fail("%s %d (at most %d)", what, b[0], max)
		return 0
	}
	return b[0]
}

func (r *clipReader) f32() float32 {
	b := r.take(4)
	if b == nil {
		return 0
	}
	return math.Float32frombits(binary.LittleEndian.Uint32(b))
}

// f32s reads n floats into dst (len n).
func (r *clipReader) f32s(dst []float32) {
	b := r.take(4 * len(dst))
	if b == nil {
		return
	}
	for i := range dst {
		dst[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
}

// count reads a count of items of at least min bytes each: more than the
// remaining bytes can hold is damage, so no count allocates more than the
// input describes.
func (r *clipReader) count(min int, what string) int {
	at := r.off
	v := r.u()
	if r.err != nil {
		return 0
	}
	if v > uint64(r.left()/min) {
		r.off = at
		r.fail("%d %s in %d bytes", v, r.label(what), r.left())
		return 0
	}
	return int(v)
}

// index reads an index below n.
func (r *clipReader) index(n int, what string) int {
	at := r.off
	v := r.u()
	if r.err == nil && v >= uint64(n) {
		r.off = at
		r.fail("%s %d out of range [0, %d)", r.label(what), v, n)
		return 0
	}
	return int(v)
}

func (r *clipReader) str(what string) string {
	at := r.off
	n := r.u()
	if r.err != nil {
		return ""
	}
	if n > uint64(r.left()) {
		r.off = at
		r.fail("%s of %d bytes in %d", what, n, r.left())
		return ""
	}
	b := r.take(int(n))
	if len(b) == 0 {
		return ""
	}
	return string(b)
}

func (r *clipReader) ref() model.Ref {
	return model.Ref{FileID: r.i32("file id"), PathID: r.i()}
}

func (r *clipReader) clip(s *Skeleton) *Clip {
	if m := r.take(len(clipMagic)); m == nil || string(m) != clipMagic {
		r.off = 0
		r.err = nil
		r.fail("not a baked clip (no %q)", clipMagic)
		return nil
	}
	if v := r.u(); r.err == nil && v != ClipVersion {
		r.err = &UnsupportedError{Version: v}
		return nil
	}
	nj := s.Len()
	at := r.off
	if n := r.u(); r.err == nil && n != uint64(nj) {
		r.off = at
		r.fail("baked on a skeleton of %d joints, not this one of %d", n, nj)
		return nil
	}
	at = r.off
	if b := r.take(8); b != nil && binary.LittleEndian.Uint64(b) != skeletonFingerprint(s) {
		r.off = at
		r.fail("baked on another skeleton of %d joints (paths, parents or rest pose differ)", nj)
		return nil
	}
	c := &Clip{skel: s}
	c.name = r.str("name")
	if r.err != nil {
		return nil
	}
	r.name = c.name
	c.start, c.length, c.duration, c.rate = r.f32(), r.f32(), r.f32(), r.f32()
	if r.err == nil && !(geom.Finite(c.start) && c.length >= 0 && geom.Finite(c.length) && c.duration > 0 && geom.Finite(c.duration)) {
		r.off -= 16
		r.fail("start %g, length %g, duration %g: numbers, the length >= 0 and the duration > 0", c.start, c.length, c.duration)
		return nil
	}
	c.wrap = model.WrapMode(r.i32("wrap mode"))
	r.settings(&c.settings)
	at = r.off
	if root := r.i(); r.err == nil {
		if root < -1 || root >= int64(nj) {
			r.off = at
			r.fail("root joint %d out of range [-1, %d)", root, nj)
			return nil
		}
		c.root = int(root)
	}
	at = r.off
	left := r.u()
	if left > math.MaxInt32 {
		r.off = at
		r.fail("%d channels left out", left)
		return nil
	}
	c.leftOut = int(left)
	if b := r.take(nj); b != nil {
		c.animated = make([]Props, nj)
		for j, a := range b {
			if a > byte(PropT|PropR|PropS) {
				r.off -= nj - j
				r.fail("joint %d animated properties %#x", j, a)
				return nil
			}
			c.animated[j] = Props(a)
			if a != 0 {
				c.tracks++
			}
		}
	}
	c.pose = r.poseSet(nj, "pose")
	if n := r.count(minTargetBytes, "float tracks"); n > 0 {
		c.floatTargets = make([]model.Target, n)
		for i := range c.floatTargets {
			r.target(&c.floatTargets[i])
		}
	}
	c.floats = r.set(len(c.floatTargets), "float tracks")
	if r.byte("root motion flag", 1) == 1 {
		c.hasMotion = true
		c.motion = r.set(7, "root motion")
	}
	if n := r.count(minTargetBytes+1, "integer tracks"); n > 0 {
		c.ints = make([]model.IntCurve, n)
		for i := range c.ints {
			ic := &c.ints[i]
			r.target(&ic.Target)
			if k := r.count(5, "integer keys"); k > 0 {
				ic.Keys = make([]model.IntKey, k)
				for j := range ic.Keys {
					ic.Keys[j] = model.IntKey{Time: r.f32(), Value: r.i32("integer key")}
				}
			}
		}
	}
	if n := r.count(minTargetBytes, "unresolved targets"); n > 0 {
		c.unresolved = make([]model.Target, n)
		for i := range c.unresolved {
			r.target(&c.unresolved[i])
		}
	}
	if n := r.count(minEventBytes, "events"); n > 0 {
		c.events = make([]model.Event, n)
		for i := range c.events {
			at := r.off
			e := &c.events[i]
			e.Time, e.Function, e.Data = r.f32(), r.str("event function"), r.str("event data")
			e.Object, e.Float, e.Int, e.MessageOptions = r.ref(), r.f32(), r.i32("event int"), r.i32("event options")
			if r.err == nil && i > 0 && e.Time < c.events[i-1].Time {
				r.off = at
				r.fail("event %d at %g after one at %g", i, e.Time, c.events[i-1].Time)
			}
		}
	}
	if r.err != nil {
		return nil
	}
	c.setRoot(c.root)
	return c
}

// The smallest encodings of a target (two empty strings, nine one-byte
// numbers) and of an event (two floats, two empty strings, four
// one-byte numbers).
const (
	minTargetBytes = 11
	minEventBytes  = 14
)

func (r *clipReader) settings(s *model.LoopSettings) {
	at := r.off
	bits := r.u()
	flags := settingsFlags(s)
	if bits>>len(flags) != 0 {
		r.off = at
		r.fail("loop settings %#x", bits)
		return
	}
	for i, f := range flags {
		*f = bits&(1<<i) != 0
	}
	s.CycleOffset, s.OrientationOffsetY, s.Level = r.f32(), r.f32(), r.f32()
}

func (r *clipReader) target(t *model.Target) {
	t.Path = r.str("path")
	at := r.off
	h := r.u()
	if h > math.MaxUint32 {
		r.off = at
		r.fail("path hash %d overflows 32 bits", h)
		return
	}
	t.PathHash = uint32(h)
	t.PathKnown = r.byte("path-known flag", 1) == 1
	t.ClassID = r.i32("class id")
	at = r.off
	a := r.u()
	if a > math.MaxUint32 {
		r.off = at
		r.fail("attribute %d overflows 32 bits", a)
		return
	}
	t.Attribute = uint32(a)
	at = r.off
	p := r.u()
	if p > math.MaxUint8 {
		r.off = at
		r.fail("transform property %d", p)
		return
	}
	t.Transform = model.TransformProp(p)
	t.Component = int(r.i32("component"))
	t.Property = r.str("property")
	t.RotationOrder = geom.EulerOrder(r.i32("rotation order"))
	t.Script = r.ref()
}

func (r *clipReader) poseSet(nj int, what string) poseSet {
	p := poseSet{set: r.set(nj*slotsPerJoint, what)}
	r.in = what
	defer func() { r.in = "" }()
	if n := r.count(1, "normalised joints"); n > 0 {
		p.rot = make([]int32, n)
		for i := range p.rot {
			at := r.off
			p.rot[i] = int32(r.index(nj, "normalised joint"))
			if r.err == nil && i > 0 && p.rot[i] <= p.rot[i-1] {
				r.off = at
				r.fail("%s normalised joints out of order", what)
			}
		}
	}
	if n := r.count(2, "Euler joints"); n > 0 {
		p.euler = make([]eulerJoint, n)
		for i := range p.euler {
			at := r.off
			p.euler[i] = eulerJoint{joint: int32(r.index(nj, "Euler joint"))}
			if r.err == nil && i > 0 && p.euler[i].joint <= p.euler[i-1].joint {
				r.off = at
				r.fail("%s Euler joints out of order", what)
			}
			p.euler[i].order = geom.EulerOrder(r.i32("rotation order"))
		}
	}
	return p
}

// keysInOrder checks that key times are numbers, each at or after the one
// before: what the key lookups (binary search, index walk) rely on.
func (r *clipReader) keysInOrder(times []float32, what string, at int) bool {
	for k, t := range times {
		if t != t || (k > 0 && t < times[k-1]) {
			r.off = at
			r.fail("%s key %d at time %g: key times must be numbers in order", r.label(what), k, t)
			return false
		}
	}
	return true
}

// set reads a curve set of nslots slots and lays it out as setBuilder.build
// does: every table in the builder's order, the key indexes and the solos'
// grid rebuilt from the keys.
func (r *clipReader) set(nslots int, what string) curveSet {
	r.in = what
	defer func() { r.in = "" }()
	var s curveSet
	if r.err != nil {
		return s
	}
	if nslots > 0 {
		if nslots > r.left()/4 {
			r.fail("%s: %d base values in %d bytes", what, nslots, r.left())
			return s
		}
		s.base = make([]float32, nslots)
		r.f32s(s.base)
	}

	// Timelines: n, nch, pre, post, wrap, times, slots, coefficients.
	const minLine = 1 + 1 + 1 + 1 + 1 + 4 + 1 + 16
	nl := r.count(minLine, "timelines")
	nt := r.count(4, "key times")
	ns := r.count(1, "timeline channels")
	nc := r.count(16, "key coefficients")
	if r.err != nil {
		return s
	}
	if nl > 0 {
		s.lines = make([]timeline, 0, nl)
		s.times = make([]float32, 0, nt+nl)
		s.slots = make([]int32, 0, ns)
		s.coefs = make([][4]float32, 0, nc)
	}
	nindex := 0
	for i := 0; i < nl && r.err == nil; i++ {
		at := r.off
		n := r.count(4, "timeline keys")
		nch := r.count(1, "timeline channels")
		if r.err != nil {
			return s
		}
		if n == 0 || nch == 0 || n > nt-(len(s.times)-len(s.lines)) || nch > ns-len(s.slots) || n*nch > nc-len(s.coefs) {
			r.off = at
			r.fail("%s timeline %d of %d keys and %d channels: at least one of each, within the totals", what, i, n, nch)
			return s
		}
		ln := timeline{timeOff: int32(len(s.times)), n: int32(n), idxOff: -1,
			slot0: int32(len(s.slots)), nch: int32(nch), coefOff: int32(len(s.coefs))}
		ln.pre = model.Infinity(r.i32("pre-infinity"))
		ln.post = model.Infinity(r.i32("post-infinity"))
		ln.wrap = r.byte("wrap flag", 1) == 1
		at = r.off
		times := s.times[len(s.times) : len(s.times)+n]
		r.f32s(times)
		if r.err != nil || !r.keysInOrder(times, "timeline", at) {
			return s
		}
		s.times = append(s.times[:len(s.times)+n], sentinel())
		ln.first, ln.last = times[0], times[n-1]
		for k := 0; k < nch; k++ {
			s.slots = append(s.slots, int32(r.index(nslots, "slot")))
		}
		coefs := s.coefs[len(s.coefs) : len(s.coefs)+n*nch]
		if b := r.take(16 * len(coefs)); b != nil {
			for k := range coefs {
				for j := 0; j < 4; j++ {
					coefs[k][j] = math.Float32frombits(binary.LittleEndian.Uint32(b[16*k+4*j:]))
				}
			}
		}
		s.coefs = s.coefs[:len(s.coefs)+n*nch]
		if _, ok := indexSlices(times); ok {
			nindex += n
		}
		s.lines = append(s.lines, ln)
	}
	if r.err == nil && (len(s.times)-len(s.lines) != nt || len(s.slots) != ns || len(s.coefs) != nc) {
		r.fail("%s timelines: %d key times, %d channels and %d coefficients, not the %d, %d and %d announced",
			what, len(s.times)-len(s.lines), len(s.slots), len(s.coefs), nt, ns, nc)
	}

	// Solos: slot, n, keys.
	nso := r.count(1+1+20, "solo channels")
	nk := r.count(20, "solo keys")
	if r.err != nil {
		return s
	}
	if nso > 0 {
		s.solos = make([]solo, 0, nso)
		s.recs = make([]soloKey, 0, nk+nso)
	}
	for i := 0; i < nso && r.err == nil; i++ {
		slot := int32(r.index(nslots, "slot"))
		at := r.off
		n := r.count(20, "solo keys")
		if r.err != nil {
			return s
		}
		if n == 0 || n > nk-(len(s.recs)-len(s.solos)) {
			r.off = at
			r.fail("%s solo %d of %d keys: at least one, within the %d announced", what, i, n, nk)
			return s
		}
		at = r.off
		b := r.take(20 * n)
		if b == nil {
			return s
		}
		so := solo{slot: slot, n: int32(n), idxOff: -1, rec: int32(len(s.recs))}
		if cap(r.tmp) < n {
			r.tmp = make([]float32, n)
		}
		times := r.tmp[:n]
		for k := 0; k < n; k++ {
			var rec soloKey
			rec.T = math.Float32frombits(binary.LittleEndian.Uint32(b[20*k:]))
			for j := 0; j < 4; j++ {
				rec.C[j] = math.Float32frombits(binary.LittleEndian.Uint32(b[20*k+4+4*j:]))
			}
			times[k] = rec.T
			s.recs = append(s.recs, rec)
		}
		if !r.keysInOrder(times, "solo", at) {
			return s
		}
		s.recs = append(s.recs, soloKey{T: sentinel()})
		so.first = times[0]
		s.solos = append(s.solos, so)
	}
	if r.err == nil && len(s.recs)-len(s.solos) != nk {
		r.fail("%s solos: %d keys, not the %d announced", what, len(s.recs)-len(s.solos), nk)
	}
	if ng := r.count(4, "grid times"); ng > 0 {
		at := r.off
		grid := make([]float32, ng)
		r.f32s(grid)
		if r.err != nil || !r.gridOfSolos(&s, grid, nk, what, at) {
			return s
		}
		s.layGrid(grid)
	}

	// Dense groups: begin, rate, n, nch, slots, samples.
	ng := r.count(4+4+1+1+1+4, "dense groups")
	nds := r.count(1, "dense channels")
	nsa := r.count(4, "dense samples")
	if r.err != nil {
		return s
	}
	if ng > 0 {
		s.dense = make([]denseGroup, 0, ng)
		s.dslots = make([]int32, 0, nds)
		s.dsamp = make([]float32, nsa)
	}
	used := 0
	for i := 0; i < ng && r.err == nil; i++ {
		g := denseGroup{begin: r.f32(), rate: r.f32()}
		at := r.off
		n := r.count(4, "dense frames")
		nch := r.count(1, "dense channels")
		if r.err != nil {
			return s
		}
		if n == 0 || nch == 0 || nch > nds-len(s.dslots) || n*nch > nsa-used {
			r.off = at
			r.fail("%s dense group %d of %d frames and %d channels: at least one of each, within the totals", what, i, n, nch)
			return s
		}
		g.n, g.nch, g.slot0, g.off = int32(n), int32(nch), int32(len(s.dslots)), int32(used)
		for k := 0; k < nch; k++ {
			s.dslots = append(s.dslots, int32(r.index(nslots, "slot")))
		}
		r.f32s(s.dsamp[used : used+n*nch])
		used += n * nch
		s.dense = append(s.dense, g)
	}
	if r.err == nil && (len(s.dslots) != nds || used != nsa) {
		r.fail("%s dense groups: %d channels and %d samples, not the %d and %d announced", what, len(s.dslots), used, nds, nsa)
	}
	if r.err != nil {
		return s
	}

	// What build derives: the key indexes, in its order.
	if len(s.keymap) == 0 {
		for i := range s.solos {
			if _, ok := indexSlices(r.soloTimes(&s, &s.solos[i])); ok {
				nindex += int(s.solos[i].n)
			}
		}
	}
	if nindex > 0 {
		s.index = make([]int32, 0, nindex)
	}
	for i := range s.lines {
		ln := &s.lines[i]
		if idx, inv, ok := buildIndex(s.times[ln.timeOff:ln.timeOff+ln.n], len(s.index), &s.index); ok {
			ln.idxOff, ln.invSlot = int32(idx), inv
		}
	}
	if len(s.keymap) == 0 {
		for i := range s.solos {
			so := &s.solos[i]
			if idx, inv, ok := buildIndex(r.soloTimes(&s, so), len(s.index), &s.index); ok {
				so.idxOff, so.invSlot = int32(idx), inv
			}
		}
	}
	s.trim()
	return s
}

// gridOfSolos checks that grid is what setBuilder.build makes the solos'
// grid of: the sorted, distinct union of their key times, for at least two
// solos of at most 65,535 keys each, within gridBudget entries of the key
// map per key. (A set saved without a grid has its solos looked up one by
// one, which gives the same values.)
func (r *clipReader) gridOfSolos(s *curveSet, grid []float32, nk int, what string, at int) bool {
	ns := len(s.solos)
	fail := func(format string, args ...any) bool {
		r.off = at
		r.fail("%s grid of %d times: "+format, append([]any{what, len(grid)}, args...)...)
		return false
	}
	if ns < 2 || len(grid) > gridBudget*nk/ns {
		return fail("%d solos of %d keys cannot have it", ns, nk)
	}
	for g, x := range grid {
		if x != x || (g > 0 && !(x > grid[g-1])) {
			return fail("time %d (%g) is not a number after the one before", g, x)
		}
	}
	used := make([]bool, len(grid))
	for i := range s.solos {
		so := &s.solos[i]
		if so.n > math.MaxUint16 {
			return fail("solo %d has %d keys", i, so.n)
		}
		g := 0
		for _, rec := range s.recs[so.rec : so.rec+so.n] {
			for g < len(grid) && grid[g] < rec.T {
				g++
			}
			if g == len(grid) || grid[g] != rec.T {
				return fail("solo %d's key at %g is not in it", i, rec.T)
			}
			used[g] = true
		}
	}
	for g, u := range used {
		if !u {
			return fail("time %d (%g) is no solo's key", g, grid[g])
		}
	}
	return true
}

// soloTimes returns a solo's key times (in the reader's scratch).
func (r *clipReader) soloTimes(s *curveSet, so *solo) []float32 {
	n := int(so.n)
	if cap(r.tmp) < n {
		r.tmp = make([]float32, n)
	}
	times := r.tmp[:n]
	for k, rec := range s.recs[so.rec : so.rec+so.n] {
		times[k] = rec.T
	}
	return times
}
