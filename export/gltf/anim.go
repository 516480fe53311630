package gltf

import (
	"fmt"
	"math"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
	qg "github.com/qmuntal/gltf"
)

// animation adds one animation: a sampler and a channel per track, times
// shared between tracks that share their Times slice. Its name is made
// unique among the animations written before it (names).
func (b *builder) animation(a *Animation, names *model.NameSet) error {
	ga := &qg.Animation{}
	type target struct {
		node int
		path Path
	}
	used := map[target]bool{}
	for ti := range a.Tracks {
		t := &a.Tracks[ti]
		if len(t.Times) == 0 {
			continue
		}
		node, comps, path, err := b.trackTarget(t)
		if err != nil {
			return fmt.Errorf("track %d: %w", ti, err)
		}
		if used[target{node, t.Path}] {
			return fmt.Errorf("%w: track %d: node %d %s animated twice", ErrInvalid, ti, t.Node, t.Path)
		}
		used[target{node, t.Path}] = true
		interp := t.Interpolation
		if interp == "" {
			interp = Linear
		}
		per := comps
		var gi qg.Interpolation
		switch interp {
		case Linear:
			gi = qg.InterpolationLinear
		case Step:
			gi = qg.InterpolationStep
		case CubicSpline:
			gi = qg.InterpolationCubicSpline
			per = 3 * comps
		default:
			return fmt.Errorf("%w: track %d: interpolation %q", ErrInvalid, ti, interp)
		}
		if len(t.Values) != per*len(t.Times) {
			return fmt.Errorf("%w: track %d (%s of node %d): %d values for %d keys of %d", ErrInvalid, ti, t.Path, t.Node, len(t.Values), len(t.Times), per)
		}
		for i, x := range t.Times {
			if !geom.Finite(x) || x < 0 || (i > 0 && !(x > t.Times[i-1])) {
				return fmt.Errorf("%w: track %d: key %d time %g is not after the previous one (or negative)", ErrInvalid, ti, i, x)
			}
		}
		key := timesKey{&t.Times[0], len(t.Times)}
		in, ok := b.timesCache[key]
		if !ok {
			in = b.floats(t.Times, qg.AccessorScalar, qg.TargetNone, true)
			b.timesCache[key] = in
		}
		out := convertValues(t.Path, t.Values, interp == CubicSpline)
		typ := qg.AccessorScalar
		switch comps {
		case 3:
			typ = qg.AccessorVec3
		case 4:
			typ = qg.AccessorVec4
		}
		if t.Path == PathWeights {
			typ = qg.AccessorScalar
		}
		oi := b.floats(out, typ, qg.TargetNone, false)
		ga.Samplers = append(ga.Samplers, &qg.AnimationSampler{Input: in, Output: oi, Interpolation: gi})
		ga.Channels = append(ga.Channels, &qg.AnimationChannel{
			Sampler: len(ga.Samplers) - 1,
			Target:  qg.AnimationChannelTarget{Node: qg.Index(node), Path: path},
		})
	}
	if len(ga.Channels) == 0 {
		return nil // glTF requires at least one channel
	}
	ga.Name = names.Unique(animationName(a.Name))
	b.doc.Animations = append(b.doc.Animations, ga)
	return nil
}

// animationName is the name an animation is written under before it is
// made unique: its own, or "animation" without one.
func animationName(name string) string {
	if name == "" {
		return "animation"
	}
	return name
}

// trackTarget resolves a track's node and the components per key.
func (b *builder) trackTarget(t *Track) (node, comps int, path qg.TRSProperty, err error) {
	if t.Node < 0 || t.Node >= len(b.s.Rig.Nodes) {
		return 0, 0, 0, fmt.Errorf("%w: node %d not in the rig", ErrInvalid, t.Node)
	}
	switch t.Path {
	case PathTranslation:
		return t.Node, 3, qg.TRSTranslation, nil
	case PathRotation:
		return t.Node, 4, qg.TRSRotation, nil
	case PathScale:
		return t.Node, 3, qg.TRSScale, nil
	case PathWeights:
		n, ok := b.morphNode[t.Node]
		if !ok {
			return 0, 0, 0, fmt.Errorf("%w: weights of node %d, which draws no mesh with blend shapes", ErrInvalid, t.Node)
		}
		return n, b.morphCount[t.Node], qg.TRSWeights, nil
	}
	return 0, 0, 0, fmt.Errorf("%w: path %q", ErrInvalid, t.Path)
}

