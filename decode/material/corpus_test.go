package material

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/mecanim/mecanim/decode/texture"
	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/assets"
)

// Corpus materials: a BC7-textured HDRP material, an ASTC-textured one,
// and plain colours converted from the sRGB Unity stores to linear.
func TestCorpusMaterials(t *testing.T) {
	dir := corpustest.Dir(t)
	for _, c := range []struct {
		file, name string
		texture    string // "" for none
		skipped    texture.Format
		color      [4]float32 // as stored (sRGB)
	}{
		{"lethal-emotes/scavbody", "Material.003", "PlayerLevelStickers", 0, [4]float32{1, 1, 1, 1}},
		{"sekai/ladies_s_31_0001", "mtl_bdy_00", "tex_bdy_MIK_05_C", 0, [4]float32{1, 1, 1, 1}},
		{"lc-example-enemy/modassets", "hat-red", "", 0, [4]float32{0.9064264297485352, 0.3178626000881195, 0.35723936557769775, 1}},
		{"beatsaber-avatars/Template.avatar", "Right Hand", "", 0, [4]float32{0, 0.5862069129943848, 1, 1}},
	} {
		ct, err := assets.Open(filepath.Join(dir, filepath.FromSlash(c.file)), assets.Options{})
		if err != nil {
			t.Fatal(err)
		}
		found := 0
		for _, f := range ct.Files {
			for _, o := range f.Find(c.name, ClassMaterial) {
				found++
				m, ok, err := NewDecoder(nil).Material(f, model.Ref{PathID: o.PathID})
				if !ok {
					t.Fatalf("%s: not found", c.name)
				}
				var ue *texture.UnsupportedError
				switch {
				case c.skipped != 0:
					if !errors.As(err, &ue) || ue.Format != c.skipped || m.BaseColorTexture != nil {
						t.Errorf("%s: err %v, texture %v", c.name, err, m.BaseColorTexture)
					}
				case err != nil:
					t.Errorf("%s: %v", c.name, err)
				}
				if (m.BaseColorTexture != nil) != (c.texture != "") || m.BaseColorTexture != nil && m.BaseColorTexture.Name != c.texture {
					t.Errorf("%s: texture %+v, want %q", c.name, m.BaseColorTexture, c.texture)
				}
				for k := range 3 {
					if !near(m.BaseColor[k], linear(c.color[k])) {
						t.Errorf("%s: colour %v, want linear of %v", c.name, m.BaseColor, c.color)
						break
					}
				}
				if m.BaseColor[3] != c.color[3] || !m.HasFactors {
					t.Errorf("%s: alpha %g", c.name, m.BaseColor[3])
				}
			}
		}
		ct.Close()
		if found == 0 {
			t.Errorf("%s: %q not in the corpus", c.file, c.name)
		}
	}
}
