// Package sprite reads Unity's Sprite objects (class 213) and the sprite
// atlases that pack them (SpriteAtlas, class 687078895), and cuts a
// sprite's picture out of its texture: the rectangle it occupies there,
// turned back when the packer flipped or rotated it, placed in the
// sprite's own rectangle where packing trimmed its transparent border.
//
// A sprite with a tight mesh keeps only the texels its mesh covers: tight
// atlases pack sprites into each other's empty corners, so the rest of
// its rectangle may hold its neighbours.
package sprite

import (
	"errors"
	"fmt"
	"image"
	"math"

	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/typetree"
)

// Class ids of the objects this package reads.
const (
	ClassSprite      = 213
	ClassSpriteAtlas = 687078895
)

// Errors wrapped by this package's functions.
var (
	// ErrMalformed: a sprite's fields are missing or inconsistent.
	ErrMalformed = errors.New("sprite: malformed")
	// ErrMissing: a sprite, its atlas or its texture is in no file given.
	ErrMissing = errors.New("not among the inputs")
)

// Rotation is how a packer stored a sprite in its texture (Unity's
// SpritePackingRotation).
type Rotation int

// Unity's packing rotations.
const (
	RotationNone Rotation = iota
	FlipHorizontal
	FlipVertical
	Rotate180
	Rotate90
)

// String names the rotation as Unity does.
func (r Rotation) String() string {
	switch r {
	case RotationNone:
		return "None"
	case FlipHorizontal:
		return "FlipHorizontal"
	case FlipVertical:
		return "FlipVertical"
	case Rotate180:
		return "Rotate180"
	case Rotate90:
		return "Rotate90"
	}
	return fmt.Sprintf("SpritePackingRotation(%d)", int(r))
}

// Rect is a rectangle in texture pixels, from the bottom-left corner as
// Unity measures them.
type Rect struct{ X, Y, W, H float32 }

// Key names a sprite's render data in an atlas (m_RenderDataKey: the
// sprite's GUID and its local id).
type Key struct {
	GUID [4]uint32
	ID   int64
}

// RenderData is where a sprite's pixels are: its texture, the rectangle
// it occupies there, that rectangle's offset in the sprite's own
// rectangle, and how it was packed.
type RenderData struct {
	Texture     model.Ref
	TextureRect Rect
	// Offset is where TextureRect's bottom-left corner lies in the
	// sprite's rectangle (packing trims transparent borders).
	Offset   [2]float32
	Packed   bool
	Rotation Rotation
	// TightPacking: the packer fitted the sprite by its mesh, not its
	// rectangle.
	TightPacking bool
}

// Sprite is what a Sprite object says about its picture.
type Sprite struct {
	Name string
	// Rect is the sprite's rectangle in its source texture; its size is
	// the picture's.
	Rect Rect
	// Pivot is the point the sprite is drawn about, as a fraction of
	// Rect from its bottom-left corner.
	Pivot         [2]float32
	PixelsToUnits float32
	// Atlas is the SpriteAtlas holding the sprite's render data when it
	// was packed by one (null otherwise); Key finds it there.
	Atlas model.Ref
	Key   Key
	// Render is the sprite's own render data (the atlas's replaces it;
	// see UseAtlas).
	Render RenderData
	// Outline is the sprite's tight mesh as triangles, in units from its
	// pivot (m_RD's vertices and indices); nil for a full-rectangle
	// sprite, whose picture is its whole rectangle.
	Outline [][3][2]float32
}

func ref(v *typetree.Value) model.Ref {
	f, p, _ := v.PPtr()
	return model.Ref{FileID: f, PathID: p}
}

func rect(v *typetree.Value) Rect {
	return Rect{v.Field("x").Float32(), v.Field("y").Float32(), v.Field("width").Float32(), v.Field("height").Float32()}
}

func vec2(v *typetree.Value) [2]float32 {
	return [2]float32{v.Field("x").Float32(), v.Field("y").Float32()}
}

func key(v *typetree.Value) Key {
	var k Key
	if g := v.Field("first"); g != nil {
		for i, e := range g.Field("data").Elems() {
			if i < 4 {
				k.GUID[i] = uint32(e.Uint())
			}
		}
		// Some layouts name the GUID's words data[0]..data[3].
		for i := range 4 {
			if w := g.Field(fmt.Sprintf("data[%d]", i)); w != nil {
				k.GUID[i] = uint32(w.Uint())
			}
		}
	}
	k.ID = v.Field("second").Int()
	return k
}

