package animator

import (
	"math"
	"testing"

	"github.com/mecanim/mecanim/model"
)

// leaf returns a leaf node playing clip c.
func leaf(c int) model.BlendNode { return model.BlendNode{Clip: c, Param: -1, ParamY: -1} }

// tree1D builds a 1D tree over parameter 0 with one leaf per threshold (clip
// i for child i).
func tree1D(th ...float32) *model.BlendTree {
	t := &model.BlendTree{Nodes: []model.BlendNode{{Type: model.Blend1D, Param: 0, ParamY: -1, Thresholds: th}}}
	for i := range th {
		t.Nodes[0].Children = append(t.Nodes[0].Children, len(t.Nodes))
		t.Nodes = append(t.Nodes, leaf(i))
	}
	return t
}

// tree2D builds a 2D tree of kind k over parameters 0 and 1.
func tree2D(k model.BlendType, pos ...[2]float32) *model.BlendTree {
	t := &model.BlendTree{Nodes: []model.BlendNode{{Type: k, Param: 0, ParamY: 1, Positions: pos}}}
	for i := range pos {
		t.Nodes[0].Children = append(t.Nodes[0].Children, len(t.Nodes))
		t.Nodes = append(t.Nodes, leaf(i))
	}
	return t
}

func treeDirect(normalize bool, n int) *model.BlendTree {
	t := &model.BlendTree{Nodes: []model.BlendNode{{Type: model.BlendDirect, Param: -1, ParamY: -1, Normalize: normalize}}}
	for i := 0; i < n; i++ {
		t.Nodes[0].Children = append(t.Nodes[0].Children, len(t.Nodes))
		t.Nodes[0].ChildParams = append(t.Nodes[0].ChildParams, i)
		t.Nodes = append(t.Nodes, leaf(i))
	}
	return t
}

// byClip returns the weights per clip index (n clips).
func byClip(ws []LeafWeight, n int) []float64 {
	out := make([]float64, n)
	for _, w := range ws {
		out[w.Clip] += float64(w.Weight)
	}
	return out
}

func closeAll(got, want []float64, tol float64) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if math.Abs(got[i]-want[i]) > tol {
			return false
		}
	}
	return true
}

// cartesianRef is the spec's formula in float64, for comparison.
func cartesianRef(pos [][2]float32, p [2]float64) []float64 {
	h := make([]float64, len(pos))
	var sum float64
	for i := range pos {
		h[i] = 1
		for j := range pos {
			if j == i {
				continue
			}
			dx, dy := float64(pos[j][0]-pos[i][0]), float64(pos[j][1]-pos[i][1])
			v := 1 - ((p[0]-float64(pos[i][0]))*dx+(p[1]-float64(pos[i][1]))*dy)/(dx*dx+dy*dy)
			h[i] = math.Min(h[i], v)
		}
		h[i] = math.Max(h[i], 0)
		sum += h[i]
	}
	for i := range h {
		h[i] /= sum
	}
	return h
}

var square = [][2]float32{{0, 0}, {1, 0}, {0, 1}, {1, 1}}

