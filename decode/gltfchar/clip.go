package gltfchar

import (
	"fmt"
	"math"

	"github.com/mecanim/mecanim/model"
	qg "github.com/qmuntal/gltf"
)

// SlerpToleranceRad bounds how far (as a rotation angle, radians) a
// keyframed rotation curve made from a glTF LINEAR rotation channel
// strays from glTF's spherical interpolation between its keys, float32
// rounding aside. glTF slerps; the model's curves are per-component
// cubics normalised after evaluation. Each interval between two keys
// turning by 2Ω becomes n Hermite pieces whose values and derivatives
// are the slerp's at their ends: per piece the four-component error is at
// most (Ω/n)⁴/384 (the Hermite remainder of a sinusoid of frequency Ω/n),
// at most (Ω/n)⁴/192 radians of rotation; n is the least that brings
// that under SlerpToleranceRad (1 for keys less than 2·0.19 rad = 22°
// apart, at most 14 for keys 180° apart). The bound is conservative: one
// piece strays at most 0.0054 rad over turns up to 180° (measured), the
// bound says 0.032.
const SlerpToleranceRad = 1e-6

// maxSlerpPieces is the most pieces an interval of a LINEAR rotation
// needs (keys 180° apart: Ω = π/2).
const maxSlerpPieces = 14

// interp is a sampler's interpolation as the JSON states it.
type interp int

const (
	interpLinear interp = iota
	interpStep
	interpCubic
)

// sampler is a decoded animation sampler.
type sampler struct {
	times  []float32
	values []float32
	interp interp
}

// channelKey identifies what a channel drives.
type channelKey struct {
	node int // rig node
	path string
}

// clips converts the document's animations into generic clips over the
// rig: Transform channels for translation, rotation and scale, and
// SkinnedMeshRenderer blend-shape channels for morph weights, each a
// keyframed curve that evaluates as glTF's interpolation does (exactly for
// STEP, LINEAR translations, scales and weights, and CUBICSPLINE; within
// SlerpToleranceRad for LINEAR rotations).
func (d *decoder) clips(h *hier, f frame, meshes []model.MeshInstance, rig *model.Rig) ([]*model.Clip, error) {
	var out []*model.Clip
	var used model.NameSet
	for ai, a := range d.doc.Animations {
		if a == nil {
			return nil, d.malformed(fmt.Sprintf("animation %d", ai), "null")
		}
		c, err := d.clip(ai, a, h, f, meshes, rig)
		if err != nil {
			return nil, err
		}
		if c.Name == "" {
			c.Name = fmt.Sprintf("animation_%d", ai)
		}
		if b := c.Name; used.Has(b) {
			c.Name = used.Unique(b)
			d.warn("animation %d %q is named %q (clip names are made unique)", ai, b, c.Name)
		} else {
			used.Unique(b)
		}
		out = append(out, c)
	}
	return out, nil
}

func (d *decoder) clip(ai int, a *qg.Animation, h *hier, f frame, meshes []model.MeshInstance, rig *model.Rig) (*model.Clip, error) {
	elem := fmt.Sprintf("animation %d", ai)
	c := &model.Clip{Name: a.Name}
	samplers := make([]*sampler, len(a.Samplers))
	getSampler := func(si int) (*sampler, error) {
		if si < 0 || si >= len(a.Samplers) || a.Samplers[si] == nil {
			return nil, d.malformed(elem, "sampler %d does not exist (%d samplers)", si, len(a.Samplers))
		}
		if samplers[si] != nil {
			return samplers[si], nil
		}
		s, err := d.sampler(fmt.Sprintf("%s sampler %d", elem, si), ai, si, a.Samplers[si])
		samplers[si] = s
		return s, err
	}
	curves := map[channelKey][]model.Curve{}
	var order []channelKey
	var longest []float32
	for ci, ch := range a.Channels {
		celem := fmt.Sprintf("%s channel %d", elem, ci)
		if ch == nil {
			return nil, d.malformed(celem, "null")
		}
		path := d.raw.Animations[ai].Channels[ci].Target.Path
		if ch.Target.Node == nil {
			d.warn("%s: no target node (path %q): left out", celem, path)
			continue
		}
		g := *ch.Target.Node
		if g < 0 || g >= len(h.rigOf) {
			return nil, d.malformed(celem, "target node %d does not exist (%d nodes)", g, len(h.rigOf))
		}
		ri := h.rigOf[g]
		if ri < 0 {
			d.warn("%s: node %d is not in the scene: left out", celem, g)
			continue
		}
		s, err := getSampler(ch.Sampler)
		if err != nil {
			return nil, err
		}
		var cs []model.Curve
		switch path {
		case "translation", "rotation", "scale":
			cs, err = d.transformCurves(celem, s, path, rig.Nodes[ri].Path, f)
		case "weights":
			cs, err = d.weightCurves(celem, s, ri, rig, meshes)
		default:
			d.warn("%s: path %q left out (translation, rotation, scale and weights are read)", celem, path)
			continue
		}
		if err != nil {
			return nil, err
		}
		if cs == nil {
			continue
		}
		key := channelKey{ri, path}
		if _, dup := curves[key]; dup {
			d.warn("%s: node %d %s animated twice; the later channel is kept", celem, g, path)
		} else {
			order = append(order, key)
		}
		curves[key] = cs
		if n := len(s.times); n > 0 {
			c.Stop = max(c.Stop, s.times[n-1])
			if n > len(longest) {
				longest = s.times
			}
		}
	}
	for _, k := range order {
		c.Curves = append(c.Curves, curves[k]...)
	}
	c.Stats.Keyframed = len(c.Curves)
	c.SampleRate = sampleRate(longest)
	return c, nil
}

