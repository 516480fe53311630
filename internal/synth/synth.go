// Package synth builds small, valid Unity objects and files from scratch
// (with unity/unitywrite and the built-in layouts of unity/layouts) for the
// fuzz targets' committed seeds and for tests that need inputs without the
// corpus: a rig of GameObjects and Transforms under an Animator, a humanoid
// Avatar whose skeleton is that rig, an AnimatorController with a 1D blend
// tree, and a clip with dense and constant curves. Nothing here is a copy
// of anyone's file.
package synth

import (
	"encoding/binary"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"

	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/layouts"
	"github.com/mecanim/mecanim/unity/typetree"
	"github.com/mecanim/mecanim/unity/unityversion"
	"github.com/mecanim/mecanim/unity/unitywrite"
)

// UnityVersion is the engine version the files claim; their layouts are
// the built-in ones of that version.
const UnityVersion = "2022.3.9f1"

// Path ids of the objects Objects makes.
const (
	GameObjectBase = 100 // + bone index
	TransformBase  = 200 // + bone index
	AnimatorID     = 300
	AvatarID       = 400
	ControllerID   = 500
	ClipID         = 600 // and ClipID+1
	LegacyClipID   = 602 // the extended scene's legacy clip
)

// F is shorthand for the encoder's struct values.
type F = unitywrite.Fields

// Tree returns the built-in type tree of a class for UnityVersion.
func Tree(classID int32) (*typetree.Tree, error) {
	return TreeFor(UnityVersion, classID)
}

// TreeFor returns the built-in type tree of a class for a Unity version
// (by the lookup rule of unity/layouts).
func TreeFor(version string, classID int32) (*typetree.Tree, error) {
	v, err := unityversion.Parse(version)
	if err != nil {
		return nil, fmt.Errorf("synth: version %q: %w", version, err)
	}
	t, _, err := layouts.Lookup(v, classID)
	if err != nil {
		return nil, fmt.Errorf("synth: class %d: %w", classID, err)
	}
	return t, nil
}

// Bone is one joint of the synthetic humanoid.
type Bone struct {
	Name   string
	Parent int // index in Bones; -1 for the root
	Human  int // human bone (humanoid.Hips...; see BoneIndex), -1 for none
	Pos    geom.Vec3
}

// Bones is the synthetic humanoid: the Animator's GameObject, then a
// body of 19 bones (no upper chest, toes, eyes, jaw or fingers).
var Bones = []Bone{
	{"Synth", -1, -1, geom.V3(0, 0, 0)},
	{"Hips", 0, int(model.HumanHips), geom.V3(0, 1, 0)},
	{"LeftUpperLeg", 1, int(model.HumanLeftUpperLeg), geom.V3(-0.1, -0.05, 0)},
	{"LeftLowerLeg", 2, int(model.HumanLeftLowerLeg), geom.V3(0, -0.45, 0)},
	{"LeftFoot", 3, int(model.HumanLeftFoot), geom.V3(0, -0.45, 0)},
	{"RightUpperLeg", 1, int(model.HumanRightUpperLeg), geom.V3(0.1, -0.05, 0)},
	{"RightLowerLeg", 5, int(model.HumanRightLowerLeg), geom.V3(0, -0.45, 0)},
	{"RightFoot", 6, int(model.HumanRightFoot), geom.V3(0, -0.45, 0)},
	{"Spine", 1, int(model.HumanSpine), geom.V3(0, 0.1, 0)},
	{"Chest", 8, int(model.HumanChest), geom.V3(0, 0.2, 0)},
	{"Neck", 9, int(model.HumanNeck), geom.V3(0, 0.25, 0)},
	{"Head", 10, int(model.HumanHead), geom.V3(0, 0.1, 0)},
	{"LeftShoulder", 9, int(model.HumanLeftShoulder), geom.V3(-0.05, 0.2, 0)},
	{"LeftUpperArm", 12, int(model.HumanLeftUpperArm), geom.V3(-0.12, 0, 0)},
	{"LeftLowerArm", 13, int(model.HumanLeftLowerArm), geom.V3(-0.28, 0, 0)},
	{"LeftHand", 14, int(model.HumanLeftHand), geom.V3(-0.25, 0, 0)},
	{"RightShoulder", 9, int(model.HumanRightShoulder), geom.V3(0.05, 0.2, 0)},
	{"RightUpperArm", 16, int(model.HumanRightUpperArm), geom.V3(0.12, 0, 0)},
	{"RightLowerArm", 17, int(model.HumanRightLowerArm), geom.V3(0.28, 0, 0)},
	{"RightHand", 18, int(model.HumanRightHand), geom.V3(0.25, 0, 0)},
}

// BonePath is bone i's path below the Animator ("" for the root).
func BonePath(i int) string {
	if i <= 0 {
		return ""
	}
	if p := Bones[i].Parent; p > 0 {
		return BonePath(p) + "/" + Bones[i].Name
	}
	return Bones[i].Name
}

