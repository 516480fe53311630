package compiled

import (
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/internal/synth"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/unitywrite"
)

// selectors builds selector nodes from edges: edges[i] lists where
// selector i's transitions go (>= 0: selector, -1: state 0).
func selectors(edges [][]int) []model.Selector {
	out := make([]model.Selector, len(edges))
	for i, es := range edges {
		for _, e := range es {
			d := uint32(0)
			if e >= 0 {
				d = model.SelectorBase + uint32(e)
			}
			out[i].Transitions = append(out[i].Transitions, model.SelectorTransition{Destination: d})
		}
	}
	return out
}

func chain(n int) [][]int {
	e := make([][]int, n)
	for i := 0; i < n-1; i++ {
		e[i] = []int{i + 1}
	}
	e[n-1] = []int{-1}
	return e
}

// TestSelectorGraphCyclesAndDepth proves that selector transitions leading
// back to a selector already on the path, or nesting deeper than
// MaxSelectorDepth, are refused, while shared sub-paths (a diamond) and
// chains at the limit are fine.
func TestSelectorGraphCyclesAndDepth(t *testing.T) {
	for _, tc := range []struct {
		name  string
		edges [][]int
		want  string // "" for valid
	}{
		{"none", nil, ""},
		{"entry to states", [][]int{{-1, -1}}, ""},
		{"diamond", [][]int{{1, 2}, {3}, {3}, {-1}}, ""},
		{"chain at the limit", chain(MaxSelectorDepth), ""},
		{"self loop", [][]int{{-1, 0}}, "cycle"},
		{"two-selector cycle", [][]int{{1}, {0}}, "cycle"},
		{"cycle below a valid start", [][]int{{1}, {2}, {3, -1}, {1}}, "cycle"},
		{"chain too deep", chain(MaxSelectorDepth + 2), "deep"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			field, err := checkSelectorGraph(selectors(tc.edges))
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("%s: %v", field, err)
			case tc.want != "" && (!errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), tc.want) || field == ""):
				t.Fatalf("field %q err %v, want ErrMalformed mentioning %q", field, err, tc.want)
			}
		})
	}
}

// TestControllerSelectorCycleIsAnError: the synthetic controller with its
// entry selector pointed at itself is refused with an *Error naming the
// transition.
func TestControllerSelectorCycleIsAnError(t *testing.T) {
	f := synth.ControllerFields()
	sm := f["m_Controller"].(unitywrite.Fields)["m_StateMachineArray"].([]any)[0].(unitywrite.Fields)["data"].(unitywrite.Fields)
	sm["m_SelectorStateConstantArray"] = []any{unitywrite.Fields{"data": unitywrite.Fields{"m_IsEntry": true,
		"m_TransitionConstantArray": []any{unitywrite.Fields{"data": unitywrite.Fields{"m_Destination": model.SelectorBase}}}}}}
	tree, err := synth.Tree(model.ClassAnimatorController)
	if err != nil {
		t.Fatal(err)
	}
	b, err := unitywrite.Encode(tree, f)
	if err != nil {
		t.Fatal(err)
	}
	v, err := builtinLayout(t, model.ClassAnimatorController).Decode(b, binary.LittleEndian)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Controller(v, "")
	var e *Error
	if !errors.As(err, &e) || !strings.Contains(e.Field, "m_SelectorStateConstantArray[0]") || !strings.Contains(err.Error(), "cycle") {
		t.Fatalf("err = %v, want an *Error naming the selector transition and the cycle", err)
	}
}
