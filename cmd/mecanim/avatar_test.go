package main

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/humanoid"
	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/internal/synth"
	"github.com/mecanim/mecanim/model"
)

// Every avatar of the corpus, as avatar --json shows it: each human bone's
// node indexes the nodes of the same object (the node at that index is
// the bone's path and says it plays the bone); a humanoid's joint axes
// (stored on its human skeleton) are shown on the nodes they drive, with
// limits; the finger map lists every finger bone of a hand the avatar
// has; the human check passes, with its tolerances.
func TestAvatarIndexesItsOwnNodesAndShowsAxesFingersAndVerdict(t *testing.T) {
	dir := corpustest.Dir(t)
	files := []string{dir + "/lethal-emotes/customemotespackage", dir + "/lethal-emotes/scavbody", dir + "/plateup-emotes/morbman",
		dir + "/beatsaber-avatars/TemplateFullBody.avatar", dir + "/ror2-skeletons/dlc3emoteskeletons", dir + "/sekai/ladies_s_31_0001",
		dir + "/characters/cryptovoxels.vrm"}
	out, stderr, code := runCLI(append([]string{"avatar", "--json"}, files...)...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	humanoids, fingered := 0, 0
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var a avatarJSON
		if err := json.Unmarshal([]byte(l), &a); err != nil {
			t.Fatal(err)
		}
		if !a.Humanoid {
			continue
		}
		humanoids++
		withAxes := 0
		for _, n := range a.Nodes {
			if n.Axes >= 0 {
				withAxes++
				if n.Axes >= len(a.Axes) {
					t.Fatalf("%s: node %q: axes %d of %d", a.Name, n.Path, n.Axes, len(a.Axes))
				}
			}
		}
		if withAxes < 15 {
			t.Errorf("%s: %d nodes show joint axes; every human bone has them", a.Name, withAxes)
		}
		if len(a.Human.Bones) != humanoid.BoneCount {
			t.Fatalf("%s: %d bones", a.Name, len(a.Human.Bones))
		}
		for b, hb := range a.Human.Bones {
			if hb.Node < 0 {
				continue
			}
			if n := a.Nodes[hb.Node]; n.Path != hb.Path || n.Bone != hb.Bone || n.Axes != hb.Axes {
				t.Errorf("%s: bone %s is node %d, which is %q playing %q (axes %d, bone's %d)", a.Name, hb.Bone, hb.Node, n.Path, n.Bone, n.Axes, hb.Axes)
			}
			if b < humanoid.BodyBoneCount && hb.Axes < 0 && hb.Bone != "Hips" {
				t.Errorf("%s: %s has no axes", a.Name, hb.Bone)
			}
		}
		for s, has := range []bool{a.Human.HasLeftHand, a.Human.HasRightHand} {
			if !has {
				continue
			}
			fingered++
			mapped := 0
			for _, hb := range a.Human.Bones[humanoid.LeftHandFirst+15*s : humanoid.LeftHandFirst+15*s+15] {
				if hb.Node >= 0 {
					mapped++
				}
			}
			if mapped == 0 {
				t.Errorf("%s: hand %d: %d finger bones mapped", a.Name, s, mapped)
			}
		}
		c := a.HumanCheck
		if c == nil || !c.Pass || !c.CenterOfMassPass || c.CenterOfMassTol <= 0 || c.BodyFrameTolDeg != bodyFrameToleranceDeg {
			t.Errorf("%s: human check %+v: want a pass with its tolerances", a.Name, c)
		}
	}
	if humanoids < 17 || fingered < 4 {
		t.Errorf("%d humanoid avatars, %d hands with fingers", humanoids, fingered)
	}
}

// A centre of mass 0.5% of the human scale away from the stored m_RootX.t
// fails the check, in JSON and in the text.
func TestAvatarCheckFailsACentreOfMassMiss(t *testing.T) {
	for _, miss := range []float32{0, 0.005} {
		a := synth.HumanAvatar()
		h := *a.Human
		// the synthetic avatar's m_RootX.t, set to the rule's centre of
		// mass, then moved up by miss of the human scale
		com := avatarView(model.Source{}, a).HumanCheck.CenterOfMass
		h.RootX.T = geom.V3(float32(com[0]), float32(com[1])+miss*h.Scale, float32(com[2]))
		a.Human = &h
		v := avatarView(model.Source{Container: "synth"}, a)
		c := v.HumanCheck
		if c == nil || c.Pass != (miss == 0) || c.CenterOfMassPass != (miss == 0) {
			t.Fatalf("miss %g: check %+v", miss, c)
		}
		var b strings.Builder
		avatarText(&b, v)
		if want := map[bool]string{true: "check pass", false: "check FAIL"}[miss == 0]; !strings.Contains(b.String(), want) {
			t.Errorf("miss %g: the text does not say %q", miss, want)
		}
	}
}

// A body frame turned 0.01° from what the rule gives fails the check: the
// tolerance is the stored rotation's resolution, not a degree or two.
func TestAvatarCheckFailsABodyFrameTurnedAHundredthOfADegree(t *testing.T) {
	for _, turn := range []float64{0, 0.01} {
		a := synth.HumanAvatar()
		h := *a.Human
		h.RootX.T = geom.V3(0, 0, 0)
		a.Human = &h
		v := avatarView(model.Source{}, a)
		com := v.HumanCheck.CenterOfMass
		h.RootX.T = geom.V3(float32(com[0]), float32(com[1]), float32(com[2]))
		r, err := humanoid.NewRig(a)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := r.RestBody()
		h.RootX.R = body.R.Mul(geom.AxisAngle(geom.V3(0, 1, 0), float32(turn*math.Pi/180)))
		c := avatarView(model.Source{Container: "synth"}, a).HumanCheck
		if c == nil || c.BodyFramePass != (turn == 0) {
			t.Fatalf("turned %g°: check %+v", turn, c)
		}
	}
}
