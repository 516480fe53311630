package anim

import (
	"testing"

	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
)

// A clip's channels on objects the skeleton lacks are counted and named.
func TestUnresolvedChannelsAreNamed(t *testing.T) {
	sk, err := NewSkeleton([]string{"", "Hips"}, []int{-1, 0}, nil)
	if err != nil {
		t.Fatal(err)
	}
	pos := func(path string, comp int) model.Curve {
		return model.Curve{Target: model.Target{Path: path, PathHash: model.PathHash(path), PathKnown: true, ClassID: model.ClassTransform,
			Attribute: uint32(model.PropPosition), Transform: model.PropPosition, Component: comp}, Kind: model.CurveConstant, Value: 1}
	}
	unnamed := pos("", 0)
	unnamed.Target.PathKnown, unnamed.Target.PathHash = false, 0xdeadbeef
	c, err := Bake(&model.Clip{Name: "c", SampleRate: 30, Stop: 1, Curves: []model.Curve{
		pos("Hips", 1), pos("Sword", 0), pos("Sword", 1), unnamed}}, sk)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tg := range c.Unresolved() {
		got = append(got, tg.PathName())
	}
	want := []string{"Sword", "Sword", model.UnnamedPath(0xdeadbeef)}
	if c.UnresolvedChannels() != 3 || len(got) != 3 || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("unresolved %d: %q, want %q", c.UnresolvedChannels(), got, want)
	}
	out := make([]geom.Transform, 2)
	c.Sample(0, out)
	if out[1].T.Y != 1 {
		t.Errorf("the resolved channel no longer plays: %v", out[1].T)
	}
}
