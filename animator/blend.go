package animator

import (
	"math"

	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
)

// LeafWeight is one leaf of a blend tree with the weight it plays at: the
// product of the weights along its path from the root.
type LeafWeight struct {
	// Node indexes BlendTree.Nodes; Clip is the leaf's controller clip index
	// (model.NoClip when the leaf has none).
	Node, Clip int
	Weight     float32
}

// MaxBlendDepth bounds how deep BlendWeights follows nested trees, so a
// cyclic or hostile tree cannot recurse without end.
const MaxBlendDepth = 32

// PolarAngleScale is the factor on angular distances in the polar gradient
// bands of the directional 2D trees (Johansen's α, section 6.3.1).
const PolarAngleScale = 2

// BlendWeights appends to out[:0] the leaves of tree that play for the
// parameter values params (indexed like Controller.Parameters), each with its
// weight, and returns the slice. Leaves with weight 0 are left out. It
// allocates only when out lacks capacity. Child and parameter indexes out of
// range are ignored (a missing parameter reads as 0), a direct child whose
// parameter is not finite plays at weight 0, and nesting deeper than
// MaxBlendDepth is cut off, so any tree is safe to evaluate.
func BlendWeights(tree *model.BlendTree, params []float64, out []LeafWeight) []LeafWeight {
	out = out[:0]
	if tree == nil || len(tree.Nodes) == 0 {
		return out
	}
	return blendNode(tree.Nodes, 0, 1, params, out, 0)
}

func param(params []float64, i int) float32 {
	if i < 0 || i >= len(params) {
		return 0
	}
	return float32(params[i])
}

func blendNode(nodes []model.BlendNode, ni int, w float32, params []float64, out []LeafWeight, depth int) []LeafWeight {
	if ni < 0 || ni >= len(nodes) || depth > MaxBlendDepth || w == 0 {
		return out
	}
	n := &nodes[ni]
	if len(n.Children) == 0 {
		return append(out, LeafWeight{Node: ni, Clip: n.Clip, Weight: w})
	}
	m := len(n.Children)
	switch n.Type {
	case model.Blend1D:
		i, j, f := blend1D(n, param(params, n.Param))
		if i >= 0 {
			out = blendChild(nodes, n, i, w*(1-f), params, out, depth)
		}
		if j >= 0 && f != 0 {
			out = blendChild(nodes, n, j, w*f, params, out, depth)
		}
	case model.BlendDirect:
		var sum float32
		for k := 0; k < m; k++ {
			sum += directValue(n, k, params)
		}
		scale := float32(1)
		if n.Normalize && sum > 1 {
			scale = 1 / sum
		}
		for k := 0; k < m; k++ {
			out = blendChild(nodes, n, k, w*float32(directValue(n, k, params)*scale), params, out, depth)
		}
	case model.Blend2DSimpleDirectional, model.Blend2DFreeformDirectional, model.Blend2DFreeformCartesian:
		p := [2]float32{param(params, n.Param), param(params, n.ParamY)}
		polar := n.Type != model.Blend2DFreeformCartesian
		// Small trees keep each band on the stack; larger ones compute the
		// bands twice rather than allocate.
		var hs [16]float32
		var sum float32
		for k := 0; k < m; k++ {
			h := band(n, k, p, polar)
			if k < len(hs) {
				hs[k] = h
			}
			sum += h
		}
		if sum <= 0 || !geom.Finite(sum) {
			// No band covers p (degenerate positions): play the nearest.
			k := nearest(n, p)
			return blendChild(nodes, n, k, w, params, out, depth)
		}
		for k := 0; k < m; k++ {
			var h float32
			if k < len(hs) {
				h = hs[k]
			} else {
				h = band(n, k, p, polar)
			}
			if h > 0 {
				out = blendChild(nodes, n, k, w*(h/sum), params, out, depth)
			}
		}
	default:
		// An unknown kind plays its first child, rather than nothing.
		out = blendChild(nodes, n, 0, w, params, out, depth)
	}
	return out
}

func blendChild(nodes []model.BlendNode, n *model.BlendNode, k int, w float32, params []float64, out []LeafWeight, depth int) []LeafWeight {
	if k < 0 || k >= len(n.Children) || w == 0 {
		return out
	}
	return blendNode(nodes, n.Children[k], w, params, out, depth+1)
}

// blend1D returns the two neighbouring children of v and the weight f of the
// second (-1 for none). Thresholds are expected ascending, as Unity stores
// them.
func blend1D(n *model.BlendNode, v float32) (i, j int, f float32) {
	m := len(n.Children)
	if len(n.Thresholds) < m {
		m = len(n.Thresholds)
	}
	if m == 0 {
		return 0, -1, 0
	}
	th := n.Thresholds[:m]
	if !(v > th[0]) { // also NaN
		return 0, -1, 0
	}
	if v >= th[m-1] {
		return m - 1, -1, 0
	}
	for k := 1; k < m; k++ {
		if v <= th[k] {
			d := th[k] - th[k-1]
			if d <= 0 {
				return k, -1, 0
			}
			f = (v - th[k-1]) / d
			if f >= 1 {
				return k, -1, 0
			}
			return k - 1, k, f
		}
	}
	return m - 1, -1, 0
}

