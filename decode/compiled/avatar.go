package compiled

import (
	"fmt"

	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/typetree"
)

// Avatar converts a decoded Avatar (class 90) into a model.Avatar: the
// avatar skeleton with its poses, the compiled human (nil for a generic
// avatar, whose human skeleton is empty), the name table and the
// HumanDescription when the object carries one. Translations and scales
// are float3 in some Unity versions and float4 in others; only x, y, z are
// read.
func Avatar(v *typetree.Value, unityVersion string) (*model.Avatar, error) {
	a := &model.Avatar{Name: v.Field("m_Name").Str(), RootMotionBone: -1}
	fail := func(field string, err error) (*model.Avatar, error) {
		if unityVersion != "" {
			err = fmt.Errorf("%w (Unity %s)", err, unityVersion)
		}
		return nil, &Error{Class: "Avatar", Object: a.Name, Field: field, Err: err}
	}
	if v.Kind() != typetree.KindStruct {
		return fail("", errf(ErrMalformed, "not a struct"))
	}
	av := v.Field("m_Avatar")
	if av == nil {
		return fail("m_Avatar", ErrMissingField)
	}
	var err error
	if a.Skeleton, err = skeleton(av.Path("m_AvatarSkeleton", "data")); err != nil {
		return fail("m_Avatar.m_AvatarSkeleton", err)
	}
	n := len(a.Skeleton.Nodes)
	if a.SkeletonPose, err = pose(av.Path("m_AvatarSkeletonPose", "data"), n); err != nil {
		return fail("m_Avatar.m_AvatarSkeletonPose", err)
	}
	if a.DefaultPose, err = pose(av.Path("m_DefaultPose", "data"), n); err != nil {
		return fail("m_Avatar.m_DefaultPose", err)
	}
	if h := av.Path("m_Human", "data"); h != nil {
		hm, field, err := human(h)
		if err != nil {
			return fail("m_Avatar.m_Human.data."+field, err)
		}
		if len(hm.Skeleton.Nodes) > 0 {
			a.Human = hm
		}
	}
	a.HumanSkeletonIndex = ints(av.Field("m_HumanSkeletonIndexArray"))
	hn := 0
	if a.Human != nil {
		hn = len(a.Human.Skeleton.Nodes)
	}
	if len(a.HumanSkeletonIndex) != hn {
		return fail("m_Avatar.m_HumanSkeletonIndexArray", errf(ErrMalformed, "%d entries for %d human nodes", len(a.HumanSkeletonIndex), hn))
	}
	if err := checkIndexes(a.HumanSkeletonIndex, n); err != nil {
		return fail("m_Avatar.m_HumanSkeletonIndexArray", err)
	}
	if r := av.Field("m_RootMotionBoneIndex"); r != nil {
		a.RootMotionBone = int(r.Int())
		if a.RootMotionBone < -1 || a.RootMotionBone >= n {
			return fail("m_Avatar.m_RootMotionBoneIndex", errf(ErrMalformed, "%d for %d nodes", a.RootMotionBone, n))
		}
	}
	a.Names = TOS(v.Field("m_TOS"))
	if hd := v.Field("m_HumanDescription"); hd != nil {
		a.Description = humanDescription(hd)
	}
	if err := a.CheckFinite(); err != nil {
		return fail("m_Avatar", err)
	}
	if field, err := checkAvatarMeaning(a, v.Has("m_TOS")); err != nil {
		return fail(field, err)
	}
	return a, nil
}

// checkIndexes checks that every index is -1 or below n.
func checkIndexes(idx []int, n int) error {
	for i, x := range idx {
		if x < -1 || x >= n {
			return errf(ErrMalformed, "entry %d is %d, not a node of %d", i, x, n)
		}
	}
	return nil
}

// skeleton reads a mecanim Skeleton (m_Node, m_ID, m_AxesArray).
func skeleton(s *typetree.Value) (model.Skeleton, error) {
	var sk model.Skeleton
	if s == nil {
		return sk, ErrMissingField
	}
	nodes := s.Field("m_Node").Elems()
	ids := uint32s(s.Field("m_ID"))
	if len(ids) != len(nodes) {
		return sk, errf(ErrMalformed, "%d nodes but %d ids", len(nodes), len(ids))
	}
	axes := s.Field("m_AxesArray").Elems()
	sk.Nodes = make([]model.SkeletonNode, len(nodes))
	for i := range nodes {
		p := int(nodes[i].Field("m_ParentId").Int())
		ax := int(nodes[i].Field("m_AxesId").Int())
		if p < -1 || p >= i {
			return sk, errf(ErrMalformed, "node %d has parent %d (parents come first)", i, p)
		}
		if ax < -1 || ax >= len(axes) {
			return sk, errf(ErrMalformed, "node %d has axes %d of %d", i, ax, len(axes))
		}
		sk.Nodes[i] = model.SkeletonNode{Parent: p, Axes: ax, PathHash: ids[i]}
	}
	sk.Axes = make([]model.Axes, len(axes))
	for i := range axes {
		x := &axes[i]
		sk.Axes[i] = model.Axes{
			Pre:    quat(x.Field("m_PreQ")),
			Post:   quat(x.Field("m_PostQ")),
			Sign:   vec3(x.Field("m_Sgn")),
			Min:    vec3(x.Path("m_Limit", "m_Min")),
			Max:    vec3(x.Path("m_Limit", "m_Max")),
			Length: x.Field("m_Length").Float32(),
			Type:   int32(x.Field("m_Type").Int()),
		}
	}
	return sk, nil
}

