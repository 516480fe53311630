package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/mecanim/mecanim/bind"
	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/humanoid"
	"github.com/mecanim/mecanim/humanoid/avatarbuild"
	"github.com/mecanim/mecanim/model"
)

const avatarAbout = `
Shows every avatar of the files (or the one --name names): its skeleton's
nodes (path, parent, the human bone each plays and that bone's limits), the
joint axes (pre- and post-rotation, signs, limits in degrees, length) where
Unity stores them (for a humanoid avatar, on its human skeleton: each is
shown on the node it drives), the human bones and the finger map (every
bone's node indexes the same nodes list), the twist and stretch settings,
and a check of the humanoid rules against what the avatar stores: the
centre of mass of the stored human pose against m_RootX.t (passes within
1e-5 of the human scale) and the body frame against m_RootX.q (passes
within 0.001 degrees; Unity's own avatars in the corpus lie within 4.2e-5
degrees of the rule). --rebuild builds each avatar
again from its human description and prints the worst difference per
field. --json prints one object per avatar, per line (schema
docs/schema/avatar.json).`

// Human check tolerances (see avatarAbout and humanCheckJSON).
const (
	// comTolerance is the centre of mass's allowed miss, relative to the
	// human scale (at least 1): float32 resolution of the stored values.
	comTolerance = 1e-5
	// bodyFrameToleranceDeg is the body frame's allowed angle from
	// m_RootX.q: the float32 resolution of a stored rotation, with margin
	// (the rule itself is exact on every avatar Unity built that the tests
	// hold).
	bodyFrameToleranceDeg = 1e-3
)

type avatarNodeJSON struct {
	Path   string `json:"path"`
	Parent int    `json:"parent"`
	Hash   uint32 `json:"path_hash"`
	// Bone is the human bone the node plays ("" none).
	Bone string `json:"bone"`
	// Axes indexes the avatar's axes: the joint frame and limits the node
	// plays with (-1 none).
	Axes int        `json:"axes"`
	Pose *xformJSON `json:"default_pose"`
}

type axesJSON struct {
	Pre    [4]jsonFloat `json:"pre"`
	Post   [4]jsonFloat `json:"post"`
	Sign   [3]jsonFloat `json:"sign"`
	MinDeg [3]jsonFloat `json:"min_deg"`
	MaxDeg [3]jsonFloat `json:"max_deg"`
	Length jsonFloat    `json:"length"`
	Type   int32        `json:"type"`
}

type humanBoneJSON struct {
	Bone string `json:"bone"`
	// Node indexes the avatar's nodes (-1: the avatar lacks the bone, or
	// its human skeleton node is on no node of the avatar's skeleton).
	Node int    `json:"node"`
	Path string `json:"path"`
	Axes int    `json:"axes"`
	// Mass is the bone's share of the body's mass (0 for fingers).
	Mass jsonFloat `json:"mass"`
}

type humanJSON struct {
	RootX         xformJSON       `json:"root_x"`
	Scale         jsonFloat       `json:"scale"`
	Bones         []humanBoneJSON `json:"bones"`
	ArmTwist      jsonFloat       `json:"arm_twist"`
	ForeArmTwist  jsonFloat       `json:"forearm_twist"`
	UpperLegTwist jsonFloat       `json:"upper_leg_twist"`
	LegTwist      jsonFloat       `json:"leg_twist"`
	ArmStretch    jsonFloat       `json:"arm_stretch"`
	LegStretch    jsonFloat       `json:"leg_stretch"`
	FeetSpacing   jsonFloat       `json:"feet_spacing"`
	HasLeftHand   bool            `json:"has_left_hand"`
	HasRightHand  bool            `json:"has_right_hand"`
	HasTDoF       bool            `json:"has_translation_dof"`
}

// humanCheckJSON is humanoid.HumanCheck with the verdict and the
// tolerances it was judged by.
type humanCheckJSON struct {
	CenterOfMass       [3]jsonFloat `json:"center_of_mass"`
	StoredRootT        [3]jsonFloat `json:"stored_root_t"`
	CenterOfMassError  jsonFloat    `json:"center_of_mass_error"`
	CenterOfMassTol    jsonFloat    `json:"center_of_mass_tolerance"`
	CenterOfMassPass   bool         `json:"center_of_mass_pass"`
	BodyFrameAngleDeg  jsonFloat    `json:"body_frame_angle_deg"`
	BodyFrameTolDeg    jsonFloat    `json:"body_frame_tolerance_deg"`
	BodyFramePass      bool         `json:"body_frame_pass"`
	BodyFrameNotStored bool         `json:"body_frame_not_stored"`
	Scale              jsonFloat    `json:"scale"`
	Pass               bool         `json:"pass"`
}

