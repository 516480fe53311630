package material

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/decode/texture"
	"github.com/mecanim/mecanim/internal/fuzzcount"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/assets"
	"github.com/mecanim/mecanim/unity/serialized"
	"github.com/mecanim/mecanim/unity/typetree"
	"github.com/mecanim/mecanim/unity/unitywrite"
)

// buildTree writes a type tree from an indented outline: each line is
// "<type> <name> [size] [align] [array]", two spaces per level; "~" in a
// name is a space.
func buildTree(outline string) *typetree.Tree {
	tr := &typetree.Tree{}
	for _, line := range strings.Split(strings.Trim(outline, "\n"), "\n") {
		trimmed := strings.TrimLeft(line, " ")
		level := (len(line) - len(trimmed)) / 2
		f := strings.Fields(trimmed)
		n := typetree.Node{Level: level, Type: f[0], Name: strings.ReplaceAll(f[1], "~", " "), ByteSize: -1, Index: int32(len(tr.Nodes))}
		for _, opt := range f[2:] {
			switch opt {
			case "align":
				n.Flags |= typetree.FlagAlign
			case "array":
				n.TypeFlags = 1
			default:
				var sz int32
				for _, c := range opt {
					sz = sz*10 + int32(c-'0')
				}
				n.ByteSize = sz
			}
		}
		tr.Nodes = append(tr.Nodes, n)
	}
	return tr
}

const str = `
    Array Array array align
      int size 4
      char data 1`

// materialTree is the part of a Material's layout this package reads,
// with property names as strings (2017.3 on) or, when old, as
// FastPropertyName structs.
func materialTree(old bool) *typetree.Tree {
	key := "          string first" + strings.ReplaceAll(str, "\n    ", "\n            ")
	if old {
		key = "          FastPropertyName first\n            string name" + strings.ReplaceAll(str, "\n    ", "\n              ")
	}
	return buildTree(`
Material Base
  string m_Name` + str + `
  PPtr<Shader> m_Shader
    int m_FileID 4
    SInt64 m_PathID 8
  UnityPropertySheet m_SavedProperties
    map m_TexEnvs
      Array Array array
        int size 4
        pair data
` + key + `
          UnityTexEnv second
            PPtr<Texture> m_Texture
              int m_FileID 4
              SInt64 m_PathID 8
            Vector2f m_Scale
              float x 4
              float y 4
            Vector2f m_Offset
              float x 4
              float y 4
    map m_Floats
      Array Array array
        int size 4
        pair data
` + key + `
          float second 4
    map m_Colors
      Array Array array
        int size 4
        pair data
` + key + `
          ColorRGBA second
            float r 4
            float g 4
            float b 4
            float a 4
`)
}

// textureTree is the part of a Texture2D's layout decode/texture reads.
func textureTree() *typetree.Tree {
	return buildTree(`
Texture2D Base
  string m_Name` + str + `
  int m_Width 4
  int m_Height 4
  int m_CompleteImageSize 4
  int m_TextureFormat 4
  int m_MipCount 4
  TypelessData image~data array align
    int size 4
    UInt8 data 1
  StreamingInfo m_StreamData
    UInt64 offset 8
    unsigned int size 4
    string path` + strings.ReplaceAll(str, "\n    ", "\n      "))
}

type F = unitywrite.Fields

// props writes a property map: name → value, keys as the layout has them.
func props(old bool, kv ...any) [][2]any {
	var out [][2]any
	for i := 0; i < len(kv); i += 2 {
		var k any = kv[i].(string)
		if old {
			k = F{"name": kv[i]}
		}
		out = append(out, [2]any{k, kv[i+1]})
	}
	return out
}

func tex(id int64, sx, sy, ox, oy float32) F {
	return F{"m_Texture": F{"m_FileID": int32(0), "m_PathID": id}, "m_Scale": F{"x": sx, "y": sy}, "m_Offset": F{"x": ox, "y": oy}}
}

func rgba(r, g, b, a float32) F { return F{"r": r, "g": g, "b": b, "a": a} }

