package gltfchar

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/decode/yamlasset"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/humanoid"
	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/model"
)

func TestHumanBoneNamesAreHumanoids(t *testing.T) {
	if len(humanBones) != len(humanoid.BoneNames) || model.HumanBoneCount != humanoid.BoneCount {
		t.Fatalf("%d names here, %d in humanoid", len(humanBones), len(humanoid.BoneNames))
	}
	for i := range humanBones {
		if humanBones[i] != humanoid.BoneNames[i] {
			t.Errorf("bone %d: %q here, %q in humanoid", i, humanBones[i], humanoid.BoneNames[i])
		}
	}
}

// bodyPos is where each human bone of the synthetic character stands in
// glTF's frame when it faces +z (its left at +x), arms drooping by droop
// degrees.
func bodyPos(droop float64) map[int][3]float64 {
	p := map[int][3]float64{
		int(model.HumanHips): {0, 1.0, 0}, int(model.HumanSpine): {0, 1.1, 0}, int(model.HumanChest): {0, 1.25, 0}, int(model.HumanUpperChest): {0, 1.35, 0},
		int(model.HumanNeck): {0, 1.5, 0}, int(model.HumanHead): {0, 1.6, 0}, int(model.HumanJaw): {0, 1.62, 0.05},
	}
	a := droop * math.Pi / 180
	for side, sx := range []float64{1, -1} {
		p[sided(int(model.HumanLeftEye), side)] = [3]float64{0.03 * sx, 1.7, 0.08}
		p[sided(int(model.HumanLeftUpperLeg), side)] = [3]float64{0.1 * sx, 0.95, 0}
		p[sided(int(model.HumanLeftLowerLeg), side)] = [3]float64{0.1 * sx, 0.52, 0.01}
		p[sided(int(model.HumanLeftFoot), side)] = [3]float64{0.1 * sx, 0.08, 0}
		p[sided(int(model.HumanLeftToes), side)] = [3]float64{0.1 * sx, 0.02, 0.12}
		p[sided(int(model.HumanLeftShoulder), side)] = [3]float64{0.04 * sx, 1.45, 0}
		up := [3]float64{0.17 * sx, 1.45, 0}
		dir := [3]float64{math.Cos(a) * sx, -math.Sin(a), 0}
		at := func(from [3]float64, l float64) [3]float64 {
			return [3]float64{from[0] + l*dir[0], from[1] + l*dir[1], from[2] + l*dir[2]}
		}
		p[sided(int(model.HumanLeftUpperArm), side)] = up
		p[sided(int(model.HumanLeftLowerArm), side)] = at(up, 0.28)
		hand := at(up, 0.53)
		p[sided(int(model.HumanLeftHand), side)] = hand
		for f := range 5 {
			base := at(hand, 0.05)
			base[2] += 0.04 - 0.02*float64(f)
			for seg := range 3 {
				p[fingerBone(side, f, seg)] = at(base, 0.025*float64(seg))
			}
		}
	}
	return p
}

// namer gives a scheme's name of each human bone it has ("" for none) and
// extra nodes to insert above some bones.
type namer struct {
	name  func(b int) string
	above map[int]string
	root  string
}

var fingerWords = [5]string{"Thumb", "Index", "Middle", "Ring", "Little"}

func finger(b int) (side, f, seg int, ok bool) {
	if b < int(model.HumanLeftFingers) {
		return 0, 0, 0, false
	}
	k := b - int(model.HumanLeftFingers)
	return k / 15, (k % 15) / 3, k % 3, true
}

