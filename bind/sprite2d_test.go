package bind

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sprite2DProject lays out a 2D project: a clip that only switches the
// sprite of its GameObject, a controller playing it, and a Player prefab
// whose child "Body" carries the Animator and the SpriteRenderer.
func sprite2DProject(t *testing.T) string {
	dir := t.TempDir()
	write := func(name, guid, text string) {
		p := filepath.Join(dir, "Assets", name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n"+text), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p+".meta", []byte("fileFormatVersion: 2\nguid: "+guid+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("Walk.anim", "11111111111111111111111111111111", `--- !u!74 &7400000
AnimationClip:
  m_Name: Walk
  serializedVersion: 7
  m_Legacy: 0
  m_RotationCurves: []
  m_PositionCurves: []
  m_ScaleCurves: []
  m_FloatCurves: []
  m_PPtrCurves:
  - serializedVersion: 2
    curve:
    - time: 0
      value: {fileID: 21300000, guid: 22222222222222222222222222222222, type: 3}
    - time: 0.5
      value: {fileID: 21300002, guid: 22222222222222222222222222222222, type: 3}
    attribute: m_Sprite
    path: 
    classID: 212
    script: {fileID: 0}
  m_SampleRate: 4
  m_AnimationClipSettings:
    m_StartTime: 0
    m_StopTime: 1
    m_LoopTime: 1
`)
	write("Walker.controller", "33333333333333333333333333333333", `--- !u!91 &9100000
AnimatorController:
  m_Name: Walker
  m_AnimatorParameters: []
  m_AnimatorLayers:
  - serializedVersion: 5
    m_Name: Base Layer
    m_StateMachine: {fileID: 1107000}
    m_Mask: {fileID: 0}
    m_BlendingMode: 0
    m_DefaultWeight: 0
    m_SyncedLayerIndex: -1
--- !u!1107 &1107000
AnimatorStateMachine:
  m_Name: Base Layer
  m_ChildStates:
  - serializedVersion: 1
    m_State: {fileID: 1102000}
    m_Position: {x: 0, y: 0, z: 0}
  m_ChildStateMachines: []
  m_AnyStateTransitions: []
  m_EntryTransitions: []
  m_DefaultState: {fileID: 1102000}
--- !u!1102 &1102000
AnimatorState:
  m_Name: Walk
  m_Speed: 1
  m_Transitions: []
  m_Motion: {fileID: 7400000, guid: 11111111111111111111111111111111, type: 2}
`)
	write("Player.prefab", "44444444444444444444444444444444", `--- !u!1 &100
GameObject:
  m_Name: Player
--- !u!4 &101
Transform:
  m_GameObject: {fileID: 100}
  m_LocalRotation: {x: 0, y: 0, z: 0, w: 1}
  m_LocalPosition: {x: 0, y: 0, z: 0}
  m_LocalScale: {x: 1, y: 1, z: 1}
  m_Children:
  - {fileID: 201}
  m_Father: {fileID: 0}
--- !u!1 &200
GameObject:
  m_Name: Body
--- !u!4 &201
Transform:
  m_GameObject: {fileID: 200}
  m_LocalRotation: {x: 0, y: 0, z: 0, w: 1}
  m_LocalPosition: {x: 0, y: 0, z: 0}
  m_LocalScale: {x: 1, y: 1, z: 1}
  m_Children: []
  m_Father: {fileID: 101}
--- !u!95 &202
Animator:
  m_GameObject: {fileID: 200}
  m_Enabled: 1
  m_Avatar: {fileID: 0}
  m_Controller: {fileID: 9100000, guid: 33333333333333333333333333333333, type: 2}
  m_ApplyRootMotion: 0
`)
	return dir
}

// A controller whose clips only switch the character's sprites runs on
// it (by the clips' timing), each clip noted as moving no joint; a pose of
// such a clip is still refused, saying that its curves switch sprites.
func TestControllerOfSpriteClipsRunsOnTheirCharacter(t *testing.T) {
	set := openSet(t, sprite2DProject(t))
	ci, err := set.FindController("Walker")
	if err != nil {
		t.Fatal(err)
	}
	chi, err := set.FindCharacter("Body")
	if err != nil {
		t.Fatal(err)
	}
	ch, err := set.Character(t.Context(), chi)
	if err != nil {
		t.Fatal(err)
	}
	bc, err := set.BindController(t.Context(), ci, ch)
	if err != nil {
		t.Fatalf("controller refused: %v", err)
	}
	if notes := strings.Join(bc.Notes(), "\n"); !strings.Contains(notes, `switch object references ("" m_Sprite)`) {
		t.Errorf("notes %q: want the sprite clip noted", notes)
	}
	k, err := set.FindClip("Walk")
	if err != nil {
		t.Fatal(err)
	}
	_, err = set.playOn(t.Context(), int(k), ch)
	var nd *NothingDrivenError
	if !errors.As(err, &nd) || nd.ObjectCurves() != 1 || strings.Contains(err.Error(), "no curves") {
		t.Errorf("pose of a sprite clip: %v", err)
	}
}
