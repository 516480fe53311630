// Package boundfile saves what a server loads at startup — characters
// (their skeletons, humanoid avatars), the controllers they play with
// their clips, clips bound to them and humanoid clips baked into bones for
// them — in one versioned, checksummed file,
// and loads it back without the Unity files: in a fraction of the time
// reading bundles takes, holding only what the values need.
//
// A file holds the decoded values a bound character, controller or motion
// is built from (package model's rigs, avatars, controllers and clips, to
// the bit: NaN and -0 included), the generic clips as they were baked
// on their characters' skeletons (anim.Clip's encoding) and the
// humanoid.Bones saved (their own encoding). Loading builds
// the characters and controllers with the same code that builds them from
// Unity files (bound.NewCharacter, NewController: skeletons, humanoid rigs,
// humanoid clips baked, controllers compiled) but takes the generic clips
// as saved (bound.BindBaked) rather than baking them again, so a loaded
// controller poses exactly as the one saved; bones are read for their
// character's humanoid rig (humanoid.UnmarshalBones) and sample as saved. The reader is hardened as the
// Unity readers are: every length is bounded by the bytes that remain, a
// damaged file (a baked clip or bones included, or ones baked on another
// skeleton or rig than their character's) is a *FormatError naming the offset, a file of
// another version or written by a build whose model types differ is an
// *UnsupportedError, and nothing panics.
package boundfile

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"reflect"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/humanoid"
	"github.com/mecanim/mecanim/internal/atomicfile"
	"github.com/mecanim/mecanim/model"
)

// Magic starts every file.
const Magic = "MCBOUND\n"

// Version is the format version Write writes and Read reads. Version 1
// files (which kept no baked clips) and version 2 files (no bones) are
// refused as unsupported: save them again.
const Version = 3

// headerSize is the magic, the version (u32), the schema hash (u64) and
// the payload length (u64); a CRC-32 of everything before it follows the
// payload. The payload is the values (see codec.go), then the baked clips
// they name (payload.Baked), each as its length (uvarint) and its
// anim.Clip encoding, then the bones (payload.Bones), each as its length
// and its humanoid.Bones encoding.
const headerSize = len(Magic) + 4 + 8 + 8

// MaxFileSize bounds the files ReadFile reads.
const MaxFileSize = 1 << 30

// Errors the reader returns, wrapped by FormatError and UnsupportedError.
var (
	// ErrMalformed reports a damaged file: cut short, altered (its
	// checksum fails) or not a saved file.
	ErrMalformed = errors.New("boundfile: malformed file")
	// ErrUnsupported reports a file of a newer format version, or written
	// by a build whose model types differ: save it again from the Unity
	// files with this build.
	ErrUnsupported = errors.New("boundfile: unsupported file")
)

// FormatError says where a file is damaged and how.
type FormatError struct {
	Path   string // the file ("" when decoding bytes)
	Offset int64
	Detail string
}

// Error names the file, the offset and the damage.
func (e *FormatError) Error() string {
	return fmt.Sprintf("%s%v at byte %d: %s", pathPrefix(e.Path), ErrMalformed, e.Offset, e.Detail)
}

// Unwrap returns ErrMalformed.
func (e *FormatError) Unwrap() error { return ErrMalformed }

// UnsupportedError says why a well-formed file cannot be read by this
// build.
type UnsupportedError struct {
	Path   string
	Detail string
}

// Error names the file and the reason.
func (e *UnsupportedError) Error() string {
	return fmt.Sprintf("%s%v: %s", pathPrefix(e.Path), ErrUnsupported, e.Detail)
}

// Unwrap returns ErrUnsupported.
func (e *UnsupportedError) Unwrap() error { return ErrUnsupported }

func pathPrefix(p string) string {
	if p == "" {
		return ""
	}
	return p + ": "
}

// Assets is what a file holds.
type Assets struct {
	// Characters are every character saved: those listed and those the
	// controllers and motions play on, each once.
	Characters []*bound.Character
	// Controllers are bound controllers, each on its character (or none).
	Controllers []*bound.Controller
	// Motions are clips bound to characters, for code that plays clips
	// without a controller (animator.Player).
	Motions []*bound.Motion
	// Bones are humanoid clips baked into bones for characters, for code
	// that plays one clip on many characters without muscle maths.
	Bones []Bones
}

