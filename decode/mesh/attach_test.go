package mesh

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/decode/catalog"
	"github.com/mecanim/mecanim/decode/material"
	"github.com/mecanim/mecanim/decode/texture"
	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/unity/assets"
)

// Attach gives each sub-mesh its material with base colour and texture:
// the scav rig's suit is textured by a BC7 texture; the sekai body's
// ASTC texture is left out with a note naming the format, once, and its
// material keeps its factor.
func TestAttachFillsMaterials(t *testing.T) {
	dir := corpustest.Dir(t)
	for _, c := range []struct {
		file, rig, material, texture string
		skipped                      texture.Format
	}{
		{"lethal-emotes/scavbody", "scavEmoteSkeleton", "Material.003", "PlayerLevelStickers", 0},
		{"sekai/ladies_s_31_0001", "body", "mtl_bdy_00", "", texture.ASTC_6x6},
	} {
		ct, err := assets.Open(filepath.Join(dir, filepath.FromSlash(c.file)), assets.Options{})
		if err != nil {
			t.Fatal(err)
		}
		cat := catalog.New(ct)
		r, err := cat.Rig(c.rig)
		if err != nil {
			t.Fatal(err)
		}
		att, errs := Attach(r.File, r.Rig, cat.Resolver())
		found := false
		for _, a := range att {
			for _, m := range a.Materials {
				if m.Name != c.material {
					continue
				}
				found = true
				if !m.HasFactors || (m.BaseColorTexture == nil) != (c.texture == "") ||
					m.BaseColorTexture != nil && (m.BaseColorTexture.Name != c.texture || m.BaseColorTexture.Image == nil) {
					t.Errorf("%s: %+v", c.material, m)
				}
			}
		}
		if !found {
			t.Errorf("%s: no sub-mesh drawn with %q", c.rig, c.material)
		}
		notes := 0
		for _, err := range errs {
			var te *material.TextureError
			var ue *texture.UnsupportedError
			if errors.As(err, &te) && errors.As(err, &ue) && ue.Format == c.skipped {
				notes++
				continue
			}
			t.Errorf("%s: %v", c.rig, err)
		}
		if want := map[bool]int{true: 1, false: 0}[c.skipped != 0]; notes != want {
			t.Errorf("%s: %d notes of skipped textures, want %d", c.rig, notes, want)
		}
		cat.Close()
	}
}

// Renderers that name no mesh (the bandit rig of lethal-emotes ships its
// renderers with m_Mesh null, the game's meshes to be used in their place)
// are said once, with how many and where, under ErrNoMesh.
func TestAttachSaysWhichRenderersNameNoMesh(t *testing.T) {
	ct, err := assets.Open(corpustest.Path(t, "lethal-emotes/customemotespackage"), assets.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cat := catalog.New(ct)
	defer cat.Close()
	r, err := cat.Rig("bandit")
	if err != nil {
		t.Fatal(err)
	}
	att, errs := Attach(r.File, r.Rig, cat.Resolver())
	var noMesh []error
	for _, err := range errs {
		if errors.Is(err, ErrNoMesh) {
			noMesh = append(noMesh, err)
		}
	}
	if len(att) != 1 || len(noMesh) != 1 || !strings.Contains(noMesh[0].Error(), "6 renderers") ||
		!strings.Contains(noMesh[0].Error(), "Bandit2CoatMesh") {
		t.Errorf("%d meshes attached, notes %v: want 1 and one note of 6 renderers without a mesh", len(att), errs)
	}
}
