package yamlasset

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestProjectIndexResolvesControllerClips(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	looping := strings.Replace(syntheticLegacyClip, "m_StopTime: 1\n", "m_StopTime: 1\n    m_LoopTime: 1\n", 1)
	write("Fall.anim", looping)
	write("Fall.anim.meta", "fileFormatVersion: 2\nguid: aaaa\nNativeFormatImporter:\n")
	write("Other.meta", "fileFormatVersion: 2\n")
	idx, err := GUIDIndex(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(idx) != 1 || idx["aaaa"] != filepath.Join(dir, "Fall.anim") {
		t.Fatalf("index %v", idx)
	}
	f, err := Parse(strings.NewReader(syntheticController), "synth.controller")
	if err != nil {
		t.Fatal(err)
	}
	c, err := f.Controller()
	if err != nil {
		t.Fatal(err)
	}
	ResolveClips(c, ClipsFromProject(idx))
	// Clip 0 (aaaa) is Synth; bbbb and cccc stay keys.
	if c.ClipNames[0] != "Synth" || c.ClipNames[1] != "bbbb:7400000" {
		t.Errorf("clip names %v", c.ClipNames)
	}
	// Fall plays aaaa in the base set but nothing in the synced set, so it
	// loops; Move's tree also uses bbbb, which is unknown, so it is unset.
	sm := c.StateMachines[0]
	if !sm.States[1].Loop || sm.States[0].Loop {
		t.Errorf("loops %v %v", sm.States[0].Loop, sm.States[1].Loop)
	}
	clips, err := func() (int, error) { cs, err := f.Clips(); return len(cs), err }()
	if err != nil || clips != 0 {
		t.Errorf("a controller's clips: %d, %v", clips, err)
	}
}
