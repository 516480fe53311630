package bind

import (
	"errors"
	"fmt"
	"testing"

	"github.com/mecanim/mecanim/model"
)

// Which refused clips play on their own paths: generic clips with float
// or integer curves that no character takes; never a humanoid clip, a
// clip without such curves, or a refusal of another kind.
func TestOnlyGenericClipsWithCurvesPlayOnTheirOwnPaths(t *testing.T) {
	none := fmt.Errorf("%w: no character in the inputs has the paths", ErrNoCharacter)
	curve := []model.Curve{{Kind: model.CurveConstant}}
	for _, tc := range []struct {
		name string
		c    *model.Clip
		err  error
		want bool
	}{
		{"generic clip no character takes", &model.Clip{Curves: curve}, none, true},
		{"integer curves alone", &model.Clip{IntCurves: []model.IntCurve{{}}}, none, true},
		{"humanoid clip", &model.Clip{Humanoid: true, Curves: curve}, none, false},
		{"no curves", &model.Clip{}, none, false},
		{"object curves alone", &model.Clip{ObjectCurves: []model.ObjectCurve{{}}}, none, false},
		{"another refusal", &model.Clip{Curves: curve}, errors.New("damaged"), false},
		{"no refusal", &model.Clip{Curves: curve}, nil, false},
	} {
		if got := onOwnPaths(tc.c, tc.err); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