// sampleRate guesses the rate keys were made at: the whole number of keys
// per second of evenly spaced keys (within 0.1%), else 30.
func sampleRate(times []float32) float32 {
	if len(times) < 3 {
		return 30
	}
	step := float64(times[len(times)-1]-times[0]) / float64(len(times)-1)
	if !(step > 0) {
		return 30
	}
	for i := 1; i < len(times); i++ {
		if math.Abs(float64(times[i]-times[i-1])-step) > 1e-3*step+1e-6 {
			return 30
		}
	}
	r := math.Round(1 / step)
	if r < 1 || r > 1000 || math.Abs(1/step-r) > 1e-3*r {
		return 30
	}
	return float32(r)
}

// sampler decodes one animation sampler: its key times (finite, strictly
// increasing) and its output values.
func (d *decoder) sampler(elem string, ai, si int, s *qg.AnimationSampler) (*sampler, error) {
	out := &sampler{}
	switch ip := d.raw.Animations[ai].Samplers[si].Interpolation; {
	case ip == nil || *ip == "LINEAR":
	case *ip == "STEP":
		out.interp = interpStep
	case *ip == "CUBICSPLINE":
		out.interp = interpCubic
	default:
		return nil, d.malformed(elem, "interpolation %q", *ip)
	}
	var err error
	if out.times, _, err = d.floats(s.Input, qg.AccessorScalar); err != nil {
		return nil, within(elem+": input", err)
	}
	if len(out.times) == 0 {
		return nil, d.malformed(elem, "no keys")
	}
	for k, t := range out.times {
		if math.IsNaN(float64(t)) || math.IsInf(float64(t), 0) || (k > 0 && !(t > out.times[k-1])) {
			return nil, d.malformed(elem, "key %d at time %g is not after the previous key", k, t)
		}
	}
	if out.values, _, err = d.floats(s.Output); err != nil {
		return nil, within(elem+": output", err)
	}
	return out, nil
}

// perKey checks that a sampler has comps values per key (three times that
// for CUBICSPLINE: in-tangent, value, out-tangent).
func (d *decoder) perKey(elem string, s *sampler, comps int) error {
	per := comps
	if s.interp == interpCubic {
		per *= 3
	}
	if len(s.values) != per*len(s.times) {
		return d.malformed(elem, "%d output values for %d keys of %d", len(s.values), len(s.times), per)
	}
	return nil
}

