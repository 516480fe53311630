package animator

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"hash/fnv"
	"math"

	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
)

// Snapshot errors. A FormatError unwraps to ErrBadSnapshot, an
// UnsupportedError to ErrSnapshotVersion.
var (
	// ErrBadSnapshot reports snapshot bytes that are damaged: cut short,
	// altered (their checksum fails) or not a snapshot.
	ErrBadSnapshot = errors.New("animator: damaged snapshot")
	// ErrSnapshotVersion reports a snapshot written by a newer format
	// version than this build reads.
	ErrSnapshotVersion = errors.New("animator: unsupported snapshot version")
	// ErrOtherController reports a snapshot restored onto an Animator of a
	// controller of another shape (parameters, layers, states, transitions
	// or clip events differ), or naming states or events it lacks.
	ErrOtherController = errors.New("animator: snapshot of another controller")
)

// FormatError says where snapshot bytes are damaged and how.
type FormatError struct {
	Offset int // byte offset in the snapshot
	Detail string
}

// Error describes the damage and its offset.
func (e *FormatError) Error() string {
	return fmt.Sprintf("%v at byte %d: %s", ErrBadSnapshot, e.Offset, e.Detail)
}

// Unwrap returns ErrBadSnapshot.
func (e *FormatError) Unwrap() error { return ErrBadSnapshot }

// UnsupportedError says which snapshot version a build cannot read.
type UnsupportedError struct {
	Version int
}

// Error names the version.
func (e *UnsupportedError) Error() string {
	return fmt.Sprintf("%v %d (this build reads %d)", ErrSnapshotVersion, e.Version, SnapshotVersion)
}

// Unwrap returns ErrSnapshotVersion.
func (e *UnsupportedError) Unwrap() error { return ErrSnapshotVersion }

// SnapshotVersion is the version of the snapshot format MarshalBinary
// writes.
const SnapshotVersion = 1

// snapshotMagic starts every encoded snapshot.
const snapshotMagic = "MCAS"

// Snapshot is an Animator's whole state at one moment: parameter values
// (triggers not yet consumed included), per layer the current and next
// states with their float64 clocks, a running transition's progress, the
// frozen pose of an interrupted one, the layer weights, and what the last
// tick reported (events, root motion) and the time ticked. Restoring it
// into an Animator of the same controller and feeding the same inputs gives
// bit-identical results to the Animator it was taken from.
//
// A Snapshot is a plain value owned by its user: Animator.Snapshot fills
// one (reusing its buffers, so recording every tick allocates nothing once
// they have grown), MarshalBinary encodes it in a small versioned,
// checksummed form, UnmarshalBinary decodes that (an error for damaged
// bytes, never a panic). It refers to nothing of the Animator, so it may be
// kept, sent to another process, or posed later (see History).
type Snapshot struct {
	shape  uint64
	time   float64
	rootT  geom.Vec3
	rootR  geom.Quat
	params []float64
	// consumed is kept for completeness: triggers used by a tick are
	// released at its end, so it is all false between calls.
	consumed []bool
	layers   []layerState
	events   []snapEvent
}

// snapEvent is an Event with its event named by index in its clip's
// events, so that a snapshot points into no Definition.
type snapEvent struct {
	layer, state, clip int32
	w, lw              float32
	index              int32
}

// Time returns the time the Animator had ticked when the snapshot was
// taken, in seconds.
func (s *Snapshot) Time() float64 { return s.time }

// Snapshot copies a's whole state into s, reusing s's buffers. It does not
// touch a and, once s's buffers have grown, does not allocate.
func (a *Animator) Snapshot(s *Snapshot) {
	s.shape, s.time, s.rootT, s.rootR = a.def.shape, a.time, a.rootT, a.rootR
	s.params = append(s.params[:0], a.params...)
	s.consumed = append(s.consumed[:0], a.consumed...)
	s.layers = append(s.layers[:0], a.layers...)
	for i := range s.layers {
		normalizeLayer(&s.layers[i])
	}
	s.events = s.events[:0]
	for _, e := range a.events {
		idx := int32(-1)
		evs := a.def.clip(e.Clip).Events
		for i := range evs {
			if &evs[i] == e.Event {
				idx = int32(i)
				break
			}
		}
		s.events = append(s.events, snapEvent{layer: int32(e.Layer), state: int32(e.State), clip: int32(e.Clip),
			w: e.Weight, lw: e.LayerWeight, index: idx})
	}
}

