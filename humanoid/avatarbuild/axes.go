package avatarbuild

import (
	"fmt"
	"math"

	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/humanoid"
	"github.com/mecanim/mecanim/model"
)

// Directions of the human space.
var (
	right   = vec{1, 0, 0}
	left    = vec{-1, 0, 0}
	up      = vec{0, 1, 0}
	down    = vec{0, -1, 0}
	forward = vec{0, 0, 1}
)

// boneTable is what the builder keeps per human bone of the left side and
// the middle (a right bone uses its left twin's, mirrored).
type boneTable struct {
	// zRef is the direction the post frame's z axis is made from.
	zRef vec
	// offset is the turn from the T-pose frame to the muscles' zero, in
	// the human space, as the vector part of normalize(x, y, z, 1).
	offset vec
	// min and max are Unity's default limits in degrees (x twist, y, z).
	min, max vec
	// sign and rightSign are the axes' signs (m_Sgn) on the left (or
	// middle) bone and on its right twin.
	sign, rightSign vec
}

// The tables, found from the corpus avatars (every corpus avatar agrees on
// every entry; the offsets' components are round to 1e-3 exactly, as
// tangents of half angles: 0.268 for about 30°, 0.364 for 40°, 0.839 for
// 80°).
var tables = func() map[int]boneTable {
	t := map[int]boneTable{}
	trunk := func(lim float64) boneTable {
		return boneTable{zRef: left, min: vec{-lim, -lim, -lim}, max: vec{lim, lim, lim}, sign: vec{1, 1, 1}}
	}
	t[humanoid.Hips] = trunk(40)
	t[humanoid.Spine] = trunk(40)
	t[humanoid.Chest] = trunk(40)
	t[humanoid.UpperChest] = trunk(20)
	t[humanoid.Neck] = trunk(40)
	t[humanoid.Head] = trunk(40)
	t[humanoid.LeftShoulder] = boneTable{zRef: forward, min: vec{0, -15, -15}, max: vec{0, 15, 30},
		sign: vec{1, 1, -1}, rightSign: vec{1, 1, 1}}
	t[humanoid.LeftUpperArm] = boneTable{zRef: forward, offset: vec{0, 0.268, 0.364}, min: vec{-90, -100, -60}, max: vec{90, 100, 100},
		sign: vec{1, 1, -1}, rightSign: vec{-1, 1, 1}}
	t[humanoid.LeftLowerArm] = boneTable{zRef: up, offset: vec{0, 0.839, 0}, min: vec{-90, 0, -80}, max: vec{90, 0, 80},
		sign: vec{1, 1, -1}, rightSign: vec{-1, 1, 1}}
	t[humanoid.LeftHand] = boneTable{zRef: forward, min: vec{0, -40, -80}, max: vec{0, 40, 80},
		sign: vec{1, 1, -1}, rightSign: vec{1, 1, 1}}
	t[humanoid.LeftUpperLeg] = boneTable{zRef: right, offset: vec{-0.268, 0, 0}, min: vec{-60, -60, -90}, max: vec{60, 60, 50},
		sign: vec{1, 1, 1}, rightSign: vec{-1, -1, 1}}
	t[humanoid.LeftLowerLeg] = boneTable{zRef: right, offset: vec{0.839, 0, 0}, min: vec{-90, 0, -80}, max: vec{90, 0, 80},
		sign: vec{1, 1, -1}, rightSign: vec{-1, 1, -1}}
	t[humanoid.LeftFoot] = boneTable{zRef: right, min: vec{0, -30, -50}, max: vec{0, 30, 50},
		sign: vec{1, 1, 1}, rightSign: vec{1, -1, 1}}
	t[humanoid.LeftToes] = boneTable{zRef: right, min: vec{0, 0, -50}, max: vec{0, 0, 50},
		sign: vec{1, 1, 1}, rightSign: vec{1, 1, 1}}
	t[humanoid.LeftEye] = boneTable{zRef: right, min: vec{0, -20, -10}, max: vec{0, 20, 15},
		sign: vec{1, 1, -1}, rightSign: vec{1, -1, -1}}
	t[humanoid.Jaw] = boneTable{zRef: right, offset: vec{0.09, 0, 0}, min: vec{0, -10, -10}, max: vec{0, 10, 10},
		sign: vec{1, 1, -1}}
	// Fingers (left hand; thumb, index, middle, ring, little).
	spread := [5]float64{25, 20, 7.5, 7.5, 20}
	yOff := [5]float64{0.125, 0.08, 0.04, -0.04, -0.08}
	sign1 := [5]vec{{-1, -1, 1}, {-1, -1, -1}, {-1, -1, -1}, {-1, 1, -1}, {-1, 1, -1}}
	rsign1 := [5]vec{{1, -1, -1}, {1, -1, 1}, {1, -1, 1}, {1, 1, 1}, {1, 1, 1}}
	for f := 0; f < 5; f++ {
		b := humanoid.LeftHandFirst + 3*f
		if f == 0 {
			t[b] = boneTable{zRef: up, offset: vec{0, yOff[f], 0.125}, min: vec{0, -spread[f], -20}, max: vec{0, spread[f], 20},
				sign: sign1[f], rightSign: rsign1[f]}
			for k := 1; k < 3; k++ {
				t[b+k] = boneTable{zRef: up, offset: vec{0, -0.2, 0}, min: vec{0, 0, -40}, max: vec{0, 0, 35},
					sign: vec{-1, 1, 1}, rightSign: vec{1, 1, -1}}
			}
			continue
		}
		t[b] = boneTable{zRef: forward, offset: vec{0, yOff[f], 0.3}, min: vec{0, -spread[f], -50}, max: vec{0, spread[f], 50},
			sign: sign1[f], rightSign: rsign1[f]}
		for k := 1; k < 3; k++ {
			t[b+k] = boneTable{zRef: forward, offset: vec{0, 0, 0.33}, min: vec{0, 0, -45}, max: vec{0, 0, 45},
				sign: vec{-1, 1, -1}, rightSign: vec{1, 1, 1}}
		}
	}
	return t
}()

