package compiled

import (
	"errors"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/model"
)

// TestCorpusRigs builds the rigs of every corpus file and proves that each
// rig whose Animator has an avatar in the same file covers the avatar's
// human skeleton: every human node's path hash is a path of the rig (so the
// hashed paths agree with what Unity compiled).
func TestCorpusRigs(t *testing.T) {
	total := 0
	for _, cf := range corpusFiles(t) {
		rigs, err := Rigs(cf.F)
		if err != nil {
			t.Errorf("%s: %v", cf.Rel, err)
			continue
		}
		for _, r := range rigs {
			total++
			if len(r.Nodes) == 0 || r.Nodes[0].Parent != -1 || r.Nodes[0].Path != "" {
				t.Errorf("%s: rig %q: bad root", cf.Rel, r.Name)
				continue
			}
			for i, n := range r.Nodes[1:] {
				if n.Parent < 0 || n.Parent > i {
					t.Errorf("%s: rig %q: node %d has parent %d", cf.Rel, r.Name, i+1, n.Parent)
				}
			}
			msg := ""
			if r.Animator == nil {
			} else if av := r.Animator.Avatar; !av.IsNull() && av.FileID == 0 {
				o, ok := cf.F.Object(av.PathID)
				if !ok {
					t.Errorf("%s: rig %q: avatar %d not in the file", cf.Rel, r.Name, av.PathID)
					continue
				}
				v, err := cf.F.Decode(o)
				if err != nil {
					t.Fatal(err)
				}
				a, err := Avatar(v, cf.F.UnityVersion)
				if err != nil {
					t.Fatal(err)
				}
				// Every bone the humanoid drives must be in the rig.
				// Other avatar nodes may be absent: a mod's prefab can
				// lack part of the model the avatar was built from
				// (scavbody's IK "Rig 1", morbman's mesh node).
				names := r.Names()
				var human []model.SkeletonNode
				if a.Human != nil {
					human = a.Human.Skeleton.Nodes
				}
				for _, n := range human {
					if _, ok := names.Lookup(n.PathHash); !ok {
						t.Errorf("%s: rig %q: human node %q of avatar %q not in the rig", cf.Rel, r.Name, a.Names[n.PathHash], a.Name)
					}
				}
				absent := 0
				for _, n := range a.Skeleton.Nodes {
					if _, ok := names.Lookup(n.PathHash); !ok {
						absent++
					}
				}
				if absent > 0 {
					t.Logf("%s: rig %q: %d of avatar %q's %d nodes absent from the rig", cf.Rel, r.Name, absent, a.Name, len(a.Skeleton.Nodes))
				}
				msg = " avatar " + a.Name
			}
			switch {
			case r.Animator != nil:
				t.Logf("%s: rig %q: %d nodes, controller %v%s", cf.Rel, r.Name, len(r.Nodes), !r.Animator.Controller.IsNull(), msg)
			case r.Legacy != nil:
				t.Logf("%s: rig %q: %d nodes, a legacy Animation of %d clips", cf.Rel, r.Name, len(r.Nodes), len(r.Legacy.Clips))
			default:
				t.Logf("%s: rig %q: %d nodes, skinned meshes without an Animator", cf.Rel, r.Name, len(r.Nodes))
			}
		}
	}
	if total == 0 {
		t.Fatal("no rigs in the corpus")
	}
}

// TestRigStopsAtNestedAnimator checks the nested-Animator rule on the
// corpus: no rig contains the GameObject of another Animator that has a
// controller.
func TestRigStopsAtNestedAnimator(t *testing.T) {
	for _, cf := range corpusFiles(t) {
		rigs, err := Rigs(cf.F)
		if err != nil {
			t.Fatal(err)
		}
		owners := map[int64]bool{}
		for _, r := range rigs {
			if r.Animator != nil && !r.Animator.Controller.IsNull() {
				owners[r.Animator.GameObject.PathID] = true
			}
		}
		for _, r := range rigs {
			for _, n := range r.Nodes[1:] {
				if owners[n.GameObject.PathID] {
					t.Errorf("%s: rig %q contains the controlled Animator at %q", cf.Rel, r.Name, n.Path)
				}
			}
		}
	}
	_ = model.ClassAnimator
}

