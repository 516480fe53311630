package yamlasset

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/model"
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

func TestAvatarMask(t *testing.T) {
	src := "%YAML 1.1\n--- !u!319 &31900000\nAvatarMask:\n  m_Name: Upper\n  m_Mask: 000000000100000001000000\n" +
		"  m_Elements:\n  - m_Path: \n    m_Weight: 1\n  - m_Path: Armature/Hips\n    m_Weight: 0\n"
	f, err := Parse(strings.NewReader(src), "u.mask")
	if err != nil {
		t.Fatal(err)
	}
	m, err := f.AvatarMask()
	if err != nil {
		t.Fatal(err)
	}
	if m.Name != "Upper" || len(m.BodyParts) != 3 || m.BodyParts[0] != 0 || m.BodyParts[2] != 1 || len(m.Elements) != 2 {
		t.Fatalf("mask %+v", m)
	}
	sk := m.SkeletonMask()
	if sk[0].PathHash != 0 || sk[0].Weight != 1 || sk[1].PathHash != model.PathHash("Armature/Hips") || sk[1].Weight != 0 {
		t.Errorf("skeleton mask %+v", sk)
	}
}
