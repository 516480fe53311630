package compiled

import "github.com/mecanim/mecanim/model"

// requiredBones are the human bones Unity's avatar builder requires
// (HumanTrait.RequiredBone): an avatar without one is not humanoid.
var requiredBones = []model.HumanBone{
	model.HumanHips, model.HumanLeftUpperLeg, model.HumanRightUpperLeg, model.HumanLeftLowerLeg, model.HumanRightLowerLeg,
	model.HumanLeftFoot, model.HumanRightFoot, model.HumanSpine, model.HumanHead, model.HumanLeftUpperArm,
	model.HumanRightUpperArm, model.HumanLeftLowerArm, model.HumanRightLowerArm, model.HumanLeftHand, model.HumanRightHand,
}

// humanNodes returns the human skeleton's nodes (none for a generic
// avatar).
func humanNodes(a *model.Avatar) []model.SkeletonNode {
	if a.Human == nil {
		return nil
	}
	return a.Human.Skeleton.Nodes
}

// checkAvatarMeaning checks what an avatar's indexes mean, beyond their
// ranges: every skeleton node is named in the avatar's m_TOS (Unity builds
// the table from the skeleton's own paths, so a node missing from it is a
// damaged id; the root's empty path, hash 0, may go unnamed), every human bone lies on a node with axes (its muscles'
// frame), no two human bones share a node, and the human bones form
// Unity's human hierarchy (each below its nearest present parent bone:
// the spine below the hips, a finger below its hand), the bones Unity
// requires present, each skeleton with one root, every human node in the
// avatar skeleton. It returns the field at fault.
func checkAvatarMeaning(a *model.Avatar, hasTOS bool) (string, error) {
	if hasTOS {
		for i, n := range a.Skeleton.Nodes {
			if _, ok := a.Names[n.PathHash]; !ok && n.PathHash != 0 {
				return "m_Avatar.m_AvatarSkeleton.data.m_ID", errf(ErrMalformed, "node %d's id %d is not in m_TOS", i, n.PathHash)
			}
		}
		if a.Human != nil {
			for i, n := range a.Human.Skeleton.Nodes {
				if _, ok := a.Names[n.PathHash]; !ok && n.PathHash != 0 {
					return "m_Avatar.m_Human.data.m_Skeleton.data.m_ID", errf(ErrMalformed, "node %d's id %d is not in m_TOS", i, n.PathHash)
				}
			}
		}
	}
	// Unity builds a skeleton from one Transform hierarchy: node 0 is its
	// only root.
	for _, sk := range []struct {
		field string
		nodes []model.SkeletonNode
	}{{"m_Avatar.m_AvatarSkeleton.data.m_Node", a.Skeleton.Nodes}, {"m_Avatar.m_Human.data.m_Skeleton.data.m_Node", humanNodes(a)}} {
		for i, n := range sk.nodes {
			if i > 0 && n.Parent < 0 {
				return sk.field, errf(ErrMalformed, "node %d has no parent: only node 0 is the root", i)
			}
		}
	}
	for i, x := range a.HumanSkeletonIndex {
		if x < 0 {
			return "m_Avatar.m_HumanSkeletonIndexArray", errf(ErrMalformed, "human node %d is in no node of the avatar skeleton", i)
		}
	}
	h := a.Human
	if h == nil {
		return "", nil
	}
	if len(h.BoneIndex) == model.HumanBodyBoneCount {
		for _, b := range requiredBones {
			if h.BoneIndex[b] < 0 {
				return "m_Avatar.m_Human.data.m_HumanBoneIndex", errf(ErrMalformed, "the human has no %v, a bone every humanoid avatar has", b)
			}
		}
	}
	// Layouts with another number of body bones (before UpperChest) number
	// them otherwise: their order is not checked here.
	body := len(h.BoneIndex) == model.HumanBodyBoneCount
	node := func(b model.HumanBone) (int, string) {
		k := int(b)
		switch {
		case k < model.HumanBodyBoneCount:
			if body {
				return h.BoneIndex[k], "m_Avatar.m_Human.data.m_HumanBoneIndex"
			}
		case k < model.HumanBodyBoneCount+15:
			if k -= model.HumanBodyBoneCount; k < len(h.LeftHand) && len(h.LeftHand) == 15 {
				return h.LeftHand[k], "m_Avatar.m_Human.data.m_LeftHand"
			}
		default:
			if k -= model.HumanBodyBoneCount + 15; k < len(h.RightHand) && len(h.RightHand) == 15 {
				return h.RightHand[k], "m_Avatar.m_Human.data.m_RightHand"
			}
		}
		return -1, ""
	}
	nodes := h.Skeleton.Nodes
	holder := map[int]model.HumanBone{}
	for b := model.HumanBone(0); int(b) < model.HumanBoneCount; b++ {
		n, field := node(b)
		if n < 0 {
			continue
		}
		if nodes[n].Axes < 0 {
			return field, errf(ErrMalformed, "human bone %v is on node %d, which has no axes (m_AxesId %d)", b, n, nodes[n].Axes)
		}
		if o, dup := holder[n]; dup {
			return field, errf(ErrMalformed, "human bones %v and %v are both on node %d", o, b, n)
		}
		holder[n] = b
		p := b.Parent()
		for p >= 0 {
			if pn, _ := node(p); pn >= 0 {
				break
			}
			p = p.Parent()
		}
		if p < 0 {
			continue
		}
		pn, _ := node(p)
		below := false
		for x, depth := nodes[n].Parent, 0; x >= 0 && depth <= len(nodes); x, depth = nodes[x].Parent, depth+1 {
			if x == pn {
				below = true
				break
			}
		}
		if !below {
			return field, errf(ErrMalformed, "human bone %v is on node %d, not below %v (node %d): not Unity's human hierarchy", b, n, p, pn)
		}
	}
	return "", nil
}