// HumanAvatar returns the synthetic humanoid as a model avatar: the avatar
// skeleton and the human skeleton are both Bones, every joint has a ±40°
// limit on each axis, and the name table names every path.
func HumanAvatar() *model.Avatar {
	n := len(Bones)
	sk := model.Skeleton{}
	pose := make([]geom.Transform, n)
	names := model.Names{}
	for i, b := range Bones {
		ax := -1
		if i > 0 {
			ax = len(sk.Axes)
			const lim = 0.7 // radians, about 40°
			sk.Axes = append(sk.Axes, model.Axes{Pre: geom.Identity.R, Post: geom.Identity.R, Sign: geom.V3(1, 1, 1),
				Min: geom.V3(-lim, -lim, -lim), Max: geom.V3(lim, lim, lim), Length: b.Pos.Len(), Type: 1})
		}
		sk.Nodes = append(sk.Nodes, model.SkeletonNode{Parent: b.Parent, Axes: ax, PathHash: model.PathHash(BonePath(i))})
		pose[i] = geom.Transform{T: b.Pos, R: geom.Identity.R, S: geom.V3(1, 1, 1)}
		names[model.PathHash(BonePath(i))] = BonePath(i)
	}
	boneIndex := make([]int, model.HumanBodyBoneCount)
	for i := range boneIndex {
		boneIndex[i] = -1
	}
	mass := make([]float32, model.HumanBodyBoneCount)
	hsi := make([]int, n)
	for i, b := range Bones {
		hsi[i] = i
		if b.Human >= 0 {
			boneIndex[b.Human] = i
			mass[b.Human] = 1
		}
	}
	mass[int(model.HumanHips)] = 10
	mass[int(model.HumanSpine)], mass[int(model.HumanChest)] = 8, 8
	mass[int(model.HumanHead)] = 5
	return &model.Avatar{
		Name:               "SynthAvatar",
		Skeleton:           sk,
		SkeletonPose:       pose,
		DefaultPose:        pose,
		HumanSkeletonIndex: hsi,
		RootMotionBone:     -1,
		Names:              names,
		Human: &model.Human{
			RootX:    geom.Transform{T: geom.V3(0, 1, 0), R: geom.Identity.R, S: geom.V3(1, 1, 1)},
			Skeleton: sk, Pose: pose, BoneIndex: boneIndex, BoneMass: mass, Scale: 1,
			ArmTwist: 0.5, ForeArmTwist: 0.5, UpperLegTwist: 0.5, LegTwist: 0.5,
			ArmStretch: 0.05, LegStretch: 0.05, FeetSpacing: 0,
		},
	}
}

// DescribedHumanAvatar is HumanAvatar with the HumanDescription it would
// have been built from: every human bone mapped to its bone with default
// limits except the left upper arm's, the skeleton's rest pose, and the
// build settings.
func DescribedHumanAvatar() *model.Avatar {
	a := HumanAvatar()
	h := a.Human
	d := &model.HumanDescription{
		ArmTwist: h.ArmTwist, ForeArmTwist: h.ForeArmTwist, UpperLegTwist: h.UpperLegTwist, LegTwist: h.LegTwist,
		ArmStretch: h.ArmStretch, LegStretch: h.LegStretch, FeetSpacing: h.FeetSpacing,
		GlobalScale: 1, RootMotionBoneName: "", HasTranslationDoF: true,
	}
	for i, b := range Bones {
		parent := ""
		if b.Parent >= 0 {
			parent = Bones[b.Parent].Name
		}
		d.Skeleton = append(d.Skeleton, model.SkeletonBone{Name: b.Name, ParentName: parent,
			Local: geom.Transform{T: b.Pos, R: geom.Identity.R, S: geom.V3(1, 1, 1)}})
		if b.Human < 0 {
			continue
		}
		m := model.HumanBoneMapping{HumanName: b.Name, BoneName: b.Name, Limit: model.HumanLimit{UseDefault: true}}
		if b.Human == int(model.HumanLeftUpperArm) {
			m.Limit = model.HumanLimit{Min: geom.V3(-60, -100, -90), Max: geom.V3(100, 100, 90),
				Center: geom.V3(0, 10, 0), AxisLength: Bones[i+1].Pos.Len()}
		}
		d.Human = append(d.Human, m)
	}
	a.Description = d
	return a
}

// descriptionFields encodes a HumanDescription (m_HumanDescription).
func descriptionFields(d *model.HumanDescription) F {
	var human, skel []any
	for _, m := range d.Human {
		human = append(human, F{"m_BoneName": m.BoneName, "m_HumanName": m.HumanName, "m_Limit": F{
			"m_Min": v3(m.Limit.Min), "m_Max": v3(m.Limit.Max), "m_Value": v3(m.Limit.Center),
			"m_Length": m.Limit.AxisLength, "m_Modified": !m.Limit.UseDefault}})
	}
	for _, b := range d.Skeleton {
		skel = append(skel, F{"m_Name": b.Name, "m_ParentName": b.ParentName,
			"m_Position": v3(b.Local.T), "m_Rotation": quat(b.Local.R), "m_Scale": v3(b.Local.S)})
	}
	return F{"m_Human": human, "m_Skeleton": skel,
		"m_ArmTwist": d.ArmTwist, "m_ForeArmTwist": d.ForeArmTwist, "m_UpperLegTwist": d.UpperLegTwist,
		"m_LegTwist": d.LegTwist, "m_ArmStretch": d.ArmStretch, "m_LegStretch": d.LegStretch,
		"m_FeetSpacing": d.FeetSpacing, "m_GlobalScale": d.GlobalScale, "m_RootMotionBoneName": d.RootMotionBoneName,
		"m_HasTranslationDoF": d.HasTranslationDoF}
}

