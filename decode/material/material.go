// Package material decodes Unity materials (class 21) into what exporters
// draw with: a name, metallic-roughness factors and a base colour texture
// with its tiling and offset (model.Material). The texture is decoded by
// decode/texture; one whose format that package does not decode leaves the
// material with its factor alone, and the reason is returned as a note.
//
// The base colour is the first of the saved colour properties _BaseColor
// (URP, HDRP) and _Color (built-in pipeline) the material has; the texture
// the first non-empty of _BaseMap (URP), _BaseColorMap (HDRP) and _MainTex
// (built-in). Unity stores a material's colours sRGB-encoded (as picked;
// linear-space projects convert them before shading), so the factor is
// converted to linear, as glTF's baseColorFactor is. Metallic is _Metallic
// (0 when absent, as in Unity's shaders), roughness 1 − _Smoothness (URP,
// HDRP) or 1 − _Glossiness (built-in Standard), 0.5 when absent.
package material

import (
	"errors"
	"fmt"
	"math"

	"github.com/mecanim/mecanim/decode/texture"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/assets"
	"github.com/mecanim/mecanim/unity/serialized"
	"github.com/mecanim/mecanim/unity/typetree"
)

// ClassMaterial is the class id of the objects this package decodes.
const ClassMaterial = 21

// Property names read, in order of preference.
var (
	colorProperties      = []string{"_BaseColor", "_Color"}
	textureProperties    = []string{"_BaseMap", "_BaseColorMap", "_MainTex"}
	smoothnessProperties = []string{"_Smoothness", "_Glossiness"}
)

// Resolver finds the object a reference made in file from points at, in
// any file opened together with it (catalog.Catalog.Resolve fits through a
// small adapter). Nil resolves only references inside the same file.
type Resolver func(from *assets.File, ref model.Ref) (*assets.File, *serialized.Object, bool)

// ErrMalformed: the material's saved properties are not what a Material's
// are.
var ErrMalformed = errors.New("material: malformed")

// TextureError is a note that a material's base colour texture was left
// out: the material keeps its factor. Err wraps the cause (a
// *texture.UnsupportedError naming the format when that is why).
type TextureError struct {
	Material string
	Texture  string
	Err      error
}

// Error names the material, the texture and why (for a format not
// decoded, just the format: the texture is named already).
func (e *TextureError) Error() string {
	why := e.Err.Error()
	var ue *texture.UnsupportedError
	if errors.As(e.Err, &ue) {
		why = fmt.Sprintf("format %s is not decoded", ue.Format)
	}
	return fmt.Sprintf("material %q: base colour texture %q left out: %s", e.Material, e.Texture, why)
}

// Unwrap returns the cause.
func (e *TextureError) Unwrap() error { return e.Err }

// Decoder decodes materials and their textures, each object once: the
// materials that share a texture share its *model.Texture. It is not safe
// for concurrent use.
type Decoder struct {
	resolve   Resolver
	materials map[*serialized.Object]decoded
	textures  map[*serialized.Object]decodedTexture
	reported  map[*serialized.Object]bool // objects whose error was returned
}

type decoded struct {
	m   model.Material
	tex *serialized.Object // the texture the note is about, if any
	err error
}

type decodedTexture struct {
	t   *model.Texture
	err error
}

// NewDecoder returns a decoder that follows references with resolve.
func NewDecoder(resolve Resolver) *Decoder {
	return &Decoder{
		resolve:   resolve,
		materials: map[*serialized.Object]decoded{},
		textures:  map[*serialized.Object]decodedTexture{},
		reported:  map[*serialized.Object]bool{},
	}
}

// find resolves ref made in file from.
func (d *Decoder) find(from *assets.File, ref model.Ref) (*assets.File, *serialized.Object, bool) {
	if ref.IsNull() {
		return nil, nil, false
	}
	if ref.FileID == 0 {
		o, ok := from.Object(ref.PathID)
		return from, o, ok
	}
	if d.resolve == nil {
		return nil, nil, false
	}
	return d.resolve(from, ref)
}

// Material decodes the material ref (made in file from) points at. ok is
// false when no object is found there (the zero Material is then what
// draws). A material whose properties cannot be read comes back with its
// name and an error; one whose texture is left out comes back with its
// factor and a *TextureError. Each error is returned once: the first
// time its material (or, for a texture, any material using it) is met.
func (d *Decoder) Material(from *assets.File, ref model.Ref) (m model.Material, ok bool, err error) {
	f, o, ok := d.find(from, ref)
	if !ok {
		return model.Material{}, false, nil
	}
	c, seen := d.materials[o]
	if !seen {
		c.m, c.tex, c.err = d.decode(f, o)
		d.materials[o] = c
	}
	if c.err == nil {
		return c.m, true, nil
	}
	key := c.tex // a texture's note once, whichever material meets it
	if key == nil {
		key = o
	}
	if d.reported[key] {
		return c.m, true, nil
	}
	d.reported[key] = true
	return c.m, true, c.err
}

