package yamlasset

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
)

// Avatar converts the file's Avatar (an .asset written by the editor, which
// keeps the compiled avatar in m_Avatar). Arrays of numbers come as hex
// strings of 32-bit little-endian words (m_ID, m_HumanBoneIndex, ...),
// nested constants under "data:" (Unity's OffsetPtr); both are unwrapped.
// A human whose skeleton is empty makes a generic avatar (Human nil); a
// hand the human lacks (m_HasLeftHand 0) gets no hand indexes.
func (f *File) Avatar() (*model.Avatar, error) {
	for _, d := range f.Docs {
		if d.ClassID == model.ClassAvatar || d.Type == "Avatar" {
			return f.AvatarOf(d)
		}
	}
	return nil, fmt.Errorf("%s: Avatar: %w", f.Name, ErrNoObject)
}

// AvatarOf converts one Avatar document (see Avatar).
func (f *File) AvatarOf(doc *Document) (*model.Avatar, error) {
	d := f.dec(doc)
	b := doc.Body
	av := b.Get("m_Avatar")
	a := &model.Avatar{
		Name:           d.str(b, "m_Name"),
		Skeleton:       d.skeleton(av.Get("m_AvatarSkeleton")),
		SkeletonPose:   d.pose(av.Get("m_AvatarSkeletonPose")),
		DefaultPose:    d.pose(av.Get("m_DefaultPose")),
		RootMotionBone: int(d.i32(av, "m_RootMotionBoneIndex")),
		Names:          model.Names{},
	}
	if av.Get("m_RootMotionBoneIndex") == nil {
		a.RootMotionBone = -1
	}
	if h := data(av.Get("m_Human")); h != nil {
		hum := &model.Human{
			RootX:         d.xform(h.Get("m_RootX")),
			Skeleton:      d.skeleton(h.Get("m_Skeleton")),
			Pose:          d.pose(h.Get("m_SkeletonPose")),
			BoneIndex:     d.ints(h, "m_HumanBoneIndex"),
			BoneMass:      d.floats(h, "m_HumanBoneMass"),
			Scale:         d.f32(h, "m_Scale"),
			ArmTwist:      d.f32(h, "m_ArmTwist"),
			ForeArmTwist:  d.f32(h, "m_ForeArmTwist"),
			UpperLegTwist: d.f32(h, "m_UpperLegTwist"),
			LegTwist:      d.f32(h, "m_LegTwist"),
			ArmStretch:    d.f32(h, "m_ArmStretch"),
			LegStretch:    d.f32(h, "m_LegStretch"),
			FeetSpacing:   d.f32(h, "m_FeetSpacing"),
			HasLeftHand:   d.bool(h, "m_HasLeftHand"),
			HasRightHand:  d.bool(h, "m_HasRightHand"),
			HasTDoF:       d.bool(h, "m_HasTDoF"),
		}
		if hum.HasLeftHand {
			hum.LeftHand = d.ints(data(h.Get("m_LeftHand")), "m_HandBoneIndex")
		}
		if hum.HasRightHand {
			hum.RightHand = d.ints(data(h.Get("m_RightHand")), "m_HandBoneIndex")
		}
		if len(hum.Skeleton.Nodes) > 0 {
			a.Human = hum
		}
	}
	a.HumanSkeletonIndex = d.ints(av, "m_HumanSkeletonIndexArray")
	if tos := b.Get("m_TOS"); tos != nil && tos.Kind == Mapping {
		for i, k := range tos.Keys {
			h, err := strconv.ParseUint(strings.TrimSpace(k), 10, 32)
			if err != nil {
				d.fail(tos.Values[i], "m_TOS", fmt.Errorf("key %q is not a hash", k))
				break
			}
			a.Names[uint32(h)] = tos.Values[i].Value
		}
	} else if tos != nil {
		// The map's other YAML form: a list of {first, second} pairs.
		for _, p := range d.seq(b, "m_TOS") {
			a.Names[uint32(d.i64(p, "first"))] = d.str(p, "second")
		}
	}
	if hd := b.Get("m_HumanDescription"); hd != nil {
		a.Description = d.humanDescription(hd, true, 1)
	}
	if d.err != nil {
		return nil, d.err
	}
	if err := a.CheckFinite(); err != nil {
		return nil, &FieldError{File: f.Name, Line: doc.Line, Object: "Avatar " + a.Name, Field: "m_Avatar", Err: err}
	}
	return a, nil
}