func humanCheck(c humanoid.HumanCheck) *humanCheckJSON {
	tol := comTolerance * math.Max(1, math.Abs(float64(c.Scale)))
	j := &humanCheckJSON{
		CenterOfMass:      [3]jsonFloat{jsonFloat(c.CenterOfMass[0]), jsonFloat(c.CenterOfMass[1]), jsonFloat(c.CenterOfMass[2])},
		StoredRootT:       [3]jsonFloat{jsonFloat(c.StoredRootT[0]), jsonFloat(c.StoredRootT[1]), jsonFloat(c.StoredRootT[2])},
		CenterOfMassError: jsonFloat(c.CenterOfMassError), CenterOfMassTol: jsonFloat(tol), CenterOfMassPass: c.CenterOfMassError <= tol,
		BodyFrameAngleDeg: jsonFloat(c.BodyFrameAngleDeg), BodyFrameTolDeg: bodyFrameToleranceDeg,
		BodyFrameNotStored: c.BodyFrameAngleDeg < 0, Scale: jsonFloat(c.Scale),
	}
	j.BodyFramePass = j.BodyFrameNotStored || c.BodyFrameAngleDeg <= bodyFrameToleranceDeg
	j.Pass = j.CenterOfMassPass && j.BodyFramePass
	return j
}

// rebuildJSON is how far the avatar Build makes from the avatar's human
// description is from the stored one (avatarbuild.Compare).
type rebuildJSON struct {
	MaxRotationDeg jsonFloat            `json:"max_rotation_deg"`
	MaxRelative    jsonFloat            `json:"max_relative"`
	Fields         map[string]jsonFloat `json:"fields"`
}

type avatarJSON struct {
	Container  string           `json:"container"`
	File       string           `json:"file"`
	PathID     int64            `json:"path_id"`
	Name       string           `json:"name"`
	Humanoid   bool             `json:"humanoid"`
	Nodes      []avatarNodeJSON `json:"nodes"`
	Axes       []axesJSON       `json:"axes"`
	Human      *humanJSON       `json:"human"`
	HumanCheck *humanCheckJSON  `json:"human_check"`
	Rebuild    *rebuildJSON     `json:"rebuild"`
	Problems   []string         `json:"problems"`
}

func nodePath(names model.Names, h uint32) string {
	if p, ok := names.Lookup(h); ok {
		return p
	}
	return model.UnnamedPath(h)
}

func axesOf(ax model.Axes) axesJSON {
	deg := func(v geom.Vec3) [3]jsonFloat {
		return [3]jsonFloat{jsonFloat(float64(v.X) * 180 / math.Pi), jsonFloat(float64(v.Y) * 180 / math.Pi), jsonFloat(float64(v.Z) * 180 / math.Pi)}
	}
	return axesJSON{Pre: quat4(ax.Pre), Post: quat4(ax.Post), Sign: vec3(ax.Sign),
		MinDeg: deg(ax.Min), MaxDeg: deg(ax.Max), Length: jsonFloat(ax.Length), Type: ax.Type}
}

