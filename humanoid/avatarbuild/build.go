// Package avatarbuild builds a compiled avatar from a human description, as
// Unity's avatar builder does: from the bone map, the skeleton's T-pose and
// the twist and stretch settings of a model.HumanDescription, every field of
// the model.Avatar Unity stores (the avatar skeleton with its name table and
// poses, the human skeleton and its pose, the human bone and finger maps,
// each bone's joint axes, the bone masses, the human scale and m_RootX),
// and Compare measures a built avatar against a stored one. It is how a
// character made outside Unity gets a humanoid avatar the runtime (package
// humanoid) plays muscle clips on as Unity would.
//
// Unity's rules are not published; the ones here were found from the
// avatars of the project's corpus, which store both the description and
// Unity's result (the tests hold how well each fits). Two fields cannot
// come from a description: the default pose (m_DefaultPose, the scene's
// pose when the avatar was built, which Build sets to the T-pose) and the
// order of sibling nodes when the description does not list the skeleton
// depth first in the scene's order (Build keeps the description's order).
// Compare reports them apart (FromDescription).
//
// The skeleton: the description's bones depth first from its first bone
// (the root, the empty path); a bone's parent is the bone of its parent
// name listed last before it (a description that leaves every parent name
// empty, as AvatarBuilder.BuildHumanAvatar and UniVRM write them, takes them
// from the hierarchy it was built on: WithParents, Rebuild); a node rests
// where the last bone of its name does. The human skeleton: the hips' parent (its
// root, at the identity), the hips (at their transform in the frame above
// the skeleton's root) and every node from the hips down to a human bone
// (at their local transforms), in the skeleton's order.
//
// The joint axes of a human bone, in the human space (the frame of the
// human skeleton's root, where +x is the character's right, +y up and +z
// forward):
//   - post is the bone's frame at the T-pose: its x axis points along the
//     bone (to the next bone of its chain; the head along +y, the feet along
//     −y, toes, eyes and jaw along +z; a hand and a last finger bone along
//     the bone before them), its z axis is a fixed reference direction made
//     perpendicular to x (left for the trunk, forward for shoulders, arms,
//     hands and fingers, up for forearms and thumbs, right for legs, feet,
//     toes, eyes and jaw);
//   - pre is the frame of the muscles' zero: the post frame turned by a
//     fixed rotation in the human space (none for the trunk, shoulders,
//     hands, feet, toes and eyes; the arms 40° down and 30° forward, the
//     legs 30° forward, forearms and lower legs bent 80°, fingers curled, the
//     jaw open 10°), mirrored for the right side;
//   - both are stored relative to the bone's node (post) and to its parent
//     node in the human skeleton (pre);
//   - the length is the distance to the next bone of the chain; the head's
//     is the neck's length (without a neck a quarter of the chest's
//     distance to the head, without a chest a sixteenth of the spine's); a
//     hand's a quarter of its forearm's, a foot's its height (composed
//     from the avatar skeleton's root down, as Unity rounds it), toes' a
//     quarter of their distance from the foot, a last finger bone's 9/16 of
//     its distance from the bone before it, eyes' and jaw's 0.1;
//   - the signs and the default limits are Unity's fixed tables (the
//     right side's signs mirror the left's).
//
// The masses are fixed shares of the body, a missing bone's share carried
// by its nearest mapped ancestor. The centre of mass and the body frame
// (m_RootX, the centre's height the human scale) come from package
// humanoid's RestBody: the centre of mass is the runtime's rule; the body
// frame has the runtime's up axis and lateral vector but is turned from
// the human space, which the runtime's is not.
package avatarbuild

import (
	"errors"
	"fmt"
	"math"
	"sort"

	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/humanoid"
	"github.com/mecanim/mecanim/model"
)

// MaxNodes, MaxDepth and MaxPathBytes bound the skeleton of a description
// Build accepts: its bone count, its depth below the root and the summed
// length of its nodes' paths.
const (
	MaxNodes     = 1 << 16
	MaxDepth     = 1 << 10
	MaxPathBytes = 64 << 20
)

// Errors Build returns, wrapped with the avatar's name and what was wrong.
var (
	// ErrMalformed: the description cannot make an avatar (no skeleton,
	// a bone whose parent is not in the skeleton, a human bone mapped
	// twice or to no skeleton bone, a human bone outside its chain, a
	// required bone missing, a non-finite transform, a bone of zero
	// length).
	ErrMalformed = errors.New("avatarbuild: malformed human description")
)