// transformCurves makes the Transform curves of a translation, rotation or
// scale channel of the node at path.
func (d *decoder) transformCurves(elem string, s *sampler, path, nodePath string, f frame) ([]model.Curve, error) {
	comps := 3
	prop := model.PropPosition
	mul := [4]float32{f.d[0], f.d[1], f.d[2], 1}
	switch path {
	case "rotation":
		comps, prop, mul = 4, model.PropRotation, f.q
	case "scale":
		prop, mul = model.PropScale, [4]float32{1, 1, 1, 1}
	}
	if err := d.perKey(elem, s, comps); err != nil {
		return nil, err
	}
	// Keys take 28 bytes a component; a LINEAR rotation's up to
	// maxSlerpPieces per interval.
	keyBytes := 28 * int64(comps) * int64(len(s.times))
	if prop == model.PropRotation && s.interp == interpLinear {
		keyBytes *= maxSlerpPieces
	}
	if err := d.charge(elem, keyBytes+4*int64(len(s.values))); err != nil {
		return nil, err
	}
	conv := make([]float32, len(s.values))
	for i, v := range s.values {
		conv[i] = v * mul[i%comps]
	}
	var keys [][]model.Keyframe
	if prop == model.PropRotation && s.interp == interpLinear {
		keys = slerpKeys(s.times, conv)
	} else {
		keys = componentKeys(s.times, conv, comps, s.interp)
	}
	out := make([]model.Curve, comps)
	for k := range comps {
		out[k] = model.Curve{
			Target: model.Target{
				Path: nodePath, PathHash: model.PathHash(nodePath), PathKnown: true,
				ClassID: model.ClassTransform, Attribute: uint32(prop),
				Transform: prop, Component: k, Property: model.TransformPropertyName(prop, k),
			},
			Kind: model.CurveKeyframed, Keys: keys[k],
			PreInfinity: model.InfinityClamp, PostInfinity: model.InfinityClamp,
		}
	}
	return out, nil
}

// weightCurves makes the blend-shape curves of a morph weights channel of
// rig node ri: one per blend shape of the mesh drawn there, on Unity's
// 0..100 scale.
func (d *decoder) weightCurves(elem string, s *sampler, ri int, rig *model.Rig, meshes []model.MeshInstance) ([]model.Curve, error) {
	var shapes []model.BlendShape
	for _, m := range meshes {
		if m.Node == ri && len(m.Mesh.BlendShapes) > 0 {
			shapes = m.Mesh.BlendShapes
			break
		}
	}
	if shapes == nil {
		d.warn("%s: morph weights of node %q, which draws no mesh with morph targets: left out", elem, rig.Nodes[ri].Name)
		return nil, nil
	}
	n := len(shapes)
	if err := d.perKey(elem, s, n); err != nil {
		return nil, err
	}
	if err := d.charge(elem, 28*int64(n)*int64(len(s.times))+4*int64(len(s.values))); err != nil {
		return nil, err
	}
	conv := make([]float32, len(s.values))
	for i, v := range s.values {
		conv[i] = 100 * v
	}
	keys := componentKeys(s.times, conv, n, s.interp)
	path := rig.Nodes[ri].Path
	out := make([]model.Curve, n)
	for k, bs := range shapes {
		out[k] = model.Curve{
			Target: model.Target{
				Path: path, PathHash: model.PathHash(path), PathKnown: true,
				ClassID: model.ClassSkinnedMeshRenderer, Attribute: model.PathHash(bs.Name),
				Property: "blendShape." + bs.Name,
			},
			Kind: model.CurveKeyframed, Keys: keys[k],
			PreInfinity: model.InfinityClamp, PostInfinity: model.InfinityClamp,
		}
	}
	return out, nil
}

// componentKeys makes one keyframe list per component, evaluating as
// glTF's interpolation of each component does: STEP as keys with infinite
// slopes (a step holds until the next key); LINEAR as keys whose slopes
// are the secant's on both sides (a Hermite cubic with those slopes is
// that line); CUBICSPLINE as keys whose in and out slopes are glTF's in-
// and out-tangents, which are per-second derivatives as Unity's slopes
// are (glTF's formula scales them by the interval's length).
func componentKeys(times, v []float32, comps int, ip interp) [][]model.Keyframe {
	n := len(times)
	out := make([][]model.Keyframe, comps)
	inf := float32(math.Inf(1))
	for c := range comps {
		keys := make([]model.Keyframe, n)
		for k, t := range times {
			key := model.Keyframe{Time: t}
			switch ip {
			case interpCubic:
				key.InSlope = v[(3*k)*comps+c]
				key.Value = v[(3*k+1)*comps+c]
				key.OutSlope = v[(3*k+2)*comps+c]
			case interpStep:
				key.Value = v[k*comps+c]
				if k > 0 {
					key.InSlope = inf
				}
				if k < n-1 {
					key.OutSlope = inf
				}
			default:
				key.Value = v[k*comps+c]
			}
			keys[k] = key
		}
		if ip == interpLinear {
			for k := 0; k+1 < n; k++ {
				s := float32((float64(keys[k+1].Value) - float64(keys[k].Value)) / (float64(times[k+1]) - float64(times[k])))
				keys[k].OutSlope, keys[k+1].InSlope = s, s
			}
		}
		if n > 0 {
			keys[0].InSlope = firstSlope(keys[0].InSlope)
			keys[n-1].OutSlope = firstSlope(keys[n-1].OutSlope)
		}
		out[c] = keys
	}
	return out
}

