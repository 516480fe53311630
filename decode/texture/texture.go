// Package texture decodes Unity textures (Texture2D, class 28) into 8-bit
// RGBA pixels, for exporters: the uncompressed formats, the desktop block
// formats (BC1/DXT1, BC3/DXT5, BC4, BC5, BC7) and the mobile ones (ASTC
// LDR at every footprint, ETC1, ETC2 RGB/RGBA1/RGBA8, EAC R11/RG11
// unsigned and signed), each decoded here from its public specification
// (the Khronos Data Format Specification's S3TC, BPTC, ETC and ASTC
// chapters; no maintained Go decoder of the mobile formats exists to
// depend on). Other formats (ASTC HDR, PVRTC, ATC, the 3DS ETC variants,
// Unity's crunch-compressed ones) are refused with an UnsupportedError
// naming the format as Unity's TextureFormat does.
//
// Only the first image's mip level 0 is read, from the object (image
// data) or from its streamed resource (m_StreamData, a .resS beside the
// serialized file). Unity stores rows bottom-up (the first row of the
// data is the texture's v = 0 edge, as its UVs and OpenGL have it); the
// images returned here have their top row first.
package texture

import (
	"errors"
	"fmt"
	"image"

	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/assets"
	"github.com/mecanim/mecanim/unity/serialized"
	"github.com/mecanim/mecanim/unity/typetree"
)

// ClassTexture2D is the class id of the objects this package decodes.
const ClassTexture2D = 28

// Errors wrapped by this package's functions.
var (
	// ErrMalformed: a field is missing or inconsistent, or the pixels
	// are shorter than the texture's size says.
	ErrMalformed = errors.New("texture: malformed")
	// ErrNoStream: the pixels are streamed from a resource file and no
	// reader was given or the read failed.
	ErrNoStream = errors.New("texture: streamed pixels not available")
)

// UnsupportedError is returned for a texture whose format this package
// does not decode.
type UnsupportedError struct {
	Format Format
}

// Error names the format (and, for a crunched one, why).
func (e *UnsupportedError) Error() string {
	if e.Format.Crunched() {
		return fmt.Sprintf("texture: format %s is not decoded (crunch compression)", e.Format)
	}
	return fmt.Sprintf("texture: format %s is not decoded", e.Format)
}

// Error is a failure to decode one texture: it names the texture.
type Error struct {
	Texture string
	Err     error
}

// Error describes the failure and the texture.
func (e *Error) Error() string { return fmt.Sprintf("texture %q: %v", e.Texture, e.Err) }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Options tell Decode how to reach streamed pixels.
type Options struct {
	// ReadStream reads size bytes at offset of a streamed-resource file
	// (m_StreamData); nil when none is reachable.
	ReadStream func(path string, offset uint64, size uint32) ([]byte, error)
}

// Header is what a Texture2D says about its pixels.
type Header struct {
	Name          string
	Width, Height int
	Format        Format
	MipCount      int
	// Stream is where the pixels are when they are streamed (Size 0:
	// they are in the object).
	Stream Stream
	inline []byte
}

// Stream is a texture's m_StreamData: a range of a resource file.
type Stream struct {
	Path   string
	Offset uint64
	Size   uint32
}

// ReadHeader reads a decoded Texture2D value's description of its pixels.
func ReadHeader(v *typetree.Value) (*Header, error) {
	h := &Header{Name: v.Field("m_Name").Str()}
	if v.Kind() != typetree.KindStruct || !v.Has("m_Width") || !v.Has("m_Height") || !v.Has("m_TextureFormat") {
		return nil, &Error{Texture: h.Name, Err: fmt.Errorf("%w: not a Texture2D (no m_Width, m_Height or m_TextureFormat)", ErrMalformed)}
	}
	h.Width, h.Height = int(v.Field("m_Width").Int()), int(v.Field("m_Height").Int())
	h.Format = Format(v.Field("m_TextureFormat").Int())
	h.MipCount = int(v.Field("m_MipCount").Int())
	h.inline = v.Field("image data").Bytes()
	if sd := v.Field("m_StreamData"); sd != nil {
		h.Stream = Stream{Path: sd.Field("path").Str(), Offset: sd.Field("offset").Uint(), Size: uint32(sd.Field("size").Uint())}
	}
	return h, nil
}

// Pixels returns mip level 0 of the texture's first image, top row first:
// an *UnsupportedError for a format not decoded, ErrNoStream when streamed
// pixels cannot be read, ErrMalformed when the pixels are shorter than the
// texture (all wrapped in an *Error naming the texture).
func (h *Header) Pixels(opts Options) (*image.NRGBA, error) {
	fail := func(err error) (*image.NRGBA, error) { return nil, &Error{Texture: h.Name, Err: err} }
	if !h.Format.Supported() {
		return fail(&UnsupportedError{Format: h.Format})
	}
	need, ok := h.Format.Size(h.Width, h.Height)
	if !ok || h.Width <= 0 || h.Height <= 0 {
		return fail(fmt.Errorf("%w: %d×%d pixels", ErrMalformed, h.Width, h.Height))
	}
	data := h.inline
	if len(data) == 0 && h.Stream.Size > 0 {
		if uint64(need) > uint64(h.Stream.Size) {
			return fail(fmt.Errorf("%w: %s image of %d×%d pixels needs %d bytes, the stream has %d", ErrMalformed, h.Format, h.Width, h.Height, need, h.Stream.Size))
		}
		if opts.ReadStream == nil {
			return fail(fmt.Errorf("%w: %s (no reader)", ErrNoStream, h.Stream.Path))
		}
		b, err := opts.ReadStream(h.Stream.Path, h.Stream.Offset, uint32(need))
		if err != nil {
			return fail(fmt.Errorf("%w: %w", ErrNoStream, err))
		}
		data = b
	}
	img, err := Pixels(h.Format, h.Width, h.Height, data)
	if err != nil {
		return fail(err)
	}
	return img, nil
}

// FromFile decodes Texture2D object o of file f into a model texture,
// reading streamed pixels from f's container.
func FromFile(f *assets.File, o *serialized.Object) (*model.Texture, error) {
	v, err := f.Decode(o)
	if err != nil {
		return nil, fmt.Errorf("%s: texture object %d: %w", f.Name, o.PathID, err)
	}
	h, err := ReadHeader(v)
	if err != nil {
		return nil, fmt.Errorf("%s: object %d: %w", f.Name, o.PathID, err)
	}
	var opts Options
	if f.Container != nil {
		opts.ReadStream = f.Container.ReadStream
	}
	img, err := h.Pixels(opts)
	if err != nil {
		return nil, fmt.Errorf("%s: object %d: %w", f.Name, o.PathID, err)
	}
	return &model.Texture{Name: h.Name, Image: img}, nil
}
