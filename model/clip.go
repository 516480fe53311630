package model

import "github.com/mecanim/mecanim/geom"

// WrapMode is how playback treats time past a clip's end (Unity's
// m_WrapMode values).
type WrapMode int32

// Unity's wrap modes.
const (
	WrapDefault      WrapMode = 0
	WrapOnce         WrapMode = 1
	WrapLoop         WrapMode = 2
	WrapPingPong     WrapMode = 4
	WrapClampForever WrapMode = 8
)

// TransformProp says which Transform property a channel drives. Its values
// are Unity's binding attributes for a Transform (typeID 4).
type TransformProp uint8

// Transform binding attributes.
const (
	PropNone     TransformProp = 0
	PropPosition TransformProp = 1 // m_LocalPosition, 3 components
	PropRotation TransformProp = 2 // m_LocalRotation, quaternion x y z w
	PropScale    TransformProp = 3 // m_LocalScale, 3 components
	PropEuler    TransformProp = 4 // localEulerAnglesRaw, 3 components in degrees
)

// Class ids the model refers to.
const (
	ClassGameObject          = 1
	ClassTransform           = 4
	ClassAnimationClip       = 74
	ClassAvatar              = 90
	ClassAnimatorController  = 91
	ClassAnimator            = 95
	ClassAnimation           = 111 // the legacy Animation component
	ClassOverrideController  = 221 // AnimatorOverrideController
	ClassMonoBehaviour       = 114
	ClassSkinnedMeshRenderer = 137
)

// Target is what one float channel of a clip drives.
type Target struct {
	// Path is the GameObject path below the Animator's GameObject ("" for
	// that GameObject itself, and for humanoid channels). Valid when
	// PathKnown; otherwise only PathHash is known.
	Path      string
	PathHash  uint32
	PathKnown bool
	// ClassID is the class of the driven component (4 Transform, 95 Animator
	// for humanoid channels, 137 SkinnedMeshRenderer, 114 a script, ...).
	ClassID int32
	// Attribute is the binding's attribute: a TransformProp for Transforms,
	// the humanoid attribute index (7.. ) for the Animator, otherwise the
	// CRC-32 of the property name.
	Attribute uint32
	// Transform is the Transform property for ClassID 4, else PropNone.
	Transform TransformProp
	// Component is the vector component (0 x, 1 y, 2 z, 3 w) for Transform
	// properties, 0 otherwise.
	Component int
	// Property is the editor's name for the channel ("m_LocalRotation.x",
	// "localEulerAnglesRaw.y", "Left Arm Down-Up", "blendShape.Smile");
	// empty when it cannot be resolved.
	Property string
	// RotationOrder is the Euler order of PropEuler channels.
	RotationOrder geom.EulerOrder
	// Script is the MonoScript of a script property (null otherwise).
	Script Ref
}

// CurveKind says which of the stored forms a curve has.
type CurveKind uint8

// Curve forms.
const (
	// CurveConstant has one value for all time (Mecanim's constant block).
	CurveConstant CurveKind = iota
	// CurveStreamed is a list of cubic segments (Mecanim's streamed block).
	CurveStreamed
	// CurveDense is samples at a fixed rate (Mecanim's dense block).
	CurveDense
	// CurveKeyframed is Unity's editor AnimationCurve of keyframes with
	// tangents (legacy clips, YAML sources).
	CurveKeyframed
)

// String returns the name of the value, as messages print it.
func (k CurveKind) String() string {
	switch k {
	case CurveConstant:
		return "constant"
	case CurveStreamed:
		return "streamed"
	case CurveDense:
		return "dense"
	case CurveKeyframed:
		return "keyframed"
	}
	return "unknown"
}

// Segment is one key of a streamed curve: from Time until the curve's next
// segment the value is ((C[0]·dt + C[1])·dt + C[2])·dt + C[3], dt seconds
// after Time. C[3] is the key's value and C[2] its outgoing slope (per
// second). Non-finite coefficients make the segment a step holding C[3].
type Segment struct {
	Time float32
	C    [4]float32
}

// Infinity is how a keyframed curve continues before its first key and after
// its last (Unity's internal pre/post-infinity values).
type Infinity int32

// Pre/post infinity modes.
const (
	InfinityPingPong Infinity = 0
	InfinityLoop     Infinity = 1
	InfinityClamp    Infinity = 2
)

// Weighted-mode bits of a keyframe.
const (
	WeightedIn  = 1
	WeightedOut = 2
)

// Keyframe is a key of an editor AnimationCurve.
type Keyframe struct {
	Time, Value, InSlope, OutSlope float32
	// WeightedMode: bit WeightedIn makes InWeight count, WeightedOut OutWeight.
	WeightedMode        int32
	InWeight, OutWeight float32
}