// scene writes a serialized file of materials and textures and opens it:
// 10 "painted" (URP: _BaseColor and _Color, _BaseMap tiled, _Smoothness),
// 11 "plain" (built-in: _Color, _MainTex on the same texture, _Glossiness,
// _Metallic), 12 "mobile" (its texture is PVRTC), 13 "mobile too" (the
// same PVRTC texture), 14 "bare" (no properties); textures 20 (a 2×2
// RGBA32) and 21 (PVRTC_RGBA4, a format not decoded).
func scene(t *testing.T, old bool) *assets.File {
	t.Helper()
	mt, tt := materialTree(old), textureTree()
	enc := func(tree *typetree.Tree, v F) []byte {
		b, err := unitywrite.Encode(tree, v)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	// Bottom row red, green; top row blue, white (half transparent).
	pixels := []byte{255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 128}
	objs := []unitywrite.Object{
		{PathID: 10, ClassID: ClassMaterial, Tree: mt, Data: enc(mt, F{"m_Name": "painted", "m_SavedProperties": F{
			"m_TexEnvs": props(old, "_BaseMap", tex(20, 5, 2, 0.25, 0.5), "_MainTex", tex(0, 1, 1, 0, 0)),
			"m_Floats":  props(old, "_Smoothness", float32(0.8), "_Metallic", float32(0.25)),
			"m_Colors":  props(old, "_BaseColor", rgba(0.5, 1, 0, 0.5), "_Color", rgba(0, 0, 0, 1)),
		}})},
		{PathID: 11, ClassID: ClassMaterial, Tree: mt, Data: enc(mt, F{"m_Name": "plain", "m_SavedProperties": F{
			"m_TexEnvs": props(old, "_BumpMap", tex(21, 1, 1, 0, 0), "_MainTex", tex(20, 1, 1, 0, 0)),
			"m_Floats":  props(old, "_Glossiness", float32(0.3), "_Metallic", float32(1)),
			"m_Colors":  props(old, "_Color", rgba(0.04045, 0.2, 1, 1)),
		}})},
		{PathID: 12, ClassID: ClassMaterial, Tree: mt, Data: enc(mt, F{"m_Name": "mobile", "m_SavedProperties": F{
			"m_TexEnvs": props(old, "_MainTex", tex(21, 1, 1, 0, 0)),
			"m_Colors":  props(old, "_Color", rgba(1, 0, 0, 1)),
		}})},
		{PathID: 13, ClassID: ClassMaterial, Tree: mt, Data: enc(mt, F{"m_Name": "mobile too", "m_SavedProperties": F{
			"m_TexEnvs": props(old, "_MainTex", tex(21, 1, 1, 0, 0)),
		}})},
		{PathID: 14, ClassID: ClassMaterial, Tree: mt, Data: enc(mt, F{"m_Name": "bare"})},
		{PathID: 20, ClassID: texture.ClassTexture2D, Tree: tt, Data: enc(tt, F{"m_Name": "checker", "m_Width": int32(2), "m_Height": int32(2),
			"m_TextureFormat": int32(texture.RGBA32), "m_MipCount": int32(1), "image data": pixels})},
		{PathID: 21, ClassID: texture.ClassTexture2D, Tree: tt, Data: enc(tt, F{"m_Name": "phone", "m_Width": int32(6), "m_Height": int32(6),
			"m_TextureFormat": int32(texture.PVRTC_RGBA4), "m_MipCount": int32(1), "image data": make([]byte, 32)})},
	}
	b, err := unitywrite.SerializedFile("2022.3.9f1", 19, objs, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	ct, err := assets.OpenReader(bytes.NewReader(b), int64(len(b)), "materials", assets.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return ct.Files[0]
}

func near(a, b float32) bool { return math.Abs(float64(a-b)) < 1e-5 }

func TestMaterialsReadFactorsAndTextures(t *testing.T) {
	for _, old := range []bool{false, true} {
		f := scene(t, old)
		d := NewDecoder(nil)
		get := func(id int64) (model.Material, error) {
			m, ok, err := d.Material(f, model.Ref{PathID: id})
			if !ok {
				t.Fatalf("material %d not found", id)
			}
			return m, err
		}
		painted, err := get(10)
		if err != nil {
			t.Fatal(err)
		}
		// _BaseColor over _Color; sRGB 0.5 is linear 0.2140; alpha as is.
		if !painted.HasFactors || !near(painted.BaseColor[0], 0.21404114) || painted.BaseColor[1] != 1 || painted.BaseColor[3] != 0.5 {
			t.Errorf("old %v: painted colour %v", old, painted.BaseColor)
		}
		if !near(painted.Roughness, 0.2) || painted.Metallic != 0.25 {
			t.Errorf("old %v: painted metallic %g roughness %g", old, painted.Metallic, painted.Roughness)
		}
		if painted.BaseColorTexture == nil || painted.BaseColorTexture.Name != "checker" ||
			painted.TextureScale != [2]float32{5, 2} || painted.TextureOffset != [2]float32{0.25, 0.5} {
			t.Fatalf("old %v: painted texture %+v", old, painted)
		}
		img := painted.BaseColorTexture.Image
		if img.NRGBAAt(0, 1).R != 255 || img.NRGBAAt(1, 0).A != 128 {
			t.Errorf("old %v: checker turned wrong: %v", old, img.Pix)
		}
		plain, err := get(11)
		if err != nil {
			t.Fatal(err)
		}
		// The texture of two materials is decoded once and shared.
		if plain.BaseColorTexture != painted.BaseColorTexture || !near(plain.BaseColor[0], 0.04045/12.92) || plain.Metallic != 1 || !near(plain.Roughness, 0.7) {
			t.Errorf("old %v: plain %+v", old, plain)
		}
		// PVRTC: the factor stays, the texture is skipped by format name,
		// once for both materials that use it.
		mobile, err := get(12)
		var te *TextureError
		var ue *texture.UnsupportedError
		if !errors.As(err, &te) || !errors.As(err, &ue) || ue.Format != texture.PVRTC_RGBA4 || te.Texture != "phone" || te.Material != "mobile" ||
			!strings.Contains(err.Error(), "PVRTC_RGBA4") {
			t.Errorf("old %v: PVRTC: err %v", old, err)
		}
		if mobile.BaseColorTexture != nil || mobile.BaseColor != [4]float32{1, 0, 0, 1} {
			t.Errorf("old %v: mobile %+v", old, mobile)
		}
		if m, err := get(13); err != nil || m.Name != "mobile too" || m.BaseColor != [4]float32{1, 1, 1, 1} {
			t.Errorf("old %v: the same texture again: %+v, err %v", old, m, err)
		}
		if _, err := get(12); err != nil {
			t.Errorf("old %v: the note is repeated: %v", old, err)
		}
		bare, err := get(14)
		if err != nil || !bare.HasFactors || bare.BaseColor != [4]float32{1, 1, 1, 1} || bare.Roughness != 0.5 || bare.BaseColorTexture != nil {
			t.Errorf("old %v: bare %+v, err %v", old, bare, err)
		}
		// Not a material; nothing there.
		if _, _, err := d.Material(f, model.Ref{PathID: 20}); !errors.Is(err, ErrMalformed) {
			t.Errorf("old %v: a texture as material: err %v", old, err)
		}
		if _, ok, _ := d.Material(f, model.Ref{PathID: 99}); ok {
			t.Errorf("old %v: a missing material found", old)
		}
	}
}

// References into other files go through the resolver.
func TestMaterialsFollowTheResolver(t *testing.T) {
	f := scene(t, false)
	asked := 0
	resolve := func(from *assets.File, ref model.Ref) (*assets.File, *serialized.Object, bool) {
		asked++
		if ref.FileID != 1 {
			return nil, nil, false
		}
		o, ok := f.Object(ref.PathID)
		return f, o, ok
	}
	m, ok, err := NewDecoder(resolve).Material(f, model.Ref{FileID: 1, PathID: 11})
	if !ok || err != nil || m.Name != "plain" || m.BaseColorTexture == nil || asked != 1 {
		t.Errorf("%+v %v %v, asked %d", m, ok, err, asked)
	}
	if _, ok, _ := NewDecoder(nil).Material(f, model.Ref{FileID: 1, PathID: 11}); ok {
		t.Error("found in another file without a resolver")
	}
}

// FuzzMaterial decodes arbitrary bytes as a Material (of either key
// layout) whose texture is the 2×2 checker: an error or a material, never
// a panic.
func FuzzMaterial(f *testing.F) {
	for _, old := range []bool{false, true} {
		mt := materialTree(old)
		b, err := unitywrite.Encode(mt, F{"m_Name": "painted", "m_SavedProperties": F{
			"m_TexEnvs": props(old, "_MainTex", tex(20, 5, 2, 0.25, 0.5)),
			"m_Floats":  props(old, "_Glossiness", float32(0.3)),
			"m_Colors":  props(old, "_Color", rgba(0.5, 1, 0, 0.5)),
		}})
		if err == nil {
			f.Add(old, b)
		}
	}
	tt := textureTree()
	tb, err := unitywrite.Encode(tt, F{"m_Name": "checker", "m_Width": int32(2), "m_Height": int32(2),
		"m_TextureFormat": int32(texture.RGBA32), "image data": make([]byte, 16)})
	if err != nil {
		f.Fatal(err)
	}
	count := fuzzcount.Counter("FuzzMaterial")
	f.Fuzz(func(t *testing.T, old bool, data []byte) {
		count()
		mt := materialTree(old)
		file, err := unitywrite.SerializedFile("2022.3.9f1", 19, []unitywrite.Object{
			{PathID: 10, ClassID: ClassMaterial, Tree: mt, Data: data},
			{PathID: 20, ClassID: texture.ClassTexture2D, Tree: tt, Data: tb},
		}, nil, false)
		if err != nil {
			return
		}
		ct, err := assets.OpenReader(bytes.NewReader(file), int64(len(file)), "fuzz", assets.Options{})
		if err != nil {
			return
		}
		m, ok, _ := NewDecoder(nil).Material(ct.Files[0], model.Ref{PathID: 10})
		if ok && m.HasFactors && (m.Metallic < 0 || m.Metallic > 1 || m.Roughness < 0 || m.Roughness > 1) {
			t.Fatalf("factors out of range: %+v", m)
		}
	})
}
