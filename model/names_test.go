package model

import (
	"fmt"
	"testing"
)

// TestControllerKindsNameThemselves: parameter kinds, condition modes and
// blend tree kinds print the names reports use, and a value Unity does not
// define prints its number rather than nothing.
func TestControllerKindsNameThemselves(t *testing.T) {
	for _, tc := range []struct {
		v    fmt.Stringer
		want string
	}{
		{ParamFloat, "float"}, {ParamInt, "int"}, {ParamBool, "bool"}, {ParamTrigger, "trigger"},
		{ParamType(2), "type2"},
		{CondIf, "if"}, {CondIfNot, "if_not"}, {CondGreater, "greater"}, {CondLess, "less"},
		{CondExitTime, "exit_time"}, {CondEquals, "equals"}, {CondNotEqual, "not_equal"},
		{ConditionMode(0), "mode0"},
		{Blend1D, "1d"}, {Blend2DSimpleDirectional, "2d_simple_directional"},
		{Blend2DFreeformDirectional, "2d_freeform_directional"}, {Blend2DFreeformCartesian, "2d_freeform_cartesian"},
		{BlendDirect, "direct"}, {BlendType(-1), "type-1"},
	} {
		if got := tc.v.String(); got != tc.want {
			t.Errorf("%T(%d).String() = %q, want %q", tc.v, tc.v, got, tc.want)
		}
	}
}
