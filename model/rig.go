package model

import "github.com/mecanim/mecanim/geom"

// RigNode is one GameObject of a hierarchy with its Transform.
type RigNode struct {
	Name   string
	Path   string // below the rig's root GameObject ("" for the root)
	Parent int    // -1 for the root
	Local  geom.Transform
	// GameObject and Transform identify the source objects (zero if none).
	GameObject, Transform Ref
}

// AnimatorInfo is an Animator component: what it plays and on what.
type AnimatorInfo struct {
	Name string // the GameObject's name
	// Component is the Animator itself (its path id in its file); what
	// tells two Animators on GameObjects of one name apart.
	Component       Ref
	GameObject      Ref
	Controller      Ref
	Avatar          Ref
	ApplyRootMotion bool
	Enabled         bool
}

// LegacyAnimation is an Animation component (the legacy animation
// system): the clips it plays on its GameObject's hierarchy.
type LegacyAnimation struct {
	// Component is the Animation itself, GameObject the one it is on.
	Component, GameObject Ref
	// Clip is the clip it plays by default (m_Animation); Clips all the
	// clips it holds (m_Animations).
	Clip              Ref
	Clips             []Ref
	PlayAutomatically bool
}

// Rig is a character's hierarchy of GameObjects: below an Animator's
// GameObject (the nested-Animator rule: a rig stops at Animators below it
// that have a controller), below a legacy Animation component's, or, for
// skinned meshes that no Animator or Animation drives, the hierarchy
// their GameObjects are in (Animator and Legacy both nil). Nodes are
// parents before children; node 0 is the root.
type Rig struct {
	Name     string
	Nodes    []RigNode
	Animator *AnimatorInfo
	Legacy   *LegacyAnimation
}

// Names returns the rig's path names keyed by their hashes, for resolving
// clip bindings.
func (r *Rig) Names() Names {
	n := make(Names, len(r.Nodes))
	for _, nd := range r.Nodes {
		n[PathHash(nd.Path)] = nd.Path
	}
	return n
}
