package bind

import (
	"fmt"
	"math"
	"testing"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/humanoid"
	"github.com/mecanim/mecanim/internal/corpustest"
)

// Every humanoid clip of the corpus plays on both VRM characters (made
// outside Unity; their avatars built from their VRM bone maps): poses are
// finite with unit rotations, and at the clip's grounded frames (those
// where on a Unity-built avatar both feet are on its floor) a foot is near
// the floor the character stands on at rest.
func TestHumanoidClipsPlayOnVRMCharacters(t *testing.T) {
	if testing.Short() {
		t.Skip("every humanoid clip on two characters")
	}
	vrms := []string{corpustest.Path(t, "characters/cryptovoxels.vrm"), corpustest.Path(t, "characters/VRMC_materials_mtoon_UV_Animation_Test.vrm")}
	files := append([]string{corpustest.Path(t, "lethal-emotes/customemotespackage"), corpustest.Path(t, "lethal-emotes/customemotespackage2"),
		corpustest.Path(t, "lethal-emotes/scavbody"), corpustest.Path(t, "plateup-emotes/customemotespackage")}, vrms...)
	set := openSet(t, files...)
	// The reference: each clip on a Unity-built avatar (bandit's), whose
	// frames with a foot on its floor are the clip's grounded frames.
	ref, err := set.characterOn(On{Avatar: "bandit1Avatar"})
	if err != nil {
		t.Fatal(err)
	}
	const frames = 60
	grounded := func(ch *bound.Character, m *bound.Motion) (low, high []float64, floor, height float64) {
		sk := ch.Skeleton()
		feet := [2]int{ch.Human().AvatarNode(humanoid.LeftFoot), ch.Human().AvatarNode(humanoid.RightFoot)}
		local, world := make([]geom.Transform, sk.Len()), make([]geom.Transform, sk.Len())
		anim.LocalToModel(sk, sk.Rest, world)
		floor = math.Min(float64(world[feet[0]].T.Y), float64(world[feet[1]].T.Y))
		for f := 0; f <= frames; f++ {
			m.Pose(m.Duration()*float32(f)/frames, local, world)
			for j, x := range world {
				if !x.T.Finite() || math.Abs(float64(local[j].R.Dot(local[j].R))-1) > 1e-4 {
					t.Fatalf("clip %q on %s at frame %d: joint %q %v", m.Clip().Name, ch.Describe(), f, sk.Paths[j], local[j])
				}
			}
			low = append(low, math.Min(float64(world[feet[0]].T.Y), float64(world[feet[1]].T.Y)))
			high = append(high, math.Max(float64(world[feet[0]].T.Y), float64(world[feet[1]].T.Y)))
		}
		return low, high, floor, float64(ch.Human().Scale())
	}
	// feetOff bounds how far off its floor the lower foot may be at a
	// frame where the reference stands, as a share of the human scale.
	// Without foot IK, Unity places a body of other proportions by its
	// centre of mass: one corpus clip ("nobones") leaves a VRM's
	// feet 9.6-10% off, every other clip within 4%.
	const feetOff = 0.1
	played, checked, worst, worstAt := 0, 0, 0.0, ""
	for _, v := range vrms {
		ch, err := set.characterOn(On{Character: baseName(v) + "#0"})
		if err != nil {
			t.Fatal(err)
		}
		if ch.Human() == nil {
			t.Fatalf("%s: no humanoid avatar", v)
		}
		for i := range len(set.Clips()) {
			c, err := set.Clip(bound.ClipID(i))
			if err != nil {
				t.Errorf("clip %d does not decode: %v", i, err)
				continue
			}
			if !c.Humanoid {
				continue
			}
			m, err := set.Motion(t.Context(), bound.ClipID(i), ch)
			if err != nil {
				t.Fatalf("clip %q on %s: %v", c.Name, v, err)
			}
			rm, err := set.Motion(t.Context(), bound.ClipID(i), ref)
			if err != nil {
				t.Fatal(err)
			}
			_, rhi, rf, rh := grounded(ref, rm)
			low, _, floor, height := grounded(ch, m)
			for f := range low {
				if rhi[f]-rf > 0.03*rh {
					continue // the reference does not stand on both feet
				}
				checked++
				// Without foot IK a body of other proportions placed by
				// its centre of mass leaves the feet off by some percent.
				d := math.Abs(low[f] - floor)
				if d/height > worst {
					worst, worstAt = d/height, fmt.Sprintf("clip %q on %s, frame %d", c.Name, baseName(v), f)
				}
				if d > feetOff*height {
					t.Errorf("clip %q on %s, frame %d/%d: bandit stands, the VRM's lower foot the VRM at %.3f over a floor at %.3f (%.0f%% of the height off)",
						c.Name, v, f, frames, low[f], floor, 100*d/height)
					break
				}
			}
			played++
		}
	}
	t.Logf("%d clip-character pairs, %d grounded frames checked, the lower foot at most %.3g of the height off the floor (%s)", played, checked, worst, worstAt)
	if played < 20 || checked < 100 {
		t.Errorf("only %d clip-character pairs played, %d grounded frames checked", played, checked)
	}
}

func baseName(p string) string {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == '/' {
			return p[i+1:]
		}
	}
	return p
}
