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
	if len(sk) != 1 || sk[0].PathHash != model.PathHash("Armature/Hips") || sk[0].Weight != 0 {
		t.Errorf("skeleton mask %+v, want only Armature/Hips at 0 (the root's entry is not compiled)", sk)
	}
	// m_Mask 0,1,1: no root, body and head on, the rest (not listed) on.
	hm := m.HumanMask()
	if hm.Root() || !hm.Muscle(0) || !hm.Muscle(9) || !hm.Muscle(94) || !hm.Goal(3) {
		t.Errorf("body mask %v", hm)
	}
}

const maskedController = `%YAML 1.1
--- !u!91 &9100000
AnimatorController:
  m_Name: Masked
  m_AnimatorParameters: []
  m_AnimatorLayers:
  - m_Name: Base Layer
    m_StateMachine: {fileID: 1107000010}
    m_Mask: {fileID: 0}
    m_BlendingMode: 0
    m_SyncedLayerIndex: -1
    m_DefaultWeight: 0
  - m_Name: Arms
    m_StateMachine: {fileID: 1107000010}
    m_Mask: {fileID: 31900000}
    m_BlendingMode: 0
    m_SyncedLayerIndex: -1
    m_DefaultWeight: 1
  - m_Name: Legs
    m_StateMachine: {fileID: 1107000010}
    m_Mask: {fileID: 31900000, guid: 0123456789abcdef0123456789abcdef, type: 2}
    m_BlendingMode: 1
    m_SyncedLayerIndex: -1
    m_DefaultWeight: 1
--- !u!1107 &1107000010
AnimatorStateMachine:
  m_Name: Base Layer
  m_ChildStates: []
  m_ChildStateMachines: []
  m_AnyStateTransitions: []
  m_EntryTransitions: []
  m_StateMachineTransitions: {}
  m_DefaultState: {fileID: 0}
--- !u!319 &31900000
AvatarMask:
  m_Name: ArmsOnly
  m_Mask: 00000000000000000000000000000000000000000100000001000000000000000000000000000000000000000000000000000000
  m_Elements:
  - m_Path: 
    m_Weight: 1
  - m_Path: Armature/Hips/Spine
    m_Weight: 1
`

// A layer's AvatarMask is compiled into its body and skeleton masks: from
// the same file at once, from another asset by ResolveMasks (through
// MasksFromProject in a project folder); a layer without one gets the full
// mask.
func TestControllerLayersGetTheirAvatarMasks(t *testing.T) {
	f, err := Parse(strings.NewReader(maskedController), "masked.controller")
	if err != nil {
		t.Fatal(err)
	}
	c, err := f.Controller()
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Layers) != 3 {
		t.Fatalf("%d layers", len(c.Layers))
	}
	arms := model.HumanMaskFromParts([]uint32{0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0})
	if got := c.Layers[0].HumanMask(); !got.Full() || c.Layers[0].MaskKey != "" {
		t.Errorf("base layer mask %v key %q, want full and none", got, c.Layers[0].MaskKey)
	}
	if got := c.Layers[1].HumanMask(); got != arms || got.String() != "LeftArm+RightArm" {
		t.Errorf("Arms layer mask %v, want LeftArm+RightArm", got)
	}
	if sk := c.Layers[1].SkeletonMask; len(sk) != 1 || sk[0].PathHash != model.PathHash("Armature/Hips/Spine") {
		t.Errorf("Arms skeleton mask %+v", sk)
	}
	legs := &c.Layers[2]
	if legs.BodyMask != nil || legs.MaskKey != "0123456789abcdef0123456789abcdef:31900000" {
		t.Fatalf("Legs layer before resolving: mask %v key %q", legs.BodyMask, legs.MaskKey)
	}

	dir := t.TempDir()
	mask := "%YAML 1.1\n--- !u!319 &31900000\nAvatarMask:\n  m_Name: LegsOnly\n  m_Mask: 00000000000000000000000001000000010000000000000000000000000000000000000001000000010000000000000000000000\n  m_Elements: []\n"
	if err := os.WriteFile(filepath.Join(dir, "Legs.mask"), []byte(mask), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "Legs.mask.meta"), []byte("fileFormatVersion: 2\nguid: 0123456789abcdef0123456789abcdef\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	idx, err := GUIDIndex(dir)
	if err != nil {
		t.Fatal(err)
	}
	ResolveMasks(c, MasksFromProject(idx))
	if got := legs.HumanMask(); got.String() != "LeftLeg+RightLeg+LeftFootIK+RightFootIK" {
		t.Errorf("Legs layer mask after ResolveMasks: %v", got)
	}
	if legs.SkeletonMask != nil {
		t.Errorf("Legs skeleton mask %+v, want none", legs.SkeletonMask)
	}
	ResolveMasks(c, func(string) *AvatarMask { t.Error("resolved layers looked up again"); return nil })
}
