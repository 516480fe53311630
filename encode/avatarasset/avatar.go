// Package avatarasset writes Unity's Avatar asset (class 90) from a
// model.Avatar: the avatar constant (skeleton, poses, human skeleton with its
// joint axes and limits, hands, bone indexes and masses), the name table and
// the human description, as fields that unitywrite encodes with the target
// game's type tree. An avatar decoded from a game, or built from a glTF/VRM
// character's humanoid description (humanoid/avatarbuild), goes into a
// bundle with the clips that play on it.
package avatarasset

import (
	"errors"
	"fmt"
	"path"
	"sort"

	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/unitywrite"
)

// ErrInvalid is wrapped when an avatar cannot be written as it is (indexes
// that name no node, poses of the wrong length).
var ErrInvalid = errors.New("avatarasset: invalid avatar")

// handBones is the length of a hand's bone index table (an absent hand
// keeps a table of -1s).
const handBones = 15

// Compile returns the Avatar asset of a. Node names come from a.Names (the
// path of each node hash); a node whose path is unknown gets the hash
// itself as its name id.
func Compile(a *model.Avatar) (unitywrite.Fields, error) {
	if a == nil {
		return nil, fmt.Errorf("%w: no avatar", ErrInvalid)
	}
	n := len(a.Skeleton.Nodes)
	if len(a.SkeletonPose) != n || len(a.DefaultPose) != n {
		return nil, fmt.Errorf("avatar %q: %w: %d nodes, %d skeleton pose and %d default pose transforms", a.Name, ErrInvalid, n, len(a.SkeletonPose), len(a.DefaultPose))
	}
	for i, x := range a.HumanSkeletonIndex {
		if x < -1 || x >= n {
			return nil, fmt.Errorf("avatar %q: %w: human skeleton index %d is %d (%d nodes)", a.Name, ErrInvalid, i, x, n)
		}
	}
	nameIDs := make([]uint32, n)
	for i, nd := range a.Skeleton.Nodes {
		nameIDs[i] = nd.PathHash
		if p, ok := a.Names.Lookup(nd.PathHash); ok {
			nameIDs[i] = model.PathHash(path.Base(p))
			if p == "" {
				nameIDs[i] = 0
			}
		}
	}
	reverse := make([]int32, n)
	for i := range reverse {
		reverse[i] = -1
	}
	for hi, ai := range a.HumanSkeletonIndex {
		if ai >= 0 {
			reverse[ai] = int32(hi)
		}
	}
	human := unitywrite.Fields{
		"m_RootX":        xform(geom.Transform{R: geom.Quat{W: 1}, S: geom.Vec3{X: 1, Y: 1, Z: 1}}),
		"m_Skeleton":     unitywrite.Fields{"data": skeleton(model.Skeleton{})},
		"m_SkeletonPose": unitywrite.Fields{"data": unitywrite.Fields{"m_X": []unitywrite.Fields{}}},
		"m_LeftHand":     hand(nil), "m_RightHand": hand(nil),
		"m_HumanBoneIndex": []int32{}, "m_HumanBoneMass": []float32{},
		"m_Scale": float32(1),
	}
	if h := a.Human; h != nil {
		if len(h.Pose) != len(h.Skeleton.Nodes) {
			return nil, fmt.Errorf("avatar %q: %w: %d human nodes, %d pose transforms", a.Name, ErrInvalid, len(h.Skeleton.Nodes), len(h.Pose))
		}
		human = unitywrite.Fields{
			"m_RootX":          xform(h.RootX),
			"m_Skeleton":       unitywrite.Fields{"data": skeleton(h.Skeleton)},
			"m_SkeletonPose":   unitywrite.Fields{"data": unitywrite.Fields{"m_X": xforms(h.Pose)}},
			"m_LeftHand":       hand(h.LeftHand),
			"m_RightHand":      hand(h.RightHand),
			"m_HumanBoneIndex": int32s(h.BoneIndex),
			"m_HumanBoneMass":  h.BoneMass,
			"m_Scale":          h.Scale,
			"m_ArmTwist":       h.ArmTwist, "m_ForeArmTwist": h.ForeArmTwist,
			"m_UpperLegTwist": h.UpperLegTwist, "m_LegTwist": h.LegTwist,
			"m_ArmStretch": h.ArmStretch, "m_LegStretch": h.LegStretch, "m_FeetSpacing": h.FeetSpacing,
			"m_HasLeftHand": h.HasLeftHand, "m_HasRightHand": h.HasRightHand, "m_HasTDoF": h.HasTDoF,
		}
	}
	emptySkeleton := unitywrite.Fields{"data": skeleton(model.Skeleton{})}
	avatar := unitywrite.Fields{
		"m_AvatarSkeleton":                 unitywrite.Fields{"data": skeleton(a.Skeleton)},
		"m_AvatarSkeletonPose":             unitywrite.Fields{"data": unitywrite.Fields{"m_X": xforms(a.SkeletonPose)}},
		"m_DefaultPose":                    unitywrite.Fields{"data": unitywrite.Fields{"m_X": xforms(a.DefaultPose)}},
		"m_SkeletonNameIDArray":            nameIDs,
		"m_Human":                          unitywrite.Fields{"data": human},
		"m_HumanSkeletonIndexArray":        int32s(a.HumanSkeletonIndex),
		"m_HumanSkeletonReverseIndexArray": reverse,
		"m_RootMotionBoneIndex":            int32(a.RootMotionBone),
		"m_RootMotionBoneX":                xform(geom.Transform{R: geom.Quat{W: 1}, S: geom.Vec3{X: 1, Y: 1, Z: 1}}),
		"m_RootMotionSkeleton":             emptySkeleton,
		"m_RootMotionSkeletonPose":         unitywrite.Fields{"data": unitywrite.Fields{"m_X": []unitywrite.Fields{}}},
		"m_RootMotionSkeletonIndexArray":   []int32{},
	}
	hashes := make([]uint32, 0, len(a.Names))
	for h := range a.Names {
		hashes = append(hashes, h)
	}
	sort.Slice(hashes, func(i, j int) bool { return hashes[i] < hashes[j] })
	tos := make([][2]any, len(hashes))
	for i, h := range hashes {
		tos[i] = [2]any{h, a.Names[h]}
	}
	hn, hax := 0, 0
	if a.Human != nil {
		hn, hax = len(a.Human.Skeleton.Nodes), len(a.Human.Skeleton.Axes)
	}
	out := unitywrite.Fields{
		"m_Name":             a.Name,
		"m_AvatarSize":       avatarSize(n, len(a.Skeleton.Axes), hn, hax),
		"m_Avatar":           avatar,
		"m_TOS":              tos,
		"m_HumanDescription": description(a.Description),
	}
	return out, nil
}

