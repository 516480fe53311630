package yamlasset

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/model"
)

// compiledState is what the compiled ExampleEnemyAnimator (the controller
// of lc-example-enemy/modassets, read with our type-tree reader) holds for
// a state: its name hash, full path hash, clip index (-1 for an empty
// tree), loop flag, and its transitions as (destination, full path hash,
// id).
type compiledState struct {
	name        string
	nameID, fid uint32
	clip        int
	trans       [][3]uint32
}

// TestControllerFlattensAsUnityCompiles compares the YAML source of
// lc-example-enemy's controller with the values of the compiled one.
func TestControllerFlattensAsUnityCompiles(t *testing.T) {
	c, err := parseCorpus(t, "lc-example-enemy/source/ExampleEnemyAnimator.controller").Controller()
	if err != nil {
		t.Fatal(err)
	}
	if c.Name != "ExampleEnemyAnimator" || len(c.Layers) != 3 || len(c.StateMachines) != 3 || len(c.Parameters) != 4 || len(c.Clips) != 6 {
		t.Fatalf("%q: %d layers, %d machines, %d parameters, %d clips", c.Name, len(c.Layers), len(c.StateMachines), len(c.Parameters), len(c.Clips))
	}
	wantParams := []uint32{1822675767, 1397615125, 2462868812, 3124124132}
	for i, p := range c.Parameters {
		if p.Hash != wantParams[i] || p.Type != model.ParamTrigger {
			t.Errorf("parameter %d = %+v", i, p)
		}
	}
	layers := []struct {
		hash     uint32
		blend    model.LayerBlending
		weight   float32
		states   []compiledState
		anyState [4]uint32 // destination, full path hash, id, condition parameter hash
		entry    []uint32
	}{
		{4282375983, 0, 0, []compiledState{
			{"HeadBop", 1675172826, 905845259, 0, [][3]uint32{{1, 2903818186, 3327071061}}},
			{"swingAttack", 2462868812, 1428920099, 1, [][3]uint32{{0, 1628781772, 1849822245}}},
			{"die-Head", 1749060604, 2579648191, 2, nil},
		}, [4]uint32{2, 1483407551, 876670668, 3124124132}, []uint32{0, 0}},
		{423309694, 1, 1, []compiledState{
			{"Empty", 2835747520, 2062826208, -1, [][3]uint32{{1, 2228217900, 1579828887}}},
			{"walkCycle", 4157262357, 1492546082, 3, [][3]uint32{{0, 3482477656, 4220807883}}},
			{"die-Legs", 850083562, 67650883, 4, nil},
		}, [4]uint32{2, 3315665731, 1856723930, 3124124132}, []uint32{0, 0}},
		{1956199994, 1, 1, []compiledState{
			{"Empty", 2835747520, 3405802678, -1, nil},
			{"die-Toilet", 962266999, 2540679200, 5, nil},
		}, [4]uint32{1, 2127422828, 3687184467, 3124124132}, []uint32{0}},
	}
	for li, want := range layers {
		l := c.Layers[li]
		if l.Hash != want.hash || l.Blending != want.blend || l.Weight != want.weight || l.StateMachine != li || l.SyncedLayer != -1 {
			t.Errorf("layer %d = %+v", li, l)
		}
		if len(l.BodyMask) != 3 || l.BodyMask[2] != 0x7FFFF {
			t.Errorf("layer %d body mask %v", li, l.BodyMask)
		}
		sm := c.StateMachines[li]
		if len(sm.States) != len(want.states) || sm.DefaultState != 0 || sm.MotionSets != 1 {
			t.Fatalf("layer %d: %d states, default %d, %d motion sets", li, len(sm.States), sm.DefaultState, sm.MotionSets)
		}
		for si, ws := range want.states {
			s := sm.States[si]
			if s.Name != ws.name || s.NameHash != ws.nameID || s.FullPathHash != ws.fid {
				t.Errorf("layer %d state %d = %q %d %d, want %+v", li, si, s.Name, s.NameHash, s.FullPathHash, ws)
			}
			clip := -1
			if len(s.Motions) == 1 && len(s.Motions[0].Nodes) == 1 {
				clip = s.Motions[0].Nodes[0].Clip
				if s.Motions[0].Nodes[0].Duration != 1 {
					t.Errorf("layer %d state %d: leaf duration %v", li, si, s.Motions[0].Nodes[0].Duration)
				}
			}
			if clip != ws.clip || (clip < 0) != s.Loop {
				t.Errorf("layer %d state %d: clip %d loop %v, want clip %d", li, si, clip, s.Loop, ws.clip)
			}
			if len(s.Transitions) != len(ws.trans) {
				t.Errorf("layer %d state %d: %d transitions", li, si, len(s.Transitions))
				continue
			}
			for ti, wt := range ws.trans {
				tr := s.Transitions[ti]
				if tr.Destination != wt[0] || tr.FullPathHash != wt[1] || tr.ID != wt[2] {
					t.Errorf("layer %d state %d transition %d = %d %d %d, want %v", li, si, ti, tr.Destination, tr.FullPathHash, tr.ID, wt)
				}
			}
		}
		if len(sm.AnyState) != 1 {
			t.Fatalf("layer %d: %d any-state transitions", li, len(sm.AnyState))
		}
		a := sm.AnyState[0]
		if a.Destination != want.anyState[0] || a.FullPathHash != want.anyState[1] || a.ID != want.anyState[2] ||
			len(a.Conditions) != 1 || a.Conditions[0].ParamHash != want.anyState[3] || a.Conditions[0].Mode != model.CondIf ||
			a.ExitTime != 0.75 || a.Duration != 0.25 || a.HasExitTime || !a.HasFixedDuration {
			t.Errorf("layer %d any-state transition %+v", li, a)
		}
		if len(sm.Selectors) != 2 || !sm.Selectors[0].IsEntry || sm.Selectors[1].IsEntry ||
			sm.Selectors[0].FullPathHash != want.hash || sm.Selectors[1].FullPathHash != want.hash {
			t.Fatalf("layer %d selectors %+v", li, sm.Selectors)
		}
		var entry []uint32
		for _, st := range sm.Selectors[0].Transitions {
			entry = append(entry, st.Destination)
		}
		if len(entry) != len(want.entry) || entry[0] != want.entry[0] {
			t.Errorf("layer %d entry destinations %v, want %v", li, entry, want.entry)
		}
		if ex := sm.Selectors[1].Transitions; len(ex) != 1 || ex[0].Destination != model.SelectorBase {
			t.Errorf("layer %d exit %+v", li, ex)
		}
	}
	for _, k := range c.ClipKeys {
		if !strings.HasSuffix(k, ":7400000") {
			t.Errorf("clip key %q", k)
		}
	}
	// The compiled name table has 37 entries, the same as these.
	if len(c.Names) != 37 {
		t.Errorf("%d names, want the compiled table's 37", len(c.Names))
	}
	if n, _ := c.Names.Lookup(3315665731); n != "Entry -> Walk Layer.die-Legs" {
		t.Errorf("name of 3315665731 = %q", n)
	}
}

