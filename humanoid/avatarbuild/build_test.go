package avatarbuild

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/humanoid"
	"github.com/mecanim/mecanim/model"
)

func build(t *testing.T, d *model.HumanDescription) *model.Avatar {
	t.Helper()
	a, err := Build("synth", d)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestBuildOrdersNodesDepthFirstWithTheirPaths(t *testing.T) {
	d := synthDescription()
	// List the description out of order: parents after children, the
	// armature's subtree before the mesh.
	d.Skeleton[1], d.Skeleton[len(d.Skeleton)-1] = d.Skeleton[len(d.Skeleton)-1], d.Skeleton[1]
	a := build(t, d)
	if len(a.Skeleton.Nodes) != len(d.Skeleton) {
		t.Fatalf("%d nodes for %d bones", len(a.Skeleton.Nodes), len(d.Skeleton))
	}
	seen := map[uint32]bool{}
	for i, n := range a.Skeleton.Nodes {
		if n.Parent >= i {
			t.Errorf("node %d has parent %d: parents must come first", i, n.Parent)
		}
		p, ok := a.Names.Lookup(n.PathHash)
		if !ok || model.PathHash(p) != n.PathHash {
			t.Errorf("node %d: hash %08x has name %q", i, n.PathHash, p)
		}
		if n.Parent >= 0 {
			pp, _ := a.Names.Lookup(a.Skeleton.Nodes[n.Parent].PathHash)
			if want := strings.TrimPrefix(pp+"/"+p[strings.LastIndex(p, "/")+1:], "/"); p != want {
				t.Errorf("node %d is %q under %q", i, p, pp)
			}
		}
		if n.Axes != -1 {
			t.Errorf("avatar node %d has axes %d", i, n.Axes)
		}
		seen[n.PathHash] = true
	}
	if a.Skeleton.Nodes[0].PathHash != 0 || a.Names[0] != "" {
		t.Errorf("the root's path hash is %08x, want 0 for the empty path", a.Skeleton.Nodes[0].PathHash)
	}
	for _, p := range []string{"Armature/Hips/Spine/Chest/UpperChest/ShoulderL/UpperArmL/LowerArmL/HandL/Index1L/Index2L/Index3L", "Body", "Armature/Hips/Holster"} {
		if !seen[model.PathHash(p)] {
			t.Errorf("no node %q", p)
		}
	}
	// The description's own order is kept where it is depth first.
	d = synthDescription()
	b := build(t, d)
	for i, n := range b.Skeleton.Nodes {
		if p, _ := b.Names.Lookup(n.PathHash); !strings.HasSuffix("/"+p, "/"+d.Skeleton[i].Name) && i > 0 {
			t.Errorf("node %d is %q, the description lists %q", i, p, d.Skeleton[i].Name)
		}
	}
}

// Bones of the same name (drifter's "…_end" pairs): a bone's parent is the
// namesake listed last before it; both namesakes rest where the later one
// does, as Unity stores them.
func TestBuildResolvesNamesakes(t *testing.T) {
	d := &model.HumanDescription{Skeleton: []model.SkeletonBone{
		{Name: "Root", Local: tx(0, 0, 0)},
		{Name: "A", ParentName: "Root", Local: tx(1, 0, 0)},
		{Name: "End", ParentName: "A", Local: tx(2, 0, 0)},
		{Name: "End", ParentName: "Root", Local: tx(3, 0, 0)},
		{Name: "Tip", ParentName: "End", Local: tx(4, 0, 0)},
		{Name: "Early", ParentName: "Late", Local: tx(5, 0, 0)}, // no namesake before it: the first after
		{Name: "Late", ParentName: "Root", Local: tx(6, 0, 0)},
	}}
	a := build(t, d)
	path := func(i int) string { p, _ := a.Names.Lookup(a.Skeleton.Nodes[i].PathHash); return p }
	want := []string{"", "A", "A/End", "End", "End/Tip", "Late", "Late/Early"}
	for i, w := range want {
		if path(i) != w {
			t.Errorf("node %d is %q, want %q", i, path(i), w)
		}
	}
	if x := a.SkeletonPose[2].T.X; x != 3 {
		t.Errorf("A/End rests at x %v, want the later namesake's 3", x)
	}
	if a.IsHuman() || a.RootMotionBone != -1 {
		t.Errorf("a description without human bones made a humanoid (or a root motion bone %d)", a.RootMotionBone)
	}
}

func tx(x, y, z float32) geom.Transform {
	return geom.Transform{T: geom.V3(x, y, z), R: geom.IdentityQuat, S: geom.V3(1, 1, 1)}
}

func TestBuildGenericTakesTheRootMotionBoneByName(t *testing.T) {
	d := synthDescription()
	d.Human = nil
	d.RootMotionBoneName = "Hips"
	a := build(t, d)
	if a.IsHuman() {
		t.Fatal("a description without human bones made a humanoid")
	}
	if p, _ := a.Names.Lookup(a.Skeleton.Nodes[a.RootMotionBone].PathHash); p != "Armature/Hips" {
		t.Errorf("root motion bone is %q", p)
	}
}

// The human skeleton is the hips' parent and every node from the hips to a
// human bone, in the avatar's order; its pose holds the hips in the frame
// above the skeleton's root (the root's own transform counted) and the
// other nodes' locals.
func TestBuildHumanSkeletonHoldsTheBonesAndTheNodesBetween(t *testing.T) {
	d := synthDescription("Chest") // Spine -> Chest -> UpperChest: Chest stays, as a node between bones
	d.Skeleton[0].Local = geom.Transform{T: geom.V3(0, 0, 0), R: geom.AxisAngle(geom.V3(1, 0, 0), -math.Pi/2), S: geom.V3(1, 1, 1)}
	d.Skeleton[2].Local.R = geom.AxisAngle(geom.V3(1, 0, 0), math.Pi/2) // Armature turned back upright
	a := build(t, d)
	h := a.Human
	paths := map[string]int{}
	for i, n := range h.Skeleton.Nodes {
		p, _ := a.Names.Lookup(n.PathHash)
		paths[p] = i
		if a.Skeleton.Nodes[a.HumanSkeletonIndex[i]].PathHash != n.PathHash {
			t.Errorf("human node %d %q is avatar node %d", i, p, a.HumanSkeletonIndex[i])
		}
		if i > 0 && a.HumanSkeletonIndex[i] <= a.HumanSkeletonIndex[i-1] {
			t.Errorf("human node %d is out of the avatar's order", i)
		}
	}
	if _, ok := paths["Armature"]; !ok || h.Skeleton.Nodes[0].PathHash != model.PathHash("Armature") {
		t.Errorf("the human root is not the hips' parent")
	}
	for _, p := range []string{"Armature/Hips/Spine/Chest", "Armature/Hips/Spine/Chest/UpperChest"} {
		if _, ok := paths[p]; !ok {
			t.Errorf("no human node %q", p)
		}
	}
	for _, p := range []string{"Body", "Armature/Hips/Holster", "Armature/Hips/Spine/Chest/UpperChest/Neck/Head/Head_end"} {
		if _, ok := paths[p]; ok {
			t.Errorf("human node %q is no human bone nor between two", p)
		}
	}
	if n := h.Skeleton.Nodes[paths["Armature/Hips/Spine/Chest"]]; n.Axes != -1 {
		t.Errorf("the unmapped chest has axes %d", n.Axes)
	}
	if !geomClose(h.Pose[0], geom.Identity) {
		t.Errorf("human root pose %v, want the identity", h.Pose[0])
	}
	hips := h.Pose[paths["Armature/Hips"]]
	if angle(hips.R, geom.IdentityQuat) > 1e-4 || hips.T.Sub(geom.V3(0, 1, 0)).Len() > 1e-6 {
		t.Errorf("hips pose %v, want upright at (0, 1, 0) with the root's turn counted", hips)
	}
}

func geomClose(a, b geom.Transform) bool {
	return a.T.Sub(b.T).Len() < 1e-6 && angle(a.R, b.R) < 1e-4 && a.S.Sub(b.S).Len() < 1e-6
}

// Each bone's post frame, at the T-pose, has its x axis along the bone and
// its z axis from the bone's reference direction; the pre frame is it
// turned by the bone's zero-pose offset.
func TestBuildAxesFollowTheBones(t *testing.T) {
	a := build(t, synthDescription())
	h := a.Human
	g := globals(h)
	pos := func(b int) vec { return g[boneNode(h, b)].t }
	cases := []struct {
		bone    int
		x, zRef vec
	}{
		{humanoid.Hips, pos(humanoid.Spine).sub(pos(humanoid.Hips)), left},
		{humanoid.Spine, pos(humanoid.Chest).sub(pos(humanoid.Spine)), left},
		{humanoid.UpperChest, pos(humanoid.Neck).sub(pos(humanoid.UpperChest)), left},
		{humanoid.Head, up, left},
		{humanoid.LeftShoulder, left, forward},
		{humanoid.RightUpperArm, right, forward},
		{humanoid.LeftLowerArm, left, up},
		{humanoid.LeftHand, left, forward},
		{humanoid.RightUpperLeg, pos(humanoid.RightLowerLeg).sub(pos(humanoid.RightUpperLeg)), right},
		{humanoid.LeftFoot, down, right},
		{humanoid.LeftToes, forward, right},
		{humanoid.Jaw, forward, right},
		{humanoid.RightEye, forward, right},
		{humanoid.LeftHandFirst, pos(humanoid.LeftHandFirst + 1).sub(pos(humanoid.LeftHandFirst)), up},              // thumb
		{humanoid.LeftHandFirst + 5, pos(humanoid.LeftHandFirst + 5).sub(pos(humanoid.LeftHandFirst + 4)), forward}, // index distal
	}
	for _, c := range cases {
		n := boneNode(h, c.bone)
		ax := h.Skeleton.Axes[h.Skeleton.Nodes[n].Axes]
		f := g[n].r.mul(quatOf(ax.Post))
		x, z := f.rotate(right), f.rotate(forward)
		want := c.x.unit()
		wz := c.zRef.sub(want.scale(c.zRef.dot(want))).unit()
		if d := x.sub(want).length(); d > 1e-6 {
			t.Errorf("%s: post x axis %v, want %v", humanoid.BoneNames[c.bone], x, want)
		}
		if d := z.sub(wz).length(); d > 1e-6 {
			t.Errorf("%s: post z axis %v, want %v", humanoid.BoneNames[c.bone], z, wz)
		}
	}
}

// Read back through the runtime, the built avatar's T-pose gives Unity's
// T-pose muscles: the trunk, shoulders, hands, feet at 0, the arms 0.4 up
// and 0.3 back, forearms and lower legs stretched (1), the upper legs 0.6,
// on both sides (the zero-pose offsets are 40° and 30° for the arms, 80°
// for forearms and lower legs, 30° for the upper legs, to 0.01°).
func TestBuildTPoseReadsBackAsTheTPoseMuscles(t *testing.T) {
	a := build(t, synthDescription())
	r, err := humanoid.NewRig(a)
	if err != nil {
		t.Fatal(err)
	}
	var p humanoid.Pose
	r.Extract(r.Skeleton().Rest, &p)
	want := map[string]float64{
		"Arm Down-Up": 0.4, "Arm Front-Back": 0.3, "Forearm Stretch": 1, "Upper Leg Front-Back": 0.6,
		"Lower Leg Stretch": 1, "Shoulder Down-Up": 0, "Hand Down-Up": 0, "Foot Up-Down": 0, "Arm Twist In-Out": 0,
	}
	for m := 0; m < 15; m++ {
		want[model.MuscleNames[m]] = 0
	}
	for name, w := range want {
		for _, side := range []string{"", "Left ", "Right "} {
			a, ok := model.HumanAttributeByName(side + name)
			if !ok {
				continue
			}
			got := float64(p.Muscles[a-model.FirstMuscleAttribute])
			// 0.01° of a 100° limit is 1e-4.
			if math.Abs(got-w) > 2e-4 {
				t.Errorf("%s%s = %.5f, want %v", side, name, got, w)
			}
		}
	}
	if d := angle(p.RootQ, geom.IdentityQuat); d > 1e-3 {
		t.Errorf("RootQ %v° from the identity", d)
	}
	if d := p.RootT.Sub(a.Human.RootX.T.Scale(1 / a.Human.Scale)).Len(); d > 1e-5 {
		t.Errorf("RootT %v, want m_RootX.t over the scale", p.RootT)
	}
}

func TestBuildLengths(t *testing.T) {
	full := build(t, synthDescription())
	noNeck := build(t, synthDescription("Neck"))
	noChest := build(t, synthDescription("Neck", "Chest", "UpperChest"))
	noToes := build(t, synthDescription("LeftToes", "Left Index Distal"))
	dist := func(a *model.Avatar, b, c int) float64 {
		g := globals(a.Human)
		return g[boneNode(a.Human, b)].t.sub(g[boneNode(a.Human, c)].t).length()
	}
	length := func(a *model.Avatar, b int) float64 {
		return float64(a.Human.Skeleton.Axes[a.Human.Skeleton.Nodes[boneNode(a.Human, b)].Axes].Length)
	}
	cases := []struct {
		name string
		a    *model.Avatar
		bone int
		want float64
	}{
		{"hips to spine", full, humanoid.Hips, dist(full, humanoid.Hips, humanoid.Spine)},
		{"upper arm to forearm", full, humanoid.LeftUpperArm, dist(full, humanoid.LeftUpperArm, humanoid.LeftLowerArm)},
		{"head as long as the neck", full, humanoid.Head, dist(full, humanoid.Head, humanoid.Neck)},
		{"head without neck: a quarter of chest to head", noNeck, humanoid.Head, 0.25 * dist(noNeck, humanoid.Head, humanoid.Chest)},
		{"head without chest: a sixteenth of spine to head", noChest, humanoid.Head, 0.0625 * dist(noChest, humanoid.Head, humanoid.Spine)},
		{"hand: a quarter of the forearm", full, humanoid.RightHand, 0.25 * dist(full, humanoid.RightHand, humanoid.RightLowerArm)},
		{"foot: its height", full, humanoid.LeftFoot, globals(full.Human)[boneNode(full.Human, humanoid.LeftFoot)].t[1]},
		{"toes: a quarter of foot to toes", full, humanoid.RightToes, 0.25 * dist(full, humanoid.RightToes, humanoid.RightFoot)},
		{"eye", full, humanoid.LeftEye, 0.1},
		{"last finger bone: 9/16 of its segment", full, humanoid.LeftHandFirst + 5, 0.5625 * dist(full, humanoid.LeftHandFirst+5, humanoid.LeftHandFirst+4)},
		{"finger bone before a missing last", noToes, humanoid.LeftHandFirst + 4, 0.5625 * dist(noToes, humanoid.LeftHandFirst+4, humanoid.LeftHandFirst+3)},
	}
	for _, c := range cases {
		if got := length(c.a, c.bone); math.Abs(got-c.want) > 1e-6*math.Max(1, c.want) {
			t.Errorf("%s: %s length %.7g, want %.7g", c.name, humanoid.BoneNames[c.bone], got, c.want)
		}
	}
}

func TestBuildMassesMoveToThePresentAncestor(t *testing.T) {
	sum := func(m []float32) (s float64) {
		for _, x := range m {
			s += float64(x)
		}
		return s
	}
	full := build(t, synthDescription()).Human.BoneMass
	if math.Abs(sum(full)-1) > 1e-6 {
		t.Errorf("masses sum to %v", sum(full))
	}
	if math.Abs(float64(full[humanoid.Hips])-24.0/165) > 1e-7 || full[humanoid.LeftEye] != 0 || full[humanoid.Jaw] != 0 {
		t.Errorf("hips %v, eye %v, jaw %v", full[humanoid.Hips], full[humanoid.LeftEye], full[humanoid.Jaw])
	}
	m := build(t, synthDescription("Neck", "UpperChest", "LeftShoulder", "RightShoulder", "LeftToes")).Human.BoneMass
	if math.Abs(sum(m)-1) > 1e-6 {
		t.Errorf("masses sum to %v", sum(m))
	}
	if want := (24 + 24 + 2 + 1 + 1) / 165.0; math.Abs(float64(m[humanoid.Chest])-want) > 1e-7 {
		t.Errorf("chest carries %v, want %v (its own, the upper chest's, the neck's, the shoulders')", m[humanoid.Chest], want)
	}
	if want := 2 / 165.0; math.Abs(float64(m[humanoid.LeftFoot])-want) > 1e-7 || m[humanoid.LeftToes] != 0 {
		t.Errorf("left foot %v, toes %v: want the toes' mass on the foot", m[humanoid.LeftFoot], m[humanoid.LeftToes])
	}
}

// A symmetric avatar: its body frame is the identity, its height the human
// scale. (Its centre of mass is off the middle plane: Unity's rule puts the
// left forearm's mass between the left upper arm and hand.)
func TestBuildRootXOfASymmetricAvatar(t *testing.T) {
	h := build(t, synthDescription()).Human
	if h.Scale != h.RootX.T.Y || h.Scale < 0.8 || h.Scale > 1.2 || h.RootX.T.X <= 0 {
		t.Errorf("centre of mass %v, scale %v", h.RootX.T, h.Scale)
	}
	if d := angle(h.RootX.R, geom.IdentityQuat); d > 1e-4 {
		t.Errorf("body frame %v° from the identity", d)
	}
}

// Left and right bones at the same place (ror2's solusWing): no body frame;
// Unity stores NaN and so does Build, which the runtime accepts.
func TestBuildCoincidingSidesHaveNoBodyFrame(t *testing.T) {
	d := synthDescription()
	for i, b := range d.Skeleton {
		switch b.Name {
		case "ShoulderL", "ShoulderR", "UpperLegL", "UpperLegR":
			d.Skeleton[i].Local.T.X = 0
		case "UpperArmL", "UpperArmR":
			d.Skeleton[i].Local.T = geom.V3(0, 0, 0.05)
		}
	}
	a := build(t, d)
	if q := a.Human.RootX.R; !math.IsNaN(float64(q.X)) || !math.IsNaN(float64(q.W)) {
		t.Errorf("body frame %v, want NaN", q)
	}
	if !a.Human.RootX.T.Finite() || !geom.Finite(a.Human.Scale) {
		t.Errorf("centre of mass %v, scale %v", a.Human.RootX.T, a.Human.Scale)
	}
	if _, err := humanoid.NewRig(a); err != nil {
		t.Errorf("the runtime refuses it: %v", err)
	}
}

func TestBuildAuthoredLimits(t *testing.T) {
	d := synthDescription()
	for i := range d.Human {
		if d.Human[i].HumanName == "LeftUpperArm" {
			d.Human[i].Limit = model.HumanLimit{Min: geom.V3(-10, -20, -30), Max: geom.V3(40, 50, 60)}
		}
		if d.Human[i].HumanName == "LeftHand" {
			d.Human[i].Limit = model.HumanLimit{Min: geom.V3(-5, -6, -7), Max: geom.V3(5, 6, 7)}
		}
	}
	a := build(t, d)
	ax := func(b int) model.Axes {
		return a.Human.Skeleton.Axes[a.Human.Skeleton.Nodes[boneNode(a.Human, b)].Axes]
	}
	k := float32(math.Pi / 180)
	if got, want := ax(humanoid.LeftUpperArm).Min, geom.V3(-10*k, -20*k, -30*k); got.Sub(want).Len() > 1e-6 {
		t.Errorf("upper arm min %v, want %v", got, want)
	}
	if got := ax(humanoid.LeftHand); got.Min.X != 0 || got.Max.X != 0 || math.Abs(float64(got.Max.Z-7*k)) > 1e-6 {
		t.Errorf("hand limits %v..%v: the twist the hand lacks must stay 0", got.Min, got.Max)
	}
	if got := ax(humanoid.RightUpperArm).Max; math.Abs(float64(got.Y-100*k)) > 1e-6 {
		t.Errorf("right upper arm max %v, want the default 100°", got)
	}
}

func TestBuildRefusesMalformedDescriptions(t *testing.T) {
	mod := func(f func(d *model.HumanDescription)) *model.HumanDescription {
		d := synthDescription()
		f(d)
		return d
	}
	setBone := func(human, bone string) func(d *model.HumanDescription) {
		return func(d *model.HumanDescription) {
			for i := range d.Human {
				if d.Human[i].HumanName == human {
					d.Human[i].BoneName = bone
				}
			}
		}
	}
	moveBone := func(name string, t geom.Vec3) func(d *model.HumanDescription) {
		return func(d *model.HumanDescription) {
			for i := range d.Skeleton {
				if d.Skeleton[i].Name == name {
					d.Skeleton[i].Local.T = t
				}
			}
		}
	}
	cases := []struct {
		name string
		d    *model.HumanDescription
		says string
	}{
		{"nil", nil, "no description"},
		{"empty skeleton", &model.HumanDescription{}, "empty"},
		{"unknown parent", mod(func(d *model.HumanDescription) { d.Skeleton[5].ParentName = "Nowhere" }), "lacks"},
		{"cycle", mod(func(d *model.HumanDescription) {
			d.Skeleton[3].ParentName = "Spine"
		}), "cycle"},
		{"unknown human bone", mod(func(d *model.HumanDescription) { d.Human[0].HumanName = "Tail" }), "unknown human bone"},
		{"bone mapped twice", mod(func(d *model.HumanDescription) { d.Human = append(d.Human, d.Human[1]) }), "mapped twice"},
		{"one node two bones", mod(setBone("Chest", "Spine")), "both"},
		{"missing skeleton bone", mod(setBone("Head", "Hat")), "lacks"},
		{"required bone missing", synthDescription("LeftFoot"), "required bone LeftFoot"},
		{"bone outside its chain", mod(setBone("LeftHand", "Holster")), "not below"},
		{"hips the root", mod(setBone("Hips", "Synth")), "root"},
		{"zero-length bone", mod(moveBone("LowerArmL", geom.V3(0, 0, 0))), "no direction"},
		{"non-finite transform", mod(moveBone("Spine", geom.V3(float32(math.NaN()), 0, 0))), "non-finite"},
		{"human bones without hips", synthDescription("Hips"), "hips"},
		{"zero rotation", mod(func(d *model.HumanDescription) { d.Skeleton[4].Local.R = geom.Quat{} }), "unit quaternion"},
		{"overflowing magnitudes", mod(func(d *model.HumanDescription) {
			moveBone("Spine", geom.V3(0, 3e38, 0))(d)
			moveBone("Chest", geom.V3(0, 3e38, 0))(d)
		}), "non-finite"},
	}
	for _, c := range cases {
		_, err := Build("bad", c.d)
		if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: error %v, want ErrMalformed saying %q", c.name, err, c.says)
		}
	}
}