func v3(v geom.Vec3) F { return F{"x": v.X, "y": v.Y, "z": v.Z} }

func quat(q geom.Quat) F { return F{"x": q.X, "y": q.Y, "z": q.Z, "w": q.W} }

func xform(t geom.Transform) F { return F{"t": v3(t.T), "q": quat(t.R), "s": v3(t.S)} }

func pptr(id int64) F { return F{"m_FileID": 0, "m_PathID": id} }

func skeletonFields(sk model.Skeleton) F {
	var nodes, axes []any
	var ids []uint32
	for _, n := range sk.Nodes {
		nodes = append(nodes, F{"m_ParentId": n.Parent, "m_AxesId": n.Axes})
		ids = append(ids, n.PathHash)
	}
	for _, a := range sk.Axes {
		axes = append(axes, F{"m_PreQ": quat(a.Pre), "m_PostQ": quat(a.Post), "m_Sgn": v3(a.Sign),
			"m_Limit": F{"m_Min": v3(a.Min), "m_Max": v3(a.Max)}, "m_Length": a.Length, "m_Type": a.Type})
	}
	return F{"data": F{"m_Node": nodes, "m_ID": ids, "m_AxesArray": axes}}
}

func poseFields(p []geom.Transform) F {
	var xs []any
	for _, t := range p {
		xs = append(xs, xform(t))
	}
	return F{"data": F{"m_X": xs}}
}

func int32s(x []int) []int32 {
	out := make([]int32, len(x))
	for i, v := range x {
		out[i] = int32(v)
	}
	return out
}

// AvatarFields encodes a model avatar as an Avatar object's fields (the
// inverse of decode/compiled.Avatar, for what it reads).
func AvatarFields(a *model.Avatar) F {
	av := F{
		"m_AvatarSkeleton":                 skeletonFields(a.Skeleton),
		"m_AvatarSkeletonPose":             poseFields(a.SkeletonPose),
		"m_DefaultPose":                    poseFields(a.DefaultPose),
		"m_HumanSkeletonIndexArray":        int32s(a.HumanSkeletonIndex),
		"m_RootMotionBoneIndex":            a.RootMotionBone,
		"m_RootMotionBoneX":                xform(geom.Identity),
		"m_HumanSkeletonReverseIndexArray": int32s(a.HumanSkeletonIndex),
	}
	if h := a.Human; h != nil {
		hand := func(has bool, idx []int) F {
			if !has {
				idx = make([]int, 15)
				for i := range idx {
					idx[i] = -1
				}
			}
			return F{"data": F{"m_HandBoneIndex": int32s(idx)}}
		}
		av["m_Human"] = F{"data": F{
			"m_RootX": xform(h.RootX), "m_Skeleton": skeletonFields(h.Skeleton), "m_SkeletonPose": poseFields(h.Pose),
			"m_LeftHand": hand(h.HasLeftHand, h.LeftHand), "m_RightHand": hand(h.HasRightHand, h.RightHand),
			"m_HumanBoneIndex": int32s(h.BoneIndex), "m_HumanBoneMass": h.BoneMass, "m_Scale": h.Scale,
			"m_ArmTwist": h.ArmTwist, "m_ForeArmTwist": h.ForeArmTwist, "m_UpperLegTwist": h.UpperLegTwist,
			"m_LegTwist": h.LegTwist, "m_ArmStretch": h.ArmStretch, "m_LegStretch": h.LegStretch,
			"m_FeetSpacing": h.FeetSpacing, "m_HasLeftHand": h.HasLeftHand, "m_HasRightHand": h.HasRightHand,
			"m_HasTDoF": h.HasTDoF,
		}}
	}
	var tos [][2]any
	for hash, p := range a.Names {
		tos = append(tos, [2]any{hash, p})
	}
	sortPairs(tos)
	out := F{"m_Name": a.Name, "m_Avatar": av, "m_TOS": tos}
	if a.Description != nil {
		out["m_HumanDescription"] = descriptionFields(a.Description)
	}
	return out
}

func sortPairs(p [][2]any) {
	for i := 1; i < len(p); i++ {
		for j := i; j > 0 && p[j][0].(uint32) < p[j-1][0].(uint32); j-- {
			p[j], p[j-1] = p[j-1], p[j]
		}
	}
}

// ControllerFields is a controller of one layer whose one state, "Move",
// plays a 1D blend tree on the float parameter "Speed" between clips 0 and
// 1, with a transition to itself on the trigger "Again".
func ControllerFields() F { return controllerFields(false) }

// ExtendedControllerFields is ControllerFields with a second layer,
// "Synced", synced to the first (it runs the same state machine with
// motion set 1, which plays clip 1 alone), additive at weight 0.5, and
// the state's speed and cycle offset driven by "Speed".
func ExtendedControllerFields() F { return controllerFields(true) }

