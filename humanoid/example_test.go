package humanoid_test

import (
	"fmt"
	"log"
	"math"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/humanoid"
	"github.com/mecanim/mecanim/model"
)

// A humanoid clip's channels are Animator bindings (class 95, path "")
// whose attribute says what they drive: the body's position and rotation,
// the IK goals, then the 95 muscles. HumanAttributeName gives the editor's
// names.
func Example_attributes() {
	for _, attr := range []uint32{7, 10, 17, 42, 42 + 50, 42 + 54} {
		name, ok := model.HumanAttributeName(attr)
		fmt.Printf("attribute %d: %q %v\n", attr, name, ok)
	}
	a, _ := model.HumanAttributeByName("Right Arm Down-Up")
	m := a - model.FirstMuscleAttribute
	d := humanoid.Muscles[m]
	fmt.Printf("muscle %d moves %s about axis %d\n", m, humanoid.BoneNames[d.Bone], d.Axis)
	// Output:
	// attribute 7: "RootT.x" true
	// attribute 10: "RootQ.x" true
	// attribute 17: "LeftFootQ.x" true
	// attribute 42: "Spine Front-Back" true
	// attribute 92: "Right Arm Twist In-Out" true
	// attribute 96: "Right Hand In-Out" true
	// muscle 48 moves RightUpperArm about axis 2
}

// stickFigure is a tiny humanoid avatar built in code: the Animator's
// GameObject, then the 15 bones Mecanim requires, every joint with a ±40°
// limit on each axis and no pre- or post-rotation. Avatars read from Unity
// files (decode/catalog's Avatar) carry the same data.
func stickFigure() *model.Avatar {
	type bone struct {
		name   string
		parent int
		human  int
		pos    geom.Vec3
	}
	bones := []bone{
		{"", -1, -1, geom.V3(0, 0, 0)},
		{"Hips", 0, humanoid.Hips, geom.V3(0, 1, 0)},
		{"Hips/LeftUpperLeg", 1, humanoid.LeftUpperLeg, geom.V3(-0.1, -0.05, 0)},
		{"Hips/LeftUpperLeg/LeftLowerLeg", 2, humanoid.LeftLowerLeg, geom.V3(0, -0.45, 0)},
		{"Hips/LeftUpperLeg/LeftLowerLeg/LeftFoot", 3, humanoid.LeftFoot, geom.V3(0, -0.45, 0)},
		{"Hips/RightUpperLeg", 1, humanoid.RightUpperLeg, geom.V3(0.1, -0.05, 0)},
		{"Hips/RightUpperLeg/RightLowerLeg", 5, humanoid.RightLowerLeg, geom.V3(0, -0.45, 0)},
		{"Hips/RightUpperLeg/RightLowerLeg/RightFoot", 6, humanoid.RightFoot, geom.V3(0, -0.45, 0)},
		{"Hips/Spine", 1, humanoid.Spine, geom.V3(0, 0.3, 0)},
		{"Hips/Spine/Head", 8, humanoid.Head, geom.V3(0, 0.4, 0)},
		{"Hips/Spine/LeftUpperArm", 8, humanoid.LeftUpperArm, geom.V3(-0.2, 0.3, 0)},
		{"Hips/Spine/LeftUpperArm/LeftLowerArm", 10, humanoid.LeftLowerArm, geom.V3(-0.28, 0, 0)},
		{"Hips/Spine/LeftUpperArm/LeftLowerArm/LeftHand", 11, humanoid.LeftHand, geom.V3(-0.25, 0, 0)},
		{"Hips/Spine/RightUpperArm", 8, humanoid.RightUpperArm, geom.V3(0.2, 0.3, 0)},
		{"Hips/Spine/RightUpperArm/RightLowerArm", 13, humanoid.RightLowerArm, geom.V3(0.28, 0, 0)},
		{"Hips/Spine/RightUpperArm/RightLowerArm/RightHand", 14, humanoid.RightHand, geom.V3(0.25, 0, 0)},
	}
	const lim = 0.7 // radians, about 40°
	var sk model.Skeleton
	pose := make([]geom.Transform, len(bones))
	names := model.Names{}
	boneIndex := make([]int, humanoid.BodyBoneCount)
	for i := range boneIndex {
		boneIndex[i] = -1
	}
	mass := make([]float32, humanoid.BodyBoneCount)
	identity := make([]int, len(bones)) // the human skeleton is the avatar skeleton
	for i, b := range bones {
		axes := -1
		if b.human >= 0 {
			axes = len(sk.Axes)
			sk.Axes = append(sk.Axes, model.Axes{Pre: geom.IdentityQuat, Post: geom.IdentityQuat,
				Sign: geom.V3(1, 1, 1), Min: geom.V3(-lim, -lim, -lim), Max: geom.V3(lim, lim, lim), Length: b.pos.Len()})
			boneIndex[b.human] = i
			mass[b.human] = 1
		}
		sk.Nodes = append(sk.Nodes, model.SkeletonNode{Parent: b.parent, Axes: axes, PathHash: model.PathHash(b.name)})
		pose[i] = geom.Transform{T: b.pos, R: geom.IdentityQuat, S: geom.V3(1, 1, 1)}
		names[model.PathHash(b.name)] = b.name
		identity[i] = i
	}
	mass[humanoid.Hips], mass[humanoid.Spine], mass[humanoid.Head] = 10, 16, 5
	return &model.Avatar{
		Name: "StickFigure", Skeleton: sk, SkeletonPose: pose, DefaultPose: pose,
		HumanSkeletonIndex: identity, RootMotionBone: -1, Names: names,
		Human: &model.Human{
			RootX:    geom.Transform{T: geom.V3(0, 1, 0), R: geom.IdentityQuat, S: geom.V3(1, 1, 1)},
			Skeleton: sk, Pose: pose, BoneIndex: boneIndex, BoneMass: mass, Scale: 1,
			ArmTwist: 0.5, ForeArmTwist: 0.5, UpperLegTwist: 0.5, LegTwist: 0.5,
		},
	}
}

