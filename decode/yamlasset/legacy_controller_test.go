package yamlasset

import (
	"strings"
	"testing"

	"github.com/mecanim/mecanim/model"
)

// unity4Controller is a controller as Unity 4 wrote it: a StateMachine
// listing its states in m_States, the transitions kept by the machine in
// m_OrderedTransitions (repeated "data" pairs, the null state's being the
// any-state transitions), exit time as a condition, a state's clips one per
// motion set in m_Motions.
const unity4Controller = `%YAML 1.1
%TAG !u! tag:unity3d.com,2011:
--- !u!91 &9100000
AnimatorController:
  m_Name: Old
  serializedVersion: 2
  m_AnimatorParameters:
  - m_Name: Speed
    m_Type: 1
    m_DefaultFloat: 0
  - m_Name: Jump
    m_Type: 4
  m_AnimatorLayers:
  - serializedVersion: 3
    m_Name: Base Layer
    m_StateMachine: {fileID: 110700000}
    m_Mask: {fileID: 0}
    m_BlendingMode: 0
    m_SyncedLayerIndex: -1
    m_StateMachineMotionSetIndex: 0
    m_DefaultWeight: 0
--- !u!1101 &110100000
Transition:
  m_Name: 
  m_SrcState: {fileID: 110200000}
  m_DstState: {fileID: 110200001}
  m_TransitionDuration: .25
  m_TransitionOffset: 0
  m_Conditions:
  - m_ConditionMode: 3
    m_ConditionEvent: Speed
    m_EventTreshold: .100000001
    m_ExitTime: .9
  m_Atomic: 1
  m_Solo: 0
  m_Mute: 0
--- !u!1101 &110100001
Transition:
  m_Name: 
  m_SrcState: {fileID: 110200001}
  m_DstState: {fileID: 110200000}
  m_TransitionDuration: .1
  m_TransitionOffset: 0
  m_Conditions:
  - m_ConditionMode: 5
    m_ConditionEvent: Speed
    m_EventTreshold: 0
    m_ExitTime: .75
  m_Atomic: 0
  m_Solo: 0
  m_Mute: 0
--- !u!1101 &110100002
Transition:
  m_Name: 
  m_SrcState: {fileID: 0}
  m_DstState: {fileID: 110200001}
  m_TransitionDuration: .2
  m_TransitionOffset: 0
  m_Conditions:
  - m_ConditionMode: 1
    m_ConditionEvent: Jump
    m_EventTreshold: 0
    m_ExitTime: .9
  m_Atomic: 1
  m_Solo: 0
  m_Mute: 0
--- !u!1102 &110200000
State:
  m_Name: Idle
  m_Speed: 1
  m_CycleOffset: 0
  m_Motions:
  - {fileID: 7400000, guid: 0147e212f97e3d449a4b9e4f5d057180, type: 3}
  m_ParentStateMachine: {fileID: 110700000}
  m_IKOnFeet: 1
  m_Mirror: 0
  m_Tag: 
--- !u!1102 &110200001
State:
  m_Name: Run
  m_Speed: 1.5
  m_CycleOffset: 0
  m_Motions:
  - {fileID: 7400000, guid: 26055e26f15260e4e8e0e51f50c41926, type: 3}
  m_ParentStateMachine: {fileID: 110700000}
  m_IKOnFeet: 0
  m_Mirror: 0
  m_Tag: 
--- !u!1107 &110700000
StateMachine:
  serializedVersion: 2
  m_Name: Base Layer
  m_DefaultState: {fileID: 110200000}
  m_States:
  - {fileID: 110200001}
  - {fileID: 110200000}
  m_ChildStateMachine: []
  m_ChildStateMachinePosition: []
  m_OrderedTransitions:
    data:
      first: {fileID: 0}
      second:
      - {fileID: 110100002}
    data:
      first: {fileID: 110200000}
      second:
      - {fileID: 110100000}
    data:
      first: {fileID: 110200001}
      second:
      - {fileID: 110100001}
  m_MotionSetCount: 1
`

func TestUnity4ControllersAreRead(t *testing.T) {
	f, err := Parse(strings.NewReader(unity4Controller), "Old.controller")
	if err != nil {
		t.Fatal(err)
	}
	c, err := f.Controller()
	if err != nil {
		t.Fatal(err)
	}
	if len(c.StateMachines) != 1 || len(c.Layers) != 1 {
		t.Fatalf("%d machines, %d layers", len(c.StateMachines), len(c.Layers))
	}
	sm := c.StateMachines[0]
	if len(sm.States) != 2 || sm.States[0].Name != "Idle" || sm.States[1].Name != "Run" || sm.DefaultState != 0 {
		t.Fatalf("states %+v, default %d: want Idle (the default, first) and Run", sm.States, sm.DefaultState)
	}
	idle, run := sm.States[0], sm.States[1]
	if !idle.WriteDefaults || !idle.IKOnFeet || run.Speed != 1.5 {
		t.Errorf("state fields: idle %+v, run %+v", idle, run)
	}
	if len(idle.Transitions) != 1 || idle.Transitions[0].Destination != 1 || len(idle.Transitions[0].Conditions) != 1 ||
		idle.Transitions[0].Conditions[0].Mode != model.CondGreater || idle.Transitions[0].HasExitTime {
		t.Errorf("Idle's transitions %+v: want one to Run when Speed > 0.1", idle.Transitions)
	}
	if len(run.Transitions) != 1 {
		t.Fatalf("Run's transitions %+v", run.Transitions)
	}
	back := run.Transitions[0]
	if back.Destination != 0 || !back.HasExitTime || back.ExitTime != 0.75 || len(back.Conditions) != 0 || back.Interruption != model.InterruptDestination {
		t.Errorf("Run -> Idle %+v: want exit time 0.75 as the transition's own, no condition, interruptible by the destination (not atomic)", back)
	}
	if len(sm.AnyState) != 1 || sm.AnyState[0].Destination != 1 || sm.AnyState[0].Conditions[0].Mode != model.CondIf || !sm.AnyState[0].CanTransitionToSelf {
		t.Errorf("any-state transitions %+v: want one to Run if Jump", sm.AnyState)
	}
	if len(c.ClipKeys) != 2 || len(idle.Motions) != 1 || len(run.Motions) != 1 {
		t.Errorf("clips %v, motions %d/%d", c.ClipKeys, len(idle.Motions), len(run.Motions))
	}
}
