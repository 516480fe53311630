package model

import (
	"sort"
	"strings"

	"github.com/mecanim/mecanim/geom"
)

// RigOfPaths makes a hierarchy of the GameObjects a clip's curves name,
// for a clip whose character the inputs lack: the root (the Animator's
// GameObject, path "", named name), every path a curve names and every
// path above it, each node named by its path's last part; a path no name
// table names is a node "#hash" (UnnamedPath) below the root, which binds
// by its hash. Every node rests at the identity, since no scene gives its
// place. Paths are sorted, parents before children, so the same clip gives
// the same rig.
func RigOfPaths(name string, c *Clip) *Rig {
	seen := map[string]bool{"": true}
	var paths []string
	add := func(t *Target) {
		p := t.Path
		if !t.PathKnown {
			if t.PathHash == 0 {
				return
			}
			p = UnnamedPath(t.PathHash)
		}
		for p != "" && !seen[p] {
			seen[p] = true
			paths = append(paths, p)
			i := strings.LastIndexByte(p, '/')
			if i < 0 || p[0] == '#' {
				break
			}
			p = p[:i]
		}
	}
	for i := range c.Curves {
		add(&c.Curves[i].Target)
	}
	for i := range c.IntCurves {
		add(&c.IntCurves[i].Target)
	}
	for i := range c.ObjectCurves {
		add(&c.ObjectCurves[i].Target)
	}
	// Sorted, a parent comes before its children ("a" < "a/b").
	sort.Strings(paths)
	r := &Rig{Name: name, Nodes: make([]RigNode, 0, 1+len(paths))}
	r.Nodes = append(r.Nodes, RigNode{Name: name, Parent: -1, Local: geom.Identity})
	index := map[string]int{"": 0}
	for _, p := range paths {
		parent, base := "", p
		if i := strings.LastIndexByte(p, '/'); i >= 0 && p[0] != '#' {
			parent, base = p[:i], p[i+1:]
		}
		index[p] = len(r.Nodes)
		r.Nodes = append(r.Nodes, RigNode{Name: base, Path: p, Parent: index[parent], Local: geom.Identity})
	}
	return r
}