func TestBlendWeightsFollowTheSpecFormulas(t *testing.T) {
	star := [][2]float32{{0, 0}, {1, 0}, {0, 1}, {-1, 0}, {0, -1}}
	tests := []struct {
		name   string
		tree   *model.BlendTree
		params []float64
		want   []float64
	}{
		{"1D below the first threshold plays the first child", tree1D(0, 1, 3), []float64{-1}, []float64{1, 0, 0}},
		{"1D at the first threshold plays the first child", tree1D(0, 1, 3), []float64{0}, []float64{1, 0, 0}},
		{"1D between thresholds is linear", tree1D(0, 1, 3), []float64{0.25}, []float64{0.75, 0.25, 0}},
		{"1D between uneven thresholds is linear", tree1D(0, 1, 3), []float64{2.5}, []float64{0, 0.25, 0.75}},
		{"1D at an inner threshold plays that child", tree1D(0, 1, 3), []float64{1}, []float64{0, 1, 0}},
		{"1D above the last threshold plays the last child", tree1D(0, 1, 3), []float64{9}, []float64{0, 0, 1}},
		{"direct normalised keeps a sum below 1", treeDirect(true, 2), []float64{0.2, 0.1}, []float64{0.2, 0.1}},
		{"direct normalised keeps a sum of exactly 1", treeDirect(true, 2), []float64{0.25, 0.75}, []float64{0.25, 0.75}},
		{"direct normalised divides a sum above 1", treeDirect(true, 2), []float64{0.6, 0.9}, []float64{0.4, 0.6}},
		{"direct unnormalised keeps a sum above 1", treeDirect(false, 2), []float64{0.6, 0.9}, []float64{0.6, 0.9}},
		{"direct all zero plays nothing", treeDirect(true, 3), []float64{0, 0, 0}, []float64{0, 0, 0}},
		{"direct infinite weight plays nothing", treeDirect(true, 2), []float64{math.Inf(1), 0.5}, []float64{0, 0.5}},
		{"cartesian at the centre of a square splits evenly", tree2D(model.Blend2DFreeformCartesian, square...), []float64{0.5, 0.5}, []float64{0.25, 0.25, 0.25, 0.25}},
		{"cartesian on an edge blends its two ends", tree2D(model.Blend2DFreeformCartesian, square...), []float64{0.25, 0}, []float64{0.75, 0.25, 0, 0}},
		{"cartesian on a child plays it alone", tree2D(model.Blend2DFreeformCartesian, square...), []float64{1, 1}, []float64{0, 0, 0, 1}},
		{"cartesian outside the hull blends the near edge", tree2D(model.Blend2DFreeformCartesian, square...), []float64{2, 0.5}, []float64{0, 0.5, 0, 0.5}},
		{"directional at the centre plays the centre", tree2D(model.Blend2DFreeformDirectional, star...), []float64{0, 0}, []float64{1, 0, 0, 0, 0}},
		{"directional on a direction plays it alone", tree2D(model.Blend2DFreeformDirectional, star...), []float64{0, 1}, []float64{0, 0, 1, 0, 0}},
		{"directional half way out blends centre and direction", tree2D(model.Blend2DFreeformDirectional, star...), []float64{0.5, 0}, []float64{0.5, 0.5, 0, 0, 0}},
		{"simple directional half way out blends centre and direction", tree2D(model.Blend2DSimpleDirectional, star...), []float64{0, -0.5}, []float64{0.5, 0, 0, 0, 0.5}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := byClip(BlendWeights(tc.tree, tc.params, nil), len(tc.want))
			if !closeAll(got, tc.want, 1e-6) {
				t.Errorf("weights %v, want %v", got, tc.want)
			}
		})
	}
}

func TestCartesianMatchesTheFormulaEverywhereIncludingOutsideTheHull(t *testing.T) {
	sets := [][][2]float32{square, {{0, 0}, {1, 0.2}, {-0.7, 0.9}, {0.3, -1.1}, {2, 2}, {-1.5, -0.4}}}
	for si, pos := range sets {
		tree := tree2D(model.Blend2DFreeformCartesian, pos...)
		for x := -3.0; x <= 3; x += 0.25 {
			for y := -3.0; y <= 3; y += 0.25 {
				got := byClip(BlendWeights(tree, []float64{x, y}, nil), len(pos))
				want := cartesianRef(pos, [2]float64{float64(float32(x)), float64(float32(y))})
				if !closeAll(got, want, 2e-6) {
					t.Fatalf("set %d at (%g,%g): %v, want %v", si, x, y, got, want)
				}
			}
		}
	}
}

