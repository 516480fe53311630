package gltfchar

import (
	"fmt"
	"math"
	"strings"

	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
	qg "github.com/qmuntal/gltf"
)

// trs is a transform in glTF's frame, in float64.
type trs struct {
	t [3]float64
	r [4]float64 // x, y, z, w; unit
	s [3]float64
}

// mat4 is a float64 affine matrix, [row][column], column vectors.
type mat4 [4][4]float64

func identity4() mat4 { return mat4{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}} }

func (a mat4) mul(b mat4) mat4 {
	var m mat4
	for r := range 4 {
		for c := range 4 {
			for k := range 4 {
				m[r][c] += a[r][k] * b[k][c]
			}
		}
	}
	return m
}

// point returns the matrix's translation column (the image of the origin).
func (a mat4) origin() [3]float64 { return [3]float64{a[0][3], a[1][3], a[2][3]} }

// matrix returns the transform's matrix (T·R·S).
func (x trs) matrix() mat4 {
	qx, qy, qz, qw := x.r[0], x.r[1], x.r[2], x.r[3]
	rm := [3][3]float64{
		{1 - 2*(qy*qy+qz*qz), 2 * (qx*qy - qz*qw), 2 * (qx*qz + qy*qw)},
		{2 * (qx*qy + qz*qw), 1 - 2*(qx*qx+qz*qz), 2 * (qy*qz - qx*qw)},
		{2 * (qx*qz - qy*qw), 2 * (qy*qz + qx*qw), 1 - 2*(qx*qx+qy*qy)},
	}
	m := identity4()
	for r := range 3 {
		for c := range 3 {
			m[r][c] = rm[r][c] * x.s[c]
		}
		m[r][3] = x.t[r]
	}
	return m
}

// decomposeTRS splits an affine matrix without shear into translation,
// rotation and scale (a reflection goes into the x scale).
func decomposeTRS(m mat4) trs {
	var col [3][3]float64
	for c := range 3 {
		col[c] = [3]float64{m[0][c], m[1][c], m[2][c]}
	}
	length := func(v [3]float64) float64 { return math.Sqrt(v[0]*v[0] + v[1]*v[1] + v[2]*v[2]) }
	s := [3]float64{length(col[0]), length(col[1]), length(col[2])}
	cr := [3]float64{col[0][1]*col[1][2] - col[0][2]*col[1][1], col[0][2]*col[1][0] - col[0][0]*col[1][2], col[0][0]*col[1][1] - col[0][1]*col[1][0]}
	if cr[0]*col[2][0]+cr[1]*col[2][1]+cr[2]*col[2][2] < 0 {
		s[0] = -s[0]
	}
	var r [3][3]float64 // r[c] is column c of the rotation
	for c := range 3 {
		k := s[c]
		if k == 0 {
			k = 1
		}
		for i := range 3 {
			r[c][i] = col[c][i] / k
		}
	}
	return trs{t: m.origin(), r: geom.QuatFromAxes64(r[0], r[1], r[2]), s: s}
}

// unitQuat normalises q (the identity when q has no length or is not
// finite).
func unitQuat(q [4]float64) [4]float64 {
	l := math.Sqrt(q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3])
	if !(l > 0) || math.IsInf(l, 0) {
		return [4]float64{0, 0, 0, 1}
	}
	return [4]float64{q[0] / l, q[1] / l, q[2] / l, q[3] / l}
}

// hier is the scene's node hierarchy in rig order (parents before
// children, depth first), before any frame conversion.
type hier struct {
	gltf      []int    // rig node -> glTF node (-1: the synthetic root)
	rigOf     []int    // glTF node -> rig node (-1: not in the scene)
	parent    []int    // rig node -> rig parent (-1 for the root)
	names     []string // unique rig node names
	orig      []string // the glTF names ("" for the synthetic root)
	paths     []string
	local     []trs  // glTF-frame local transforms
	world     []mat4 // glTF-frame world matrices
	synthetic bool
}

// maxNodes bounds the node count (a JSON node takes at least 2 bytes, so
// this is far beyond what a file describes usefully).
const maxNodes = 1 << 20

