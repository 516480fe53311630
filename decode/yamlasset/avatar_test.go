package yamlasset

import (
	"strings"
	"testing"

	"github.com/mecanim/mecanim/model"
)

func TestAvatarAssetMatchesItsText(t *testing.T) {
	a, err := parseCorpus(t, "lethal-emotes/source/ChadRigAvatar.asset").Avatar()
	if err != nil {
		t.Fatal(err)
	}
	if a.Name != "ChadRigAvatar" || len(a.Skeleton.Nodes) != 120 || len(a.SkeletonPose) != 120 || len(a.DefaultPose) != 120 || len(a.Names) != 120 {
		t.Fatalf("%q: %d nodes, %d/%d poses, %d names", a.Name, len(a.Skeleton.Nodes), len(a.SkeletonPose), len(a.DefaultPose), len(a.Names))
	}
	// The name table's keys are the CRC-32 of its paths, which proves the
	// multi-line plain scalars ("...finger5.L.001_end" + "1" on the next
	// line is "...finger5.L.001_end 1").
	for h, p := range a.Names {
		if model.PathHash(p) != h {
			t.Errorf("m_TOS %d: %q hashes to %d", h, p, model.PathHash(p))
		}
	}
	// Every skeleton node is named by the table.
	for i, n := range a.Skeleton.Nodes {
		if _, ok := a.Names[n.PathHash]; !ok {
			t.Errorf("node %d: path hash %d not in m_TOS", i, n.PathHash)
		}
	}
	if a.Skeleton.Nodes[1].Parent != 0 || a.Skeleton.Nodes[119].Parent != 0 || a.RootMotionBone != -1 {
		t.Errorf("parents %d %d, root motion bone %d", a.Skeleton.Nodes[1].Parent, a.Skeleton.Nodes[119].Parent, a.RootMotionBone)
	}
	if p := a.SkeletonPose[3]; p.T.X != 8.377115 || p.R.X != 0.7071069 || p.S.Y != 0.9999999 {
		t.Errorf("pose 3 = %+v", p)
	}
	if !a.IsHuman() {
		t.Fatal("not human")
	}
	h := a.Human
	if len(h.Skeleton.Nodes) != 42 || len(h.Pose) != 42 || len(h.Skeleton.Axes) != 41 || len(h.BoneMass) != 25 {
		t.Errorf("human: %d nodes, %d pose, %d axes, %d masses", len(h.Skeleton.Nodes), len(h.Pose), len(h.Skeleton.Axes), len(h.BoneMass))
	}
	if h.RootX.T.Y != 1.2501669 || h.Scale != 1.2501669 || h.ArmStretch != 0.05 || !h.HasLeftHand || h.HasTDoF {
		t.Errorf("human values %+v", h)
	}
	ax := h.Skeleton.Axes[4]
	if ax.Sign.Z != -1 || ax.Max.Z != 0.5235988 || ax.Min.Y != -0.2617994 || ax.Length != 0.23056346 || ax.Type != 1 || ax.Pre.W != -0.082029894 {
		t.Errorf("axes 4 = %+v", ax)
	}
	// Hex arrays: m_HandBoneIndex starts 09000000 0a000000 ffffffff.
	if len(h.LeftHand) != 15 || h.LeftHand[0] != 9 || h.LeftHand[1] != 10 || h.LeftHand[2] != -1 || h.RightHand[0] != 23 {
		t.Errorf("hands %v %v", h.LeftHand, h.RightHand)
	}
	if h.BoneIndex[0] != 1 || h.BoneIndex[1] != 0x22 {
		t.Errorf("bone index %v", h.BoneIndex)
	}
	// Human skeleton nodes are avatar nodes: same path hashes.
	if len(a.HumanSkeletonIndex) != len(h.Skeleton.Nodes) {
		t.Fatalf("%d human skeleton indexes for %d nodes", len(a.HumanSkeletonIndex), len(h.Skeleton.Nodes))
	}
	for i, n := range h.Skeleton.Nodes {
		j := a.HumanSkeletonIndex[i]
		if j < 0 || j >= len(a.Skeleton.Nodes) || a.Skeleton.Nodes[j].PathHash != n.PathHash {
			t.Errorf("human node %d -> avatar node %d: hashes differ", i, j)
		}
	}
	d := a.Description
	if d == nil || len(d.Human) != 41 || d.Human[0].HumanName != "Hips" || d.Human[0].BoneName != "spine" || !d.Human[0].Limit.UseDefault {
		t.Fatalf("description %+v", d)
	}
	if len(d.Skeleton) != 120 || d.Skeleton[1].Name != "ScavengerModel" || d.Skeleton[1].ParentName != "FinalBeta2(Clone)" || d.ArmTwist != 0.5 || d.GlobalScale != 1 {
		t.Errorf("description skeleton %d, %+v", len(d.Skeleton), d.Skeleton[1])
	}
}

