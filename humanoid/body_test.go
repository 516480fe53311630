package humanoid

import (
	"math"
	"testing"

	"github.com/mecanim/mecanim/geom"
)

// The builder's body frame (restFrame) keeps the up axis exactly, is the
// four-landmark frame where the lateral vector is perpendicular to up, and
// otherwise turns less about up, by 2·atan(cos t·sin θ / (1 + cos t·cos θ))
// for a turn θ and a lateral vector rising t (the rule found from the
// corpus's m_RootX.q, which TestCorpusCentreOfMass holds on the corpus).
func TestFrameFromHumanSpaceTurnsLessWhereTheLateralVectorRises(t *testing.T) {
	tilt := geom.AxisAngle(geom.Vec3{X: 1, Z: 0.3}.Normalize(), 0.4) // the body leans: up is not +y
	for _, tc := range []struct {
		name        string
		theta, rise float64 // radians
	}{
		{"level lateral", 0.3, 0},
		{"level lateral, large turn", 2.5, 0},
		{"rising lateral", 0.3, 0.5},
		{"rising lateral, negative turn", -0.2, 0.45},
		{"rising lateral, no turn", 0, 0.5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			turn := geom.AxisAngle(geom.Vec3{Y: 1}, float32(tc.theta))
			up := tilt.Rotate(geom.Vec3{Y: 1})
			// The lateral vector: +x turned by θ about +y, risen by t
			// towards +y, then leant with the body.
			l := turn.Rotate(geom.Vec3{X: float32(math.Cos(tc.rise)), Y: float32(math.Sin(tc.rise))})
			s := shortestRotation(geom.Vec3{Y: 1}, up)
			lat := s.Rotate(l)
			q, ok := frameFromHumanSpace(vec64(up.Scale(3)), vec64(lat.Scale(0.7)))
			if !ok {
				t.Fatal("undefined")
			}
			if d := angleDeg64(q.Rotate(geom.Vec3{Y: 1}), up); d > 1e-4 {
				t.Errorf("up axis off by %.3g°", d)
			}
			want := 2 * math.Atan(math.Cos(tc.rise)*math.Sin(tc.theta)/(1+math.Cos(tc.rise)*math.Cos(tc.theta)))
			wantQ := s.Mul(geom.AxisAngle(geom.Vec3{Y: 1}, float32(want)))
			if d := angleDeg(q, wantQ); d > 1e-4 {
				t.Errorf("frame %v, want %v (%.3g° apart)", q, wantQ, d)
			}
			// The four-landmark frame: the same where the lateral vector
			// is level, further turned where it rises.
			x := lat.Sub(up.Scale(lat.Dot(up))).Normalize()
			four := geom.QuatFromAxes(x, up, x.Cross(up))
			d := angleDeg(q, four)
			if tc.rise == 0 || tc.theta == 0 {
				if d > 1e-4 {
					t.Errorf("%.3g° from the four-landmark frame", d)
				}
			} else if d < 0.5 {
				t.Errorf("only %.3g° from the four-landmark frame", d)
			}
		})
	}
}

// Where the construction is undefined (up straight down, or no lateral
// vector) frameFromHumanSpace says so.
func TestFrameFromHumanSpaceUndefined(t *testing.T) {
	for _, tc := range []struct {
		name    string
		up, lat [3]float64
	}{
		{"up straight down", [3]float64{0, -2, 0}, [3]float64{1, 0, 0}},
		{"no lateral vector", [3]float64{0, 1, 0}, [3]float64{0, 0, 0}},
		{"lateral vector along -x", [3]float64{0, 1, 0}, [3]float64{-1, 0, 0}},
		{"not finite", [3]float64{0, math.NaN(), 0}, [3]float64{1, 0, 0}},
	} {
		if q, ok := frameFromHumanSpace(tc.up, tc.lat); ok {
			t.Errorf("%s: %v, want undefined", tc.name, q)
		}
	}
}

func vec64(v geom.Vec3) [3]float64 { return [3]float64{float64(v.X), float64(v.Y), float64(v.Z)} }

// shortestRotation is the shortest rotation taking unit a to unit b.
func shortestRotation(a, b geom.Vec3) geom.Quat {
	c := a.Cross(b)
	return geom.Quat{X: c.X, Y: c.Y, Z: c.Z, W: 1 + a.Dot(b)}.Normalize()
}

// angleDeg64 is the angle between two unit vectors in degrees.
func angleDeg64(a, b geom.Vec3) float64 {
	return math.Atan2(float64(a.Cross(b).Len()), float64(a.Dot(b))) / deg
}