func TestCompareReportsEachFieldAndItsWorst(t *testing.T) {
	a := build(t, synthDescription())
	r := Compare(a, a)
	if r.MaxRotationDeg > 1e-9 || r.MaxRelative != 0 {
		t.Errorf("an avatar against itself: %v° and %v", r.MaxRotationDeg, r.MaxRelative)
	}
	for _, f := range []string{FieldNodes, FieldPre, FieldPost, FieldLength, FieldMass, FieldRootQ, FieldDefaultPoseQ, FieldHands} {
		if _, ok := r.Fields[f]; !ok {
			t.Errorf("no field %s", f)
		}
	}
	b := build(t, synthDescription())
	n := b.Human.Skeleton.Nodes[b.Human.BoneIndex[humanoid.LeftUpperArm]].Axes
	b.Human.Skeleton.Axes[n].Pre = b.Human.Skeleton.Axes[n].Pre.Mul(geom.AxisAngle(geom.V3(0, 1, 0), 0.5*math.Pi/180))
	b.Human.Skeleton.Axes[n].Length *= 1.001
	b.DefaultPose[3].T.X += 10
	b.Skeleton.Nodes[1], b.Skeleton.Nodes[2] = b.Skeleton.Nodes[2], b.Skeleton.Nodes[1]
	r = Compare(b, a)
	if d := r.Fields[FieldPre]; math.Abs(d-0.5) > 1e-3 || r.MaxRotationDeg != d {
		t.Errorf("axes.pre %v°, max %v°, want 0.5°", d, r.MaxRotationDeg)
	}
	if d := r.Fields[FieldLength]; math.Abs(d-1e-3) > 1e-6 {
		t.Errorf("axes.length %v, want 1e-3", d)
	}
	if r.Fields[FieldDefaultPoseT] == 0 || r.Fields[FieldOrder] == 0 {
		t.Errorf("default pose %v, order %v: want both found", r.Fields[FieldDefaultPoseT], r.Fields[FieldOrder])
	}
	if r.MaxRelative >= r.Fields[FieldDefaultPoseT] {
		t.Errorf("max relative %v counts the default pose", r.MaxRelative)
	}
}