// renderData reads the fields SpriteRenderData and SpriteAtlasData share.
func renderData(v *typetree.Value) RenderData {
	raw := uint32(v.Field("settingsRaw").Uint())
	return RenderData{
		Texture:      ref(v.Field("texture")),
		TextureRect:  rect(v.Field("textureRect")),
		Offset:       vec2(v.Field("textureRectOffset")),
		Packed:       raw&1 != 0,
		TightPacking: raw&2 == 0,
		Rotation:     Rotation(raw >> 2 & 15),
	}
}

// Read reads a decoded Sprite value.
func Read(v *typetree.Value) (*Sprite, error) {
	name := v.Field("m_Name").Str()
	if v.Kind() != typetree.KindStruct || !v.Has("m_Rect") || !v.Has("m_RD") {
		return nil, fmt.Errorf("sprite %q: %w: not a Sprite (no m_Rect or m_RD)", name, ErrMalformed)
	}
	s := &Sprite{Name: name, Rect: rect(v.Field("m_Rect")), Pivot: [2]float32{0.5, 0.5}, PixelsToUnits: v.Field("m_PixelsToUnits").Float32()}
	if p := v.Field("m_Pivot"); p != nil {
		s.Pivot = vec2(p)
	}
	if a := v.Field("m_SpriteAtlas"); a != nil {
		s.Atlas = ref(a)
	}
	if k := v.Field("m_RenderDataKey"); k != nil {
		s.Key = key(k)
	}
	s.Render = renderData(v.Field("m_RD"))
	return s, nil
}

// ReadAtlas reads a decoded SpriteAtlas value: the render data of every
// sprite it packs, by key.
func ReadAtlas(v *typetree.Value) (map[Key]RenderData, error) {
	name := v.Field("m_Name").Str()
	m := v.Field("m_RenderDataMap")
	if v.Kind() != typetree.KindStruct || m == nil {
		return nil, fmt.Errorf("sprite atlas %q: %w: no m_RenderDataMap", name, ErrMalformed)
	}
	out := map[Key]RenderData{}
	for _, e := range m.Elems() {
		out[key(e.Field("first"))] = renderData(e.Field("second"))
	}
	return out, nil
}

// UseAtlas takes the sprite's render data from its atlas's map; false when
// the atlas does not hold the sprite's key.
func (s *Sprite) UseAtlas(atlas map[Key]RenderData) bool {
	rd, ok := atlas[s.Key]
	if ok {
		s.Render = rd
	}
	return ok
}

// Cut cuts the sprite's picture out of its texture's image (top row first,
// as decode/texture returns it): an image of the sprite's rectangle's
// size, top row first, with the pivot in its pixels from the top-left
// corner. The texture rectangle must lie in the texture.
func Cut(tex *image.NRGBA, s *Sprite) (*image.NRGBA, image.Point, error) {
	tb := tex.Bounds()
	r := s.Render.TextureRect
	x0, y0 := round(r.X), round(r.Y)
	w, h := round(r.W), round(r.H)
	if w <= 0 || h <= 0 || x0 < 0 || y0 < 0 || x0+w > tb.Dx() || y0+h > tb.Dy() {
		return nil, image.Point{}, fmt.Errorf("sprite %q: %w: texture rectangle %v outside the %d×%d texture", s.Name, ErrMalformed, r, tb.Dx(), tb.Dy())
	}
	// Rows from the bottom: the rectangle's top row is image row
	// height−(y0+h).
	src := image.Rect(tb.Min.X+x0, tb.Min.Y+tb.Dy()-(y0+h), tb.Min.X+x0+w, tb.Min.Y+tb.Dy()-y0)
	part := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		copy(part.Pix[y*part.Stride:y*part.Stride+4*w], tex.Pix[tex.PixOffset(src.Min.X, src.Min.Y+y):])
	}
	if s.Render.Packed {
		part = unpack(part, s.Render.Rotation)
	}
	sw, sh := round(s.Rect.W), round(s.Rect.H)
	// The sprite's rectangle holds its packed part and the transparent
	// border packing trimmed; a rectangle out of all proportion to the
	// part is damage (and would allocate without bound).
	if sw <= 0 || sh <= 0 || sw > 1<<15 || sh > 1<<15 || sw*sh > 16*w*h+1<<22 {
		return nil, image.Point{}, fmt.Errorf("sprite %q: %w: rectangle %v for a %d×%d texture part", s.Name, ErrMalformed, s.Rect, w, h)
	}
	out := part
	if pw, ph := part.Bounds().Dx(), part.Bounds().Dy(); pw != sw || ph != sh || s.Render.Offset != [2]float32{} {
		// Trimmed: place the part at its offset in the sprite's rectangle.
		out = image.NewNRGBA(image.Rect(0, 0, sw, sh))
		ox := round(s.Render.Offset[0])
		oy := sh - round(s.Render.Offset[1]) - ph
		for y := 0; y < ph; y++ {
			ty := oy + y
			if ty < 0 || ty >= sh {
				continue
			}
			for x := 0; x < pw; x++ {
				tx := ox + x
				if tx < 0 || tx >= sw {
					continue
				}
				copy(out.Pix[out.PixOffset(tx, ty):out.PixOffset(tx, ty)+4], part.Pix[part.PixOffset(x, y):])
			}
		}
	}
	if len(s.Outline) > 0 {
		out = mask(out, s, sw, sh)
	}
	pivot := image.Pt(round(s.Pivot[0]*float32(sw)), round((1-s.Pivot[1])*float32(sh)))
	return out, pivot, nil
}

