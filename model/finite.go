package model

import (
	"fmt"
	"math"

	"github.com/mecanim/mecanim/geom"
)

// NotFiniteError is a value that is NaN or infinite where a number is
// needed: a pose would turn NaN, a file would not export. Where names the
// field ("m_DefaultPose[3].t", "curve 12 (Hips m_LocalPosition.y) key 4").
type NotFiniteError struct {
	Where string
	Value float32
	// More counts the further values of the same curve that are not
	// finite (a clip's notes name only the first of each curve).
	More int
}

// Error describes the failure and where it happened.
func (e *NotFiniteError) Error() string {
	if e.More > 0 {
		return fmt.Sprintf("%s is %v (and %d more values of the curve), not a number a pose can use", e.Where, e.Value, e.More)
	}
	return fmt.Sprintf("%s is %v, not a number a pose can use", e.Where, e.Value)
}

// notFinite returns the first component of x that is not finite.
func notFinite(x ...float32) (float32, bool) {
	for _, v := range x {
		if !geom.Finite(v) {
			return v, true
		}
	}
	return 0, false
}

// CheckTransform reports a component of t that is not finite.
func CheckTransform(where string, t geom.Transform) error {
	if v, bad := notFinite(t.T.X, t.T.Y, t.T.Z); bad {
		return &NotFiniteError{Where: where + ".t", Value: v}
	}
	if v, bad := notFinite(t.R.X, t.R.Y, t.R.Z, t.R.W); bad {
		return &NotFiniteError{Where: where + ".q", Value: v}
	}
	if v, bad := notFinite(t.S.X, t.S.Y, t.S.Z); bad {
		return &NotFiniteError{Where: where + ".s", Value: v}
	}
	return nil
}

// stepOrCurve reports whether a streamed segment's coefficients c0, c1,
// c2 are those of a cubic Hermite segment: all finite (a curve), or a step,
// whose infinite slope enters both c0 and c1 (and c2 when it is the
// outgoing one). One of c0 and c1 alone overflows only for slopes near
// float32's limit, which then show in another coefficient. A single
// infinite coefficient among small ones is damage, not a step.
func stepOrCurve(c [4]float32) bool {
	f0, f1, f2 := geom.Finite(c[0]), geom.Finite(c[1]), geom.Finite(c[2])
	switch {
	case f0 && f1 && f2, !f0 && !f1:
		return true
	case !f2:
		return false // an infinite outgoing slope is in c0 and c1 too
	}
	const huge = 1e30 // slopes this steep overflow c0 or c1 alone
	for _, x := range c[:3] {
		if geom.Finite(x) && math.Abs(float64(x)) >= huge {
			return true
		}
	}
	return false
}

// firstNotFinite returns the first value of x that is not finite.
func firstNotFinite(x []float32) float32 {
	v, _ := notFinite(x...)
	return v
}

// CheckFinite reports the first value of the avatar a pose is made from
// that is NaN or infinite: its poses, axes, human pose and scale, and the
// human root's position. The stored body frame (m_RootX.q) may be NaN:
// Unity stores NaN when the left and right sides coincide, and the
// runtime computes one then.
func (a *Avatar) CheckFinite() error {
	for _, p := range []struct {
		field string
		pose  []geom.Transform
	}{{"m_AvatarSkeletonPose", a.SkeletonPose}, {"m_DefaultPose", a.DefaultPose}} {
		for i, t := range p.pose {
			if err := CheckTransform(fmt.Sprintf("%s[%d]", p.field, i), t); err != nil {
				return err
			}
		}
	}
	h := a.Human
	if h == nil {
		return nil
	}
	for i, t := range h.Pose {
		if err := CheckTransform(fmt.Sprintf("m_Human.m_SkeletonPose[%d]", i), t); err != nil {
			return err
		}
	}
	for i, ax := range h.Skeleton.Axes {
		if v, bad := notFinite(ax.Pre.X, ax.Pre.Y, ax.Pre.Z, ax.Pre.W, ax.Post.X, ax.Post.Y, ax.Post.Z, ax.Post.W,
			ax.Sign.X, ax.Sign.Y, ax.Sign.Z, ax.Min.X, ax.Min.Y, ax.Min.Z, ax.Max.X, ax.Max.Y, ax.Max.Z, ax.Length); bad {
			return &NotFiniteError{Where: fmt.Sprintf("m_Human.m_Skeleton axes %d", i), Value: v}
		}
	}
	if v, bad := notFinite(h.RootX.T.X, h.RootX.T.Y, h.RootX.T.Z, h.Scale); bad {
		return &NotFiniteError{Where: "m_Human.m_RootX.t or m_Scale", Value: v}
	}
	for i, m := range h.BoneMass {
		if !geom.Finite(m) {
			return &NotFiniteError{Where: fmt.Sprintf("m_Human.m_HumanBoneMass[%d]", i), Value: m}
		}
	}
	return nil
}

// CheckFinite reports the first node of the rig whose transform is not
// finite.
func (r *Rig) CheckFinite() error {
	for _, n := range r.Nodes {
		l := n.Local
		field := ""
		var v float32
		if x, bad := notFinite(l.T.X, l.T.Y, l.T.Z); bad {
			field, v = "m_LocalPosition", x
		} else if x, bad := notFinite(l.R.X, l.R.Y, l.R.Z, l.R.W); bad {
			field, v = "m_LocalRotation", x
		} else if x, bad := notFinite(l.S.X, l.S.Y, l.S.Z); bad {
			field, v = "m_LocalScale", x
		}
		if field != "" {
			return &NotFiniteError{Where: fmt.Sprintf("Transform %d (%q) %s", n.Transform.PathID, n.Path, field), Value: v}
		}
	}
	return nil
}