// normalizeLayer clears what a layer keeps but never reads again: the
// fields of a transition that is not running, the frozen slots past
// nFrozen, and the last tick's per-layer root motion (combined into the
// Animator's). Two states that differ only there behave the same, and now
// encode the same.
func normalizeLayer(l *layerState) {
	if !l.inTrans {
		l.next = slot{state: -1}
		l.trans, l.progress, l.fade = transRef{}, 0, 0
	} else if l.trans.from != crossFade {
		l.fade = 0
	}
	if !l.srcFrozen {
		l.nFrozen = 0
	}
	for i := int(l.nFrozen); i < maxFrozen; i++ {
		l.frozen[i] = frozenSlot{}
	}
	l.rootT, l.rootQ, l.rootW = geom.Vec3{}, geom.Quat{}, 0
}

// Restore sets a's whole state to s. It fails, leaving a as it was, when s
// was taken from an Animator of a controller of another shape or names
// states, transitions or events a's controller lacks (ErrOtherController).
// It does not allocate beyond growing a's event buffer.
func (a *Animator) Restore(s *Snapshot) error {
	if err := a.check(s); err != nil {
		return err
	}
	a.time, a.rootT, a.rootR = s.time, s.rootT, s.rootR
	copy(a.params, s.params)
	copy(a.consumed, s.consumed)
	copy(a.layers, s.layers)
	a.events = a.events[:0]
	for _, e := range s.events {
		a.events = append(a.events, Event{Layer: int(e.layer), State: int(e.state), Clip: int(e.clip),
			Weight: e.w, LayerWeight: e.lw, Event: &a.def.clip(int(e.clip)).Events[e.index]})
	}
	return nil
}

// check reports whether s fits a's controller: its shape, and every index
// it holds in range, so that ticking and posing after a restore cannot go
// out of bounds.
func (a *Animator) check(s *Snapshot) error {
	d := a.def
	if s.shape != d.shape {
		return fmt.Errorf("%w: shape %016x, the animator's controller %q has %016x", ErrOtherController, s.shape, d.c.Name, d.shape)
	}
	if len(s.params) != len(a.params) || len(s.consumed) != len(a.consumed) || len(s.layers) != len(a.layers) {
		return fmt.Errorf("%w: %d parameters and %d layers, controller %q has %d and %d", ErrOtherController,
			len(s.params), len(s.layers), d.c.Name, len(a.params), len(a.layers))
	}
	for li := range s.layers {
		l := &s.layers[li]
		m := &d.c.StateMachines[d.machine[li]]
		ns := int32(len(m.States))
		bad := func(what string, v int32) error {
			return fmt.Errorf("%w: layer %d: %s %d out of range (controller %q)", ErrOtherController, li, what, v, d.c.Name)
		}
		if l.cur.state < -1 || l.cur.state >= ns {
			return bad("state", l.cur.state)
		}
		if l.nFrozen > maxFrozen {
			return bad("frozen states", int32(l.nFrozen))
		}
		for i := 0; i < int(l.nFrozen); i++ {
			if f := l.frozen[i].state; f < -1 || f >= ns {
				return bad("frozen state", f)
			}
		}
		if !l.inTrans {
			if l.srcFrozen {
				return bad("frozen states without a transition", int32(l.nFrozen))
			}
			continue
		}
		if l.cur.state < 0 {
			return bad("state", l.cur.state)
		}
		if l.next.state < 0 || l.next.state >= ns {
			return bad("next state", l.next.state)
		}
		switch r := l.trans; {
		case r.from == crossFade:
		case r.from == -1:
			if r.index < 0 || int(r.index) >= len(m.AnyState) {
				return bad("any-state transition", r.index)
			}
		case r.from >= 0 && r.from < ns:
			if r.index < 0 || int(r.index) >= len(m.States[r.from].Transitions) {
				return bad("transition", r.index)
			}
		default:
			return bad("transition source", r.from)
		}
	}
	for _, e := range s.events {
		if e.layer < 0 || int(e.layer) >= len(a.layers) || e.clip < 0 || int(e.clip) >= len(d.clips) ||
			e.index < 0 || int(e.index) >= len(d.clips[e.clip].Events) {
			return fmt.Errorf("%w: event %d of clip %d on layer %d out of range (controller %q)", ErrOtherController, e.index, e.clip, e.layer, d.c.Name)
		}
	}
	return nil
}

