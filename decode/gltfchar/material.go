package gltfchar

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image"
	"image/draw"
	_ "image/jpeg" // glTF's two image formats
	_ "image/png"
	"math"
	"strings"

	"github.com/mecanim/mecanim/model"
)

// material reads glTF material k as the model holds a material: its name,
// its metallic-roughness factors (the base colour is linear in both) and
// its base colour texture when that is mapped by the first UV channel and
// decodes (a texture that does not is left out with a warning: the
// geometry stands without it).
func (d *decoder) material(k int) model.Material {
	gm := d.doc.Materials[k]
	mat := model.Material{Name: gm.Name}
	if mat.Name == "" {
		mat.Name = fmt.Sprintf("material_%d", k)
	}
	pbr := gm.PBRMetallicRoughness
	if pbr == nil {
		return mat
	}
	mat.HasFactors = true
	mat.BaseColor = [4]float32{1, 1, 1, 1}
	if f := pbr.BaseColorFactor; f != nil {
		for i, x := range f {
			mat.BaseColor[i] = unit(x, 1)
		}
	}
	mat.Metallic, mat.Roughness = unit(pbr.MetallicFactorOrDefault(), 1), unit(pbr.RoughnessFactorOrDefault(), 1)
	if ti := pbr.BaseColorTexture; ti != nil {
		elem := fmt.Sprintf("material %d: base colour texture", k)
		if ti.TexCoord != 0 {
			d.warn("%s: mapped by TEXCOORD_%d, left out (textures are mapped by the first UV channel)", elem, ti.TexCoord)
		} else {
			mat.BaseColorTexture = d.texture(elem, ti.Index)
		}
	}
	return mat
}

// unit is x in [0, 1], or def when x is not finite.
func unit(x, def float64) float32 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return float32(def)
	}
	return float32(min(max(x, 0), 1))
}

// texture decodes glTF texture i's image (once however many materials use
// it); nil, with a warning, when it cannot be.
func (d *decoder) texture(elem string, i int) *model.Texture {
	if i < 0 || i >= len(d.doc.Textures) || d.doc.Textures[i] == nil || d.doc.Textures[i].Source == nil {
		d.warn("%s: texture %d has no image: left out", elem, i)
		return nil
	}
	src := *d.doc.Textures[i].Source
	if t, ok := d.textures[src]; ok {
		return t
	}
	t, err := d.image(src)
	if err != nil {
		d.warn("%s: image %d left out: %v", elem, src, err)
	}
	if d.textures == nil {
		d.textures = map[int]*model.Texture{}
	}
	d.textures[src] = t
	return t
}

// image decodes glTF image i (PNG or JPEG, in a buffer view or a data URI)
// as 8-bit RGBA, its size charged to the decoding budget first.
func (d *decoder) image(i int) (*model.Texture, error) {
	if i < 0 || i >= len(d.doc.Images) || d.doc.Images[i] == nil {
		return nil, fmt.Errorf("no such image (%d images)", len(d.doc.Images))
	}
	im := d.doc.Images[i]
	var data []byte
	switch {
	case im.BufferView != nil:
		v := *im.BufferView
		if v < 0 || v >= len(d.doc.BufferViews) || d.doc.BufferViews[v] == nil {
			return nil, fmt.Errorf("buffer view %d does not exist", v)
		}
		b, _, err := d.view(fmt.Sprintf("image %d", i), v, 0, d.doc.BufferViews[v].ByteLength, 1, false)
		if err != nil {
			return nil, err
		}
		data = b
	case strings.HasPrefix(im.URI, "data:"):
		comma := strings.IndexByte(im.URI, ',')
		if comma < 0 || !strings.HasSuffix(im.URI[:comma], ";base64") {
			return nil, fmt.Errorf("a data URI that is not base64")
		}
		enc := im.URI[comma+1:]
		if err := d.charge(fmt.Sprintf("image %d", i), int64(base64.StdEncoding.DecodedLen(len(enc)))); err != nil {
			return nil, err
		}
		var err error
		if data, err = base64.StdEncoding.DecodeString(enc); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("an image in a file beside the glTF (%q) is not read", im.URI)
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return nil, fmt.Errorf("%dx%d pixels", cfg.Width, cfg.Height)
	}
	// The decoder's own buffer and the RGBA copy.
	if err := d.charge(fmt.Sprintf("image %d", i), 8*int64(cfg.Width)*int64(cfg.Height)); err != nil {
		return nil, err
	}
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	out, ok := img.(*image.NRGBA)
	if !ok {
		out = image.NewNRGBA(img.Bounds())
		draw.Draw(out, out.Bounds(), img, img.Bounds().Min, draw.Src)
	}
	name := im.Name
	if name == "" {
		name = fmt.Sprintf("image_%d", i)
	}
	return &model.Texture{Name: name, Image: out}, nil
}