// convertValues converts key values from Unity's frame to glTF's (see the
// package comment); rotation values (not tangents) are normalised and kept
// in one hemisphere from key to key.
func convertValues(p Path, v []float32, cubic bool) []float32 {
	out := make([]float32, len(v))
	copy(out, v)
	switch p {
	case PathTranslation:
		for i := 0; i < len(out); i += 3 {
			out[i] = -out[i]
		}
	case PathRotation:
		for i := 0; i < len(out); i += 4 {
			out[i+1], out[i+2] = -out[i+1], -out[i+2]
		}
		if !cubic {
			var prev geom.Quat
			for i := 0; i < len(out); i += 4 {
				q := geom.Quat{X: out[i], Y: out[i+1], Z: out[i+2], W: out[i+3]}.Normalize()
				if i > 0 && q.Dot(prev) < 0 {
					q = q.Neg()
				}
				prev = q
				out[i], out[i+1], out[i+2], out[i+3] = q.X, q.Y, q.Z, q.W
			}
		}
	case PathWeights:
		for i := range out {
			out[i] /= 100
		}
	}
	return out
}

// Sample makes an animation from a clip by sampling it at rate frames per
// second from 0 to its duration (the last key exactly at the duration) and
// interpolating linearly between the samples. joints maps each joint of
// the clip's skeleton to a rig node (-1: not exported); rest is the rig's
// rest pose per joint, used to leave out tracks that never move a joint
// away from it (nil: every joint gets all three tracks).
//
// Error bound: each key is the clip's exact value; between keys, a value
// differs from the clip by at most h²/8 · max|f”| (f the curve, h = 1/rate)
// for translations and scales, and for rotations by the same bound on the
// angle plus the difference between glTF's slerp and Unity's per-component
// interpolation (second order in h as well). At 60 frames per second that
// is 3.5e-5 · max|f”|. Pass the clip's own sample rate to key every
// frame the clip stores. Measured from the keys themselves: the error in
// an interval stays within 4 times the largest second difference
// |v[i-1] - 2·v[i] + v[i+1]| of the keys around it (for rotations
// 2·|Δ²q| radians, at most 180°), which also covers a jump of the clip
// between two keys (TestReadBackMatchesRuntime checks this on every
// humanoid clip of the corpus on every humanoid rig).
func Sample(name string, c anim.Sampler, joints []int, rest []geom.Transform, rate float32) Animation {
	if !(rate > 0) {
		rate = 30
	}
	times := sampleTimes(c.Duration(), rate)
	frames := len(times)
	nj := len(joints)
	// One pose at a time, its joints' values appended to their tracks
	// (one block per property holding every joint's keys).
	pose := make([]geom.Transform, nj)
	tvs := make([]float32, 3*frames*nj)
	rvs := make([]float32, 4*frames*nj)
	svs := make([]float32, 3*frames*nj)
	for f := range frames {
		c.Sample(times[f], pose)
		for j, p := range pose {
			q := p.R.Normalize()
			if f > 0 {
				o := rvs[(j*frames+f-1)*4:]
				if q.X*o[0]+q.Y*o[1]+q.Z*o[2]+q.W*o[3] < 0 {
					q = q.Neg()
				}
			}
			t := tvs[(j*frames+f)*3:]
			t[0], t[1], t[2] = p.T.X, p.T.Y, p.T.Z
			r := rvs[(j*frames+f)*4:]
			r[0], r[1], r[2], r[3] = q.X, q.Y, q.Z, q.W
			s := svs[(j*frames+f)*3:]
			s[0], s[1], s[2] = p.S.X, p.S.Y, p.S.Z
		}
	}
	a := Animation{Name: name}
	for j, node := range joints {
		if node < 0 {
			continue
		}
		var r *geom.Transform
		if j < len(rest) {
			r = &rest[j]
		}
		tv := tvs[j*frames*3 : (j+1)*frames*3 : (j+1)*frames*3]
		rv := rvs[j*frames*4 : (j+1)*frames*4 : (j+1)*frames*4]
		sv := svs[j*frames*3 : (j+1)*frames*3 : (j+1)*frames*3]
		if r == nil || moves(tv, []float32{r.T.X, r.T.Y, r.T.Z}) {
			a.Tracks = append(a.Tracks, Track{Node: node, Path: PathTranslation, Times: times, Values: tv})
		}
		if r == nil || movesQuat(rv, r.R) {
			a.Tracks = append(a.Tracks, Track{Node: node, Path: PathRotation, Times: times, Values: rv})
		}
		if r == nil || moves(sv, []float32{r.S.X, r.S.Y, r.S.Z}) {
			a.Tracks = append(a.Tracks, Track{Node: node, Path: PathScale, Times: times, Values: sv})
		}
	}
	return a
}