// Each scheme's names, written out as the tools write them.
var namers = map[HumanSource]namer{
	HumanMixamo: {root: "Armature", name: mixamoName},
	HumanHumanIK: {root: "Reference", name: func(b int) string {
		n := mixamoName(b)
		if n == "" {
			return ""
		}
		return "Character1_" + strings.TrimPrefix(n, "mixamorig:")
	}},
	HumanVRoid: {root: "Root", name: func(b int) string {
		if s, f, seg, ok := finger(b); ok {
			return fmt.Sprintf("J_Bip_%s_%s%d", []string{"L", "R"}[s], fingerWords[f], seg+1)
		}
		c := map[int]string{int(model.HumanHips): "Hips", int(model.HumanSpine): "Spine", int(model.HumanChest): "Chest", int(model.HumanUpperChest): "UpperChest", int(model.HumanNeck): "Neck", int(model.HumanHead): "Head"}
		if n, ok := c[b]; ok {
			return "J_Bip_C_" + n
		}
		for side, s := range []string{"L", "R"} {
			for l, n := range map[int]string{int(model.HumanLeftShoulder): "Shoulder", int(model.HumanLeftUpperArm): "UpperArm", int(model.HumanLeftLowerArm): "LowerArm", int(model.HumanLeftHand): "Hand",
				int(model.HumanLeftUpperLeg): "UpperLeg", int(model.HumanLeftLowerLeg): "LowerLeg", int(model.HumanLeftFoot): "Foot", int(model.HumanLeftToes): "ToeBase"} {
				if b == l+side {
					return "J_Bip_" + s + "_" + n
				}
			}
			if b == int(model.HumanLeftEye)+side {
				return "J_Adj_" + s + "_FaceEye"
			}
		}
		return ""
	}},
	HumanUnreal: {root: "root", above: map[int]string{int(model.HumanChest): "spine_02", int(model.HumanUpperChest): "spine_04"}, name: func(b int) string {
		if s, f, seg, ok := finger(b); ok {
			return fmt.Sprintf("%s_0%d_%s", []string{"thumb", "index", "middle", "ring", "pinky"}[f], seg+1, []string{"l", "r"}[s])
		}
		// UE5's five spine bones: spine, chest and upper chest are
		// spine_01, spine_03 and spine_05.
		c := map[int]string{int(model.HumanHips): "pelvis", int(model.HumanSpine): "spine_01", int(model.HumanChest): "spine_03", int(model.HumanUpperChest): "spine_05", int(model.HumanNeck): "neck_01", int(model.HumanHead): "head"}
		if n, ok := c[b]; ok {
			return n
		}
		for side, s := range []string{"l", "r"} {
			for l, n := range map[int]string{int(model.HumanLeftShoulder): "clavicle", int(model.HumanLeftUpperArm): "upperarm", int(model.HumanLeftLowerArm): "lowerarm", int(model.HumanLeftHand): "hand",
				int(model.HumanLeftUpperLeg): "thigh", int(model.HumanLeftLowerLeg): "calf", int(model.HumanLeftFoot): "foot", int(model.HumanLeftToes): "ball"} {
				if b == l+side {
					return n + "_" + s
				}
			}
		}
		return ""
	}},
	HumanBlender: {root: "Armature", above: map[int]string{int(model.HumanHead): "DEF-spine.005"}, name: func(b int) string {
		if s, f, seg, ok := finger(b); ok {
			w := []string{"thumb", "f_index", "f_middle", "f_ring", "f_pinky"}[f]
			return fmt.Sprintf("DEF-%s.0%d.%s", w, seg+1, []string{"L", "R"}[s])
		}
		c := map[int]string{int(model.HumanHips): "DEF-spine", int(model.HumanSpine): "DEF-spine.001", int(model.HumanChest): "DEF-spine.002", int(model.HumanUpperChest): "DEF-spine.003", int(model.HumanNeck): "DEF-spine.004", int(model.HumanHead): "DEF-spine.006"}
		if n, ok := c[b]; ok {
			return n
		}
		for side, s := range []string{"L", "R"} {
			for l, n := range map[int]string{int(model.HumanLeftShoulder): "shoulder", int(model.HumanLeftUpperArm): "upper_arm", int(model.HumanLeftLowerArm): "forearm", int(model.HumanLeftHand): "hand",
				int(model.HumanLeftUpperLeg): "thigh", int(model.HumanLeftLowerLeg): "shin", int(model.HumanLeftFoot): "foot", int(model.HumanLeftToes): "toe"} {
				if b == l+side {
					return "DEF-" + n + "." + s
				}
			}
		}
		return ""
	}},
	HumanBiped: {root: "Bip001", name: func(b int) string {
		if s, f, seg, ok := finger(b); ok {
			n := fmt.Sprintf("Bip001 %s Finger%d", []string{"L", "R"}[s], f)
			if seg > 0 {
				n += fmt.Sprint(seg)
			}
			return n
		}
		c := map[int]string{int(model.HumanHips): "Pelvis", int(model.HumanSpine): "Spine", int(model.HumanChest): "Spine1", int(model.HumanUpperChest): "Spine2", int(model.HumanNeck): "Neck", int(model.HumanHead): "Head"}
		if n, ok := c[b]; ok {
			return "Bip001 " + n
		}
		for side, s := range []string{"L", "R"} {
			for l, n := range map[int]string{int(model.HumanLeftShoulder): "Clavicle", int(model.HumanLeftUpperArm): "UpperArm", int(model.HumanLeftLowerArm): "Forearm", int(model.HumanLeftHand): "Hand",
				int(model.HumanLeftUpperLeg): "Thigh", int(model.HumanLeftLowerLeg): "Calf", int(model.HumanLeftFoot): "Foot", int(model.HumanLeftToes): "Toe0"} {
				if b == l+side {
					return "Bip001 " + s + " " + n
				}
			}
		}
		return ""
	}},
	HumanUnity: {root: "Character", name: func(b int) string {
		n := humanoid.BoneNames[b]
		if b%2 == 0 {
			n = strings.ReplaceAll(n, " ", "") // "LeftThumbProximal" as well as "Left Thumb Proximal"
		}
		return n
	}},
}

