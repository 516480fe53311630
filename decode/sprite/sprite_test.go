package sprite

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"math"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/internal/synth"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/assets"
	"github.com/mecanim/mecanim/unity/serialized"
	"github.com/mecanim/mecanim/unity/typetree"
	"github.com/mecanim/mecanim/unity/unitywrite"
)

type F = unitywrite.Fields

// buildTree makes a type tree from an outline (synth.Outline's form).
func buildTree(outline string) *typetree.Tree { return synth.Outline(outline) }

// indent shifts an outline's lines right by n levels.
func indent(s string, n int) string {
	return strings.ReplaceAll(s, "\n", "\n"+strings.Repeat("  ", n))
}

const (
	str = `
  Array Array array align
    int size 4
    char data 1`
	pptr = `
  int m_FileID 4
  SInt64 m_PathID 8`
	rectf = `
  float x 4
  float y 4
  float width 4
  float height 4`
	vec2f = `
  float x 4
  float y 4`
	guidKey = `
  GUID first
    unsigned~int data[0] 4
    unsigned~int data[1] 4
    unsigned~int data[2] 4
    unsigned~int data[3] 4
  SInt64 second 8`
)

// The parts of Unity's Sprite and SpriteAtlas layouts this package reads.
var (
	spriteTree = buildTree(`
Sprite Base
  string m_Name` + indent(str, 1) + `
  Rectf m_Rect` + indent(rectf, 1) + `
  Vector2f m_Pivot` + indent(vec2f, 1) + `
  float m_PixelsToUnits 4
  pair m_RenderDataKey` + indent(guidKey, 1) + `
  PPtr<SpriteAtlas> m_SpriteAtlas` + indent(pptr, 1) + `
  SpriteRenderData m_RD
    PPtr<Texture2D> texture` + indent(pptr, 2) + `
    Rectf textureRect` + indent(rectf, 2) + `
    Vector2f textureRectOffset` + indent(vec2f, 2) + `
    unsigned~int settingsRaw 4`)
	atlasTree = buildTree(`
SpriteAtlas Base
  string m_Name` + indent(str, 1) + `
  map m_RenderDataMap
    Array Array array
      int size 4
      pair data
        pair first` + indent(guidKey, 4) + `
        SpriteAtlasData second
          PPtr<Texture2D> texture` + indent(pptr, 5) + `
          Rectf textureRect` + indent(rectf, 5) + `
          Vector2f textureRectOffset` + indent(vec2f, 5) + `
          unsigned~int settingsRaw 4`)
)

func decode(t *testing.T, tr *typetree.Tree, v F) *typetree.Value {
	t.Helper()
	b, err := unitywrite.Encode(tr, v)
	if err != nil {
		t.Fatal(err)
	}
	val, err := typetree.Decode(tr, b, binary.LittleEndian)
	if err != nil {
		t.Fatal(err)
	}
	return val
}

func rf(x, y, w, h float32) F { return F{"x": x, "y": y, "width": w, "height": h} }

func spriteFields(name string, r, tr F, off F, settings uint32, pivot F, atlas int64) F {
	return F{"m_Name": name, "m_Rect": r, "m_Pivot": pivot, "m_PixelsToUnits": float32(100),
		"m_RenderDataKey": F{"first": F{"data[0]": uint32(1), "data[1]": uint32(2), "data[2]": uint32(3), "data[3]": uint32(4)}, "second": int64(21300000)},
		"m_SpriteAtlas":   F{"m_FileID": int32(0), "m_PathID": atlas},
		"m_RD":            F{"texture": F{"m_FileID": int32(0), "m_PathID": int64(7)}, "textureRect": tr, "textureRectOffset": off, "settingsRaw": settings}}
}

// testTexture is an 8×4 image whose texel (x, y), y counted from the bottom
// as Unity does, has red x·10, green y·10 (top row first in the image).
func testTexture() *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, 8, 4))
	for y := range 4 {
		for x := range 8 {
			img.SetNRGBA(x, 3-y, color.NRGBA{uint8(x * 10), uint8(y * 10), 0, 255})
		}
	}
	return img
}

