package model

import "github.com/mecanim/mecanim/geom"

// SkeletonNode is one node of an avatar's skeleton.
type SkeletonNode struct {
	Parent   int    // index of the parent node, -1 for a root
	Axes     int    // index into Skeleton.Axes, -1 for none
	PathHash uint32 // CRC-32 of the node's path below the Animator
}

// Axes is a bone's joint frame and limits (Unity's m_AxesArray entry).
type Axes struct {
	Pre, Post geom.Quat // pre- and post-rotation
	Sign      geom.Vec3 // sign of each axis (+1 or -1)
	Min, Max  geom.Vec3 // limits in radians (x twist, y, z); Min negative
	Length    float32
	Type      int32
}

// Skeleton is a node list with parents before children and the joints'
// axes.
type Skeleton struct {
	Nodes []SkeletonNode
	Axes  []Axes
}

// Human is the compiled humanoid part of an avatar.
type Human struct {
	// RootX is the stored human pose's centre of mass (T) and body frame (R).
	RootX geom.Transform
	// Skeleton is the human skeleton and Pose its stored pose (local
	// transforms), parallel to Skeleton.Nodes.
	Skeleton Skeleton
	Pose     []geom.Transform
	// BoneIndex maps each human bone (in the compiled order) to a node of
	// Skeleton, -1 when the avatar lacks it.
	BoneIndex []int
	// LeftHand and RightHand map each finger bone to a node of Skeleton (-1
	// for none); empty when the hand is absent.
	LeftHand, RightHand []int
	// BoneMass is the mass of each human bone (m_HumanBoneMass).
	BoneMass []float32
	// Scale is the human scale (the height used to normalise RootT).
	Scale                                           float32
	ArmTwist, ForeArmTwist, UpperLegTwist, LegTwist float32
	ArmStretch, LegStretch, FeetSpacing             float32
	HasLeftHand, HasRightHand, HasTDoF              bool
}

// HumanLimit is a human bone's limit as authored in a HumanDescription
// (degrees), with whether the defaults were used.
type HumanLimit struct {
	Min, Max, Center geom.Vec3
	AxisLength       float32
	UseDefault       bool
}

// HumanBoneMapping names the skeleton bone that plays a human bone.
type HumanBoneMapping struct {
	HumanName string // "Hips", "LeftUpperLeg", "Left Thumb Proximal", ...
	BoneName  string // the GameObject name in the rig
	Limit     HumanLimit
}

// SkeletonBone is a rig bone's rest transform in a HumanDescription.
type SkeletonBone struct {
	Name, ParentName string
	Local            geom.Transform
}

// HumanDescription is what an avatar was built from (YAML sources and some
// compiled avatars).
type HumanDescription struct {
	Human                                           []HumanBoneMapping
	Skeleton                                        []SkeletonBone
	ArmTwist, ForeArmTwist, UpperLegTwist, LegTwist float32
	ArmStretch, LegStretch, FeetSpacing             float32
	GlobalScale                                     float32
	RootMotionBoneName                              string
	HasTranslationDoF                               bool
}

// Avatar is a decoded avatar: the skeleton Mecanim animates, its poses, and
// for a humanoid the compiled muscle data.
type Avatar struct {
	Name string
	// Skeleton is the avatar skeleton; SkeletonPose and DefaultPose are its
	// stored local poses (parallel to Skeleton.Nodes).
	Skeleton     Skeleton
	SkeletonPose []geom.Transform
	DefaultPose  []geom.Transform
	// Human is nil for a generic avatar (empty human skeleton).
	Human *Human
	// HumanSkeletonIndex maps each human skeleton node to an avatar skeleton
	// node (-1 none).
	HumanSkeletonIndex []int
	// RootMotionBone is the avatar skeleton node that carries root motion
	// for generic avatars (-1 none).
	RootMotionBone int
	// Names is the avatar's name table (m_TOS): path hash -> path.
	Names Names
	// Description is the HumanDescription when the source has one.
	Description *HumanDescription
}

// IsHuman reports whether the avatar is a humanoid.
func (a *Avatar) IsHuman() bool { return a.Human != nil && len(a.Human.Skeleton.Nodes) > 0 }