// Curve is one float channel of a clip in one of its stored forms.
type Curve struct {
	Target Target
	Kind   CurveKind

	// Value is the value of a CurveConstant.
	Value float32

	// Segments of a CurveStreamed, in time order. The first is usually at
	// -MaxFloat32 and gives the initial value.
	Segments []Segment

	// Samples of a CurveDense, one per frame from DenseBegin at DenseRate Hz.
	Samples    []float32
	DenseBegin float32
	DenseRate  float32

	// Keys of a CurveKeyframed, in time order, with the infinity modes.
	Keys         []Keyframe
	PreInfinity  Infinity
	PostInfinity Infinity
}

// ObjectKey is one key of an object-reference curve: from Time on, the
// property holds Object.
type ObjectKey struct {
	Time   float32
	Object Ref
}

// ObjectCurve drives an object reference (a material, a sprite) by steps.
type ObjectCurve struct {
	Target Target
	Keys   []ObjectKey
}

// Event is an animation event authored on a clip.
type Event struct {
	Time           float32
	Function       string
	Data           string // the string parameter
	Object         Ref
	Float          float32
	Int            int32
	MessageOptions int32
}

// LoopSettings are the Mecanim clip settings that shape playback and root
// motion (m_MuscleClip's flags).
type LoopSettings struct {
	LoopTime                bool
	LoopBlend               bool // loop pose
	LoopBlendOrientation    bool // bake root rotation into pose
	LoopBlendPositionY      bool
	LoopBlendPositionXZ     bool
	KeepOriginalOrientation bool
	KeepOriginalPositionY   bool
	KeepOriginalPositionXZ  bool
	HeightFromFeet          bool
	StartAtOrigin           bool
	Mirror                  bool
	CycleOffset             float32
	OrientationOffsetY      float32
	Level                   float32
}

// ClipStats counts what a clip's decoding found, for reports.
type ClipStats struct {
	Streamed, Dense, Constant, Keyframed int // curves of each form
	Bindings                             int // generic bindings (Mecanim)
	// KeysPastCurveCount counts streamed keys whose curve index was at or past
	// the streamed block's curve count (see the spec); they are reported,
	// never silently dropped.
	KeysPastCurveCount int
	// ExtraCurves lists curve indexes past the bindings that had data.
	UnresolvedPaths      int // channels whose path hash could not be named
	UnresolvedProperties int // channels whose property could not be named
}

// Clip is a decoded animation clip.
type Clip struct {
	Name string
	// Legacy clips are played by the Animation component and store
	// keyframed curves by kind.
	Legacy bool
	// Humanoid clips drive an Animator's muscles or IK goals (class 95
	// channels; see IsHumanPoseAttribute). A clip whose only Animator
	// channels are RootT and RootQ is generic: its root motion baked for a
	// generic avatar.
	Humanoid   bool
	SampleRate float32
	// UseHighQualityCurve is Unity's m_UseHighQualityCurve: when set, the
	// clip's compiled curves are never stored as dense samples.
	UseHighQualityCurve bool
	// Start and Stop bound the clip in seconds; its length is Stop-Start.
	Start, Stop float32
	WrapMode    WrapMode
	Settings    LoopSettings
	// AverageSpeed is the root's average velocity (m_AverageSpeed).
	AverageSpeed        geom.Vec3
	AverageAngularSpeed float32

	// Curves are the float channels, in the clip's binding order (streamed,
	// then dense, then constant for Mecanim clips).
	Curves []Curve
	// IntCurves are the integer channels (int, enum and hash properties),
	// stepped; ObjectCurves the object references.
	IntCurves    []IntCurve
	ObjectCurves []ObjectCurve
	Events       []Event
	Stats        ClipStats
}

// Length returns the clip's length in seconds (never negative).
func (c *Clip) Length() float32 {
	if c.Stop > c.Start {
		return c.Stop - c.Start
	}
	return 0
}

// Duration returns how long the clip plays, in seconds: its length, or one
// frame (1/SampleRate, 1/60 s without a usable rate) when that is 0, so that
// a zero-length clip still lasts a frame. Never 0.
func (c *Clip) Duration() float32 {
	if l := c.Stop - c.Start; l > 0 && geom.Finite(l) {
		return l
	}
	if f := 1 / c.SampleRate; f > 0 && geom.Finite(f) { // not 0 for an infinite rate
		return f
	}
	return 1.0 / 60
}

// Loops reports whether playback starts the clip over when it reaches its
// end: for a legacy clip, a wrap mode of loop or ping-pong; for a Mecanim
// clip, its Loop Time setting. Reports, viewers and renderers show it.
func (c *Clip) Loops() bool {
	if c.Legacy {
		return c.WrapMode == WrapLoop || c.WrapMode == WrapPingPong
	}
	return c.Settings.LoopTime
}
