package bound

import (
	"testing"

	"github.com/mecanim/mecanim/internal/synth"
	"github.com/mecanim/mecanim/model"
)

// HumanJoint is the joint of the character's skeleton a human bone moves:
// the synthetic avatar's bone paths, and -1 for a bone it lacks or a
// character that is not humanoid.
func TestHumanJointIsTheBonesJointInTheSkeleton(t *testing.T) {
	c, err := NewCharacter(CharacterInput{Name: "synth", Avatar: synth.HumanAvatar()})
	if err != nil {
		t.Fatal(err)
	}
	mapped := map[model.HumanBone]bool{}
	for i, b := range synth.Bones {
		if b.Human < 0 {
			continue
		}
		want, ok := c.Skeleton().Index(synth.BonePath(i))
		if !ok {
			t.Fatalf("no joint %q", synth.BonePath(i))
		}
		if got := c.HumanJoint(model.HumanBone(b.Human)); got != want {
			t.Errorf("%v: joint %d, want %d (%s)", model.HumanBone(b.Human), got, want, synth.BonePath(i))
		}
		mapped[model.HumanBone(b.Human)] = true
	}
	for b := model.HumanHips; b < model.HumanLeftFingers; b++ {
		if !mapped[b] && c.HumanJoint(b) != -1 {
			t.Errorf("%v: the avatar lacks it, HumanJoint says %d", b, c.HumanJoint(b))
		}
	}
	if !mapped[model.HumanHead] {
		t.Fatal("the synthetic avatar has no head")
	}
	generic, err := NewCharacter(CharacterInput{Name: "g", Rig: &model.Rig{Nodes: []model.RigNode{{Name: "g", Parent: -1}}}})
	if err != nil {
		t.Fatal(err)
	}
	if j := generic.HumanJoint(model.HumanHead); j != -1 {
		t.Errorf("a generic character's head: %d", j)
	}
}
