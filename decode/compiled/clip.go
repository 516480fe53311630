package compiled

import (
	"fmt"
	"math"

	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/typetree"
)

// customTypeMuscle is a generic binding's customType for the humanoid
// root, IK goals and muscles of an Animator (typeID 95): observed on every
// such binding of the lethal-emotes clips (2019.4 and 2022.3).
const customTypeMuscle = 8

// Clip converts a decoded AnimationClip (class 74) into a model.Clip. A
// Mecanim clip (m_Legacy false) is read from m_MuscleClip and its generic
// bindings; a legacy clip from its keyframed curves. unityVersion is the
// version of the file the clip came from (used only in messages today: the
// layouts are told apart by their fields).
func Clip(v *typetree.Value, unityVersion string) (*model.Clip, error) {
	if v.Kind() != typetree.KindStruct {
		return nil, &Error{Class: "AnimationClip", Err: errf(ErrMalformed, "not a struct")}
	}
	c := &model.Clip{
		Name:       v.Field("m_Name").Str(),
		Legacy:     v.Field("m_Legacy").Bool(),
		SampleRate: v.Field("m_SampleRate").Float32(),
		WrapMode:   model.WrapMode(v.Field("m_WrapMode").Int()),
	}
	c.UseHighQualityCurve = v.Field("m_UseHighQualityCurve").Bool()
	fail := func(field string, err error) (*model.Clip, error) {
		if unityVersion != "" {
			err = fmt.Errorf("%w (Unity %s)", err, unityVersion)
		}
		return nil, &Error{Class: "AnimationClip", Object: c.Name, Field: field, Err: err}
	}
	if c.Legacy {
		if field, err := legacyClip(v, c); err != nil {
			return fail(field, err)
		}
	} else {
		if field, err := mecanimClip(v, c); err != nil {
			return fail(field, err)
		}
	}
	if field, err := clipEvents(v, c); err != nil {
		return fail(field, err)
	}
	// Values that are not numbers are data (see model.Clip.NotFinite);
	// key times that are not are damage.
	if err := c.CheckTimes(); err != nil {
		return fail("m_MuscleClip", err)
	}
	if field, err := checkClipMeaning(c, unityVersion); err != nil {
		return fail(field, err)
	}
	countUnresolved(c)
	return c, nil
}

// clipEvents reads m_Events.
func clipEvents(v *typetree.Value, c *model.Clip) (string, error) {
	ev := v.Field("m_Events")
	for i, e := range ev.Elems() {
		c.Events = append(c.Events, model.Event{
			Time:           e.Field("time").Float32(),
			Function:       e.Field("functionName").Str(),
			Data:           e.Field("data").Str(),
			Object:         ref(e.Field("objectReferenceParameter")),
			Float:          e.Field("floatParameter").Float32(),
			Int:            int32(e.Field("intParameter").Int()),
			MessageOptions: int32(e.Field("messageOptions").Int()),
		})
		if t := c.Events[i].Time; t != t {
			return fmt.Sprintf("m_Events[%d].time", i), errf(ErrMalformed, "NaN")
		}
	}
	return "", nil
}

// mecanimBlocks holds the three curve blocks of a Mecanim clip.
type mecanimBlocks struct {
	streamed      *StreamedBlock
	nStreamed     int
	denseSamples  []float32
	nDense        int
	denseFrames   int
	denseBegin    float32
	denseRate     float32
	constants     []float32
	denseBacking  []float32
	denseUnpacked bool
}

func (b *mecanimBlocks) total() int { return b.nStreamed + b.nDense + len(b.constants) }

// curve fills the data part of curve ci.
func (b *mecanimBlocks) curve(ci int, out *model.Curve) {
	switch {
	case ci < b.nStreamed:
		out.Kind = model.CurveStreamed
		out.Segments = b.streamed.Curves[ci]
	case ci < b.nStreamed+b.nDense:
		d := ci - b.nStreamed
		if !b.denseUnpacked {
			// Transpose the frame-major samples once into per-curve runs.
			b.denseBacking = make([]float32, len(b.denseSamples))
			for f := 0; f < b.denseFrames; f++ {
				row := b.denseSamples[f*b.nDense : (f+1)*b.nDense]
				for k, x := range row {
					b.denseBacking[k*b.denseFrames+f] = x
				}
			}
			b.denseUnpacked = true
		}
		out.Kind = model.CurveDense
		out.Samples = b.denseBacking[d*b.denseFrames : (d+1)*b.denseFrames : (d+1)*b.denseFrames]
		out.DenseBegin = b.denseBegin
		out.DenseRate = b.denseRate
	default:
		out.Kind = model.CurveConstant
		out.Value = b.constants[ci-b.nStreamed-b.nDense]
	}
}

