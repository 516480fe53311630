package compiled

import (
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/internal/synth"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/typetree"
	"github.com/mecanim/mecanim/unity/unitywrite"
)

// TestAvatarIndexesMustMeanSomething: indexes in range that still mean
// nothing Unity writes are refused, naming the avatar and the field: a
// skeleton id missing from m_TOS (it printed "#hash" paths), a human bone
// on a node without axes, two human bones on one node, a human bone moved
// above the hips, a bone Unity requires missing, a second root, a human
// node in no node of the avatar.
func TestAvatarIndexesMustMeanSomething(t *testing.T) {
	hips := 1 // synth.Bones
	cases := []struct {
		name  string
		edit  func(a *model.Avatar)
		field string
		says  string
	}{
		{"skeleton id not in m_TOS", func(a *model.Avatar) { delete(a.Names, model.PathHash(synth.BonePath(5))) },
			"m_AvatarSkeleton.data.m_ID", "node 5"},
		{"human bone without axes", func(a *model.Avatar) {
			nodes := append([]model.SkeletonNode(nil), a.Human.Skeleton.Nodes...)
			nodes[a.Human.BoneIndex[model.HumanLeftFoot]].Axes = -1
			a.Human.Skeleton.Nodes = nodes
		}, "m_HumanBoneIndex", "LeftFoot"},
		{"spine above the hips", func(a *model.Avatar) {
			nodes := append([]model.SkeletonNode(nil), a.Human.Skeleton.Nodes...)
			nodes[0].Axes = 0 // so that only the hierarchy is wrong
			a.Human.Skeleton.Nodes = nodes
			a.Human.BoneIndex[model.HumanSpine] = 0
		},
			"m_HumanBoneIndex", "not below Hips"},
		{"a required bone missing", func(a *model.Avatar) { a.Human.BoneIndex[model.HumanRightFoot] = -1 },
			"m_HumanBoneIndex", "no RightFoot"},
		{"a second root", func(a *model.Avatar) {
			nodes := append([]model.SkeletonNode(nil), a.Skeleton.Nodes...)
			nodes[7].Parent = -1
			a.Skeleton.Nodes = nodes
		}, "m_AvatarSkeleton.data.m_Node", "node 7 has no parent"},
		{"a human node in no avatar node", func(a *model.Avatar) { a.HumanSkeletonIndex[4] = -1 },
			"m_HumanSkeletonIndexArray", "human node 4"},
		{"two bones on one node", func(a *model.Avatar) {
			a.Human.BoneIndex[model.HumanNeck] = a.Human.BoneIndex[model.HumanChest]
		}, "m_HumanBoneIndex", "both on node"},
	}
	tree, err := synth.Tree(model.ClassAvatar)
	if err != nil {
		t.Fatal(err)
	}
	decode := func(a *model.Avatar) (*model.Avatar, error) {
		b, err := unitywrite.Encode(tree, synth.AvatarFields(a))
		if err != nil {
			t.Fatal(err)
		}
		v, err := typetree.Decode(tree, b, binary.LittleEndian)
		if err != nil {
			t.Fatal(err)
		}
		return Avatar(v, "")
	}
	if a := synth.HumanAvatar(); a.Human.BoneIndex[model.HumanHips] != hips {
		t.Fatalf("the synthetic hips moved to node %d", a.Human.BoneIndex[model.HumanHips])
	}
	if _, err := decode(synth.HumanAvatar()); err != nil {
		t.Fatalf("undamaged avatar: %v", err)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := synth.HumanAvatar()
			c.edit(a)
			_, err := decode(a)
			var e *Error
			if !errors.As(err, &e) || !errors.Is(err, ErrMalformed) || e.Object != "SynthAvatar" || !strings.Contains(e.Field, c.field) {
				t.Fatalf("err %v, want ErrMalformed naming the avatar and %s", err, c.field)
			}
			if !strings.Contains(err.Error(), c.says) {
				t.Errorf("%q does not say %q", err, c.says)
			}
		})
	}
}
