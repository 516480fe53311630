package model

import "strconv"

// ParamType is an animator parameter's kind (Unity's values).
type ParamType int32

// Parameter kinds.
const (
	ParamFloat   ParamType = 1
	ParamInt     ParamType = 3
	ParamBool    ParamType = 4
	ParamTrigger ParamType = 9
)

// Parameter is an animator parameter with its default value.
type Parameter struct {
	Name string
	Hash uint32
	Type ParamType
	// Default holds the default: the float, the int (as a float64-exact
	// value), or 1/0 for bools and triggers.
	Default float64
}

// ConditionMode is a transition condition's test (Unity's values).
type ConditionMode int32

// Condition modes.
const (
	CondIf       ConditionMode = 1 // bool/trigger true
	CondIfNot    ConditionMode = 2 // bool false
	CondGreater  ConditionMode = 3
	CondLess     ConditionMode = 4
	CondExitTime ConditionMode = 5
	CondEquals   ConditionMode = 6
	CondNotEqual ConditionMode = 7
)

// Condition is one test of a transition.
type Condition struct {
	Mode ConditionMode
	// Param indexes Controller.Parameters (-1 when the hash names none);
	// ParamHash is the stored hash.
	Param     int
	ParamHash uint32
	Threshold float32
	ExitTime  float32
}

// Selector destinations: a destination below SelectorBase names a state of
// the machine; SelectorBase+n names selector node n; NoDestination names
// nothing.
const (
	SelectorBase  uint32 = 30000
	NoDestination uint32 = 0xFFFFFFFF
)

// InterruptionSource says which transitions may interrupt a transition.
type InterruptionSource int32

// Interruption sources (Unity's values).
const (
	InterruptNone                  InterruptionSource = 0
	InterruptSource                InterruptionSource = 1
	InterruptDestination           InterruptionSource = 2
	InterruptSourceThenDestination InterruptionSource = 3
	InterruptDestinationThenSource InterruptionSource = 4
)

// Transition is a state (or any-state) transition.
type Transition struct {
	Name         string
	FullPathHash uint32
	ID, UserID   uint32
	// Destination: a state index below SelectorBase, SelectorBase+n a
	// selector node, NoDestination nothing.
	Destination         uint32
	Conditions          []Condition
	Duration            float32 // seconds if HasFixedDuration, else normalised
	Offset              float32 // normalised destination start time
	ExitTime            float32 // normalised
	HasExitTime         bool
	HasFixedDuration    bool
	CanTransitionToSelf bool
	OrderedInterruption bool
	Interruption        InterruptionSource
}

// SelectorTransition is a transition of an entry or exit selector node.
type SelectorTransition struct {
	Destination uint32
	Conditions  []Condition
}

// Selector is an entry or exit node of a state machine.
type Selector struct {
	ID           uint32
	FullPathHash uint32
	IsEntry      bool
	Transitions  []SelectorTransition
}

// BlendType is a blend tree node's kind (Unity's values).
type BlendType int32

// Blend tree kinds.
const (
	Blend1D                    BlendType = 0
	Blend2DSimpleDirectional   BlendType = 1
	Blend2DFreeformDirectional BlendType = 2
	Blend2DFreeformCartesian   BlendType = 3
	BlendDirect                BlendType = 4
)

// NoClip is a blend leaf's clip index when it has no clip.
const NoClip = -1

// BlendNode is a node of a blend tree. A leaf has no Children and a Clip.
type BlendNode struct {
	Type BlendType
	// Param and ParamY index Controller.Parameters (-1 none).
	Param, ParamY int
	Children      []int        // node indexes
	Thresholds    []float32    // 1D, per child
	Positions     [][2]float32 // 2D, per child
	ChildParams   []int        // direct, per child: parameter indexes
	Normalize     bool         // direct: normalised blend values
	// Clip indexes Controller.Clips (NoClip for none).
	Clip        int
	Duration    float32
	CycleOffset float32
	Mirror      bool
}

// BlendTree is a state's motion for one motion set: node 0 is the root. An
// empty tree plays nothing.
type BlendTree struct {
	Nodes []BlendNode
}

// State is a state of a state machine.
type State struct {
	Name                             string
	NameHash, PathHash, FullPathHash uint32
	TagHash                          uint32
	Transitions                      []Transition
	// Motions holds one blend tree per motion set (a plain clip is a tree of
	// one leaf); a layer picks its set by Layer.MotionSet.
	Motions     []BlendTree
	Speed       float32
	CycleOffset float32
	Mirror      bool
	Loop        bool
	// SpeedParam, MirrorParam, CycleOffsetParam and TimeParam index
	// Controller.Parameters when the state uses them (-1 otherwise).
	SpeedParam, MirrorParam, CycleOffsetParam, TimeParam int
	WriteDefaults, IKOnFeet                              bool
}