// MarshalBinary returns a's whole state in the snapshot format (see
// Snapshot.MarshalBinary).
func (a *Animator) MarshalBinary() ([]byte, error) {
	var s Snapshot
	a.Snapshot(&s)
	return s.AppendBinary(nil)
}

// UnmarshalBinary restores a's whole state from b, written by
// MarshalBinary of an Animator of the same controller: a FormatError for
// damaged bytes, an UnsupportedError for a newer format,
// ErrOtherController for another controller's state. On error a is left
// as it was.
func (a *Animator) UnmarshalBinary(b []byte) error {
	var s Snapshot
	if err := s.UnmarshalBinary(b); err != nil {
		return err
	}
	return a.Restore(&s)
}

// MarshalBinary encodes s: a magic, the format version, the controller's
// shape, then the state (float64 and float32 values as their bits, so NaN
// and -0 survive), ended by a CRC-32 of everything before it.
func (s *Snapshot) MarshalBinary() ([]byte, error) { return s.AppendBinary(nil) }

// Layer flag bits in the encoding.
const (
	flagInTrans = 1 << iota
	flagSrcFrozen
	flagCurFresh
	flagCurFirst
	flagNextFresh
	flagNextFirst
	flagsKnown = 1<<iota - 1
)

// AppendBinary appends s's encoding (see MarshalBinary) to b; with enough
// capacity in b it does not allocate.
func (s *Snapshot) AppendBinary(b []byte) ([]byte, error) {
	start := len(b)
	b = append(b, snapshotMagic...)
	b = append(b, SnapshotVersion)
	b = binary.LittleEndian.AppendUint64(b, s.shape)
	b = appendF64(b, s.time)
	b = appendVec(b, s.rootT)
	b = appendQuat(b, s.rootR)
	b = binary.AppendUvarint(b, uint64(len(s.params)))
	for _, p := range s.params {
		b = appendF64(b, p)
	}
	b = appendBits(b, s.consumed)
	b = binary.AppendUvarint(b, uint64(len(s.layers)))
	for i := range s.layers {
		l := &s.layers[i]
		var f byte
		for bit, on := range []bool{l.inTrans, l.srcFrozen, l.cur.fresh, l.cur.first, l.next.fresh, l.next.first} {
			if on {
				f |= 1 << bit
			}
		}
		b = append(b, f)
		b = appendSlot(b, &l.cur)
		b = appendF32(b, l.weight)
		if l.inTrans {
			b = appendSlot(b, &l.next)
			b = binary.AppendVarint(b, int64(l.trans.from))
			b = binary.AppendVarint(b, int64(l.trans.index))
			b = appendF32(b, l.progress)
			b = appendF32(b, l.fade)
		}
		n := l.nFrozen
		if !l.srcFrozen {
			n = 0
		}
		b = append(b, n)
		for _, fr := range l.frozen[:n] {
			b = binary.AppendVarint(b, int64(fr.state))
			b = appendF64(b, fr.nt)
			b = appendF32(b, fr.w)
		}
	}
	b = binary.AppendUvarint(b, uint64(len(s.events)))
	for _, e := range s.events {
		for _, v := range []int32{e.layer, e.state, e.clip} {
			b = binary.AppendVarint(b, int64(v))
		}
		b = appendF32(b, e.w)
		b = appendF32(b, e.lw)
		b = binary.AppendVarint(b, int64(e.index))
	}
	return binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b[start:])), nil
}