func controllerFields(extended bool) F {
	leaf := func(clip uint32) F {
		return F{"data": F{"m_BlendEventID": uint32(0xFFFFFFFF), "m_BlendEventYID": uint32(0xFFFFFFFF), "m_ClipID": clip, "m_Duration": float32(1)}}
	}
	root := F{"data": F{"m_BlendType": 0, "m_BlendEventID": 0, "m_BlendEventYID": uint32(0xFFFFFFFF),
		"m_ChildIndices": []uint32{1, 2}, "m_Blend1dData": F{"data": F{"m_ChildThresholdArray": []float32{0, 1}}},
		"m_ClipID": uint32(0xFFFFFFFF)}}
	names := []string{"Speed", "Again", "Base Layer", "Move", "Base Layer.Move"}
	if extended {
		names = append(names, "Synced")
	}
	var tos [][2]any
	for _, n := range names {
		tos = append(tos, [2]any{model.PathHash(n), n})
	}
	sortPairs(tos)
	trans := F{"data": F{
		"m_ConditionConstantArray": []any{F{"data": F{"m_ConditionMode": 1, "m_EventID": model.PathHash("Again")}}},
		"m_DestinationState":       0, "m_FullPathID": model.PathHash("Base Layer.Move"), "m_TransitionDuration": float32(0.25),
		"m_ExitTime": float32(0.75), "m_HasFixedDuration": true, "m_CanTransitionToSelf": true,
	}}
	state := F{"data": F{
		"m_TransitionConstantArray":     []any{trans},
		"m_BlendTreeConstantIndexArray": []int32{0},
		"m_BlendTreeConstantArray":      []any{F{"data": F{"m_NodeArray": []any{root, leaf(0), leaf(1)}}}},
		"m_NameID":                      model.PathHash("Move"), "m_PathID": model.PathHash("Base Layer.Move"),
		"m_FullPathID": model.PathHash("Base Layer.Move"), "m_SpeedParamID": uint32(0), "m_Speed": float32(1),
		"m_WriteDefaultValues": true, "m_Loop": true,
	}}
	layers := []any{F{"data": F{"m_StateMachineIndex": 0, "m_Binding": model.PathHash("Base Layer"),
		"m_DefaultWeight": float32(1), "m_BodyMask": F{"word0": uint32(0xFFFFFFFF), "word1": uint32(0xFFFFFFFF), "word2": uint32(0xFFFFFFFF)}}}}
	motionSets := 1
	if extended {
		sd := state["data"].(F)
		sd["m_BlendTreeConstantIndexArray"] = []int32{0, 1}
		sd["m_BlendTreeConstantArray"] = []any{
			F{"data": F{"m_NodeArray": []any{root, leaf(0), leaf(1)}}},
			F{"data": F{"m_NodeArray": []any{leaf(1)}}},
		}
		sd["m_SpeedParamID"] = model.PathHash("Speed")
		sd["m_CycleOffsetParamID"] = model.PathHash("Speed")
		motionSets = 2
		// The motion set index had another name up to 2018.1.
		layers = append(layers, F{"data": F{"m_StateMachineIndex": 0,
			"m_StateMachineSynchronizedLayerIndex": 1, "m_StateMachineMotionSetIndex": 1,
			"m_Binding": model.PathHash("Synced"), "m_DefaultWeight": float32(0.5), "m_LayerBlendingMode": 1,
			"(int&)m_LayerBlendingMode": 1, "m_SyncedLayerAffectsTiming": true, "m_IKPass": true,
			"m_BodyMask": F{"word0": uint32(0xF0F0F0F0), "word1": uint32(0x0F0F0F0F), "word2": uint32(0x3)}}})
	}
	entry := F{"data": F{"m_FullPathID": model.PathHash("Base Layer"), "m_IsEntry": true,
		"m_TransitionConstantArray": []any{F{"data": F{"m_Destination": 0}}}}}
	return F{
		"m_Name": "SynthController",
		"m_Controller": F{
			"m_LayerArray": layers,
			"m_StateMachineArray": []any{F{"data": F{
				"m_StateConstantArray":         []any{state},
				"m_SelectorStateConstantArray": []any{entry},
				"m_DefaultState":               0, "m_SynchronizedLayerCount": motionSets,
				"m_MotionSetCount": motionSets, // the count's name up to 2018.1
			}}},
			"m_Values": F{"data": F{"m_ValueArray": []any{
				F{"m_ID": model.PathHash("Speed"), "m_Type": uint32(model.ParamFloat), "m_Index": 0},
				F{"m_ID": model.PathHash("Again"), "m_Type": uint32(model.ParamTrigger), "m_Index": 0},
			}}},
			"m_DefaultValues": F{"data": F{"m_FloatValues": []float32{0.5}, "m_BoolValues": []any{false}}},
		},
		"m_TOS":            tos,
		"m_AnimationClips": []any{pptr(ClipID), pptr(ClipID + 1)},
	}
}