// Bones is a humanoid clip's bones baked for a character's humanoid rig
// (humanoid.BakeBones(clip, On.Human())): the file keeps the character
// with them, and loading reads them for its rig.
type Bones struct {
	On    *bound.Character
	Bones *humanoid.Bones
}

// payload is what the file encodes: the inputs each value is built from,
// characters, clips and baked clips shared by index (-1 for none).
type payload struct {
	Characters  []savedCharacter
	Clips       []*model.Clip
	Baked       []savedBaked
	Controllers []savedController
	Motions     []savedMotion
	Bones       []savedBones
}

// savedBones are bones baked for character On's humanoid rig (their bytes
// follow the baked clips'), named as the clip they were baked from (for
// errors: the name is in their bytes too).
type savedBones struct {
	Name string
	On   int32
}

// savedBaked is a generic clip baked on a character's skeleton (its bytes
// follow the values): what bound.Bind made of Clip on On, and the joint
// its motion traces.
type savedBaked struct {
	Clip, On, Trace int32
}

type savedCharacter struct {
	Name          string
	Source        model.Source
	Rig           *model.Rig
	Avatar        *model.Avatar
	AvatarSource  model.Source
	AvatarMissing string
}

type savedController struct {
	Controller  *model.Controller
	Source      model.Source
	Clips       []int32
	ClipSources []model.Source
	// Baked names, parallel to Clips, the baked clip each slot plays (-1:
	// bind it when loading: a humanoid clip, a clip retargeted or not
	// bound); nil when none is.
	Baked []int32
	On    int32
	Notes []string
}

type savedMotion struct {
	Clip   int32
	Source model.Source
	On     int32
	Baked  int32 // the baked clip it plays, or -1: bind it when loading
}

var payloadType = reflect.TypeFor[payload]()

// The payload's schema hash and codec, made once: read-only after.
var (
	payloadSchema              = schema(payloadType)
	payloadCodec, payloadError = codecs{}.of(payloadType)
)

