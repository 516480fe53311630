// Package humanoid turns humanoid (muscle) animation into bone rotations on
// a humanoid avatar, as Unity's Mecanim does, and back: muscles to local
// rotations through the avatar's joint frames and limits, limb twist shared
// down the arm and leg chains, the hips placed from RootT/RootQ by the centre
// of mass and the body frame, and the inverse (pose to muscles) for
// retargeting. The rules are those of /work/shared/spec/unity-humanoid-muscles.txt;
// where the spec says a rule is not the whole of Unity's, the code says so.
// Poses are in the frame of the avatar root (the Animator's GameObject),
// which Apply and Clip.Sample leave at identity: the avatar builder has
// composed the root's stored transform into the human pose already.
//
// Retargeting: a humanoid clip is avatar-independent (muscles, and the root
// in human scales), so it already retargets: Bake it on any avatar's Rig.
// Record goes the other way, from poses of one avatar's skeleton (a generic
// clip baked with anim.Bake on Rig.Skeleton, or any Sampler) to a humanoid
// clip of dense RootT, RootQ and muscle curves; Retarget rewrites a
// humanoid clip as another avatar reads it back (muscles of missing bones
// zeroed). Muscle retargeting keeps muscles, not each bone's turn from the
// T-pose: between avatars whose T-poses differ in muscle space those turns
// differ too (by degrees, on the corpus; see the tests).
//
// Playing one clip on many characters: BakeBones reduces, once per clip
// and rig, the bone transforms the muscles give to compact keys (Bones,
// within stated tolerances of the exact path, savable with MarshalBinary
// and UnmarshalBones), so that a tick is key lookup and interpolation and
// not muscle maths; the exact Clip stays the reference and what an
// Animator blends.
//
// The IK goals: Rig.Goals computes where a pose puts the hands and feet in
// the clips' goal frame (fitted on the corpus; see its documentation) and
// Rig.SolveFeet moves the legs to reach foot goals; Apply and sampling do
// not solve them. Not covered: the muscles of a bone the avatar lacks are
// ignored; the fingers use the same formula as the
// body, which the spec could not measure; the body frame is the spec's rule,
// which is 0.25° rms (3.2° at most) from the editor's hips over random poses.
package humanoid

import "github.com/mecanim/mecanim/model"

// Human bone indices in the order of a compiled avatar's m_HumanBoneIndex
// (and m_HumanBoneMass). Evidence (ChadRigAvatar.asset, compiled and
// described in the same file): m_HumanBoneIndex[i] is a human skeleton node
// whose axes limits are Unity's default limits of the bone named here
// (radians, printed in degrees): index 1 and 2 have x ±60, y ±60,
// z −90..50 (upper legs), 3 and 4 x ±90, z ±80 (lower legs), 5 and 6 y ±30,
// z ±50 (feet), 7, 8 ±40 on every axis (spine, chest), 9 ±20 (upper chest),
// 10 is −1 where the HumanDescription maps no Neck, 11 ±40 (head, parent
// node the upper chest), 12 and 13 y ±15, z −15..30 (shoulders), 14 and 15
// x ±90, y ±100, z −60..100 (upper arms), 16 and 17 x ±90, z ±80 (forearms),
// 18 and 19 y ±40, z ±80 (hands), 20 and 21 z ±50 (toes), 22..24 −1 where
// the description maps no eyes and no jaw. Each left bone precedes its right
// twin, whose m_Sgn differs where mirroring flips an axis. The node parents
// agree (a lower leg's parent is the upper leg of its side, and so on).
const (
	Hips = iota
	LeftUpperLeg
	RightUpperLeg
	LeftLowerLeg
	RightLowerLeg
	LeftFoot
	RightFoot
	Spine
	Chest
	UpperChest
	Neck
	Head
	LeftShoulder
	RightShoulder
	LeftUpperArm
	RightUpperArm
	LeftLowerArm
	RightLowerArm
	LeftHand
	RightHand
	LeftToes
	RightToes
	LeftEye
	RightEye
	Jaw
	// BodyBoneCount is the number of body bones (m_HumanBoneIndex length).
	BodyBoneCount
)

// Finger bones follow the body bones: the left hand's 15 then the right
// hand's 15, each hand in m_HandBoneIndex order: thumb, index, middle, ring,
// little, each proximal, intermediate, distal.
const (
	LeftHandFirst  = BodyBoneCount
	RightHandFirst = BodyBoneCount + 15
	// BoneCount is the number of human bones, body and fingers.
	BoneCount = BodyBoneCount + 30
)

