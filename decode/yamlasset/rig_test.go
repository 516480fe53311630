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