func TestDanceControllerStatesAndClips(t *testing.T) {
	f := parseCorpus(t, "lethal-emotes/source/dancecontroller.controller")
	c, err := f.Controller()
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Layers) != 1 || c.Layers[0].Hash != 756556552 || len(c.Parameters) != 0 || len(c.Clips) != 4 {
		t.Fatalf("%d layers (%+v), %d parameters, %d clips", len(c.Layers), c.Layers, len(c.Parameters), len(c.Clips))
	}
	sm := c.StateMachines[0]
	var names []string
	for _, s := range sm.States {
		names = append(names, s.Name)
	}
	if got := strings.Join(names, ","); got != "none,Loop,Poop,PoopToLoop,LoopFromPoop" {
		t.Errorf("states %s", got)
	}
	// PoopToLoop -> LoopFromPoop after 0.918 of the clip.
	tr := sm.States[3].Transitions
	if len(tr) != 1 || tr[0].Destination != 4 || tr[0].ExitTime != 0.91847825 || !tr[0].HasExitTime || tr[0].FullPathHash != model.PathHash("Base Layer.PoopToLoop -> Base Layer.LoopFromPoop") {
		t.Errorf("PoopToLoop transitions %+v", tr)
	}
	// The compiled dancecontroller (lethal-emotes/customemotespackage)
	// has these hashes and exactly this name table.
	if s := sm.States[2]; s.NameHash != 463624951 || s.FullPathHash != 853344421 || len(s.Transitions) != 1 ||
		s.Transitions[0].ID != 2729758389 || s.Transitions[0].FullPathHash != 2855694011 || s.Transitions[0].Destination != 0 {
		t.Errorf("Poop = %+v", s)
	}
	compiledTOS := []string{"PoopToLoop", "Base Layer.none", "Loop", "Poop -> none", "PoopToLoop -> LoopFromPoop",
		"Base Layer.LoopFromPoop", "GravityWeight", "Base Layer.Loop", "none", "Base Layer.Poop", "Base Layer", "",
		"Base Layer.PoopToLoop -> Base Layer.LoopFromPoop", "LoopFromPoop", "Poop", "Base Layer.Poop -> Base Layer.none",
		"Base Layer.PoopToLoop"}
	if len(c.Names) != len(compiledTOS) {
		t.Errorf("%d names, want %d: %v", len(c.Names), len(compiledTOS), c.Names)
	}
	for _, n := range compiledTOS {
		if got, ok := c.Names.Lookup(model.PathHash(n)); !ok || got != n {
			t.Errorf("name %q missing", n)
		}
	}
	if sm.States[0].Speed != 0 || len(sm.States[0].Motions[0].Nodes) != 0 {
		t.Errorf("state none: %+v", sm.States[0])
	}
	// Clip refs name the clips' assets by their place in the file's GUIDs.
	for i, r := range c.Clips {
		g := f.GUIDs()[r.FileID-1]
		if r.PathID != 7400000 || c.ClipKeys[i] != g+":7400000" {
			t.Errorf("clip %d = %+v key %q", i, r, c.ClipKeys[i])
		}
	}
	ResolveClips(c, func(k string) *model.Clip {
		return &model.Clip{Name: "clip " + k[:4], Settings: model.LoopSettings{LoopTime: k[0] == '9'}}
	})
	if c.ClipNames[0] != "clip 9635" || !sm.States[1].Loop || sm.States[2].Loop {
		t.Errorf("after ResolveClips: names %v, loops %v %v", c.ClipNames, sm.States[1].Loop, sm.States[2].Loop)
	}
}

