package model

import (
	"testing"
)

// A clip's own paths make a rig: every path and the paths above it,
// parents first, named by their last part; a path no table names hangs
// below the root as #hash, the form that binds by its hash.
func TestRigOfPathsHoldsEveryPathAndItsParents(t *testing.T) {
	c := &Clip{Curves: []Curve{
		{Target: Target{Path: "Stage/Cam", PathKnown: true, ClassID: ClassTransform}},
		{Target: Target{Path: "Stage/Light/Spot", PathKnown: true, ClassID: 108}},
		{Target: Target{Path: "", PathKnown: true, ClassID: ClassTransform}},
		{Target: Target{PathHash: 1234, ClassID: ClassTransform}},
	}, IntCurves: []IntCurve{{Target: Target{Path: "Stage/Cam", PathKnown: true, ClassID: 114}}}}
	r := RigOfPaths("Cut", c)
	want := []struct {
		name, path string
		parent     int
	}{{"Cut", "", -1}, {"#1234", "#1234", 0}, {"Stage", "Stage", 0}, {"Cam", "Stage/Cam", 2}, {"Light", "Stage/Light", 2}, {"Spot", "Stage/Light/Spot", 4}}
	if len(r.Nodes) != len(want) {
		t.Fatalf("nodes %+v, want %d", r.Nodes, len(want))
	}
	for i, w := range want {
		n := r.Nodes[i]
		if n.Name != w.name || n.Path != w.path || n.Parent != w.parent {
			t.Errorf("node %d: %q %q parent %d, want %q %q %d", i, n.Name, n.Path, n.Parent, w.name, w.path, w.parent)
		}
	}
	if HashOfPath(r.Nodes[1].Path) != 1234 {
		t.Errorf("the unnamed node does not bind by its hash")
	}
}