// readBlocks reads the three curve blocks of m_MuscleClip.m_Clip.data.
func readBlocks(data *typetree.Value) (*mecanimBlocks, string, error) {
	const base = "m_MuscleClip.m_Clip.data"
	if data == nil {
		return nil, base, ErrMissingField
	}
	b := &mecanimBlocks{}
	sc := data.Field("m_StreamedClip")
	if sc == nil {
		return nil, base + ".m_StreamedClip", ErrMissingField
	}
	// curveCount is a UInt32 up to 2022.3.18 and 2023.2.7; later it is a
	// UInt16 followed by discreteCurveCount (UInt16), the discrete curves
	// numbered after the float ones inside the streamed block.
	n := int(sc.Field("curveCount").Uint())
	discrete := 0
	if d := sc.Field("discreteCurveCount"); d != nil {
		discrete = int(d.Uint())
	}
	words := uint32s(sc.Field("data"))
	st, err := DecodeStreamed(words, n+discrete)
	if err != nil {
		return nil, base + ".m_StreamedClip", err
	}
	b.streamed, b.nStreamed = st, n+discrete

	dc := data.Field("m_DenseClip")
	if dc == nil {
		return nil, base + ".m_DenseClip", ErrMissingField
	}
	frames := dc.Field("m_FrameCount").Int()
	curves := dc.Field("m_CurveCount").Int()
	samples := floats(dc.Field("m_SampleArray"))
	if curves < 0 || frames < 0 {
		return nil, base + ".m_DenseClip", errf(ErrMalformed, "%d frames of %d curves", frames, curves)
	}
	if len(samples) == 0 {
		// An empty dense block keeps its frame count (Unity fills it in)
		// but has no curves.
		if curves != 0 {
			return nil, base + ".m_DenseClip", errf(ErrMalformed, "%d curves but no samples", curves)
		}
		frames = 0
	} else if frames*curves != int64(len(samples)) {
		return nil, base + ".m_DenseClip", errf(ErrMalformed, "%d frames of %d curves for %d samples", frames, curves, len(samples))
	}
	b.denseSamples, b.nDense, b.denseFrames = samples, int(curves), int(frames)
	b.denseBegin = dc.Field("m_BeginTime").Float32()
	b.denseRate = dc.Field("m_SampleRate").Float32()

	cc := data.Field("m_ConstantClip")
	if cc == nil {
		return nil, base + ".m_ConstantClip", ErrMissingField
	}
	b.constants = floats(cc.Field("data"))
	return b, "", nil
}

// bindingCurves is how many curves a generic binding takes: one for an
// object or integer binding, three or four for a Transform's vector
// attributes, one for any other property.
func bindingCurves(bd *typetree.Value) int {
	if bd.Field("isPPtrCurve").Bool() || bd.Field("isIntCurve").Bool() {
		return 1
	}
	typeID, attr := bindingClass(bd), uint32(bd.Field("attribute").Uint())
	if typeID == model.ClassTransform {
		switch model.TransformProp(attr) {
		case model.PropRotation:
			return 4
		case model.PropPosition, model.PropScale, model.PropEuler:
			return 3
		}
	}
	return 1
}