func appendF64(b []byte, v float64) []byte {
	return binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
}
func appendF32(b []byte, v float32) []byte {
	return binary.LittleEndian.AppendUint32(b, math.Float32bits(v))
}
func appendVec(b []byte, v geom.Vec3) []byte {
	return appendF32(appendF32(appendF32(b, v.X), v.Y), v.Z)
}
func appendQuat(b []byte, q geom.Quat) []byte {
	return appendF32(appendF32(appendF32(appendF32(b, q.X), q.Y), q.Z), q.W)
}
func appendSlot(b []byte, s *slot) []byte {
	b = binary.AppendVarint(b, int64(s.state))
	return appendF64(appendF64(b, s.nt), s.prev)
}
func appendBits(b []byte, v []bool) []byte {
	for i := 0; i < len(v); i += 8 {
		var x byte
		for k := 0; k < 8 && i+k < len(v); k++ {
			if v[i+k] {
				x |= 1 << k
			}
		}
		b = append(b, x)
	}
	return b
}

// UnmarshalBinary decodes a snapshot written by MarshalBinary into s: a
// FormatError (with the offset) for bytes cut short, altered or not a
// snapshot, an UnsupportedError for a newer format version. It allocates
// no more than the bytes given can describe; on error s is unchanged.
func (s *Snapshot) UnmarshalBinary(data []byte) error {
	const head = len(snapshotMagic) + 1
	if len(data) < head+4 || string(data[:len(snapshotMagic)]) != snapshotMagic {
		return &FormatError{Offset: 0, Detail: "not a snapshot (no " + snapshotMagic + " header)"}
	}
	if v := int(data[len(snapshotMagic)]); v != SnapshotVersion {
		if v > SnapshotVersion {
			return &UnsupportedError{Version: v}
		}
		return &FormatError{Offset: len(snapshotMagic), Detail: fmt.Sprintf("version %d", v)}
	}
	body := data[:len(data)-4]
	if want, got := binary.LittleEndian.Uint32(data[len(body):]), crc32.ChecksumIEEE(body); want != got {
		return &FormatError{Offset: len(body), Detail: fmt.Sprintf("checksum %08x, bytes give %08x", want, got)}
	}
	r := snapReader{b: body, off: head}
	var t Snapshot
	t.shape = r.u64()
	t.time = r.f64()
	t.rootT = r.vec()
	t.rootR = r.quat()
	np := r.count(8, "parameters")
	t.params = make([]float64, np)
	for i := range t.params {
		t.params[i] = r.f64()
	}
	t.consumed = make([]bool, np)
	for i := 0; i < np; i += 8 {
		x := r.byte()
		for k := 0; k < 8; k++ {
			on := x&(1<<k) != 0
			if i+k < np {
				t.consumed[i+k] = on
			} else if on {
				r.fail("consumed bits past the parameters")
			}
		}
	}
	nl := r.count(1+1+16+4+1, "layers")
	t.layers = make([]layerState, nl)
	for i := range t.layers {
		l := &t.layers[i]
		f := r.byte()
		if f&^flagsKnown != 0 {
			r.fail(fmt.Sprintf("layer %d: unknown flags %#x", i, f))
		}
		l.inTrans, l.srcFrozen = f&flagInTrans != 0, f&flagSrcFrozen != 0
		l.cur = r.slot(f&flagCurFresh != 0, f&flagCurFirst != 0)
		l.weight = r.f32()
		l.next = slot{state: -1}
		if l.inTrans {
			l.next = r.slot(f&flagNextFresh != 0, f&flagNextFirst != 0)
			l.trans = transRef{from: r.i32(), index: r.i32()}
			l.progress, l.fade = r.f32(), r.f32()
		} else if f&(flagNextFresh|flagNextFirst) != 0 {
			r.fail(fmt.Sprintf("layer %d: a next state without a transition", i))
		}
		n := r.byte()
		if n > maxFrozen || (n > 0) != l.srcFrozen {
			r.fail(fmt.Sprintf("layer %d: %d frozen states", i, n))
			n = 0
		}
		l.nFrozen = n
		for k := 0; k < int(n); k++ {
			l.frozen[k] = frozenSlot{state: r.i32(), nt: r.f64(), w: r.f32()}
		}
	}
	ne := r.count(3+4+4+1, "events")
	t.events = make([]snapEvent, ne)
	for i := range t.events {
		t.events[i] = snapEvent{layer: r.i32(), state: r.i32(), clip: r.i32(), w: r.f32(), lw: r.f32(), index: r.i32()}
	}
	if r.err == nil && r.off != len(body) {
		r.fail(fmt.Sprintf("%d bytes after the state", len(body)-r.off))
	}
	if r.err != nil {
		return r.err
	}
	*s = t
	return nil
}

