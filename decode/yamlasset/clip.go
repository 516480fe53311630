package yamlasset

import (
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"strings"

	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
)

// ErrNoObject is returned when a file holds no object of the kind asked for.
var ErrNoObject = errors.New("no such object in the file")

// Clip converts the file's first AnimationClip (a .anim asset) to a model
// clip of keyframed curves.
func (f *File) Clip() (*model.Clip, error) {
	for _, d := range f.Docs {
		if d.ClassID == model.ClassAnimationClip || d.Type == "AnimationClip" {
			return f.ClipOf(d)
		}
	}
	return nil, fmt.Errorf("%s: AnimationClip: %w", f.Name, ErrNoObject)
}

// ClipOf converts one AnimationClip document.
//
// Each vector curve (m_RotationCurves, m_EulerCurves, m_PositionCurves,
// m_ScaleCurves) becomes one keyframed curve per component, in the order
// the editor lists them; m_FloatCurves follow, then m_PPtrCurves become
// object curves. m_EditorCurves and m_EulerEditorCurves are left out: they
// repeat the float curves for the editor. Humanoid channels (class 95 with
// a muscle, root or goal name) get their attribute index; blend shapes
// (class 137, "blendShape.<name>") the CRC-32 of the shape name, as the
// compiled bindings have; other properties the CRC-32 of their name.
//
// Start and Stop are m_AnimationClipSettings' m_StartTime and m_StopTime,
// except for legacy clips, whose length is their keys' time range (their
// muscle settings keep the defaults). The loop settings are copied as
// written (the compiled clips of the corpus hold the same values);
// StartAtOrigin, which the editor does not store, is taken as the opposite
// of KeepOriginalPositionXZ (inferred from the corpus, where both agree).
func (f *File) ClipOf(doc *Document) (*model.Clip, error) {
	d := f.dec(doc)
	b := doc.Body
	c := &model.Clip{
		Name:       d.str(b, "m_Name"),
		Legacy:     d.bool(b, "m_Legacy"),
		SampleRate: d.f32(b, "m_SampleRate"),
		WrapMode:   model.WrapMode(d.i32(b, "m_WrapMode")),
	}
	c.UseHighQualityCurve = d.bool(b, "m_UseHighQualityCurve")
	if comp := d.seq(b, "m_CompressedRotationCurves"); len(comp) > 0 {
		return nil, &FieldError{File: f.Name, Line: comp[0].Line, Object: "AnimationClip " + c.Name,
			Field: "m_CompressedRotationCurves", Err: errors.New("compressed rotation curves are not supported")}
	}
	vec := []struct {
		key  string
		prop model.TransformProp
		n    int
	}{
		{"m_RotationCurves", model.PropRotation, 4},
		{"m_EulerCurves", model.PropEuler, 3},
		{"m_PositionCurves", model.PropPosition, 3},
		{"m_ScaleCurves", model.PropScale, 3},
	}
	for _, v := range vec {
		for _, item := range d.seq(b, v.key) {
			path := d.str(item, "path")
			curve := item.Get("curve")
			order := geom.EulerOrder(d.i32(curve, "m_RotationOrder"))
			if curve.Get("m_RotationOrder") == nil {
				order = geom.OrderZXY
			}
			perComp := d.vectorKeys(curve, v.key, v.n)
			for comp := 0; comp < v.n; comp++ {
				cv := model.Curve{
					Target: model.Target{
						Path: path, PathHash: model.PathHash(path), PathKnown: true,
						ClassID: model.ClassTransform, Attribute: uint32(v.prop),
						Transform: v.prop, Component: comp,
						Property: model.TransformPropertyName(v.prop, comp),
					},
					Kind: model.CurveKeyframed,
				}
				if v.prop == model.PropEuler {
					cv.Target.RotationOrder = order
				}
				cv.PreInfinity, cv.PostInfinity = d.infinities(curve)
				cv.Keys = perComp[comp]
				c.Curves = append(c.Curves, cv)
			}
		}
	}
	ints := d.intBindings(b)
	for _, item := range d.seq(b, "m_FloatCurves") {
		path := d.str(item, "path")
		attr := d.str(item, "attribute")
		cv := model.Curve{Target: d.target(item, path, attr), Kind: model.CurveKeyframed}
		if ints[bindingKey{cv.Target.PathHash, cv.Target.Attribute, cv.Target.ClassID}] {
			c.IntCurves = append(c.IntCurves, model.IntCurve{Target: cv.Target, Keys: intKeys(d.scalarKeys(item.Get("curve"), "m_FloatCurves"))})
			continue
		}
		if cv.Target.ClassID == model.ClassAnimator {
			if a, ok := model.HumanAttributeByName(attr); ok && model.IsHumanPoseAttribute(a) {
				c.Humanoid = true
			}
		}
		curve := item.Get("curve")
		cv.PreInfinity, cv.PostInfinity = d.infinities(curve)
		cv.Keys = d.scalarKeys(curve, "m_FloatCurves")
		c.Curves = append(c.Curves, cv)
	}
	for _, item := range d.seq(b, "m_PPtrCurves") {
		path := d.str(item, "path")
		attr := d.str(item, "attribute")
		oc := model.ObjectCurve{Target: d.target(item, path, attr)}
		for _, k := range d.seq(item, "curve") {
			oc.Keys = append(oc.Keys, model.ObjectKey{Time: d.f32(k, "time"), Object: d.ref(d.pptr(k, "value"))})
		}
		c.ObjectCurves = append(c.ObjectCurves, oc)
	}
	st := b.Get("m_AnimationClipSettings")
	c.Start = d.f32(st, "m_StartTime")
	c.Stop = d.f32(st, "m_StopTime")
	c.Settings = model.LoopSettings{
		LoopTime:                d.bool(st, "m_LoopTime"),
		LoopBlend:               d.bool(st, "m_LoopBlend"),
		LoopBlendOrientation:    d.bool(st, "m_LoopBlendOrientation"),
		LoopBlendPositionY:      d.bool(st, "m_LoopBlendPositionY"),
		LoopBlendPositionXZ:     d.bool(st, "m_LoopBlendPositionXZ"),
		KeepOriginalOrientation: d.bool(st, "m_KeepOriginalOrientation"),
		KeepOriginalPositionY:   d.bool(st, "m_KeepOriginalPositionY"),
		KeepOriginalPositionXZ:  d.bool(st, "m_KeepOriginalPositionXZ"),
		HeightFromFeet:          d.bool(st, "m_HeightFromFeet"),
		Mirror:                  d.bool(st, "m_Mirror"),
		CycleOffset:             d.f32(st, "m_CycleOffset"),
		OrientationOffsetY:      d.f32(st, "m_OrientationOffsetY"),
		Level:                   d.f32(st, "m_Level"),
	}
	// The editor has no start-at-origin setting; every compiled clip of the
	// corpus (KeepOriginalPositionXZ all off) has it on (inferred rule).
	c.Settings.StartAtOrigin = !c.Settings.KeepOriginalPositionXZ
	if c.Legacy {
		c.Start, c.Stop = keyRange(c)
	}
	for _, e := range d.seq(b, "m_Events") {
		c.Events = append(c.Events, model.Event{
			Time:           d.f32(e, "time"),
			Function:       d.str(e, "functionName"),
			Data:           d.str(e, "data"),
			Object:         d.ref(d.pptr(e, "objectReferenceParameter")),
			Float:          d.f32(e, "floatParameter"),
			Int:            d.i32(e, "intParameter"),
			MessageOptions: d.i32(e, "messageOptions"),
		})
	}
	c.Stats.Keyframed = len(c.Curves)
	if d.err != nil {
		return nil, d.err
	}
	// Values that are not numbers are data (model.Clip.NotFinite); key
	// times that are not are damage.
	if err := c.CheckTimes(); err != nil {
		return nil, &FieldError{File: f.Name, Line: doc.Line, Object: "AnimationClip " + c.Name, Field: "curves", Err: err}
	}
	return c, nil
}

