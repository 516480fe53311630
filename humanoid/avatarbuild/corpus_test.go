package avatarbuild

import (
	"github.com/mecanim/mecanim/geom"
	"math"
	"sync"
	"testing"

	"github.com/mecanim/mecanim/decode/compiled"
	"github.com/mecanim/mecanim/decode/yamlasset"
	"github.com/mecanim/mecanim/humanoid"
	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/assets"
)

// corpusAvatarFiles are the corpus files holding compiled avatars.
var corpusAvatarFiles = []string{
	"lethal-emotes/customemotespackage",
	"lethal-emotes/scavbody",
	"plateup-emotes/morbman",
	"beatsaber-avatars/TemplateFullBody.avatar",
	"ror2-skeletons/dlc3emoteskeletons",
	"sekai/ladies_s_31_0001",
}

var (
	corpusOnce    sync.Once
	corpusAvatars []*model.Avatar
	corpusErr     error
)

// loadCorpus decodes every compiled avatar of the corpus and the YAML
// ChadRigAvatar (named "ChadRigAvatar (YAML)").
func loadCorpus(t testing.TB) []*model.Avatar {
	t.Helper()
	dir := corpustest.Dir(t)
	corpusOnce.Do(func() {
		for _, rel := range corpusAvatarFiles {
			c, err := assets.Open(dir+"/"+rel, assets.Options{})
			if err != nil {
				corpusErr = err
				return
			}
			for _, f := range c.Files {
				for i := range f.Objects {
					o := &f.Objects[i]
					if o.ClassID != model.ClassAvatar {
						continue
					}
					v, err := f.Decode(o)
					if err != nil {
						corpusErr = err
						return
					}
					a, err := compiled.Avatar(v, f.UnityVersion)
					if err != nil {
						corpusErr = err
						return
					}
					corpusAvatars = append(corpusAvatars, a)
				}
			}
			c.Close()
		}
		yf, err := yamlasset.ParseFile(dir + "/lethal-emotes/source/ChadRigAvatar.asset")
		if err != nil {
			corpusErr = err
			return
		}
		a, err := yf.Avatar()
		if err != nil {
			corpusErr = err
			return
		}
		a.Name += " (YAML)"
		corpusAvatars = append(corpusAvatars, a)
	})
	if corpusErr != nil {
		t.Fatal(corpusErr)
	}
	return corpusAvatars
}

// rebuildTolerance is what a rebuilt corpus avatar reaches on each field,
// rounded up: rotations in degrees, the rest relative (see Compare). The
// targets are 0.001° and 1e-5; the fields a description does not determine
// (see FromDescription) are not held.
var rebuildTolerance = map[string]float64{
	FieldNodes: 0, FieldNames: 0, FieldRootMotionBone: 0,
	FieldSkeletonPoseT: 0, FieldSkeletonPoseQ: 1e-12, FieldSkeletonPoseS: 0,
	FieldHuman: 0, FieldHumanSkeleton: 0, FieldHumanIndex: 0, FieldBoneIndex: 0, FieldHands: 0,
	// Unity stores the human pose through a global-to-local round trip
	// in float32; the description's locals differ from it by that.
	FieldHumanPoseT: 1e-5, FieldHumanPoseQ: 2e-5, FieldHumanPoseS: 1e-7,
	FieldPre: 4e-4, FieldPost: 4e-4,
	FieldSign: 0, FieldLimits: 0, FieldType: 0,
	// A foot's length is its height, composed from the root down in
	// float32 as Unity does (exact on 20 of the 36 feet); what is left,
	// the last bit of a float32 position (1.7e-7 of the height), is
	// 1.2e-5 of IGOTITPOGGGGG's 1.5 cm right foot.
	FieldLength: 1.3e-5,
	FieldMass:   2e-7, FieldScale: 2e-6, FieldRootT: 3e-6,
	FieldRootQ:    3e-5,
	FieldSettings: 0,
}

// rebuildExceptions are the avatars and fields that miss the tolerance
// above, with what they reach (rounded up).
var rebuildExceptions = map[string]map[string]float64{}

// sceneOrdered are the corpus avatars whose description lists the skeleton
// in the scene's order (depth first): Build gives Unity's node order on
// them. The others' descriptions list siblings in another order (bandit1's
// alphabetically) than the scene that Unity read the order from.
var sceneOrdered = map[string]bool{
	"IGOTITPOGGGGGAvatar": true, "FinalBeta2Avatar": true, "morbmanAvatar": true, "Y BotAvatar": true,
	"solusHeartAvatar": true, "drifterAvatar": true, "vultureBossAvatar": true, "ironHaulerAvatar": true,
	"defectiveAvatar": true, "ChadRigAvatar (YAML)": true,
}

