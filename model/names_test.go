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

func TestTargetsAreNamedOneWay(t *testing.T) {
	tests := []struct {
		name       string
		target     Target
		path, prop string
	}{
		{"a known path and property", Target{Path: "Hips/Spine", PathHash: PathHash("Hips/Spine"), PathKnown: true, Property: "m_LocalRotation.x"}, "Hips/Spine", "m_LocalRotation.x"},
		{"the root", Target{PathKnown: false, PathHash: 0, Property: "m_IsActive"}, "", "m_IsActive"},
		{"a path known by its hash", Target{PathHash: 1234, Attribute: 99}, "#1234", "#99"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.target.PathName(); got != tc.path {
				t.Errorf("PathName = %q, want %q", got, tc.path)
			}
			if got := tc.target.PropertyName(); got != tc.prop {
				t.Errorf("PropertyName = %q, want %q", got, tc.prop)
			}
			if tc.path != "" && tc.path[0] == '#' && HashOfPath(tc.path) != tc.target.PathHash {
				t.Errorf("HashOfPath(%q) = %d, want %d", tc.path, HashOfPath(tc.path), tc.target.PathHash)
			}
		})
	}
}