// NewRig prepares a humanoid avatar once; Apply turns a muscle pose into
// bone rotations on its skeleton (no allocation), and Extract is the
// inverse, for retargeting a pose from one avatar to another.
func ExampleNewRig() {
	rig, err := humanoid.NewRig(stickFigure())
	if err != nil {
		log.Fatal(err)
	}
	sk := rig.Skeleton() // an anim.Skeleton: LocalToModel works on it
	local := make([]geom.Transform, rig.Len())
	world := make([]geom.Transform, rig.Len())
	hand := rig.AvatarNode(humanoid.RightHand)

	var p humanoid.Pose
	rig.Extract(rig.Skeleton().Rest, &p) // the rest pose as muscles: all 0
	fmt.Printf("rest: body at (%.3f, %.3f, %.3f), muscles %.0f\n", p.RootT.X, p.RootT.Y, p.RootT.Z, p.Muscles[0])

	a, _ := model.HumanAttributeByName("Right Arm Down-Up")
	for _, v := range []float32{0, 1, -1} {
		p.Muscles[a-model.FirstMuscleAttribute] = v
		rig.Apply(&p, local)
		anim.LocalToModel(sk, local, world)
		h := world[hand].T
		fmt.Printf("Right Arm Down-Up %+.0f: right hand at (%.3f, %.3f, %.3f)\n", v, h.X, h.Y, h.Z)
	}
	// Output:
	// rest: body at (0.003, 1.302, 0.000), muscles 0
	// Right Arm Down-Up +0: right hand at (0.730, 1.600, 0.000)
	// Right Arm Down-Up +1: right hand at (0.611, 1.925, 0.000)
	// Right Arm Down-Up -1: right hand at (0.611, 1.275, 0.000)
}

// Record turns a generic clip that animates a humanoid avatar's bones into
// a humanoid clip (muscles, RootT, RootQ) that any humanoid avatar can
// play. Here a clip raises the stick figure's right arm 0.7 rad (40°)
// about z over a second; recorded at 4 Hz, its Right Arm Down-Up muscle goes
// from 0 to 1, since 0.7 rad is the joint's limit (between the two keys the
// rotation is a normalised linear blend, not quite uniform in angle).
func ExampleRecord() {
	rig, err := humanoid.NewRig(stickFigure())
	if err != nil {
		log.Fatal(err)
	}
	const arm = "Hips/Spine/RightUpperArm"
	const half = 0.7 / 2 // half the angle: 0.7 rad, the joint's limit
	rot := func(k int, from, to float32) model.Curve {
		return model.Curve{
			Target: model.Target{Path: arm, PathHash: model.PathHash(arm), PathKnown: true, ClassID: model.ClassTransform,
				Attribute: uint32(model.PropRotation), Transform: model.PropRotation, Component: k},
			Kind: model.CurveDense, Samples: []float32{from, to}, DenseRate: 1,
		}
	}
	raise := &model.Clip{Name: "Raise", SampleRate: 4, Stop: 1, Curves: []model.Curve{
		rot(2, 0, float32(math.Sin(half))), rot(3, 1, float32(math.Cos(half))),
	}}
	generic, err := anim.Bake(raise, rig.Skeleton())
	if err != nil {
		log.Fatal(err)
	}
	human, err := humanoid.Record(generic, rig, 4, "Raise (humanoid)")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%q: humanoid %v, %d curves at %g Hz\n", human.Name, human.Humanoid, len(human.Curves), human.SampleRate)
	for _, c := range human.Curves {
		if c.Target.Property == "Right Arm Down-Up" {
			fmt.Printf("%s (attribute %d):", c.Target.Property, c.Target.Attribute)
			for _, v := range c.Samples {
				fmt.Printf(" %.3f", v)
			}
			fmt.Println()
		}
	}
	// Output:
	// "Raise (humanoid)": humanoid true, 130 curves at 4 Hz
	// Right Arm Down-Up (attribute 90): 0.000 0.248 0.500 0.752 1.000
}