// ClipFields is a generic clip named name: the hips bob (three dense
// position curves over frames frames at 10 per second) and the head's scale
// is constant.
func ClipFields(name string, frames int, amp float32) F {
	return clipFields(name, frames, amp, false)
}

// ExtendedClipFields is ClipFields with the hips also turning: four
// streamed rotation curves (cubic segments at every frame, so the values
// between frames are not those at the frames), the first block of the
// clip's curves; and a constant muscle curve (an Animator binding, which
// makes the clip humanoid) after the head's scale.
func ExtendedClipFields(name string, frames int, amp float32) F {
	return clipFields(name, frames, amp, true)
}

// ExtendedMuscle is the muscle ExtendedClipFields animates (index into
// model's muscle names) and its value.
const (
	ExtendedMuscle      = 9
	ExtendedMuscleValue = float32(0.25)
)

// streamedRotation encodes m_StreamedClip.data for the hips' rotation
// curves 0..3 (x, y, z, w): a frame at each of frames frames at 10 per
// second with one key per curve, then the closing +Inf frame.
func streamedRotation(frames int, amp float32) []uint32 {
	var w []uint32
	f := func(x float32) { w = append(w, math.Float32bits(x)) }
	for i := 0; i < frames; i++ {
		f(float32(i) / 10)
		w = append(w, 4)
		y := amp * float32(i)
		// x, y, z, w with a small cubic term on y and a slope on w.
		for c, k := range [4][4]float32{{0, 0, 0, 0}, {amp, -amp, 2 * amp, y}, {0, 0, 0, 0}, {0, 0, -amp, 1}} {
			w = append(w, uint32(c))
			for _, x := range k {
				f(x)
			}
		}
	}
	f(float32(math.Inf(1)))
	w = append(w, 0)
	return w
}

func clipFields(name string, frames int, amp float32, extended bool) F {
	var dense []float32
	for i := 0; i < frames; i++ {
		dense = append(dense, 0, 1+amp*float32(i%3), 0)
	}
	binding := func(p string, attr model.TransformProp) F {
		// classID is the field's name up to 5.6 (a UInt16).
		return F{"path": model.PathHash(p), "attribute": uint32(attr), "script": pptr(0),
			"typeID": model.ClassTransform, "classID": model.ClassTransform}
	}
	ident := xform(geom.Identity)
	bindings := []any{binding(BonePath(1), model.PropPosition), binding(BonePath(11), model.PropScale)}
	sc := F{}
	constants := []float32{1.1, 1.1, 1.1}
	if extended {
		bindings = append([]any{binding(BonePath(1), model.PropRotation)}, bindings...)
		// curveCount is a UInt32 before 2022.3.19 and 2023.2.8 and a
		// UInt16 followed by discreteCurveCount after: by name, both fit.
		sc = F{"data": streamedRotation(frames, amp), "curveCount": 4, "discreteCurveCount": 0}
		const customMuscle = 8
		bindings = append(bindings, F{"path": 0, "attribute": uint32(42 + ExtendedMuscle), "script": pptr(0),
			"typeID": model.ClassAnimator, "classID": model.ClassAnimator, "customType": customMuscle})
		constants = append(constants, ExtendedMuscleValue)
	}
	return F{
		"m_Name":       name,
		"m_SampleRate": float32(10),
		"m_MuscleClip": F{
			"m_DeltaPose": F{"m_RootX": ident},
			"m_StartX":    ident, "m_StopX": ident, "m_LeftFootStartX": ident, "m_RightFootStartX": ident,
			"m_Clip": F{"data": F{
				"m_StreamedClip": sc,
				"m_DenseClip": F{"m_FrameCount": frames, "m_CurveCount": 3, "m_SampleRate": float32(10),
					"m_SampleArray": dense},
				"m_ConstantClip": F{"data": constants},
			}},
			"m_StopTime": float32(frames-1) / 10, "m_LoopTime": true,
		},
		"m_ClipBindingConstant": F{"genericBindings": bindings},
		"m_Events":              []any{F{"time": float32(0.1), "functionName": "Step", "objectReferenceParameter": pptr(0)}},
	}
}

// Objects encodes every object of the synthetic scene: for each of the
// first bones bones (all when bones <= 0 or beyond Bones) a GameObject and
// a Transform, the Animator on the root, and, when full, the humanoid
// avatar, the controller and its two clips.
func Objects(bones int, full bool) ([]unitywrite.Object, error) {
	return ObjectsWith(Options{Bones: bones, Full: full})
}

