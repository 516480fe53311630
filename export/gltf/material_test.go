package gltf

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/mecanim/mecanim/model"
	"github.com/qmuntal/gltf/ext/texturetransform"
)

// checker returns a w×h image of two colours in a 2×2 checker, with a
// marker in the top-left pixel.
func checker(w, h int, a, b color.NRGBA) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := a
			if (x/2+y/2)%2 == 1 {
				c = b
			}
			img.SetNRGBA(x, y, c)
		}
	}
	img.SetNRGBA(0, 0, color.NRGBA{1, 2, 3, 255})
	return img
}

// materialScene is the two-bone quad drawn three times: its triangles as
// two sub-meshes of materials sharing a texture, and again with a
// material that tiles another texture, and with one of the same name as
// the first but another colour.
func materialScene() (*Scene, [2]*model.Texture) {
	s := twoBoneScene()
	m := *s.Meshes[0].Mesh
	m.SubMeshes = []model.SubMesh{{IndexCount: 3}, {FirstIndex: 3, IndexCount: 3}}
	wood := &model.Texture{Name: "wood", Image: checker(8, 4, color.NRGBA{200, 100, 50, 255}, color.NRGBA{90, 40, 20, 255})}
	tiles := &model.Texture{Name: "tiles", Image: checker(4, 4, color.NRGBA{255, 255, 255, 128}, color.NRGBA{0, 0, 0, 255})}
	red := model.Material{Name: "red", HasFactors: true, BaseColor: [4]float32{1, 0, 0, 1}, Roughness: 0.5, BaseColorTexture: wood}
	tiled := model.Material{Name: "tiled", HasFactors: true, BaseColor: [4]float32{1, 1, 1, 1}, Metallic: 1, Roughness: 0.2,
		BaseColorTexture: tiles, TextureScale: [2]float32{5, 2}, TextureOffset: [2]float32{0.25, 0.5}}
	other := red
	other.BaseColor = [4]float32{0.5, 0.5, 0.5, 1}
	inst := s.Meshes[0]
	inst.Mesh = &m
	a, b, c := inst, inst, inst
	a.Materials = []model.Material{red, red}
	b.Materials = []model.Material{tiled, other}
	c.Materials = []model.Material{{Name: "by name only"}, red}
	s.Meshes = []model.MeshInstance{a, b, c}
	return s, [2]*model.Texture{wood, tiles}
}

func TestMaterialsWriteFactorsAndEachTextureOnce(t *testing.T) {
	s, tex := materialScene()
	var buf bytes.Buffer
	if err := WriteGLB(&buf, s); err != nil {
		t.Fatal(err)
	}
	doc := readGLB(t, buf.Bytes())
	// red, tiled, other (same name, other colour), by name only.
	if len(doc.Materials) != 4 {
		t.Fatalf("%d materials", len(doc.Materials))
	}
	if len(doc.Textures) != 2 || len(doc.Images) != 2 || len(doc.Samplers) != 1 {
		t.Fatalf("%d textures, %d images, %d samplers", len(doc.Textures), len(doc.Images), len(doc.Samplers))
	}
	red, tiled, other, named := doc.Materials[0], doc.Materials[1], doc.Materials[2], doc.Materials[3]
	if red.Name != "red" || *red.PBRMetallicRoughness.BaseColorFactor != [4]float64{1, 0, 0, 1} ||
		*red.PBRMetallicRoughness.MetallicFactor != 0 || *red.PBRMetallicRoughness.RoughnessFactor != 0.5 {
		t.Errorf("red %+v", red.PBRMetallicRoughness)
	}
	if other.Name != "red" || (*other.PBRMetallicRoughness.BaseColorFactor)[0] != 0.5 {
		t.Errorf("the second red %+v", other.PBRMetallicRoughness)
	}
	if named.Name != "by name only" || named.PBRMetallicRoughness != nil {
		t.Errorf("a material without factors: %+v", named)
	}
	if red.PBRMetallicRoughness.BaseColorTexture.Index != other.PBRMetallicRoughness.BaseColorTexture.Index {
		t.Error("the materials of one texture use two")
	}
	// The transform: Unity's (5, 2) tiling and (0.25, 0.5) offset, v
	// flipped: glTF offset (0.25, 1 − 2 − 0.5).
	ti := tiled.PBRMetallicRoughness.BaseColorTexture
	tr, ok := ti.Extensions[texturetransform.ExtensionName].(*texturetransform.TextureTranform)
	if !ok || tr.Scale != [2]float64{5, 2} || tr.Offset != [2]float64{0.25, -1.5} {
		t.Errorf("texture transform %#v", ti.Extensions)
	}
	if len(doc.ExtensionsUsed) != 1 || doc.ExtensionsUsed[0] != texturetransform.ExtensionName {
		t.Errorf("extensions used %v", doc.ExtensionsUsed)
	}
	// The images are the textures, pixel for pixel, top row first.
	for i, want := range tex {
		im := doc.Images[*doc.Textures[i].Source]
		bv := doc.BufferViews[*im.BufferView]
		got, err := png.Decode(bytes.NewReader(doc.Buffers[0].Data[bv.ByteOffset : bv.ByteOffset+bv.ByteLength]))
		if err != nil {
			t.Fatalf("image %d: %v", i, err)
		}
		if im.MimeType != "image/png" || im.Name != want.Name || got.Bounds() != want.Image.Bounds() {
			t.Fatalf("image %d: %s %q %v", i, im.MimeType, im.Name, got.Bounds())
		}
		for y := 0; y < got.Bounds().Dy(); y++ {
			for x := 0; x < got.Bounds().Dx(); x++ {
				if color.NRGBAModel.Convert(got.At(x, y)) != want.Image.NRGBAAt(x, y) {
					t.Fatalf("image %d pixel (%d, %d): %v, want %v", i, x, y, got.At(x, y), want.Image.NRGBAAt(x, y))
				}
			}
		}
	}
}

// A mesh without a first UV channel cannot map a texture: its material
// keeps the factors and drops the texture.
func TestMaterialsOfMeshesWithoutUVsHaveNoTexture(t *testing.T) {
	s, _ := materialScene()
	m := *s.Meshes[0].Mesh
	m.UV = [8][][2]float32{}
	s.Meshes = s.Meshes[:1]
	s.Meshes[0].Mesh = &m
	var buf bytes.Buffer
	if err := WriteGLB(&buf, s); err != nil {
		t.Fatal(err)
	}
	doc := readGLB(t, buf.Bytes())
	if len(doc.Materials) != 1 || len(doc.Textures) != 0 || doc.Materials[0].PBRMetallicRoughness.BaseColorTexture != nil ||
		(*doc.Materials[0].PBRMetallicRoughness.BaseColorFactor)[0] != 1 {
		t.Errorf("%d materials, %d textures: %+v", len(doc.Materials), len(doc.Textures), doc.Materials[0].PBRMetallicRoughness)
	}
}

func TestMaterialsPassTheValidator(t *testing.T) {
	mods := validatorPath(t)
	s, _ := materialScene()
	dir := t.TempDir()
	glb := filepath.Join(dir, "m.glb")
	f, err := os.Create(glb)
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteGLB(f, s); err != nil {
		t.Fatal(err)
	}
	f.Close()
	is := validate(t, mods, glb)
	checkValid(t, "materials", is)
	gl := filepath.Join(dir, "m.gltf")
	if err := WriteGLTF(gl, s); err != nil {
		t.Fatal(err)
	}
	checkValid(t, "materials gltf", validate(t, mods, gl))
}