// A synthetic controller with a sub-state machine, a blend tree, a synced
// layer and muted/solo transitions.
const syntheticController = `%YAML 1.1
%TAG !u! tag:unity3d.com,2011:
--- !u!91 &9100000
AnimatorController:
  m_Name: Synth
  m_AnimatorParameters:
  - m_Name: Speed
    m_Type: 1
    m_DefaultFloat: 0.5
  - m_Name: Jump
    m_Type: 4
    m_DefaultBool: 1
  m_AnimatorLayers:
  - m_Name: Base
    m_StateMachine: {fileID: 1}
    m_Mask: {fileID: 0}
    m_BlendingMode: 0
    m_SyncedLayerIndex: -1
    m_DefaultWeight: 1
  - m_Name: Synced
    m_StateMachine: {fileID: 0}
    m_Mask: {fileID: 0}
    m_Motions:
    - serializedVersion: 2
      m_State: {fileID: 10}
      m_Motion: {fileID: 7400000, guid: cccc, type: 2}
    m_BlendingMode: 1
    m_SyncedLayerIndex: 0
    m_DefaultWeight: 0.5
--- !u!1107 &1
AnimatorStateMachine:
  m_Name: Base
  m_ChildStates:
  - m_State: {fileID: 10}
  m_ChildStateMachines:
  - m_StateMachine: {fileID: 2}
  m_AnyStateTransitions: []
  m_EntryTransitions: []
  m_StateMachineTransitions:
  - first: {fileID: 2}
    second:
    - {fileID: 31}
  m_DefaultState: {fileID: 10}
--- !u!1107 &2
AnimatorStateMachine:
  m_Name: Air
  m_ChildStates:
  - m_State: {fileID: 11}
  m_ChildStateMachines: []
  m_EntryTransitions: []
  m_DefaultState: {fileID: 11}
--- !u!1102 &10
AnimatorState:
  m_Name: Move
  m_Speed: 1
  m_Transitions:
  - {fileID: 20}
  - {fileID: 21}
  - {fileID: 22}
  m_Motion: {fileID: 206001}
  m_SpeedParameterActive: 1
  m_SpeedParameter: Speed
--- !u!1102 &11
AnimatorState:
  m_Name: Fall
  m_Speed: 1
  m_Transitions:
  - {fileID: 23}
  m_Motion: {fileID: 7400000, guid: aaaa, type: 2}
--- !u!1101 &20
AnimatorStateTransition:
  m_Conditions:
  - m_ConditionMode: 1
    m_ConditionEvent: Jump
    m_EventTreshold: 0
  m_DstStateMachine: {fileID: 2}
  m_DstState: {fileID: 0}
  m_Solo: 1
--- !u!1101 &21
AnimatorStateTransition:
  m_DstState: {fileID: 11}
  m_Mute: 0
--- !u!1101 &22
AnimatorStateTransition:
  m_DstState: {fileID: 11}
  m_Solo: 1
  m_Mute: 1
--- !u!1101 &23
AnimatorStateTransition:
  m_DstState: {fileID: 0}
  m_IsExit: 1
--- !u!1109 &31
AnimatorTransition:
  m_DstState: {fileID: 10}
--- !u!206 &206001
BlendTree:
  m_Name: Blend
  m_Childs:
  - m_Motion: {fileID: 7400000, guid: aaaa, type: 2}
    m_Threshold: 0
    m_TimeScale: 2
  - m_Motion: {fileID: 7400000, guid: bbbb, type: 2}
    m_Threshold: 1
  m_BlendParameter: Speed
  m_BlendType: 0
`

