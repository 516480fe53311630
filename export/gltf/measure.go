package gltf

import (
	"math"
	"sort"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
)

// betweenKeys measures AnimStats.BetweenKeys: the largest distance between
// a joint's model-space position with the animation's resampled Transform
// tracks interpolated as glTF interpolates them and the clip's own pose,
// halfway between every two keys of those tracks. Tracks name joints of
// sk by their rig node (node i is joint i, as BuildScene writes them);
// tracks marked Exact take the clip's value.
func betweenKeys(a *Animation, c anim.Sampler, sk *anim.Skeleton) float32 {
	var res []*Track
	var times []float32
	seen := map[timesKey]bool{}
	n := sk.Len()
	for i := range a.Tracks {
		t := &a.Tracks[i]
		if t.Exact || t.Path == PathWeights || len(t.Times) < 2 || t.Node < 0 || t.Node >= n {
			continue
		}
		res = append(res, t)
		if k := (timesKey{&t.Times[0], len(t.Times)}); !seen[k] {
			seen[k] = true
			times = append(times, t.Times...)
		}
	}
	if len(res) == 0 {
		return 0
	}
	if len(seen) > 1 {
		sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	}
	local := make([]geom.Transform, n)
	want := make([]geom.Transform, n)
	got := make([]geom.Transform, n)
	var worst float32
	for i := 0; i+1 < len(times); i++ {
		if !(times[i+1] > times[i]) {
			continue
		}
		tm := times[i] + (times[i+1]-times[i])/2
		c.Sample(tm, local)
		anim.LocalToModel(sk, local, want)
		for _, t := range res {
			linearValue(t, tm, &local[t.Node])
		}
		anim.LocalToModel(sk, local, got)
		for j := range n {
			if d := got[j].T.Sub(want[j].T).Len(); d > worst || d != d {
				worst = d
			}
		}
	}
	return worst
}

// linearValue sets the property of x a LINEAR (or STEP) track drives to the
// track's value at time tm, as glTF interpolates it: components linearly,
// rotations by slerp.
func linearValue(t *Track, tm float32, x *geom.Transform) {
	k := sort.Search(len(t.Times), func(i int) bool { return t.Times[i] > tm }) - 1
	k = max(0, min(k, len(t.Times)-2))
	u := float64(0)
	if d := t.Times[k+1] - t.Times[k]; d > 0 && t.Interpolation != Step {
		u = min(max(float64(tm-t.Times[k])/float64(d), 0), 1)
	}
	switch t.Path {
	case PathTranslation, PathScale:
		a, b := t.Values[3*k:3*k+3], t.Values[3*k+3:3*k+6]
		v := geom.Vec3{
			X: float32(float64(a[0]) + u*float64(b[0]-a[0])),
			Y: float32(float64(a[1]) + u*float64(b[1]-a[1])),
			Z: float32(float64(a[2]) + u*float64(b[2]-a[2])),
		}
		if t.Path == PathTranslation {
			x.T = v
		} else {
			x.S = v
		}
	case PathRotation:
		a, b := t.Values[4*k:4*k+4], t.Values[4*k+4:4*k+8]
		x.R = slerpQuat(geom.Quat{X: a[0], Y: a[1], Z: a[2], W: a[3]}, geom.Quat{X: b[0], Y: b[1], Z: b[2], W: b[3]}, u)
	}
}

// slerpQuat interpolates two rotations along the shorter arc.
func slerpQuat(a, b geom.Quat, u float64) geom.Quat {
	a, b = a.Normalize(), b.Normalize()
	d := float64(a.Dot(b))
	if d < 0 {
		b, d = b.Neg(), -d
	}
	wa, wb := 1-u, u
	if d < 1-1e-9 {
		th := math.Acos(min(d, 1))
		s := math.Sin(th)
		wa, wb = math.Sin((1-u)*th)/s, math.Sin(u*th)/s
	}
	return geom.Quat{
		X: float32(wa*float64(a.X) + wb*float64(b.X)),
		Y: float32(wa*float64(a.Y) + wb*float64(b.Y)),
		Z: float32(wa*float64(a.Z) + wb*float64(b.Z)),
		W: float32(wa*float64(a.W) + wb*float64(b.W)),
	}.Normalize()
}

// RigSize returns the size of a rig at rest: the largest side of the box
// holding its nodes' positions in model space (a standing character's
// height), 0 for a rig of one node or of nodes in one place. Reports give
// BetweenKeys relative to it.
func RigSize(r *model.Rig) float32 {
	if r == nil || len(r.Nodes) == 0 {
		return 0
	}
	world := make([]geom.Transform, len(r.Nodes))
	lo := geom.Vec3{X: float32(math.Inf(1)), Y: float32(math.Inf(1)), Z: float32(math.Inf(1))}
	hi := lo.Scale(-1)
	for i, n := range r.Nodes {
		w := n.Local
		if p := n.Parent; i > 0 && p >= 0 && p < i {
			w = world[p].Mul(n.Local)
		}
		world[i] = w
		lo = geom.Vec3{X: min(lo.X, w.T.X), Y: min(lo.Y, w.T.Y), Z: min(lo.Z, w.T.Z)}
		hi = geom.Vec3{X: max(hi.X, w.T.X), Y: max(hi.Y, w.T.Y), Z: max(hi.Z, w.T.Z)}
	}
	size := max(hi.X-lo.X, hi.Y-lo.Y, hi.Z-lo.Z)
	if !geom.Finite(size) {
		return 0
	}
	return size
}
