// Package boundfile saves what a server loads at startup — characters
// (their skeletons, humanoid avatars), the controllers they play with
// their clips, and clips bound to them — in one versioned, checksummed file,
// and loads it back without the Unity files: in a fraction of the time
// reading bundles takes, holding only what the values need.
//
// A file holds the decoded values a bound character, controller or motion
// is built from (package model's rigs, avatars, controllers and clips, to
// the bit: NaN and -0 included), and loading builds them with the same
// code that builds them from Unity files (bound.NewCharacter,
// NewController, Bind: skeletons, humanoid rigs, clips baked on them,
// controllers compiled), so a loaded controller poses exactly as the one
// saved. The reader is hardened as the Unity readers are: every length is
// bounded by the bytes that remain, a damaged file is a *FormatError
// naming the offset, a file of another version or written by a build whose
// model types differ is an *UnsupportedError, and nothing panics.
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

	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/internal/atomicfile"
	"github.com/mecanim/mecanim/model"
)

// Magic starts every file.
const Magic = "MCBOUND\n"

// Version is the format version Write writes and Read reads.
const Version = 1

// headerSize is the magic, the version (u32), the schema hash (u64) and
// the payload length (u64); a CRC-32 of everything before it follows the
// payload.
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
}

// payload is what the file encodes: the inputs each value is built from,
// characters and clips shared by index (-1 for none).
type payload struct {
	Characters  []savedCharacter
	Clips       []*model.Clip
	Controllers []savedController
	Motions     []savedMotion
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
	On          int32
	Notes       []string
}

type savedMotion struct {
	Clip   int32
	Source model.Source
	On     int32
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
		for _, mc := range in.Clips {
			sc.Clips = append(sc.Clips, clip(mc))
		}
		p.Controllers = append(p.Controllers, sc)
	}
	for _, m := range a.Motions {
		if m == nil {
			return nil, fmt.Errorf("boundfile: Marshal: nil motion")
		}
		p.Motions = append(p.Motions, savedMotion{Clip: clip(m.Clip()), Source: m.Source(), On: character(m.On())})
	}
	if payloadError != nil {
		return nil, payloadError
	}
	c := payloadCodec
	e := encoder{b: make([]byte, headerSize, 1<<16)}
	e.value(c, reflect.ValueOf(p))
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

func decodePayload(data []byte) (*payload, error) {
	if len(data) < headerSize+4 || string(data[:len(Magic)]) != Magic {
		return nil, &FormatError{Detail: "not a saved bound file (no " + fmt.Sprintf("%q", Magic) + " header)"}
	}
	if v := binary.LittleEndian.Uint32(data[len(Magic):]); v != Version {
		if v > Version {
			return nil, &UnsupportedError{Detail: fmt.Sprintf("format version %d (this build reads %d)", v, Version)}
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
	if d.err == nil && d.left() != 0 {
		d.fail("%d bytes after the values", d.left())
	}
	if d.err != nil {
		return nil, d.err
	}
	return &p, nil
}

// build makes the bound values of a decoded payload.
func build(ctx context.Context, p *payload) (Assets, error) {
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
		var mc *model.Clip
		if err == nil {
			mc, err = clip(sm.Clip)
		}
		if err == nil && mc == nil {
			err = errors.New("no clip")
		}
		if err != nil {
			return Assets{}, fmt.Errorf("boundfile: motion %d: %w", i, err)
		}
		m, err := bound.Bind(mc, sm.Source, ch)
		if err != nil {
			return Assets{}, fmt.Errorf("boundfile: motion %d: %w", i, err)
		}
		a.Motions = append(a.Motions, m)
	}
	return a, nil
}
