package gltfchar

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
)

// HumanMap maps human bones, by Unity's names ("Hips", "LeftUpperLeg",
// "Left Thumb Proximal"...), to node names of the character.
type HumanMap map[string]string

// ErrHumanMap is wrapped by errors about a human map: a bone Unity does
// not know, a node the character lacks, a map Unity could not build an
// avatar from.
var ErrHumanMap = errors.New("gltfchar: bad human map")

// ParseHumanMap reads a human map from JSON: one object whose keys are
// Unity's human bone names and whose values are node names,
// {"Hips": "mixamorig:Hips", ...}. Unknown bone names (compared exactly)
// and repeated keys are refused by name.
func ParseHumanMap(r io.Reader) (HumanMap, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	tok, err := dec.Token()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrHumanMap, err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, fmt.Errorf("%w: not a JSON object", ErrHumanMap)
	}
	m := HumanMap{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrHumanMap, err)
		}
		key := tok.(string) // object keys are strings
		known := false
		for _, b := range humanBones {
			known = known || b == key
		}
		if !known {
			hint := ""
			if b, ok := boneByName(key); ok {
				hint = fmt.Sprintf(" (did you mean %q?)", humanBones[b])
			}
			return nil, fmt.Errorf("%w: %q is not a human bone name%s", ErrHumanMap, key, hint)
		}
		if _, dup := m[key]; dup {
			return nil, fmt.Errorf("%w: %q given twice", ErrHumanMap, key)
		}
		var node string
		if err := dec.Decode(&node); err != nil {
			return nil, fmt.Errorf("%w: %q: %v", ErrHumanMap, key, err)
		}
		m[key] = node
	}
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrHumanMap, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%w: data after the object", ErrHumanMap)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("%w: data after the object", ErrHumanMap)
	}
	return m, nil
}

// humanMap finds the character's human bone map (human bone -> rig
// node, -1 for none): the configured map, else the VRM humanoid
// extension, else the node names.
func (d *decoder) humanMap(h *hier, f Format) ([]int, HumanSource, error) {
	if d.cfg.HumanMap != nil {
		m, err := d.userMap(h)
		if err != nil {
			return nil, HumanNone, err
		}
		if err := checkMap(h, m); err != nil {
			return nil, HumanNone, fmt.Errorf("%w: %s: %v", ErrHumanMap, d.name, err)
		}
		return m, HumanUserMap, nil
	}
	if f != FormatGLTF {
		m, src, err := d.vrmMap(h, f)
		if err != nil {
			return nil, HumanNone, err
		}
		if err := checkMap(h, m); err != nil {
			d.warn("%s humanoid not used: %v", f, err)
		} else {
			return m, src, nil
		}
	}
	var best []int
	src := HumanNone
	for _, s := range schemes {
		m := s.match(h.names)
		if checkMap(h, m) == nil && count(m) > count(best) {
			best, src = m, s.source
		}
	}
	return best, src, nil
}

// userMap resolves Config.HumanMap: a node is found by its rig name, or
// by its glTF name when one node has it.
func (d *decoder) userMap(h *hier) ([]int, error) {
	m := emptyMap()
	for bone, node := range d.cfg.HumanMap {
		b := -1
		for i, n := range humanBones {
			if n == bone {
				b = i
			}
		}
		if b < 0 {
			return nil, fmt.Errorf("%w: %q is not a human bone name", ErrHumanMap, bone)
		}
		found := -1
		for i, n := range h.names {
			if n == node {
				found = i
			}
		}
		if found < 0 {
			for i, n := range h.orig {
				if n == node && h.gltf[i] >= 0 {
					if found >= 0 {
						return nil, fmt.Errorf("%w: %s: %s: several nodes are named %q", ErrHumanMap, d.name, bone, node)
					}
					found = i
				}
			}
		}
		if found < 0 {
			return nil, fmt.Errorf("%w: %s: %s: no node named %q", ErrHumanMap, d.name, bone, node)
		}
		m[b] = found
	}
	return m, nil
}

// vrm0Ext is the part of VRM 0.x's extension read here.
type vrm0Ext struct {
	Humanoid struct {
		HumanBones []struct {
			Bone             string   `json:"bone"`
			Node             *int     `json:"node"`
			UseDefaultValues *bool    `json:"useDefaultValues"`
			Min              *vrmVec3 `json:"min"`
			Max              *vrmVec3 `json:"max"`
			Center           *vrmVec3 `json:"center"`
			AxisLength       float32  `json:"axisLength"`
		} `json:"humanBones"`
		ArmStretch        *float32 `json:"armStretch"`
		LegStretch        *float32 `json:"legStretch"`
		UpperArmTwist     *float32 `json:"upperArmTwist"`
		LowerArmTwist     *float32 `json:"lowerArmTwist"`
		UpperLegTwist     *float32 `json:"upperLegTwist"`
		LowerLegTwist     *float32 `json:"lowerLegTwist"`
		FeetSpacing       *float32 `json:"feetSpacing"`
		HasTranslationDoF *bool    `json:"hasTranslationDoF"`
	} `json:"humanoid"`
}

