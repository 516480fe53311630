package anim

import (
	"math"
	"testing"

	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
)

// referencePoseRaw poses s at clip time t straight from the decoded curves
// (model.Curve.Eval), by the rules Bake documents: the oracle for Sample.
// With the pose it returns, per joint, the quaternion its rotation channels
// gave before it was normalised (the joint's rotation when no quaternion
// channel drives it).
func referencePoseRaw(c *model.Clip, s *Skeleton, t float32) ([]geom.Transform, []geom.Quat) {
	pose := append([]geom.Transform(nil), s.Rest...)
	length := c.Stop - c.Start
	if !(length > 0) {
		length = 0
	}
	if !(t > 0) {
		t = 0
	} else if t > length {
		t = length
	}
	ct := c.Start + t
	type eul struct {
		v     [3]float32
		order geom.EulerOrder
	}
	euler := map[int]*eul{}
	rot := map[int]bool{}
	for i := range c.Curves {
		cv := &c.Curves[i]
		tg := &cv.Target
		if tg.ClassID != model.ClassTransform || tg.Transform == model.PropNone || !validComponent(tg) {
			continue
		}
		j, ok := s.Resolve(tg)
		if !ok {
			continue
		}
		v := cv.Eval(ct)
		p := &pose[j]
		switch tg.Transform {
		case model.PropPosition:
			*[]*float32{&p.T.X, &p.T.Y, &p.T.Z}[tg.Component] = v
		case model.PropScale:
			*[]*float32{&p.S.X, &p.S.Y, &p.S.Z}[tg.Component] = v
		case model.PropRotation:
			*[]*float32{&p.R.X, &p.R.Y, &p.R.Z, &p.R.W}[tg.Component] = v
			rot[j] = true
		case model.PropEuler:
			e := euler[j]
			if e == nil {
				e = &eul{}
				euler[j] = e
			}
			e.v[tg.Component] = v
			e.order = tg.RotationOrder
		}
	}
	raw := make([]geom.Quat, len(pose))
	for j := range pose {
		raw[j] = pose[j].R
	}
	for j := range rot {
		pose[j].R = pose[j].R.Normalize()
	}
	for j, e := range euler {
		pose[j].R = geom.FromEuler(geom.Vec3{X: e.v[0], Y: e.v[1], Z: e.v[2]}, e.order)
		raw[j] = pose[j].R
	}
	return pose, raw
}

// referenceFloats evaluates the non-Transform channels in order.
func referenceFloats(c *model.Clip, t float32) []float32 {
	length := c.Stop - c.Start
	if !(length > 0) {
		length = 0
	}
	if !(t > 0) {
		t = 0
	} else if t > length {
		t = length
	}
	var out []float32
	for i := range c.Curves {
		tg := &c.Curves[i].Target
		if tg.ClassID == model.ClassTransform && tg.Transform != model.PropNone {
			continue
		}
		out = append(out, c.Curves[i].Eval(c.Start+t))
	}
	return out
}

// poseError is the largest rotation error in degrees and the largest
// relative translation/scale error (relative to max(1, |want|)) between two
// poses.
//
// rotScale (nil for none) multiplies each joint's angle error: see
// rotationScales.
func poseError(got, want []geom.Transform, rotScale []float64) (rotDeg, rel float64, joint int) {
	joint = -1
	for j := range want {
		a := angleDeg(got[j].R, want[j].R)
		if rotScale != nil {
			a *= rotScale[j]
		}
		if a > rotDeg {
			rotDeg, joint = a, j
		}
		g := [6]float32{got[j].T.X, got[j].T.Y, got[j].T.Z, got[j].S.X, got[j].S.Y, got[j].S.Z}
		w := [6]float32{want[j].T.X, want[j].T.Y, want[j].T.Z, want[j].S.X, want[j].S.Y, want[j].S.Z}
		for k := range g {
			e := math.Abs(float64(g[k]-w[k])) / math.Max(1, math.Abs(float64(w[k])))
			if e > rel || e != e {
				rel, joint = e, j
			}
		}
	}
	return rotDeg, rel, joint
}

