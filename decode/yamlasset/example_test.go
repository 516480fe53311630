package yamlasset_test

import (
	"fmt"
	"log"
	"strings"

	"github.com/mecanim/mecanim/decode/yamlasset"
)

// bob is a clip as the Unity editor saves it in a project (Bob.anim): the
// hips rise 10 cm and come back over a second, and the clip loops.
const bob = `%YAML 1.1
%TAG !u! tag:unity3d.com,2011:
--- !u!74 &7400000
AnimationClip:
  m_Name: Bob
  serializedVersion: 7
  m_Legacy: 0
  m_RotationCurves: []
  m_CompressedRotationCurves: []
  m_EulerCurves: []
  m_PositionCurves:
  - curve:
      serializedVersion: 2
      m_Curve:
      - serializedVersion: 3
        time: 0
        value: {x: 0, y: 1, z: 0}
        inSlope: {x: 0, y: 0, z: 0}
        outSlope: {x: 0, y: 0, z: 0}
      - serializedVersion: 3
        time: 0.5
        value: {x: 0, y: 1.1, z: 0}
        inSlope: {x: 0, y: 0, z: 0}
        outSlope: {x: 0, y: 0, z: 0}
      - serializedVersion: 3
        time: 1
        value: {x: 0, y: 1, z: 0}
        inSlope: {x: 0, y: 0, z: 0}
        outSlope: {x: 0, y: 0, z: 0}
      m_PreInfinity: 2
      m_PostInfinity: 2
      m_RotationOrder: 4
    path: Armature/Hips
  m_ScaleCurves: []
  m_FloatCurves: []
  m_PPtrCurves: []
  m_SampleRate: 30
  m_WrapMode: 0
  m_AnimationClipSettings:
    m_StartTime: 0
    m_StopTime: 1
    m_LoopTime: 1
  m_Events: []
`

// Read an editor YAML asset (a .anim here; .controller, .prefab and
// avatar .asset files likewise) into the same model a compiled bundle
// decodes to, and evaluate a curve with model.Curve.Eval.
func Example() {
	f, err := yamlasset.Parse(strings.NewReader(bob), "Bob.anim")
	if err != nil {
		log.Fatal(err)
	}
	c, err := f.Clip()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s: %.1f s, loop %v, %d curves\n", c.Name, c.Length(), c.Settings.LoopTime, len(c.Curves))
	y := &c.Curves[1]
	fmt.Println(y.Kind, y.Target.Path, y.Target.Property)
	for _, t := range []float32{0, 0.25, 0.5, 0.75} {
		fmt.Printf("  t=%.2f y=%.4f\n", t, y.Eval(t))
	}
	// Output:
	// Bob: 1.0 s, loop true, 3 curves
	// keyframed Armature/Hips m_LocalPosition.y
	//   t=0.00 y=1.0000
	//   t=0.25 y=1.0500
	//   t=0.50 y=1.1000
	//   t=0.75 y=1.0500
}
