package sprite

import (
	"fmt"
	"hash/crc32"
	"image"

	"github.com/mecanim/mecanim/decode/material"
	"github.com/mecanim/mecanim/decode/mesh"
	"github.com/mecanim/mecanim/decode/texture"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/assets"
	"github.com/mecanim/mecanim/unity/serialized"
	"github.com/mecanim/mecanim/unity/typetree"
)

// Resolver finds the object a reference made in a file points at, in any
// file opened with it (decode/catalog's Resolver).
type Resolver = material.Resolver

// Picture is a sprite cut from its texture: its name, its image (top row
// first) and its pivot in the image's pixels from the top-left corner.
type Picture struct {
	Name  string
	Image *image.NRGBA
	Pivot image.Point
}

// FromFile reads Sprite object o of file f and cuts its picture, following
// its atlas (when one packed it) and its texture through resolve (nil:
// only objects of f). Errors name the file and the sprite.
func FromFile(f *assets.File, o *serialized.Object, resolve Resolver) (*Picture, error) {
	fail := func(err error) (*Picture, error) {
		return nil, fmt.Errorf("%s: sprite %d: %w", f.Name, o.PathID, err)
	}
	if o.ClassID != ClassSprite {
		return fail(fmt.Errorf("%w: class %d is not a Sprite", ErrMalformed, o.ClassID))
	}
	v, err := f.Decode(o)
	if err != nil {
		return fail(err)
	}
	s, err := Read(v)
	if err != nil {
		return fail(err)
	}
	if err := s.readOutline(v, f); err != nil {
		return fail(err)
	}
	find := func(from *assets.File, r model.Ref) (*assets.File, *serialized.Object, bool) {
		if r.IsNull() {
			return nil, nil, false
		}
		if r.FileID == 0 {
			obj, ok := from.Object(r.PathID)
			return from, obj, ok
		}
		if resolve == nil {
			return nil, nil, false
		}
		return resolve(from, r)
	}
	texFile := f // the file the render data's references are made in
	if !s.Atlas.IsNull() {
		af, ao, ok := find(f, s.Atlas)
		if !ok {
			return fail(fmt.Errorf("its sprite atlas (%d:%d) is %w", s.Atlas.FileID, s.Atlas.PathID, ErrMissing))
		}
		av, err := af.Decode(ao)
		if err != nil {
			return fail(fmt.Errorf("sprite atlas %d: %w", ao.PathID, err))
		}
		atlas, err := ReadAtlas(av)
		if err != nil {
			return fail(err)
		}
		if !s.UseAtlas(atlas) {
			return fail(fmt.Errorf("%w: sprite atlas %d holds no render data for %q", ErrMalformed, ao.PathID, s.Name))
		}
		texFile = af
	}
	tf, to, ok := find(texFile, s.Render.Texture)
	if !ok || to.ClassID != texture.ClassTexture2D {
		return fail(fmt.Errorf("%q: its texture (%d:%d) is %w", s.Name, s.Render.Texture.FileID, s.Render.Texture.PathID, ErrMissing))
	}
	tex, err := texture.FromFile(tf, to)
	if err != nil {
		return fail(err)
	}
	img, pivot, err := Cut(tex.Image, s)
	if err != nil {
		return fail(err)
	}
	return &Picture{Name: s.Name, Image: img, Pivot: pivot}, nil
}

// spriteAttribute is the binding attribute of m_Sprite (the CRC-32 of the
// property name, as clips store it).
var spriteAttribute = crc32.ChecksumIEEE([]byte("m_Sprite"))

// Class ids of the components whose m_Sprite clips switch.
const (
	ClassSpriteRenderer = 212
	ClassMonoBehaviour  = 114 // UI Image
)

// IsSpriteCurve reports whether an object curve switches a sprite: the
// m_Sprite of a SpriteRenderer or of a UI Image (a MonoBehaviour).
func IsSpriteCurve(oc model.ObjectCurve) bool {
	t := oc.Target
	if t.ClassID != ClassSpriteRenderer && t.ClassID != ClassMonoBehaviour {
		return false
	}
	return t.Property == "m_Sprite" || t.Attribute == spriteAttribute
}

// Step is one key of a sprite curve: from Time on, Picture shows (nil:
// none, the key sets no sprite).
type Step struct {
	Time    float32
	Picture *Picture
}

// Steps cuts the picture of every key of a sprite curve of a clip read
// from file f. cache, when not nil, keeps pictures by sprite object across
// calls (a clip's sprites repeat, and clips share them).
func Steps(f *assets.File, oc model.ObjectCurve, resolve Resolver, cache map[*serialized.Object]*Picture) ([]Step, error) {
	var out []Step
	for i, k := range oc.Keys {
		var (
			sf *assets.File
			so *serialized.Object
			ok bool
		)
		switch {
		case k.Object.IsNull():
			out = append(out, Step{Time: k.Time}) // the sprite hidden
			continue
		case k.Object.FileID == 0:
			sf = f
			so, ok = f.Object(k.Object.PathID)
		case resolve != nil:
			sf, so, ok = resolve(f, k.Object)
		}
		if !ok {
			return nil, fmt.Errorf("%s: sprite curve of %q: key %d (at %g s): sprite %d:%d is %w", f.Name, oc.Target.Path, i, k.Time, k.Object.FileID, k.Object.PathID, ErrMissing)
		}
		p := cache[so]
		if p == nil {
			var err error
			if p, err = FromFile(sf, so, resolve); err != nil {
				return nil, fmt.Errorf("sprite curve of %q: key %d (at %g s): %w", oc.Target.Path, i, k.Time, err)
			}
			if cache != nil {
				cache[so] = p
			}
		}
		out = append(out, Step{Time: k.Time, Picture: p})
	}
	return out, nil
}

// readOutline reads the tight mesh of a Sprite value (its m_RD's vertices
// and 16-bit indices) into s.Outline; a full-rectangle sprite has none.
func (s *Sprite) readOutline(v *typetree.Value, f *assets.File) error {
	rd := v.Field("m_RD")
	if uint32(rd.Field("settingsRaw").Uint())>>6&1 == 0 || !rd.Has("m_VertexData") || !rd.Has("m_IndexBuffer") {
		return nil // full rectangle, or a layout without the mesh
	}
	vd, err := mesh.VertexDataOf(rd, mesh.Options{Version: f.Version})
	if err != nil {
		return fmt.Errorf("%q: outline: %w", s.Name, err)
	}
	pos, dim, err := vd.Floats(mesh.ChanPosition, nil)
	if err != nil || dim < 2 {
		return fmt.Errorf("%q: %w: outline positions: %v", s.Name, ErrMalformed, err)
	}
	ib := rd.Field("m_IndexBuffer").Bytes()
	for i := 0; i+6 <= len(ib); i += 6 {
		var t [3][2]float32
		for k := range 3 {
			n := int(ib[i+2*k]) | int(ib[i+2*k+1])<<8
			if n >= vd.VertexCount {
				return fmt.Errorf("%q: %w: outline index %d of %d vertices", s.Name, ErrMalformed, n, vd.VertexCount)
			}
			t[k] = [2]float32{pos[n*dim], pos[n*dim+1]}
		}
		s.Outline = append(s.Outline, t)
	}
	return nil
}
