package avatarbuild

import (
	"math"
	"sort"

	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/humanoid"
	"github.com/mecanim/mecanim/model"
)

// The fields Compare reports. Rotations are in degrees (the angle between
// two rotations, up to the quaternion's sign); the others are relative
// differences: positions over the stored avatar's height (its human scale,
// 1 for a generic avatar), other values over the stored value's size (the
// plain difference where it is 0), and for tables of nodes the share of
// entries that differ.
const (
	FieldNodes          = "skeleton.nodes"       // share of nodes missing, extra or with another parent (by path)
	FieldOrder          = "skeleton.order"       // share of nodes at another index
	FieldNames          = "names"                // share of name-table entries missing, extra or different
	FieldSkeletonPoseT  = "skeleton_pose.t"      // translation over the height
	FieldSkeletonPoseQ  = "skeleton_pose.q"      // degrees
	FieldSkeletonPoseS  = "skeleton_pose.s"      // relative
	FieldDefaultPoseT   = "default_pose.t"       // translation over the height
	FieldDefaultPoseQ   = "default_pose.q"       // degrees
	FieldDefaultPoseS   = "default_pose.s"       // relative
	FieldHuman          = "human"                // 1 when one avatar is a humanoid and the other not
	FieldHumanSkeleton  = "human.skeleton"       // share of human nodes missing, extra, with another parent or axes
	FieldHumanIndex     = "human.skeleton_index" // share of human nodes on another avatar node
	FieldHumanPoseT     = "human.pose.t"         // translation over the height
	FieldHumanPoseQ     = "human.pose.q"         // degrees
	FieldHumanPoseS     = "human.pose.s"         // relative
	FieldBoneIndex      = "human.bone_index"     // share of body bones on another node
	FieldHands          = "human.hands"          // share of finger bones on another node (and the has-hand flags)
	FieldPre            = "axes.pre"             // degrees
	FieldPost           = "axes.post"            // degrees
	FieldSign           = "axes.sign"            // relative
	FieldLimits         = "axes.limits"          // relative, min and max
	FieldLength         = "axes.length"          // relative
	FieldType           = "axes.type"            // share of axes of another type
	FieldMass           = "human.bone_mass"      // relative
	FieldScale          = "human.scale"          // relative
	FieldRootT          = "human.root_x.t"       // over the height
	FieldRootQ          = "human.root_x.q"       // degrees
	FieldSettings       = "human.settings"       // twist, stretch, feet spacing (relative) and the translation-DoF flag
	FieldRootMotionBone = "root_motion_bone"     // 1 when another node
)

// rotationFields are the fields in degrees.
var rotationFields = map[string]bool{
	FieldSkeletonPoseQ: true, FieldDefaultPoseQ: true, FieldHumanPoseQ: true,
	FieldPre: true, FieldPost: true, FieldRootQ: true,
}

// notFromDescription are the fields whose stored value depends on more than
// the human description.
var notFromDescription = map[string]bool{
	FieldOrder: true, FieldDefaultPoseT: true, FieldDefaultPoseQ: true, FieldDefaultPoseS: true,
}

// FromDescription reports whether a Report field's stored value follows
// from the human description alone. The default pose and the node order do
// not (they are the scene's pose and sibling order when the avatar was
// built): Compare reports them but leaves them out of its maxima.
func FromDescription(field string) bool { return !notFromDescription[field] }

// IsRotation reports whether a Report field is in degrees (else it is a
// relative difference).
func IsRotation(field string) bool { return rotationFields[field] }

// Report is the worst difference per field between a built and a stored
// avatar (see the Field constants), and the worst over the fields a
// description determines: in degrees over the rotation fields, relative
// over the others.
type Report struct {
	MaxRotationDeg float64            `json:"max_rotation_deg"`
	MaxRelative    float64            `json:"max_relative"`
	Fields         map[string]float64 `json:"fields"`
}