// Build returns the compiled avatar Unity builds from the human description
// d. A description that maps no human bone makes a generic avatar (Human
// nil). The avatar's default pose is the description's T-pose (Unity stores
// the scene's pose there, which a description does not hold). Authored
// limits (a mapping whose limit is not the default) replace the default
// minimum and maximum; their centre and axis length are not used (no
// corpus avatar has authored limits to show what Unity does with them).
//
// When the body frame is undefined (the left and right upper arms and upper
// legs coincide across the body) Human.RootX.R is NaN, as Unity stores it;
// NewRig in package humanoid accepts such an avatar. No other field is NaN.
func Build(name string, d *model.HumanDescription) (*model.Avatar, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("avatarbuild: avatar %q: %w: %s", name, ErrMalformed, fmt.Sprintf(format, args...))
	}
	if d == nil {
		return nil, bad("no description")
	}
	if NeedsParents(d) {
		return nil, bad("every bone's parent is left to the hierarchy (m_ParentName empty, as AvatarBuilder.BuildHumanAvatar and UniVRM write it): the hierarchy must be given (WithParents)")
	}
	sk, err := newSkeleton(d)
	if err != nil {
		return nil, bad("%v", err)
	}
	a := &model.Avatar{Name: name, RootMotionBone: -1, Names: model.Names{}}
	n := len(sk.nodes)
	a.Skeleton.Nodes = make([]model.SkeletonNode, n)
	a.SkeletonPose = make([]geom.Transform, n)
	a.DefaultPose = make([]geom.Transform, n)
	for i, nd := range sk.nodes {
		a.Skeleton.Nodes[i] = model.SkeletonNode{Parent: nd.parent, Axes: -1, PathHash: a.Names.Add(nd.path)}
		a.SkeletonPose[i] = nd.local
		a.DefaultPose[i] = nd.local
	}
	bones, err := sk.mapBones(d)
	if err != nil {
		return nil, bad("%v", err)
	}
	if bones[humanoid.Hips] < 0 {
		for b, nd := range bones {
			if nd >= 0 {
				return nil, bad("%s is mapped but the hips are not", humanoid.BoneNames[b])
			}
		}
		// A generic avatar: the root motion bone is the node the
		// description names.
		if d.RootMotionBoneName != "" {
			if i, ok := sk.byName(d.RootMotionBoneName); ok {
				a.RootMotionBone = i
			}
		}
		return a, nil
	}
	h, hsi, err := buildHuman(sk, bones, d)
	if err != nil {
		return nil, bad("%v", err)
	}
	a.Human = h
	a.HumanSkeletonIndex = hsi
	// The centre of mass and the body frame, by the runtime's rules, of
	// the human pose just built.
	r, err := humanoid.NewRig(a)
	if err != nil {
		return nil, bad("%v", err)
	}
	body, ok := r.RestBody()
	h.RootX = body
	h.Scale = body.T.Y
	if !ok {
		nan := float32(math.NaN())
		h.RootX.R = geom.Quat{X: nan, Y: nan, Z: nan, W: nan}
	}
	if !body.T.Finite() || h.Scale == 0 {
		return nil, bad("centre of mass %v gives no human scale", body.T)
	}
	if field := nonFinite(h); field != "" {
		return nil, bad("the description's magnitudes make %s non-finite", field)
	}
	return a, nil
}

// nonFinite names the first non-finite value of a built human (the body
// frame's NaN aside), or returns "".
func nonFinite(h *model.Human) string {
	for i, p := range h.Pose {
		if !finiteTransform(p) {
			return fmt.Sprintf("the human pose of node %d", i)
		}
	}
	for i, ax := range h.Skeleton.Axes {
		if !ax.Pre.Finite() || !ax.Post.Finite() || !ax.Sign.Finite() || !ax.Min.Finite() || !ax.Max.Finite() || !geom.Finite(ax.Length) {
			return fmt.Sprintf("axes %d", i)
		}
	}
	for b, m := range h.BoneMass {
		if !geom.Finite(m) {
			return fmt.Sprintf("the mass of bone %d", b)
		}
	}
	return ""
}

// skelNode is a node of the avatar skeleton being built.
type skelNode struct {
	name   string
	path   string
	parent int // avatar node, -1 for the root
	depth  int // below the root
	desc   int // index in the description's skeleton
	local  geom.Transform
}