type vrmVec3 struct{ X, Y, Z float32 }

// vrm1Ext is the part of VRM 1.0's extension read here.
type vrm1Ext struct {
	Humanoid struct {
		HumanBones map[string]struct {
			Node *int `json:"node"`
		} `json:"humanBones"`
	} `json:"humanoid"`
}

// vrm1Bone maps VRM 1.0's bone names to Unity's: VRM 1.0 calls the
// thumb's bones metacarpal, proximal and distal where Unity (and VRM 0.x)
// say proximal, intermediate and distal.
func vrm1Bone(name string) (int, bool) {
	for side, s := range []string{"left", "right"} {
		switch name {
		case s + "ThumbMetacarpal":
			return fingerBone(side, 0, 0), true
		case s + "ThumbProximal":
			return fingerBone(side, 0, 1), true
		case s + "ThumbDistal":
			return fingerBone(side, 0, 2), true
		}
	}
	return boneByName(name)
}

// vrmMap reads the VRM humanoid extension.
func (d *decoder) vrmMap(h *hier, f Format) ([]int, HumanSource, error) {
	m := emptyMap()
	set := func(elem, bone string, b int, node *int) error {
		if node == nil || *node < 0 {
			return nil
		}
		if *node >= len(h.rigOf) {
			return d.malformed(elem, "human bone %q is node %d, which does not exist (%d nodes)", bone, *node, len(h.rigOf))
		}
		if h.rigOf[*node] < 0 {
			d.warn("%s: human bone %q is node %d, outside the scene: left out", elem, bone, *node)
			return nil
		}
		m[b] = h.rigOf[*node]
		return nil
	}
	if f == FormatVRM0 {
		elem := "extensions.VRM.humanoid"
		var e vrm0Ext
		if err := json.Unmarshal(d.raw.Extensions["VRM"], &e); err != nil {
			return nil, HumanNone, d.malformed(elem, "%v", err)
		}
		for _, hb := range e.Humanoid.HumanBones {
			b, ok := boneByName(hb.Bone)
			if !ok {
				d.warn("%s: unknown human bone %q left out", elem, hb.Bone)
				continue
			}
			if err := set(elem, hb.Bone, b, hb.Node); err != nil {
				return nil, HumanNone, err
			}
		}
		return m, HumanVRM0, nil
	}
	elem := "extensions.VRMC_vrm.humanoid"
	var e vrm1Ext
	if err := json.Unmarshal(d.raw.Extensions["VRMC_vrm"], &e); err != nil {
		return nil, HumanNone, d.malformed(elem, "%v", err)
	}
	for _, name := range sortedKeys(e.Humanoid.HumanBones) {
		b, ok := vrm1Bone(name)
		if !ok {
			d.warn("%s: unknown human bone %q left out", elem, name)
			continue
		}
		if err := set(elem, name, b, e.Humanoid.HumanBones[name].Node); err != nil {
			return nil, HumanNone, err
		}
	}
	return m, HumanVRM1, nil
}

func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}

// checkMap tells whether Unity could build an avatar from a map: every
// required bone, no node playing two bones, and each bone below the
// nearest bone the map has among its human ancestors.
func checkMap(h *hier, m []int) error {
	if m == nil {
		return errors.New("no map")
	}
	var missing []string
	for _, b := range requiredBones {
		if m[b] < 0 {
			missing = append(missing, humanBones[b])
		}
	}
	if missing != nil {
		return fmt.Errorf("required bones missing: %s", strings.Join(missing, ", "))
	}
	by := map[int]int{}
	for b, n := range m {
		if n < 0 {
			continue
		}
		if o, dup := by[n]; dup {
			return fmt.Errorf("node %q is both %s and %s", h.names[n], humanBones[o], humanBones[b])
		}
		by[n] = b
		p := humanParent(b)
		for p >= 0 && m[p] < 0 {
			p = humanParent(p)
		}
		if p >= 0 && !h.below(n, m[p]) {
			return fmt.Errorf("%s (%q) is not below %s (%q)", humanBones[b], h.names[n], humanBones[p], h.names[m[p]])
		}
	}
	return nil
}

// below reports whether rig node n is a strict descendant of a.
func (h *hier) below(n, a int) bool {
	for p := h.parent[n]; p >= 0; p = h.parent[p] {
		if p == a {
			return true
		}
	}
	return false
}