// mask keeps the texels of img (the sprite's rectangle, top row first)
// whose centres its outline's triangles cover, and clears the others.
func mask(img *image.NRGBA, s *Sprite, sw, sh int) *image.NRGBA {
	out := image.NewNRGBA(img.Bounds())
	ppu := float64(s.PixelsToUnits)
	if !(ppu > 0) || math.IsInf(ppu, 0) {
		return img
	}
	px, py := float64(s.Pivot[0])*float64(sw), float64(s.Pivot[1])*float64(sh)
	for _, t := range s.Outline {
		// The triangle in pixels from the rectangle's top-left corner.
		var v [3][2]float64
		lo, hi := [2]float64{math.Inf(1), math.Inf(1)}, [2]float64{math.Inf(-1), math.Inf(-1)}
		for k, p := range t {
			v[k] = [2]float64{float64(p[0])*ppu + px, float64(sh) - (float64(p[1])*ppu + py)}
			for c := range 2 {
				lo[c], hi[c] = math.Min(lo[c], v[k][c]), math.Max(hi[c], v[k][c])
			}
		}
		area := (v[1][0]-v[0][0])*(v[2][1]-v[0][1]) - (v[2][0]-v[0][0])*(v[1][1]-v[0][1])
		if !(math.Abs(area) > 1e-12) {
			continue
		}
		x0, x1 := max(0, int(math.Floor(lo[0]))), min(sw-1, int(math.Ceil(hi[0])))
		y0, y1 := max(0, int(math.Floor(lo[1]))), min(sh-1, int(math.Ceil(hi[1])))
		edge := func(a, b [2]float64, x, y float64) float64 {
			return ((b[0]-a[0])*(y-a[1]) - (x-a[0])*(b[1]-a[1])) / area
		}
		const eps = 1e-9
		for y := y0; y <= y1; y++ {
			for x := x0; x <= x1; x++ {
				cx, cy := float64(x)+0.5, float64(y)+0.5
				if edge(v[0], v[1], cx, cy) >= -eps && edge(v[1], v[2], cx, cy) >= -eps && edge(v[2], v[0], cx, cy) >= -eps {
					o := img.PixOffset(x, y)
					copy(out.Pix[o:o+4], img.Pix[o:o+4])
				}
			}
		}
	}
	return out
}

// unpack undoes a packer's flip or rotation of a sprite (seen top row
// first): the flips and half turn are their own inverses; Rotate90 stored
// the sprite turned a quarter counter-clockwise, so it is turned back
// clockwise.
func unpack(img *image.NRGBA, r Rotation) *image.NRGBA {
	w, h := img.Bounds().Dx(), img.Bounds().Dy()
	at := func(x, y int) []uint8 { o := img.PixOffset(x, y); return img.Pix[o : o+4] }
	var out *image.NRGBA
	var from func(x, y int) (int, int)
	switch r {
	case FlipHorizontal:
		out, from = image.NewNRGBA(image.Rect(0, 0, w, h)), func(x, y int) (int, int) { return w - 1 - x, y }
	case FlipVertical:
		out, from = image.NewNRGBA(image.Rect(0, 0, w, h)), func(x, y int) (int, int) { return x, h - 1 - y }
	case Rotate180:
		out, from = image.NewNRGBA(image.Rect(0, 0, w, h)), func(x, y int) (int, int) { return w - 1 - x, h - 1 - y }
	case Rotate90:
		// Output is h wide, w high; its (x, y) comes from the stored
		// image's (y, h−1−x).
		out, from = image.NewNRGBA(image.Rect(0, 0, h, w)), func(x, y int) (int, int) { return y, h - 1 - x }
	default:
		return img
	}
	ob := out.Bounds()
	for y := 0; y < ob.Dy(); y++ {
		for x := 0; x < ob.Dx(); x++ {
			sx, sy := from(x, y)
			copy(out.Pix[out.PixOffset(x, y):out.PixOffset(x, y)+4], at(sx, sy))
		}
	}
	return out
}

func round(x float32) int {
	if math.IsNaN(float64(x)) || x > 1<<30 || x < -(1<<30) {
		return -1 << 30
	}
	return int(math.Round(float64(x)))
}