// skeleton is the avatar skeleton being built: the description's bones in
// depth-first order (children in the description's order) from its first
// bone, the root.
type skeleton struct {
	nodes  []skelNode
	byDesc []int            // description index -> avatar node
	names  map[string][]int // bone name -> avatar nodes, in order
}

// newSkeleton orders the description's bones depth first from the root
// (its first bone), resolving each bone's parent by name: among bones of
// the parent's name, the nearest one listed before it (names are not
// unique in every description), else the first one listed.
func newSkeleton(d *model.HumanDescription) (*skeleton, error) {
	n := len(d.Skeleton)
	if n == 0 {
		return nil, errors.New("the skeleton is empty")
	}
	if n > MaxNodes {
		return nil, fmt.Errorf("the skeleton has %d bones (at most %d)", n, MaxNodes)
	}
	byName := map[string][]int{}
	for i, b := range d.Skeleton {
		byName[b.Name] = append(byName[b.Name], i)
	}
	parent := make([]int, n)
	children := make([][]int, n)
	parent[0] = -1
	for i := 1; i < n; i++ {
		cands := byName[d.Skeleton[i].ParentName] // in increasing order
		p := -1
		if k := sort.SearchInts(cands, i); k > 0 {
			p = cands[k-1]
		} else if k < len(cands) && cands[k] != i {
			p = cands[k]
		} else if k+1 < len(cands) {
			p = cands[k+1]
		}
		if p < 0 {
			return nil, fmt.Errorf("bone %d %q has parent %q, which the skeleton lacks", i, d.Skeleton[i].Name, d.Skeleton[i].ParentName)
		}
		parent[i] = p
		children[p] = append(children[p], i)
	}
	sk := &skeleton{byDesc: make([]int, n), names: map[string][]int{}}
	for i := range sk.byDesc {
		sk.byDesc[i] = -1
	}
	// Depth first from the root, iteratively (a hostile description can
	// be deep).
	stack := []int{0}
	pathBytes := 0
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		b := d.Skeleton[i]
		// A node's transform is the last description bone of its name's
		// (Unity looks bones up by name, the later of two namesakes
		// winning: drifter's two "bagBulgeBt_l_end" both rest where the
		// second does).
		same := byName[b.Name]
		nd := skelNode{name: b.Name, parent: -1, desc: i, local: d.Skeleton[same[len(same)-1]].Local}
		if !finiteTransform(nd.local) {
			return nil, fmt.Errorf("bone %q has a non-finite transform %v", b.Name, nd.local)
		}
		if !unitRotation(nd.local.R) {
			return nil, fmt.Errorf("bone %q has rotation %v, not a unit quaternion", b.Name, nd.local.R)
		}
		if i != 0 {
			nd.parent = sk.byDesc[parent[i]]
			nd.depth = sk.nodes[nd.parent].depth + 1
			if nd.depth >= MaxDepth {
				return nil, fmt.Errorf("bone %q is deeper than %d below the root", b.Name, MaxDepth-1)
			}
			pp := sk.nodes[nd.parent].path
			if pathBytes += len(pp) + 1 + len(b.Name); pathBytes > MaxPathBytes {
				return nil, fmt.Errorf("the skeleton's paths are longer than %d bytes in all", MaxPathBytes)
			}
			if pp != "" {
				nd.path = pp + "/" + b.Name
			} else {
				nd.path = b.Name
			}
		}
		sk.byDesc[i] = len(sk.nodes)
		sk.names[b.Name] = append(sk.names[b.Name], len(sk.nodes))
		sk.nodes = append(sk.nodes, nd)
		for k := len(children[i]) - 1; k >= 0; k-- {
			stack = append(stack, children[i][k])
		}
	}
	if len(sk.nodes) != n {
		for i, j := range sk.byDesc {
			if j < 0 {
				return nil, fmt.Errorf("bone %d %q is not below the root %q (its parents make a cycle)", i, d.Skeleton[i].Name, d.Skeleton[0].Name)
			}
		}
	}
	return sk, nil
}

// byName returns the first avatar node of that name.
func (sk *skeleton) byName(name string) (int, bool) {
	if ns := sk.names[name]; len(ns) > 0 {
		return ns[0], true
	}
	return -1, false
}

// isAncestor reports whether avatar node a is a strict ancestor of node n.
func (sk *skeleton) isAncestor(a, n int) bool {
	for p := sk.nodes[n].parent; p >= 0; p = sk.nodes[p].parent {
		if p == a {
			return true
		}
	}
	return false
}