// texel returns the Unity coordinates a cut image's texel came from.
func texel(img *image.NRGBA, x, y int) (int, int, uint8) {
	c := img.NRGBAAt(x, y)
	return int(c.R) / 10, int(c.G) / 10, c.A
}

// A sprite is cut from its texture's rectangle (rows counted from the
// bottom), turned back as its packer turned it, placed at its offset in
// its own rectangle when packing trimmed it, with its pivot in pixels from
// the top-left corner.
func TestCutTurnsBackAndPlaces(t *testing.T) {
	tex := testTexture()
	for _, c := range []struct {
		name     string
		rect, tr F
		off      F
		settings uint32
		pivot    F
		size     image.Point
		pivotPx  image.Point
		// the Unity texel at the cut image's top-left and top-right
		tl, tr2 [2]int
	}{
		{"plain", rf(0, 0, 3, 2), rf(2, 1, 3, 2), F{"x": float32(0), "y": float32(0)}, 0, F{"x": float32(0.5), "y": float32(0)},
			image.Pt(3, 2), image.Pt(2, 2), [2]int{2, 2}, [2]int{4, 2}},
		{"flipped", rf(0, 0, 3, 2), rf(2, 1, 3, 2), F{"x": float32(0), "y": float32(0)}, 1 | 1<<2, F{"x": float32(0), "y": float32(1)},
			image.Pt(3, 2), image.Pt(0, 0), [2]int{4, 2}, [2]int{2, 2}},
		{"rotated", rf(0, 0, 2, 3), rf(2, 1, 3, 2), F{"x": float32(0), "y": float32(0)}, 1 | 4<<2, F{"x": float32(0.5), "y": float32(0.5)},
			image.Pt(2, 3), image.Pt(1, 2), [2]int{2, 1}, [2]int{2, 2}},
		{"trimmed", rf(0, 0, 5, 4), rf(2, 1, 3, 2), F{"x": float32(1), "y": float32(0)}, 1, F{"x": float32(0), "y": float32(0)},
			image.Pt(5, 4), image.Pt(0, 4), [2]int{-1, -1}, [2]int{-1, -1}},
	} {
		s, err := Read(decode(t, spriteTree, spriteFields(c.name, c.rect, c.tr, c.off, c.settings, c.pivot, 0)))
		if err != nil {
			t.Fatal(err)
		}
		if s.Name != c.name || s.Render.Texture != (model.Ref{PathID: 7}) || s.Key.ID != 21300000 || s.Key.GUID != [4]uint32{1, 2, 3, 4} {
			t.Errorf("%s: read %+v", c.name, s)
		}
		img, pivot, err := Cut(tex, s)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if img.Bounds().Size() != c.size || pivot != c.pivotPx {
			t.Errorf("%s: %v pivot %v, want %v pivot %v", c.name, img.Bounds().Size(), pivot, c.size, c.pivotPx)
		}
		if c.tl[0] >= 0 {
			x, y, _ := texel(img, 0, 0)
			x2, y2, _ := texel(img, img.Bounds().Dx()-1, 0)
			if [2]int{x, y} != c.tl || [2]int{x2, y2} != c.tr2 {
				t.Errorf("%s: top corners from texels (%d, %d) and (%d, %d), want %v %v", c.name, x, y, x2, y2, c.tl, c.tr2)
			}
		}
	}
	// Trimmed: the part sits 1 right of the left edge, on the bottom.
	s, _ := Read(decode(t, spriteTree, spriteFields("t", rf(0, 0, 5, 4), rf(2, 1, 3, 2), F{"x": float32(1), "y": float32(0)}, 1, F{"x": float32(0), "y": float32(0)}, 0)))
	img, _, _ := Cut(tex, s)
	if _, _, a := texel(img, 0, 3); a != 0 {
		t.Error("trimmed: the left column is not empty")
	}
	if x, y, a := texel(img, 1, 3); a != 255 || x != 2 || y != 1 {
		t.Errorf("trimmed: bottom-left of the part from (%d, %d)", x, y)
	}
}

