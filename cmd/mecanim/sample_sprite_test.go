package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSampleOfASpriteClipSaysItsCurvesSwitchObjects: a 2D clip whose only
// curve switches a SpriteRenderer's sprite has nothing sample evaluates;
// the failure names that curve instead of claiming the clip has none.
func TestSampleOfASpriteClipSaysItsCurvesSwitchObjects(t *testing.T) {
	path := filepath.Join(t.TempDir(), "Walk.anim")
	if err := os.WriteFile(path, []byte(`%YAML 1.1
%TAG !u! tag:unity3d.com,2011:
--- !u!74 &7400000
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
`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := runCLI("sample", path, "--clip", "Walk", "--at", "0")
	if code != exitFailed || !strings.Contains(stderr, `object-reference curves ("" m_Sprite first)`) || strings.Contains(stderr, "has no curves") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
}