// mecanimClip reads m_MuscleClip and m_ClipBindingConstant.
func mecanimClip(v *typetree.Value, c *model.Clip) (string, error) {
	mc := v.Field("m_MuscleClip")
	if mc == nil {
		return "m_MuscleClip", ErrMissingField
	}
	c.Start = mc.Field("m_StartTime").Float32()
	c.Stop = mc.Field("m_StopTime").Float32()
	c.AverageSpeed = vec3(mc.Field("m_AverageSpeed"))
	c.AverageAngularSpeed = mc.Field("m_AverageAngularSpeed").Float32()
	c.Settings = model.LoopSettings{
		LoopTime:                mc.Field("m_LoopTime").Bool(),
		LoopBlend:               mc.Field("m_LoopBlend").Bool(),
		LoopBlendOrientation:    mc.Field("m_LoopBlendOrientation").Bool(),
		LoopBlendPositionY:      mc.Field("m_LoopBlendPositionY").Bool(),
		LoopBlendPositionXZ:     mc.Field("m_LoopBlendPositionXZ").Bool(),
		KeepOriginalOrientation: mc.Field("m_KeepOriginalOrientation").Bool(),
		KeepOriginalPositionY:   mc.Field("m_KeepOriginalPositionY").Bool(),
		KeepOriginalPositionXZ:  mc.Field("m_KeepOriginalPositionXZ").Bool(),
		HeightFromFeet:          mc.Field("m_HeightFromFeet").Bool(),
		StartAtOrigin:           mc.Field("m_StartAtOrigin").Bool(),
		Mirror:                  mc.Field("m_Mirror").Bool(),
		CycleOffset:             mc.Field("m_CycleOffset").Float32(),
		OrientationOffsetY:      mc.Field("m_OrientationOffsetY").Float32(),
		Level:                   mc.Field("m_Level").Float32(),
	}
	blocks, field, err := readBlocks(mc.Path("m_Clip", "data"))
	if err != nil {
		return field, err
	}
	c.Stats.KeysPastCurveCount = blocks.streamed.KeysPast

	cb := v.Field("m_ClipBindingConstant")
	if cb == nil {
		return "m_ClipBindingConstant", ErrMissingField
	}
	bindings := cb.Field("genericBindings").Elems()
	mapping := cb.Field("pptrCurveMapping").Elems()
	c.Stats.Bindings = len(bindings)
	need := 0
	for i := range bindings {
		need += bindingCurves(&bindings[i])
	}
	if need != blocks.total() {
		return "m_ClipBindingConstant.genericBindings", errf(ErrMalformed,
			"%d bindings take %d curves but the clip has %d (%d streamed, %d dense, %d constant)",
			len(bindings), need, blocks.total(), blocks.nStreamed, blocks.nDense, len(blocks.constants))
	}
	c.Curves = make([]model.Curve, 0, need)
	ci := 0
	for i := range bindings {
		bd := &bindings[i]
		typeID := bindingClass(bd)
		attr := uint32(bd.Field("attribute").Uint())
		path := uint32(bd.Field("path").Uint())
		n := bindingCurves(bd)
		t := model.Target{
			PathHash:  path,
			PathKnown: path == 0,
			ClassID:   int32(typeID),
			Attribute: attr,
			Script:    ref(bd.Field("script")),
		}
		custom := bd.Field("customType")
		if typeID == model.ClassAnimator && (custom == nil || custom.Int() == customTypeMuscle) {
			if name, ok := model.HumanAttributeName(attr); ok {
				t.Property = name
				c.Humanoid = c.Humanoid || model.IsHumanPoseAttribute(attr)
			}
		}
		if bd.Field("isPPtrCurve").Bool() {
			oc, err := objectCurve(blocks, ci, t, mapping)
			if err != nil {
				return fmt.Sprintf("m_ClipBindingConstant.genericBindings[%d]", i), err
			}
			c.ObjectCurves = append(c.ObjectCurves, oc)
			ci++
			continue
		}
		if bd.Field("isIntCurve").Bool() {
			c.IntCurves = append(c.IntCurves, intCurve(blocks, ci, t))
			ci++
			continue
		}
		for k := 0; k < n; k++ {
			tk := t
			if n > 1 {
				tk.Transform = model.TransformProp(attr)
				tk.Component = k
				tk.Property = model.TransformPropertyName(tk.Transform, k)
				if tk.Transform == model.PropEuler {
					// Compiled Euler bindings are localEulerAnglesRaw in
					// Unity's default order.
					tk.RotationOrder = geom.OrderZXY
				}
			}
			cv := model.Curve{Target: tk}
			blocks.curve(ci, &cv)
			switch cv.Kind {
			case model.CurveStreamed:
				c.Stats.Streamed++
			case model.CurveDense:
				c.Stats.Dense++
			case model.CurveConstant:
				c.Stats.Constant++
			}
			c.Curves = append(c.Curves, cv)
			ci++
		}
	}
	return "", nil
}