// hierarchy builds the node tree of the document's scene. The root is
// the scene's one root node when it has no transform of its own (skinned
// mesh nodes beside it at the top are put below it); otherwise
// (several roots, or one that moves, turns or scales) a synthetic root
// named rootName stands above the scene's roots, so that the rig's root,
// where an Animator sits, is the character's own frame.
func (d *decoder) hierarchy(rootName string) (*hier, error) {
	nodes := d.doc.Nodes
	if len(nodes) > maxNodes {
		return nil, d.unsupported("nodes", "%d nodes (at most %d)", len(nodes), maxNodes)
	}
	parent := make([]int, len(nodes))
	for i := range parent {
		parent[i] = -1
	}
	for i, n := range nodes {
		if n == nil {
			return nil, d.malformed(fmt.Sprintf("node %d", i), "null")
		}
		for _, c := range n.Children {
			if c < 0 || c >= len(nodes) || c == i {
				return nil, d.malformed(fmt.Sprintf("node %d", i), "child %d is not another node (%d nodes)", c, len(nodes))
			}
			if parent[c] >= 0 {
				return nil, d.malformed(fmt.Sprintf("node %d", c), "child of both node %d and node %d", parent[c], i)
			}
			parent[c] = i
		}
	}
	var roots []int
	switch {
	case len(d.doc.Scenes) > 0:
		si := 0
		if d.doc.Scene != nil {
			si = *d.doc.Scene
		}
		if si < 0 || si >= len(d.doc.Scenes) || d.doc.Scenes[si] == nil {
			return nil, d.malformed("scene", "scene %d does not exist (%d scenes)", si, len(d.doc.Scenes))
		}
		seen := map[int]bool{}
		for _, r := range d.doc.Scenes[si].Nodes {
			elem := fmt.Sprintf("scene %d", si)
			if r < 0 || r >= len(nodes) {
				return nil, d.malformed(elem, "root node %d does not exist (%d nodes)", r, len(nodes))
			}
			if parent[r] >= 0 {
				return nil, d.malformed(elem, "root node %d is a child of node %d", r, parent[r])
			}
			if seen[r] {
				return nil, d.malformed(elem, "root node %d listed twice", r)
			}
			seen[r] = true
			roots = append(roots, r)
		}
	default:
		for i := range nodes {
			if parent[i] < 0 {
				roots = append(roots, i)
			}
		}
	}
	h := &hier{rigOf: make([]int, len(nodes))}
	for i := range h.rigOf {
		h.rigOf[i] = -1
	}
	locals := make([]trs, len(nodes))
	for i, n := range nodes {
		var err error
		if locals[i], err = d.nodeTRS(i, n); err != nil {
			return nil, err
		}
	}
	// Skinned meshes at the scene's top (where exporters put them: glTF
	// ignores a skinned mesh node's transform) are not part of the
	// skeleton: with one skeleton root left, it is the rig's root and
	// they hang below it.
	var skel, skins []int
	for _, r := range roots {
		if n := nodes[r]; n.Skin != nil && n.Mesh != nil && len(n.Children) == 0 {
			skins = append(skins, r)
		} else {
			skel = append(skel, r)
		}
	}
	if len(skel) == 1 && len(skins) > 0 && isIdentity(locals[skel[0]]) {
		roots = skel
	} else {
		skins = nil
	}
	h.synthetic = len(roots) != 1 || !isIdentity(locals[roots[0]])
	if h.synthetic {
		h.add(-1, -1, rootName, trs{r: [4]float64{0, 0, 0, 1}, s: [3]float64{1, 1, 1}})
	}
	// Depth first, children in the order listed; a node has one parent
	// (checked above), so the walk from the roots meets every node once.
	type item struct{ node, parent int }
	stack := make([]item, 0, len(roots)+len(skins))
	for i := len(skins) - 1; i >= 0; i-- {
		stack = append(stack, item{skins[i], 0}) // walked after the root's tree
	}
	for i := len(roots) - 1; i >= 0; i-- {
		p := -1
		if h.synthetic {
			p = 0
		}
		stack = append(stack, item{roots[i], p})
	}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		ri := h.add(it.node, it.parent, nodes[it.node].Name, locals[it.node])
		ch := nodes[it.node].Children
		for k := len(ch) - 1; k >= 0; k-- {
			stack = append(stack, item{ch[k], ri})
		}
	}
	h.nameNodes(rootName)
	return h, nil
}

