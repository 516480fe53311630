package avatarbuild

import (
	"errors"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/model"
)

// withoutParents is d with every parent name emptied, as
// AvatarBuilder.BuildHumanAvatar and UniVRM write descriptions.
func withoutParents(d *model.HumanDescription) *model.HumanDescription {
	out := *d
	out.Skeleton = append([]model.SkeletonBone(nil), d.Skeleton...)
	for i := range out.Skeleton {
		out.Skeleton[i].ParentName = ""
	}
	return &out
}

func TestParentsComeFromTheHierarchyWhenTheDescriptionLeavesThemEmpty(t *testing.T) {
	d := synthDescription()
	want, err := Build("Synth", d)
	if err != nil {
		t.Fatal(err)
	}
	empty := withoutParents(d)
	if !NeedsParents(empty) || NeedsParents(d) {
		t.Fatalf("NeedsParents: %v without parents, %v with", NeedsParents(empty), NeedsParents(d))
	}
	if _, err := Build("Synth", empty); !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), "left to the hierarchy") {
		t.Fatalf("Build without parents: %v, want the hierarchy asked for", err)
	}
	filled, err := WithParents(empty, AvatarPaths(want))
	if err != nil {
		t.Fatal(err)
	}
	for i, b := range filled.Skeleton {
		if b.ParentName != d.Skeleton[i].ParentName {
			t.Errorf("bone %q: parent %q, want %q", b.Name, b.ParentName, d.Skeleton[i].ParentName)
		}
	}
	got, err := Build("Synth", filled)
	if err != nil {
		t.Fatal(err)
	}
	if r := Compare(got, want); r.MaxRotationDeg > 1e-9 || r.MaxRelative > 1e-9 {
		t.Errorf("rebuilt from the hierarchy: %g° and %g relative from the description's own parents", r.MaxRotationDeg, r.MaxRelative)
	}
}

func TestRepeatedBoneNamesTakeTheirParentsInOrder(t *testing.T) {
	d := &model.HumanDescription{Skeleton: []model.SkeletonBone{
		{Name: "Root"}, {Name: "A"}, {Name: "End"}, {Name: "B"}, {Name: "End"},
	}}
	got, err := WithParents(d, []string{"", "A", "A/End", "B", "B/End"})
	if err != nil {
		t.Fatal(err)
	}
	var parents []string
	for _, b := range got.Skeleton[1:] {
		parents = append(parents, b.ParentName)
	}
	if s := strings.Join(parents, ","); s != "Root,A,Root,B" {
		t.Errorf("parents %s, want Root,A,Root,B", s)
	}
	if d.Skeleton[2].ParentName != "" {
		t.Error("WithParents changed its input")
	}
}

func TestABoneOutsideTheHierarchyIsNamed(t *testing.T) {
	d := &model.HumanDescription{Skeleton: []model.SkeletonBone{{Name: "Root"}, {Name: "Hips"}, {Name: "Tail"}}}
	_, err := WithParents(d, []string{"", "Hips"})
	if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), `"Tail"`) {
		t.Errorf("got %v, want an error naming Tail", err)
	}
}

// Every corpus avatar that stores a description rebuilds the same when its
// parent names are emptied and taken from its own stored skeleton, as
// Unity's builder takes them from the GameObjects.
func TestCorpusAvatarsRebuildWithParentsFromTheirSkeleton(t *testing.T) {
	n := 0
	for _, a := range loadCorpus(t) {
		if a.Description == nil || len(a.Description.Skeleton) == 0 {
			continue
		}
		want, err := Build(a.Name, a.Description)
		if err != nil {
			continue // TestCorpusRebuild says so
		}
		stored := *a
		stored.Description = withoutParents(a.Description)
		got, err := Rebuild(&stored)
		if err != nil {
			t.Errorf("%s: %v", a.Name, err)
			continue
		}
		if r := Compare(got, want); r.MaxRotationDeg > 1e-9 || r.MaxRelative > 1e-9 {
			t.Errorf("%s: parents from the skeleton rebuild %g° and %g relative from the description's", a.Name, r.MaxRotationDeg, r.MaxRelative)
		}
		n++
	}
	if n < 15 {
		t.Errorf("only %d corpus avatars rebuilt", n)
	}
}
