package main

import (
	"flag"
	"fmt"
	"io"
	"strconv"

	"github.com/mecanim/mecanim/bind"
	"github.com/mecanim/mecanim/humanoid"
	"github.com/mecanim/mecanim/humanoid/avatarbuild"
	"github.com/mecanim/mecanim/model"
)

type avatarNodeJSON struct {
	Path   string     `json:"path"`
	Parent int        `json:"parent"`
	Axes   int        `json:"axes"`
	Hash   uint32     `json:"path_hash"`
	Pose   *xformJSON `json:"default_pose,omitempty"`
}

type axesJSON struct {
	Pre    [4]jsonFloat `json:"pre"`
	Post   [4]jsonFloat `json:"post"`
	Sign   [3]jsonFloat `json:"sign"`
	Min    [3]jsonFloat `json:"min"`
	Max    [3]jsonFloat `json:"max"`
	Length jsonFloat    `json:"length"`
	Type   int32        `json:"type"`
}

type humanBoneJSON struct {
	Bone string `json:"bone"`
	Node int    `json:"node"`
	Path string `json:"path"`
}

type humanJSON struct {
	RootX         xformJSON       `json:"root_x"`
	Scale         jsonFloat       `json:"scale"`
	Bones         []humanBoneJSON `json:"bones"`
	BoneMass      []jsonFloat     `json:"bone_mass"`
	ArmTwist      jsonFloat       `json:"arm_twist"`
	ForeArmTwist  jsonFloat       `json:"forearm_twist"`
	UpperLegTwist jsonFloat       `json:"upper_leg_twist"`
	LegTwist      jsonFloat       `json:"leg_twist"`
	HasLeftHand   bool            `json:"has_left_hand"`
	HasRightHand  bool            `json:"has_right_hand"`
	HasTDoF       bool            `json:"has_translation_dof"`
}

// rebuildJSON is how far the avatar Build makes from the avatar's human
// description is from the stored one (avatarbuild.Compare).
type rebuildJSON struct {
	MaxRotationDeg jsonFloat            `json:"max_rotation_deg"`
	MaxRelative    jsonFloat            `json:"max_relative"`
	Fields         map[string]jsonFloat `json:"fields"`
}

type avatarJSON struct {
	Container  string               `json:"container"`
	File       string               `json:"file"`
	PathID     int64                `json:"path_id"`
	Name       string               `json:"name"`
	Humanoid   bool                 `json:"humanoid"`
	Nodes      []avatarNodeJSON     `json:"nodes"`
	Axes       []axesJSON           `json:"axes"`
	Human      *humanJSON           `json:"human,omitempty"`
	HumanCheck *humanoid.HumanCheck `json:"human_check,omitempty"`
	Rebuild    *rebuildJSON         `json:"rebuild,omitempty"`
	Problems   []string             `json:"problems,omitempty"`
}

func nodePath(names model.Names, h uint32) string {
	if p, ok := names.Lookup(h); ok {
		return p
	}
	return "#" + strconv.FormatUint(uint64(h), 10)
}

func avatarView(src model.Source, a *model.Avatar) avatarJSON {
	v := avatarJSON{Container: src.Container, File: src.File, PathID: src.PathID, Name: a.Name, Humanoid: a.IsHuman()}
	for i, n := range a.Skeleton.Nodes {
		nj := avatarNodeJSON{Path: nodePath(a.Names, n.PathHash), Parent: n.Parent, Axes: n.Axes, Hash: n.PathHash}
		if i < len(a.DefaultPose) {
			x := xform(a.DefaultPose[i])
			nj.Pose = &x
		}
		v.Nodes = append(v.Nodes, nj)
	}
	for _, ax := range a.Skeleton.Axes {
		v.Axes = append(v.Axes, axesJSON{Pre: quat4(ax.Pre), Post: quat4(ax.Post), Sign: vec3(ax.Sign),
			Min: vec3(ax.Min), Max: vec3(ax.Max), Length: jsonFloat(ax.Length), Type: ax.Type})
	}
	if h := a.Human; a.IsHuman() {
		hj := &humanJSON{RootX: xform(h.RootX), Scale: jsonFloat(h.Scale), ArmTwist: jsonFloat(h.ArmTwist),
			ForeArmTwist: jsonFloat(h.ForeArmTwist), UpperLegTwist: jsonFloat(h.UpperLegTwist), LegTwist: jsonFloat(h.LegTwist),
			HasLeftHand: h.HasLeftHand, HasRightHand: h.HasRightHand, HasTDoF: h.HasTDoF}
		for b, n := range h.BoneIndex {
			name := fmt.Sprintf("bone%d", b)
			if b < len(humanoid.BoneNames) {
				name = humanoid.BoneNames[b]
			}
			bj := humanBoneJSON{Bone: name, Node: n}
			if n >= 0 && n < len(h.Skeleton.Nodes) {
				bj.Path = nodePath(a.Names, h.Skeleton.Nodes[n].PathHash)
			}
			hj.Bones = append(hj.Bones, bj)
		}
		for _, m := range h.BoneMass {
			hj.BoneMass = append(hj.BoneMass, jsonFloat(m))
		}
		v.Human = hj
		if r, err := humanoid.NewRig(a); err != nil {
			v.Problems = append(v.Problems, err.Error())
		} else {
			c := r.Check()
			v.HumanCheck = &c
		}
	}
	return v
}

// rebuildView builds the avatar from its human description and compares.
func rebuildView(v *avatarJSON, a *model.Avatar) {
	if a.Description == nil || len(a.Description.Skeleton) == 0 {
		v.Problems = append(v.Problems, "rebuild: the avatar stores no human description")
		return
	}
	b, err := avatarbuild.Build(a.Name, a.Description)
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
		name: "avatar", kind: bind.KindAvatar, usage: " [--rebuild]",
		flags: func(fs *flag.FlagSet) {
			fs.BoolVar(&rebuild, "rebuild", false, "build each avatar again from its human description and print the worst difference per field")
		},
		view: func(set *bind.Set, i int) (any, error) {
			a, err := set.Avatar(i)
			if err != nil {
				return nil, err
			}
			it, _ := set.Entry(bind.KindAvatar, i)
			v := avatarView(it.Source, a)
			if rebuild {
				rebuildView(&v, a)
			}
			return v, nil
		},
		text: func(w io.Writer, x any) {
			v := x.(avatarJSON)
			kind := "generic"
			if v.Humanoid {
				kind = "humanoid"
			}
			fmt.Fprintf(w, "avatar %q (%s, %d nodes) in %s %s, path id %d\n", v.Name, kind, len(v.Nodes), v.Container, v.File, v.PathID)
			for i, n := range v.Nodes {
				fmt.Fprintf(w, "  %3d parent %3d axes %3d  %s\n", i, n.Parent, n.Axes, n.Path)
			}
			if v.Human != nil {
				fmt.Fprintf(w, "  human scale %g, root %v\n", float32(v.Human.Scale), v.Human.RootX)
				for _, b := range v.Human.Bones {
					if b.Node >= 0 {
						fmt.Fprintf(w, "  %-22s %s\n", b.Bone, b.Path)
					}
				}
			}
			if c := v.HumanCheck; c != nil {
				fmt.Fprintf(w, "  check: centre of mass %v vs stored m_RootX.t %v (error %.3g); body frame %.3g° from m_RootX.q\n",
					c.CenterOfMass, c.StoredRootT, c.CenterOfMassError, c.BodyFrameAngleDeg)
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
		},
	}.run(e, args)
}
