package humanoid

import (
	"math/rand"
	"testing"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/internal/synth"
	"github.com/mecanim/mecanim/model"
)

// partRigs are the rigs the part tests pose: synthetic ones always, every
// corpus avatar when the corpus is there.
func partRigs(t *testing.T) []*Rig {
	var rigs []*Rig
	for _, a := range []*model.Avatar{synth.HumanAvatar(), synth.DescribedHumanAvatar()} {
		r, err := NewRig(a)
		if err != nil {
			t.Fatal(err)
		}
		rigs = append(rigs, r)
	}
	if _, ok := corpustest.Lookup(); ok {
		rigs = append(rigs, corpusRigs(t)...)
	}
	return rigs
}

// A part poses its joints to the bit as the whole rig does, whichever
// joints are read: the hitbox bones a server reads, one finger, a single
// non-human joint, every joint, random sets.
func TestPartPosesItsJointsAsTheWholeRig(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	for _, r := range partRigs(t) {
		sk := r.Skeleton()
		var hit []int
		for _, b := range []int{Head, Chest, Hips, LeftHand, RightHand, LeftFoot, RightFoot} {
			if j := r.AvatarNode(b); j >= 0 {
				hit = append(hit, j)
			}
		}
		sets := map[string][]int{"hitboxes": hit, "none": nil, "last joint": {sk.Len() - 1}}
		if j := r.AvatarNode(BoneCount - 1); j >= 0 {
			sets["a finger tip (the last human bone)"] = []int{j}
		}
		all := make([]int, sk.Len())
		for i := range all {
			all[i] = i
		}
		sets["all"] = all
		for k := 0; k < 4; k++ {
			var some []int
			for i := range all {
				if rng.Intn(5) == 0 {
					some = append(some, i)
				}
			}
			sets["random "+string(rune('a'+k))] = some
		}
		whole := make([]geom.Transform, sk.Len())
		part := make([]geom.Transform, sk.Len())
		for name, read := range sets {
			js, err := sk.Joints(read...)
			if err != nil {
				t.Fatal(err)
			}
			pt, err := r.Part(js)
			if err != nil {
				t.Fatal(err)
			}
			for trial := 0; trial < 50; trial++ {
				p := randomPose(rng, r)
				for i := range p.TDoF {
					p.TDoF[i] = geom.V3(float32(rng.NormFloat64()*0.01), float32(rng.NormFloat64()*0.01), float32(rng.NormFloat64()*0.01))
				}
				r.Apply(&p, whole)
				for i := range part {
					part[i] = geom.Transform{T: geom.V3(99, 99, 99)}
				}
				pt.Apply(&p, part)
				for i := range part {
					switch {
					case js.Has(i) && part[i] != whole[i]:
						t.Fatalf("%s, %s, trial %d: joint %d (%s) is %v, the whole rig gives %v", r.Name(), name, trial, i, sk.Paths[i], part[i], whole[i])
					case !js.Has(i) && part[i] != (geom.Transform{T: geom.V3(99, 99, 99)}):
						t.Fatalf("%s, %s: joint %d outside the part was written", r.Name(), name, i)
					}
				}
			}
			if name == "hitboxes" && testing.Verbose() {
				t.Logf("%s: hitboxes need %d of %d joints, %d of %d rotations, %d of %d targets", r.Name(), js.Len(), sk.Len(),
					len(pt.plan.rotate), len(r.all.rotate), len(pt.plan.targets), len(r.all.targets))
			}
		}
	}
}

// A part of another skeleton's size, or none, is refused.
func TestPartOfAnotherSkeletonIsRefused(t *testing.T) {
	r, err := NewRig(synth.HumanAvatar())
	if err != nil {
		t.Fatal(err)
	}
	own, err := r.Skeleton().Joints(0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Part(own); err != nil {
		t.Fatalf("own skeleton refused: %v", err)
	}
	sk, err := anim.NewSkeleton([]string{"a", "a/b", "a/b/c"}, []int{-1, 0, 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	other, err := sk.Joints(2)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Part(other); err == nil {
		t.Fatal("a part of a 3-joint skeleton was accepted")
	}
	if _, err := r.Part(nil); err == nil {
		t.Fatal("a nil part was accepted")
	}
}