// firstSlope keeps a slope outside the keys finite (it never counts: the
// curve clamps there) so that no infinite slope is left where Unity's
// editor would show a step.
func firstSlope(s float32) float32 {
	if math.IsInf(float64(s), 0) || math.IsNaN(float64(s)) {
		return 0
	}
	return s
}

// slerpKeys makes the keyframes of the four components of a LINEAR
// rotation channel (values already in Unity's frame): each interval
// becomes Hermite pieces through points of glTF's slerp with its
// derivatives (see SlerpToleranceRad). Keys are normalised and each takes
// the sign nearer the previous one, so the curve follows the shorter arc
// as glTF's slerp does.
func slerpKeys(times, v []float32) [][]model.Keyframe {
	n := len(times)
	q := make([][4]float64, n)
	for k := range n {
		q[k] = unitQuat([4]float64{float64(v[4*k]), float64(v[4*k+1]), float64(v[4*k+2]), float64(v[4*k+3])})
		if k > 0 && dot4(q[k], q[k-1]) < 0 {
			q[k] = [4]float64{-q[k][0], -q[k][1], -q[k][2], -q[k][3]}
		}
	}
	out := make([][]model.Keyframe, 4)
	add := func(t float32, val, in, outS [4]float64) {
		for c := range 4 {
			out[c] = append(out[c], model.Keyframe{Time: t, Value: float32(val[c]), InSlope: float32(in[c]), OutSlope: float32(outS[c])})
		}
	}
	var in [4]float64 // the slope arriving at the current key
	for k := range n {
		if k == n-1 {
			add(times[k], q[k], in, [4]float64{})
			break
		}
		t0, t1 := float64(times[k]), float64(times[k+1])
		td := t1 - t0
		omega := math.Acos(min(1, dot4(q[k], q[k+1])))
		pieces := 1
		if e := math.Pow(omega, 4) / 192; e > SlerpToleranceRad {
			pieces = min(maxSlerpPieces, int(math.Ceil(math.Pow(e/SlerpToleranceRad, 0.25))))
		}
		prevT := float32(t0)
		for j := range pieces {
			tj := float32(t0)
			if j > 0 {
				tj = float32(t0 + td*float64(j)/float64(pieces))
				if !(tj > prevT) || !(tj < times[k+1]) {
					continue
				}
			}
			u := (float64(tj) - t0) / td
			val, der := slerpAt(q[k], q[k+1], omega, u)
			for c := range 4 {
				der[c] /= td
			}
			if j == 0 {
				add(tj, q[k], in, der)
			} else {
				add(tj, val, der, der)
			}
			prevT = tj
		}
		_, der := slerpAt(q[k], q[k+1], omega, 1)
		for c := range 4 {
			der[c] /= td
		}
		in = der
	}
	if n > 0 {
		for c := range 4 {
			out[c][0].InSlope = 0
		}
	}
	return out
}

func dot4(a, b [4]float64) float64 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] + a[3]*b[3] }

// slerpAt returns glTF's slerp from a to b (2·omega apart as rotations,
// omega apart on the unit sphere) at u, and its derivative in u.
func slerpAt(a, b [4]float64, omega, u float64) (val, der [4]float64) {
	s := math.Sin(omega)
	if s < 1e-9 {
		for c := range 4 {
			val[c] = a[c] + (b[c]-a[c])*u
			der[c] = b[c] - a[c]
		}
		return val, der
	}
	wa, wb := math.Sin((1-u)*omega)/s, math.Sin(u*omega)/s
	da, db := -omega*math.Cos((1-u)*omega)/s, omega*math.Cos(u*omega)/s
	for c := range 4 {
		val[c] = wa*a[c] + wb*b[c]
		der[c] = da*a[c] + db*b[c]
	}
	return val, der
}
