package gltfchar

import (
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
)

// Mirror is the axis the conversion from glTF's right-handed frame into
// Unity's left-handed one negates. Both conversions are a reflection D
// applied to every node as a change of basis (a local transform L becomes
// D·L·D), so a hierarchy converts node by node and animations convert key
// by key; they differ by a 180° turn about y.
type Mirror int

// The two conversions.
const (
	// MirrorX negates x: export/gltf's conversion run backwards, for
	// characters that face +z in glTF (VRM 1.0, most exporters) and so
	// face +z in Unity.
	MirrorX Mirror = iota
	// MirrorZ negates z, for characters that face -z in glTF (VRM 0.x):
	// MirrorX followed by a 180° turn about y, so that they face +z in
	// Unity. UniVRM imports VRM 0.x the same way.
	MirrorZ
)

// String names the conversion.
func (m Mirror) String() string {
	switch m {
	case MirrorX:
		return "mirror-x"
	case MirrorZ:
		return "mirror-z"
	}
	return "unknown"
}

// frame converts values from glTF's frame into Unity's.
type frame struct {
	d [3]float32 // the reflection's diagonal
	q [4]float32 // multipliers of a quaternion's x, y, z, w
}

func newFrame(m Mirror) frame {
	if m == MirrorZ {
		return frame{d: [3]float32{1, 1, -1}, q: [4]float32{-1, -1, 1, 1}}
	}
	return frame{d: [3]float32{-1, 1, 1}, q: [4]float32{1, -1, -1, 1}}
}

// vec converts a position or direction.
func (f frame) vec(v [3]float32) geom.Vec3 {
	a := f.arr(v)
	return geom.Vec3{X: a[0], Y: a[1], Z: a[2]}
}

// arr converts a position or direction, as an array. (Adding 0 turns the
// -0 a negated 0 gives back into 0, so that values print as written.)
func (f frame) arr(v [3]float32) [3]float32 {
	return [3]float32{f.d[0]*v[0] + 0, f.d[1]*v[1] + 0, f.d[2]*v[2] + 0}
}

// quat converts a rotation (a reflection of a rotation's axis, which is a
// pseudovector: the vector part becomes -D·v).
func (f frame) quat(q [4]float32) geom.Quat {
	return geom.Quat{X: f.q[0]*q[0] + 0, Y: f.q[1]*q[1] + 0, Z: f.q[2]*q[2] + 0, W: q[3]}
}

// mat converts a column-major glTF matrix into a Unity matrix: D·M·D.
func (f frame) mat(cm [16]float32) model.Mat4 {
	dd := [4]float32{f.d[0], f.d[1], f.d[2], 1}
	var m model.Mat4
	for r := range 4 {
		for c := range 4 {
			m[r][c] = cm[c*4+r]*dd[r]*dd[c] + 0
		}
	}
	return m
}
