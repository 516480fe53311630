package gltfchar

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"strings"
	"testing"

	qg "github.com/qmuntal/gltf"
)

// A glTF material's factors and base colour texture (a PNG in a buffer
// view) reach the model as export and the viewer take them; a texture that
// cannot be read is left out with a warning, never failing the character.
func TestMaterialsKeepFactorsAndBaseColourTextures(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 2, 1))
	img.SetNRGBA(0, 0, color.NRGBA{255, 0, 0, 255})
	img.SetNRGBA(1, 0, color.NRGBA{0, 0, 255, 128})
	var pngData bytes.Buffer
	if err := png.Encode(&pngData, img); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		image   []byte
		texture bool
		warn    string
	}{
		{"a PNG in a buffer view", pngData.Bytes(), true, ""},
		{"bytes that are no image", []byte("not an image at all"), false, "material 0: base colour texture: image 0 left out"},
	}
	for _, c := range cases {
		b := newBuilder()
		root := b.node("Root", -1, [3]float64{}, [4]float64{0, 0, 0, 1})
		pos := b.floats([]float32{0, 0, 0, 1, 0, 0, 0, 1, 0}, qg.AccessorVec3)
		uv := b.floats([]float32{0, 0, 1, 0, 0, 1}, qg.AccessorVec2)
		b.doc.Meshes = []*qg.Mesh{{Name: "tri", Primitives: []*qg.Primitive{{Attributes: qg.PrimitiveAttributes{qg.POSITION: pos, "TEXCOORD_0": uv}, Material: qg.Index(0)}}}}
		b.doc.Nodes[root].Mesh = qg.Index(0)
		iv := b.view(c.image, qg.TargetNone)
		b.doc.Images = []*qg.Image{{Name: "tex", MimeType: "image/png", BufferView: qg.Index(iv)}}
		b.doc.Textures = []*qg.Texture{{Source: qg.Index(0)}}
		metal, rough := 0.25, 0.5
		b.doc.Materials = []*qg.Material{{Name: "Skin", PBRMetallicRoughness: &qg.PBRMetallicRoughness{
			BaseColorFactor: &[4]float64{1, 0.5, 0.25, 1}, MetallicFactor: &metal, RoughnessFactor: &rough,
			BaseColorTexture: &qg.TextureInfo{Index: 0}}}}
		ch := read(t, b.glb(t), Config{})
		if len(ch.Meshes) != 1 || len(ch.Meshes[0].Materials) != 1 {
			t.Fatalf("%s: %d meshes", c.name, len(ch.Meshes))
		}
		m := ch.Meshes[0].Materials[0]
		if m.Name != "Skin" || !m.HasFactors || m.BaseColor != [4]float32{1, 0.5, 0.25, 1} || m.Metallic != 0.25 || m.Roughness != 0.5 {
			t.Errorf("%s: material %+v", c.name, m)
		}
		if got := m.BaseColorTexture != nil; got != c.texture {
			t.Fatalf("%s: texture %v, want %v (warnings %q)", c.name, got, c.texture, ch.Warnings)
		}
		if c.texture {
			px := m.BaseColorTexture.Image
			if px.Bounds().Dx() != 2 || px.NRGBAAt(0, 0) != (color.NRGBA{255, 0, 0, 255}) || px.NRGBAAt(1, 0) != (color.NRGBA{0, 0, 255, 128}) {
				t.Errorf("%s: texels %v %v", c.name, px.NRGBAAt(0, 0), px.NRGBAAt(1, 0))
			}
		}
		if c.warn != "" && !strings.Contains(strings.Join(ch.Warnings, "\n"), c.warn) {
			t.Errorf("%s: warnings %q do not say %q", c.name, ch.Warnings, c.warn)
		}
	}
}