// moves reports whether any key differs from rest by more than 1e-6
// (relative to the value's size).
func moves(v, rest []float32) bool {
	n := len(rest)
	for i, x := range v {
		r := rest[i%n]
		if math.Abs(float64(x-r)) > 1e-6*max(1, math.Abs(float64(r))) {
			return true
		}
	}
	return false
}

// movesQuat reports whether any key rotation differs from rest (or from
// -rest, the same rotation) by more than 1e-6 in a component.
func movesQuat(v []float32, rest geom.Quat) bool {
	r := rest.Normalize()
	rc := []float32{r.X, r.Y, r.Z, r.W}
	rn := []float32{-r.X, -r.Y, -r.Z, -r.W}
	for i := 0; i < len(v); i += 4 {
		if moves(v[i:i+4], rc) && moves(v[i:i+4], rn) {
			return true
		}
	}
	return false
}

// JointMap maps joints named by path (a skeleton's Paths) to the rig nodes
// of the same path (-1 when the rig has none), for Sample.
func JointMap(paths []string, rig *model.Rig) []int {
	byPath := make(map[string]int, len(rig.Nodes))
	for i, n := range rig.Nodes {
		if _, dup := byPath[n.Path]; !dup {
			byPath[n.Path] = i
		}
	}
	out := make([]int, len(paths))
	for i, p := range paths {
		out[i] = -1
		if n, ok := byPath[p]; ok {
			out[i] = n
		}
	}
	return out
}

// sampleTimes returns key times at rate from 0 to dur, the last exactly at
// dur (one key at 0 for a clip without length).
func sampleTimes(dur, rate float32) []float32 {
	if !(rate > 0) {
		rate = 30
	}
	if !(dur > 0) || math.IsInf(float64(dur), 0) {
		return []float32{0}
	}
	frames := int(math.Ceil(float64(dur)*float64(rate))) + 1
	times := make([]float32, frames)
	for i := range times {
		times[i] = float32(float64(i) / float64(rate))
	}
	times[frames-1] = dur
	if frames > 2 && !(times[frames-1] > times[frames-2]) {
		times = times[:frames-1]
		times[len(times)-1] = dur
	}
	return times
}

// FloatSampler is a clip's float (non-Transform) channels: *anim.Clip has
// them.
type FloatSampler interface {
	Duration() float32
	FloatTargets() []model.Target
	SampleFloats(t float32, dst []float32)
}

// SampleBlendShapes makes a weights track for each mesh whose blend shapes
// the clip drives (SkinnedMeshRenderer channels bound to the mesh's node by
// path and to a blend shape by the CRC-32 of its name), sampled at rate as
// Sample does. Shapes the clip does not drive keep the renderer's weight.
func SampleBlendShapes(c FloatSampler, rig *model.Rig, meshes []model.MeshInstance, rate float32) []Track {
	targets := c.FloatTargets()
	type bind struct{ mesh, shape, ch int }
	var binds []bind
	for mi, m := range meshes {
		if m.Mesh == nil || len(m.Mesh.BlendShapes) == 0 || m.Node < 0 || m.Node >= len(rig.Nodes) {
			continue
		}
		path := rig.Nodes[m.Node].Path
		for ch, t := range targets {
			if t.ClassID != model.ClassSkinnedMeshRenderer || t.PathHash != model.PathHash(path) {
				continue
			}
			for si, bs := range m.Mesh.BlendShapes {
				if t.Attribute == model.PathHash(bs.Name) || (bs.NameHash != 0 && t.Attribute == bs.NameHash) {
					binds = append(binds, bind{mi, si, ch})
				}
			}
		}
	}
	if len(binds) == 0 {
		return nil
	}
	times := sampleTimes(c.Duration(), rate)
	vals := make([]float32, len(targets))
	tracks := map[int]*Track{}
	var order []int
	for f, tm := range times {
		c.SampleFloats(tm, vals)
		for _, b := range binds {
			m := meshes[b.mesh]
			n := len(m.Mesh.BlendShapes)
			tr := tracks[b.mesh]
			if tr == nil {
				tr = &Track{Node: m.Node, Path: PathWeights, Times: times, Values: make([]float32, n*len(times))}
				for k := range len(times) {
					for s := 0; s < n && s < len(m.BlendShapeWeights); s++ {
						tr.Values[k*n+s] = m.BlendShapeWeights[s]
					}
				}
				tracks[b.mesh] = tr
				order = append(order, b.mesh)
			}
			tr.Values[f*n+b.shape] = vals[b.ch]
		}
	}
	out := make([]Track, 0, len(order))
	for _, mi := range order {
		out = append(out, *tracks[mi])
	}
	return out
}