// BoneNames are the human bones' names as a HumanDescription names them,
// indexed like the constants above (model.HumanBoneNames: the model
// declares the table, for the readers too). Read-only: do not modify.
var BoneNames = model.HumanBoneNames

// The model's table and the constants above count the same bones, and
// the constants are the model's bones (model.HumanBone) by number.
var (
	_ = [1]int{}[BoneCount-model.HumanBoneCount]
	_ = [1]int{}[Jaw-int(model.HumanJaw)]
	_ = [1]int{}[LeftHandFirst-int(model.HumanLeftFingers)]
)

// Degree of freedom of a bone: x is the twist, y and z the swing.
const (
	AxisX = 0
	AxisY = 1
	AxisZ = 2
)

// MuscleDoF says which bone and which axis a muscle drives.
type MuscleDoF struct {
	Bone int // human bone (constants above)
	Axis int // AxisX, AxisY or AxisZ
}

// Muscles maps each of the 95 muscles (model.MuscleNames order) to the bone
// and axis it drives. Read-only: do not modify (every importer shares it).
//
// Evidence, from the compiled axes limits of ChadRigAvatar.asset (whose
// HumanDescription leaves every limit at Unity's default, m_Modified 0)
// against the defaults the editor shows for each muscle: where a bone's two
// swing limits differ the axis is fixed by them: Upper Leg Front-Back
// (−90..50) is z and In-Out (±60) y; Foot Up-Down (±50) is z and Foot Twist
// (±30) y; Shoulder Down-Up (−15..30) z, Front-Back (±15) y; Arm Down-Up
// (−60..100) z, Front-Back (±100) y; Hand Down-Up (±80) z, In-Out (±40) y;
// the one-swing bones (lower legs and forearms ±80 "Stretch", toes ±50) have
// only z limits; every "Twist" is x by the spec. In all these fixed cases the
// muscles of a bone are listed z, then y, then x; the bones whose limits do
// not decide (spine, chest, upper chest, neck, head, eyes, jaw with equal y
// and z limits) follow the same listing, which also puts every bend that
// the names call front-back, nod, down-up, close or stretch on z like the
// decided ones. Fingers: "1 Stretched" is the proximal bone's z, "Spread"
// its y, "2 Stretched" and "3 Stretched" the intermediate and distal z.
var Muscles = func() [95]MuscleDoF {
	var m [95]MuscleDoF
	i := 0
	add := func(bone int, axes ...int) {
		for _, a := range axes {
			m[i] = MuscleDoF{bone, a}
			i++
		}
	}
	add(Spine, AxisZ, AxisY, AxisX)
	add(Chest, AxisZ, AxisY, AxisX)
	add(UpperChest, AxisZ, AxisY, AxisX)
	add(Neck, AxisZ, AxisY, AxisX)
	add(Head, AxisZ, AxisY, AxisX)
	add(LeftEye, AxisZ, AxisY)
	add(RightEye, AxisZ, AxisY)
	add(Jaw, AxisZ, AxisY)
	for s := 0; s < 2; s++ {
		add(LeftUpperLeg+s, AxisZ, AxisY, AxisX)
		add(LeftLowerLeg+s, AxisZ, AxisX)
		add(LeftFoot+s, AxisZ, AxisY)
		add(LeftToes+s, AxisZ)
	}
	for s := 0; s < 2; s++ {
		add(LeftShoulder+s, AxisZ, AxisY)
		add(LeftUpperArm+s, AxisZ, AxisY, AxisX)
		add(LeftLowerArm+s, AxisZ, AxisX)
		add(LeftHand+s, AxisZ, AxisY)
	}
	for _, first := range []int{LeftHandFirst, RightHandFirst} {
		for f := 0; f < 5; f++ {
			b := first + 3*f
			add(b, AxisZ, AxisY)
			add(b+1, AxisZ)
			add(b+2, AxisZ)
		}
	}
	return m
}()

// ParentBone returns human bone b's parent among the human bones when the
// avatar has every optional bone (model.HumanBone.Parent: Unity's
// HumanTrait.GetParentBone): -1 for the hips and for b out of range.
func ParentBone(b int) int { return int(model.HumanBone(b).Parent()) }

// presentParent returns the nearest present ancestor of body bone b, given
// which bones the avatar has.
func presentParent(b int, has func(int) bool) int {
	for p := ParentBone(b); p >= 0; p = ParentBone(p) {
		if has(p) {
			return p
		}
	}
	return -1
}
