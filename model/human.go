package model

import "fmt"

// Humanoid clip attributes: an Animator binding's attribute 7..41 are the
// root and the IK goals (each T x y z, then Q x y z w), attribute
// FirstMuscleAttribute+m is muscle m, and attribute FirstTDoFAttribute+3k+c
// is component c (x, y, z) of the translation of TDoFBones[k] (a clip of an
// avatar with translation DoF).
const (
	FirstRootAttribute   = 7
	FirstMuscleAttribute = 42
	MuscleCount          = 95
	BodyMuscleCount      = 55
	FirstTDoFAttribute   = FirstMuscleAttribute + MuscleCount
	TDoFCount            = 21
	// EndHumanAttribute is one past the last humanoid attribute.
	EndHumanAttribute = FirstTDoFAttribute + 3*TDoFCount
)

// TDoFBones are the bones with a translation degree of freedom, in
// attribute order (the editor's property names "SpineTDOF.x" ... list
// them after the muscles in this order, and a layer's body mask has a bit
// for each in this order).
var TDoFBones = [TDoFCount]HumanBone{
	HumanSpine, HumanChest, HumanUpperChest, HumanNeck, HumanHead,
	HumanLeftUpperLeg, HumanLeftLowerLeg, HumanLeftFoot, HumanLeftToes,
	HumanRightUpperLeg, HumanRightLowerLeg, HumanRightFoot, HumanRightToes,
	HumanLeftShoulder, HumanLeftUpperArm, HumanLeftLowerArm, HumanLeftHand,
	HumanRightShoulder, HumanRightUpperArm, HumanRightLowerArm, HumanRightHand,
}

// goalNames are the root and IK goals in attribute order, 7 values each
// (T x y z, Q x y z w).
var goalNames = [5]string{"Root", "LeftFoot", "RightFoot", "LeftHand", "RightHand"}

var goalComponents = [7]string{"T.x", "T.y", "T.z", "Q.x", "Q.y", "Q.z", "Q.w"}

// HumanBoneCount is the number of human bones, body and fingers.
const HumanBoneCount = 55

// HumanBone is one of Unity's human bones, numbered as HumanBoneNames
// names them: the body bones in m_HumanBoneIndex's order, then the left
// hand's 15 finger bones and the right hand's (each hand thumb, index,
// middle, ring, little; each finger proximal, intermediate, distal).
type HumanBone int

// The body bones.
const (
	HumanHips HumanBone = iota
	HumanLeftUpperLeg
	HumanRightUpperLeg
	HumanLeftLowerLeg
	HumanRightLowerLeg
	HumanLeftFoot
	HumanRightFoot
	HumanSpine
	HumanChest
	HumanUpperChest
	HumanNeck
	HumanHead
	HumanLeftShoulder
	HumanRightShoulder
	HumanLeftUpperArm
	HumanRightUpperArm
	HumanLeftLowerArm
	HumanRightLowerArm
	HumanLeftHand
	HumanRightHand
	HumanLeftToes
	HumanRightToes
	HumanLeftEye
	HumanRightEye
	HumanJaw
	// HumanLeftFingers is the left thumb's proximal bone, the first of
	// the 30 finger bones (HumanFinger).
	HumanLeftFingers
)

// HumanBodyBoneCount is the number of body bones (m_HumanBoneIndex's
// length).
const HumanBodyBoneCount = int(HumanLeftFingers)

// The human bones and the bone table agree in number.
var _ = [1]int{}[HumanBodyBoneCount+30-HumanBoneCount]

// HumanFinger returns a finger bone: side 0 left, 1 right; finger 0 thumb
// to 4 little; seg 0 proximal, 1 intermediate, 2 distal.
func HumanFinger(side, finger, seg int) HumanBone {
	return HumanLeftFingers + HumanBone(15*side+3*finger+seg)
}

// String names the bone as HumanBoneNames does.
func (b HumanBone) String() string {
	if b >= 0 && int(b) < HumanBoneCount {
		return HumanBoneNames[b]
	}
	return fmt.Sprintf("HumanBone(%d)", int(b))
}

