package compiled

import (
	"fmt"
	"math"

	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/typetree"
)

// legacyClip reads the keyframed curves of a legacy clip. Each vector
// curve becomes one model curve per component; the keyframe's weightedMode
// (Unity 2018.1+) applies to every component, its weights per component.
// Compressed rotation curves (m_CompressedRotationCurves, keyframe
// compression) are unpacked into rotation curves after the others.
func legacyClip(v *typetree.Value, c *model.Clip) (string, error) {
	kinds := []struct {
		field string
		prop  model.TransformProp
		comps int
	}{
		{"m_RotationCurves", model.PropRotation, 4},
		{"m_EulerCurves", model.PropEuler, 3},
		{"m_PositionCurves", model.PropPosition, 3},
		{"m_ScaleCurves", model.PropScale, 3},
		{"m_FloatCurves", model.PropNone, 1},
	}
	first, last := float32(math.Inf(1)), float32(math.Inf(-1))
	span := func(keys []model.Keyframe) {
		if len(keys) > 0 {
			first = min(first, keys[0].Time)
			last = max(last, keys[len(keys)-1].Time)
		}
	}
	for _, k := range kinds {
		for i, e := range v.Field(k.field).Elems() {
			field := fmt.Sprintf("%s[%d]", k.field, i)
			path := e.Field("path").Str()
			t := model.Target{Path: path, PathHash: model.PathHash(path), PathKnown: true}
			if k.prop != model.PropNone {
				t.ClassID = model.ClassTransform
				t.Attribute = uint32(k.prop)
				t.Transform = k.prop
			} else {
				attr := e.Field("attribute").Str()
				t.ClassID = int32(e.Field("classID").Int())
				t.Attribute = model.PathHash(attr)
				t.Property = attr
				t.Script = ref(e.Field("script"))
			}
			curve := e.Field("curve")
			if k.prop == model.PropEuler {
				t.RotationOrder = geom.EulerOrder(curve.Field("m_RotationOrder").Int())
			}
			for comp := 0; comp < k.comps; comp++ {
				tc := t
				if k.prop != model.PropNone {
					tc.Component = comp
					tc.Property = model.TransformPropertyName(k.prop, comp)
				}
				cv, err := keyframed(curve, k.comps, comp)
				if err != nil {
					return field + ".curve", err
				}
				cv.Target = tc
				span(cv.Keys)
				c.Curves = append(c.Curves, cv)
				c.Stats.Keyframed++
			}
		}
	}
	for i, e := range v.Field("m_PPtrCurves").Elems() {
		path := e.Field("path").Str()
		attr := e.Field("attribute").Str()
		oc := model.ObjectCurve{Target: model.Target{
			Path: path, PathHash: model.PathHash(path), PathKnown: true,
			ClassID: int32(e.Field("classID").Int()), Attribute: model.PathHash(attr), Property: attr,
			Script: ref(e.Field("script")),
		}}
		for _, k := range e.Field("curve").Elems() {
			oc.Keys = append(oc.Keys, model.ObjectKey{Time: k.Field("time").Float32(), Object: ref(k.Field("value"))})
		}
		for j := 1; j < len(oc.Keys); j++ {
			if !(oc.Keys[j].Time >= oc.Keys[j-1].Time) {
				return fmt.Sprintf("m_PPtrCurves[%d].curve[%d]", i, j), errf(ErrMalformed, "key times go backwards")
			}
		}
		if n := len(oc.Keys); n > 0 {
			first = min(first, oc.Keys[0].Time)
			last = max(last, oc.Keys[n-1].Time)
		}
		c.ObjectCurves = append(c.ObjectCurves, oc)
	}
	for i, e := range v.Field("m_CompressedRotationCurves").Elems() {
		path := e.Field("m_Path").Str()
		curves, err := compressedRotationCurve(&e)
		if err != nil {
			return fmt.Sprintf("m_CompressedRotationCurves[%d]", i), err
		}
		for comp := range curves {
			cv := curves[comp]
			cv.Target = model.Target{
				Path: path, PathHash: model.PathHash(path), PathKnown: true,
				ClassID: model.ClassTransform, Attribute: uint32(model.PropRotation), Transform: model.PropRotation,
				Component: comp, Property: model.TransformPropertyName(model.PropRotation, comp),
			}
			span(cv.Keys)
			c.Curves = append(c.Curves, cv)
			c.Stats.Keyframed++
		}
	}
	// A legacy clip's muscle clip is a default (0 to 1 s); its length is
	// the span of its keys.
	if first <= last {
		c.Start, c.Stop = first, last
	}
	return "", nil
}

// keyframed reads component comp of an AnimationCurve whose values have
// comps components (1 for a float, 3 for a Vector3, 4 for a Quaternion).
func keyframed(curve *typetree.Value, comps, comp int) (model.Curve, error) {
	cv := model.Curve{
		Kind:         model.CurveKeyframed,
		PreInfinity:  model.Infinity(curve.Field("m_PreInfinity").Int()),
		PostInfinity: model.Infinity(curve.Field("m_PostInfinity").Int()),
	}
	get := func(v *typetree.Value) float32 {
		if comps == 1 {
			return v.Float32()
		}
		return v.Field([]string{"x", "y", "z", "w"}[comp]).Float32()
	}
	keys := curve.Field("m_Curve").Elems()
	cv.Keys = make([]model.Keyframe, len(keys))
	for i := range keys {
		k := &keys[i]
		kf := model.Keyframe{
			Time:      k.Field("time").Float32(),
			Value:     get(k.Field("value")),
			InSlope:   get(k.Field("inSlope")),
			OutSlope:  get(k.Field("outSlope")),
			InWeight:  1.0 / 3,
			OutWeight: 1.0 / 3,
		}
		if wm := k.Field("weightedMode"); wm != nil {
			kf.WeightedMode = int32(wm.Int())
			kf.InWeight = get(k.Field("inWeight"))
			kf.OutWeight = get(k.Field("outWeight"))
		}
		if kf.Time != kf.Time {
			return cv, errf(ErrMalformed, "key %d has time NaN", i)
		}
		if i > 0 && kf.Time < cv.Keys[i-1].Time {
			return cv, errf(ErrMalformed, "key %d at %g comes before key %d at %g", i, kf.Time, i-1, cv.Keys[i-1].Time)
		}
		cv.Keys[i] = kf
	}
	return cv, nil
}