// snapReader reads a snapshot's fields, recording the first error (then
// reading zeros) so that decoding code stays linear.
type snapReader struct {
	b   []byte
	off int
	err error
}

func (r *snapReader) fail(detail string) {
	if r.err == nil {
		r.err = &FormatError{Offset: r.off, Detail: detail}
	}
}

func (r *snapReader) take(n int) []byte {
	if r.err != nil || len(r.b)-r.off < n {
		r.fail("cut short")
		return make([]byte, n)
	}
	p := r.b[r.off : r.off+n]
	r.off += n
	return p
}

func (r *snapReader) byte() byte   { return r.take(1)[0] }
func (r *snapReader) u64() uint64  { return binary.LittleEndian.Uint64(r.take(8)) }
func (r *snapReader) f64() float64 { return math.Float64frombits(r.u64()) }
func (r *snapReader) f32() float32 {
	return math.Float32frombits(binary.LittleEndian.Uint32(r.take(4)))
}
func (r *snapReader) vec() geom.Vec3 { return geom.Vec3{X: r.f32(), Y: r.f32(), Z: r.f32()} }
func (r *snapReader) quat() geom.Quat {
	return geom.Quat{X: r.f32(), Y: r.f32(), Z: r.f32(), W: r.f32()}
}

func (r *snapReader) slot(fresh, first bool) slot {
	return slot{state: r.i32(), nt: r.f64(), prev: r.f64(), fresh: fresh, first: first}
}

func (r *snapReader) i32() int32 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Varint(r.b[r.off:])
	if n <= 0 || v < math.MinInt32 || v > math.MaxInt32 {
		r.fail("bad integer")
		return 0
	}
	r.off += n
	return int32(v)
}

// count reads a count of items of at least min bytes each, bounded by the
// bytes left, so that no count allocates more than the input describes.
func (r *snapReader) count(min int, what string) int {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b[r.off:])
	if n <= 0 {
		r.fail("bad count of " + what)
		return 0
	}
	if v > uint64((len(r.b)-r.off-n)/min) {
		r.fail(fmt.Sprintf("%d %s in %d bytes", v, what, len(r.b)-r.off-n))
		return 0
	}
	r.off += n
	return int(v)
}

// shapeOf hashes what a snapshot's indexes refer to: the parameters (types
// and names), the layers (machines, syncing), each machine's states and
// their transitions, the any-state transitions, and each clip's events. An
// Animator restores only snapshots of its own shape.
func shapeOf(c *model.Controller, clips []Clip) uint64 {
	h := fnv.New64a()
	var buf []byte
	put := func(vs ...int) {
		buf = buf[:0]
		for _, v := range vs {
			buf = binary.AppendVarint(buf, int64(v))
		}
		h.Write(buf)
	}
	put(len(c.Parameters))
	for _, p := range c.Parameters {
		put(int(p.Type), int(model.PathHash(p.Name)))
	}
	put(len(c.Layers))
	for _, l := range c.Layers {
		put(l.StateMachine, l.SyncedLayer, l.MotionSet)
	}
	put(len(c.StateMachines))
	for _, m := range c.StateMachines {
		put(len(m.States), len(m.AnyState))
		for _, s := range m.States {
			put(int(s.NameHash), len(s.Transitions))
		}
	}
	put(len(clips))
	for _, cl := range clips {
		put(len(cl.Events))
	}
	return h.Sum64()
}
