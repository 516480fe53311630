package avatarbuild

import (
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/humanoid"
	"github.com/mecanim/mecanim/model"
)

// synthBone is a bone of a synthetic description: its name, parent, human
// bone ("" for none) and position relative to its parent (no rotation).
type synthBone struct {
	name, parent, human string
	t                   geom.Vec3
}

// synthBones is a humanoid in an exact T-pose, 1.7 tall, facing +z, every
// optional bone mapped (thumb and index fingers only), with non-human
// nodes: a mesh beside the armature, a prop under the hips, end bones.
func synthBones() []synthBone {
	bs := []synthBone{
		{"Synth", "", "", geom.V3(0, 0, 0)},
		{"Body", "Synth", "", geom.V3(0, 0, 0)},
		{"Armature", "Synth", "", geom.V3(0, 0, 0)},
		{"Hips", "Armature", "Hips", geom.V3(0, 1, 0)},
		{"Holster", "Hips", "", geom.V3(0.15, 0, 0)},
		{"Spine", "Hips", "Spine", geom.V3(0, 0.1, 0.01)},
		{"Chest", "Spine", "Chest", geom.V3(0, 0.12, 0)},
		{"UpperChest", "Chest", "UpperChest", geom.V3(0, 0.12, -0.01)},
		{"Neck", "UpperChest", "Neck", geom.V3(0, 0.16, 0)},
		{"Head", "Neck", "Head", geom.V3(0, 0.08, 0.02)},
		{"Head_end", "Head", "", geom.V3(0, 0.2, 0)},
		{"Jaw", "Head", "Jaw", geom.V3(0, 0.02, 0.05)},
	}
	for _, s := range []struct {
		p, h string
		x    float32
	}{{"L", "Left", 1}, {"R", "Right", -1}} {
		x := -s.x // the left side is at -x
		bs = append(bs,
			synthBone{"Eye" + s.p, "Head", s.h + "Eye", geom.V3(0.03*x, 0.08, 0.08)},
			synthBone{"Shoulder" + s.p, "UpperChest", s.h + "Shoulder", geom.V3(0.03*x, 0.13, 0)},
			synthBone{"UpperArm" + s.p, "Shoulder" + s.p, s.h + "UpperArm", geom.V3(0.12*x, 0, 0)},
			synthBone{"LowerArm" + s.p, "UpperArm" + s.p, s.h + "LowerArm", geom.V3(0.26*x, 0, 0)},
			synthBone{"Hand" + s.p, "LowerArm" + s.p, s.h + "Hand", geom.V3(0.24*x, 0, 0)},
			synthBone{"Thumb1" + s.p, "Hand" + s.p, s.h[:1] + "Thumb", geom.V3(0.03*x, -0.01, 0.03)},
			synthBone{"Thumb2" + s.p, "Thumb1" + s.p, "", geom.V3(0.03*x, 0, 0.02)},
			synthBone{"Thumb3" + s.p, "Thumb2" + s.p, "", geom.V3(0.025*x, 0, 0.01)},
			synthBone{"Index1" + s.p, "Hand" + s.p, s.h[:1] + "Index", geom.V3(0.09*x, 0, 0.02)},
			synthBone{"Index2" + s.p, "Index1" + s.p, "", geom.V3(0.04*x, 0, 0)},
			synthBone{"Index3" + s.p, "Index2" + s.p, "", geom.V3(0.025*x, 0, 0)},
			synthBone{"UpperLeg" + s.p, "Hips", s.h + "UpperLeg", geom.V3(0.09*x, -0.05, 0)},
			synthBone{"LowerLeg" + s.p, "UpperLeg" + s.p, s.h + "LowerLeg", geom.V3(0, -0.42, 0.01)},
			synthBone{"Foot" + s.p, "LowerLeg" + s.p, s.h + "Foot", geom.V3(0, -0.43, -0.02)},
			synthBone{"Toes" + s.p, "Foot" + s.p, s.h + "Toes", geom.V3(0, -0.06, 0.12)},
		)
	}
	return bs
}

// fingerNames maps the synthetic finger marks to the description's names.
var fingerNames = map[string][3]string{
	"LThumb": {"Left Thumb Proximal", "Left Thumb Intermediate", "Left Thumb Distal"},
	"RThumb": {"Right Thumb Proximal", "Right Thumb Intermediate", "Right Thumb Distal"},
	"LIndex": {"Left Index Proximal", "Left Index Intermediate", "Left Index Distal"},
	"RIndex": {"Right Index Proximal", "Right Index Intermediate", "Right Index Distal"},
}

// synthDescription returns the description of synthBones without the
// human bones named in drop (by their human names).
func synthDescription(drop ...string) *model.HumanDescription {
	d := &model.HumanDescription{ArmTwist: 0.5, ForeArmTwist: 0.5, UpperLegTwist: 0.5, LegTwist: 0.5,
		ArmStretch: 0.05, LegStretch: 0.05, GlobalScale: 1}
	skip := map[string]bool{}
	for _, n := range drop {
		skip[n] = true
	}
	human := func(name, bone string) {
		if !skip[name] {
			d.Human = append(d.Human, model.HumanBoneMapping{HumanName: name, BoneName: bone, Limit: model.HumanLimit{UseDefault: true}})
		}
	}
	for _, b := range depthFirst(synthBones()) {
		d.Skeleton = append(d.Skeleton, model.SkeletonBone{Name: b.name, ParentName: b.parent,
			Local: geom.Transform{T: b.t, R: geom.IdentityQuat, S: geom.V3(1, 1, 1)}})
		if names, ok := fingerNames[b.human]; ok {
			side := b.name[len(b.name)-1:]
			base := b.name[:len(b.name)-2]
			for k := 0; k < 3; k++ {
				human(names[k], base+string(rune('1'+k))+side)
			}
			continue
		}
		if b.human != "" {
			human(b.human, b.name)
		}
	}
	return d
}

// boneOf returns human bone b's human node in h (-1 for none).
func boneNode(h *model.Human, b int) int {
	switch {
	case b < humanoid.BodyBoneCount:
		return h.BoneIndex[b]
	case b < humanoid.RightHandFirst:
		if len(h.LeftHand) == 0 {
			return -1
		}
		return h.LeftHand[b-humanoid.LeftHandFirst]
	}
	if len(h.RightHand) == 0 {
		return -1
	}
	return h.RightHand[b-humanoid.RightHandFirst]
}

// globals returns the human skeleton's global transforms in float64.
func globals(h *model.Human) []xform { return humanGlobals(h) }

// depthFirst orders bones depth first from the first, children in their
// listed order (the order Unity's importer lists a model's skeleton in).
func depthFirst(bs []synthBone) []synthBone {
	var out []synthBone
	var visit func(name string)
	visit = func(name string) {
		for _, b := range bs {
			if b.parent == name && b.name != bs[0].name {
				out = append(out, b)
				visit(b.name)
			}
		}
	}
	out = append(out, bs[0])
	visit(bs[0].name)
	return out
}