func TestSyntheticControllerFlattensSubMachinesTreesAndSyncedLayers(t *testing.T) {
	f, err := Parse(strings.NewReader(syntheticController), "synth.controller")
	if err != nil {
		t.Fatal(err)
	}
	c, err := f.Controller()
	if err != nil {
		t.Fatal(err)
	}
	if len(c.StateMachines) != 1 || c.Layers[1].StateMachine != 0 || c.Layers[1].MotionSet != 1 || c.StateMachines[0].MotionSets != 2 {
		t.Fatalf("layers %+v", c.Layers)
	}
	if c.Parameters[0].Default != 0.5 || c.Parameters[1].Default != 1 {
		t.Errorf("parameters %+v", c.Parameters)
	}
	sm := c.StateMachines[0]
	if len(sm.States) != 2 || sm.States[1].FullPathHash != model.PathHash("Base.Air.Fall") || sm.States[0].SpeedParam != 0 {
		t.Fatalf("states %+v", sm.States)
	}
	move := sm.States[0]
	// Only the solo, unmuted transition survives: to the Air machine's entry.
	if len(move.Transitions) != 1 || move.Transitions[0].Destination != model.SelectorBase+2 || move.Transitions[0].Conditions[0].Param != 1 {
		t.Errorf("Move transitions %+v", move.Transitions)
	}
	// Fall exits its machine: the Air exit selector (node 3).
	if tr := sm.States[1].Transitions; len(tr) != 1 || tr[0].Destination != model.SelectorBase+3 {
		t.Errorf("Fall transitions %+v", tr)
	}
	if len(sm.Selectors) != 4 {
		t.Fatalf("%d selectors", len(sm.Selectors))
	}
	// Air's exit follows Base's state-machine transition to Move, then Base's entry.
	if ex := sm.Selectors[3].Transitions; len(ex) != 2 || ex[0].Destination != 0 || ex[1].Destination != model.SelectorBase {
		t.Errorf("Air exit %+v", ex)
	}
	if en := sm.Selectors[2].Transitions; len(en) != 1 || en[0].Destination != 1 {
		t.Errorf("Air entry %+v", en)
	}
	tree := move.Motions[0]
	if len(tree.Nodes) != 3 || tree.Nodes[0].Param != 0 || len(tree.Nodes[0].Children) != 2 || tree.Nodes[0].Thresholds[1] != 1 {
		t.Fatalf("blend tree %+v", tree)
	}
	if tree.Nodes[1].Clip != 0 || tree.Nodes[2].Clip != 1 || tree.Nodes[1].Duration != 0.5 {
		t.Errorf("leaves %+v %+v", tree.Nodes[1], tree.Nodes[2])
	}
	// The synced layer's motion set: Move plays cccc, Fall nothing.
	if m := move.Motions[1]; len(m.Nodes) != 1 || c.ClipKeys[m.Nodes[0].Clip] != "cccc:7400000" {
		t.Errorf("synced Move motion %+v (keys %v)", m, c.ClipKeys)
	}
	if m := sm.States[1].Motions[1]; len(m.Nodes) != 0 {
		t.Errorf("synced Fall motion %+v", m)
	}
}