// bindingKey names a generic binding's target: path hash, attribute and
// class.
type bindingKey struct {
	path, attr uint32
	class      int32
}

// intBindings returns the targets of the clip's integer bindings: the
// editor's own compiled bindings (m_ClipBindingConstant.genericBindings)
// with isIntCurve set, which mark the float curves of discrete (int, enum)
// properties.
func (d *dec) intBindings(clip *Node) map[bindingKey]bool {
	var out map[bindingKey]bool
	for _, b := range d.seq(clip.Get("m_ClipBindingConstant"), "genericBindings") {
		if b.Get("isIntCurve") == nil || !d.bool(b, "isIntCurve") {
			continue
		}
		if out == nil {
			out = map[bindingKey]bool{}
		}
		out[bindingKey{uint32(d.i64(b, "path")), uint32(d.i64(b, "attribute")), d.i32(b, "typeID")}] = true
	}
	return out
}

// intKeys turns the keys of a discrete curve into integer steps. The
// editor writes a discrete key's value as the number (an int 3 is 3); a
// value that is not a whole number in int32's range (NaN, a fraction) is
// read as the integer whose bits it holds, as compiled clips store them.
func intKeys(keys []model.Keyframe) []model.IntKey {
	out := make([]model.IntKey, len(keys))
	for i, k := range keys {
		v := int32(math.Float32bits(k.Value))
		if f := float64(k.Value); f == math.Trunc(f) && f >= math.MinInt32 && f <= math.MaxInt32 {
			v = int32(f)
		}
		out[i] = model.IntKey{Time: k.Time, Value: v}
	}
	return out
}

