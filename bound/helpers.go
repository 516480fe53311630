package bound

import "github.com/mecanim/mecanim/humanoid"

// Helpers marks the joints of a humanoid character that are not part of
// its body (IK targets, props, twist helpers hung off the skeleton), which
// pictures and the viewer draw faintly so the person shows among them; nil
// for a character that is not humanoid.
func (c *Character) Helpers() []bool {
	if c.human == nil {
		return nil
	}
	n := c.skel.Len()
	human := make([]bool, n)
	for b := 0; b < humanoid.BoneCount; b++ {
		if j := c.human.AvatarNode(b); j >= 0 && j < n {
			human[j] = true
		}
	}
	return humanHelpers(c.skel.Parents, human)
}

// TraceJoint is the joint whose path shows where the clip carries the
// character: a humanoid's hips, else the joint a generic clip moves
// through the world (anim.RootRule), -1 for none.
func (m *Motion) TraceJoint() int {
	if m.human != nil {
		return m.on.human.AvatarNode(humanoid.Hips)
	}
	return m.trace
}

// humanHelpers marks the joints of a humanoid skeleton that are not part of
// the body: those that are not human bones, not between two human bones
// (an unmapped spine joint is body), and not below a human bone that has no
// human bone below it (fingertip and head-top markers are body).
func humanHelpers(parents []int, human []bool) []bool {
	n := len(parents)
	below := make([]bool, n) // a human bone is this joint or below it
	for j := n - 1; j >= 0; j-- {
		if human[j] {
			below[j] = true
		}
		if p := parents[j]; p >= 0 && below[j] {
			below[p] = true
		}
	}
	humanKids := make([]bool, n) // a human bone is strictly below
	for j, p := range parents {
		if p >= 0 && below[j] {
			humanKids[p] = true
		}
	}
	above := make([]bool, n) // a human bone is strictly above
	tip := make([]bool, n)   // below a human bone that ends a chain
	helper := make([]bool, n)
	for j, p := range parents {
		if p >= 0 {
			above[j] = above[p] || human[p]
			tip[j] = tip[p] || (human[p] && !humanKids[p])
		}
		helper[j] = !(human[j] || (above[j] && below[j]) || tip[j])
	}
	return helper
}