// humanParents is each body bone's parent among the human bones when every
// optional bone is there (-1 for the hips).
var humanParents = [HumanBodyBoneCount]HumanBone{
	HumanHips: -1, HumanLeftUpperLeg: HumanHips, HumanRightUpperLeg: HumanHips,
	HumanLeftLowerLeg: HumanLeftUpperLeg, HumanRightLowerLeg: HumanRightUpperLeg,
	HumanLeftFoot: HumanLeftLowerLeg, HumanRightFoot: HumanRightLowerLeg,
	HumanSpine: HumanHips, HumanChest: HumanSpine, HumanUpperChest: HumanChest, HumanNeck: HumanUpperChest, HumanHead: HumanNeck,
	HumanLeftShoulder: HumanUpperChest, HumanRightShoulder: HumanUpperChest,
	HumanLeftUpperArm: HumanLeftShoulder, HumanRightUpperArm: HumanRightShoulder,
	HumanLeftLowerArm: HumanLeftUpperArm, HumanRightLowerArm: HumanRightUpperArm,
	HumanLeftHand: HumanLeftLowerArm, HumanRightHand: HumanRightLowerArm,
	HumanLeftToes: HumanLeftFoot, HumanRightToes: HumanRightFoot,
	HumanLeftEye: HumanHead, HumanRightEye: HumanHead, HumanJaw: HumanHead,
}

// Parent returns the bone's parent among the human bones when the avatar
// has every optional bone (Unity's HumanTrait.GetParentBone): -1 for the
// hips and for a bone out of range; a finger's proximal bone hangs from
// its hand, its intermediate from the proximal, its distal from the
// intermediate.
func (b HumanBone) Parent() HumanBone {
	switch {
	case b < 0 || int(b) >= HumanBoneCount:
		return -1
	case b < HumanLeftFingers:
		return humanParents[b]
	}
	k := int(b-HumanLeftFingers) % 15
	if k%3 != 0 {
		return b - 1
	}
	if b < HumanLeftFingers+15 {
		return HumanLeftHand
	}
	return HumanRightHand
}

// HumanBoneNames are the human bones' names as a HumanDescription names
// them, in Unity's order (m_HumanBoneIndex, then the left and the right
// hand's fingers). Read-only: do not modify (every importer shares it).
var HumanBoneNames = [HumanBoneCount]string{
	"Hips", "LeftUpperLeg", "RightUpperLeg", "LeftLowerLeg", "RightLowerLeg",
	"LeftFoot", "RightFoot", "Spine", "Chest", "UpperChest", "Neck", "Head",
	"LeftShoulder", "RightShoulder", "LeftUpperArm", "RightUpperArm",
	"LeftLowerArm", "RightLowerArm", "LeftHand", "RightHand",
	"LeftToes", "RightToes", "LeftEye", "RightEye", "Jaw",
	"Left Thumb Proximal", "Left Thumb Intermediate", "Left Thumb Distal",
	"Left Index Proximal", "Left Index Intermediate", "Left Index Distal",
	"Left Middle Proximal", "Left Middle Intermediate", "Left Middle Distal",
	"Left Ring Proximal", "Left Ring Intermediate", "Left Ring Distal",
	"Left Little Proximal", "Left Little Intermediate", "Left Little Distal",
	"Right Thumb Proximal", "Right Thumb Intermediate", "Right Thumb Distal",
	"Right Index Proximal", "Right Index Intermediate", "Right Index Distal",
	"Right Middle Proximal", "Right Middle Intermediate", "Right Middle Distal",
	"Right Ring Proximal", "Right Ring Intermediate", "Right Ring Distal",
	"Right Little Proximal", "Right Little Intermediate", "Right Little Distal",
}

