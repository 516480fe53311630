package gltf

import (
	"strings"
	"testing"

	"github.com/mecanim/mecanim/model"
)

// A clip that gives a character no track is said to move nothing with
// what it animates instead.
func TestNothingMovesSaysWhatTheClipAnimates(t *testing.T) {
	curve := func(class int32) model.Curve { return model.Curve{Target: model.Target{ClassID: class}} }
	for _, tc := range []struct {
		name       string
		clip       model.Clip
		unresolved int
		want       string
	}{
		{"sprites only", model.Clip{ObjectCurves: make([]model.ObjectCurve, 1)}, 0, "only object references (1 curve"},
		{"no curves", model.Clip{}, 0, "no curves"},
		{"Transforms of other paths", model.Clip{Curves: []model.Curve{curve(model.ClassTransform)}}, 3, "name no GameObject of rig"},
		{"other components", model.Clip{Curves: []model.Curve{curve(114), curve(23)}}, 0, "no Transform and no blend shape (2 curves"},
		{"blend shapes of no mesh", model.Clip{Curves: []model.Curve{curve(model.ClassSkinnedMeshRenderer)}}, 0, "blend-shape curves (1) drive no mesh"},
		{"Transforms that drive nothing", model.Clip{Curves: []model.Curve{curve(model.ClassTransform)}}, 0, "none of its curves drives"},
	} {
		a := Animation{Stats: AnimStats{Unresolved: tc.unresolved}}
		if got := nothingMoves(&tc.clip, &a, `rig "R"`); !strings.Contains(got, tc.want) {
			t.Errorf("%s: %q, want it to say %q", tc.name, got, tc.want)
		}
	}
}