// directValue is child k's direct blend value; negative (and NaN) values
// play nothing.
func directValue(n *model.BlendNode, k int, params []float64) float32 {
	if k >= len(n.ChildParams) {
		return 0
	}
	v := param(params, n.ChildParams[k])
	if !(v > 0) || !geom.Finite(v) { // an infinite weight would poison the pose
		return 0
	}
	return v
}

func position(n *model.BlendNode, k int) [2]float32 {
	if k < len(n.Positions) {
		return n.Positions[k]
	}
	return [2]float32{}
}

// band is child i's gradient-band influence at p before normalisation: the
// minimum over the other children j of 1 − (p−pi)·(pj−pi)/|pj−pi|², in
// cartesian or polar coordinates, clamped at 0.
func band(n *model.BlendNode, i int, p [2]float32, polar bool) float32 {
	pi := position(n, i)
	h := float32(1)
	for j := range n.Children {
		if j == i {
			continue
		}
		pj := position(n, j)
		var v float32
		if polar {
			v = polarBand(pi, pj, p)
		} else {
			dx, dy := pj[0]-pi[0], pj[1]-pi[1]
			d2 := dx*dx + dy*dy
			if d2 == 0 {
				continue // coincident children: no band between them
			}
			v = 1 - ((p[0]-pi[0])*dx+(p[1]-pi[1])*dy)/d2
		}
		if v < h {
			h = v
		}
		if h <= 0 {
			return 0
		}
	}
	return h
}

// polarBand is the gradient band of Johansen's section 6.3.1: the pair
// (pi, pj) and the input p are mapped to (α·angle, radial difference over
// the pair's mean radius), where the angle is measured from pi (towards pj
// positive). When pi or pj is the centre, the angle is the one between the
// input and the other sample.
func polarBand(pi, pj, p [2]float32) float32 {
	ri, rj, rp := hypot(pi), hypot(pj), hypot(p)
	mean := (ri + rj) / 2
	if mean == 0 {
		return 1
	}
	var aij, aip float32
	switch {
	case ri == 0 && rj == 0:
		return 1
	case ri == 0:
		aij = absAngle(p, pj)
		aip = 0
	case rj == 0:
		aij = absAngle(p, pi)
		aip = aij
	default:
		aij = signedAngle(pi, pj)
		aip = 0
		if rp > 0 {
			aip = signedAngle(pi, p)
		}
	}
	vx, vy := PolarAngleScale*aij, (rj-ri)/mean
	ox, oy := PolarAngleScale*aip, (rp-ri)/mean
	d2 := vx*vx + vy*vy
	if d2 == 0 {
		return 1
	}
	return 1 - (ox*vx+oy*vy)/d2
}

func hypot(a [2]float32) float32 {
	return float32(math.Sqrt(float64(a[0])*float64(a[0]) + float64(a[1])*float64(a[1])))
}

// signedAngle is the angle from a to b in (−π, π].
func signedAngle(a, b [2]float32) float32 {
	cross := float64(a[0])*float64(b[1]) - float64(a[1])*float64(b[0])
	dot := float64(a[0])*float64(b[0]) + float64(a[1])*float64(b[1])
	return float32(math.Atan2(cross, dot))
}

func absAngle(a, b [2]float32) float32 {
	if hypot(a) == 0 || hypot(b) == 0 {
		return 0
	}
	s := signedAngle(a, b)
	if s < 0 {
		return -s
	}
	return s
}

func nearest(n *model.BlendNode, p [2]float32) int {
	best, bd := 0, float32(math.MaxFloat32)
	for k := range n.Children {
		q := position(n, k)
		dx, dy := q[0]-p[0], q[1]-p[1]
		if d := dx*dx + dy*dy; d < bd {
			best, bd = k, d
		}
	}
	return best
}

// LeafCount returns how many leaf visits evaluating tree can produce at most
// (a leaf reached by two paths counts twice), or -1 when the tree nests
// deeper than MaxBlendDepth or exceeds limit visits. Compile uses it to size
// per-instance buffers.
func LeafCount(tree *model.BlendTree, limit int) int {
	if tree == nil || len(tree.Nodes) == 0 {
		return 0
	}
	n := 0
	if !countLeaves(tree.Nodes, 0, 0, limit, &n) {
		return -1
	}
	return n
}

func countLeaves(nodes []model.BlendNode, ni, depth, limit int, n *int) bool {
	if ni < 0 || ni >= len(nodes) {
		return true
	}
	if depth > MaxBlendDepth {
		return false
	}
	if len(nodes[ni].Children) == 0 {
		*n++
		return *n <= limit
	}
	for _, c := range nodes[ni].Children {
		if !countLeaves(nodes, c, depth+1, limit, n) {
			return false
		}
	}
	return true
}