// leftTwin returns the left (or middle) bone whose table a bone uses, and
// whether the bone is on the right.
func leftTwin(b int) (int, bool) {
	switch b {
	case humanoid.RightUpperLeg, humanoid.RightLowerLeg, humanoid.RightFoot, humanoid.RightShoulder,
		humanoid.RightUpperArm, humanoid.RightLowerArm, humanoid.RightHand, humanoid.RightToes, humanoid.RightEye:
		return b - 1, true
	}
	if b >= humanoid.RightHandFirst {
		return b - 15, true
	}
	return b, false
}

// humanGlobals returns the human skeleton's global transforms (in the
// human space, from its root), composed in float32 as Unity composes them:
// where a bone's direction is the small difference of two large positions
// (tanker's hips and spine), its rounding decides the frame.
func humanGlobals(h *model.Human) []xform {
	g32 := make([]geom.Transform, len(h.Pose))
	g := make([]xform, len(h.Pose))
	for i, n := range h.Skeleton.Nodes {
		if n.Parent < 0 {
			g32[i] = h.Pose[i]
		} else {
			g32[i] = g32[n.Parent].Mul(h.Pose[i])
		}
		g[i] = xformOf(g32[i])
	}
	return g
}

// axesCtx is what axesOf reads.
type axesCtx struct {
	sk      *skeleton
	h       *model.Human
	g       []xform
	bones   *[humanoid.BoneCount]int
	humanOf []int
	limits  map[int]model.HumanLimit
}

func (c *axesCtx) has(b int) bool { return c.bones[b] >= 0 }

// pos returns human bone b's position in the human space.
func (c *axesCtx) pos(b int) vec { return c.g[c.humanOf[c.bones[b]]].t }

// firstOf returns the first mapped bone of bs (-1 for none).
func (c *axesCtx) firstOf(bs ...int) int {
	for _, b := range bs {
		if c.has(b) {
			return b
		}
	}
	return -1
}