// Write saves a to w. Characters are saved without their meshes (a server
// poses skeletons); everything else a character, controller or motion was
// built from is saved, to the bit.
func Write(w io.Writer, a Assets) error {
	b, err := Marshal(a)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// WriteFile saves a to the file at path, atomically: a reader of path sees
// the old file or the whole new one, never a part.
func WriteFile(path string, a Assets) error {
	b, err := Marshal(a)
	if err != nil {
		return err
	}
	return atomicfile.Write(path, func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
}

// Marshal returns a's encoding (see Write).
func Marshal(a Assets) ([]byte, error) {
	var p payload
	chars := map[*bound.Character]int32{}
	character := func(c *bound.Character) int32 {
		if c == nil {
			return -1
		}
		if i, ok := chars[c]; ok {
			return i
		}
		in := c.Input()
		i := int32(len(p.Characters))
		p.Characters = append(p.Characters, savedCharacter{Name: in.Name, Source: in.Source, Rig: in.Rig,
			Avatar: in.Avatar, AvatarSource: in.AvatarSource, AvatarMissing: in.AvatarMissing})
		chars[c] = i
		return i
	}
	clips := map[*model.Clip]int32{}
	clip := func(c *model.Clip) int32 {
		if c == nil {
			return -1
		}
		if i, ok := clips[c]; ok {
			return i
		}
		i := int32(len(p.Clips))
		p.Clips = append(p.Clips, c)
		clips[c] = i
		return i
	}
	// A motion's generic clip is saved baked when loading would bind the
	// same clip to the same character: bound.Bind's result, not a
	// retargeted one. (A clip whose events anim cannot encode, NaN times
	// among others, is saved as its model values only and baked when
	// loading.)
	bakedIndex := map[*anim.Clip]int32{}
	var baked [][]byte
	bake := func(m *bound.Motion, mc *model.Clip, on *bound.Character) int32 {
		if m == nil || mc == nil || on == nil || m.Clip() != mc || m.On() != on || m.Generic() == nil || m.RetargetedFrom() != nil {
			return -1
		}
		g := m.Generic()
		if i, ok := bakedIndex[g]; ok {
			return i
		}
		b, err := g.MarshalBinary()
		if err != nil {
			bakedIndex[g] = -1
			return -1
		}
		i := int32(len(baked))
		p.Baked = append(p.Baked, savedBaked{Clip: clip(mc), On: character(on), Trace: int32(m.TraceJoint())})
		baked = append(baked, b)
		bakedIndex[g] = i
		return i
	}
	for _, c := range a.Characters {
		character(c)
	}
	for _, c := range a.Controllers {
		if c == nil {
			return nil, fmt.Errorf("boundfile: Marshal: nil controller")
		}
		in := c.Input()
		sc := savedController{Controller: in.Controller, Source: in.Source, ClipSources: in.ClipSources,
			On: character(in.On), Notes: in.Notes}
		any := false
		for i, mc := range in.Clips {
			sc.Clips = append(sc.Clips, clip(mc))
			var m *bound.Motion
			if i < len(c.Clips()) {
				m = c.Clips()[i]
			}
			b := bake(m, mc, in.On)
			sc.Baked = append(sc.Baked, b)
			any = any || b >= 0
		}
		if !any {
			sc.Baked = nil
		}
		p.Controllers = append(p.Controllers, sc)
	}
	for _, m := range a.Motions {
		if m == nil {
			return nil, fmt.Errorf("boundfile: Marshal: nil motion")
		}
		p.Motions = append(p.Motions, savedMotion{Clip: clip(m.Clip()), Source: m.Source(), On: character(m.On()),
			Baked: bake(m, m.Clip(), m.On())})
	}
	var bones [][]byte
	for i, b := range a.Bones {
		enc, err := bonesBytes(b)
		if err != nil {
			return nil, fmt.Errorf("boundfile: Marshal: bones %d: %w", i, err)
		}
		p.Bones = append(p.Bones, savedBones{Name: b.Bones.Name(), On: character(b.On)})
		bones = append(bones, enc)
	}
	return assemble(&p, baked, bones)
}

// bonesBytes encodes b's bones, refusing bones the file could not load:
// on no character, a character that is not humanoid, or baked for a rig
// other than the character's.
func bonesBytes(b Bones) ([]byte, error) {
	switch {
	case b.Bones == nil:
		return nil, errors.New("no bones")
	case b.On == nil:
		return nil, fmt.Errorf("%q on no character", b.Bones.Name())
	case b.On.Human() == nil:
		return nil, fmt.Errorf("%q on character %q, which is not humanoid", b.Bones.Name(), b.On.Name())
	}
	enc, err := b.Bones.MarshalBinary()
	if err != nil {
		return nil, fmt.Errorf("%q: %w", b.Bones.Name(), err)
	}
	if b.Bones.Rig() != b.On.Human() {
		// Another rig may be the same one (the same skeleton, rest pose
		// and scale): the file holds them if they load for the
		// character's.
		if _, err := humanoid.UnmarshalBones(enc, b.On.Human()); err != nil {
			return nil, fmt.Errorf("%q on character %q: %w", b.Bones.Name(), b.On.Name(), err)
		}
	}
	return enc, nil
}

// assemble encodes a file of payload p and its baked clips' and bones'
// encodings (parallel to p.Baked and p.Bones).
func assemble(p *payload, baked, bones [][]byte) ([]byte, error) {
	if payloadError != nil {
		return nil, payloadError
	}
	e := encoder{b: make([]byte, headerSize, 1<<16)}
	e.value(payloadCodec, reflect.ValueOf(*p))
	if len(baked) != len(p.Baked) {
		return nil, fmt.Errorf("boundfile: Marshal: %d baked clips for %d", len(baked), len(p.Baked))
	}
	if len(bones) != len(p.Bones) {
		return nil, fmt.Errorf("boundfile: Marshal: %d bones for %d", len(bones), len(p.Bones))
	}
	for _, b := range append(baked[:len(baked):len(baked)], bones...) {
		e.uvarint(uint64(len(b)))
		e.b = append(e.b, b...)
	}
	copy(e.b, Magic)
	binary.LittleEndian.PutUint32(e.b[len(Magic):], Version)
	binary.LittleEndian.PutUint64(e.b[len(Magic)+4:], payloadSchema)
	binary.LittleEndian.PutUint64(e.b[len(Magic)+12:], uint64(len(e.b)-headerSize))
	return binary.LittleEndian.AppendUint32(e.b, crc32.ChecksumIEEE(e.b)), nil
}

// ReadFile loads the file at path (see Unmarshal); errors name the path.
func ReadFile(ctx context.Context, path string) (Assets, error) {
	f, err := os.Open(path)
	if err != nil {
		return Assets{}, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return Assets{}, err
	}
	if st.Size() > MaxFileSize {
		return Assets{}, &UnsupportedError{Path: path, Detail: fmt.Sprintf("%d bytes, over the %d this reader takes", st.Size(), MaxFileSize)}
	}
	data := make([]byte, st.Size())
	if _, err := io.ReadFull(f, data); err != nil {
		return Assets{}, fmt.Errorf("%s: %w", path, err)
	}
	a, err := Unmarshal(ctx, data)
	var fe *FormatError
	var ue *UnsupportedError
	switch {
	case errors.As(err, &fe):
		fe.Path = path
	case errors.As(err, &ue):
		ue.Path = path
	case err != nil:
		err = fmt.Errorf("%s: %w", path, err)
	}
	return a, err
}

// Unmarshal loads a file's bytes: it checks the magic, version, model
// types and checksum, decodes the values and builds the characters,
// controllers and motions (checking ctx between them). The values keep no
// reference to data.
func Unmarshal(ctx context.Context, data []byte) (Assets, error) {
	p, err := decodePayload(data)
	if err != nil {
		return Assets{}, err
	}
	return build(ctx, p)
}

// decoded is a file's payload with its baked clips' and bones' bytes (in
// the file's data) and their offsets.
type decoded struct {
	*payload
	baked    [][]byte
	bakedOff []int
	bones    [][]byte
	bonesOff []int
}

func decodePayload(data []byte) (*decoded, error) {
	if len(data) < headerSize+4 || string(data[:len(Magic)]) != Magic {
		return nil, &FormatError{Detail: "not a saved bound file (no " + fmt.Sprintf("%q", Magic) + " header)"}
	}
	if v := binary.LittleEndian.Uint32(data[len(Magic):]); v != Version {
		if v > Version {
			return nil, &UnsupportedError{Detail: fmt.Sprintf("format version %d (this build reads %d)", v, Version)}
		}
		if v == 1 || v == 2 {
			kept := map[uint32]string{1: "baked clips", 2: "bones"}[v]
			return nil, &UnsupportedError{Detail: fmt.Sprintf("format version %d, which kept no %s (this build reads %d): save it again with this build", v, kept, Version)}
		}
		return nil, &FormatError{Offset: int64(len(Magic)), Detail: fmt.Sprintf("format version %d", v)}
	}
	n := binary.LittleEndian.Uint64(data[len(Magic)+12:])
	if n != uint64(len(data)-headerSize-4) {
		return nil, &FormatError{Offset: int64(len(Magic) + 12), Detail: fmt.Sprintf("payload of %d bytes in a file of %d", n, len(data))}
	}
	body := data[:len(data)-4]
	if want, got := binary.LittleEndian.Uint32(data[len(body):]), crc32.ChecksumIEEE(body); want != got {
		return nil, &FormatError{Offset: int64(len(body)), Detail: fmt.Sprintf("checksum %08x, the bytes give %08x", want, got)}
	}
	if s := binary.LittleEndian.Uint64(data[len(Magic)+4:]); s != payloadSchema {
		return nil, &UnsupportedError{Detail: "written by a build whose model types differ: save it again with this build"}
	}
	if payloadError != nil {
		return nil, payloadError
	}
	c := payloadCodec
	d := decoder{b: body[headerSize:], base: headerSize}
	var p payload
	d.value(c, reflect.ValueOf(&p).Elem())
	out := &decoded{payload: &p}
	for i := 0; i < len(p.Baked) && d.err == nil; i++ {
		n, _ := d.count(1, false, "bytes of a baked clip")
		at := d.base + d.off
		if b := d.take(n); b != nil {
			out.baked = append(out.baked, b)
			out.bakedOff = append(out.bakedOff, at)
		}
	}
	for i := 0; i < len(p.Bones) && d.err == nil; i++ {
		n, _ := d.count(1, false, "bytes of bones")
		at := d.base + d.off
		if b := d.take(n); b != nil {
			out.bones = append(out.bones, b)
			out.bonesOff = append(out.bonesOff, at)
		}
	}
	if d.err == nil && d.left() != 0 {
		d.fail("%d bytes after the values", d.left())
	}
	if d.err != nil {
		return nil, d.err
	}
	return out, nil
}

// bakedError turns an error decoding baked clip i (at byte off of the file)
// into the file's error.
func bakedError(i int, off int, err error) error {
	var fe *anim.FormatError
	var ue *anim.UnsupportedError
	switch {
	case errors.As(err, &fe):
		return &FormatError{Offset: int64(off + fe.Offset), Detail: fmt.Sprintf("baked clip %d (%q): %s", i, fe.Clip, fe.Detail)}
	case errors.As(err, &ue):
		return &UnsupportedError{Detail: fmt.Sprintf("baked clip %d: %v: save the file again with this build", i, err)}
	}
	return &FormatError{Offset: int64(off), Detail: fmt.Sprintf("baked clip %d: %v", i, err)}
}

// bonesError turns an error reading bones i (named name, at byte off of
// the file) into the file's error.
func bonesError(i int, name string, off int, err error) error {
	var fe *humanoid.FormatError
	var ue *humanoid.UnsupportedError
	switch {
	case errors.As(err, &fe):
		return &FormatError{Offset: int64(off + fe.Offset), Detail: fmt.Sprintf("bones %d (%q): %s", i, name, fe.Detail)}
	case errors.As(err, &ue):
		return &UnsupportedError{Detail: fmt.Sprintf("bones %d (%q): %v: save the file again with this build", i, name, err)}
	}
	return &FormatError{Offset: int64(off), Detail: fmt.Sprintf("bones %d (%q): %v", i, name, err)}
}

// build makes the bound values of a decoded payload.
func build(ctx context.Context, p *decoded) (Assets, error) {
	var a Assets
	if err := ctx.Err(); err != nil {
		return a, err
	}
	for i, sc := range p.Characters {
		c, err := bound.NewCharacter(bound.CharacterInput{Name: sc.Name, Source: sc.Source, Rig: sc.Rig,
			Avatar: sc.Avatar, AvatarSource: sc.AvatarSource, AvatarMissing: sc.AvatarMissing})
		if err != nil {
			return Assets{}, fmt.Errorf("boundfile: character %d: %w", i, err)
		}
		a.Characters = append(a.Characters, c)
	}
	on := func(i int32) (*bound.Character, error) {
		switch {
		case i == -1:
			return nil, nil
		case i < 0 || int(i) >= len(a.Characters):
			return nil, fmt.Errorf("character %d of %d", i, len(a.Characters))
		}
		return a.Characters[i], nil
	}
	clip := func(i int32) (*model.Clip, error) {
		switch {
		case i == -1:
			return nil, nil
		case i < 0 || int(i) >= len(p.Clips):
			return nil, fmt.Errorf("clip %d of %d", i, len(p.Clips))
		}
		return p.Clips[i], nil
	}

	// The baked clips, each on its character's skeleton.
	baked := make([]*anim.Clip, len(p.Baked))
	for i, sb := range p.Baked {
		ch, err := on(sb.On)
		if err == nil && ch == nil {
			err = errors.New("on no character")
		}
		if err != nil {
			return Assets{}, &FormatError{Offset: int64(p.bakedOff[i]), Detail: fmt.Sprintf("baked clip %d: %v", i, err)}
		}
		if baked[i], err = anim.UnmarshalClip(p.baked[i], ch.Skeleton()); err != nil {
			return Assets{}, bakedError(i, p.bakedOff[i], err)
		}
	}
	// The bones, each for its character's humanoid rig.
	for i, sb := range p.Bones {
		ch, err := on(sb.On)
		switch {
		case err != nil:
		case ch == nil:
			err = errors.New("on no character")
		case ch.Human() == nil:
			err = fmt.Errorf("on character %d (%q), which is not humanoid", sb.On, ch.Name())
		}
		if err != nil {
			return Assets{}, bonesError(i, sb.Name, p.bonesOff[i], err)
		}
		b, err := humanoid.UnmarshalBones(p.bones[i], ch.Human())
		if err == nil && b.Name() != sb.Name {
			err = fmt.Errorf("named %q inside", b.Name())
		}
		if err != nil {
			return Assets{}, bonesError(i, sb.Name, p.bonesOff[i], err)
		}
		a.Bones = append(a.Bones, Bones{On: ch, Bones: b})
	}
	// motion binds clip k to ch from baked clip b (-1: with bound.Bind).
	motion := func(k, b int32, src model.Source, ch *bound.Character) (*bound.Motion, error) {
		mc, err := clip(k)
		if err == nil && mc == nil {
			err = errors.New("no clip")
		}
		if err != nil {
			return nil, err
		}
		if b == -1 {
			return bound.Bind(mc, src, ch)
		}
		if b < 0 || int(b) >= len(baked) {
			return nil, &FormatError{Detail: fmt.Sprintf("baked clip %d of %d", b, len(baked))}
		}
		sb := p.Baked[b]
		if sb.Clip != k || sb.On < 0 || int(sb.On) >= len(a.Characters) || a.Characters[sb.On] != ch {
			return nil, &FormatError{Offset: int64(p.bakedOff[b]), Detail: fmt.Sprintf("baked clip %d is clip %d on character %d, not clip %d on this one", b, sb.Clip, sb.On, k)}
		}
		m, err := bound.BindBaked(mc, src, ch, baked[b], int(sb.Trace))
		if err != nil {
			return nil, &FormatError{Offset: int64(p.bakedOff[b]), Detail: fmt.Sprintf("baked clip %d: %v", b, err)}
		}
		return m, nil
	}

	for i, sc := range p.Controllers {
		if err := ctx.Err(); err != nil {
			return Assets{}, err
		}
		ch, err := on(sc.On)
		if err != nil {
			return Assets{}, fmt.Errorf("boundfile: controller %d: %w", i, err)
		}
		in := bound.ControllerInput{Controller: sc.Controller, Source: sc.Source, ClipSources: sc.ClipSources, On: ch, Notes: sc.Notes}
		for _, k := range sc.Clips {
			mc, err := clip(k)
			if err != nil {
				return Assets{}, fmt.Errorf("boundfile: controller %d: %w", i, err)
			}
			in.Clips = append(in.Clips, mc)
		}
		if in.Motions, err = controllerMotions(sc, in, motion); err != nil {
			return Assets{}, wrapController(i, err)
		}
		c, err := bound.NewController(in)
		if err != nil {
			return Assets{}, fmt.Errorf("boundfile: controller %d: %w", i, err)
		}
		a.Controllers = append(a.Controllers, c)
	}
	for i, sm := range p.Motions {
		if err := ctx.Err(); err != nil {
			return Assets{}, err
		}
		ch, err := on(sm.On)
		if err == nil && ch == nil {
			err = errors.New("on no character")
		}
		var m *bound.Motion
		if err == nil {
			m, err = motion(sm.Clip, sm.Baked, sm.Source, ch)
		}
		if err != nil {
			var fe *FormatError
			if errors.As(err, &fe) {
				fe.Detail = fmt.Sprintf("motion %d: %s", i, fe.Detail)
				return Assets{}, fe
			}
			return Assets{}, fmt.Errorf("boundfile: motion %d: %w", i, err)
		}
		a.Motions = append(a.Motions, m)
	}
	return a, nil
}

// controllerMotions binds a saved controller's clips as bound.NewController
// would (a clip in several slots bound once), taking each baked clip as
// saved. It returns nil, for NewController to bind every clip itself, when
// the controller plays on no character or a clip does not bind: then
// NewController says why in the controller's notes.
func controllerMotions(sc savedController, in bound.ControllerInput,
	motion func(k, b int32, src model.Source, ch *bound.Character) (*bound.Motion, error)) ([]*bound.Motion, error) {
	if sc.Baked == nil || in.On == nil || sc.Controller == nil {
		return nil, nil
	}
	if len(sc.Baked) != len(sc.Clips) {
		return nil, &FormatError{Detail: fmt.Sprintf("%d baked clip slots for %d clips", len(sc.Baked), len(sc.Clips))}
	}
	out := make([]*bound.Motion, len(sc.Clips))
	seen := map[int32]*bound.Motion{}
	for i, k := range sc.Clips {
		if k == -1 || i >= len(sc.Controller.Clips) {
			continue
		}
		if m, ok := seen[k]; ok {
			out[i] = m
			continue
		}
		var src model.Source
		if i < len(sc.ClipSources) {
			src = sc.ClipSources[i]
		}
		m, err := motion(k, sc.Baked[i], src, in.On)
		var fe *FormatError
		switch {
		case errors.As(err, &fe):
			return nil, err
		case err != nil:
			return nil, nil
		}
		seen[k], out[i] = m, m
	}
	return out, nil
}

// wrapController names controller i in err.
func wrapController(i int, err error) error {
	var fe *FormatError
	if errors.As(err, &fe) {
		fe.Detail = fmt.Sprintf("controller %d: %s", i, fe.Detail)
		return fe
	}
	return fmt.Errorf("boundfile: controller %d: %w", i, err)
}