// rotationScales returns, for each of the oracle's raw rotations at the
// sampled times (raws[i][j]: time i, joint j), the factor that turns an
// angle error into the error of the joint's rotation channels at unit
// scale: min(1, n)/max(1, m), n the raw quaternion's norm at that time and
// m the largest raw component the joint reaches over all the times.
//
// Bake's accuracy is stated on channel values (as exact as float32
// coefficients allow; weighted keys within 1e-6 of a segment's value
// span, or a few float32 steps of its values), and Sample normalises the
// evaluated components as the oracle does. Normalising a raw quaternion of
// norm n divides its channels' errors by n (a channel error e becomes an
// angle of about 2e/n radians), and float32 evaluation and the weighted
// fit err in proportion to the channels' scale (as translations and floats
// are judged relative to their size). Unity's rotation curves hold unit
// quaternions (n ≈ 1, m ≤ 1: the factor is 1), but arbitrary curves can
// pass near the zero quaternion, or hold components of 10 and handles
// reaching 36, where either side's float32 rounding alone is far more
// than 1e-3°; scaled, the error is the one the channels have.
func rotationScales(raws [][]geom.Quat) [][]float64 {
	if len(raws) == 0 {
		return nil
	}
	m := make([]float64, len(raws[0]))
	for _, raw := range raws {
		for j, q := range raw {
			for _, c := range [...]float32{q.X, q.Y, q.Z, q.W} {
				m[j] = math.Max(m[j], math.Abs(float64(c)))
			}
		}
	}
	out := make([][]float64, len(raws))
	for i, raw := range raws {
		out[i] = make([]float64, len(raw))
		for j, q := range raw {
			n := math.Sqrt(float64(q.X)*float64(q.X) + float64(q.Y)*float64(q.Y) + float64(q.Z)*float64(q.Z) + float64(q.W)*float64(q.W))
			out[i][j] = math.Min(1, n) / math.Max(1, m[j])
		}
	}
	return out
}

// compareClip samples the baked clip and the oracle at n times spread over
// [-0.1 Duration, 1.1 Duration] and reports the worst errors (rotations
// at the scale of their channels: see rotationScales).
func compareClip(tb testing.TB, mc *model.Clip, s *Skeleton, n int) (rotDeg, rel, frel float64) {
	tb.Helper()
	c, err := Bake(mc, s)
	if err != nil {
		tb.Fatalf("bake %q: %v", mc.Name, err)
	}
	got := make([]geom.Transform, s.Len())
	fl := make([]float32, len(c.FloatTargets()))
	d := c.Duration()
	times := make([]float32, n)
	wants := make([][]geom.Transform, n)
	raws := make([][]geom.Quat, n)
	for i := range times {
		times[i] = -0.1*d + 1.2*d*float32(i)/float32(n-1)
		wants[i], raws[i] = referencePoseRaw(mc, s, times[i])
	}
	scales := rotationScales(raws)
	for i, t := range times {
		c.Sample(t, got)
		want := wants[i]
		r, e, j := poseError(got, want, scales[i])
		if r > rotDeg {
			rotDeg = r
		}
		if e > rel || e != e {
			rel = e
			if e > 1e-5 {
				tb.Logf("clip %q t=%g joint %d (%s): got %+v want %+v", mc.Name, t, j, s.Paths[j], got[j], want[j])
			}
		}
		c.SampleFloats(t, fl)
		for k, w := range referenceFloats(mc, t) {
			e := math.Abs(float64(fl[k]-w)) / math.Max(1, math.Abs(float64(w)))
			if e > frel || e != e {
				frel = e
			}
		}
	}
	return rotDeg, rel, frel
}

// angleDeg is the angle in degrees of the rotation between unit quaternions
// a and b, computed in float64 as 4·atan2(|a-b|, |a+b|) (b sign-aligned:
// |a-b| and |a+b| are 2 sin and 2 cos of half the angle between a and b on
// the 4D sphere, itself half the rotation's angle), so it resolves angles
// far below float32's acos resolution (~0.04°).
func angleDeg(a, b geom.Quat) float64 {
	q := [4]float64{float64(a.X), float64(a.Y), float64(a.Z), float64(a.W)}
	r := [4]float64{float64(b.X), float64(b.Y), float64(b.Z), float64(b.W)}
	var na, nb, dot float64
	for i := range q {
		na += q[i] * q[i]
		nb += r[i] * r[i]
		dot += q[i] * r[i]
	}
	na, nb = math.Sqrt(na), math.Sqrt(nb)
	if na == 0 || nb == 0 {
		return 180
	}
	s := 1.0
	if dot < 0 {
		s = -1
	}
	var d2, s2 float64
	for i := range q {
		x, y := q[i]/na, s*r[i]/nb
		d2 += (x - y) * (x - y)
		s2 += (x + y) * (x + y)
	}
	return 4 * math.Atan2(math.Sqrt(d2), math.Sqrt(s2)) * 180 / math.Pi
}
