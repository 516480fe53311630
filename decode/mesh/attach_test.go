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
	"github.com/mecanim/mecanim/internal/synth"
	"github.com/mecanim/mecanim/unity/assets"
	"github.com/mecanim/mecanim/unity/unitywrite"
)

// Attach gives each sub-mesh its material with base colour and texture:
// the scav rig's suit is textured by a BC7 texture, the sekai body by an
// ASTC one.
func TestAttachFillsMaterials(t *testing.T) {
	dir := corpustest.Dir(t)
	for _, c := range []struct {
		file, rig, material, texture string
		skipped                      texture.Format
	}{
		{"lethal-emotes/scavbody", "scavEmoteSkeleton", "Material.003", "PlayerLevelStickers", 0},
		{"sekai/ladies_s_31_0001", "body", "mtl_bdy_00", "tex_bdy_MIK_05_C", 0},
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

// A renderer drawing one of Unity's built-in primitives gets the primitive
// made here; one drawing another built-in mesh (held by Unity's own
// resource files, not given) says so, naming the renderer, its GameObject
// and the file, not "not found"; so does a mesh in another file not given;
// a renderer with no mesh is among the ones said once under ErrNoMesh.
// Every error names the input file.
func TestAttachSaysWhereAMissingMeshIs(t *testing.T) {
	sc := synth.NewScene(t, synth.Options{Full: true})
	smr := func(pid int64, bone int, mesh synth.F) {
		sc.Add(pid, ClassSkinnedMeshRenderer, synth.F{"m_GameObject": synth.PPtr(int64(synth.GameObjectBase + bone)), "m_Mesh": mesh, "m_Enabled": true})
	}
	smr(900, 1, synth.F{"m_FileID": 0, "m_PathID": 0})
	smr(901, 2, synth.F{"m_FileID": 1, "m_PathID": 10205})
	smr(902, 3, synth.F{"m_FileID": 2, "m_PathID": 77})
	smr(903, 4, synth.F{"m_FileID": 1, "m_PathID": 10207})
	p := sc.WriteWith("renderers.assets", []unitywrite.External{
		{Path: "Library/unity default resources"}, {Path: "archive:/CAB-0123/CAB-0123"}})
	c, err := assets.Open(p, assets.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cat := catalog.New(c)
	defer cat.Close()
	rigs, errs := cat.Rigs(t.Context())
	if len(errs) > 0 || len(rigs) != 1 {
		t.Fatalf("%d rigs, %v", len(rigs), errs)
	}
	meshes, errs := Attach(rigs[0].File, rigs[0].Rig, cat.Resolver())
	if len(meshes) != 1 || len(errs) != 3 {
		t.Fatalf("%d meshes, errors %v: want the sphere and 3 renderers reported", len(meshes), errs)
	}
	if m := meshes[0]; m.Mesh.Name != "Sphere" || rigs[0].Rig.Nodes[m.Node].Path != synth.BonePath(4) || m.Joints != nil {
		t.Errorf("the built-in sphere: %+v", m)
	}
	want := []struct {
		err  error
		says []string
	}{
		{ErrBuiltinMesh, []string{"renderer 901", synth.BonePath(2), "10205", "unity default resources", "built-in"}},
		{ErrMeshMissing, []string{"renderer 902", "77", "CAB-0123", "no file given"}},
		{ErrNoMesh, []string{"1 renderers", synth.BonePath(1)}},
	}
	for i, w := range want {
		if !errors.Is(errs[i], w.err) {
			t.Errorf("error %d: %v, want %v", i, errs[i], w.err)
		}
		for _, s := range w.says {
			if !strings.Contains(errs[i].Error(), s) {
				t.Errorf("error %d: %q does not say %q", i, errs[i], s)
			}
		}
		if strings.Contains(errs[i].Error(), "not found") {
			t.Errorf("error %d: %q", i, errs[i])
		}
		// Each names the input as given (typed, so that every command
		// prints it), and the serialized file.
		var ae *assets.Error
		if !errors.As(errs[i], &ae) || ae.Container != p || ae.Entry != rigs[0].File.Name || !strings.Contains(errs[i].Error(), p) {
			t.Errorf("error %d: %q does not name the input %s", i, errs[i], p)
		}
	}
}

// A skinned renderer whose m_Bones names a Transform of its own file that
// the file does not hold is damaged: reported naming the renderer and the
// slot, not exported with a made-up joint in the bone's place; a material
// of the file the file does not hold likewise. A bone the file holds
// outside the rig stays valid.
func TestAttachRefusesBonesTheFileDoesNotHold(t *testing.T) {
	for _, c := range []struct {
		name     string
		bone     int64
		material int64
		damaged  bool
		says     string
	}{
		{"bones of the rig", synth.TransformBase + 2, 0, false, ""},
		{"a bone the file does not hold", 9997, 0, true, "m_Bones[1]"},
		{"a material the file does not hold", synth.TransformBase + 2, 9996, true, "material 9996"},
	} {
		t.Run(c.name, func(t *testing.T) {
			sc := synth.NewScene(t, synth.Options{Full: true})
			sc.Add(950, ClassMesh, quadMesh())
			sc.Add(951, ClassSkinnedMeshRenderer, synth.F{"m_GameObject": synth.PPtr(synth.GameObjectBase + 1), "m_Mesh": synth.PPtr(950),
				"m_Enabled": true, "m_Bones": []any{synth.PPtr(synth.TransformBase + 1), synth.PPtr(c.bone)},
				"m_Materials": []any{synth.PPtr(c.material)}})
			p := sc.Write("skinned.assets")
			ct, err := assets.Open(p, assets.Options{})
			if err != nil {
				t.Fatal(err)
			}
			cat := catalog.New(ct)
			defer cat.Close()
			rigs, errs := cat.Rigs(t.Context())
			if len(errs) > 0 || len(rigs) != 1 {
				t.Fatalf("%d rigs, %v", len(rigs), errs)
			}
			meshes, errs := Attach(rigs[0].File, rigs[0].Rig, cat.Resolver())
			if !c.damaged {
				if len(errs) != 0 || len(meshes) != 1 {
					t.Fatalf("%d meshes, %v", len(meshes), errs)
				}
				return
			}
			if len(errs) != 1 || !errors.Is(errs[0], ErrMalformed) ||
				!strings.Contains(errs[0].Error(), c.says) || !strings.Contains(errs[0].Error(), p) {
				t.Fatalf("%d meshes, %v: want the renderer's damage named (%s) with the input", len(meshes), errs, c.says)
			}
		})
	}
}
