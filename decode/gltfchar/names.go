package gltfchar

import (
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/mecanim/mecanim/model"
)

// humanBones are the human bones' names, in the order of the constants
// below.
var humanBones = model.HumanBoneNames

// requiredBones are the bones Unity needs to build a humanoid avatar.
var requiredBones = []int{
	int(model.HumanHips), int(model.HumanSpine), int(model.HumanHead),
	int(model.HumanLeftUpperLeg), int(model.HumanRightUpperLeg), int(model.HumanLeftLowerLeg), int(model.HumanRightLowerLeg), int(model.HumanLeftFoot), int(model.HumanRightFoot),
	int(model.HumanLeftUpperArm), int(model.HumanRightUpperArm), int(model.HumanLeftLowerArm), int(model.HumanRightLowerArm), int(model.HumanLeftHand), int(model.HumanRightHand),
}

// humanParent is each bone's parent among the human bones when every
// optional bone is there (-1 for the hips; model.HumanBone.Parent).
func humanParent(b int) int { return int(model.HumanBone(b).Parent()) }

// fingerBone returns the index of a finger bone: side 0 left, 1 right;
// finger 0 thumb .. 4 little; seg 0 proximal, 1 intermediate, 2 distal.
func fingerBone(side, finger, seg int) int {
	return int(model.HumanLeftFingers) + 15*side + 3*finger + seg
}

// sided returns the left (side 0) or right twin of a left body bone.
func sided(left, side int) int { return left + side }

