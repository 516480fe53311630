package model

import "strings"

// BodyPart is one of the humanoid body parts an AvatarMask switches on or
// off, in the order of Unity's AvatarMaskBodyPart (the order of an
// AvatarMask asset's m_Mask list).
type BodyPart int

// The AvatarMask body parts, in Unity's order.
const (
	PartRoot BodyPart = iota
	PartBody
	PartHead
	PartLeftLeg
	PartRightLeg
	PartLeftArm
	PartRightArm
	PartLeftFingers
	PartRightFingers
	PartLeftFootIK
	PartRightFootIK
	PartLeftHandIK
	PartRightHandIK
	BodyPartCount
)

var bodyPartNames = [BodyPartCount]string{"Root", "Body", "Head", "LeftLeg", "RightLeg", "LeftArm", "RightArm",
	"LeftFingers", "RightFingers", "LeftFootIK", "RightFootIK", "LeftHandIK", "RightHandIK"}

// String returns the part's name as Unity's AvatarMaskBodyPart spells it.
func (p BodyPart) String() string {
	if p >= 0 && p < BodyPartCount {
		return bodyPartNames[p]
	}
	return "BodyPart(?)"
}

// Bit positions of a HumanMask: Unity's HumanPoseMask numbers the body's
// position and rotation (RootT/RootQ) first, then the 55 body muscles in
// MuscleNames order, the four IK goals (left foot, right foot, left hand,
// right hand), each hand's fingers as one bit, and last the translation
// degrees of freedom of 21 bones (spine, chest, upper chest, neck, head,
// then per leg upper leg, lower leg, foot, toes and per arm shoulder, upper
// arm, lower arm, hand). The full mask, 83 bits, is what every layer of
// every corpus controller stores (words 0xFFFFFFFF, 0xFFFFFFFF, 0x7FFFF);
// files from Unity 5.0 and 5.1 store two words (62 bits, no translation
// bits).
const (
	MaskRootBit      = 0
	MaskMuscleBit    = 1
	MaskGoalBit      = MaskMuscleBit + BodyMuscleCount
	MaskLeftHandBit  = MaskGoalBit + 4
	MaskRightHandBit = MaskLeftHandBit + 1
	MaskTDoFBit      = MaskRightHandBit + 1
	MaskBits         = MaskTDoFBit + 21
)

// HumanMask is a layer's humanoid body mask as a compiled controller
// stores it (Unity's HumanPoseMask): which parts of a humanoid pose the
// layer animates. A layer animates its clips' values where the bit is set
// and leaves what the layers below made where it is not.
type HumanMask [3]uint32

// FullHumanMask returns the mask that animates everything.
func FullHumanMask() HumanMask {
	var m HumanMask
	for i := 0; i < MaskBits; i++ {
		m.set(i, true)
	}
	return m
}

// HumanMaskFromWords reads the words a compiled layer stores (word0,
// word1, word2). No words at all (a source that recorded no mask) mean the
// full mask; two words (Unity 5.0, 5.1) have no translation bits, which
// read as set; bits past MaskBits are ignored.
func HumanMaskFromWords(words []uint32) HumanMask {
	if len(words) == 0 {
		return FullHumanMask()
	}
	var m HumanMask
	copy(m[:], words)
	m[2] &= 1<<(MaskBits-64) - 1
	if len(words) == 2 {
		// Unity 5.0 and 5.1 had no translation DoF: nothing for their bits
		// to leave out.
		for i := MaskTDoFBit; i < MaskBits; i++ {
			m.set(i, true)
		}
	}
	return m
}

// partRanges gives per body part its runs of mask bits: [first, end).
// The muscle runs are the body (spine, chest, upper chest), head (neck,
// head, eyes, jaw), each leg and each arm in MuscleNames order. Which
// translation bits belong to a part is inferred from the bones they move
// (Unity's full mask sets them all; no partial mask was available to check).
var partRanges = [BodyPartCount][][2]int{
	PartRoot:         {{MaskRootBit, MaskRootBit + 1}},
	PartBody:         {{MaskMuscleBit, MaskMuscleBit + 9}, {MaskTDoFBit, MaskTDoFBit + 3}},
	PartHead:         {{MaskMuscleBit + 9, MaskMuscleBit + 21}, {MaskTDoFBit + 3, MaskTDoFBit + 5}},
	PartLeftLeg:      {{MaskMuscleBit + 21, MaskMuscleBit + 29}, {MaskTDoFBit + 5, MaskTDoFBit + 9}},
	PartRightLeg:     {{MaskMuscleBit + 29, MaskMuscleBit + 37}, {MaskTDoFBit + 9, MaskTDoFBit + 13}},
	PartLeftArm:      {{MaskMuscleBit + 37, MaskMuscleBit + 46}, {MaskTDoFBit + 13, MaskTDoFBit + 17}},
	PartRightArm:     {{MaskMuscleBit + 46, MaskMuscleBit + 55}, {MaskTDoFBit + 17, MaskTDoFBit + 21}},
	PartLeftFingers:  {{MaskLeftHandBit, MaskLeftHandBit + 1}},
	PartRightFingers: {{MaskRightHandBit, MaskRightHandBit + 1}},
	PartLeftFootIK:   {{MaskGoalBit, MaskGoalBit + 1}},
	PartRightFootIK:  {{MaskGoalBit + 1, MaskGoalBit + 2}},
	PartLeftHandIK:   {{MaskGoalBit + 2, MaskGoalBit + 3}},
	PartRightHandIK:  {{MaskGoalBit + 3, MaskGoalBit + 4}},
}