// boneIDs maps the human bone names of a description to humanoid's bone
// indices.
var boneIDs = func() map[string]int {
	m := make(map[string]int, humanoid.BoneCount)
	for i, n := range humanoid.BoneNames {
		m[n] = i
	}
	return m
}()

// mapBones returns the avatar node of each human bone (-1 where the
// description maps none).
func (sk *skeleton) mapBones(d *model.HumanDescription) ([humanoid.BoneCount]int, error) {
	var bones [humanoid.BoneCount]int
	for i := range bones {
		bones[i] = -1
	}
	used := map[int]int{}
	for _, m := range d.Human {
		if m.BoneName == "" {
			continue
		}
		b, ok := boneIDs[m.HumanName]
		if !ok {
			return bones, fmt.Errorf("unknown human bone %q", m.HumanName)
		}
		if bones[b] >= 0 {
			return bones, fmt.Errorf("human bone %s is mapped twice", m.HumanName)
		}
		nd, ok := sk.byName(m.BoneName)
		if !ok {
			return bones, fmt.Errorf("human bone %s is %q, which the skeleton lacks", m.HumanName, m.BoneName)
		}
		if o, dup := used[nd]; dup {
			return bones, fmt.Errorf("bone %q is both %s and %s", m.BoneName, humanoid.BoneNames[o], m.HumanName)
		}
		used[nd] = b
		bones[b] = nd
	}
	return bones, nil
}

// required are the bones a humanoid must map (Unity's required bones).
var required = []int{humanoid.Hips, humanoid.LeftUpperLeg, humanoid.RightUpperLeg, humanoid.LeftLowerLeg,
	humanoid.RightLowerLeg, humanoid.LeftFoot, humanoid.RightFoot, humanoid.Spine, humanoid.Head,
	humanoid.LeftUpperArm, humanoid.RightUpperArm, humanoid.LeftLowerArm, humanoid.RightLowerArm,
	humanoid.LeftHand, humanoid.RightHand}

// presentParent returns human bone b's nearest mapped ancestor bone (-1
// for none).
func presentParent(b int, bones *[humanoid.BoneCount]int) int {
	for p := humanoid.ParentBone(b); p >= 0; p = humanoid.ParentBone(p) {
		if bones[p] >= 0 {
			return p
		}
	}
	return -1
}