// MuscleNames are the 95 muscles in Unity's order, named as the editor names
// their clip properties. Read-only: do not modify (every importer shares
// it).
var MuscleNames = [MuscleCount]string{
	"Spine Front-Back", "Spine Left-Right", "Spine Twist Left-Right",
	"Chest Front-Back", "Chest Left-Right", "Chest Twist Left-Right",
	"UpperChest Front-Back", "UpperChest Left-Right", "UpperChest Twist Left-Right",
	"Neck Nod Down-Up", "Neck Tilt Left-Right", "Neck Turn Left-Right",
	"Head Nod Down-Up", "Head Tilt Left-Right", "Head Turn Left-Right",
	"Left Eye Down-Up", "Left Eye In-Out", "Right Eye Down-Up", "Right Eye In-Out",
	"Jaw Close", "Jaw Left-Right",
	"Left Upper Leg Front-Back", "Left Upper Leg In-Out", "Left Upper Leg Twist In-Out",
	"Left Lower Leg Stretch", "Left Lower Leg Twist In-Out",
	"Left Foot Up-Down", "Left Foot Twist In-Out", "Left Toes Up-Down",
	"Right Upper Leg Front-Back", "Right Upper Leg In-Out", "Right Upper Leg Twist In-Out",
	"Right Lower Leg Stretch", "Right Lower Leg Twist In-Out",
	"Right Foot Up-Down", "Right Foot Twist In-Out", "Right Toes Up-Down",
	"Left Shoulder Down-Up", "Left Shoulder Front-Back",
	"Left Arm Down-Up", "Left Arm Front-Back", "Left Arm Twist In-Out",
	"Left Forearm Stretch", "Left Forearm Twist In-Out",
	"Left Hand Down-Up", "Left Hand In-Out",
	"Right Shoulder Down-Up", "Right Shoulder Front-Back",
	"Right Arm Down-Up", "Right Arm Front-Back", "Right Arm Twist In-Out",
	"Right Forearm Stretch", "Right Forearm Twist In-Out",
	"Right Hand Down-Up", "Right Hand In-Out",
	"LeftHand.Thumb.1 Stretched", "LeftHand.Thumb.Spread", "LeftHand.Thumb.2 Stretched", "LeftHand.Thumb.3 Stretched",
	"LeftHand.Index.1 Stretched", "LeftHand.Index.Spread", "LeftHand.Index.2 Stretched", "LeftHand.Index.3 Stretched",
	"LeftHand.Middle.1 Stretched", "LeftHand.Middle.Spread", "LeftHand.Middle.2 Stretched", "LeftHand.Middle.3 Stretched",
	"LeftHand.Ring.1 Stretched", "LeftHand.Ring.Spread", "LeftHand.Ring.2 Stretched", "LeftHand.Ring.3 Stretched",
	"LeftHand.Little.1 Stretched", "LeftHand.Little.Spread", "LeftHand.Little.2 Stretched", "LeftHand.Little.3 Stretched",
	"RightHand.Thumb.1 Stretched", "RightHand.Thumb.Spread", "RightHand.Thumb.2 Stretched", "RightHand.Thumb.3 Stretched",
	"RightHand.Index.1 Stretched", "RightHand.Index.Spread", "RightHand.Index.2 Stretched", "RightHand.Index.3 Stretched",
	"RightHand.Middle.1 Stretched", "RightHand.Middle.Spread", "RightHand.Middle.2 Stretched", "RightHand.Middle.3 Stretched",
	"RightHand.Ring.1 Stretched", "RightHand.Ring.Spread", "RightHand.Ring.2 Stretched", "RightHand.Ring.3 Stretched",
	"RightHand.Little.1 Stretched", "RightHand.Little.Spread", "RightHand.Little.2 Stretched", "RightHand.Little.3 Stretched",
}

// HumanAttributeName returns the editor's property name of an Animator
// binding attribute ("RootT.x", "LeftHandQ.w", a muscle name), and false
// for an attribute outside the humanoid layout.
func HumanAttributeName(attr uint32) (string, bool) {
	switch {
	case attr >= FirstRootAttribute && attr < FirstMuscleAttribute:
		i := attr - FirstRootAttribute
		return goalNames[i/7] + goalComponents[i%7], true
	case attr >= FirstMuscleAttribute && attr < FirstMuscleAttribute+MuscleCount:
		return MuscleNames[attr-FirstMuscleAttribute], true
	case attr >= FirstTDoFAttribute && attr < EndHumanAttribute:
		i := attr - FirstTDoFAttribute
		return HumanBoneNames[TDoFBones[i/3]] + "TDOF." + string(rune('x'+i%3)), true
	}
	return "", false
}

// IsHumanPoseAttribute reports whether an Animator binding attribute is an
// IK goal's, a muscle's or a translation DoF's: what makes a clip humanoid. RootT and RootQ
// (attributes 7 to 13) are not: a generic clip carries them too when Unity
// baked its root motion node's motion for a generic avatar.
func IsHumanPoseAttribute(attr uint32) bool {
	return attr >= FirstRootAttribute+7 && attr < EndHumanAttribute
}

// IsRootMotionAttribute reports whether an Animator binding attribute is
// one of RootT's or RootQ's (attributes 7 to 13).
func IsRootMotionAttribute(attr uint32) bool {
	return attr >= FirstRootAttribute && attr < FirstRootAttribute+7
}

// HumanAttributeByName is the inverse of HumanAttributeName.
func HumanAttributeByName(name string) (uint32, bool) {
	for a := uint32(FirstRootAttribute); a < EndHumanAttribute; a++ {
		if n, _ := HumanAttributeName(a); n == name {
			return a, true
		}
	}
	return 0, false
}

// TransformPropertyName returns the editor's name of a Transform channel
// ("m_LocalPosition.x", "m_LocalRotation.w", "m_LocalScale.z",
// "localEulerAnglesRaw.y").
func TransformPropertyName(p TransformProp, component int) string {
	comps := "xyzw"
	if component < 0 || component > 3 {
		return fmt.Sprintf("#component%d", component)
	}
	c := string(comps[component])
	switch p {
	case PropPosition:
		return "m_LocalPosition." + c
	case PropRotation:
		return "m_LocalRotation." + c
	case PropScale:
		return "m_LocalScale." + c
	case PropEuler:
		return "localEulerAnglesRaw." + c
	}
	return "#" + c
}