// LegacyClipFields is a legacy clip named name, keyframed: the spine
// turns (a quaternion curve), the chest turns by Euler angles (in order
// XYZ), the hips move, the head scales, and a float curve drives the
// Animator's "m_Enabled"; the second key of each curve is weighted (both
// sides) and the curves clamp before and loop after their keys.
func LegacyClipFields(name string) F {
	key := func(t float32, v, slope any, weighted bool) F {
		k := F{"time": t, "value": v, "inSlope": slope, "outSlope": slope}
		if weighted {
			k["weightedMode"] = 3
			k["inWeight"], k["outWeight"] = fill(v, 0.2), fill(v, 0.5)
		} else {
			k["inWeight"], k["outWeight"] = fill(v, float32(1.0/3)), fill(v, float32(1.0/3))
		}
		return k
	}
	curve := func(keys ...F) F {
		var ks []any
		for _, k := range keys {
			ks = append(ks, k)
		}
		return F{"m_Curve": ks, "m_PreInfinity": 1, "m_PostInfinity": 2, "m_RotationOrder": 4}
	}
	q := func(y, w float32) F { return F{"x": float32(0), "y": y, "z": float32(0), "w": w} }
	vec := func(x, y, z float32) F { return v3(geom.V3(x, y, z)) }
	return F{
		"m_Name": name, "m_Legacy": true, "m_SampleRate": float32(30), "m_WrapMode": 2,
		"m_RotationCurves": []any{F{"path": BonePath(8), "curve": curve(
			key(0, q(0, 1), q(0, 0), false), key(0.5, q(0.3827, 0.9239), q(0.5, -0.1), true), key(1, q(0, 1), q(0, 0), false))}},
		"m_EulerCurves": []any{F{"path": BonePath(9), "curve": curve(
			key(0, vec(0, 0, 0), vec(0, 0, 0), false), key(0.5, vec(10, 20, 30), vec(5, 0, -5), true), key(1, vec(0, 0, 0), vec(0, 0, 0), false))}},
		"m_PositionCurves": []any{F{"path": BonePath(1), "curve": curve(
			key(0, vec(0, 1, 0), vec(0, 0, 0), false), key(0.5, vec(0, 1.1, 0.2), vec(0, 0.4, 0), true), key(1, vec(0, 1, 0.4), vec(0, 0, 0), false))}},
		"m_ScaleCurves": []any{F{"path": BonePath(11), "curve": curve(
			key(0, vec(1, 1, 1), vec(0, 0, 0), false), key(0.5, vec(1.2, 1.2, 1.2), vec(0, 0, 0), true))}},
		// classID is an int up to 5.6 and a Type* of the same size after.
		"m_FloatCurves": []any{F{"path": "", "attribute": "m_Enabled", "classID": model.ClassAnimator, "script": pptr(0),
			"curve": curve(key(0, float32(1), float32(0), false), key(0.5, float32(0), float32(-2), true))}},
		"m_MuscleClip": F{"m_StopTime": float32(1)},
		"m_Events":     []any{F{"time": float32(0.5), "functionName": "Wave", "data": "hello", "floatParameter": float32(2.5), "intParameter": 7, "objectReferenceParameter": pptr(0)}},
	}
}

// fill is a value of v's shape (a float, or a vector's fields) with every
// component x.
func fill(v any, x float32) any {
	f, ok := v.(F)
	if !ok {
		return x
	}
	out := F{}
	for k := range f {
		out[k] = x
	}
	return out
}

// Options choose the scene ObjectsWith builds and the Unity version whose
// layouts encode it.
type Options struct {
	// Version is the engine version the objects are encoded for, by its
	// built-in layouts (unity/layouts); "" means UnityVersion. The values
	// are given by field name, so one scene fits every version's layout:
	// a field the layout lacks is left out, a field the values lack is
	// zero, and a field that was renamed gets its value under each name
	// (see Dropped).
	Version string
	// Bones is how many of Bones get a GameObject and a Transform (all
	// when <= 0 or beyond len(Bones)).
	Bones int
	// Full adds the humanoid avatar, the controller and its two clips.
	Full bool
	// Extended adds what the fuzz seeds leave out, for tests that check
	// the decoders field by field across versions: streamed and muscle
	// curves in the clips (ExtendedClipFields), a synced layer and state
	// parameters in the controller (ExtendedControllerFields) and the
	// avatar's HumanDescription (DescribedHumanAvatar), and a third,
	// legacy clip (LegacyClipFields, LegacyClipID) the controller does
	// not play; the Animator applies root motion.
	Extended bool
}

func (o Options) version() string {
	if o.Version == "" {
		return UnityVersion
	}
	return o.Version
}

// Values is one object of the scene before encoding: its path id, class
// and field values.
type Values struct {
	PathID  int64
	ClassID int32
	Fields  F
}

// ObjectsWith encodes every object of the scene o describes (see Objects)
// with the layouts of o.Version.
func ObjectsWith(o Options) ([]unitywrite.Object, error) {
	vals := SceneValues(o)
	objs := make([]unitywrite.Object, 0, len(vals))
	for _, v := range vals {
		t, err := TreeFor(o.version(), v.ClassID)
		if err != nil {
			return nil, err
		}
		b, err := unitywrite.Encode(t, v.Fields)
		if err != nil {
			return nil, fmt.Errorf("synth: object %d (Unity %s): %w", v.PathID, o.version(), err)
		}
		objs = append(objs, unitywrite.Object{PathID: v.PathID, ClassID: v.ClassID, Tree: t, Data: b})
	}
	return objs, nil
}

