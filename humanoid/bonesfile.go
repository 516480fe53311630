package humanoid

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"hash/fnv"
	"math"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/geom"
)

// Saved Bones: MarshalBinary writes them, UnmarshalBones reads them back
// for the rig they were baked on. The form, little-endian: "MCBN", the
// version (uint16), a zero uint16, the rig's fingerprint (joint count
// uint32, uint64 hash of its skeleton and human scale), the name (uint32
// length, bytes), length and duration (float32), the tolerances and the
// fit's largest errors (float64 each), the unresolved intervals (uint32
// count, float32 pairs), per joint what the clip drives (a byte), the key
// time table (uint32 count, float32 each), the constants (uint32 count;
// joint uint32, property byte, four float32), the tracks (uint32 count,
// then the root motion's two; each joint int32, property and encoding
// bytes, key count uint32, range lo and step (three float32 each), key
// time indices (uint16 each), values (uint16 words)), and a CRC-32 (IEEE)
// of everything before it.

// BonesVersion is the version of the form MarshalBinary writes.
const BonesVersion = 1

const bonesMagic = "MCBN"

var (
	// ErrBadBones reports saved bones that are damaged (see FormatError).
	ErrBadBones = errors.New("humanoid: damaged saved bones")
	// ErrBonesVersion reports saved bones of a version this build does
	// not read (see UnsupportedError).
	ErrBonesVersion = errors.New("humanoid: unsupported saved bones version")
	// ErrOtherRig reports saved bones loaded for a rig other than the one
	// they were baked on (another skeleton, rest pose or human scale).
	ErrOtherRig = errors.New("humanoid: saved bones of another rig")
)

// FormatError says where saved bones are damaged and how.
type FormatError struct {
	Offset int // byte offset in the saved bones
	Detail string
}

// Error describes the damage and its offset.
func (e *FormatError) Error() string {
	return fmt.Sprintf("%v at byte %d: %s", ErrBadBones, e.Offset, e.Detail)
}

// Unwrap returns ErrBadBones.
func (e *FormatError) Unwrap() error { return ErrBadBones }

// UnsupportedError names the saved bones' version a build cannot read.
type UnsupportedError struct {
	Version int
}

// Error names the version.
func (e *UnsupportedError) Error() string {
	return fmt.Sprintf("%v %d (this build reads %d)", ErrBonesVersion, e.Version, BonesVersion)
}

// Unwrap returns ErrBonesVersion.
func (e *UnsupportedError) Unwrap() error { return ErrBonesVersion }

// rigPrint fingerprints what sampling Bones reads of a rig: its
// skeleton's paths, parents and rest pose, and its human scale.
func rigPrint(r *Rig) uint64 {
	h := fnv.New64a()
	var buf [4]byte
	put := func(x uint32) {
		binary.LittleEndian.PutUint32(buf[:], x)
		h.Write(buf[:])
	}
	sk := r.skel
	put(uint32(sk.Len()))
	for j := 0; j < sk.Len(); j++ {
		put(uint32(len(sk.Paths[j])))
		h.Write([]byte(sk.Paths[j]))
		put(uint32(int32(sk.Parents[j])))
		if j < len(sk.Rest) {
			tr := sk.Rest[j]
			for _, x := range [...]float32{tr.T.X, tr.T.Y, tr.T.Z, tr.R.X, tr.R.Y, tr.R.Z, tr.R.W, tr.S.X, tr.S.Y, tr.S.Z} {
				put(math.Float32bits(x))
			}
		}
	}
	put(math.Float32bits(r.scale))
	return h.Sum64()
}