// avatarSize is m_AvatarSize, the bytes Unity allocates for the avatar
// constant. Its exact rule is not known: this bound is at or above the size
// of each of the corpus's 15 avatars (2021.3 and 2022.3) by at most 192
// bytes (nodes, human nodes and joint axes, at what each takes in the
// constant), erring above because Unity sizes the avatar's memory by it.
func avatarSize(nodes, axes, humanNodes, humanAxes int) int {
	return 1024 + 116*nodes + 96*axes + 64*humanNodes + 96*humanAxes
}

func skeleton(s model.Skeleton) unitywrite.Fields {
	nodes := make([]unitywrite.Fields, len(s.Nodes))
	ids := make([]uint32, len(s.Nodes))
	for i, nd := range s.Nodes {
		nodes[i] = unitywrite.Fields{"m_ParentId": int32(nd.Parent), "m_AxesId": int32(nd.Axes)}
		ids[i] = nd.PathHash
	}
	axes := make([]unitywrite.Fields, len(s.Axes))
	for i, x := range s.Axes {
		axes[i] = unitywrite.Fields{
			"m_PreQ": quat(x.Pre), "m_PostQ": quat(x.Post), "m_Sgn": vec3(x.Sign),
			"m_Limit":  unitywrite.Fields{"m_Min": vec3(x.Min), "m_Max": vec3(x.Max)},
			"m_Length": x.Length, "m_Type": x.Type,
		}
	}
	return unitywrite.Fields{"m_Node": nodes, "m_ID": ids, "m_AxesArray": axes}
}

func hand(idx []int) unitywrite.Fields {
	t := make([]int32, handBones)
	for i := range t {
		t[i] = -1
		if i < len(idx) {
			t[i] = int32(idx[i])
		}
	}
	return unitywrite.Fields{"data": unitywrite.Fields{"m_HandBoneIndex": t}}
}

func description(d *model.HumanDescription) unitywrite.Fields {
	if d == nil {
		return unitywrite.Fields{"m_Human": []unitywrite.Fields{}, "m_Skeleton": []unitywrite.Fields{}, "m_GlobalScale": float32(1)}
	}
	human := make([]unitywrite.Fields, len(d.Human))
	for i, b := range d.Human {
		human[i] = unitywrite.Fields{"m_BoneName": b.BoneName, "m_HumanName": b.HumanName,
			"m_Limit": unitywrite.Fields{"m_Min": vec3(b.Limit.Min), "m_Max": vec3(b.Limit.Max), "m_Value": vec3(b.Limit.Center),
				"m_Length": b.Limit.AxisLength, "m_Modified": !b.Limit.UseDefault}}
	}
	skel := make([]unitywrite.Fields, len(d.Skeleton))
	for i, b := range d.Skeleton {
		skel[i] = unitywrite.Fields{"m_Name": b.Name, "m_ParentName": b.ParentName,
			"m_Position": vec3(b.Local.T), "m_Rotation": quat(b.Local.R), "m_Scale": vec3(b.Local.S)}
	}
	return unitywrite.Fields{
		"m_Human": human, "m_Skeleton": skel,
		"m_ArmTwist": d.ArmTwist, "m_ForeArmTwist": d.ForeArmTwist, "m_UpperLegTwist": d.UpperLegTwist, "m_LegTwist": d.LegTwist,
		"m_ArmStretch": d.ArmStretch, "m_LegStretch": d.LegStretch, "m_FeetSpacing": d.FeetSpacing,
		"m_GlobalScale": d.GlobalScale, "m_RootMotionBoneName": d.RootMotionBoneName,
		"m_HasTranslationDoF": d.HasTranslationDoF, "m_HasExtraRoot": true, "m_SkeletonHasParents": true,
	}
}

func int32s(x []int) []int32 {
	out := make([]int32, len(x))
	for i, v := range x {
		out[i] = int32(v)
	}
	return out
}

func vec3(v geom.Vec3) unitywrite.Fields { return unitywrite.Fields{"x": v.X, "y": v.Y, "z": v.Z} }

func quat(q geom.Quat) unitywrite.Fields {
	return unitywrite.Fields{"x": q.X, "y": q.Y, "z": q.Z, "w": q.W}
}

func xform(t geom.Transform) unitywrite.Fields {
	return unitywrite.Fields{"t": vec3(t.T), "q": quat(t.R), "s": vec3(t.S)}
}

func xforms(ts []geom.Transform) []unitywrite.Fields {
	out := make([]unitywrite.Fields, len(ts))
	for i, t := range ts {
		out[i] = xform(t)
	}
	return out
}
