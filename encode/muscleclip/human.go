package muscleclip

import (
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/unitywrite"
)

// Counts of Unity's human pose arrays (m_DeltaPose): body muscles, muscles
// of one hand, goals, translation degrees of freedom.
const (
	bodyDoF   = 55
	handDoF   = 20
	goalCount = 4
	tDoFCount = 21
)

// poses holds the humanoid parts of m_MuscleClip.
type poses struct {
	startX, stopX, leftFoot, rightFoot unitywrite.Fields
	delta                              unitywrite.Fields
}

// humanPoses computes m_StartX and m_StopX (the root's RootT and
// normalised RootQ at start and stop), the feet's goals at start, and
// m_DeltaPose (start minus stop of the root, the goals and every muscle).
// Channels the clip lacks are the identity and zero.
func humanPoses(attrCurve map[uint32]int, start, stop []float32) poses {
	val := func(vals []float32, attr uint32, def float32) float32 {
		if i, ok := attrCurve[attr]; ok {
			return vals[i]
		}
		return def
	}
	goal := func(vals []float32, g uint32) geom.Transform {
		a := model.FirstRootAttribute + 7*g
		_, hasT := attrCurve[a]
		_, hasQ := attrCurve[a+3]
		t := geom.Transform{R: geom.Quat{W: 1}, S: geom.Vec3{X: 1, Y: 1, Z: 1}}
		if hasT {
			t.T = geom.Vec3{X: val(vals, a, 0), Y: val(vals, a+1, 0), Z: val(vals, a+2, 0)}
		}
		if hasQ {
			t.R = geom.Quat{X: val(vals, a+3, 0), Y: val(vals, a+4, 0), Z: val(vals, a+5, 0), W: val(vals, a+6, 1)}.Normalize()
		}
		return t
	}
	var p poses
	rs, re := goal(start, 0), goal(stop, 0)
	p.startX, p.stopX = xform(rs), xform(re)
	p.leftFoot, p.rightFoot = xform(goal(start, 1)), xform(goal(start, 2))

	muscle := func(m int) float32 {
		a := uint32(model.FirstMuscleAttribute + m)
		return val(start, a, 0) - val(stop, a, 0)
	}
	dof := make([]float32, bodyDoF)
	for m := range dof {
		dof[m] = muscle(m)
	}
	hand := func(first int) unitywrite.Fields {
		d := make([]float32, handDoF)
		for i := range d {
			d[i] = muscle(first + i)
		}
		return unitywrite.Fields{"m_GrabX": xform(identity()), "m_DoFArray": d}
	}
	goals := make([]unitywrite.Fields, goalCount)
	for g := range goals {
		gs, ge := goal(start, uint32(g+1)), goal(stop, uint32(g+1))
		goals[g] = unitywrite.Fields{"m_X": xform(sub(gs, ge)), "m_HintT": vec3(geom.Vec3{})}
	}
	tdof := make([]unitywrite.Fields, tDoFCount)
	for i := range tdof {
		tdof[i] = vec3(geom.Vec3{})
	}
	p.delta = unitywrite.Fields{
		"m_RootX":          xform(sub(rs, re)),
		"m_LookAtPosition": vec3(geom.Vec3{}),
		"m_LookAtWeight":   unitywrite.Fields{"x": 0, "y": 0, "z": 0, "w": 0},
		"m_GoalArray":      goals,
		"m_LeftHandPose":   hand(bodyDoF),
		"m_RightHandPose":  hand(bodyDoF + handDoF),
		"m_DoFArray":       dof,
		"m_TDoFArray":      tdof,
	}
	return p
}

func identity() geom.Transform {
	return geom.Transform{R: geom.Quat{W: 1}, S: geom.Vec3{X: 1, Y: 1, Z: 1}}
}

// sub is the pose difference a relative to b: b's inverse applied to a.
func sub(a, b geom.Transform) geom.Transform {
	inv := b.R.Conj()
	return geom.Transform{T: inv.Rotate(a.T.Sub(b.T)), R: inv.Mul(a.R), S: geom.Vec3{X: 1, Y: 1, Z: 1}}
}