// decode reads one material; tex is the texture a returned note is about.
func (d *Decoder) decode(f *assets.File, o *serialized.Object) (m model.Material, tex *serialized.Object, err error) {
	name, _ := f.ObjectName(o)
	m = model.Material{Name: name}
	if o.ClassID != ClassMaterial {
		return m, nil, f.In(fmt.Errorf("%w: object %d is a %s, not a Material", ErrMalformed, o.PathID, f.ClassName(o)))
	}
	v, err := f.Decode(o)
	if err != nil {
		return m, nil, f.In(fmt.Errorf("material %q (object %d): %w", name, o.PathID, err))
	}
	props := v.Field("m_SavedProperties")
	if props == nil {
		return m, nil, f.In(fmt.Errorf("material %q: %w: no m_SavedProperties", name, ErrMalformed))
	}
	m.HasFactors = true
	m.BaseColor = [4]float32{1, 1, 1, 1}
	m.Metallic, m.Roughness = 0, 0.5
	floats := pairs(props.Field("m_Floats"))
	if x, ok := floats["_Metallic"]; ok {
		m.Metallic = clamp01(x.Float32())
	}
	for _, p := range smoothnessProperties {
		if x, ok := floats[p]; ok {
			m.Roughness = 1 - clamp01(x.Float32())
			break
		}
	}
	colors := pairs(props.Field("m_Colors"))
	for _, p := range colorProperties {
		if c, ok := colors[p]; ok {
			m.BaseColor = [4]float32{
				linear(c.Field("r").Float32()), linear(c.Field("g").Float32()), linear(c.Field("b").Float32()),
				c.Field("a").Float32(),
			}
			break
		}
	}
	texs := pairs(props.Field("m_TexEnvs"))
	for _, p := range textureProperties {
		env, ok := texs[p]
		if !ok {
			continue
		}
		fid, pid, _ := env.Field("m_Texture").PPtr()
		ref := model.Ref{FileID: fid, PathID: pid}
		if ref.IsNull() {
			continue
		}
		m.TextureScale = [2]float32{env.Path("m_Scale", "x").Float32(), env.Path("m_Scale", "y").Float32()}
		m.TextureOffset = [2]float32{env.Path("m_Offset", "x").Float32(), env.Path("m_Offset", "y").Float32()}
		tf, to, found := d.find(f, ref)
		if !found {
			return m, nil, &TextureError{Material: name, Texture: fmt.Sprintf("%d:%d", fid, pid), Err: errors.New("not found")}
		}
		t, err := d.texture(tf, to)
		if err != nil {
			tn, _ := tf.ObjectName(to)
			return m, to, &TextureError{Material: name, Texture: tn, Err: err}
		}
		m.BaseColorTexture = t
		break
	}
	return m, nil, nil
}

// texture decodes a Texture2D once.
func (d *Decoder) texture(f *assets.File, o *serialized.Object) (*model.Texture, error) {
	if c, ok := d.textures[o]; ok {
		return c.t, c.err
	}
	var t *model.Texture
	var err error
	if o.ClassID != texture.ClassTexture2D {
		err = fmt.Errorf("%w: object %d is a %s, not a Texture2D", ErrMalformed, o.PathID, f.ClassName(o))
	} else {
		t, err = texture.FromFile(f, o)
	}
	d.textures[o] = decodedTexture{t: t, err: err}
	return t, err
}

// pairs indexes a map of saved properties by name: its elements are
// (first, second) pairs, first a string or (before Unity 2017.3) a
// FastPropertyName struct holding one.
func pairs(v *typetree.Value) map[string]*typetree.Value {
	out := map[string]*typetree.Value{}
	for i := 0; i < v.Len(); i++ {
		e := v.Index(i)
		k := e.Field("first")
		name := k.Str()
		if k.Kind() == typetree.KindStruct {
			name = k.Field("name").Str()
		}
		if _, dup := out[name]; !dup {
			out[name] = e.Field("second")
		}
	}
	return out
}

func clamp01(x float32) float32 {
	if !(x > 0) {
		return 0
	}
	return min(x, 1)
}

// linear decodes an sRGB-encoded colour channel (IEC 61966-2-1).
func linear(c float32) float32 {
	if c <= 0.04045 {
		return c / 12.92
	}
	return float32(math.Pow((float64(c)+0.055)/1.055, 2.4))
}
