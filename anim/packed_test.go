package anim

import (
	"math/rand"
	"testing"

	"github.com/mecanim/mecanim/geom"
)

func TestPackedQuatErrorBound(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	worst := 0.0
	check := func(q geom.Quat) {
		q = q.Normalize()
		p := PackQuat(q).Unpack()
		if e := angleDeg(p, q); e > worst {
			worst = e
		}
		if l := p.Dot(p); l < 0.99999 || l > 1.00001 {
			t.Fatalf("unpacked %v has squared length %g", p, l)
		}
	}
	for i := 0; i < 1000000; i++ {
		check(geom.Quat{X: float32(rng.NormFloat64()), Y: float32(rng.NormFloat64()), Z: float32(rng.NormFloat64()), W: float32(rng.NormFloat64())})
	}
	// Edges: axes, equal components, near-ties between the largest two.
	edges := [][4]float32{{0, 0, 0, 1}, {1, 0, 0, 0}, {0, -1, 0, 0}, {0, 0, 0, -1}, {0.5, 0.5, 0.5, 0.5},
		{0.7071068, 0.7071067, 0, 0}, {-0.5, 0.5, -0.5, 0.5}, {0, 0, 0, 0}}
	for _, e := range edges {
		check(quat(e))
	}
	t.Logf("worst angular error %.3g° over 1e6 random rotations (bound %.3g°)", worst, PackedQuatMaxErrorDeg)
	if worst > PackedQuatMaxErrorDeg {
		t.Fatalf("worst error %.3g° exceeds the stated bound %.3g°", worst, PackedQuatMaxErrorDeg)
	}
}

func TestPackedQuatKeepsTheSign(t *testing.T) {
	for _, e := range [][4]float32{{0.1, 0.2, 0.3, 0.927}, {-0.1, -0.2, -0.3, -0.927}, {0.9, -0.1, 0.1, -0.4}, {-0.9, 0.1, -0.1, 0.4}} {
		q := quat(e).Normalize()
		p := PackQuat(q).Unpack()
		if p.Dot(q) < 0.999 {
			t.Errorf("%v unpacked as %v: sign lost", q, p)
		}
	}
}

func quat(c [4]float32) geom.Quat { return geom.Quat{X: c[0], Y: c[1], Z: c[2], W: c[3]} }
