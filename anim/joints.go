package anim

import (
	"fmt"

	"github.com/mecanim/mecanim/geom"
)

// Joints is a part of a skeleton: the joints a caller reads and every
// ancestor of theirs, in skeleton order. A server that reads a few bones
// (hitboxes on the head, hands and feet) poses and composes only these,
// where a picture or an export needs them all. It is immutable and shared.
type Joints struct {
	n       int     // the skeleton's joint count
	list    []int32 // the joints, ascending (parents before children)
	parents []int32 // parents[k] is list[k]'s parent joint, -1 for a root
	in      []bool  // in[j] says joint j is in the part
	// skel is the skeleton's parents when the part is all of it, which
	// LocalToModelJoints then composes as LocalToModel does (in vectors).
	skel []int
}

// Joints returns the part of s that reading joints read needs: those joints
// and their ancestors. It fails on a joint outside s.
func (s *Skeleton) Joints(read ...int) (*Joints, error) {
	n := s.Len()
	j := &Joints{n: n, in: make([]bool, n)}
	for _, r := range read {
		if r < 0 || r >= n {
			return nil, fmt.Errorf("anim: joint %d is not one of the skeleton's %d", r, n)
		}
		for i := r; i >= 0 && !j.in[i]; i = s.Parents[i] {
			j.in[i] = true
		}
	}
	for i, ok := range j.in {
		if ok {
			j.list = append(j.list, int32(i))
			j.parents = append(j.parents, int32(s.Parents[i]))
		}
	}
	if len(j.list) == n {
		j.skel = s.Parents[:n:n]
	}
	return j, nil
}

// AllJoints returns the part of s that is all of it.
func (s *Skeleton) AllJoints() *Joints {
	all := make([]int, s.Len())
	for i := range all {
		all[i] = i
	}
	j, _ := s.Joints(all...) // every index is in range
	return j
}

// Len returns how many joints the part holds.
func (j *Joints) Len() int { return len(j.list) }

// At returns the part's k-th joint (ascending, 0 ≤ k < Len()).
func (j *Joints) At(k int) int { return int(j.list[k]) }

// Has reports whether joint i is in the part.
func (j *Joints) Has(i int) bool { return i >= 0 && i < len(j.in) && j.in[i] }

// SkeletonLen returns the joint count of the skeleton the part was made
// from, which the poses it is used with hold.
func (j *Joints) SkeletonLen() int { return j.n }

// LocalToModelJoints is LocalToModel for the joints of part j only: each
// of them composed with its parent's model transform (which j holds, being
// closed under parents). The other joints of out are left as they are.
// local and out hold at least j.SkeletonLen() transforms; out may not
// alias local.
func LocalToModelJoints(j *Joints, local, out []geom.Transform) {
	local, out = local[:j.n], out[:j.n]
	if j.skel != nil {
		if haveVectorPose {
			localToModelVector(j.skel, local, out)
		} else {
			localToModelScalar(j.skel, local, out)
		}
		return
	}
	for k, i := range j.list {
		p := j.parents[k]
		if p < 0 {
			out[i] = local[i]
			continue
		}
		out[i].SetMul(&out[p], &local[i])
	}
}