// humanGLB builds a character of the scheme's names: a root holding the
// human bones (each under its nearest present human parent, identity
// rotations), turned to face -z when back is set.
func humanGLB(t testing.TB, nm namer, droop float64, back bool) []byte {
	b := newBuilder()
	pos := bodyPos(droop)
	root := b.node(nm.root, -1, [3]float64{}, [4]float64{0, 0, 0, 1})
	nodeOf := map[int]int{}
	world := map[int][3]float64{}
	for bone := range model.HumanBoneCount {
		name := nm.name(bone)
		if name == "" {
			continue
		}
		p := humanParent(bone)
		for p >= 0 && nm.name(p) == "" {
			p = humanParent(p)
		}
		parent, pw := root, [3]float64{}
		if p >= 0 {
			parent, pw = nodeOf[p], world[p]
		}
		w := pos[bone]
		if back {
			w = [3]float64{-w[0], w[1], -w[2]}
		}
		if extra, ok := nm.above[bone]; ok {
			mid := [3]float64{(w[0] + pw[0]) / 2, (w[1] + pw[1]) / 2, (w[2] + pw[2]) / 2}
			parent = b.node(extra, parent, [3]float64{mid[0] - pw[0], mid[1] - pw[1], mid[2] - pw[2]}, [4]float64{0, 0, 0, 1})
			pw = mid
		}
		nodeOf[bone] = b.node(name, parent, [3]float64{w[0] - pw[0], w[1] - pw[1], w[2] - pw[2]}, [4]float64{0, 0, 0, 1})
		world[bone] = w
	}
	b.node("Body", -1, [3]float64{}, [4]float64{0, 0, 0, 1})
	return b.glb(t)
}

// worldOf returns rig node i's world transform.
func worldOf(r *model.Rig, i int) geom.Transform {
	w := r.Nodes[i].Local
	for p := r.Nodes[i].Parent; p >= 0; p = r.Nodes[p].Parent {
		w = r.Nodes[p].Local.Mul(w)
	}
	return w
}

// humanNode returns the rig node a human bone is mapped to.
func humanNode(t testing.TB, c *Character, bone string) int {
	t.Helper()
	for _, h := range c.Human.Human {
		if h.HumanName == bone {
			for i, n := range c.Rig.Nodes {
				if n.Name == h.BoneName {
					return i
				}
			}
			t.Fatalf("%s maps to %q, not a rig node", bone, h.BoneName)
		}
	}
	t.Fatalf("%s not mapped", bone)
	return -1
}

// checkStanding checks that a character faces +z in Unity's frame (toes
// ahead of the feet, its left at -x), stands on y≈0 and is as tall as a
// person.
func checkStanding(t *testing.T, c *Character, minHeight, maxHeight float32) {
	t.Helper()
	pos := func(b string) geom.Vec3 { return worldOf(c.Rig, humanNode(t, c, b)).T }
	for _, s := range []string{"Left", "Right"} {
		if _, ok := mappedNode(c, s+"Toes"); ok {
			if d := pos(s + "Toes").Sub(pos(s + "Foot")); !(d.Z > 0.02) {
				t.Errorf("%s toes %v from the foot: not ahead along +z", s, d)
			}
		}
		if y := pos(s + "Foot").Y; y < -0.02 || y > 0.2 {
			t.Errorf("%s foot at height %g", s, y)
		}
	}
	if l, r := pos("LeftUpperLeg").X, pos("RightUpperLeg").X; !(l < r) {
		t.Errorf("left leg at x %g, right at %g: left should be at -x", l, r)
	}
	if l, r := pos("LeftHand").X, pos("RightHand").X; !(l < r) {
		t.Errorf("left hand at x %g, right at %g", l, r)
	}
	if h := pos("Head").Y; h < minHeight || h > maxHeight {
		t.Errorf("head at height %g, want %g..%g", h, minHeight, maxHeight)
	}
}