// MarshalBinary encodes the bones in the saved form (see BonesVersion);
// UnmarshalBones reads it back.
func (b *Bones) MarshalBinary() ([]byte, error) {
	d := &b.data
	out := make([]byte, 0, 256+len(b.name)+len(b.animated)+4*len(d.times)+25*len(b.consts)+
		len(b.tracks)*34+2*len(d.ktime)+2*len(d.vals))
	le := binary.LittleEndian
	u16 := func(x uint16) { out = le.AppendUint16(out, x) }
	u32 := func(x uint32) { out = le.AppendUint32(out, x) }
	f32 := func(x float32) { u32(math.Float32bits(x)) }
	f64 := func(x float64) { out = le.AppendUint64(out, math.Float64bits(x)) }
	out = append(out, bonesMagic...)
	u16(BonesVersion)
	u16(0)
	u32(uint32(b.rig.Len()))
	out = le.AppendUint64(out, rigPrint(b.rig))
	u32(uint32(len(b.name)))
	out = append(out, b.name...)
	f32(b.length)
	f32(b.duration)
	f64(b.tol.deg)
	f64(b.tol.reach)
	f64(b.tol.t)
	f64(b.stats.MaxErrorDeg)
	f64(b.stats.MaxErrorT)
	u32(uint32(len(b.jumps)))
	for _, j := range b.jumps {
		f32(j[0])
		f32(j[1])
	}
	for _, a := range b.animated {
		out = append(out, byte(a))
	}
	u32(uint32(len(d.times)))
	for _, t := range d.times {
		f32(t)
	}
	u32(uint32(len(b.consts)))
	for _, c := range b.consts {
		u32(uint32(c.joint))
		out = append(out, c.prop)
		for _, x := range c.v {
			f32(x)
		}
	}
	u32(uint32(len(b.tracks)))
	for _, set := range [][]boneTrack{b.tracks, b.root[:]} {
		for i := range set {
			tr := &set[i]
			u32(uint32(tr.joint))
			out = append(out, tr.prop, tr.enc)
			u32(uint32(tr.n))
			for _, x := range tr.lo {
				f32(x)
			}
			for _, x := range tr.step {
				f32(x)
			}
			for _, k := range d.ktime[tr.key : tr.key+tr.n] {
				u16(k)
			}
			w := int(tr.n) * encWords[tr.enc]
			for _, x := range d.vals[tr.val : int(tr.val)+w] {
				u16(x)
			}
		}
	}
	u32(crc32.ChecksumIEEE(out))
	return out, nil
}

// bonesReader reads saved bones, remembering where it is for errors.
type bonesReader struct {
	data []byte
	off  int
	err  error
}

func (r *bonesReader) fail(at int, format string, args ...any) {
	if r.err == nil {
		r.err = &FormatError{Offset: at, Detail: fmt.Sprintf(format, args...)}
	}
}

// take returns the next n bytes, or nil (and an error) when fewer are
// left.
func (r *bonesReader) take(n int, what string) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || n > len(r.data)-r.off {
		r.fail(r.off, "%s: %d bytes past the end (%d left)", what, n, len(r.data)-r.off)
		return nil
	}
	p := r.data[r.off : r.off+n]
	r.off += n
	return p
}

func (r *bonesReader) u8(what string) uint8 {
	if p := r.take(1, what); p != nil {
		return p[0]
	}
	return 0
}

func (r *bonesReader) u16(what string) uint16 {
	if p := r.take(2, what); p != nil {
		return binary.LittleEndian.Uint16(p)
	}
	return 0
}

func (r *bonesReader) u32(what string) uint32 {
	if p := r.take(4, what); p != nil {
		return binary.LittleEndian.Uint32(p)
	}
	return 0
}

func (r *bonesReader) u64(what string) uint64 {
	if p := r.take(8, what); p != nil {
		return binary.LittleEndian.Uint64(p)
	}
	return 0
}

// f32 reads a float32 that must be a finite number.
func (r *bonesReader) f32(what string) float32 {
	at := r.off
	x := math.Float32frombits(r.u32(what))
	if !geom.Finite(x) {
		r.fail(at, "%s is %v", what, x)
		return 0
	}
	return x
}

// f64 reads a float64 that must be a finite number, not negative.
func (r *bonesReader) f64(what string) float64 {
	at := r.off
	x := math.Float64frombits(r.u64(what))
	if !(x >= 0) || math.IsInf(x, 0) {
		r.fail(at, "%s is %v", what, x)
		return 0
	}
	return x
}

// count reads a count of items of at least size bytes each, which the
// bytes left must hold.
func (r *bonesReader) count(size int, what string) int {
	at := r.off
	n := int(r.u32(what))
	if r.err == nil && n > (len(r.data)-r.off)/size {
		r.fail(at, "%s: %d, more than the %d bytes left hold", what, n, len(r.data)-r.off)
		return 0
	}
	return n
}