// avatarView describes an avatar. Its axes are the avatar skeleton's
// followed by the human skeleton's (where Unity stores a humanoid's), and
// every index (a node's axes, a bone's node and axes) is into the lists of
// the same view.
func avatarView(src model.Source, a *model.Avatar) avatarJSON {
	v := avatarJSON{Container: src.Container, File: src.File, PathID: src.PathID, Name: a.Name, Humanoid: a.IsHuman(),
		Nodes: make([]avatarNodeJSON, len(a.Skeleton.Nodes)), Axes: []axesJSON{}, Problems: []string{}}
	for _, ax := range a.Skeleton.Axes {
		v.Axes = append(v.Axes, axesOf(ax))
	}
	for i, n := range a.Skeleton.Nodes {
		nj := avatarNodeJSON{Path: nodePath(a.Names, n.PathHash), Parent: n.Parent, Hash: n.PathHash, Axes: -1}
		if n.Axes >= 0 && n.Axes < len(a.Skeleton.Axes) {
			nj.Axes = n.Axes
		}
		if i < len(a.DefaultPose) {
			x := xform(a.DefaultPose[i])
			nj.Pose = &x
		}
		v.Nodes[i] = nj
	}
	if !a.IsHuman() {
		return v
	}
	h := a.Human
	humanAxes := len(v.Axes)
	for _, ax := range h.Skeleton.Axes {
		v.Axes = append(v.Axes, axesOf(ax))
	}
	// node of the avatar skeleton and axes of each human skeleton node
	nodeOf := func(hn int) int {
		if hn >= 0 && hn < len(a.HumanSkeletonIndex) {
			if n := a.HumanSkeletonIndex[hn]; n >= 0 && n < len(v.Nodes) {
				return n
			}
		}
		return -1
	}
	axesOfHuman := func(hn int) int {
		if hn >= 0 && hn < len(h.Skeleton.Nodes) {
			if ax := h.Skeleton.Nodes[hn].Axes; ax >= 0 && ax < len(h.Skeleton.Axes) {
				return humanAxes + ax
			}
		}
		return -1
	}
	for hn := range h.Skeleton.Nodes {
		if n, ax := nodeOf(hn), axesOfHuman(hn); n >= 0 && ax >= 0 {
			v.Nodes[n].Axes = ax
		}
	}
	hj := &humanJSON{RootX: xform(h.RootX), Scale: jsonFloat(h.Scale), ArmTwist: jsonFloat(h.ArmTwist),
		ForeArmTwist: jsonFloat(h.ForeArmTwist), UpperLegTwist: jsonFloat(h.UpperLegTwist), LegTwist: jsonFloat(h.LegTwist),
		ArmStretch: jsonFloat(h.ArmStretch), LegStretch: jsonFloat(h.LegStretch), FeetSpacing: jsonFloat(h.FeetSpacing),
		HasLeftHand: h.HasLeftHand, HasRightHand: h.HasRightHand, HasTDoF: h.HasTDoF, Bones: []humanBoneJSON{}}
	bone := func(b, hn int) {
		bj := humanBoneJSON{Bone: humanoid.BoneNames[b], Node: nodeOf(hn), Axes: axesOfHuman(hn)}
		if hn >= 0 && hn < len(h.Skeleton.Nodes) {
			bj.Path = nodePath(a.Names, h.Skeleton.Nodes[hn].PathHash)
		}
		if b < len(h.BoneMass) {
			bj.Mass = jsonFloat(h.BoneMass[b])
		}
		if bj.Node >= 0 {
			v.Nodes[bj.Node].Bone = bj.Bone
		}
		hj.Bones = append(hj.Bones, bj)
	}
	for b := 0; b < humanoid.BodyBoneCount; b++ {
		hn := -1
		if b < len(h.BoneIndex) {
			hn = h.BoneIndex[b]
		}
		bone(b, hn)
	}
	for s, hand := range [2][]int{h.LeftHand, h.RightHand} {
		has := (s == 0 && h.HasLeftHand) || (s == 1 && h.HasRightHand)
		for f := 0; f < 15; f++ {
			hn := -1
			if has && f < len(hand) {
				hn = hand[f]
			}
			bone(humanoid.LeftHandFirst+15*s+f, hn)
		}
	}
	v.Human = hj
	if r, err := humanoid.NewRig(a); err != nil {
		v.Problems = append(v.Problems, err.Error())
	} else {
		v.HumanCheck = humanCheck(r.Check())
	}
	return v
}

// rebuildView builds the avatar from its human description and compares.
func rebuildView(v *avatarJSON, a *model.Avatar) {
	if a.Description == nil || len(a.Description.Skeleton) == 0 {
		v.Problems = append(v.Problems, "rebuild: the avatar stores no human description")
		return
	}
	b, err := avatarbuild.Rebuild(a)
	if err != nil {
		v.Problems = append(v.Problems, "rebuild: "+err.Error())
		return
	}
	r := avatarbuild.Compare(b, a)
	v.Rebuild = &rebuildJSON{MaxRotationDeg: jsonFloat(r.MaxRotationDeg), MaxRelative: jsonFloat(r.MaxRelative), Fields: map[string]jsonFloat{}}
	for f, d := range r.Fields {
		v.Rebuild.Fields[f] = jsonFloat(d)
	}
}

func runAvatar(e *env, args []string) error {
	var rebuild bool
	return objectCommand{
		name: "avatar", kind: bind.KindAvatar,
		flags: func(fs *flag.FlagSet) {
			fs.BoolVar(&rebuild, "rebuild", false, "build each avatar again from its human description and print the worst difference per field")
		},
		list: (*bind.Set).Avatars,
		find: func(set *bind.Set, sel string) (int, error) {
			id, err := set.FindAvatar(sel)
			return int(id), err
		},
		view: func(set *bind.Set, i int, it bound.Item) (any, error) {
			a, err := set.Avatar(bound.AvatarID(i))
			if err != nil {
				return nil, err
			}
			v := avatarView(it.Source, a)
			if rebuild {
				rebuildView(&v, a)
			}
			return v, nil
		},
		text: avatarText,
	}.run(e, args)
}