// HumanMaskFromParts compiles an AvatarMask's body-part list (m_Mask: one
// value per BodyPart, non-zero for on) into the mask a layer stores. A list
// shorter than BodyPartCount leaves the missing parts on, as a new
// AvatarMask has every part on.
func HumanMaskFromParts(parts []uint32) HumanMask {
	var m HumanMask
	for p := PartRoot; p < BodyPartCount; p++ {
		on := int(p) >= len(parts) || parts[p] != 0
		for _, r := range partRanges[p] {
			for i := r[0]; i < r[1]; i++ {
				m.set(i, on)
			}
		}
	}
	return m
}

func (m *HumanMask) set(i int, on bool) {
	if on {
		m[i/32] |= 1 << (i % 32)
	} else {
		m[i/32] &^= 1 << (i % 32)
	}
}

// Bit reports bit i (false outside 0..MaskBits-1).
func (m HumanMask) Bit(i int) bool {
	return i >= 0 && i < MaskBits && m[i/32]&(1<<(i%32)) != 0
}

// Root reports whether the layer animates the body's position and
// rotation (RootT, RootQ).
func (m HumanMask) Root() bool { return m.Bit(MaskRootBit) }

// Muscle reports whether the layer animates muscle i (MuscleNames order):
// a body muscle by its own bit, a finger muscle by its hand's bit.
func (m HumanMask) Muscle(i int) bool {
	switch {
	case i < 0 || i >= MuscleCount:
		return false
	case i < BodyMuscleCount:
		return m.Bit(MaskMuscleBit + i)
	case i < BodyMuscleCount+20:
		return m.Bit(MaskLeftHandBit)
	default:
		return m.Bit(MaskRightHandBit)
	}
}

// Goal reports whether the layer animates IK goal g (0 left foot, 1 right
// foot, 2 left hand, 3 right hand).
func (m HumanMask) Goal(g int) bool { return g >= 0 && g < 4 && m.Bit(MaskGoalBit+g) }

// Full reports whether every bit is set.
func (m HumanMask) Full() bool { return m == FullHumanMask() }

// Part reports whether body part p is on, and whether its bits agree (a
// mask compiled from an AvatarMask sets a part's rotation bits all or
// none; the translation bits, whose assignment to parts is inferred, are
// not consulted).
func (m HumanMask) Part(p BodyPart) (on, consistent bool) {
	if p < 0 || p >= BodyPartCount {
		return false, false
	}
	set, n := 0, 0
	for _, r := range partRanges[p] {
		if r[0] >= MaskTDoFBit {
			continue
		}
		for i := r[0]; i < r[1]; i++ {
			n++
			if m.Bit(i) {
				set++
			}
		}
	}
	return set == n, set == 0 || set == n
}

// Parts lists the body parts that are on, and whether every part's bits
// agree (see Part).
func (m HumanMask) Parts() (on []BodyPart, consistent bool) {
	consistent = true
	for p := PartRoot; p < BodyPartCount; p++ {
		o, c := m.Part(p)
		if o {
			on = append(on, p)
		}
		consistent = consistent && c
	}
	return on, consistent
}

// String describes the mask for people: "full", "none", or the parts that
// are on ("Body+Head+LeftArm"), marked "(mixed)" when some part's bits
// disagree.
func (m HumanMask) String() string {
	on, ok := m.Parts()
	var s string
	switch {
	case m.Full():
		return "full"
	case len(on) == 0:
		s = "none"
	case len(on) == int(BodyPartCount):
		s = "all parts"
	default:
		names := make([]string, len(on))
		for i, p := range on {
			names[i] = p.String()
		}
		s = strings.Join(names, "+")
	}
	if !ok {
		s += " (mixed)"
	}
	return s
}