func mappedNode(c *Character, bone string) (string, bool) {
	for _, h := range c.Human.Human {
		if h.HumanName == bone {
			return h.BoneName, true
		}
	}
	return "", false
}

func TestNamingSchemesMapEveryBoneTheyName(t *testing.T) {
	for _, src := range []HumanSource{HumanMixamo, HumanVRoid, HumanUnreal, HumanBlender, HumanUnity, HumanBiped, HumanHumanIK} {
		for _, back := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/back=%v", src, back), func(t *testing.T) {
				nm := namers[src]
				c := read(t, humanGLB(t, nm, 0, back), Config{})
				if c.Human == nil {
					t.Fatalf("no human map (warnings %q)", c.Warnings)
				}
				if c.HumanSource != src {
					t.Errorf("source %s, want %s", c.HumanSource, src)
				}
				want := 0
				for b := range model.HumanBoneCount {
					if n := nm.name(b); n != "" {
						want++
						if got, ok := mappedNode(c, humanBones[b]); !ok || got != n {
							t.Errorf("%s: mapped to %q (%v), want %q", humanBones[b], got, ok, n)
						}
					}
				}
				if len(c.Human.Human) != want {
					t.Errorf("%d bones mapped, want %d", len(c.Human.Human), want)
				}
				wantMirror := MirrorX
				if back {
					wantMirror = MirrorZ
				}
				if c.Mirror != wantMirror {
					t.Errorf("mirror %s (%s), want %s", c.Mirror, c.Facing, wantMirror)
				}
				checkStanding(t, c, 1.5, 1.7)
				if c.ArmsRaised != [2]float32{} {
					t.Errorf("T-pose arms raised by %v", c.ArmsRaised)
				}
				if len(c.Human.Skeleton) != len(c.Rig.Nodes) || c.Human.Skeleton[0].ParentName != "" {
					t.Errorf("skeleton of %d bones for %d nodes", len(c.Human.Skeleton), len(c.Rig.Nodes))
				}
			})
		}
	}
}

// TestFacingFromTheLegsWithoutToes drops the toes: the legs' left-right
// axis and the spine decide.
func TestFacingFromTheLegsWithoutToes(t *testing.T) {
	for _, back := range []bool{false, true} {
		nm := namers[HumanUnity]
		nm.name = func(b int) string {
			if b == int(model.HumanLeftToes) || b == int(model.HumanRightToes) {
				return ""
			}
			return humanoid.BoneNames[b]
		}
		c := read(t, humanGLB(t, nm, 0, back), Config{})
		want := MirrorX
		if back {
			want = MirrorZ
		}
		if c.Mirror != want || !strings.Contains(c.Facing, "left × up") {
			t.Errorf("back=%v: %s (%s), want %s from the legs", back, c.Mirror, c.Facing, want)
		}
		checkStanding(t, c, 1.5, 1.7)
	}
}

func TestNoHumanMapWithoutRequiredBones(t *testing.T) {
	nm := namers[HumanMixamo]
	inner := nm.name
	nm.name = func(b int) string {
		if b == int(model.HumanLeftHand) {
			return "" // a required bone
		}
		return inner(b)
	}
	c := read(t, humanGLB(t, nm, 0, false), Config{})
	if c.Human != nil || c.HumanSource != HumanNone {
		t.Fatalf("map from %s without a left hand", c.HumanSource)
	}
	if c.Mirror != MirrorX {
		t.Errorf("mirror %s without a map", c.Mirror)
	}
}

