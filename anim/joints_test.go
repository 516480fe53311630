package anim

import (
	"math/rand"
	"testing"

	"github.com/mecanim/mecanim/geom"
)

// A part holds the joints read and their ancestors, in order, and model
// space composed over it equals LocalToModel's on those joints, leaving
// the others alone.
func TestJointsComposeAsTheWholeSkeleton(t *testing.T) {
	// 0 ─ 1 ─ 2 ─ 3
	//  └─ 4 ─ 5
	//      └─ 6
	parents := []int{-1, 0, 1, 2, 0, 4, 4}
	paths := []string{"r", "r/a", "r/a/b", "r/a/b/c", "r/d", "r/d/e", "r/d/f"}
	sk, err := NewSkeleton(paths, parents, nil)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		read []int
		want []int
	}{
		{"a leaf brings its ancestors", []int{3}, []int{0, 1, 2, 3}},
		{"two branches", []int{5, 2}, []int{0, 1, 2, 4, 5}},
		{"the root alone", []int{0}, []int{0}},
		{"nothing", nil, nil},
		{"repeats count once", []int{6, 6, 4}, []int{0, 4, 6}},
	}
	rng := rand.New(rand.NewSource(1))
	local := make([]geom.Transform, sk.Len())
	for i := range local {
		local[i] = geom.Transform{
			T: geom.V3(float32(rng.NormFloat64()), float32(rng.NormFloat64()), float32(rng.NormFloat64())),
			R: geom.Quat{X: float32(rng.NormFloat64()), Y: float32(rng.NormFloat64()), Z: float32(rng.NormFloat64()), W: 1}.Normalize(),
			S: geom.V3(1+float32(rng.Float64()), 1, 1),
		}
	}
	whole := make([]geom.Transform, sk.Len())
	LocalToModel(sk, local, whole)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			js, err := sk.Joints(c.read...)
			if err != nil {
				t.Fatal(err)
			}
			var got []int
			for k := 0; k < js.Len(); k++ {
				got = append(got, js.At(k))
			}
			if len(got) != len(c.want) {
				t.Fatalf("joints %v, want %v", got, c.want)
			}
			for k := range got {
				if got[k] != c.want[k] || !js.Has(got[k]) {
					t.Fatalf("joints %v, want %v", got, c.want)
				}
			}
			marker := geom.Transform{T: geom.V3(7, 7, 7)}
			out := make([]geom.Transform, sk.Len())
			for i := range out {
				out[i] = marker
			}
			LocalToModelJoints(js, local, out)
			for i := range out {
				if js.Has(i) && out[i] != whole[i] {
					t.Errorf("joint %d: %v, LocalToModel gives %v", i, out[i], whole[i])
				}
				if !js.Has(i) && out[i] != marker {
					t.Errorf("joint %d outside the part was written", i)
				}
			}
		})
	}
	if js := sk.AllJoints(); js.Len() != sk.Len() || js.SkeletonLen() != sk.Len() {
		t.Errorf("AllJoints holds %d of %d", js.Len(), sk.Len())
	}
	for _, bad := range []int{-1, 7} {
		if _, err := sk.Joints(bad); err == nil {
			t.Errorf("joint %d outside the skeleton was accepted", bad)
		}
	}
}