// chooseMirror decides which way the character faces in glTF's frame and
// so the conversion that makes it face +z in Unity's: VRM 0.x faces -z and
// VRM 1.0 +z by their specifications; a plain glTF with a human map faces
// where its toes point from its feet (both toes mapped), else along
// left × up (left from the right upper leg to the left one, up from the
// hips to the head); without a map, +z (export/gltf's convention).
func (d *decoder) chooseMirror(h *hier, m []int, f Format) (Mirror, string) {
	switch f {
	case FormatVRM0:
		return MirrorZ, "VRM 0.x characters face -z in glTF"
	case FormatVRM1:
		return MirrorX, "VRM 1.0 characters face +z in glTF"
	}
	if m == nil {
		return MirrorX, "no human map: glTF's +z taken as forward"
	}
	pos := func(b int) [3]float64 { return h.world[m[b]].origin() }
	sub := func(a, b [3]float64) [3]float64 { return [3]float64{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }
	if m[int(model.HumanLeftToes)] >= 0 && m[int(model.HumanRightToes)] >= 0 {
		l := sub(pos(int(model.HumanLeftToes)), pos(int(model.HumanLeftFoot)))
		r := sub(pos(int(model.HumanRightToes)), pos(int(model.HumanRightFoot)))
		z := l[2] + r[2]
		if math.Abs(z) > 1e-9 {
			if z < 0 {
				return MirrorZ, "toes ahead of the feet along -z in glTF"
			}
			return MirrorX, "toes ahead of the feet along +z in glTF"
		}
	}
	left := sub(pos(int(model.HumanLeftUpperLeg)), pos(int(model.HumanRightUpperLeg)))
	up := sub(pos(int(model.HumanHead)), pos(int(model.HumanHips)))
	fz := left[0]*up[1] - left[1]*up[0] // z of left × up
	if fz < 0 {
		return MirrorZ, "left × up points along -z in glTF"
	}
	return MirrorX, "left × up points along +z in glTF"
}

// APoseThresholdDeg is how far an upper arm or forearm may point (from its
// joint to the next arm joint) from the T-pose's direction (straight out to
// its side, across the body) before the description's skeleton turns it, as
// Unity's "Enforce T-Pose" does: an arm further off (an A-pose, typically
// 30° to 45° down) is turned by the shortest arc towards its side until
// it is within 5° less a twentieth of how far off it was (Unity turns by
// 1.05 less this threshold over the angle, of the whole arc), upper arms
// first, then forearms; the rig's rest pose, the meshes and their bind
// poses are left as they are. The body's frame is Unity's: its right from
// the upper legs' and upper arms' right-to-left vectors, its up from the
// legs' middle to the arms' middle (snapped to the nearest axis when the
// right is along one). Unity's rules for the other bones (legs, spine,
// hands, fingers) are not applied.
const APoseThresholdDeg = 5

// description builds the HumanDescription: the map with Unity's default
// limits and settings (VRM 0.x's own where it states them), and every rig
// node's rest transform as the skeleton, with the upper arms of an A-pose
// raised to a T-pose.
func (d *decoder) description(h *hier, rig *model.Rig, m []int, f Format) (*model.HumanDescription, [2]float32) {
	hd := &model.HumanDescription{
		ArmTwist: 0.5, ForeArmTwist: 0.5, UpperLegTwist: 0.5, LegTwist: 0.5,
		ArmStretch: 0.05, LegStretch: 0.05, GlobalScale: 1,
	}
	limits := map[int]model.HumanLimit{}
	if f == FormatVRM0 && d.cfg.HumanMap == nil {
		var e vrm0Ext
		if json.Unmarshal(d.raw.Extensions["VRM"], &e) == nil {
			hu := &e.Humanoid
			setf := func(dst *float32, v *float32) {
				if v != nil && geom.Finite(*v) {
					*dst = *v
				}
			}
			setf(&hd.ArmStretch, hu.ArmStretch)
			setf(&hd.LegStretch, hu.LegStretch)
			setf(&hd.ArmTwist, hu.UpperArmTwist)
			setf(&hd.ForeArmTwist, hu.LowerArmTwist)
			setf(&hd.UpperLegTwist, hu.UpperLegTwist)
			setf(&hd.LegTwist, hu.LowerLegTwist)
			setf(&hd.FeetSpacing, hu.FeetSpacing)
			if hu.HasTranslationDoF != nil {
				hd.HasTranslationDoF = *hu.HasTranslationDoF
			}
			for _, hb := range hu.HumanBones {
				b, ok := boneByName(hb.Bone)
				if !ok || hb.UseDefaultValues == nil || *hb.UseDefaultValues {
					continue
				}
				v := func(x *vrmVec3) geom.Vec3 {
					if x == nil {
						return geom.Vec3{}
					}
					return geom.Vec3{X: x.X, Y: x.Y, Z: x.Z}
				}
				limits[b] = model.HumanLimit{Min: v(hb.Min), Max: v(hb.Max), Center: v(hb.Center), AxisLength: hb.AxisLength}
			}
		}
	}
	for b, n := range m {
		if n < 0 {
			continue
		}
		lim, ok := limits[b]
		if !ok {
			lim = model.HumanLimit{UseDefault: true}
		}
		hd.Human = append(hd.Human, model.HumanBoneMapping{HumanName: humanBones[b], BoneName: rig.Nodes[n].Name, Limit: lim})
	}
	locals := make([]geom.Transform, len(rig.Nodes))
	for i, n := range rig.Nodes {
		locals[i] = n.Local
	}
	raised := raiseArms(rig, m, locals)
	for i, n := range rig.Nodes {
		parent := ""
		if n.Parent >= 0 {
			parent = rig.Nodes[n.Parent].Name
		}
		hd.Skeleton = append(hd.Skeleton, model.SkeletonBone{Name: n.Name, ParentName: parent, Local: locals[i]})
	}
	return hd, raised
}

// globals returns the rig's world transforms for the given locals.
func globals(rig *model.Rig, locals []geom.Transform) []geom.Transform {
	w := make([]geom.Transform, len(locals))
	for i, n := range rig.Nodes {
		if n.Parent < 0 {
			w[i] = locals[i]
		} else {
			w[i] = w[n.Parent].Mul(locals[i])
		}
	}
	return w
}

// absf is |x|.
func absf(x float32) float32 { return float32(math.Abs(float64(x))) }

// raiseArms turns the upper arms, then the forearms, pointing more than
// APoseThresholdDeg from their T-pose directions towards them (see
// APoseThresholdDeg), changing their local rotations in locals, and
// returns the angles in degrees the upper arms turned.
func raiseArms(rig *model.Rig, m []int, locals []geom.Transform) [2]float32 {
	var raised [2]float32
	w := globals(rig, locals)
	pos := func(b int) geom.Vec3 { return w[m[b]].T }
	legsRight := pos(int(model.HumanRightUpperLeg)).Sub(pos(int(model.HumanLeftUpperLeg))).Normalize()
	armsRight := pos(int(model.HumanRightUpperArm)).Sub(pos(int(model.HumanLeftUpperArm))).Normalize()
	right := legsRight.Add(armsRight).Normalize()
	up := pos(int(model.HumanLeftUpperArm)).Add(pos(int(model.HumanRightUpperArm))).Sub(pos(int(model.HumanLeftUpperLeg))).Sub(pos(int(model.HumanRightUpperLeg))).Normalize()
	if absf(right.X*right.Y) < 0.05 && absf(right.Y*right.Z) < 0.05 && absf(right.Z*right.X) < 0.05 {
		// A right along an axis: up is the nearest axis.
		c := [3]float32{up.X, up.Y, up.Z}
		k := 0
		for i := 1; i < 3; i++ {
			if absf(c[i]) > absf(c[k]) {
				k = i
			}
		}
		s := float32(1)
		if c[k] < 0 {
			s = -1
		}
		c = [3]float32{}
		c[k] = s
		up = geom.Vec3{X: c[0], Y: c[1], Z: c[2]}
	}
	fwd := right.Cross(up).Normalize()
	if fwd.Len() == 0 || up.Len() == 0 {
		return raised
	}
	side := up.Cross(fwd).Normalize() // the body's right, square to up
	for _, b := range [...]int{int(model.HumanLeftUpperArm), int(model.HumanRightUpperArm), int(model.HumanLeftLowerArm), int(model.HumanRightLowerArm)} {
		n, c := m[b], m[b+2] // the next arm joint: lower arm, hand
		if n < 0 || c < 0 {
			continue
		}
		goal := side
		if b == int(model.HumanLeftUpperArm) || b == int(model.HumanLeftLowerArm) {
			goal = side.Scale(-1)
		}
		dir := w[c].T.Sub(w[n].T).Normalize()
		axis := dir.Cross(goal)
		delta := math.Atan2(float64(axis.Len()), float64(dir.Dot(goal))) * 180 / math.Pi
		if delta <= APoseThresholdDeg*0.99 || axis.Len() == 0 {
			continue
		}
		turnDeg := delta * math.Max(0, math.Min(1, 1.05-APoseThresholdDeg/delta))
		turn := geom.AxisAngle(axis.Normalize(), float32(turnDeg*math.Pi/180))
		parentR := geom.IdentityQuat
		if p := rig.Nodes[n].Parent; p >= 0 {
			parentR = w[p].R
		}
		locals[n].R = parentR.Conj().Mul(turn).Mul(w[n].R).Normalize()
		if b == int(model.HumanLeftUpperArm) || b == int(model.HumanRightUpperArm) {
			raised[b-int(model.HumanLeftUpperArm)] = float32(turnDeg)
		}
		w = globals(rig, locals)
	}
	return raised
}