// normName folds a name for loose comparison: lower case, without spaces,
// underscores, dots and hyphens.
func normName(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch r {
		case ' ', '_', '.', '-':
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// bonesByNorm maps each human bone's folded name to its index.
var bonesByNorm = func() map[string]int {
	m := make(map[string]int, len(humanBones))
	for i, b := range humanBones {
		m[normName(b)] = i
	}
	return m
}()

// boneByName finds a human bone by its Unity name, loosely (see normName).
func boneByName(name string) (int, bool) {
	b, ok := bonesByNorm[normName(name)]
	return b, ok
}

// HumanSource says where a character's human bone map came from.
type HumanSource int

// Where a map can come from.
const (
	HumanNone    HumanSource = iota // no map found
	HumanVRM0                       // VRM 0.x humanoid extension
	HumanVRM1                       // VRM 1.0 humanoid extension
	HumanUserMap                    // Config.HumanMap
	HumanMixamo                     // bone names: Mixamo ("mixamorig:Hips", "LeftUpLeg", ...)
	HumanVRoid                      // bone names: VRoid Studio ("J_Bip_C_Hips", "J_Bip_L_UpperArm", ...)
	HumanUnreal                     // bone names: Unreal's mannequin ("pelvis", "spine_01", "thigh_l", ...)
	HumanBlender                    // bone names: Blender's Rigify metarig or DEF bones ("spine.001", "thigh.L", ...) and Blender-style descriptive names ("upper_arm.L", "thumb.proximal.R", ...)
	HumanUnity                      // bone names: Unity's own ("Hips", "LeftUpperLeg", "Left Thumb Proximal", ...)
	HumanBiped                      // bone names: 3ds Max's Biped ("Bip001 Pelvis", "Bip001 L Thigh", "Bip001 R Finger01", ...)
	HumanHumanIK                    // bone names: MotionBuilder's HumanIK character ("Character1_Hips", "Character1_LeftUpLeg", ...)
)

// String names the source.
func (s HumanSource) String() string {
	switch s {
	case HumanNone:
		return "none"
	case HumanVRM0:
		return "VRM 0.x humanoid"
	case HumanVRM1:
		return "VRM 1.0 humanoid"
	case HumanUserMap:
		return "user map"
	case HumanMixamo:
		return "Mixamo names"
	case HumanVRoid:
		return "VRoid names"
	case HumanUnreal:
		return "Unreal mannequin names"
	case HumanBlender:
		return "Blender names"
	case HumanUnity:
		return "Unity names"
	case HumanBiped:
		return "3ds Max Biped names"
	case HumanHumanIK:
		return "HumanIK names"
	}
	return "unknown"
}

// scheme maps the rig's node names to human bones: a bone per node name
// it recognises (nodes in rig order; the first node wins a bone).
type scheme struct {
	source HumanSource
	match  func(names []string) []int // human bone -> rig node (-1)
}

// schemes are tried in this order; the one mapping the most bones (with
// every required one, in a consistent hierarchy) wins, the earlier on a
// tie.
var schemes = []scheme{
	{HumanMixamo, matchMixamo},
	{HumanVRoid, matchVRoid},
	{HumanUnreal, matchUnreal},
	{HumanBlender, matchBlender},
	{HumanUnity, matchUnity},
	{HumanBiped, matchBiped},
	{HumanHumanIK, matchHumanIK},
}

func emptyMap() []int {
	m := make([]int, model.HumanBoneCount)
	for i := range m {
		m[i] = -1
	}
	return m
}

// byTable maps names through a lookup, first node per bone.
func byTable(names []string, look func(string) (int, bool)) []int {
	m := emptyMap()
	for i, n := range names {
		if b, ok := look(n); ok && m[b] < 0 {
			m[b] = i
		}
	}
	return m
}

var fingerNames = [5]string{"Thumb", "Index", "Middle", "Ring", "Little"}

var mixamoPrefix = regexp.MustCompile(`^(?i:mixamorig)[0-9]*[:_]?`)

// mixamoTable maps Mixamo's names (prefix removed, lower case).
var mixamoTable = func() map[string]int {
	t := map[string]int{
		"hips": int(model.HumanHips), "spine": int(model.HumanSpine), "spine1": int(model.HumanChest), "spine2": int(model.HumanUpperChest),
		"neck": int(model.HumanNeck), "head": int(model.HumanHead),
	}
	for side, s := range []string{"left", "right"} {
		t[s+"shoulder"] = sided(int(model.HumanLeftShoulder), side)
		t[s+"arm"] = sided(int(model.HumanLeftUpperArm), side)
		t[s+"forearm"] = sided(int(model.HumanLeftLowerArm), side)
		t[s+"hand"] = sided(int(model.HumanLeftHand), side)
		t[s+"upleg"] = sided(int(model.HumanLeftUpperLeg), side)
		t[s+"leg"] = sided(int(model.HumanLeftLowerLeg), side)
		t[s+"foot"] = sided(int(model.HumanLeftFoot), side)
		t[s+"toebase"] = sided(int(model.HumanLeftToes), side)
		t[s+"eye"] = sided(int(model.HumanLeftEye), side)
		for f, fn := range []string{"thumb", "index", "middle", "ring", "pinky"} {
			for seg := range 3 {
				t[s+"hand"+fn+strconv.Itoa(seg+1)] = fingerBone(side, f, seg)
			}
		}
	}
	return t
}()

func matchMixamo(names []string) []int {
	return byTable(names, func(n string) (int, bool) {
		b, ok := mixamoTable[strings.ToLower(mixamoPrefix.ReplaceAllString(n, ""))]
		return b, ok
	})
}

// humanIKPrefix is the character's name MotionBuilder's HumanIK puts
// before each bone ("Character1_").
var humanIKPrefix = regexp.MustCompile(`^(?i:character)[0-9]*_`)

// matchHumanIK maps MotionBuilder's HumanIK names: the character's prefix,
// then the names Mixamo took from HumanIK ("Hips", "LeftUpLeg",
// "LeftHandThumb1", ...).
func matchHumanIK(names []string) []int {
	return byTable(names, func(n string) (int, bool) {
		if !humanIKPrefix.MatchString(n) {
			return 0, false
		}
		b, ok := mixamoTable[strings.ToLower(humanIKPrefix.ReplaceAllString(n, ""))]
		return b, ok
	})
}

var vroidName = regexp.MustCompile(`^J_(Bip|Adj)_([CLR])_(\w+)$`)

func matchVRoid(names []string) []int {
	center := map[string]int{"Hips": int(model.HumanHips), "Spine": int(model.HumanSpine), "Chest": int(model.HumanChest), "UpperChest": int(model.HumanUpperChest), "Neck": int(model.HumanNeck), "Head": int(model.HumanHead)}
	limb := map[string]int{"Shoulder": int(model.HumanLeftShoulder), "UpperArm": int(model.HumanLeftUpperArm), "LowerArm": int(model.HumanLeftLowerArm), "Hand": int(model.HumanLeftHand),
		"UpperLeg": int(model.HumanLeftUpperLeg), "LowerLeg": int(model.HumanLeftLowerLeg), "Foot": int(model.HumanLeftFoot), "ToeBase": int(model.HumanLeftToes)}
	return byTable(names, func(n string) (int, bool) {
		m := vroidName.FindStringSubmatch(n)
		if m == nil {
			return 0, false
		}
		kind, side, word := m[1], m[2], m[3]
		if side == "C" {
			b, ok := center[word]
			return b, ok && kind == "Bip"
		}
		s := 0
		if side == "R" {
			s = 1
		}
		if kind == "Adj" {
			return sided(int(model.HumanLeftEye), s), word == "FaceEye"
		}
		if b, ok := limb[word]; ok {
			return sided(b, s), true
		}
		for f, fn := range fingerNames {
			if len(word) == len(fn)+1 && strings.HasPrefix(word, fn) && word[len(fn)] >= '1' && word[len(fn)] <= '3' {
				return fingerBone(s, f, int(word[len(fn)]-'1')), true
			}
		}
		return 0, false
	})
}

var unrealSpine = regexp.MustCompile(`^spine_([0-9]+)$`)

// matchUnreal maps Unreal's mannequin (UE4 and UE5): spine_01.. spine_0N
// are spine, chest (the middle one) and upper chest (the last, with three
// or more).
func matchUnreal(names []string) []int {
	t := map[string]int{"pelvis": int(model.HumanHips), "neck_01": int(model.HumanNeck), "head": int(model.HumanHead)}
	for side, s := range []string{"_l", "_r"} {
		t["clavicle"+s] = sided(int(model.HumanLeftShoulder), side)
		t["upperarm"+s] = sided(int(model.HumanLeftUpperArm), side)
		t["lowerarm"+s] = sided(int(model.HumanLeftLowerArm), side)
		t["hand"+s] = sided(int(model.HumanLeftHand), side)
		t["thigh"+s] = sided(int(model.HumanLeftUpperLeg), side)
		t["calf"+s] = sided(int(model.HumanLeftLowerLeg), side)
		t["foot"+s] = sided(int(model.HumanLeftFoot), side)
		t["ball"+s] = sided(int(model.HumanLeftToes), side)
		for f, fn := range []string{"thumb", "index", "middle", "ring", "pinky"} {
			for seg := range 3 {
				t[fn+"_0"+strconv.Itoa(seg+1)+s] = fingerBone(side, f, seg)
			}
		}
	}
	m := byTable(names, func(n string) (int, bool) { b, ok := t[strings.ToLower(n)]; return b, ok })
	type num struct{ n, node int }
	var spine []num
	seen := map[int]bool{}
	for i, n := range names {
		if s := unrealSpine.FindStringSubmatch(strings.ToLower(n)); s != nil {
			k, _ := strconv.Atoi(s[1])
			if !seen[k] {
				seen[k] = true
				spine = append(spine, num{k, i})
			}
		}
	}
	sort.Slice(spine, func(i, j int) bool { return spine[i].n < spine[j].n })
	switch k := len(spine); {
	case k >= 3:
		m[int(model.HumanSpine)], m[int(model.HumanChest)], m[int(model.HumanUpperChest)] = spine[0].node, spine[(k-1)/2].node, spine[k-1].node
	case k == 2:
		m[int(model.HumanSpine)], m[int(model.HumanChest)] = spine[0].node, spine[1].node
	case k == 1:
		m[int(model.HumanSpine)] = spine[0].node
	}
	return m
}

var blenderSide = regexp.MustCompile(`^(.+)[._-]([LlRr])$`)
var blenderFinger = regexp.MustCompile(`^(?:f_)?(thumb|index|middle|ring|pinky|little)[._]?(01|02|03|1|2|3|proximal|intermediate|distal)$`)
var rigifySpine = regexp.MustCompile(`^spine(?:\.([0-9]{3}))?$`)

// blenderWords maps Blender's limb names (side suffix removed, lower
// case): Rigify's metarig words and descriptive ones.
var blenderWords = map[string]int{
	"shoulder": int(model.HumanLeftShoulder), "upper_arm": int(model.HumanLeftUpperArm), "upperarm": int(model.HumanLeftUpperArm),
	"forearm": int(model.HumanLeftLowerArm), "lower_arm": int(model.HumanLeftLowerArm), "lowerarm": int(model.HumanLeftLowerArm), "hand": int(model.HumanLeftHand),
	"thigh": int(model.HumanLeftUpperLeg), "upper_leg": int(model.HumanLeftUpperLeg), "upperleg": int(model.HumanLeftUpperLeg),
	"shin": int(model.HumanLeftLowerLeg), "lower_leg": int(model.HumanLeftLowerLeg), "lowerleg": int(model.HumanLeftLowerLeg),
	"foot": int(model.HumanLeftFoot), "toe": int(model.HumanLeftToes), "toes": int(model.HumanLeftToes), "eye": int(model.HumanLeftEye),
}

var blenderCenter = map[string]int{
	"hips": int(model.HumanHips), "spine": int(model.HumanSpine), "chest": int(model.HumanChest), "upper_chest": int(model.HumanUpperChest), "upperchest": int(model.HumanUpperChest),
	"neck": int(model.HumanNeck), "head": int(model.HumanHead), "jaw": int(model.HumanJaw),
}

// matchBlender maps Blender's names: the deform bones of a Rigify rig
// (DEF-…) when there are any that map more bones, otherwise the plain
// names. Rigify's spine is one chain, spine, spine.001, …: with seven
// bones (the human metarig) hips, spine, chest, upper chest, neck, (neck
// upper), head; with six hips, spine, chest, upper chest, neck, head; with
// five or four the same without the upper chest (and without the neck
// with four).
func matchBlender(names []string) []int {
	plain := matchBlenderNames(names, "")
	def := matchBlenderNames(names, "DEF-")
	if count(def) >= count(plain) && count(def) > 0 {
		return def
	}
	return plain
}

func matchBlenderNames(names []string, prefix string) []int {
	m := emptyMap()
	chain := map[int]int{} // spine chain position -> node
	for i, n := range names {
		if prefix != "" {
			if !strings.HasPrefix(n, prefix) {
				continue
			}
			n = n[len(prefix):]
		}
		low := strings.ToLower(n)
		if s := rigifySpine.FindStringSubmatch(low); s != nil {
			k := 0
			if s[1] != "" {
				k, _ = strconv.Atoi(s[1])
			}
			if _, dup := chain[k]; !dup {
				chain[k] = i
			}
		}
		b := -1
		if side := blenderSide.FindStringSubmatch(n); side != nil {
			s := 0
			if side[2] == "R" || side[2] == "r" {
				s = 1
			}
			word := strings.ToLower(side[1])
			if l, ok := blenderWords[word]; ok {
				b = sided(l, s)
			} else if f := blenderFinger.FindStringSubmatch(word); f != nil {
				fi := map[string]int{"thumb": 0, "index": 1, "middle": 2, "ring": 3, "pinky": 4, "little": 4}[f[1]]
				seg := map[string]int{"01": 0, "1": 0, "proximal": 0, "02": 1, "2": 1, "intermediate": 1, "03": 2, "3": 2, "distal": 2}[f[2]]
				b = fingerBone(s, fi, seg)
			}
		} else if c, ok := blenderCenter[low]; ok {
			b = c
		}
		if b >= 0 && m[b] < 0 {
			m[b] = i
		}
	}
	// A Rigify chain (spine with spine.001 ... after it) replaces the
	// centre names.
	k := 0
	for {
		if _, ok := chain[k]; !ok {
			break
		}
		k++
	}
	var roles []int
	switch {
	case k >= 7:
		roles = []int{int(model.HumanHips), int(model.HumanSpine), int(model.HumanChest), int(model.HumanUpperChest), int(model.HumanNeck), -1, int(model.HumanHead)}
	case k == 6:
		roles = []int{int(model.HumanHips), int(model.HumanSpine), int(model.HumanChest), int(model.HumanUpperChest), int(model.HumanNeck), int(model.HumanHead)}
	case k == 5:
		roles = []int{int(model.HumanHips), int(model.HumanSpine), int(model.HumanChest), int(model.HumanNeck), int(model.HumanHead)}
	case k == 4:
		roles = []int{int(model.HumanHips), int(model.HumanSpine), int(model.HumanChest), int(model.HumanHead)}
	}
	if roles != nil {
		for _, b := range []int{int(model.HumanHips), int(model.HumanSpine), int(model.HumanChest), int(model.HumanUpperChest), int(model.HumanNeck), int(model.HumanHead)} {
			m[b] = -1
		}
		for pos, b := range roles {
			if b >= 0 {
				m[b] = chain[pos]
			}
		}
	}
	return m
}

// matchUnity maps Unity's own names, compared loosely ("LeftUpperLeg",
// "Left Thumb Proximal" and "LeftThumbProximal" alike).
func matchUnity(names []string) []int { return byTable(names, boneByName) }

// bipedName is a 3ds Max Biped bone: the biped's name ("Bip001", "Bip01",
// "Biped"), a space, and the part.
var bipedName = regexp.MustCompile(`^(?i:bip(?:ed)?[0-9]*)[ _]+(.+)$`)

// bipedTable maps a Biped part (lower case, single spaces) to its human
// bone, as Unity's importer maps a Biped rig: the pelvis is the hips, the
// clavicle the shoulder, Spine1 the chest and Spine2 the upper chest, FingerN
// finger N (0 the thumb) with FingerN1 and FingerN2 its next segments.
var bipedTable = func() map[string]int {
	t := map[string]int{
		"pelvis": int(model.HumanHips), "spine": int(model.HumanSpine), "spine1": int(model.HumanChest), "spine2": int(model.HumanUpperChest),
		"neck": int(model.HumanNeck), "head": int(model.HumanHead),
	}
	for side, s := range []string{"l ", "r "} {
		t[s+"clavicle"] = sided(int(model.HumanLeftShoulder), side)
		t[s+"upperarm"] = sided(int(model.HumanLeftUpperArm), side)
		t[s+"forearm"] = sided(int(model.HumanLeftLowerArm), side)
		t[s+"hand"] = sided(int(model.HumanLeftHand), side)
		t[s+"thigh"] = sided(int(model.HumanLeftUpperLeg), side)
		t[s+"calf"] = sided(int(model.HumanLeftLowerLeg), side)
		t[s+"foot"] = sided(int(model.HumanLeftFoot), side)
		t[s+"toe0"] = sided(int(model.HumanLeftToes), side)
		for f := range 5 {
			t[s+"finger"+strconv.Itoa(f)] = fingerBone(side, f, 0)
			for seg := 1; seg < 3; seg++ {
				t[s+"finger"+strconv.Itoa(f)+strconv.Itoa(seg)] = fingerBone(side, f, seg)
			}
		}
	}
	return t
}()

func matchBiped(names []string) []int {
	return byTable(names, func(n string) (int, bool) {
		m := bipedName.FindStringSubmatch(n)
		if m == nil {
			return 0, false
		}
		b, ok := bipedTable[strings.ToLower(strings.Join(strings.Fields(m[1]), " "))]
		return b, ok
	})
}

func count(m []int) int {
	k := 0
	for _, x := range m {
		if x >= 0 {
			k++
		}
	}
	return k
}