// objectCurve turns curve ci, whose values index the clip's
// pptrCurveMapping, into steps of object references.
func objectCurve(b *mecanimBlocks, ci int, t model.Target, mapping []typetree.Value) (model.ObjectCurve, error) {
	oc := model.ObjectCurve{Target: t}
	var cv model.Curve
	b.curve(ci, &cv)
	add := func(time, x float32) error {
		r := math.Round(float64(x))
		if !(r >= 0 && r < float64(len(mapping))) {
			return errf(ErrMalformed, "object curve value %g does not index the %d-entry pptrCurveMapping", x, len(mapping))
		}
		obj := ref(&mapping[int(r)])
		if n := len(oc.Keys); n > 0 && oc.Keys[n-1].Object == obj {
			return nil
		}
		oc.Keys = append(oc.Keys, model.ObjectKey{Time: time, Object: obj})
		return nil
	}
	switch cv.Kind {
	case model.CurveStreamed:
		for _, s := range cv.Segments {
			if err := add(s.Time, s.C[3]); err != nil {
				return oc, err
			}
		}
	case model.CurveDense:
		for i, x := range cv.Samples {
			if err := add(cv.DenseBegin+float32(i)/cv.DenseRate, x); err != nil {
				return oc, err
			}
		}
	case model.CurveConstant:
		if err := add(-math.MaxFloat32, cv.Value); err != nil {
			return oc, err
		}
	}
	return oc, nil
}

// intCurve turns curve ci of an integer binding into steps. Unity stores
// the integer's bits in the float slot (an int whose bits read as a NaN is
// a value like any other); a dense run becomes a key where its value
// changes.
func intCurve(b *mecanimBlocks, ci int, t model.Target) model.IntCurve {
	ic := model.IntCurve{Target: t}
	var cv model.Curve
	b.curve(ci, &cv)
	bits := func(x float32) int32 { return int32(math.Float32bits(x)) }
	switch cv.Kind {
	case model.CurveStreamed:
		ic.Keys = make([]model.IntKey, len(cv.Segments))
		for k, s := range cv.Segments {
			ic.Keys[k] = model.IntKey{Time: s.Time, Value: bits(s.C[3])}
		}
	case model.CurveDense:
		for k, x := range cv.Samples {
			v := bits(x)
			if n := len(ic.Keys); n > 0 && ic.Keys[n-1].Value == v {
				continue
			}
			ic.Keys = append(ic.Keys, model.IntKey{Time: cv.DenseBegin + float32(k)/cv.DenseRate, Value: v})
		}
	case model.CurveConstant:
		ic.Keys = []model.IntKey{{Time: -math.MaxFloat32, Value: bits(cv.Value)}}
	}
	return ic
}

// countUnresolved sets the clip's unresolved-name statistics.
func countUnresolved(c *model.Clip) {
	c.Stats.UnresolvedPaths, c.Stats.UnresolvedProperties = 0, 0
	count := func(t *model.Target) {
		if !t.PathKnown {
			c.Stats.UnresolvedPaths++
		}
		if t.Property == "" {
			c.Stats.UnresolvedProperties++
		}
	}
	for i := range c.Curves {
		count(&c.Curves[i].Target)
	}
	for i := range c.IntCurves {
		count(&c.IntCurves[i].Target)
	}
	for i := range c.ObjectCurves {
		count(&c.ObjectCurves[i].Target)
	}
}

// bindingClass is a generic binding's class id: field typeID, named
// classID up to Unity 5.5.
func bindingClass(bd *typetree.Value) int64 {
	return firstField(bd, "typeID", "classID").Int()
}

// firstField returns the first of v's fields named names that exists (a
// field Unity renamed between versions), or nil.
func firstField(v *typetree.Value, names ...string) *typetree.Value {
	for _, n := range names {
		if f := v.Field(n); f != nil {
			return f
		}
	}
	return nil
}
