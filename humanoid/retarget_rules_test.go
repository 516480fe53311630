package humanoid_test

import (
	"math"
	"testing"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/humanoid"
	"github.com/mecanim/mecanim/model"
)

// globalsOf composes a rig's local pose from its root.
func globalsOf(r *humanoid.Rig, local []geom.Transform) []geom.Transform {
	g := make([]geom.Transform, len(local))
	for i := range local {
		g[i] = local[i]
		if p := r.Skeleton().Parents[i]; p >= 0 {
			g[i] = g[p].Mul(local[i])
		}
	}
	return g
}

func angleBetweenDeg(a, b geom.Vec3) float64 {
	return math.Atan2(float64(a.Cross(b).Len()), float64(a.Dot(b))) * 180 / math.Pi
}

// A pose the muscles cannot hold reads back as Unity's retargeting reads
// it: every limb bone keeps its direction, the hands and feet their whole
// rotation, and what a bone cannot hold goes into the twist of the limb
// bone above (Unity's own recording, docs/humanoid.md).
func TestRetargetKeepsDirectionsAndEndRotations(t *testing.T) {
	rig, err := humanoid.NewRig(stickFigure())
	if err != nil {
		t.Fatal(err)
	}
	sk := rig.Skeleton()
	node := func(b int) int { return rig.AvatarNode(b) }
	turn := func(local []geom.Transform, b int, axis geom.Vec3, deg float32) {
		j := node(b)
		local[j].R = local[j].R.Mul(geom.AxisAngle(axis, deg*math.Pi/180)).Normalize()
	}
	cases := []struct {
		name string
		pose func(local []geom.Transform)
	}{
		{"a hand twisted about the forearm", func(l []geom.Transform) {
			turn(l, humanoid.LeftLowerArm, geom.V3(0, 0, 1), 30)
			turn(l, humanoid.LeftHand, geom.V3(1, 0, 0), 25)
		}},
		{"a forearm bent sideways", func(l []geom.Transform) {
			turn(l, humanoid.LeftLowerArm, geom.V3(0, 0, 1), 35)
			turn(l, humanoid.LeftLowerArm, geom.V3(0, 1, 0), 20)
		}},
		{"an upper arm twisted, the forearm bent sideways, the hand twisted", func(l []geom.Transform) {
			turn(l, humanoid.RightUpperArm, geom.V3(1, 0, 0), 20)
			turn(l, humanoid.RightLowerArm, geom.V3(0, 0, 1), -30)
			turn(l, humanoid.RightLowerArm, geom.V3(0, 1, 0), 15)
			turn(l, humanoid.RightHand, geom.V3(1, 0, 0), -25)
		}},
	}
	// The stick figure's arms lie along their joints' x axes, as Unity's
	// avatar builder puts every limb (its legs do not: left out).
	limbs := [][2]int{
		{humanoid.LeftUpperArm, humanoid.LeftLowerArm}, {humanoid.LeftLowerArm, humanoid.LeftHand},
		{humanoid.RightUpperArm, humanoid.RightLowerArm}, {humanoid.RightLowerArm, humanoid.RightHand},
	}
	for _, c := range cases {
		in := append([]geom.Transform(nil), sk.Rest...)
		c.pose(in)
		var p humanoid.Pose
		rig.Extract(in, &p)
		out := make([]geom.Transform, rig.Len())
		rig.Apply(&p, out)
		gi, gu := globalsOf(rig, in), globalsOf(rig, out)
		for _, l := range limbs {
			a, b := node(l[0]), node(l[1])
			h := node(humanoid.Hips)
			di := gi[h].R.Conj().Rotate(gi[b].T.Sub(gi[a].T))
			du := gu[h].R.Conj().Rotate(gu[b].T.Sub(gu[a].T))
			if d := angleBetweenDeg(di, du); d > 1e-3 {
				t.Errorf("%s: %s turned %.4f° from its direction", c.name, humanoid.BoneNames[l[0]], d)
			}
		}
		for _, b := range []int{humanoid.LeftHand, humanoid.RightHand} {
			j := node(b)
			// Rotations relative to the hips: the body's placement is
			// the centre of mass's, not the bones'.
			h := node(humanoid.Hips)
			ri := gi[h].R.Conj().Mul(gi[j].R)
			ru := gu[h].R.Conj().Mul(gu[j].R)
			if d := geom.AngleBetween(ri, ru) * 180 / math.Pi; d > 1e-3 {
				t.Errorf("%s: %s turned %.4f°", c.name, humanoid.BoneNames[b], d)
			}
		}
	}
}

