package avatarbuild

import (
	"fmt"
	"strings"

	"github.com/mecanim/mecanim/model"
)

// NeedsParents reports whether a description leaves its bones' parents to
// the hierarchy: every bone after the first (the root) has an empty
// m_ParentName, as descriptions written by AvatarBuilder.BuildHumanAvatar
// and by UniVRM's importer are. Unity then takes each bone's parent from the
// GameObjects the avatar is built on; Build needs them given (WithParents).
func NeedsParents(d *model.HumanDescription) bool {
	if d == nil || len(d.Skeleton) < 2 {
		return false
	}
	for _, b := range d.Skeleton[1:] {
		if b.ParentName != "" {
			return false
		}
	}
	return true
}

// WithParents returns a copy of d whose empty parent names are taken from a
// hierarchy, as Unity takes them from the GameObjects an avatar is built on:
// paths are the hierarchy's nodes as slash-separated paths below its root
// ("" the root itself), in the hierarchy's depth-first order (a rig's nodes,
// or a stored avatar skeleton's paths from its name table). The k-th bone of
// a name in the description is the k-th node of that name in paths, so
// repeated names resolve in order. A bone of d that names no node of the
// hierarchy is an error naming it. Parent names d gives are kept.
func WithParents(d *model.HumanDescription, paths []string) (*model.HumanDescription, error) {
	if d == nil || len(d.Skeleton) == 0 {
		return d, nil
	}
	byLeaf := map[string][]string{} // node name -> paths of that name, in order
	for _, p := range paths {
		if p == "" {
			continue
		}
		byLeaf[leaf(p)] = append(byLeaf[leaf(p)], p)
	}
	out := *d
	out.Skeleton = append([]model.SkeletonBone(nil), d.Skeleton...)
	root := out.Skeleton[0].Name
	used := map[string]int{}
	for i := 1; i < len(out.Skeleton); i++ {
		b := &out.Skeleton[i]
		k := used[b.Name]
		used[b.Name]++
		if b.ParentName != "" {
			continue
		}
		cands := byLeaf[b.Name]
		if k >= len(cands) {
			return nil, fmt.Errorf("%w: bone %d %q is not in the hierarchy its parent is taken from", ErrMalformed, i, b.Name)
		}
		parent, _, ok := cutLast(cands[k])
		if !ok {
			b.ParentName = root // a child of the hierarchy's root
		} else {
			b.ParentName = leaf(parent)
		}
	}
	return &out, nil
}

// AvatarPaths lists a stored avatar's skeleton as paths in its node order
// (the hierarchy it was built on, depth first), for WithParents; a node its
// name table does not name gives "" (no bone of a description matches it).
func AvatarPaths(a *model.Avatar) []string {
	out := make([]string, len(a.Skeleton.Nodes))
	for i, n := range a.Skeleton.Nodes {
		out[i], _ = a.Names.Lookup(n.PathHash)
	}
	return out
}

// leaf is a path's last name.
func leaf(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}

// cutLast splits a path into its parent path and last name; ok is false for
// a path of one name (a child of the root).
func cutLast(p string) (parent, name string, ok bool) {
	i := strings.LastIndexByte(p, '/')
	if i < 0 {
		return "", p, false
	}
	return p[:i], p[i+1:], true
}

// Rebuild builds a stored avatar again from the human description it keeps,
// as Unity built it: where the description leaves the bones' parents to the
// hierarchy, the hierarchy is the avatar's own skeleton (the GameObjects it
// was built on). Compare measures the result against a.
func Rebuild(a *model.Avatar) (*model.Avatar, error) {
	d := a.Description
	if NeedsParents(d) {
		var err error
		if d, err = WithParents(d, AvatarPaths(a)); err != nil {
			return nil, fmt.Errorf("avatarbuild: avatar %q: %w", a.Name, err)
		}
	}
	return Build(a.Name, d)
}