// A packed sprite's render data comes from its atlas by its key.
func TestAtlasGivesRenderData(t *testing.T) {
	av := decode(t, atlasTree, F{"m_Name": "atlas", "m_RenderDataMap": [][2]any{{
		F{"first": F{"data[0]": uint32(1), "data[1]": uint32(2), "data[2]": uint32(3), "data[3]": uint32(4)}, "second": int64(21300000)},
		F{"texture": F{"m_FileID": int32(1), "m_PathID": int64(99)}, "textureRect": rf(4, 0, 2, 2), "textureRectOffset": F{"x": float32(0), "y": float32(0)}, "settingsRaw": uint32(3)},
	}}})
	atlas, err := ReadAtlas(av)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := Read(decode(t, spriteTree, spriteFields("a", rf(0, 0, 2, 2), rf(0, 0, 2, 2), F{"x": float32(0), "y": float32(0)}, 0, F{"x": float32(0.5), "y": float32(0.5)}, 5)))
	if s.Atlas != (model.Ref{PathID: 5}) || !s.UseAtlas(atlas) || s.Render.Texture != (model.Ref{FileID: 1, PathID: 99}) || !s.Render.Packed || s.Render.TightPacking {
		t.Fatalf("%+v", s)
	}
	img, _, err := Cut(testTexture(), s)
	if x, y, _ := texel(img, 0, 1); err != nil || x != 4 || y != 0 {
		t.Errorf("cut from the atlas rectangle: (%d, %d) %v", x, y, err)
	}
}

// A rectangle outside the texture, or a value that is not a Sprite, is an
// error naming the sprite, never a panic.
func TestRefusesDamage(t *testing.T) {
	s, _ := Read(decode(t, spriteTree, spriteFields("far", rf(0, 0, 3, 3), rf(7, 3, 3, 3), F{"x": float32(0), "y": float32(0)}, 0, F{"x": float32(0), "y": float32(0)}, 0)))
	if _, _, err := Cut(testTexture(), s); !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), `"far"`) {
		t.Errorf("err %v", err)
	}
	if _, err := Read(decode(t, atlasTree, F{"m_Name": "x"})); !errors.Is(err, ErrMalformed) {
		t.Errorf("an atlas read as a sprite: %v", err)
	}
	if r := Rotation(9); r.String() != "SpritePackingRotation(9)" || Rotate90.String() != "Rotate90" {
		t.Errorf("names %v %v", r, Rotate90)
	}
}

var textureTree = synth.TextureTree()