// A skeleton deeper than MaxDepth is refused (paths grow with the depth:
// a hostile chain of 65,536 bones would need gigabytes of them).
func TestBuildRefusesTooDeepSkeletons(t *testing.T) {
	d := &model.HumanDescription{Skeleton: []model.SkeletonBone{{Name: "Root", Local: tx(0, 0, 0)}}}
	for i := 0; i < MaxDepth+1; i++ {
		d.Skeleton = append(d.Skeleton, model.SkeletonBone{Name: "Bone", ParentName: "Bone", Local: tx(0, 1, 0)})
	}
	d.Skeleton[1].ParentName = "Root"
	if _, err := Build("deep", d); !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), "deeper") {
		t.Errorf("error %v, want the depth refused", err)
	}
	d.Skeleton = d.Skeleton[:MaxDepth]
	a := build(t, d)
	if n := len(a.Skeleton.Nodes); n != MaxDepth {
		t.Errorf("%d nodes", n)
	}
	// As deep, with long names: the paths' summed length is bounded too.
	long := strings.Repeat("x", 200)
	for i := 1; i < len(d.Skeleton); i++ {
		d.Skeleton[i].Name, d.Skeleton[i].ParentName = long, long
	}
	d.Skeleton[1].ParentName = "Root"
	if _, err := Build("long", d); !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), "bytes") {
		t.Errorf("error %v, want the paths' length refused", err)
	}
}