// skeleton reads a compiled skeleton ({data: {m_Node, m_ID, m_AxesArray}}).
func (d *dec) skeleton(n *Node) model.Skeleton {
	n = data(n)
	var s model.Skeleton
	nodes := d.seq(n, "m_Node")
	ids := d.hex32(n, "m_ID")
	if len(ids) != 0 && len(ids) != len(nodes) {
		d.fail(n.Get("m_ID"), "m_ID", fmt.Errorf("%d ids for %d nodes", len(ids), len(nodes)))
	}
	for i, nd := range nodes {
		sn := model.SkeletonNode{Parent: int(d.i32(nd, "m_ParentId")), Axes: int(d.i32(nd, "m_AxesId"))}
		if i < len(ids) {
			sn.PathHash = ids[i]
		}
		if sn.Parent >= i || sn.Parent < -1 {
			d.fail(nd, "m_ParentId", fmt.Errorf("node %d has parent %d (parents must come first)", i, sn.Parent))
		}
		s.Nodes = append(s.Nodes, sn)
	}
	for _, ax := range d.seq(n, "m_AxesArray") {
		lim := ax.Get("m_Limit")
		s.Axes = append(s.Axes, model.Axes{
			Pre:    d.quat(ax, "m_PreQ"),
			Post:   d.quat(ax, "m_PostQ"),
			Sign:   d.vec3(ax, "m_Sgn"),
			Min:    d.vec3(lim, "m_Min"),
			Max:    d.vec3(lim, "m_Max"),
			Length: d.f32(ax, "m_Length"),
			Type:   d.i32(ax, "m_Type"),
		})
	}
	for i, sn := range s.Nodes {
		if sn.Axes < -1 || sn.Axes >= len(s.Axes) {
			d.fail(nodes[i], "m_AxesId", fmt.Errorf("node %d has axes %d of %d", i, sn.Axes, len(s.Axes)))
		}
	}
	return s
}

// pose reads a compiled pose ({data: {m_X: [{t, q, s}]}}).
func (d *dec) pose(n *Node) []geom.Transform {
	items := d.seq(data(n), "m_X")
	out := make([]geom.Transform, 0, len(items))
	for _, x := range items {
		out = append(out, d.xform(x))
	}
	return out
}

// hdKey returns a HumanDescription field's key: the Avatar's form
// ("m_BoneName") or the importer's ("boneName").
func hdKey(prefixed bool, name string) string {
	if !prefixed {
		return name
	}
	return "m_" + strings.ToUpper(name[:1]) + name[1:]
}

// humanDescription reads a HumanDescription in either key form;
// globalScale is the value when the description has none.
func (d *dec) humanDescription(n *Node, prefixed bool, globalScale float32) *model.HumanDescription {
	k := func(s string) string { return hdKey(prefixed, s) }
	hd := &model.HumanDescription{
		ArmTwist:           d.f32(n, k("armTwist")),
		ForeArmTwist:       d.f32(n, k("foreArmTwist")),
		UpperLegTwist:      d.f32(n, k("upperLegTwist")),
		LegTwist:           d.f32(n, k("legTwist")),
		ArmStretch:         d.f32(n, k("armStretch")),
		LegStretch:         d.f32(n, k("legStretch")),
		FeetSpacing:        d.f32(n, k("feetSpacing")),
		GlobalScale:        globalScale,
		RootMotionBoneName: d.str(n, k("rootMotionBoneName")),
		HasTranslationDoF:  d.bool(n, k("hasTranslationDoF")),
	}
	if n.Get(k("globalScale")) != nil {
		hd.GlobalScale = d.f32(n, k("globalScale"))
	}
	for _, h := range d.seq(n, k("human")) {
		lim := h.Get(k("limit"))
		hd.Human = append(hd.Human, model.HumanBoneMapping{
			HumanName: d.str(h, k("humanName")),
			BoneName:  d.str(h, k("boneName")),
			Limit: model.HumanLimit{
				Min:        d.vec3(lim, k("min")),
				Max:        d.vec3(lim, k("max")),
				Center:     d.vec3(lim, k("value")),
				AxisLength: d.f32(lim, k("length")),
				UseDefault: !d.bool(lim, k("modified")),
			},
		})
	}
	for _, s := range d.seq(n, k("skeleton")) {
		hd.Skeleton = append(hd.Skeleton, model.SkeletonBone{
			Name:       d.str(s, k("name")),
			ParentName: d.str(s, k("parentName")),
			Local:      geom.Transform{T: d.vec3(s, k("position")), R: d.quat(s, k("rotation")), S: d.vec3(s, k("scale"))},
		})
	}
	return hd
}