// TestAPoseRaisesTheUpperArms reads an A-pose (arms 40° down): the
// description's skeleton turns the upper arms up as Unity's Enforce T-Pose
// does, to within 5° less a twentieth of the droop of horizontal (1.05 less
// 5° over the droop, of the droop), the rig keeps the rest pose; arms 10°
// down are turned the same way, arms 4° down (within 5°) are kept.
func TestAPoseRaisesTheUpperArms(t *testing.T) {
	for _, droop := range []float64{40, 10, 4} {
		for _, back := range []bool{false, true} {
			c := read(t, humanGLB(t, namers[HumanMixamo], droop, back), Config{})
			want := float32(0)
			if droop > APoseThresholdDeg*0.99 {
				want = float32(droop * (1.05 - APoseThresholdDeg/droop))
			}
			for s := range 2 {
				if math.Abs(float64(c.ArmsRaised[s]-want)) > 1e-3 {
					t.Errorf("droop %g back %v: side %d raised %g°, want %g", droop, back, s, c.ArmsRaised[s], want)
				}
			}
			// The skeleton's world positions.
			sk := c.Human.Skeleton
			idx := map[string]int{}
			for i, b := range sk {
				idx[b.Name] = i
			}
			var world func(i int) geom.Transform
			world = func(i int) geom.Transform {
				if sk[i].ParentName == "" {
					return sk[i].Local
				}
				return world(idx[sk[i].ParentName]).Mul(sk[i].Local)
			}
			for _, side := range []string{"Left", "Right"} {
				u, _ := mappedNode(c, side+"UpperArm")
				l, _ := mappedNode(c, side+"LowerArm")
				h, _ := mappedNode(c, side+"Hand")
				d := world(idx[l]).T.Sub(world(idx[u]).T)
				elev := math.Asin(float64(d.Y/d.Len())) * 180 / math.Pi
				wantElev := -droop + float64(want)
				if math.Abs(elev-wantElev) > 1e-3 {
					t.Errorf("droop %g back %v: %s arm at %g° in the skeleton, want %g", droop, back, side, elev, wantElev)
				}
				if math.Abs(float64(d.Len())-0.28) > 1e-5 {
					t.Errorf("%s upper arm %g long", side, d.Len())
				}
				// The hand follows, still on the arm's line (the straight
				// forearm is within 5° of its side, so it stays as it is),
				// beside the shoulder (the body's side, not ahead or
				// behind it).
				hd := world(idx[h]).T.Sub(world(idx[u]).T)
				if hd.Cross(d).Len() > 1e-5*hd.Len()*d.Len() || math.Abs(float64(hd.Z)) > 1e-5 {
					t.Errorf("%s hand at %v from the shoulder joint, off the arm's line %v", side, hd, d)
				}
				// The rig keeps the A-pose.
				rd := worldOf(c.Rig, humanNode(t, c, side+"LowerArm")).T.Sub(worldOf(c.Rig, humanNode(t, c, side+"UpperArm")).T)
				if re := math.Asin(float64(rd.Y/rd.Len())) * 180 / math.Pi; math.Abs(re+droop) > 1e-3 {
					t.Errorf("rig's %s arm at %g°, want %g", side, re, -droop)
				}
			}
		}
	}
}

func TestParseHumanMap(t *testing.T) {
	good := `{"Hips": "pelvis", "Left Thumb Proximal": "thumb_01_l"}`
	m, err := ParseHumanMap(strings.NewReader(good))
	if err != nil || m["Hips"] != "pelvis" || m["Left Thumb Proximal"] != "thumb_01_l" || len(m) != 2 {
		t.Fatalf("%v %v", m, err)
	}
	for _, c := range []struct{ in, want string }{
		{`{"Hipz": "a"}`, `"Hipz" is not a human bone name`},
		{`{"LeftThumbProximal": "a"}`, `did you mean "Left Thumb Proximal"`},
		{`{"Hips": "a", "Hips": "b"}`, `"Hips" given twice`},
		{`{"Hips": 3}`, `"Hips"`},
		{`["Hips"]`, "not a JSON object"},
		{`{"Hips": "a"} {}`, "data after the object"},
		{`{"Hips": "a"`, "bad human map"},
	} {
		_, err := ParseHumanMap(strings.NewReader(c.in))
		if err == nil || !errors.Is(err, ErrHumanMap) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %s", c.in, err, c.want)
		}
	}
}