// add appends a rig node and returns its index.
func (h *hier) add(g, parent int, name string, local trs) int {
	ri := len(h.gltf)
	h.gltf = append(h.gltf, g)
	if g >= 0 {
		h.rigOf[g] = ri
	}
	h.parent = append(h.parent, parent)
	h.orig = append(h.orig, name)
	h.local = append(h.local, local)
	w := local.matrix()
	if parent >= 0 {
		w = h.world[parent].mul(w)
	}
	h.world = append(h.world, w)
	return ri
}

// nameNodes gives every rig node a unique name and its path. A node keeps
// its glTF name unless an earlier node (in rig order) has it already; then
// it gets the first free " (k)" suffix, k = 1, 2, ... Names are made unique
// over the whole rig, not only among siblings, since a HumanDescription
// names bones by name alone. A "/" (the path separator) becomes "_", an
// empty name "node_N" (N the glTF index), and the synthetic root's name is
// the file's base name ("Root" without one).
func (h *hier) nameNodes(rootName string) {
	var used model.NameSet
	h.names = make([]string, len(h.gltf))
	h.paths = make([]string, len(h.gltf))
	for i, g := range h.gltf {
		name := strings.ReplaceAll(h.orig[i], "/", "_")
		switch {
		case g < 0 && name == "":
			name = "Root"
		case name == "":
			name = fmt.Sprintf("node_%d", g)
		}
		name = used.Unique(name)
		h.names[i] = name
		switch p := h.parent[i]; {
		case p < 0:
			h.paths[i] = ""
		case h.paths[p] == "":
			h.paths[i] = name
		default:
			h.paths[i] = h.paths[p] + "/" + name
		}
	}
}

func isIdentity(x trs) bool {
	return x.t == [3]float64{} && x.r == [4]float64{0, 0, 0, 1} && x.s == [3]float64{1, 1, 1}
}

// nodeTRS returns a node's local transform in glTF's frame.
func (d *decoder) nodeTRS(i int, n *qg.Node) (trs, error) {
	var x trs
	if n.Matrix != qg.DefaultMatrix && n.Matrix != ([16]float64{}) {
		var m mat4
		for k, v := range n.Matrix {
			m[k%4][k/4] = v
		}
		for k := range 16 {
			if !geom.Finite64(n.Matrix[k]) {
				return x, d.malformed(fmt.Sprintf("node %d", i), "matrix entry %d is not finite", k)
			}
		}
		x = decomposeTRS(m)
	} else {
		x = trs{t: n.Translation, r: n.RotationOrDefault(), s: n.Scale}
		for k := range 3 {
			if !geom.Finite64(x.t[k]) || !geom.Finite64(x.s[k]) {
				return x, d.malformed(fmt.Sprintf("node %d", i), "translation or scale not finite")
			}
		}
		for k := range 4 {
			if !geom.Finite64(x.r[k]) {
				return x, d.malformed(fmt.Sprintf("node %d", i), "rotation not finite")
			}
		}
		x.r = unitQuat(x.r)
	}
	return x, nil
}

// rig converts the hierarchy into Unity's frame.
func (d *decoder) rig(h *hier, f frame, name string) (*model.Rig, []int) {
	r := &model.Rig{Name: name, Nodes: make([]model.RigNode, len(h.gltf))}
	if r.Name == "" {
		r.Name = h.names[0]
	}
	for i := range h.gltf {
		x := h.local[i]
		r.Nodes[i] = model.RigNode{
			Name:   h.names[i],
			Path:   h.paths[i],
			Parent: h.parent[i],
			Local: geom.Transform{
				T: f.vec([3]float32{float32(x.t[0]), float32(x.t[1]), float32(x.t[2])}),
				R: f.quat([4]float32{float32(x.r[0]), float32(x.r[1]), float32(x.r[2]), float32(x.r[3])}),
				S: geom.Vec3{X: float32(x.s[0]), Y: float32(x.s[1]), Z: float32(x.s[2])},
			},
		}
	}
	for i, n := range h.names {
		if g := h.gltf[i]; g >= 0 && n != h.orig[i] {
			d.warn("node %d %q is named %q in the rig (names are made unique)", g, h.orig[i], n)
		}
	}
	return r, append([]int(nil), h.gltf...)
}