// direction returns the direction of bone b's x axis (not normalised) and
// its length (m_Length).
func (c *axesCtx) direction(b int) (vec, float64) {
	const (
		hips, spine, chest, upperChest, neck, head = humanoid.Hips, humanoid.Spine, humanoid.Chest,
			humanoid.UpperChest, humanoid.Neck, humanoid.Head
	)
	to := func(from, next int) (vec, float64) {
		d := c.pos(next).sub(c.pos(from))
		return d, d.length()
	}
	tb, _ := leftTwin(b)
	switch tb {
	case hips:
		return to(hips, spine)
	case spine:
		return to(spine, c.firstOf(chest, upperChest, neck, head))
	case chest:
		return to(chest, c.firstOf(upperChest, neck, head))
	case upperChest:
		return to(upperChest, c.firstOf(neck, head))
	case neck:
		return to(neck, head)
	case head:
		// Along +y; as long as the neck, else a quarter of the chest's
		// segment to the head, else a sixteenth of the spine's.
		switch {
		case c.has(neck):
			return up, c.pos(head).sub(c.pos(neck)).length()
		case c.has(chest):
			return up, 0.25 * c.pos(head).sub(c.pos(chest)).length()
		}
		return up, 0.0625 * c.pos(head).sub(c.pos(spine)).length()
	case humanoid.LeftShoulder, humanoid.LeftUpperArm, humanoid.LeftLowerArm, humanoid.LeftUpperLeg, humanoid.LeftLowerLeg:
		return to(b, b+2) // the next bone of the same side
	case humanoid.LeftHand:
		// Along the forearm, a quarter of its length.
		d, l := to(b-2, b)
		return d, 0.25 * l
	case humanoid.LeftFoot:
		// Straight down, as long as the foot is high: its height composed
		// from the avatar skeleton's root down in float32, which gives
		// the stored length exactly on 20 of the corpus's 36 feet and to
		// 1.2e-5 on all (from the human pose, 5.2e-5).
		return down, math.Abs(float64(c.sk.globalFromRoot(c.bones[b]).T.Y))
	case humanoid.LeftToes:
		// Forward, a quarter of the foot's segment to the toes.
		_, l := to(b-15, b)
		return forward, 0.25 * l
	case humanoid.LeftEye, humanoid.Jaw:
		return forward, 0.1
	}
	// A finger bone: to the finger's next mapped bone, else along its
	// segment from the bone before it, 9/16 of that segment long.
	k := (b - humanoid.LeftHandFirst) % 3
	for n := b + 1; n <= b+2-k; n++ {
		if c.has(n) {
			return to(b, n)
		}
	}
	p := presentParent(b, c.bones)
	d, l := to(p, b)
	return d, 0.5625 * l
}

// axesOf returns the axes of human bone b, human node hn.
func axesOf(b, hn int, c *axesCtx) (model.Axes, error) {
	tb, mirror := leftTwin(b)
	t := tables[tb]
	dir, length := c.direction(b)
	switch l := dir.length(); {
	case !geom.Finite64(l) || !geom.Finite64(length):
		return model.Axes{}, fmt.Errorf("human bone %s has a non-finite position", humanoid.BoneNames[b])
	case l == 0:
		return model.Axes{}, fmt.Errorf("human bone %s has no direction (it lies on the next bone of its chain)", humanoid.BoneNames[b])
	}
	f := boneFrame(dir.unit(), t.zRef)
	o := t.offset
	if mirror {
		o = vec{o[0], -o[1], -o[2]}
	}
	zero := quat{o[0], o[1], o[2], 1}.norm().mul(f)
	node := c.g[hn]
	parent := c.g[c.h.Skeleton.Nodes[hn].Parent]
	ax := model.Axes{
		Pre:    parent.r.conj().mul(zero).norm().geom(),
		Post:   node.r.conj().mul(f).norm().geom(),
		Length: float32(length),
		Type:   1,
	}
	sign := t.sign
	if mirror {
		sign = t.rightSign
	}
	ax.Sign = geom.Vec3{X: float32(sign[0]), Y: float32(sign[1]), Z: float32(sign[2])}
	min, max := t.min, t.max
	if l, ok := c.limits[b]; ok && !l.UseDefault {
		// Authored limits replace the defaults on the axes the bone
		// moves about.
		for i := 0; i < 3; i++ {
			if min[i] != 0 || max[i] != 0 {
				min[i], max[i] = float64(comp(l.Min, i)), float64(comp(l.Max, i))
			}
		}
	}
	rad := func(v vec) geom.Vec3 {
		const k = math.Pi / 180
		return geom.Vec3{X: float32(v[0] * k), Y: float32(v[1] * k), Z: float32(v[2] * k)}
	}
	ax.Min, ax.Max = rad(min), rad(max)
	if !ax.Min.Finite() || !ax.Max.Finite() {
		return model.Axes{}, fmt.Errorf("human bone %s has non-finite limits", humanoid.BoneNames[b])
	}
	return ax, nil
}

// boneFrame returns the frame whose x axis is x and whose z axis is zRef
// made perpendicular to x. Where x lies along zRef to 1e-6 (vendor's right
// leg, straight out to the side) the y axis is up instead (forward for a
// bone along up), as Unity gives there; less close, the rounding of the
// positions decides, as it does in Unity (tanker's hips, 1.5e-5 off its
// reference).
func boneFrame(x, zRef vec) quat {
	y := zRef.cross(x)
	if y.length() < 1e-6 {
		ref := up
		if math.Abs(x.dot(up)) > 0.9 {
			ref = forward
		}
		y = ref.sub(x.scale(ref.dot(x)))
	}
	y = y.unit()
	return frame(x, y, x.cross(y))
}

func comp(v geom.Vec3, i int) float32 {
	switch i {
	case 0:
		return v.X
	case 1:
		return v.Y
	}
	return v.Z
}
