package bind

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/internal/corpustest"
)

// project lays out a Unity project folder in a temporary folder: the
// corpus's dancecontroller and its emotes' .anim sources under Assets/,
// each with a .meta giving the GUID the controller names it by (the
// corpus keeps no .meta files; which emote each GUID was is unknown, so
// the test gives three of the four), and an override controller.
func project(t *testing.T) string {
	src := corpustest.Path(t, "lethal-emotes/source")
	dir := t.TempDir()
	assets := filepath.Join(dir, "Assets", "Emotes")
	if err := os.MkdirAll(assets, 0o755); err != nil {
		t.Fatal(err)
	}
	cp := func(name, guid string) {
		b, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(assets, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
		meta := fmt.Sprintf("fileFormatVersion: 2\nguid: %s\nNativeFormatImporter:\n", guid)
		if err := os.WriteFile(filepath.Join(assets, name+".meta"), []byte(meta), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cp("dancecontroller.controller", "0123456789abcdef0123456789abcdef")
	cp("Dab.anim", "ceef71b7f078cb44cb06f53745bbc348")
	cp("Floss.anim", "d22060572515359428c5c92d8b6cb119")
	cp("nobones.anim", "96359684ce7c784458605cc27d788e16")
	over := `%YAML 1.1
%TAG !u! tag:unity3d.com,2011:
--- !u!221 &22100000
AnimatorOverrideController:
  m_ObjectHideFlags: 0
  m_Name: FlossForDab
  m_Controller: {fileID: 9100000, guid: 0123456789abcdef0123456789abcdef, type: 2}
  m_Clips:
  - m_OriginalClip: {fileID: 7400000, guid: ceef71b7f078cb44cb06f53745bbc348, type: 2}
    m_OverrideClip: {fileID: 7400000, guid: d22060572515359428c5c92d8b6cb119, type: 2}
`
	if err := os.WriteFile(filepath.Join(assets, "FlossForDab.overrideController"), []byte(over), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// A project folder is one input: its assets' references are followed
// through the GUIDs of their .meta files; a clip whose GUID no .meta
// gives is named as missing; an override controller replaces clips.
func TestProjectFoldersResolveReferencesByGUID(t *testing.T) {
	set := openSet(t, project(t))
	if n := len(set.Clips()); n != 3 {
		t.Fatalf("%d clips, want the 3 .anim files", n)
	}
	k, err := set.FindController("dancecontroller")
	if err != nil {
		t.Fatal(err)
	}
	cc, err := set.Controller(t.Context(), k)
	if err != nil {
		t.Fatal(err)
	}
	var named []string
	for i, ci := range cc.Clips {
		if ci >= 0 {
			it := set.Clips()[ci]
			named = append(named, it.Name)
			if cc.Controller.ClipNames[i] != it.Name {
				t.Errorf("slot %d named %q, plays %q", i, cc.Controller.ClipNames[i], it.Name)
			}
		}
	}
	if len(named) != 3 || len(cc.Notes) != 1 || !strings.Contains(cc.Notes[0], "876d45c34baef164d8ef87ba0f565a98") {
		t.Errorf("clips %q, notes %q: want 3 resolved, the fourth GUID named missing", named, cc.Notes)
	}
	o, err := set.FindController("FlossForDab")
	if err != nil {
		t.Fatal(err)
	}
	oc, err := set.Controller(t.Context(), o)
	if err != nil {
		t.Fatal(err)
	}
	for i, ci := range oc.Clips {
		if ci >= 0 {
			if it := set.Clips()[ci]; it.Name == "Dab" {
				t.Errorf("slot %d still plays Dab under the override", i)
			}
		}
	}
	if s := oc.Controller.ClipNames; strings.Join(s, ",") == strings.Join(cc.Controller.ClipNames, ",") {
		t.Errorf("override names %q: the same as the controller's", s)
	}
	// A reference chooses an asset of the project by its path.
	if _, err := set.FindClip("Assets/Emotes/Floss.anim#7400000"); err != nil {
		t.Error(err)
	}
	if _, err := set.FindClip("Nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Find(Nope): %v", err)
	}
}