// TestUserMapOverridesNames maps a rig whose names no scheme knows.
func TestUserMapOverridesNames(t *testing.T) {
	nm := namer{root: "Rig", name: func(b int) string { return fmt.Sprintf("bone%02d", b) }}
	data := humanGLB(t, nm, 0, true)
	if c := read(t, data, Config{}); c.Human != nil {
		t.Fatalf("names bone00.. mapped by %s", c.HumanSource)
	}
	m := HumanMap{}
	for b := range model.HumanBoneCount {
		m[humanBones[b]] = nm.name(b)
	}
	c := read(t, data, Config{HumanMap: m})
	if c.HumanSource != HumanUserMap || len(c.Human.Human) != model.HumanBoneCount {
		t.Fatalf("%s, %d bones", c.HumanSource, len(c.Human.Human))
	}
	if c.Mirror != MirrorZ {
		t.Errorf("mirror %s (%s): the character faces -z", c.Mirror, c.Facing)
	}
	checkStanding(t, c, 1.5, 1.7)

	for _, bad := range []struct {
		m    HumanMap
		want string
	}{
		{HumanMap{"Hips": "nothing"}, `no node named "nothing"`},
		{HumanMap{"Hips": "bone00"}, "required bones missing"},
		{func() HumanMap {
			b := HumanMap{}
			for k, v := range m {
				b[k] = v
			}
			b["LeftHand"], b["LeftLowerArm"] = b["LeftLowerArm"], b["LeftHand"]
			return b
		}(), "is not below"},
	} {
		_, err := Config{HumanMap: bad.m}.Read(strings.NewReader(string(data)), int64(len(data)), "test.glb")
		if !errors.Is(err, ErrHumanMap) || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%v: %v, want %s", bad.m, err, bad.want)
		}
	}
}

// A 3ds Max Biped rig maps as Unity's importer mapped one: the human
// description Unity wrote for the Biped character of the corpus's recording
// (unity-humanoid-truth/Unity_Model.FBX.meta) lists its skeleton's names and
// the bone it chose for each human bone; the Biped scheme, given those
// names, chooses the same.
func TestBipedNamesMapAsUnitysImporterMappedThem(t *testing.T) {
	f, err := yamlasset.ParseFile(corpustest.Path(t, "unity-humanoid-truth/Unity_Model.FBX.meta"))
	if err != nil {
		t.Fatal(err)
	}
	d, err := f.HumanDescription()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, b := range d.Skeleton {
		names = append(names, b.Name)
	}
	got := matchBiped(names)
	if len(d.Human) < 50 {
		t.Fatalf("Unity mapped %d bones; the recording's character has 52", len(d.Human))
	}
	for _, h := range d.Human {
		b, ok := boneByName(h.HumanName)
		if !ok {
			t.Fatalf("human bone %q unknown", h.HumanName)
		}
		if got[b] < 0 || names[got[b]] != h.BoneName {
			n := "nothing"
			if got[b] >= 0 {
				n = names[got[b]]
			}
			t.Errorf("%s: Unity chose %q, the Biped scheme %s", h.HumanName, h.BoneName, n)
		}
	}
	if count(got) != len(d.Human) {
		t.Errorf("the Biped scheme maps %d bones, Unity %d", count(got), len(d.Human))
	}
}

// mixamoName is the name Mixamo gives human bone b ("" for none).
func mixamoName(b int) string {
	if s, f, seg, ok := finger(b); ok {
		return fmt.Sprintf("mixamorig:%sHand%s%d", []string{"Left", "Right"}[s], []string{"Thumb", "Index", "Middle", "Ring", "Pinky"}[f], seg+1)
	}
	n := map[int]string{int(model.HumanHips): "Hips", int(model.HumanSpine): "Spine", int(model.HumanChest): "Spine1", int(model.HumanUpperChest): "Spine2", int(model.HumanNeck): "Neck", int(model.HumanHead): "Head",
		int(model.HumanLeftShoulder): "LeftShoulder", int(model.HumanLeftUpperArm): "LeftArm", int(model.HumanLeftLowerArm): "LeftForeArm", int(model.HumanLeftHand): "LeftHand",
		int(model.HumanLeftUpperLeg): "LeftUpLeg", int(model.HumanLeftLowerLeg): "LeftLeg", int(model.HumanLeftFoot): "LeftFoot", int(model.HumanLeftToes): "LeftToeBase", int(model.HumanLeftEye): "LeftEye",
		int(model.HumanRightShoulder): "RightShoulder", int(model.HumanRightUpperArm): "RightArm", int(model.HumanRightLowerArm): "RightForeArm", int(model.HumanRightHand): "RightHand",
		int(model.HumanRightUpperLeg): "RightUpLeg", int(model.HumanRightLowerLeg): "RightLeg", int(model.HumanRightFoot): "RightFoot", int(model.HumanRightToes): "RightToeBase", int(model.HumanRightEye): "RightEye"}[b]
	if n == "" {
		return ""
	}
	return "mixamorig:" + n
}