// A clip's sprite curve, read from a serialized file holding the sprites
// and their texture: each key's picture is cut from the texture, a sprite
// shown twice is cut once, a key that sets no sprite shows none, and a
// sprite outside the inputs is an error naming the key.
func TestStepsCutEveryKeysSprite(t *testing.T) {
	px := make([]byte, 0, 4*8*4)
	for y := range 4 { // stored bottom row first
		for x := range 8 {
			px = append(px, uint8(x*10), uint8(y*10), 0, 255)
		}
	}
	enc := func(tr *typetree.Tree, v F) []byte {
		b, err := unitywrite.Encode(tr, v)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	objs := []unitywrite.Object{
		{PathID: 7, ClassID: 28, Tree: textureTree, Data: enc(textureTree, F{"m_Name": "sheet", "m_Width": int32(8), "m_Height": int32(4),
			"m_TextureFormat": int32(4), "m_MipCount": int32(1), "image data": px})},
		{PathID: 10, ClassID: ClassSprite, Tree: spriteTree, Data: enc(spriteTree, spriteFields("walk_0", rf(0, 0, 2, 2), rf(0, 0, 2, 2), F{"x": float32(0), "y": float32(0)}, 0, F{"x": float32(0.5), "y": float32(0)}, 0))},
		{PathID: 11, ClassID: ClassSprite, Tree: spriteTree, Data: enc(spriteTree, spriteFields("walk_1", rf(2, 0, 2, 2), rf(2, 0, 2, 2), F{"x": float32(0), "y": float32(0)}, 0, F{"x": float32(0.5), "y": float32(0)}, 0))},
	}
	b, err := unitywrite.SerializedFile("2022.3.9f1", 22, objs, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	ct, err := assets.OpenReader(bytes.NewReader(b), int64(len(b)), "sprites", assets.Options{})
	if err != nil {
		t.Fatal(err)
	}
	f := ct.Files[0]
	oc := model.ObjectCurve{Target: model.Target{Path: "Body", ClassID: ClassSpriteRenderer, Attribute: crc32.ChecksumIEEE([]byte("m_Sprite"))},
		Keys: []model.ObjectKey{{Time: 0, Object: model.Ref{PathID: 10}}, {Time: 0.1, Object: model.Ref{PathID: 11}}, {Time: 0.2, Object: model.Ref{PathID: 10}}, {Time: 0.3}}}
	if !IsSpriteCurve(oc) || IsSpriteCurve(model.ObjectCurve{Target: model.Target{ClassID: 23, Property: "m_Materials.Array.data[0]"}}) {
		t.Error("IsSpriteCurve")
	}
	cache := map[*serialized.Object]*Picture{}
	steps, err := Steps(f, oc, nil, cache)
	if err != nil {
		t.Fatal(err)
	}
	if len(steps) != 4 || steps[0].Picture != steps[2].Picture || steps[3].Picture != nil || len(cache) != 2 {
		t.Fatalf("steps %+v, %d cut", steps, len(cache))
	}
	p := steps[1].Picture
	if x, y, _ := texel(p.Image, 0, 1); p.Name != "walk_1" || p.Pivot != image.Pt(1, 2) || x != 2 || y != 0 {
		t.Errorf("walk_1: %q pivot %v, bottom-left from (%d, %d)", p.Name, p.Pivot, x, y)
	}
	oc.Keys = append(oc.Keys, model.ObjectKey{Time: 0.4, Object: model.Ref{FileID: 1, PathID: 99}})
	if _, err := Steps(f, oc, nil, nil); !errors.Is(err, ErrMissing) || !strings.Contains(err.Error(), "key 4 (at 0.4 s)") {
		t.Errorf("a sprite outside the inputs: %v", err)
	}
}

// A tight sprite keeps only the texels its outline covers: a triangle
// over the lower-left half of a 4×4 sprite keeps the bottom-left texel
// and clears the top-right one (a neighbour's, in a tight atlas).
func TestCutMasksByTheTightOutline(t *testing.T) {
	s := &Sprite{Name: "tight", Rect: Rect{0, 0, 4, 4}, PixelsToUnits: 2, Pivot: [2]float32{0.5, 0.5},
		Render:  RenderData{TextureRect: Rect{0, 0, 4, 4}},
		Outline: [][3][2]float32{{{-1, -1}, {1, -1}, {-1, 1}}}}
	img, _, err := Cut(testTexture(), s)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, a := texel(img, 0, 3); a != 255 {
		t.Error("the bottom-left texel is cleared")
	}
	if _, _, a := texel(img, 3, 0); a != 0 {
		t.Error("the top-right texel is kept")
	}
	if _, _, a := texel(img, 1, 1); a != 255 {
		t.Error("texel (1, 1), centre on the diagonal, is cleared")
	}
	s.Outline = nil
	if img, _, _ := Cut(testTexture(), s); img.NRGBAAt(3, 0).A != 255 {
		t.Error("a full-rectangle sprite is masked")
	}
}

// tightTree is Sprite's layout with the render data's mesh (2018.2 on:
// 14 vertex channels).
var tightTree = buildTree(`
Sprite Base
  string m_Name` + indent(str, 1) + `
  Rectf m_Rect` + indent(rectf, 1) + `
  Vector2f m_Pivot` + indent(vec2f, 1) + `
  float m_PixelsToUnits 4
  SpriteRenderData m_RD
    PPtr<Texture2D> texture` + indent(pptr, 2) + `
    vector m_IndexBuffer
      Array Array array align
        int size 4
        UInt8 data 1
    VertexData m_VertexData
      unsigned~int m_VertexCount 4
      vector m_Channels
        Array Array array
          int size 4
          ChannelInfo data
            UInt8 stream 1
            UInt8 offset 1
            UInt8 format 1
            UInt8 dimension 1
      TypelessData m_DataSize array align
        int size 4
        UInt8 data 1
    Rectf textureRect` + indent(rectf, 2) + `
    Vector2f textureRectOffset` + indent(vec2f, 2) + `
    unsigned~int settingsRaw 4`)

// A tight sprite read from a file takes its outline from its render
// data's vertices and indices, and its picture is masked by it.
func TestFromFileReadsTheTightOutline(t *testing.T) {
	px := make([]byte, 0, 4*8*4)
	for range 4 {
		for range 8 {
			px = append(px, 200, 0, 0, 255)
		}
	}
	le := binary.LittleEndian
	var verts []byte
	for _, p := range [][3]float32{{-1, -1, 0}, {1, -1, 0}, {-1, 1, 0}} {
		for _, c := range p {
			verts = le.AppendUint32(verts, math.Float32bits(c))
		}
	}
	channels := make([]any, 14)
	for i := range channels {
		channels[i] = F{"stream": 0, "offset": 0, "format": 0, "dimension": 0}
	}
	channels[0] = F{"stream": 0, "offset": 0, "format": 0, "dimension": 3}
	enc := func(tr *typetree.Tree, v F) []byte {
		b, err := unitywrite.Encode(tr, v)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	objs := []unitywrite.Object{
		{PathID: 7, ClassID: 28, Tree: textureTree, Data: enc(textureTree, F{"m_Name": "sheet", "m_Width": int32(8), "m_Height": int32(4),
			"m_TextureFormat": int32(4), "m_MipCount": int32(1), "image data": px})},
		{PathID: 10, ClassID: ClassSprite, Tree: tightTree, Data: enc(tightTree, F{"m_Name": "tight", "m_Rect": rf(0, 0, 4, 4),
			"m_Pivot": F{"x": float32(0.5), "y": float32(0.5)}, "m_PixelsToUnits": float32(2),
			"m_RD": F{"texture": F{"m_FileID": int32(0), "m_PathID": int64(7)}, "textureRect": rf(0, 0, 4, 4),
				"m_IndexBuffer":     []byte{0, 0, 1, 0, 2, 0},
				"m_VertexData":      F{"m_VertexCount": uint32(3), "m_Channels": channels, "m_DataSize": verts},
				"settingsRaw":       uint32(1 << 6),
				"textureRectOffset": F{"x": float32(0), "y": float32(0)}}})},
	}
	b, err := unitywrite.SerializedFile("2022.3.9f1", 22, objs, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	ct, err := assets.OpenReader(bytes.NewReader(b), int64(len(b)), "tight", assets.Options{})
	if err != nil {
		t.Fatal(err)
	}
	o, _ := ct.Files[0].Object(10)
	p, err := FromFile(ct.Files[0], o, nil)
	if err != nil {
		t.Fatal(err)
	}
	if p.Image.NRGBAAt(0, 3).A != 255 || p.Image.NRGBAAt(3, 0).A != 0 {
		t.Errorf("not masked by the outline: bottom-left alpha %d, top-right %d", p.Image.NRGBAAt(0, 3).A, p.Image.NRGBAAt(3, 0).A)
	}
}