// HumanDescription returns the HumanDescription of the file: a model
// importer's (a .fbx.meta: ModelImporter.humanDescription, whose global
// scale, when it has none, is the importer's meshes.globalScale) or an
// Avatar's m_HumanDescription. A generic model's description has no bones.
func (f *File) HumanDescription() (*model.HumanDescription, error) {
	for _, doc := range f.Docs {
		d := f.dec(doc)
		var hd *model.HumanDescription
		if doc.Type == "" && doc.Root.Kind == Mapping {
			for _, imp := range doc.Root.Values {
				if n := imp.Get("humanDescription"); n != nil {
					scale := float32(1)
					if m := imp.Get("meshes"); m.Get("globalScale") != nil {
						scale = d.f32(m, "globalScale")
					}
					hd = d.humanDescription(n, false, scale)
					break
				}
			}
		} else if n := doc.Body.Get("m_HumanDescription"); n != nil {
			hd = d.humanDescription(n, true, 1)
		}
		if d.err != nil {
			return nil, d.err
		}
		if hd != nil {
			return hd, nil
		}
	}
	return nil, fmt.Errorf("%s: HumanDescription: %w", f.Name, ErrNoObject)
}

// ClipImport is a clip a model importer cuts from a take
// (ModelImporter.animations.clipAnimations in a .fbx.meta).
type ClipImport struct {
	Name, TakeName        string
	FirstFrame, LastFrame float32
	WrapMode              model.WrapMode
	Settings              model.LoopSettings
	// Events are the clip's events; their Time is normalised (0 to 1 over
	// the clip), as the importer stores it.
	Events []model.Event
	// BodyMask is the humanoid body-part mask (one word per part).
	BodyMask []uint32
}

// ClipImports returns the clip import settings of a model importer's .meta
// (none when the file has none).
func (f *File) ClipImports() ([]ClipImport, error) {
	var out []ClipImport
	for _, doc := range f.Docs {
		if doc.Type != "" || doc.Root.Kind != Mapping {
			continue
		}
		d := f.dec(doc)
		for _, imp := range doc.Root.Values {
			for _, c := range d.seq(imp.Get("animations"), "clipAnimations") {
				ci := ClipImport{
					Name: d.str(c, "name"), TakeName: d.str(c, "takeName"),
					FirstFrame: d.f32(c, "firstFrame"), LastFrame: d.f32(c, "lastFrame"),
					WrapMode: model.WrapMode(d.i32(c, "wrapMode")),
					Settings: model.LoopSettings{
						LoopTime:                d.bool(c, "loopTime"),
						LoopBlend:               d.bool(c, "loopBlend"),
						LoopBlendOrientation:    d.bool(c, "loopBlendOrientation"),
						LoopBlendPositionY:      d.bool(c, "loopBlendPositionY"),
						LoopBlendPositionXZ:     d.bool(c, "loopBlendPositionXZ"),
						KeepOriginalOrientation: d.bool(c, "keepOriginalOrientation"),
						KeepOriginalPositionY:   d.bool(c, "keepOriginalPositionY"),
						KeepOriginalPositionXZ:  d.bool(c, "keepOriginalPositionXZ"),
						HeightFromFeet:          d.bool(c, "heightFromFeet"),
						Mirror:                  d.bool(c, "mirror"),
						CycleOffset:             d.f32(c, "cycleOffset"),
						OrientationOffsetY:      d.f32(c, "orientationOffsetY"),
						Level:                   d.f32(c, "level"),
					},
					BodyMask: d.hex32(c, "bodyMask"),
				}
				for _, e := range d.seq(c, "events") {
					ci.Events = append(ci.Events, model.Event{
						Time: d.f32(e, "time"), Function: d.str(e, "functionName"), Data: d.str(e, "data"),
						Float: d.f32(e, "floatParameter"), Int: d.i32(e, "intParameter"),
						MessageOptions: d.i32(e, "messageOptions"),
					})
				}
				out = append(out, ci)
			}
		}
		if d.err != nil {
			return nil, d.err
		}
	}
	return out, nil
}
