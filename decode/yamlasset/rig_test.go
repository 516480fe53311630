package yamlasset

import (
	"strings"
	"testing"

	"github.com/mecanim/mecanim/model"
)

func rigPaths(r *model.Rig) string {
	var sb strings.Builder
	for _, n := range r.Nodes {
		sb.WriteString(n.Path)
		sb.WriteByte('|')
	}
	return sb.String()
}

func TestPrefabRigOfAStrippedAnimator(t *testing.T) {
	f := parseCorpus(t, "lc-example-enemy/source/ExampleEnemyObj.prefab")
	rigs, err := f.Rigs()
	if err != nil {
		t.Fatal(err)
	}
	if len(rigs) != 1 {
		t.Fatalf("%d rigs", len(rigs))
	}
	r := rigs[0]
	// The Animator sits on the model instance's stripped GameObject, named
	// by the instance's m_Name modification; the model's bones are in the
	// .fbx, not here.
	if r.Name != "ExampleEnemyModel" || len(r.Nodes) != 1 || r.Animator == nil || r.Animator.Name != "ExampleEnemyModel" {
		t.Fatalf("rig %+v", r)
	}
	a := r.Animator
	if a.ApplyRootMotion || !a.Enabled || !a.Avatar.IsNull() || a.Controller.PathID != 9100000 || f.GUIDs()[a.Controller.FileID-1] != "e2111e96695483196bcf6899827729e3" {
		t.Errorf("animator %+v", a)
	}
	if n := r.Nodes[0]; n.Local.R.W != 1 || n.Local.S.X != 1 || n.Transform.PathID != 2903942266258411216 {
		t.Errorf("node %+v", n)
	}
	all, err := f.Hierarchy()
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 1 || len(all[0].Nodes) != 10 || all[0].Name != "ExampleEnemyObj" {
		t.Fatalf("hierarchy: %d roots, %s", len(all), rigPaths(all[0]))
	}
	// m_Children order: the model instance first, then ScanNode, ...
	if got := rigPaths(all[0]); !strings.HasPrefix(got, "|ExampleEnemyModel|ScanNode|MapDot|") {
		t.Errorf("paths %s", got)
	}
	if n := all[0].Nodes[2]; n.Local.T.Y != 1.252 || n.Local.S.Z != 0.5 || n.Parent != 0 {
		t.Errorf("ScanNode %+v", n)
	}
}

func TestPrefabWithoutAnimatorGivesItsRoots(t *testing.T) {
	for _, tc := range []struct {
		rel, paths string
	}{
		{"animation-jobs-samples/Effector/Effector.prefab", "|"},
		{"animation-jobs-samples/TextPanel/InfoText.prefab", "|Panel|Text|"},
	} {
		rigs, err := parseCorpus(t, tc.rel).Rigs()
		if err != nil {
			t.Fatal(err)
		}
		if len(rigs) != 1 || rigs[0].Animator != nil || rigPaths(rigs[0]) != tc.paths {
			t.Errorf("%s: %d rigs, paths %s", tc.rel, len(rigs), rigPaths(rigs[0]))
		}
	}
}

const nestedScene = `--- !u!1 &1
GameObject:
  m_Component:
  - component: {fileID: 2}
  - component: {fileID: 3}
  m_Name: Root
--- !u!4 &2
Transform:
  m_GameObject: {fileID: 1}
  m_LocalPosition: {x: 1, y: 2, z: 3}
  m_Children:
  - {fileID: 12}
  - {fileID: 22}
  m_Father: {fileID: 0}
--- !u!95 &3
Animator:
  m_GameObject: {fileID: 1}
  m_Enabled: 1
  m_Controller: {fileID: 9100000, guid: abc, type: 2}
  m_ApplyRootMotion: 1
--- !u!1 &11
GameObject:
  m_Name: Hips
--- !u!4 &12
Transform:
  m_GameObject: {fileID: 11}
  m_Children:
  - {fileID: 32}
  m_Father: {fileID: 2}
--- !u!1 &21
GameObject:
  m_Name: Prop
--- !u!4 &22
Transform:
  m_GameObject: {fileID: 21}
  m_Children: []
  m_Father: {fileID: 2}
--- !u!95 &23
Animator:
  m_GameObject: {fileID: 21}
  m_Controller: {fileID: 9100000, guid: def, type: 2}
--- !u!1 &31
GameObject:
  m_Name: Spine
--- !u!4 &32
Transform:
  m_GameObject: {fileID: 31}
  m_Children: []
  m_Father: {fileID: 12}
`

func TestRigsStopAtNestedAnimators(t *testing.T) {
	f, err := Parse(strings.NewReader(nestedScene), "nested.prefab")
	if err != nil {
		t.Fatal(err)
	}
	rigs, err := f.Rigs()
	if err != nil {
		t.Fatal(err)
	}
	if len(rigs) != 2 || rigPaths(rigs[0]) != "|Hips|Hips/Spine|" || rigPaths(rigs[1]) != "|" {
		t.Fatalf("%d rigs: %s / %s", len(rigs), rigPaths(rigs[0]), rigPaths(rigs[1]))
	}
	if r := rigs[0]; r.Nodes[0].Local.T.Z != 3 || r.Nodes[2].Parent != 1 || !r.Animator.ApplyRootMotion || r.Animator.Name != "Root" {
		t.Errorf("rig 0 %+v", r)
	}
}