// Every corpus avatar with a description, rebuilt from it alone and
// compared with what Unity stored, field by field.
func TestCorpusRebuild(t *testing.T) {
	rebuilt := 0
	for _, a := range loadCorpus(t) {
		if a.Description == nil || len(a.Description.Skeleton) == 0 {
			if a.Name != "mdl_bdy_MIK_05Avatar" {
				t.Errorf("%s has no description", a.Name)
			}
			continue
		}
		rebuilt++
		b, err := Build(a.Name, a.Description)
		if err != nil {
			t.Errorf("%s: %v", a.Name, err)
			continue
		}
		r := Compare(b, a)
		for f, v := range r.Fields {
			tol, held := rebuildTolerance[f]
			if x, ok := rebuildExceptions[a.Name][f]; ok {
				tol = x
			}
			if f == FieldOrder && sceneOrdered[a.Name] {
				tol, held = 0, true
			}
			if !held && FromDescription(f) {
				t.Errorf("%s: field %s has no tolerance", a.Name, f)
			}
			if held && v > tol {
				unit := ""
				if IsRotation(f) {
					unit = "°"
				}
				t.Errorf("%s: %s differs by %.3g%s (tolerance %.3g)", a.Name, f, v, unit, tol)
			}
		}
		t.Logf("%-22s max %.3g° %.3g relative; root_x.q %.3g°, length %.3g, order %.3g", a.Name, r.MaxRotationDeg, r.MaxRelative, r.Fields[FieldRootQ], r.Fields[FieldLength], r.Fields[FieldOrder])
	}
	if rebuilt != 18 {
		t.Errorf("rebuilt %d avatars, want the 17 compiled ones with a description and the YAML one", rebuilt)
	}
}

// centreOfMass is the centre-of-mass rule written out on its own (package
// humanoid's buildCentres, with its last case as the spec states it): each
// body bone's mass at its segment's centre, the mean of its origin and its
// children's (the nearest mapped descendants, toes, eyes and jaw counting
// as no one's children); the hips' at their children's mean; the head,
// hands, feet, toes, eyes and jaw at their origin; the left forearm between
// the left upper arm and hand; without a chest the spine at 0.9 of the way
// to the upper arms' middle; with a chest but not the neck and both
// shoulders, the top trunk bone at the mean of its origin and the two
// upper arms'. withNeck averages the neck in as well in that last case
// (an earlier form of the rule).
func centreOfMass(h *model.Human, withNeck bool) vec {
	g := humanGlobals(h)
	has := func(b int) bool { return h.BoneIndex[b] >= 0 }
	pos := func(b int) vec { return g[h.BoneIndex[b]].t }
	mean := func(bs ...int) vec {
		var s vec
		for _, b := range bs {
			s = s.add(pos(b))
		}
		return s.scale(1 / float64(len(bs)))
	}
	top := humanoid.UpperChest
	if !has(top) {
		top = humanoid.Chest
	}
	var sum vec
	var mass float64
	for b := 0; b < humanoid.BodyBoneCount; b++ {
		m := float64(h.BoneMass[b])
		if !has(b) || m == 0 {
			continue
		}
		var c vec
		switch {
		case b == humanoid.Spine && !has(humanoid.Chest):
			c = pos(humanoid.Spine).scale(0.1).add(mean(humanoid.LeftUpperArm, humanoid.RightUpperArm).scale(0.9))
		case b == top && has(humanoid.Chest) && !(has(humanoid.Neck) && has(humanoid.LeftShoulder) && has(humanoid.RightShoulder)):
			if withNeck && has(humanoid.Neck) {
				c = mean(top, humanoid.Neck, humanoid.LeftUpperArm, humanoid.RightUpperArm)
			} else {
				c = mean(top, humanoid.LeftUpperArm, humanoid.RightUpperArm)
			}
		case b == humanoid.Head || b == humanoid.LeftHand || b == humanoid.RightHand || b == humanoid.LeftFoot ||
			b == humanoid.RightFoot || b >= humanoid.LeftToes:
			c = pos(b)
		default:
			var pts []int
			switch b {
			case humanoid.Hips:
			case humanoid.LeftLowerArm:
				pts = append(pts, humanoid.LeftUpperArm)
			default:
				pts = append(pts, b)
			}
			for k := 0; k < humanoid.LeftToes; k++ {
				if has(k) && k != b && presentParentBody(k, has) == b {
					pts = append(pts, k)
				}
			}
			c = mean(pts...)
		}
		sum = sum.add(c.scale(m))
		mass += m
	}
	return sum.scale(1 / mass)
}

// presentParentBody is a body bone's nearest mapped ancestor.
func presentParentBody(b int, has func(int) bool) int {
	for p := humanoid.ParentBone(b); p >= 0; p = humanoid.ParentBone(p) {
		if has(p) {
			return p
		}
	}
	return -1
}

