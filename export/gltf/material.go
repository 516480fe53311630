package gltf

import (
	"bytes"
	"image/png"
	"slices"

	"github.com/mecanim/mecanim/model"
	qg "github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/ext/texturetransform"
)

// material returns the glTF material of m, added on first use: materials
// equal in every field are written once, and so is each texture, however
// many materials use it. A material whose factors were read gets
// pbrMetallicRoughness: baseColorFactor (clamped to [0, 1]), metallic and
// roughness factors, and its base colour texture, embedded as a PNG in
// the buffer, mapped by TEXCOORD_0 (Unity's first UV channel) through
// KHR_texture_transform when the material tiles or offsets it. Alpha is
// written but the material stays glTF's default OPAQUE: Unity's render
// mode is a shader setting this package does not read.
func (b *builder) material(m model.Material) int {
	if i, ok := b.materials[m]; ok {
		return i
	}
	gm := &qg.Material{Name: m.Name}
	if m.HasFactors {
		var f [4]float64
		for k, x := range m.BaseColor {
			f[k] = float64(clamp01(x))
		}
		metal, rough := float64(clamp01(m.Metallic)), float64(clamp01(m.Roughness))
		pbr := &qg.PBRMetallicRoughness{BaseColorFactor: &f, MetallicFactor: &metal, RoughnessFactor: &rough}
		if t := m.BaseColorTexture; t != nil && t.Image != nil && t.Image.Bounds().Dx() > 0 && t.Image.Bounds().Dy() > 0 {
			ti := &qg.TextureInfo{Index: b.texture(t)}
			if tr, ok := textureTransform(m.TextureScale, m.TextureOffset); ok {
				ti.Extensions = qg.Extensions{texturetransform.ExtensionName: tr}
				if !slices.Contains(b.doc.ExtensionsUsed, texturetransform.ExtensionName) {
					b.doc.ExtensionsUsed = append(b.doc.ExtensionsUsed, texturetransform.ExtensionName)
				}
			}
			pbr.BaseColorTexture = ti
		}
		gm.PBRMetallicRoughness = pbr
	}
	b.doc.Materials = append(b.doc.Materials, gm)
	b.materials[m] = len(b.doc.Materials) - 1
	return len(b.doc.Materials) - 1
}

// textureTransform converts Unity's tiling and offset (uv·s + o, v up) to
// KHR_texture_transform's (in glTF's UV frame, v down: the exporter
// writes v' = 1 − v): the same scale and offset (o_u, 1 − s_v − o_v). ok
// is false for the identity (no extension needed).
func textureTransform(scale, offset [2]float32) (*texturetransform.TextureTranform, bool) {
	if scale == [2]float32{} {
		scale = [2]float32{1, 1}
	}
	if scale == [2]float32{1, 1} && offset == [2]float32{} {
		return nil, false
	}
	return &texturetransform.TextureTranform{
		Scale:  [2]float64{float64(scale[0]), float64(scale[1])},
		Offset: [2]float64{float64(offset[0]), float64(1 - scale[1] - offset[1])},
	}, true
}

// texture returns the glTF texture of t, its image encoded as PNG into the
// buffer on first use; every texture shares one sampler (repeat, linear).
func (b *builder) texture(t *model.Texture) int {
	if i, ok := b.textures[t]; ok {
		return i
	}
	if len(b.doc.Samplers) == 0 {
		b.doc.Samplers = append(b.doc.Samplers, &qg.Sampler{MagFilter: qg.MagLinear, MinFilter: qg.MinLinearMipMapLinear})
	}
	var buf bytes.Buffer
	// Encoding an in-memory NRGBA image cannot fail but for the writer,
	// which is a bytes.Buffer.
	enc := png.Encoder{CompressionLevel: png.BestSpeed} // textures are large, exports interactive
	_ = enc.Encode(&buf, t.Image)
	b.align()
	off := len(b.buf)
	b.buf = append(b.buf, buf.Bytes()...)
	view := b.addView(off, qg.TargetNone)
	b.doc.Images = append(b.doc.Images, &qg.Image{Name: t.Name, MimeType: "image/png", BufferView: qg.Index(view)})
	b.doc.Textures = append(b.doc.Textures, &qg.Texture{Name: t.Name, Sampler: qg.Index(0), Source: qg.Index(len(b.doc.Images) - 1)})
	b.textures[t] = len(b.doc.Textures) - 1
	return len(b.doc.Textures) - 1
}

func clamp01(x float32) float32 {
	if !(x > 0) {
		return 0
	}
	return min(x, 1)
}