// UnmarshalBones reads bones that MarshalBinary saved, for the rig they
// were baked on: they sample bit-identically to the bones saved. Damaged
// bytes give a *FormatError (ErrBadBones), a newer version an
// *UnsupportedError (ErrBonesVersion), another rig ErrOtherRig.
func UnmarshalBones(data []byte, rig *Rig) (*Bones, error) {
	if rig == nil {
		return nil, fmt.Errorf("humanoid: UnmarshalBones: nil rig")
	}
	r := &bonesReader{data: data}
	if string(r.take(4, "magic")) != bonesMagic {
		if r.err == nil {
			r.fail(0, "not saved bones (magic %q)", data[:4])
		}
		return nil, r.err
	}
	if v := r.u16("version"); r.err == nil && v != BonesVersion {
		return nil, &UnsupportedError{Version: int(v)}
	}
	if len(data) >= 4 && r.err == nil {
		body := len(data) - 4
		if body < r.off {
			r.fail(r.off, "too short for its checksum")
		} else if want, got := binary.LittleEndian.Uint32(data[body:]), crc32.ChecksumIEEE(data[:body]); want != got {
			r.fail(body, "checksum %08x, the bytes give %08x", want, got)
		} else {
			r.data = data[:body]
		}
	}
	if f := r.u16("flags"); f != 0 {
		r.fail(r.off-2, "flags %#x (none are defined)", f)
	}
	joints := int(r.u32("joint count"))
	fp := r.u64("rig fingerprint")
	if r.err != nil {
		return nil, r.err
	}
	if joints != rig.Len() || fp != rigPrint(rig) {
		return nil, fmt.Errorf("%w: saved for %d joints, avatar %q has %d (or another skeleton, rest pose or scale)", ErrOtherRig, joints, rig.name, rig.Len())
	}
	b := &Bones{rig: rig}
	b.name = string(r.take(r.count(1, "name length"), "name"))
	b.length = r.f32("length")
	b.duration = r.f32("duration")
	if at := r.off; r.err == nil && (b.length < 0 || !(b.duration > 0)) {
		r.fail(at, "length %v, duration %v", b.length, b.duration)
	}
	b.tol = bonesTol{r.f64("rotation tolerance"), r.f64("reach tolerance"), r.f64("translation tolerance")}
	b.stats.MaxErrorDeg = r.f64("largest rotation error")
	b.stats.MaxErrorT = r.f64("largest translation error")
	if n := r.count(8, "unresolved intervals"); n > 0 {
		b.jumps = make([][2]float32, n)
		for i := range b.jumps {
			b.jumps[i] = [2]float32{r.f32("interval start"), r.f32("interval end")}
			b.stats.UnresolvedTime += b.jumps[i][1] - b.jumps[i][0]
		}
	}
	b.stats.Unresolved = len(b.jumps)
	if p := r.take(joints, "driven properties"); p != nil {
		b.animated = make([]anim.Props, joints)
		for j, x := range p {
			if x > byte(anim.PropT|anim.PropR|anim.PropS) {
				r.fail(r.off-joints+j, "joint %d: properties %#x", j, x)
			}
			b.animated[j] = anim.Props(x)
		}
	}
	d := &b.data
	at := r.off
	nt := r.count(4, "key times")
	if r.err == nil && (nt == 0 || nt > bonesMaxTimes) {
		r.fail(at, "%d key times (1 to %d)", nt, bonesMaxTimes)
	}
	if r.err != nil {
		return nil, r.err
	}
	d.times = make([]float32, nt)
	for i := range d.times {
		at := r.off
		d.times[i] = r.f32("key time")
		if r.err == nil && (i == 0 && d.times[0] != 0 || i > 0 && !(d.times[i] > d.times[i-1])) {
			r.fail(at, "key time %d is %v, after %v", i, d.times[i], d.times[max(i-1, 0)])
		}
	}
	seen := make([]uint8, joints) // per joint, its properties met so far
	claim := func(at, joint int, prop uint8) {
		if joint < 0 || joint >= joints || prop >= propCount {
			r.fail(at, "joint %d property %d (the rig has %d joints)", joint, prop, joints)
			return
		}
		if seen[joint]&(1<<prop) != 0 {
			r.fail(at, "joint %d property %d given twice", joint, prop)
		}
		seen[joint] |= 1 << prop
	}
	if n := r.count(21, "constants"); n > 0 {
		b.consts = make([]boneConst, n)
		for i := range b.consts {
			at := r.off
			c := &b.consts[i]
			c.joint = int32(r.u32("constant's joint"))
			c.prop = r.u8("constant's property")
			claim(at, int(c.joint), c.prop)
			for k := range c.v {
				c.v[k] = r.f32("constant's value")
			}
		}
	}
	nt16 := r.count(30, "tracks")
	if r.err != nil {
		return nil, r.err
	}
	b.tracks = make([]boneTrack, nt16)
	for i := 0; i < nt16+2; i++ {
		tr := &b.root[max(i-nt16, 0)]
		if i < nt16 {
			tr = &b.tracks[i]
		}
		at := r.off
		tr.joint = int32(r.u32("track's joint"))
		tr.prop = r.u8("track's property")
		tr.enc = r.u8("track's encoding")
		switch {
		case r.err != nil:
		case i >= nt16:
			if want := uint8(i - nt16); tr.joint != -1 || tr.prop != want {
				r.fail(at, "root motion track %d: joint %d property %d", i-nt16, tr.joint, tr.prop)
			}
		default:
			claim(at, int(tr.joint), tr.prop)
		}
		if r.err == nil && (tr.enc >= encCount || (tr.enc == encRot) != (tr.prop == propR)) {
			r.fail(at, "track of property %d in encoding %d", tr.prop, tr.enc)
		}
		at = r.off
		n := int(r.u32("key count"))
		if r.err == nil && (n == 0 || n > nt) {
			r.fail(at, "%d keys (1 to the %d key times)", n, nt)
		}
		tr.n = int32(n)
		for k := range tr.lo {
			tr.lo[k] = r.f32("range start")
		}
		for k := range tr.step {
			at := r.off
			tr.step[k] = r.f32("range step")
			if tr.step[k] < 0 {
				r.fail(at, "range step %v", tr.step[k])
			}
		}
		if r.err != nil {
			return nil, r.err
		}
		tr.key = int32(len(d.ktime))
		at = r.off
		p := r.take(2*n, "key times")
		for k := 0; k < n && p != nil; k++ {
			x := binary.LittleEndian.Uint16(p[2*k:])
			if k == 0 && x != 0 || k > 0 && x <= d.ktime[len(d.ktime)-1] || int(x) >= nt {
				r.fail(at+2*k, "key %d at key time %d (of %d, after the key before, the first at 0)", k, x, nt)
				break
			}
			d.ktime = append(d.ktime, x)
		}
		tr.val = int32(len(d.vals))
		w := n * encWords[tr.enc]
		at = r.off
		p = r.take(2*w, "key values")
		for k := 0; k < w && p != nil; k++ {
			d.vals = append(d.vals, binary.LittleEndian.Uint16(p[2*k:]))
		}
		if tr.enc == encFloat && r.err == nil {
			for k := 0; k < w; k += 2 {
				if x := math.Float32frombits(uint32(d.vals[int(tr.val)+k]) | uint32(d.vals[int(tr.val)+k+1])<<16); !geom.Finite(x) {
					r.fail(at+2*k, "key value %v", x)
					break
				}
			}
		}
		if tr.enc == encRange && r.err == nil {
			for k := range tr.lo {
				if !geom.Finite(tr.lo[k] + 65535*tr.step[k]) {
					r.fail(at, "range from %v by %v overflows", tr.lo[k], tr.step[k])
				}
			}
		}
		if r.err != nil {
			return nil, r.err
		}
	}
	if r.off != len(r.data) {
		r.fail(r.off, "%d bytes after the last track", len(r.data)-r.off)
	}
	if r.err != nil {
		return nil, r.err
	}
	b.finish()
	return b, nil
}