func TestHumanDescriptionOfModelImporter(t *testing.T) {
	f := parseCorpus(t, "animation-jobs-samples/DefaultMale/Models/DefaultMale_Humanoid.fbx.meta")
	hd, err := f.HumanDescription()
	if err != nil {
		t.Fatal(err)
	}
	if len(hd.Human) != 55 || hd.Human[0].HumanName != "Hips" || hd.Human[0].BoneName != "Hips" {
		t.Fatalf("%d bones, first %+v", len(hd.Human), hd.Human[0])
	}
	if hd.ArmTwist != 0.5 || hd.LegStretch != 0.05 || hd.GlobalScale != 1 || hd.HasTranslationDoF || hd.RootMotionBoneName != "" {
		t.Errorf("values %+v", hd)
	}
	if s := hd.Skeleton[1]; s.Name != "Body" || s.ParentName != "DefaultMale(Clone)" || s.Local.T.Y != 0.8831196 || s.Local.R.W != 1 {
		t.Errorf("skeleton 1 = %+v", s)
	}
	clips, err := f.ClipImports()
	if err != nil {
		t.Fatal(err)
	}
	if len(clips) < 2 || clips[0].Name != "Idle" || clips[0].LastFrame != 301 || !clips[0].Settings.LoopBlend || len(clips[0].BodyMask) != 13 {
		t.Errorf("clip imports %+v", clips)
	}
	ch := parseCorpus(t, "animation-jobs-samples/Chomper/Animations/@ChomperAttack.fbx.meta")
	generic, err := ch.HumanDescription()
	if err != nil || len(generic.Human) != 0 {
		t.Errorf("generic description %+v, %v", generic, err)
	}
	ci, err := ch.ClipImports()
	if err != nil || len(ci) != 1 || len(ci[0].Events) != 2 || ci[0].Events[1].Function != "AttackEnd" || ci[0].Events[1].Time != 0.7423471 {
		t.Errorf("Chomper clip imports %+v, %v", ci, err)
	}
	if _, err := parseCorpus(t, "lethal-emotes/source/Dab.anim").HumanDescription(); err == nil || !strings.Contains(err.Error(), "no such object") {
		t.Errorf("a clip's HumanDescription: %v", err)
	}
}

func TestNumberArraysInEitherForm(t *testing.T) {
	src := "--- !u!90 &1\nAvatar:\n  m_Avatar:\n    m_Human:\n      m_HumanBoneMass: 0000803f0000003f\n" +
		"      m_HumanBoneIndex:\n      - 3\n      - -1\n      m_Skeleton:\n        m_Node:\n        - m_ParentId: -1\n          m_AxesId: -1\n"
	f, err := Parse(strings.NewReader(src), "a.asset")
	if err != nil {
		t.Fatal(err)
	}
	a, err := f.Avatar()
	if err != nil {
		t.Fatal(err)
	}
	h := a.Human
	if h == nil || len(h.BoneMass) != 2 || h.BoneMass[0] != 1 || h.BoneMass[1] != 0.5 || len(h.BoneIndex) != 2 || h.BoneIndex[1] != -1 {
		t.Errorf("human %+v", h)
	}
	bad := strings.Replace(src, "0000803f0000003f", "0000803f00", 1)
	if f, err = Parse(strings.NewReader(bad), "a.asset"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Avatar(); err == nil || !strings.Contains(err.Error(), "m_HumanBoneMass") {
		t.Errorf("odd hex array: %v", err)
	}
}