// StateMachine is a compiled state machine (sub-state machines flattened,
// as Unity compiles them).
type StateMachine struct {
	States       []State
	AnyState     []Transition
	Selectors    []Selector
	DefaultState int
	MotionSets   int
}

// LayerBlending is how a layer combines with those below it.
type LayerBlending int32

// Layer blending modes.
const (
	BlendOverride LayerBlending = 0
	BlendAdditive LayerBlending = 1
)

// MaskElement is a skeleton-mask entry: a path hash and its weight.
type MaskElement struct {
	PathHash uint32
	Weight   float32
}

// Layer is an animator controller layer.
type Layer struct {
	Name         string
	Hash         uint32
	StateMachine int
	MotionSet    int
	Blending     LayerBlending
	Weight       float32
	BodyMask     []uint32 // humanoid body mask words (HumanMask); none = full
	// MaskKey names the layer's AvatarMask where the source refers to it
	// (YAML: "guid:fileID"), for a caller that can read it; empty otherwise.
	MaskKey      string
	SkeletonMask []MaskElement
	SyncedLayer  int // -1 when not synced
	SyncedTiming bool
	IKPass       bool
}

// HumanMask returns the layer's humanoid body mask (the full mask when
// the source recorded none).
func (l *Layer) HumanMask() HumanMask { return HumanMaskFromWords(l.BodyMask) }

// Controller is a decoded animator controller.
type Controller struct {
	Name          string
	Parameters    []Parameter
	Layers        []Layer
	StateMachines []StateMachine
	// Clips are the clips blend leaves index; a null slot is the zero Ref.
	Clips []Ref
	// ClipNames holds the clip names where the source knows them (parallel
	// to Clips).
	ClipNames []string
	// ClipKeys identifies each clip where the source names clips by
	// reference only (parallel to Clips; YAML sources: "guid:fileID" of the
	// motion), so controllers from different sources can be matched.
	ClipKeys []string
	Names    Names
}

// ParamIndex returns the index of the parameter with hash h, or -1.
func (c *Controller) ParamIndex(h uint32) int {
	for i := range c.Parameters {
		if c.Parameters[i].Hash == h {
			return i
		}
	}
	return -1
}

// String names the parameter kind as reports print it: float, int, bool or
// trigger; a kind Unity does not define prints as type<N>.
func (t ParamType) String() string {
	switch t {
	case ParamFloat:
		return "float"
	case ParamInt:
		return "int"
	case ParamBool:
		return "bool"
	case ParamTrigger:
		return "trigger"
	}
	return "type" + strconv.Itoa(int(t))
}

// String names the condition's test as reports print it: if, if_not,
// greater, less, exit_time, equals or not_equal; a mode Unity does not
// define prints as mode<N>.
func (m ConditionMode) String() string {
	switch m {
	case CondIf:
		return "if"
	case CondIfNot:
		return "if_not"
	case CondGreater:
		return "greater"
	case CondLess:
		return "less"
	case CondExitTime:
		return "exit_time"
	case CondEquals:
		return "equals"
	case CondNotEqual:
		return "not_equal"
	}
	return "mode" + strconv.Itoa(int(m))
}

// String names the blend tree kind as reports print it: 1d,
// 2d_simple_directional, 2d_freeform_directional, 2d_freeform_cartesian or
// direct; a kind Unity does not define prints as type<N>.
func (t BlendType) String() string {
	switch t {
	case Blend1D:
		return "1d"
	case Blend2DSimpleDirectional:
		return "2d_simple_directional"
	case Blend2DFreeformDirectional:
		return "2d_freeform_directional"
	case Blend2DFreeformCartesian:
		return "2d_freeform_cartesian"
	case BlendDirect:
		return "direct"
	}
	return "type" + strconv.Itoa(int(t))
}

// ClipOverride replaces one clip of a controller with another.
type ClipOverride struct {
	Original, Override Ref
	// OriginalKey and OverrideKey name the clips of a YAML asset
	// ("guid:fileID"); empty for compiled ones.
	OriginalKey, OverrideKey string
}

// OverrideController is an AnimatorOverrideController: another controller
// (an AnimatorController, or another override controller) played with some
// of its clips replaced.
type OverrideController struct {
	Name string
	// Controller is the controller it overrides (ControllerKey for a YAML
	// asset).
	Controller    Ref
	ControllerKey string
	// Overrides lists the replacements; an override whose Override is null
	// leaves the original in place.
	Overrides []ClipOverride
}