// An Animator a scene adds to an object inside a prefab instance finds
// that object's Transform and children in the source prefab, with the
// instance's modifications; without the prefab it is refused, naming the
// object.
func TestSceneAnimatorOnAPrefabInstanceObjectReadsTheSourcePrefab(t *testing.T) {
	const prefabGUID = "7c7645e5d0cb8cf4bb8be56bc87ebf77"
	prefab, err := Parse(strings.NewReader(`%YAML 1.1
%TAG !u! tag:unity3d.com,2011:
--- !u!1 &100
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
  m_Name: Sprite
--- !u!4 &201
Transform:
  m_GameObject: {fileID: 200}
  m_LocalRotation: {x: 0, y: 0, z: 0, w: 1}
  m_LocalPosition: {x: 0, y: 0.5, z: 0}
  m_LocalScale: {x: 1, y: 1, z: 1}
  m_Children:
  - {fileID: 301}
  m_Father: {fileID: 101}
--- !u!1 &300
GameObject:
  m_Name: Shadow
--- !u!4 &301
Transform:
  m_GameObject: {fileID: 300}
  m_LocalRotation: {x: 0, y: 0, z: 0, w: 1}
  m_LocalPosition: {x: 0, y: -0.5, z: 0}
  m_LocalScale: {x: 1, y: 1, z: 1}
  m_Children: []
  m_Father: {fileID: 201}
`), "Player.prefab")
	if err != nil {
		t.Fatal(err)
	}
	scene, err := Parse(strings.NewReader(`%YAML 1.1
%TAG !u! tag:unity3d.com,2011:
--- !u!1001 &50
PrefabInstance:
  m_Modification:
    m_TransformParent: {fileID: 0}
    m_Modifications:
    - target: {fileID: 101, guid: `+prefabGUID+`, type: 3}
      propertyPath: m_LocalPosition.x
      value: -5
      objectReference: {fileID: 0}
    - target: {fileID: 201, guid: `+prefabGUID+`, type: 3}
      propertyPath: m_LocalPosition.z
      value: 2
      objectReference: {fileID: 0}
  m_SourcePrefab: {fileID: 100100000, guid: `+prefabGUID+`, type: 3}
--- !u!1 &60 stripped
GameObject:
  m_CorrespondingSourceObject: {fileID: 200, guid: `+prefabGUID+`, type: 3}
  m_PrefabInstance: {fileID: 50}
--- !u!95 &61
Animator:
  m_GameObject: {fileID: 60}
  m_Enabled: 1
  m_Avatar: {fileID: 0}
  m_Controller: {fileID: 9100000, guid: eb5f1376bcf5fc5428514928ab0d7a11, type: 2}
  m_ApplyRootMotion: 0
--- !u!1 &70 stripped
GameObject:
  m_CorrespondingSourceObject: {fileID: 100, guid: `+prefabGUID+`, type: 3}
  m_PrefabInstance: {fileID: 50}
--- !u!4 &71 stripped
Transform:
  m_CorrespondingSourceObject: {fileID: 101, guid: `+prefabGUID+`, type: 3}
  m_PrefabInstance: {fileID: 50}
`), "Overworld.unity")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := scene.Rigs(); err == nil || !strings.Contains(err.Error(), "Animator &61") || !strings.Contains(err.Error(), "prefab instance &50") || !strings.Contains(err.Error(), prefabGUID) {
		t.Fatalf("without the prefab: %v", err)
	}
	prefabs := func(guid string) *File {
		if guid == prefabGUID {
			return prefab
		}
		return nil
	}
	rigs, err := scene.RigsFrom(prefabs)
	if err != nil {
		t.Fatal(err)
	}
	if len(rigs) != 1 || rigs[0].Name != "Sprite" || rigPaths(rigs[0]) != "|Shadow|" {
		t.Fatalf("rigs %d: %+v", len(rigs), rigs)
	}
	r := rigs[0]
	if l := r.Nodes[0].Local; l.T.Y != 0.5 || l.T.Z != 2 {
		t.Errorf("Sprite's local transform %+v: the prefab's with the instance's modification", l)
	}
	if r.Nodes[1].Local.T.Y != -0.5 {
		t.Errorf("Shadow %+v", r.Nodes[1].Local)
	}
	all, err := scene.HierarchyFrom(prefabs)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 1 || rigPaths(all[0]) != "|Sprite|Sprite/Shadow|" || all[0].Name != "Player" || all[0].Nodes[0].Local.T.X != -5 || all[0].Nodes[0].Transform.PathID != 71 {
		t.Fatalf("hierarchy %d roots: %s %+v", len(all), rigPaths(all[0]), all[0].Nodes[0])
	}
}
