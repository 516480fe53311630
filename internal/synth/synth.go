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
	"os"
	"path/filepath"
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
)

// F is shorthand for the encoder's struct values.
type F = unitywrite.Fields

// Tree returns the built-in type tree of a class for UnityVersion.
func Tree(classID int32) (*typetree.Tree, error) {
	v, err := unityversion.Parse(UnityVersion)
	if err != nil {
		return nil, err
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

// Human bone numbers (humanoid's order of m_HumanBoneIndex).
const (
	hHips = iota
	hLeftUpperLeg
	hRightUpperLeg
	hLeftLowerLeg
	hRightLowerLeg
	hLeftFoot
	hRightFoot
	hSpine
	hChest
	hUpperChest
	hNeck
	hHead
	hLeftShoulder
	hRightShoulder
	hLeftUpperArm
	hRightUpperArm
	hLeftLowerArm
	hRightLowerArm
	hLeftHand
	hRightHand
	bodyBones = 25
)

// Bones is the synthetic humanoid: the Animator's GameObject, then a
// body of 19 bones (no upper chest, toes, eyes, jaw or fingers).
var Bones = []Bone{
	{"Synth", -1, -1, geom.V3(0, 0, 0)},
	{"Hips", 0, hHips, geom.V3(0, 1, 0)},
	{"LeftUpperLeg", 1, hLeftUpperLeg, geom.V3(-0.1, -0.05, 0)},
	{"LeftLowerLeg", 2, hLeftLowerLeg, geom.V3(0, -0.45, 0)},
	{"LeftFoot", 3, hLeftFoot, geom.V3(0, -0.45, 0)},
	{"RightUpperLeg", 1, hRightUpperLeg, geom.V3(0.1, -0.05, 0)},
	{"RightLowerLeg", 5, hRightLowerLeg, geom.V3(0, -0.45, 0)},
	{"RightFoot", 6, hRightFoot, geom.V3(0, -0.45, 0)},
	{"Spine", 1, hSpine, geom.V3(0, 0.1, 0)},
	{"Chest", 8, hChest, geom.V3(0, 0.2, 0)},
	{"Neck", 9, hNeck, geom.V3(0, 0.25, 0)},
	{"Head", 10, hHead, geom.V3(0, 0.1, 0)},
	{"LeftShoulder", 9, hLeftShoulder, geom.V3(-0.05, 0.2, 0)},
	{"LeftUpperArm", 12, hLeftUpperArm, geom.V3(-0.12, 0, 0)},
	{"LeftLowerArm", 13, hLeftLowerArm, geom.V3(-0.28, 0, 0)},
	{"LeftHand", 14, hLeftHand, geom.V3(-0.25, 0, 0)},
	{"RightShoulder", 9, hRightShoulder, geom.V3(0.05, 0.2, 0)},
	{"RightUpperArm", 16, hRightUpperArm, geom.V3(0.12, 0, 0)},
	{"RightLowerArm", 17, hRightLowerArm, geom.V3(0.28, 0, 0)},
	{"RightHand", 18, hRightHand, geom.V3(0.25, 0, 0)},
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
	boneIndex := make([]int, bodyBones)
	for i := range boneIndex {
		boneIndex[i] = -1
	}
	mass := make([]float32, bodyBones)
	hsi := make([]int, n)
	for i, b := range Bones {
		hsi[i] = i
		if b.Human >= 0 {
			boneIndex[b.Human] = i
			mass[b.Human] = 1
		}
	}
	mass[hHips] = 10
	mass[hSpine], mass[hChest] = 8, 8
	mass[hHead] = 5
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

func v3(v geom.Vec3) F { return F{"x": v.X, "y": v.Y, "z": v.Z} }

func v4(v geom.Vec3) F { return F{"x": v.X, "y": v.Y, "z": v.Z, "w": float32(0)} }

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
	return F{"m_Name": a.Name, "m_Avatar": av, "m_TOS": tos}
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
func ControllerFields() F {
	leaf := func(clip uint32) F {
		return F{"data": F{"m_BlendEventID": uint32(0xFFFFFFFF), "m_BlendEventYID": uint32(0xFFFFFFFF), "m_ClipID": clip, "m_Duration": float32(1)}}
	}
	root := F{"data": F{"m_BlendType": 0, "m_BlendEventID": 0, "m_BlendEventYID": uint32(0xFFFFFFFF),
		"m_ChildIndices": []uint32{1, 2}, "m_Blend1dData": F{"data": F{"m_ChildThresholdArray": []float32{0, 1}}},
		"m_ClipID": uint32(0xFFFFFFFF)}}
	names := []string{"Speed", "Again", "Base Layer", "Move", "Base Layer.Move"}
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
	entry := F{"data": F{"m_FullPathID": model.PathHash("Base Layer"), "m_IsEntry": true,
		"m_TransitionConstantArray": []any{F{"data": F{"m_Destination": 0}}}}}
	return F{
		"m_Name": "SynthController",
		"m_Controller": F{
			"m_LayerArray": []any{F{"data": F{"m_StateMachineIndex": 0, "m_Binding": model.PathHash("Base Layer"),
				"m_DefaultWeight": float32(1), "m_BodyMask": F{"word0": uint32(0xFFFFFFFF), "word1": uint32(0xFFFFFFFF), "word2": uint32(0xFFFFFFFF)}}}},
			"m_StateMachineArray": []any{F{"data": F{
				"m_StateConstantArray":         []any{state},
				"m_SelectorStateConstantArray": []any{entry},
				"m_DefaultState":               0, "m_SynchronizedLayerCount": 1,
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
	var dense []float32
	for i := 0; i < frames; i++ {
		dense = append(dense, 0, 1+amp*float32(i%3), 0)
	}
	binding := func(p string, attr model.TransformProp) F {
		return F{"path": model.PathHash(p), "attribute": uint32(attr), "script": pptr(0), "typeID": model.ClassTransform}
	}
	ident := xform(geom.Identity)
	return F{
		"m_Name":       name,
		"m_SampleRate": float32(10),
		"m_MuscleClip": F{
			"m_DeltaPose": F{"m_RootX": ident},
			"m_StartX":    ident, "m_StopX": ident, "m_LeftFootStartX": ident, "m_RightFootStartX": ident,
			"m_Clip": F{"data": F{
				"m_DenseClip": F{"m_FrameCount": frames, "m_CurveCount": 3, "m_SampleRate": float32(10),
					"m_SampleArray": dense},
				"m_ConstantClip": F{"data": []float32{1.1, 1.1, 1.1}},
			}},
			"m_StopTime": float32(frames-1) / 10, "m_LoopTime": true,
		},
		"m_ClipBindingConstant": F{"genericBindings": []any{
			binding(BonePath(1), model.PropPosition), binding(BonePath(11), model.PropScale),
		}},
		"m_Events": []any{F{"time": float32(0.1), "functionName": "Step", "objectReferenceParameter": pptr(0)}},
	}
}

// Objects encodes every object of the synthetic scene: for each of the
// first bones bones (all when bones <= 0 or beyond Bones) a GameObject and
// a Transform, the Animator on the root, and, when full, the humanoid
// avatar, the controller and its two clips.
func Objects(bones int, full bool) ([]unitywrite.Object, error) {
	if bones <= 0 || bones > len(Bones) {
		bones = len(Bones)
	}
	var objs []unitywrite.Object
	add := func(pid int64, class int32, v F) error {
		t, err := Tree(class)
		if err != nil {
			return err
		}
		b, err := unitywrite.Encode(t, v)
		if err != nil {
			return fmt.Errorf("synth: object %d: %w", pid, err)
		}
		objs = append(objs, unitywrite.Object{PathID: pid, ClassID: class, Tree: t, Data: b})
		return nil
	}
	for i, b := range Bones[:bones] {
		comps := []any{F{"component": pptr(int64(TransformBase + i))}}
		if i == 0 {
			comps = append(comps, F{"component": pptr(AnimatorID)})
		}
		if err := add(int64(GameObjectBase+i), model.ClassGameObject, F{"m_Component": comps, "m_Name": b.Name, "m_IsActive": true}); err != nil {
			return nil, err
		}
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
		if err := add(int64(TransformBase+i), model.ClassTransform, F{
			"m_GameObject": pptr(int64(GameObjectBase + i)), "m_LocalRotation": quat(geom.Identity.R),
			"m_LocalPosition": v3(b.Pos), "m_LocalScale": v3(geom.V3(1, 1, 1)), "m_Children": kids, "m_Father": pptr(father),
		}); err != nil {
			return nil, err
		}
	}
	anim := F{"m_GameObject": pptr(GameObjectBase), "m_Enabled": 1, "m_HasTransformHierarchy": true}
	if full {
		anim["m_Avatar"] = pptr(AvatarID)
		anim["m_Controller"] = pptr(ControllerID)
	}
	if err := add(AnimatorID, model.ClassAnimator, anim); err != nil {
		return nil, err
	}
	if !full {
		return objs, nil
	}
	for _, o := range []struct {
		pid   int64
		class int32
		v     F
	}{
		{AvatarID, model.ClassAvatar, AvatarFields(HumanAvatar())},
		{ControllerID, model.ClassAnimatorController, ControllerFields()},
		{ClipID, model.ClassAnimationClip, ClipFields("Idle", 3, 0.01)},
		{ClipID + 1, model.ClassAnimationClip, ClipFields("Walk", 4, 0.05)},
	} {
		if err := add(o.pid, o.class, o.v); err != nil {
			return nil, err
		}
	}
	return objs, nil
}

// SerializedFile writes Objects(bones, full) as a serialized file, with
// their type trees embedded or (stripped) left to the built-in layouts.
func SerializedFile(bones int, full, stripped bool) ([]byte, error) {
	objs, err := Objects(bones, full)
	if err != nil {
		return nil, err
	}
	return unitywrite.SerializedFile(UnityVersion, 5, objs, nil, stripped)
}

// Bundle writes SerializedFile(bones, full, true) into a UnityFS bundle of
// LZ4 blocks of blockSize bytes.
func Bundle(bones int, full bool, blockSize int) ([]byte, error) {
	sf, err := SerializedFile(bones, full, true)
	if err != nil {
		return nil, err
	}
	return unitywrite.Bundle(UnityVersion, []unitywrite.Entry{{Path: "CAB-synth", Data: sf, Flags: 4}}, blockSize)
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
