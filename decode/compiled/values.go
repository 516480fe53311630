package compiled

import (
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/typetree"
)

// vec3 reads a float3/float4/Vector3f struct's x, y, z.
func vec3(v *typetree.Value) geom.Vec3 {
	return geom.Vec3{X: v.Field("x").Float32(), Y: v.Field("y").Float32(), Z: v.Field("z").Float32()}
}

// quat reads a float4/Quaternionf struct's x, y, z, w.
func quat(v *typetree.Value) geom.Quat {
	return geom.Quat{X: v.Field("x").Float32(), Y: v.Field("y").Float32(), Z: v.Field("z").Float32(), W: v.Field("w").Float32()}
}

// xform reads a Mecanim xform (t, q, s; t and s are float3 or float4
// depending on the Unity version: only x, y, z are read).
func xform(v *typetree.Value) geom.Transform {
	return geom.Transform{T: vec3(v.Field("t")), R: quat(v.Field("q")), S: vec3(v.Field("s"))}
}

// ref reads a PPtr.
func ref(v *typetree.Value) model.Ref {
	f, p, _ := v.PPtr()
	return model.Ref{FileID: f, PathID: p}
}

// floats reads a float array, packed or not.
func floats(v *typetree.Value) []float32 {
	if v.Packed() {
		return v.Float32s()
	}
	el := v.Elems()
	out := make([]float32, len(el))
	for i := range el {
		out[i] = el[i].Float32()
	}
	return out
}

// uint32s reads a 32-bit integer array (either signedness), packed or not.
func uint32s(v *typetree.Value) []uint32 {
	if v.Packed() {
		if u := v.Uint32s(); u != nil {
			return u
		}
	}
	n := v.Len()
	if v.Kind() != typetree.KindArray {
		return nil
	}
	out := make([]uint32, n)
	for i := 0; i < n; i++ {
		out[i] = uint32(v.Index(i).Uint())
	}
	return out
}

// ints reads an integer array as ints (sign-extended for signed types).
func ints(v *typetree.Value) []int {
	if v.Kind() != typetree.KindArray {
		return nil
	}
	n := v.Len()
	out := make([]int, n)
	if v.Packed() {
		switch v.Prim() {
		case typetree.PrimInt32:
			for i, x := range v.Int32s() {
				out[i] = int(x)
			}
			return out
		case typetree.PrimUint32:
			for i, x := range v.Uint32s() {
				out[i] = int(x)
			}
			return out
		}
	}
	for i := 0; i < n; i++ {
		out[i] = int(v.Index(i).Int())
	}
	return out
}