func TestControllerReportsBrokenGraphs(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"missing machine", "--- !u!91 &1\nAnimatorController:\n  m_AnimatorLayers:\n  - m_Name: L\n    m_StateMachine: {fileID: 5}\n    m_SyncedLayerIndex: -1\n", "not in the file"},
		{"self nesting", "--- !u!91 &1\nAnimatorController:\n  m_AnimatorLayers:\n  - m_Name: L\n    m_StateMachine: {fileID: 5}\n    m_SyncedLayerIndex: -1\n--- !u!1107 &5\nAnimatorStateMachine:\n  m_ChildStateMachines:\n  - m_StateMachine: {fileID: 5}\n", "nested in itself"},
		{"bad sync", "--- !u!91 &1\nAnimatorController:\n  m_AnimatorLayers:\n  - m_Name: L\n    m_SyncedLayerIndex: 3\n", "syncs to layer 3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := Parse(strings.NewReader(tc.src), "t.controller")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := f.Controller(); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}

func TestBlendTreesThatContainThemselvesOrExplodeAreRefused(t *testing.T) {
	head := "--- !u!91 &1\nAnimatorController:\n  m_AnimatorLayers:\n  - m_Name: L\n    m_StateMachine: {fileID: 2}\n    m_SyncedLayerIndex: -1\n" +
		"--- !u!1107 &2\nAnimatorStateMachine:\n  m_ChildStates:\n  - m_State: {fileID: 3}\n" +
		"--- !u!1102 &3\nAnimatorState:\n  m_Name: S\n  m_Motion: {fileID: 100}\n"
	self := head + "--- !u!206 &100\nBlendTree:\n  m_Childs:\n  - m_Motion: {fileID: 100}\n  - m_Motion: {fileID: 100}\n"
	// 40 levels of a tree naming its child twice: 2^40 leaves if expanded.
	var sb strings.Builder
	sb.WriteString(head)
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&sb, "--- !u!206 &%d\nBlendTree:\n  m_Childs:\n  - m_Motion: {fileID: %d}\n  - m_Motion: {fileID: %d}\n", 100+i, 101+i, 101+i)
	}
	for name, src := range map[string]string{"self": self, "diamonds": sb.String()} {
		f, err := Parse(strings.NewReader(src), name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.Controller(); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