// SceneValues returns the field values of every object of the scene o
// describes, in file order (o.Version plays no part: the values fit every
// layout by name).
func SceneValues(o Options) []Values {
	bones := o.Bones
	if bones <= 0 || bones > len(Bones) {
		bones = len(Bones)
	}
	var objs []Values
	add := func(pid int64, class int32, v F) {
		objs = append(objs, Values{pid, class, v})
	}
	for i, b := range Bones[:bones] {
		// Up to 5.4 a component entry is a pair of the class id (first)
		// and the reference (second).
		comps := []any{F{"component": pptr(int64(TransformBase + i)), "first": model.ClassTransform, "second": pptr(int64(TransformBase + i))}}
		if i == 0 {
			comps = append(comps, F{"component": pptr(AnimatorID), "first": model.ClassAnimator, "second": pptr(AnimatorID)})
		}
		add(int64(GameObjectBase+i), model.ClassGameObject, F{"m_Component": comps, "m_Name": b.Name, "m_IsActive": true})
		var kids []any
		for j, c := range Bones[:bones] {
			if c.Parent == i {
				kids = append(kids, pptr(int64(TransformBase+j)))
			}
		}
		father := int64(0)
		if b.Parent >= 0 {
			father = int64(TransformBase + b.Parent)
		}
		add(int64(TransformBase+i), model.ClassTransform, F{
			"m_GameObject": pptr(int64(GameObjectBase + i)), "m_LocalRotation": quat(geom.Identity.R),
			"m_LocalPosition": v3(b.Pos), "m_LocalScale": v3(geom.V3(1, 1, 1)), "m_Children": kids, "m_Father": pptr(father),
		})
	}
	anim := F{"m_GameObject": pptr(GameObjectBase), "m_Enabled": 1, "m_HasTransformHierarchy": true}
	if o.Extended {
		anim["m_ApplyRootMotion"] = true
	}
	if o.Full {
		anim["m_Avatar"] = pptr(AvatarID)
		anim["m_Controller"] = pptr(ControllerID)
	}
	add(AnimatorID, model.ClassAnimator, anim)
	if !o.Full {
		return objs
	}
	clip, ctl, avatar := ClipFields, ControllerFields, HumanAvatar
	if o.Extended {
		clip, ctl, avatar = ExtendedClipFields, ExtendedControllerFields, DescribedHumanAvatar
	}
	add(AvatarID, model.ClassAvatar, AvatarFields(avatar()))
	add(ControllerID, model.ClassAnimatorController, ctl())
	add(ClipID, model.ClassAnimationClip, clip("Idle", 3, 0.01))
	add(ClipID+1, model.ClassAnimationClip, clip("Walk", 4, 0.05))
	if o.Extended {
		add(LegacyClipID, model.ClassAnimationClip, LegacyClipFields("Wave"))
	}
	return objs
}

// SerializedFile writes Objects(bones, full) as a serialized file, with
// their type trees embedded or (stripped) left to the built-in layouts.
func SerializedFile(bones int, full, stripped bool) ([]byte, error) {
	return SerializedFileWith(Options{Bones: bones, Full: full}, stripped)
}

// Bundle writes SerializedFile(bones, full, true) into a UnityFS bundle of
// LZ4 blocks of blockSize bytes.
func Bundle(bones int, full bool, blockSize int) ([]byte, error) {
	return BundleWith(Options{Bones: bones, Full: full}, true, blockSize)
}

// SerializedFileWith writes ObjectsWith(o) as a serialized file claiming
// o.Version, with the objects' type trees embedded or (stripped) left to
// the reader's built-in layouts.
func SerializedFileWith(o Options, stripped bool) ([]byte, error) {
	objs, err := ObjectsWith(o)
	if err != nil {
		return nil, err
	}
	return unitywrite.SerializedFile(o.version(), 5, objs, nil, stripped)
}

// BundleWith writes SerializedFileWith(o, stripped) into a UnityFS bundle
// claiming o.Version, of LZ4 blocks of blockSize bytes.
func BundleWith(o Options, stripped bool, blockSize int) ([]byte, error) {
	sf, err := SerializedFileWith(o, stripped)
	if err != nil {
		return nil, err
	}
	return unitywrite.Bundle(o.version(), []unitywrite.Entry{{Path: "CAB-synth", Data: sf, Flags: 4}}, blockSize)
}

// Object returns the encoded bytes of one object of Objects(0, true) by
// path id (for fuzz targets that decode one object with its class's
// built-in layout).
func Object(pathID int64) ([]byte, error) {
	objs, err := Objects(0, true)
	if err != nil {
		return nil, err
	}
	for _, o := range objs {
		if o.PathID == pathID {
			return o.Data, nil
		}
	}
	return nil, fmt.Errorf("synth: no object %d", pathID)
}

// FuzzFile formats the arguments of one fuzz input (each a []byte) in Go's
// fuzz corpus file format, as `go test` reads it from
// testdata/fuzz/FuzzXxx/NAME.
func FuzzFile(args ...[]byte) []byte {
	out := []byte("go test fuzz v1\n")
	for _, a := range args {
		out = append(out, "[]byte("...)
		out = strconv.AppendQuote(out, string(a))
		out = append(out, ")\n"...)
	}
	return out
}