// limitsText writes an axes' limits in degrees, one range per axis.
func limitsText(ax axesJSON) string {
	return fmt.Sprintf("x %.4g..%.4g y %.4g..%.4g z %.4g..%.4g",
		float32(ax.MinDeg[0]), float32(ax.MaxDeg[0]), float32(ax.MinDeg[1]), float32(ax.MaxDeg[1]), float32(ax.MinDeg[2]), float32(ax.MaxDeg[2]))
}

// avatarText writes an avatar view (avatarJSON) for people.
func avatarText(w io.Writer, x any) {
	v := x.(avatarJSON)
	kind := "generic"
	if v.Humanoid {
		kind = "humanoid"
	}
	fmt.Fprintf(w, "avatar %q (%s, %d nodes, %d joint axes) in %s %s, path id %d\n", v.Name, kind, len(v.Nodes), len(v.Axes), v.Container, v.File, v.PathID)
	fmt.Fprintf(w, "  %4s %6s %-25s %-44s %s\n", "node", "parent", "human bone", "limits (degrees)", "path")
	for i, n := range v.Nodes {
		lim := "-"
		if n.Axes >= 0 {
			lim = limitsText(v.Axes[n.Axes])
		}
		bone := n.Bone
		if bone == "" {
			bone = "-"
		}
		fmt.Fprintf(w, "  %4d %6d %-25s %-44s %s\n", i, n.Parent, bone, lim, n.Path)
	}
	if h := v.Human; h != nil {
		fmt.Fprintf(w, "  human scale %g, root %v; twist arm %g forearm %g upper leg %g leg %g; stretch arm %g leg %g; feet spacing %g; translation DoF %v\n",
			float32(h.Scale), h.RootX, float32(h.ArmTwist), float32(h.ForeArmTwist), float32(h.UpperLegTwist), float32(h.LegTwist),
			float32(h.ArmStretch), float32(h.LegStretch), float32(h.FeetSpacing), h.HasTDoF)
		var missing []string
		for _, b := range h.Bones[:min(len(h.Bones), humanoid.BodyBoneCount)] {
			if b.Node < 0 && b.Path == "" {
				missing = append(missing, b.Bone)
			}
		}
		if len(missing) > 0 {
			fmt.Fprintf(w, "  body bones the avatar lacks: %s\n", strings.Join(missing, ", "))
		}
		for s, has := range []bool{h.HasLeftHand, h.HasRightHand} {
			side := [2]string{"left", "right"}[s]
			if !has {
				fmt.Fprintf(w, "  %s hand: no fingers\n", side)
				continue
			}
			fmt.Fprintf(w, "  %s hand fingers:\n", side)
			for f := 0; f < 15; f++ {
				k := humanoid.BodyBoneCount + 15*s + f
				if k >= len(h.Bones) {
					break
				}
				b := h.Bones[k]
				where := "(none)"
				if b.Path != "" {
					where = fmt.Sprintf("node %d %s", b.Node, b.Path)
				}
				fmt.Fprintf(w, "    %-26s %s\n", b.Bone, where)
			}
		}
	}
	if c := v.HumanCheck; c != nil {
		verdict := func(pass bool) string {
			if pass {
				return "pass"
			}
			return "FAIL"
		}
		fmt.Fprintf(w, "  check %s: centre of mass %v vs stored m_RootX.t %v: off by %.3g (%s within %.3g)\n",
			verdict(c.Pass), c.CenterOfMass, c.StoredRootT, float32(c.CenterOfMassError), verdict(c.CenterOfMassPass), float32(c.CenterOfMassTol))
		if c.BodyFrameNotStored {
			fmt.Fprintf(w, "  check: the avatar stores no body frame (m_RootX.q is NaN)\n")
		} else {
			fmt.Fprintf(w, "  check: body frame %.3g° from m_RootX.q (%s within %g°)\n", float32(c.BodyFrameAngleDeg), verdict(c.BodyFramePass), float32(c.BodyFrameTolDeg))
		}
	}
	if r := v.Rebuild; r != nil {
		fmt.Fprintf(w, "  rebuild from the human description: worst %.3g° and %.3g relative\n", float64(r.MaxRotationDeg), float64(r.MaxRelative))
		rep := avatarbuild.Report{Fields: map[string]float64{}}
		for f, d := range r.Fields {
			rep.Fields[f] = float64(d)
		}
		for _, f := range rep.SortedFields() {
			unit, note := "", ""
			if avatarbuild.IsRotation(f) {
				unit = "°"
			}
			if !avatarbuild.FromDescription(f) {
				note = " (not in a description)"
			}
			fmt.Fprintf(w, "    %-22s %.3g%s%s\n", f, rep.Fields[f], unit, note)
		}
	}
	for _, p := range v.Problems {
		fmt.Fprintf(w, "  problem: %s\n", p)
	}
}
