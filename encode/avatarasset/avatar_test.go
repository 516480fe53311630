package avatarasset

import (
	"encoding/binary"
	"errors"
	"testing"

	"github.com/mecanim/mecanim/decode/compiled"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/layouts"
	"github.com/mecanim/mecanim/unity/typetree"
	"github.com/mecanim/mecanim/unity/unityversion"
	"github.com/mecanim/mecanim/unity/unitywrite"
)

// twoNodes is a generic avatar of a root and one child.
func twoNodes() *model.Avatar {
	id := geom.Transform{R: geom.Quat{W: 1}, S: geom.Vec3{X: 1, Y: 1, Z: 1}}
	names := model.Names{}
	names.Add("")
	h := names.Add("Hips")
	return &model.Avatar{
		Name: "Two", RootMotionBone: -1, Names: names,
		Skeleton:     model.Skeleton{Nodes: []model.SkeletonNode{{Parent: -1, Axes: -1}, {Parent: 0, Axes: -1, PathHash: h}}},
		SkeletonPose: []geom.Transform{id, id}, DefaultPose: []geom.Transform{id, id},
	}
}

func TestAvatarReadsBackByUnitysLayouts(t *testing.T) {
	for _, version := range []string{"2019.4.26f1", "2021.3.33f1", "2022.3.9f1"} {
		tree, _, err := layouts.Lookup(unityversion.MustParse(version), model.ClassAvatar)
		if err != nil {
			t.Fatal(err)
		}
		f, err := Compile(twoNodes())
		if err != nil {
			t.Fatal(err)
		}
		b, err := unitywrite.Encode(tree, f)
		if err != nil {
			t.Fatal(err)
		}
		l, _ := typetree.Compile(tree)
		v, err := l.Decode(b, binary.LittleEndian)
		if err != nil {
			t.Fatalf("%s: does not read to its size: %v", version, err)
		}
		a, err := compiled.Avatar(v, version)
		if err != nil {
			t.Fatal(err)
		}
		if a.Name != "Two" || len(a.Skeleton.Nodes) != 2 || a.Skeleton.Nodes[1].PathHash != model.PathHash("Hips") || a.Names[model.PathHash("Hips")] != "Hips" {
			t.Errorf("%s: read back %+v", version, a)
		}
		if id := v.Path("m_Avatar", "m_SkeletonNameIDArray").Index(1).Uint(); id != uint64(model.PathHash("Hips")) {
			t.Errorf("%s: name id %d", version, id)
		}
	}
}

func TestCompileRefusesAnInconsistentAvatar(t *testing.T) {
	a := twoNodes()
	a.DefaultPose = a.DefaultPose[:1]
	if _, err := Compile(a); !errors.Is(err, ErrInvalid) {
		t.Errorf("short pose: %v", err)
	}
	a = twoNodes()
	a.HumanSkeletonIndex = []int{5}
	if _, err := Compile(a); !errors.Is(err, ErrInvalid) {
		t.Errorf("bad index: %v", err)
	}
}