func TestDirectionalWeightsAreNormalisedAndSymmetric(t *testing.T) {
	star := [][2]float32{{0, 0}, {1, 0}, {0, 1}, {-1, 0}, {0, -1}}
	for _, k := range []model.BlendType{model.Blend2DSimpleDirectional, model.Blend2DFreeformDirectional} {
		tree := tree2D(k, star...)
		for a := 0.0; a < 2*math.Pi; a += 0.1 {
			for _, r := range []float64{0.3, 1, 1.7} {
				got := byClip(BlendWeights(tree, []float64{r * math.Cos(a), r * math.Sin(a)}, nil), 5)
				var sum float64
				for _, w := range got {
					if w < 0 {
						t.Fatalf("negative weight %v", got)
					}
					sum += w
				}
				if math.Abs(sum-1) > 1e-5 {
					t.Fatalf("kind %d angle %g r %g: sum %g", k, a, r, sum)
				}
			}
		}
		// Mirror symmetry: 45° between right and up weighs them equally.
		got := byClip(BlendWeights(tree, []float64{math.Sqrt2 / 2, math.Sqrt2 / 2}, nil), 5)
		if math.Abs(got[1]-got[2]) > 1e-6 || got[3] != 0 || got[4] != 0 {
			t.Errorf("kind %d at 45°: %v", k, got)
		}
	}
}

func TestNestedTreesMultiplyWeights(t *testing.T) {
	// Root 1D over param 0 between a leaf (clip 0) and a nested 1D over
	// param 1 (clips 1 and 2).
	tree := &model.BlendTree{Nodes: []model.BlendNode{
		{Type: model.Blend1D, Param: 0, ParamY: -1, Children: []int{1, 2}, Thresholds: []float32{0, 1}},
		leaf(0),
		{Type: model.Blend1D, Param: 1, ParamY: -1, Children: []int{3, 4}, Thresholds: []float32{0, 1}},
		leaf(1), leaf(2),
	}}
	got := byClip(BlendWeights(tree, []float64{0.75, 0.2}, nil), 3)
	if want := []float64{0.25, 0.75 * 0.8, 0.75 * 0.2}; !closeAll(got, want, 1e-6) {
		t.Errorf("weights %v, want %v", got, want)
	}
}

func TestBlendWeightsSurviveHostileTrees(t *testing.T) {
	cyclic := &model.BlendTree{Nodes: []model.BlendNode{{Type: model.Blend1D, Children: []int{0, 7, -1}, Thresholds: []float32{0}}}}
	_ = BlendWeights(cyclic, nil, nil)
	if LeafCount(cyclic, 1000) != -1 {
		t.Error("a cyclic tree should be reported as too deep")
	}
	coincident := tree2D(model.Blend2DFreeformCartesian, [2]float32{1, 1}, [2]float32{1, 1})
	if got := BlendWeights(coincident, []float64{0, 0}, nil); len(got) == 0 {
		t.Error("coincident positions should still play something")
	}
	nan := tree1D(0, 1)
	if got := byClip(BlendWeights(nan, []float64{math.NaN()}, nil), 2); got[0] != 1 {
		t.Errorf("NaN parameter: %v", got)
	}
	if got := BlendWeights(&model.BlendTree{}, nil, nil); len(got) != 0 {
		t.Error("an empty tree plays nothing")
	}
}

func TestBlendWeightsDoNotAllocate(t *testing.T) {
	tree := tree2D(model.Blend2DFreeformCartesian, square...)
	buf := make([]LeafWeight, 0, 8)
	params := []float64{0.3, 0.6}
	if n := testing.AllocsPerRun(100, func() { buf = BlendWeights(tree, params, buf) }); n != 0 {
		t.Errorf("%v allocs per call", n)
	}
}

func BenchmarkBlendWeightsCartesian7(b *testing.B) {
	pos := [][2]float32{{0, 0}, {1, 0}, {0, 1}, {-1, 0}, {0, -1}, {2, 0}, {0, 2}}
	tree := tree2D(model.Blend2DFreeformCartesian, pos...)
	buf := make([]LeafWeight, 0, 8)
	params := []float64{0.3, 0.6}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		buf = BlendWeights(tree, params, buf)
	}
}