// pose reads a SkeletonPose (m_X) that must have n transforms.
func pose(p *typetree.Value, n int) ([]geom.Transform, error) {
	if p == nil {
		if n == 0 {
			return nil, nil
		}
		return nil, ErrMissingField
	}
	xs := p.Field("m_X").Elems()
	if len(xs) != n {
		return nil, errf(ErrMalformed, "%d transforms for %d nodes", len(xs), n)
	}
	out := make([]geom.Transform, n)
	for i := range xs {
		out[i] = xform(&xs[i])
	}
	return out, nil
}

// human reads m_Human.data.
func human(h *typetree.Value) (*model.Human, string, error) {
	hm := &model.Human{
		RootX:         xform(h.Field("m_RootX")),
		Scale:         h.Field("m_Scale").Float32(),
		ArmTwist:      h.Field("m_ArmTwist").Float32(),
		ForeArmTwist:  h.Field("m_ForeArmTwist").Float32(),
		UpperLegTwist: h.Field("m_UpperLegTwist").Float32(),
		LegTwist:      h.Field("m_LegTwist").Float32(),
		ArmStretch:    h.Field("m_ArmStretch").Float32(),
		LegStretch:    h.Field("m_LegStretch").Float32(),
		FeetSpacing:   h.Field("m_FeetSpacing").Float32(),
		HasLeftHand:   h.Field("m_HasLeftHand").Bool(),
		HasRightHand:  h.Field("m_HasRightHand").Bool(),
		HasTDoF:       h.Field("m_HasTDoF").Bool(),
	}
	var err error
	if hm.Skeleton, err = skeleton(h.Path("m_Skeleton", "data")); err != nil {
		return nil, "m_Skeleton", err
	}
	n := len(hm.Skeleton.Nodes)
	if hm.Pose, err = pose(h.Path("m_SkeletonPose", "data"), n); err != nil {
		return nil, "m_SkeletonPose", err
	}
	hm.BoneIndex = ints(h.Field("m_HumanBoneIndex"))
	if err := checkIndexes(hm.BoneIndex, n); err != nil {
		return nil, "m_HumanBoneIndex", err
	}
	hm.LeftHand = ints(h.Path("m_LeftHand", "data", "m_HandBoneIndex"))
	if err := checkIndexes(hm.LeftHand, n); err != nil {
		return nil, "m_LeftHand", err
	}
	hm.RightHand = ints(h.Path("m_RightHand", "data", "m_HandBoneIndex"))
	if err := checkIndexes(hm.RightHand, n); err != nil {
		return nil, "m_RightHand", err
	}
	// An absent hand keeps a table of -1s in the data; the model leaves it
	// empty.
	if !hm.HasLeftHand {
		hm.LeftHand = nil
	}
	if !hm.HasRightHand {
		hm.RightHand = nil
	}
	hm.BoneMass = floats(h.Field("m_HumanBoneMass"))
	return hm, "", nil
}

// humanDescription reads m_HumanDescription (the avatar's build settings).
func humanDescription(hd *typetree.Value) *model.HumanDescription {
	d := &model.HumanDescription{
		ArmTwist:           hd.Field("m_ArmTwist").Float32(),
		ForeArmTwist:       hd.Field("m_ForeArmTwist").Float32(),
		UpperLegTwist:      hd.Field("m_UpperLegTwist").Float32(),
		LegTwist:           hd.Field("m_LegTwist").Float32(),
		ArmStretch:         hd.Field("m_ArmStretch").Float32(),
		LegStretch:         hd.Field("m_LegStretch").Float32(),
		FeetSpacing:        hd.Field("m_FeetSpacing").Float32(),
		GlobalScale:        hd.Field("m_GlobalScale").Float32(),
		RootMotionBoneName: hd.Field("m_RootMotionBoneName").Str(),
		HasTranslationDoF:  hd.Field("m_HasTranslationDoF").Bool(),
	}
	for _, b := range hd.Field("m_Human").Elems() {
		l := b.Field("m_Limit")
		d.Human = append(d.Human, model.HumanBoneMapping{
			HumanName: b.Field("m_HumanName").Str(),
			BoneName:  b.Field("m_BoneName").Str(),
			Limit: model.HumanLimit{
				Min:        vec3(l.Field("m_Min")),
				Max:        vec3(l.Field("m_Max")),
				Center:     vec3(l.Field("m_Value")),
				AxisLength: l.Field("m_Length").Float32(),
				UseDefault: !l.Field("m_Modified").Bool(),
			},
		})
	}
	for _, s := range hd.Field("m_Skeleton").Elems() {
		d.Skeleton = append(d.Skeleton, model.SkeletonBone{
			Name:       s.Field("m_Name").Str(),
			ParentName: s.Field("m_ParentName").Str(),
			Local: geom.Transform{
				T: vec3(s.Field("m_Position")),
				R: quat(s.Field("m_Rotation")),
				S: vec3(s.Field("m_Scale")),
			},
		})
	}
	return d
}