// WriteSeeds writes each seed (one []byte argument) as
// dir/testdata/fuzz/target/name, replacing what is there under that name.
func WriteSeeds(dir, target string, seeds map[string][]byte) error {
	d := filepath.Join(dir, "testdata", "fuzz", target)
	if err := os.MkdirAll(d, 0o755); err != nil {
		return err
	}
	for name, data := range seeds {
		if err := os.WriteFile(filepath.Join(d, name), FuzzFile(data), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// WebData wraps files into a UnityWebData1.0 container (entries back to
// back after the directory), as Unity's WebGL builds pack their data.
func WebData(names []string, files [][]byte) []byte {
	const sig = "UnityWebData1.0\x00"
	hsize := len(sig) + 4
	for _, n := range names {
		hsize += 12 + len(n)
	}
	le := binary.LittleEndian
	out := le.AppendUint32([]byte(sig), uint32(hsize))
	off := hsize
	for i, n := range names {
		out = le.AppendUint32(out, uint32(off))
		out = le.AppendUint32(out, uint32(len(files[i])))
		out = le.AppendUint32(out, uint32(len(n)))
		out = append(out, n...)
		off += len(files[i])
	}
	for _, f := range files {
		out = append(out, f...)
	}
	return out
}

// FileSeeds are small whole Unity files for the fuzz targets that open
// arbitrary bytes: the full scene as a bundle, a three-bone rig as a plain
// serialized file, and the bundle inside a WebData container.
func FileSeeds() (map[string][]byte, error) {
	bundle, err := Bundle(0, true, 2048)
	if err != nil {
		return nil, err
	}
	small, err := SerializedFile(3, false, true)
	if err != nil {
		return nil, err
	}
	return map[string][]byte{
		"synth-bundle":     bundle,
		"synth-serialized": small,
		"synth-webdata":    WebData([]string{"data.unity3d", "boot.config"}, [][]byte{bundle, []byte("x=1\n")}),
	}, nil
}

// SeedFiles returns FileSeeds, the example bundle, and (when the corpus is
// found) every corpus file of at most maxCorpus bytes, for fuzz targets
// that open whole files to add at run time. Corpus files are read, never
// copied into the repository.
func SeedFiles(maxCorpus int64) [][]byte {
	var out [][]byte
	if s, err := FileSeeds(); err == nil {
		for _, name := range []string{"synth-bundle", "synth-serialized", "synth-webdata"} {
			out = append(out, s[name])
		}
	}
	if root, ok := moduleRoot(); ok {
		if b, err := os.ReadFile(filepath.Join(root, "examples", "hello.bundle")); err == nil {
			out = append(out, b)
		}
	}
	if dir, ok := corpustest.Lookup(); ok {
		_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			if info, err := d.Info(); err != nil || info.Size() > maxCorpus {
				return nil
			}
			if b, err := os.ReadFile(p); err == nil {
				out = append(out, b)
			}
			return nil
		})
	}
	return out
}

// moduleRoot finds the directory holding go.mod above the working
// directory (tests run in their package's directory).
func moduleRoot() (string, bool) {
	dir, err := os.Getwd()
	if err != nil {
		return "", false
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, true
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", false
		}
		dir = up
	}
}

// Dropped returns, sorted and without repeats, the dotted paths of the
// values in v that the type tree t has no field for: what the encoder
// leaves out when it writes v by t (renamed fields under their other name,
// fields of other versions). Elements of arrays are walked as "[]".
func Dropped(t *typetree.Tree, v any) []string {
	if t == nil || len(t.Nodes) == 0 {
		return nil
	}
	seen := map[string]bool{}
	walkDropped(t.Nodes, 0, v, "", seen)
	out := make([]string, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// walkDropped records in seen the values under node i of nodes (whose
// value is v, at path) that have no node.
func walkDropped(nodes []typetree.Node, i int, v any, path string, seen map[string]bool) {
	var kids []int
	for j := i + 1; j < len(nodes) && nodes[j].Level > nodes[i].Level; j++ {
		if nodes[j].Level == nodes[i].Level+1 {
			kids = append(kids, j)
		}
	}
	n := &nodes[i]
	arr := -1
	switch {
	case n.Type == "string" || len(kids) == 0:
		return
	case n.IsArray():
		arr = i
	case len(kids) == 1 && nodes[kids[0]].IsArray():
		arr = kids[0]
	}
	if arr >= 0 {
		var elem int
		for j := arr + 1; j < len(nodes) && nodes[j].Level > nodes[arr].Level; j++ {
			if nodes[j].Level == nodes[arr].Level+1 {
				elem = j // the second child: the element
			}
		}
		var items []any
		switch s := v.(type) {
		case []any:
			items = s
		case []F:
			for _, x := range s {
				items = append(items, x)
			}
		case [][2]any:
			for _, x := range s {
				items = append(items, F{"first": x[0], "second": x[1]})
			}
		}
		for _, it := range items {
			walkDropped(nodes, elem, it, path+"[]", seen)
		}
		return
	}
	f, _ := v.(F)
	for name, x := range f {
		found := false
		for _, k := range kids {
			if nodes[k].Name == name {
				found = true
				walkDropped(nodes, k, x, joinPath(path, name), seen)
				break
			}
		}
		if !found {
			seen[joinPath(path, name)] = true
		}
	}
}

func joinPath(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}