// TestRigNestedAnimatorRule builds rigs over a hand-made hierarchy: a rig
// stops at a nested Animator with a controller, and keeps one without.
func TestRigNestedAnimatorRule(t *testing.T) {
	h := &hierarchy{
		goName:   map[int64]string{1: "Root", 2: "Inner", 3: "Plain", 4: "InnerChild", 5: "Leaf"},
		goXform:  map[int64]int64{1: 10, 2: 11, 3: 12, 4: 13, 5: 14},
		animByGO: map[int64]*model.AnimatorInfo{},
		xforms: map[int64]*xformInfo{
			10: {gameObject: 1, children: []int64{11, 12}},
			11: {gameObject: 2, children: []int64{13}},
			12: {gameObject: 3, children: []int64{14}},
			13: {gameObject: 4},
			14: {gameObject: 5},
		},
	}
	h.animByGO[1] = &model.AnimatorInfo{Controller: model.Ref{PathID: 100}}
	h.animByGO[2] = &model.AnimatorInfo{Controller: model.Ref{PathID: 101}}
	h.animByGO[3] = &model.AnimatorInfo{} // no controller: part of the outer rig
	paths := func(r *model.Rig) []string {
		var p []string
		for _, n := range r.Nodes {
			p = append(p, n.Path)
		}
		return p
	}
	tests := []struct {
		gameObject int64
		want       []string
	}{
		{1, []string{"", "Plain", "Plain/Leaf"}},
		{2, []string{"", "InnerChild"}},
		{3, []string{"", "Leaf"}},
	}
	for _, tc := range tests {
		r, err := h.rig(tc.gameObject)
		if err != nil {
			t.Fatalf("rig of %d: %v", tc.gameObject, err)
		}
		got := paths(r)
		if len(got) != len(tc.want) {
			t.Errorf("rig of %d: paths %q, want %q", tc.gameObject, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("rig of %d: paths %q, want %q", tc.gameObject, got, tc.want)
				break
			}
		}
	}
}

// chainHierarchy is a hierarchy of n Transforms, each the only child of the
// one before, under an Animator on GameObject 1 (Transform 1001 is
// GameObject 1's, and so on).
func chainHierarchy(n int, name string) *hierarchy {
	h := &hierarchy{goName: map[int64]string{}, goXform: map[int64]int64{}, xforms: map[int64]*xformInfo{},
		animByGO: map[int64]*model.AnimatorInfo{1: {}}}
	for i := int64(1); i <= int64(n); i++ {
		h.goName[i] = name
		h.goXform[i] = 1000 + i
		x := &xformInfo{gameObject: i}
		if i < int64(n) {
			x.children = []int64{1000 + i + 1}
		}
		h.xforms[1000+i] = x
	}
	return h
}

// TestRigRejectsCyclesAndRunawayHierarchies proves that a Transform reached
// twice (its own ancestor, or listed under two parents) and hierarchies too
// deep or with too much path text give an *Error naming the Transform,
// never a loop, a stack overflow or quadratic memory.
func TestRigRejectsCyclesAndRunawayHierarchies(t *testing.T) {
	tests := []struct {
		name string
		h    func() *hierarchy
		want string
	}{
		{"child is the root", func() *hierarchy {
			h := chainHierarchy(3, "n")
			h.xforms[1003].children = []int64{1001}
			return h
		}, "root Transform 1001"},
		{"child is a middle ancestor", func() *hierarchy {
			h := chainHierarchy(4, "n")
			h.xforms[1004].children = []int64{1002}
			return h
		}, "Transform 1002"},
		{"one child under two parents", func() *hierarchy {
			h := chainHierarchy(3, "n")
			h.xforms[1001].children = []int64{1002, 1003}
			return h
		}, "Transform 1003"},
		{"a Transform its own child", func() *hierarchy {
			h := chainHierarchy(1, "n")
			h.xforms[1001].children = []int64{1001}
			return h
		}, "cycle"},
		{"too deep", func() *hierarchy { return chainHierarchy(MaxRigDepth+2, "n") }, "levels"},
		{"too much path text", func() *hierarchy {
			return chainHierarchy(MaxRigDepth, strings.Repeat("x", 2*MaxRigPathBytes/MaxRigDepth/MaxRigDepth+1))
		}, "bytes"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := tc.h().rig(1)
			var e *Error
			if !errors.As(err, &e) || !errors.Is(err, ErrMalformed) {
				t.Fatalf("rig = %v, %v; want an *Error wrapping ErrMalformed", r, err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not mention %q", err, tc.want)
			}
		})
	}
	// At the limits, the chain is accepted.
	if r, err := chainHierarchy(MaxRigDepth+1, "n").rig(1); err != nil || len(r.Nodes) != MaxRigDepth+1 {
		t.Fatalf("chain of %d: %v", MaxRigDepth+1, err)
	}
}
