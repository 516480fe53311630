package anim

import (
	"fmt"

	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
)

// Skeleton is a hierarchy of joints named by their paths below the animated
// GameObject, with each joint's rest (bind) local transform. Parents come
// before their children; a root's parent is -1. A Skeleton is immutable once
// built and shared by every clip baked against it. Build it with
// NewSkeleton or SkeletonFromRig (which make its lookup tables); Bake given
// a literal works on a checked copy.
type Skeleton struct {
	Paths   []string
	Parents []int
	Rest    []geom.Transform

	byPath map[string]int
	byHash map[uint32]int
	depth  []int
}

// NewSkeleton builds a skeleton from parallel slices of paths, parent
// indexes and rest transforms (rest may be nil: every joint rests at the
// identity). It checks that the slices agree in length and that every parent
// comes before its child. A path written as model.UnnamedPath (a joint a
// name table could not name) is found by the hash it carries. When two
// joints share a path (Unity allows sibling
// GameObjects of the same name) the first one is the one clips drive, as in
// Unity's path lookup.
func NewSkeleton(paths []string, parents []int, rest []geom.Transform) (*Skeleton, error) {
	n := len(paths)
	if len(parents) != n {
		return nil, fmt.Errorf("anim: skeleton has %d paths but %d parents", n, len(parents))
	}
	if rest != nil && len(rest) != n {
		return nil, fmt.Errorf("anim: skeleton has %d paths but %d rest transforms", n, len(rest))
	}
	s := &Skeleton{
		Paths:   append([]string(nil), paths...),
		Parents: append([]int(nil), parents...),
		Rest:    make([]geom.Transform, n),
		byPath:  make(map[string]int, n),
		byHash:  make(map[uint32]int, n),
		depth:   make([]int, n),
	}
	for i := range s.Rest {
		if rest != nil {
			s.Rest[i] = rest[i]
		} else {
			s.Rest[i] = geom.Identity
		}
	}
	for i, p := range parents {
		if p < -1 || p >= i {
			return nil, fmt.Errorf("anim: joint %d (%q) has parent %d: parents must come before their children", i, paths[i], p)
		}
		if p >= 0 {
			s.depth[i] = s.depth[p] + 1
		}
		if _, dup := s.byPath[paths[i]]; !dup {
			s.byPath[paths[i]] = i
		}
		h := model.HashOfPath(paths[i])
		if _, dup := s.byHash[h]; !dup {
			s.byHash[h] = i
		}
	}
	return s, nil
}

// SkeletonFromRig builds the skeleton of a rig's Transform hierarchy: one
// joint per rig node, named by the node's path, resting at its local
// transform.
func SkeletonFromRig(r *model.Rig) (*Skeleton, error) {
	if r == nil {
		return nil, fmt.Errorf("anim: nil rig")
	}
	n := len(r.Nodes)
	paths := make([]string, n)
	parents := make([]int, n)
	rest := make([]geom.Transform, n)
	for i, nd := range r.Nodes {
		paths[i], parents[i], rest[i] = nd.Path, nd.Parent, nd.Local
	}
	s, err := NewSkeleton(paths, parents, rest)
	if err != nil {
		return nil, fmt.Errorf("anim: rig %q: %w", r.Name, err)
	}
	return s, nil
}

// SkeletonFromAvatar builds the skeleton an avatar describes: its nodes
// named by its name table (model.UnnamedPath where the table lacks one),
// resting at its default pose (the skeleton pose where the default is
// missing). It is what a clip plays on when the files hold the avatar but
// not the character's GameObjects.
func SkeletonFromAvatar(a *model.Avatar) (*Skeleton, error) {
	if a == nil {
		return nil, fmt.Errorf("anim: nil avatar")
	}
	n := len(a.Skeleton.Nodes)
	rest := a.DefaultPose
	if len(rest) != n {
		rest = a.SkeletonPose
	}
	if len(rest) != n {
		rest = nil
	}
	paths := make([]string, n)
	parents := make([]int, n)
	for i, nd := range a.Skeleton.Nodes {
		p, ok := a.Names.Lookup(nd.PathHash)
		if !ok {
			p = model.UnnamedPath(nd.PathHash)
		}
		paths[i], parents[i] = p, nd.Parent
	}
	s, err := NewSkeleton(paths, parents, rest)
	if err != nil {
		return nil, fmt.Errorf("anim: avatar %q: %w", a.Name, err)
	}
	return s, nil
}

// Len returns the number of joints.
func (s *Skeleton) Len() int { return len(s.Paths) }

// Index returns the joint with the given path.
func (s *Skeleton) Index(path string) (int, bool) {
	i, ok := s.byPath[path]
	return i, ok
}

// IndexHash returns the joint whose path has the given model.PathHash, for
// bindings that only know the hash.
func (s *Skeleton) IndexHash(h uint32) (int, bool) {
	i, ok := s.byHash[h]
	return i, ok
}

// Depth returns how many ancestors joint i has (0 for a root).
func (s *Skeleton) Depth(i int) int {
	d := 0
	for p := s.Parents[i]; p >= 0 && d <= len(s.Parents); p = s.Parents[p] {
		d++
	}
	return d
}

// Resolve returns the joint a Transform channel's target drives: the joint
// of its path when the path is known and the skeleton has it, else the
// joint whose path has its path hash (Bake's rule).
func (s *Skeleton) Resolve(t *model.Target) (int, bool) {
	if t.PathKnown {
		if i, ok := s.byPath[t.Path]; ok {
			return i, true
		}
	}
	return s.IndexHash(t.PathHash)
}