// target builds the target of a float or object curve.
func (d *dec) target(item *Node, path, attr string) model.Target {
	t := model.Target{
		Path: path, PathHash: model.PathHash(path), PathKnown: true,
		ClassID:  d.i32(item, "classID"),
		Property: attr,
	}
	if s := d.pptr(item, "script"); !s.IsNull() {
		t.Script = d.ref(s)
	}
	switch {
	case t.ClassID == model.ClassAnimator:
		if a, ok := model.HumanAttributeByName(attr); ok {
			t.Attribute = a
		} else {
			t.Attribute = crc32.ChecksumIEEE([]byte(attr))
		}
	case t.ClassID == model.ClassSkinnedMeshRenderer && strings.HasPrefix(attr, "blendShape."):
		t.Attribute = crc32.ChecksumIEEE([]byte(attr[len("blendShape."):]))
	default:
		t.Attribute = crc32.ChecksumIEEE([]byte(attr))
	}
	return t
}

// infinities reads an AnimationCurve's pre- and post-infinity modes
// (clamp when absent).
func (d *dec) infinities(curve *Node) (pre, post model.Infinity) {
	pre, post = model.InfinityClamp, model.InfinityClamp
	if curve.Get("m_PreInfinity") != nil {
		pre = model.Infinity(d.i32(curve, "m_PreInfinity"))
	}
	if curve.Get("m_PostInfinity") != nil {
		post = model.Infinity(d.i32(curve, "m_PostInfinity"))
	}
	return pre, post
}

// scalarKeys reads the keys of a float AnimationCurve.
func (d *dec) scalarKeys(curve *Node, field string) []model.Keyframe {
	if curve == nil {
		d.fail(nil, field, errors.New("curve without an AnimationCurve"))
		return nil
	}
	items := d.seq(curve, "m_Curve")
	keys := make([]model.Keyframe, 0, len(items))
	for _, k := range items {
		kf := model.Keyframe{
			Time: d.f32(k, "time"), Value: d.f32(k, "value"),
			InSlope: d.f32(k, "inSlope"), OutSlope: d.f32(k, "outSlope"),
			WeightedMode: d.i32(k, "weightedMode"), InWeight: 1.0 / 3, OutWeight: 1.0 / 3,
		}
		if k.Get("inWeight") != nil {
			kf.InWeight = d.f32(k, "inWeight")
		}
		if k.Get("outWeight") != nil {
			kf.OutWeight = d.f32(k, "outWeight")
		}
		keys = append(keys, kf)
	}
	return keys
}

// vectorKeys reads the keys of a vector AnimationCurve (values {x, y, z[,
// w]}) as n per-component key lists. Keys without weights (before Unity
// 2018.1) get the unweighted third.
func (d *dec) vectorKeys(curve *Node, field string, n int) [][]model.Keyframe {
	out := make([][]model.Keyframe, n)
	if curve == nil {
		d.fail(nil, field, errors.New("curve without an AnimationCurve"))
		return out
	}
	items := d.seq(curve, "m_Curve")
	for c := range out {
		out[c] = make([]model.Keyframe, 0, len(items))
	}
	third := [4]float32{1.0 / 3, 1.0 / 3, 1.0 / 3, 1.0 / 3}
	for _, k := range items {
		t := d.f32(k, "time")
		wm := d.i32(k, "weightedMode")
		val, in, outS := d.vec4(k, "value"), d.vec4(k, "inSlope"), d.vec4(k, "outSlope")
		inW, outW := third, third
		if k.Get("inWeight") != nil {
			inW = d.vec4(k, "inWeight")
		}
		if k.Get("outWeight") != nil {
			outW = d.vec4(k, "outWeight")
		}
		for c := 0; c < n; c++ {
			out[c] = append(out[c], model.Keyframe{
				Time: t, Value: val[c], InSlope: in[c], OutSlope: outS[c],
				WeightedMode: wm, InWeight: inW[c], OutWeight: outW[c],
			})
		}
	}
	return out
}

// keyRange returns the first and last key times over all curves (0, 0 for
// none).
func keyRange(c *model.Clip) (float32, float32) {
	first := true
	var lo, hi float32
	see := func(t float32) {
		if first {
			lo, hi, first = t, t, false
			return
		}
		lo, hi = min(lo, t), max(hi, t)
	}
	for i := range c.Curves {
		for _, k := range c.Curves[i].Keys {
			see(k.Time)
		}
	}
	for i := range c.IntCurves {
		for _, k := range c.IntCurves[i].Keys {
			see(k.Time)
		}
	}
	for i := range c.ObjectCurves {
		for _, k := range c.ObjectCurves[i].Keys {
			see(k.Time)
		}
	}
	return lo, hi
}
