package avatarbuild

import "github.com/mecanim/mecanim/humanoid"

// baseMass is each body bone's share of the body's mass, in 165ths, when
// the avatar has every bone (every corpus avatar's m_HumanBoneMass is these
// over 165 after the moves masses below makes): the hips 24, an upper leg
// 20, a lower leg 8, a foot 1.6 and its toes 0.4, the spine 5, the chest
// and the upper chest 24 each, the neck 2, the head 8, a shoulder 1, an
// upper arm 4, a forearm 3, a hand 1; eyes and jaw weigh nothing.
var baseMass = [humanoid.BodyBoneCount]float64{
	humanoid.Hips: 24, humanoid.LeftUpperLeg: 20, humanoid.RightUpperLeg: 20,
	humanoid.LeftLowerLeg: 8, humanoid.RightLowerLeg: 8, humanoid.LeftFoot: 1.6, humanoid.RightFoot: 1.6,
	humanoid.Spine: 5, humanoid.Chest: 24, humanoid.UpperChest: 24, humanoid.Neck: 2, humanoid.Head: 8,
	humanoid.LeftShoulder: 1, humanoid.RightShoulder: 1, humanoid.LeftUpperArm: 4, humanoid.RightUpperArm: 4,
	humanoid.LeftLowerArm: 3, humanoid.RightLowerArm: 3, humanoid.LeftHand: 1, humanoid.RightHand: 1,
	humanoid.LeftToes: 0.4, humanoid.RightToes: 0.4,
}

// masses returns m_HumanBoneMass: each bone's base mass, a missing bone's
// moved to its nearest mapped ancestor (a missing neck's to the upper chest,
// chest or spine, missing shoulders' to the trunk, missing toes' to their
// foot), 0 for a missing bone.
func masses(bones *[humanoid.BoneCount]int) []float32 {
	var m [humanoid.BodyBoneCount]float64
	for b := 0; b < humanoid.BodyBoneCount; b++ {
		to := b
		if bones[b] < 0 {
			to = presentParent(b, bones)
		}
		if to >= 0 {
			m[to] += baseMass[b]
		}
	}
	out := make([]float32, humanoid.BodyBoneCount)
	for b := range out {
		out[b] = float32(m[b] / 165)
	}
	return out
}
