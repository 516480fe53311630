package muscleclip

import (
	"math"

	"github.com/mecanim/mecanim/unity/typetree"
	"github.com/mecanim/mecanim/unity/unitywrite"
)

// derivedFields are the fields of m_MuscleClip Unity derives from the
// editor's curves at their start and stop; from the compiled curves they can
// be computed again only to the last bits of a float.
var derivedFields = []string{"m_DeltaPose", "m_StartX", "m_StopX", "m_LeftFootStartX", "m_RightFootStartX",
	"m_MotionStartX", "m_MotionStopX", "m_ValueArrayDelta"}

// KeepDerived makes a clip compiled again from a clip Unity compiled keep
// Unity's own derived values (the start, stop and delta poses, the values at
// start and stop) when its curves and bindings are the original's: then the
// recompiled clip equals the original bit for bit. It reports whether they
// were kept; fields is unchanged when the curves differ.
func KeepDerived(fields unitywrite.Fields, original *typetree.Value) bool {
	mc, _ := fields["m_MuscleClip"].(unitywrite.Fields)
	omc := original.Field("m_MuscleClip")
	if mc == nil || omc == nil {
		return false
	}
	data := mc["m_Clip"].(unitywrite.Fields)["data"].(unitywrite.Fields)
	odata := omc.Path("m_Clip", "data")
	if !sameValue(data["m_StreamedClip"].(unitywrite.Fields)["data"], odata.Path("m_StreamedClip", "data")) ||
		!sameValue(data["m_DenseClip"].(unitywrite.Fields)["m_SampleArray"], odata.Path("m_DenseClip", "m_SampleArray")) ||
		!sameValue(data["m_ConstantClip"].(unitywrite.Fields)["data"], odata.Path("m_ConstantClip", "data")) {
		return false
	}
	ob := original.Path("m_ClipBindingConstant", "genericBindings")
	gb, _ := fields["m_ClipBindingConstant"].(unitywrite.Fields)["genericBindings"].([]unitywrite.Fields)
	if ob.Len() != len(gb) {
		return false
	}
	for i, b := range gb {
		o := ob.Index(i)
		if !sameValue(b["path"], o.Field("path")) || !sameValue(b["attribute"], o.Field("attribute")) {
			return false
		}
	}
	for _, name := range derivedFields {
		if f := omc.Field(name); f != nil {
			mc[name] = FieldsOf(f)
		}
	}
	return true
}

// FieldsOf converts a decoded value back into the form unitywrite encodes:
// structs to Fields, arrays to slices, numbers, booleans and strings as
// they are.
func FieldsOf(v *typetree.Value) any {
	switch v.Kind() {
	case typetree.KindStruct:
		f := unitywrite.Fields{}
		for _, c := range v.Fields() {
			cc := c
			f[c.Name()] = FieldsOf(&cc)
		}
		return f
	case typetree.KindArray:
		out := make([]any, v.Len())
		for i := range out {
			out[i] = FieldsOf(v.Index(i))
		}
		return out
	case typetree.KindBool:
		return v.Bool()
	case typetree.KindInt:
		return v.Int()
	case typetree.KindUint:
		return v.Uint()
	case typetree.KindFloat:
		if v.Node().Type == "double" {
			return v.Float()
		}
		return v.Float32()
	case typetree.KindString:
		return v.Str()
	}
	return nil
}

// sameValue reports whether an encodable value holds the same numbers, bit
// for bit, as a decoded one.
func sameValue(x any, v *typetree.Value) bool {
	if v == nil {
		return false
	}
	switch s := x.(type) {
	case []uint32:
		if v.Len() != len(s) {
			return false
		}
		for i, w := range s {
			if uint32(v.Index(i).Uint()) != w {
				return false
			}
		}
		return true
	case []float32:
		if v.Len() != len(s) {
			return false
		}
		for i, f := range s {
			if math.Float32bits(v.Index(i).Float32()) != math.Float32bits(f) {
				return false
			}
		}
		return true
	case uint32:
		return uint32(v.Uint()) == s
	}
	return false
}