// The last case of the centre-of-mass rule: a chest and a neck
// without both shoulders. No corpus avatar lacks its shoulders but keeps
// its neck, so Unity's answer for one is not at hand (the rule rests on an
// avatar outside the corpus, fitted to 2e-7). What this test holds: on
// corpus avatars rebuilt from their description with their shoulders
// unmapped, the builder (through package humanoid) puts m_RootX.t where
// the stated rule does, and the rule before it (the neck averaged in) would
// put it measurably elsewhere, so a return to it fails here; and the rule
// still gives every corpus avatar's stored m_RootX.t (TestCorpusRebuild's
// human.root_x.t, and package humanoid's TestCorpusCentreOfMass).
func TestCentreOfMassWithoutShoulders(t *testing.T) {
	for _, name := range []string{"Y BotAvatar", "morbmanAvatar", "droneTechAvatar"} {
		var a *model.Avatar
		for _, c := range loadCorpus(t) {
			if c.Name == name {
				a = c
			}
		}
		if a == nil {
			t.Fatalf("no %s in the corpus", name)
		}
		// The stated rule agrees with the stored avatar, shoulders and
		// all (this case is not the last one).
		if d := centreOfMass(a.Human, false).sub(vecOf(a.Human.RootX.T)).length() / float64(a.Human.Scale); d > 3e-6 {
			t.Errorf("%s: the written-out rule misses the stored m_RootX.t by %.2g of the height", name, d)
		}
		d := *a.Description
		d.Human = nil
		for _, m := range a.Description.Human {
			if m.HumanName != "LeftShoulder" && m.HumanName != "RightShoulder" {
				d.Human = append(d.Human, m)
			}
		}
		b, err := Build(name, &d)
		if err != nil {
			t.Fatal(err)
		}
		h := b.Human
		if !(h.BoneIndex[humanoid.Chest] >= 0 && h.BoneIndex[humanoid.Neck] >= 0 && h.BoneIndex[humanoid.LeftShoulder] < 0) {
			t.Fatalf("%s rebuilt: chest %d, neck %d, shoulder %d", name, h.BoneIndex[humanoid.Chest], h.BoneIndex[humanoid.Neck], h.BoneIndex[humanoid.LeftShoulder])
		}
		height := float64(h.Scale)
		got := vecOf(h.RootX.T)
		if e := got.sub(centreOfMass(h, false)).length() / height; e > 1e-6 {
			t.Errorf("%s without shoulders: m_RootX.t %v, the rule's %v (off by %.2g of the height)", name, got, centreOfMass(h, false), e)
		}
		old := got.sub(centreOfMass(h, true)).length() / height
		if old < 1e-4 {
			t.Errorf("%s without shoulders: the former rule is only %.2g of the height away, too close to tell apart", name, old)
		}
		t.Logf("%s without shoulders: the neck averaged in would move m_RootX.t by %.2g of the height", name, old)
	}
}

// The animation-jobs sample's .fbx.meta holds a human description and no
// compiled avatar: it builds, the runtime takes it, and its T-pose reads
// back as a T-pose (the trunk still, the limbs at Unity's T-pose muscles,
// left and right alike, the body upright).
func TestCorpusModelImporterDescriptionBuilds(t *testing.T) {
	f, err := yamlasset.ParseFile(corpustest.Path(t, "animation-jobs-samples/DefaultMale/Models/DefaultMale_Humanoid.fbx.meta"))
	if err != nil {
		t.Fatal(err)
	}
	d, err := f.HumanDescription()
	if err != nil {
		t.Fatal(err)
	}
	a, err := Build("DefaultMale_Humanoid", d)
	if err != nil {
		t.Fatal(err)
	}
	if !a.IsHuman() || !a.Human.HasLeftHand || !a.Human.HasRightHand || len(a.Skeleton.Nodes) != len(d.Skeleton) {
		t.Fatalf("built %d nodes, human %v", len(a.Skeleton.Nodes), a.IsHuman())
	}
	r, err := humanoid.NewRig(a)
	if err != nil {
		t.Fatal(err)
	}
	var p humanoid.Pose
	r.Extract(r.Skeleton().Rest, &p)
	for m := 0; m < 15; m++ {
		if v := p.Muscles[m]; math.Abs(float64(v)) > 1e-4 {
			t.Errorf("%s = %v at the T-pose", model.MuscleNames[m], v)
		}
	}
	for _, name := range []string{"Arm Down-Up", "Arm Front-Back", "Forearm Stretch", "Upper Leg Front-Back", "Lower Leg Stretch"} {
		l, _ := model.HumanAttributeByName("Left " + name)
		r, _ := model.HumanAttributeByName("Right " + name)
		lv, rv := p.Muscles[l-model.FirstMuscleAttribute], p.Muscles[r-model.FirstMuscleAttribute]
		if math.Abs(float64(lv-rv)) > 1e-4 {
			t.Errorf("%s: left %v, right %v", name, lv, rv)
		}
	}
	if d := angle(p.RootQ, geom.IdentityQuat); d > 1e-3 {
		t.Errorf("RootQ %v° from the identity", d)
	}
	t.Logf("scale %v, m_RootX %v", a.Human.Scale, a.Human.RootX)
}