// SortedFields returns the report's field names in order.
func (r Report) SortedFields() []string {
	out := make([]string, 0, len(r.Fields))
	for f := range r.Fields {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

// Compare compares a built avatar with a stored one field by field,
// matching nodes by their path (so a different sibling order counts only
// in skeleton.order). A difference that involves a NaN on one side only
// counts 180° or 1.
func Compare(built, stored *model.Avatar) Report {
	c := comparer{r: Report{Fields: map[string]float64{}}}
	c.height = 1
	if stored.IsHuman() && stored.Human.Scale != 0 && geom.Finite(stored.Human.Scale) {
		c.height = math.Abs(float64(stored.Human.Scale))
	}
	c.skeleton(built, stored)
	c.human(built, stored)
	for f, v := range c.r.Fields {
		if notFromDescription[f] {
			continue
		}
		if rotationFields[f] {
			c.r.MaxRotationDeg = math.Max(c.r.MaxRotationDeg, v)
		} else {
			c.r.MaxRelative = math.Max(c.r.MaxRelative, v)
		}
	}
	return c.r
}

type comparer struct {
	r      Report
	height float64
}

// put records v as field f's difference if it is the worst so far.
func (c *comparer) put(f string, v float64) {
	if math.IsNaN(v) {
		v = 1
		if rotationFields[f] {
			v = 180
		}
	}
	if old, ok := c.r.Fields[f]; !ok || v > old {
		c.r.Fields[f] = v
	}
}

// share records the share bad/n as field f.
func (c *comparer) share(f string, bad, n int) {
	if n == 0 {
		c.put(f, 0)
		return
	}
	c.put(f, float64(bad)/float64(n))
}

// rel is the relative difference of two numbers.
func rel(a, b float32) float64 {
	x, y := float64(a), float64(b)
	if math.IsNaN(x) && math.IsNaN(y) {
		return 0
	}
	if y == 0 {
		return math.Abs(x)
	}
	return math.Abs(x-y) / math.Abs(y)
}

// relVec is the relative difference of two vectors, componentwise.
func relVec(a, b geom.Vec3) float64 {
	return math.Max(rel(a.X, b.X), math.Max(rel(a.Y, b.Y), rel(a.Z, b.Z)))
}

// angle is the angle in degrees between two rotations, up to sign; 0 when
// both are NaN.
func angle(a, b geom.Quat) float64 {
	if !a.Finite() && !b.Finite() {
		return 0
	}
	p, q := quatOf(a).norm(), quatOf(b).norm()
	d := p.conj().mul(q)
	v := math.Sqrt(d[0]*d[0] + d[1]*d[1] + d[2]*d[2])
	return 2 * math.Atan2(v, math.Abs(d[3])) * 180 / math.Pi
}

// distance is the distance of two positions over the height.
func (c *comparer) distance(a, b geom.Vec3) float64 {
	return float64(a.Sub(b).Len()) / c.height
}

// transforms compares transforms under the field prefix (.t, .q, .s).
func (c *comparer) transforms(prefix string, a, b geom.Transform) {
	c.put(prefix+".t", c.distance(a.T, b.T))
	c.put(prefix+".q", angle(a.R, b.R))
	c.put(prefix+".s", relVec(a.S, b.S))
}

// pathIndex maps each node's path hash to its index.
func pathIndex(nodes []model.SkeletonNode) map[uint32]int {
	m := make(map[uint32]int, len(nodes))
	for i, n := range nodes {
		if _, dup := m[n.PathHash]; !dup {
			m[n.PathHash] = i
		}
	}
	return m
}

// parentHash returns the path hash of node i's parent (and false for a root).
func parentHash(nodes []model.SkeletonNode, i int) (uint32, bool) {
	p := nodes[i].Parent
	if p < 0 || p >= len(nodes) {
		return 0, false
	}
	return nodes[p].PathHash, true
}

func (c *comparer) skeleton(built, stored *model.Avatar) {
	bi := pathIndex(built.Skeleton.Nodes)
	bad, moved := 0, 0
	for _, f := range []string{FieldSkeletonPoseT, FieldSkeletonPoseQ, FieldSkeletonPoseS, FieldDefaultPoseT, FieldDefaultPoseQ, FieldDefaultPoseS} {
		c.put(f, 0)
	}
	for i, n := range stored.Skeleton.Nodes {
		j, ok := bi[n.PathHash]
		if !ok {
			bad++
			continue
		}
		sp, sok := parentHash(stored.Skeleton.Nodes, i)
		bp, bok := parentHash(built.Skeleton.Nodes, j)
		if sp != bp || sok != bok || n.Axes != built.Skeleton.Nodes[j].Axes {
			bad++
		}
		if i != j {
			moved++
		}
		if i < len(stored.SkeletonPose) && j < len(built.SkeletonPose) {
			c.transforms("skeleton_pose", built.SkeletonPose[j], stored.SkeletonPose[i])
		}
		if i < len(stored.DefaultPose) && j < len(built.DefaultPose) {
			c.transforms("default_pose", built.DefaultPose[j], stored.DefaultPose[i])
		}
	}
	n := max(len(stored.Skeleton.Nodes), len(built.Skeleton.Nodes))
	bad += n - len(stored.Skeleton.Nodes)
	c.share(FieldNodes, bad, n)
	c.share(FieldOrder, moved, n)
	badNames := 0
	for h, s := range stored.Names {
		if b, ok := built.Names[h]; !ok || b != s {
			badNames++
		}
	}
	for h := range built.Names {
		if _, ok := stored.Names[h]; !ok {
			badNames++
		}
	}
	c.share(FieldNames, badNames, max(len(stored.Names), len(built.Names)))
	rm := 0.0
	if nodeHash(built.Skeleton.Nodes, built.RootMotionBone) != nodeHash(stored.Skeleton.Nodes, stored.RootMotionBone) {
		rm = 1
	}
	c.put(FieldRootMotionBone, rm)
}

// nodeKey names a node by its path hash; ok is false for no node.
type nodeKey struct {
	h  uint32
	ok bool
}

// nodeHash returns the key of node i (no node when i is out of range).
func nodeHash(nodes []model.SkeletonNode, i int) nodeKey {
	if i < 0 || i >= len(nodes) {
		return nodeKey{}
	}
	return nodeKey{nodes[i].PathHash, true}
}

func (c *comparer) human(built, stored *model.Avatar) {
	if built.IsHuman() != stored.IsHuman() {
		c.put(FieldHuman, 1)
		return
	}
	c.put(FieldHuman, 0)
	if !stored.IsHuman() {
		return
	}
	bh, sh := built.Human, stored.Human
	bn, sn := bh.Skeleton.Nodes, sh.Skeleton.Nodes
	bi := pathIndex(bn)
	bad, badIndex := 0, 0
	for _, f := range []string{FieldHumanPoseT, FieldHumanPoseQ, FieldHumanPoseS, FieldPre, FieldPost, FieldSign, FieldLimits, FieldLength, FieldType} {
		c.put(f, 0)
	}
	badType, axes := 0, 0
	for i, n := range sn {
		j, ok := bi[n.PathHash]
		if !ok {
			bad++
			continue
		}
		sp, sok := parentHash(sn, i)
		bp, bok := parentHash(bn, j)
		if sp != bp || sok != bok || (n.Axes < 0) != (bn[j].Axes < 0) {
			bad++
		}
		if nodeHash(stored.Skeleton.Nodes, at(stored.HumanSkeletonIndex, i)) != nodeHash(built.Skeleton.Nodes, at(built.HumanSkeletonIndex, j)) {
			badIndex++
		}
		if i < len(sh.Pose) && j < len(bh.Pose) {
			c.transforms("human.pose", bh.Pose[j], sh.Pose[i])
		}
		if n.Axes < 0 || n.Axes >= len(sh.Skeleton.Axes) || bn[j].Axes < 0 || bn[j].Axes >= len(bh.Skeleton.Axes) {
			continue
		}
		sa, ba := sh.Skeleton.Axes[n.Axes], bh.Skeleton.Axes[bn[j].Axes]
		axes++
		c.put(FieldPre, angle(ba.Pre, sa.Pre))
		c.put(FieldPost, angle(ba.Post, sa.Post))
		c.put(FieldSign, relVec(ba.Sign, sa.Sign))
		c.put(FieldLimits, math.Max(relVec(ba.Min, sa.Min), relVec(ba.Max, sa.Max)))
		c.put(FieldLength, rel(ba.Length, sa.Length))
		if ba.Type != sa.Type {
			badType++
		}
	}
	n := max(len(sn), len(bn))
	bad += n - len(sn)
	c.share(FieldHumanSkeleton, bad, n)
	c.share(FieldHumanIndex, badIndex, len(sn))
	c.share(FieldType, badType, axes)
	// Bone maps, by the path of the node each bone is.
	same := func(bj, si int) bool { return nodeHash(bn, bj) == nodeHash(sn, si) }
	badBones := 0
	for b := 0; b < humanoid.BodyBoneCount; b++ {
		if !same(at(bh.BoneIndex, b), at(sh.BoneIndex, b)) {
			badBones++
		}
	}
	c.share(FieldBoneIndex, badBones, humanoid.BodyBoneCount)
	badFingers := 0
	for f := 0; f < 15; f++ {
		if !same(at(bh.LeftHand, f), at(sh.LeftHand, f)) {
			badFingers++
		}
		if !same(at(bh.RightHand, f), at(sh.RightHand, f)) {
			badFingers++
		}
	}
	if bh.HasLeftHand != sh.HasLeftHand {
		badFingers++
	}
	if bh.HasRightHand != sh.HasRightHand {
		badFingers++
	}
	c.share(FieldHands, badFingers, 32)
	c.put(FieldMass, 0)
	for b := range sh.BoneMass {
		if b < len(bh.BoneMass) {
			c.put(FieldMass, rel(bh.BoneMass[b], sh.BoneMass[b]))
		} else {
			c.put(FieldMass, 1)
		}
	}
	c.put(FieldScale, rel(bh.Scale, sh.Scale))
	c.put(FieldRootT, c.distance(bh.RootX.T, sh.RootX.T))
	c.put(FieldRootQ, angle(bh.RootX.R, sh.RootX.R))
	settings := 0.0
	for _, p := range [][2]float32{{bh.ArmTwist, sh.ArmTwist}, {bh.ForeArmTwist, sh.ForeArmTwist},
		{bh.UpperLegTwist, sh.UpperLegTwist}, {bh.LegTwist, sh.LegTwist}, {bh.ArmStretch, sh.ArmStretch},
		{bh.LegStretch, sh.LegStretch}, {bh.FeetSpacing, sh.FeetSpacing}} {
		settings = math.Max(settings, rel(p[0], p[1]))
	}
	if bh.HasTDoF != sh.HasTDoF {
		settings = math.Max(settings, 1)
	}
	c.put(FieldSettings, settings)
}

// at returns x[i], -1 when i is out of range.
func at(x []int, i int) int {
	if i < 0 || i >= len(x) {
		return -1
	}
	return x[i]
}