// stickFigureTDoF is stickFigure built with translation DoF.
func stickFigureTDoF() *model.Avatar {
	a := stickFigure()
	a.Human.HasTDoF = true
	return a
}

// An avatar built with translation DoF places those bones where the pose
// says and reads them back; one built without keeps its own translations.
func TestTranslationDoF(t *testing.T) {
	spine := -1
	for k, b := range model.TDoFBones {
		if b == model.HumanSpine {
			spine = k
		}
	}
	off := geom.V3(0.01, -0.02, 0.005)
	for _, c := range []struct {
		name    string
		avatar  *model.Avatar
		follows bool
	}{{"with translation DoF", stickFigureTDoF(), true}, {"without", stickFigure(), false}} {
		rig, err := humanoid.NewRig(c.avatar)
		if err != nil {
			t.Fatal(err)
		}
		var p humanoid.Pose
		rig.Extract(rig.Skeleton().Rest, &p)
		p.TDoF[spine] = off
		local := make([]geom.Transform, rig.Len())
		rig.Apply(&p, local)
		j := rig.AvatarNode(humanoid.Spine)
		want := rig.Skeleton().Rest[j].T
		if c.follows {
			want = want.Add(off.Scale(rig.Scale()))
		}
		if d := local[j].T.Sub(want).Len(); d > 1e-6 {
			t.Errorf("%s: spine at %v, want %v", c.name, local[j].T, want)
		}
		var back humanoid.Pose
		rig.Extract(local, &back)
		wantBack := geom.Vec3{}
		if c.follows {
			wantBack = off
		}
		if d := back.TDoF[spine].Sub(wantBack).Len(); d > 1e-6 {
			t.Errorf("%s: reads back %v, want %v", c.name, back.TDoF[spine], wantBack)
		}

		// Record writes a curve per component where the avatar follows
		// them, and the clip plays them back.
		hc, err := humanoid.Record(constPose{local}, rig, 30, "still")
		if err != nil {
			t.Fatal(err)
		}
		n := 35 + model.MuscleCount
		if c.follows {
			n += 3 * model.TDoFCount
		}
		if len(hc.Curves) != n {
			t.Fatalf("%s: %d curves, want %d", c.name, len(hc.Curves), n)
		}
		if c.follows {
			a := uint32(model.FirstTDoFAttribute + 3*spine)
			if name, _ := model.HumanAttributeName(a); hc.Curves[n-3*model.TDoFCount+3*spine].Target.Property != name || name != "SpineTDOF.x" {
				t.Errorf("spine's curve is %q (%q)", hc.Curves[n-3*model.TDoFCount+3*spine].Target.Property, name)
			}
			baked, err := humanoid.Bake(hc, rig)
			if err != nil {
				t.Fatal(err)
			}
			got := make([]geom.Transform, rig.Len())
			baked.Sample(0, got)
			if d := got[j].T.Sub(want).Len(); d > 1e-6 {
				t.Errorf("recorded clip puts the spine at %v, want %v", got[j].T, want)
			}
		}
	}
}

// constPose is a source that holds one pose for a second.
type constPose struct{ local []geom.Transform }

func (c constPose) Duration() float32                      { return 1 }
func (c constPose) Animates(int) anim.Props                { return anim.PropT | anim.PropR | anim.PropS }
func (c constPose) Sample(_ float32, dst []geom.Transform) { copy(dst, c.local) }