// buildHuman builds the human skeleton, its pose, the bone maps, the axes
// and the masses (m_RootX and the scale are left for Build).
func buildHuman(sk *skeleton, bones [humanoid.BoneCount]int, d *model.HumanDescription) (*model.Human, []int, error) {
	for _, b := range required {
		if bones[b] < 0 {
			return nil, nil, fmt.Errorf("required bone %s is missing", humanoid.BoneNames[b])
		}
	}
	hips := bones[humanoid.Hips]
	root := sk.nodes[hips].parent
	if root < 0 {
		return nil, nil, fmt.Errorf("the hips %q are the skeleton's root", sk.nodes[hips].name)
	}
	// Each bone must hang below its nearest mapped human ancestor.
	for b, nd := range bones {
		if nd < 0 || b == humanoid.Hips {
			continue
		}
		p := presentParent(b, &bones)
		if p < 0 || !sk.isAncestor(bones[p], nd) {
			pn := "the hips"
			if p >= 0 {
				pn = humanoid.BoneNames[p]
			}
			return nil, nil, fmt.Errorf("human bone %s (%q) is not below %s", humanoid.BoneNames[b], sk.nodes[nd].name, pn)
		}
	}
	// The human skeleton: the hips' parent (its root), and every node
	// from the hips down to a human bone, in the avatar's order.
	in := make([]bool, len(sk.nodes))
	in[root] = true
	for _, nd := range bones {
		for k := nd; k >= 0 && !in[k]; k = sk.nodes[k].parent {
			in[k] = true
		}
	}
	hsi := []int{}
	humanOf := make([]int, len(sk.nodes))
	for i := range sk.nodes {
		humanOf[i] = -1
		if in[i] {
			humanOf[i] = len(hsi)
			hsi = append(hsi, i)
		}
	}
	if len(hsi) > humanoid.MaxHumanNodes {
		return nil, nil, fmt.Errorf("the human skeleton has %d nodes (at most %d)", len(hsi), humanoid.MaxHumanNodes)
	}
	boneOf := make([]int, len(hsi))
	for i := range boneOf {
		boneOf[i] = -1
	}
	for b, nd := range bones {
		if nd >= 0 {
			boneOf[humanOf[nd]] = b
		}
	}
	h := &model.Human{
		ArmTwist: d.ArmTwist, ForeArmTwist: d.ForeArmTwist, UpperLegTwist: d.UpperLegTwist, LegTwist: d.LegTwist,
		ArmStretch: d.ArmStretch, LegStretch: d.LegStretch, FeetSpacing: d.FeetSpacing, HasTDoF: d.HasTranslationDoF,
	}
	// The pose: the root at the identity, the hips at their transform in
	// the frame above the skeleton's root (every ancestor's transform,
	// the root's own included), the others at their local transforms.
	h.Skeleton.Nodes = make([]model.SkeletonNode, len(hsi))
	h.Pose = make([]geom.Transform, len(hsi))
	for hn, nd := range hsi {
		sn := model.SkeletonNode{Parent: -1, Axes: -1, PathHash: model.PathHash(sk.nodes[nd].path)}
		switch {
		case nd == root:
			h.Pose[hn] = geom.Identity
		case nd == hips:
			sn.Parent = humanOf[root]
			h.Pose[hn] = sk.global(nd)
		default:
			sn.Parent = humanOf[sk.nodes[nd].parent]
			h.Pose[hn] = sk.nodes[nd].local
		}
		if boneOf[hn] >= 0 {
			sn.Axes = len(h.Skeleton.Axes)
			h.Skeleton.Axes = append(h.Skeleton.Axes, model.Axes{})
		}
		h.Skeleton.Nodes[hn] = sn
	}
	h.BoneIndex = make([]int, humanoid.BodyBoneCount)
	for b := range h.BoneIndex {
		h.BoneIndex[b] = humanNode(bones[b], humanOf)
	}
	for s, first := range [2]int{humanoid.LeftHandFirst, humanoid.RightHandFirst} {
		hand := make([]int, 15)
		has := false
		for f := range hand {
			hand[f] = humanNode(bones[first+f], humanOf)
			has = has || hand[f] >= 0
		}
		if !has {
			continue
		}
		if s == 0 {
			h.HasLeftHand, h.LeftHand = true, hand
		} else {
			h.HasRightHand, h.RightHand = true, hand
		}
	}
	c := &axesCtx{sk: sk, h: h, g: humanGlobals(h), bones: &bones, humanOf: humanOf, limits: map[int]model.HumanLimit{}}
	for _, m := range d.Human {
		if b, ok := boneIDs[m.HumanName]; ok && m.BoneName != "" {
			c.limits[b] = m.Limit
		}
	}
	for hn, b := range boneOf {
		if b < 0 {
			continue
		}
		ax, err := axesOf(b, hn, c)
		if err != nil {
			return nil, nil, err
		}
		h.Skeleton.Axes[h.Skeleton.Nodes[hn].Axes] = ax
	}
	h.BoneMass = masses(&bones)
	return h, hsi, nil
}

// humanNode returns the human node of avatar node nd (-1 for none).
func humanNode(nd int, humanOf []int) int {
	if nd < 0 {
		return -1
	}
	return humanOf[nd]
}

// global returns avatar node i's transform in the frame above the root.
func (sk *skeleton) global(i int) geom.Transform {
	g := sk.nodes[i].local
	for p := sk.nodes[i].parent; p >= 0; p = sk.nodes[p].parent {
		g = sk.nodes[p].local.Mul(g)
	}
	return g
}

// globalFromRoot is global(i) composed the other way, from the root down,
// as Unity composes the avatar skeleton's global pose (in float32, the
// order decides the rounding).
func (sk *skeleton) globalFromRoot(i int) geom.Transform {
	var chain []int
	for k := i; k >= 0; k = sk.nodes[k].parent {
		chain = append(chain, k)
	}
	g := sk.nodes[chain[len(chain)-1]].local
	for j := len(chain) - 2; j >= 0; j-- {
		g = g.Mul(sk.nodes[chain[j]].local)
	}
	return g
}

func finiteTransform(t geom.Transform) bool {
	return t.T.Finite() && t.R.Finite() && t.S.Finite()
}

// unitRotation reports whether q is a rotation (a unit quaternion, to
// 1e-2).
func unitRotation(q geom.Quat) bool {
	l := float64(q.Dot(q))
	return l > 0.98 && l < 1.02
}
