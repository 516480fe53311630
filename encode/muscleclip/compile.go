package muscleclip

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/unityversion"
	"github.com/mecanim/mecanim/unity/unitywrite"
)

// ErrUnsupported is wrapped when a clip has something the compiler does not
// write (a legacy clip: its keyframed curves are not compiled by Unity).
var ErrUnsupported = errors.New("muscleclip: not supported")

// ErrInvalid is wrapped when a clip cannot be compiled as it is (a curve
// with no data, a non-finite time range).
var ErrInvalid = errors.New("muscleclip: invalid clip")

// Block is which of m_MuscleClip's three curve blocks holds a binding.
type Block uint8

// The curve blocks, in the order their curves are numbered.
const (
	BlockStreamed Block = iota
	BlockDense
	BlockConstant
)

// String names the block as the compiled clip's field does.
func (b Block) String() string {
	switch b {
	case BlockStreamed:
		return "streamed"
	case BlockDense:
		return "dense"
	case BlockConstant:
		return "constant"
	}
	return "unknown"
}

// Custom types of a generic binding (its customType field), as Unity's
// player builds hold them.
const (
	customTransform  = 0
	customAnimator   = 8  // humanoid root, goals and muscles
	customBlendShape = 20 // SkinnedMeshRenderer blend shape weights
)

// indexArrayLen is the length of m_IndexArray: one entry per Animator
// binding attribute below it (every compiled clip of the corpus, Unity 2019.4
// to 2023.1).
const indexArrayLen = 200

// muscleClipBase is the part of m_MuscleClipSize that does not depend on the
// curves: every compiled clip of the corpus (Unity 2019.4 to 2023.1) has
// m_MuscleClipSize = muscleClipBase + 4 × (streamed words + dense samples +
// constants) + 8 × curves.
const muscleClipBase = 2528

// denseRatio is the share of a clip's frames a curve's key count must reach
// for Unity to store it dense (when the clip does not ask for high-quality
// curves): the corpus brackets it between 13/93 (streamed) and 7/50 (dense).
const denseRatioNum, denseRatioDen = 7, 50

// maxFrames bounds a clip's frame count (its length times its rate): the
// dense block is sized by it.
const maxFrames = 1 << 22

// binding is one generic binding with its curves, ready to place.
type binding struct {
	target model.Target // the first curve's target (component 0)
	curves []*model.Curve
	pptr   *model.ObjectCurve
	block  Block
	order  int // the rank of its kind (see bindingRank)
	first  int // the index of its first curve in the source clip
}

// Options say what the compiled clip is for.
type Options struct {
	// Version is the Unity version the clip is compiled for: versions round
	// the curves' coefficients differently (the zero version: the newest
	// rule).
	Version unityversion.Version
}

// Compile returns the AnimationClip Unity's builder makes of c, as fields
// for an AnimationClip type tree. c is not changed.
func Compile(c *model.Clip, opts Options) (unitywrite.Fields, error) {
	rule := ruleFor(opts.Version)
	if c == nil {
		return nil, fmt.Errorf("%w: no clip", ErrInvalid)
	}
	if c.Legacy {
		return nil, fmt.Errorf("clip %q: %w: a legacy clip (played by the Animation component) is not compiled to a muscle clip", c.Name, ErrUnsupported)
	}
	if !geom.Finite(c.Start) || !geom.Finite(c.Stop) || c.Stop < c.Start {
		return nil, fmt.Errorf("clip %q: %w: time range %g..%g", c.Name, ErrInvalid, c.Start, c.Stop)
	}
	rate := c.SampleRate
	if !(rate > 0) || !geom.Finite(rate) {
		rate = 60
	}
	if n := float64(c.Stop-c.Start) * float64(rate); n > maxFrames {
		return nil, fmt.Errorf("clip %q: %w: %g s at %g Hz is more than %d frames", c.Name, ErrInvalid, c.Stop-c.Start, rate, maxFrames)
	}
	binds, err := gather(c)
	if err != nil {
		return nil, fmt.Errorf("clip %q: %w", c.Name, err)
	}
	frames := DenseFrames(c.Start, c.Stop, rate)
	for _, b := range binds {
		b.block = chooseBlock(b, frames, c.UseHighQualityCurve)
	}
	ordered := orderBindings(binds)

	// Number the curves: streamed, then dense, then constant.
	var streamed, dense, constant []*model.Curve
	var genBindings []unitywrite.Fields
	var mapping []unitywrite.Fields
	mapIndex := map[model.Ref]int{}
	var pptrCurves []model.Curve // object curves as step curves of mapping indexes
	for _, blk := range []Block{BlockStreamed, BlockDense, BlockConstant} {
		for _, b := range ordered {
			if b.block != blk {
				continue
			}
			genBindings = append(genBindings, bindingFields(b))
			if b.pptr != nil {
				cv := objectCurve(b.pptr, mapIndex, &mapping)
				pptrCurves = append(pptrCurves, cv)
				b.curves = []*model.Curve{&pptrCurves[len(pptrCurves)-1]}
			}
			switch blk {
			case BlockStreamed:
				streamed = append(streamed, b.curves...)
			case BlockDense:
				dense = append(dense, b.curves...)
			default:
				constant = append(constant, b.curves...)
			}
		}
	}
	all := append(append(append([]*model.Curve{}, streamed...), dense...), constant...)

	words := streamedWords(streamed, rule)
	samples := denseSamples(dense, c.Start, rate, frames, rule)
	consts := make([]float32, len(constant))
	for i, cv := range constant {
		consts[i] = constantValue(cv)
	}
	// A clip without dense curves keeps the frame count (as Unity writes it).
	denseRate := rate

	// Values at start and stop, and the humanoid index.
	vad := make([]unitywrite.Fields, len(all))
	startVals := make([]float32, len(all))
	stopVals := make([]float32, len(all))
	nStreamed, nDense := len(streamed), len(dense)
	for i, cv := range all {
		startVals[i], stopVals[i] = evalCompiled(cv, c.Start, rule), evalCompiled(cv, c.Stop, rule)
		if i >= nStreamed && i < nStreamed+nDense {
			// A dense curve's values are its samples' (linear between frames).
			d := i - nStreamed
			col := make([]float32, frames)
			for f := range col {
				col[f] = samples[f*nDense+d]
			}
			dc := model.Curve{Kind: model.CurveDense, Samples: col, DenseBegin: c.Start, DenseRate: rate}
			startVals[i], stopVals[i] = dc.Eval(c.Start), dc.Eval(c.Stop)
		}
		vad[i] = unitywrite.Fields{"m_Start": startVals[i], "m_Stop": stopVals[i]}
	}
	index := make([]int32, indexArrayLen)
	for i := range index {
		index[i] = -1
	}
	attrCurve := map[uint32]int{}
	for i, cv := range all {
		t := cv.Target
		if t.ClassID == model.ClassAnimator && t.PathHash == 0 && t.Attribute < indexArrayLen {
			if _, ok := model.HumanAttributeName(t.Attribute); ok {
				index[t.Attribute] = int32(i)
				attrCurve[t.Attribute] = i
			}
		}
	}
	hp := humanPoses(attrCurve, startVals, stopVals)

	size := muscleClipBase + 4*(len(words)+len(samples)+len(consts)) + 8*len(all)
	s := c.Settings
	muscle := unitywrite.Fields{
		"m_DeltaPose":           hp.delta,
		"m_StartX":              hp.startX,
		"m_StopX":               hp.stopX,
		"m_LeftFootStartX":      hp.leftFoot,
		"m_RightFootStartX":     hp.rightFoot,
		"m_MotionStartX":        xform(geom.Transform{R: geom.Quat{W: 1}, S: geom.Vec3{X: 1, Y: 1, Z: 1}}),
		"m_MotionStopX":         xform(geom.Transform{R: geom.Quat{W: 1}, S: geom.Vec3{X: 1, Y: 1, Z: 1}}),
		"m_AverageSpeed":        vec3(c.AverageSpeed),
		"m_AverageAngularSpeed": c.AverageAngularSpeed,
		"m_Clip": unitywrite.Fields{"data": unitywrite.Fields{
			"m_StreamedClip": unitywrite.Fields{"data": words, "curveCount": len(streamed), "discreteCurveCount": 0},
			"m_DenseClip": unitywrite.Fields{
				"m_FrameCount": frames, "m_CurveCount": len(dense), "m_SampleRate": denseRate,
				"m_BeginTime": c.Start, "m_SampleArray": samples,
			},
			"m_ConstantClip": unitywrite.Fields{"data": consts},
		}},
		"m_StartTime":               c.Start,
		"m_StopTime":                c.Stop,
		"m_OrientationOffsetY":      s.OrientationOffsetY,
		"m_Level":                   s.Level,
		"m_CycleOffset":             s.CycleOffset,
		"m_IndexArray":              index,
		"m_ValueArrayDelta":         vad,
		"m_ValueArrayReferencePose": []float32{},
		"m_Mirror":                  s.Mirror,
		"m_LoopTime":                s.LoopTime,
		"m_LoopBlend":               s.LoopBlend,
		"m_LoopBlendOrientation":    s.LoopBlendOrientation,
		"m_LoopBlendPositionY":      s.LoopBlendPositionY,
		"m_LoopBlendPositionXZ":     s.LoopBlendPositionXZ,
		"m_StartAtOrigin":           s.StartAtOrigin,
		"m_KeepOriginalOrientation": s.KeepOriginalOrientation,
		"m_KeepOriginalPositionY":   s.KeepOriginalPositionY,
		"m_KeepOriginalPositionXZ":  s.KeepOriginalPositionXZ,
		"m_HeightFromFeet":          s.HeightFromFeet,
	}
	events := make([]unitywrite.Fields, len(c.Events))
	for i, e := range c.Events {
		events[i] = unitywrite.Fields{
			"time": e.Time, "functionName": e.Function, "data": e.Data,
			"objectReferenceParameter": pptr(e.Object), "floatParameter": e.Float,
			"intParameter": e.Int, "messageOptions": e.MessageOptions,
		}
	}
	wrap := c.WrapMode
	return unitywrite.Fields{
		"m_Name":                    c.Name,
		"m_Legacy":                  false,
		"m_Compressed":              false,
		"m_UseHighQualityCurve":     c.UseHighQualityCurve,
		"m_SampleRate":              c.SampleRate,
		"m_WrapMode":                int32(wrap),
		"m_Bounds":                  unitywrite.Fields{"m_Center": vec3(geom.Vec3{}), "m_Extent": vec3(geom.Vec3{})},
		"m_MuscleClipSize":          size,
		"m_MuscleClip":              muscle,
		"m_ClipBindingConstant":     unitywrite.Fields{"genericBindings": genBindings, "pptrCurveMapping": mapping},
		"m_HasGenericRootTransform": false,
		"m_HasMotionFloatCurves":    false,
		"m_Events":                  events,
	}, nil
}

// DenseFrames is the frame count Unity gives a clip's dense block: the
// whole frames of its length at the sample rate, plus two (every compiled
// clip of the corpus, dense curves or not).
func DenseFrames(start, stop, rate float32) int {
	return int((stop-start)*rate) + 2
}

// gather groups the clip's curves into bindings: a Transform property's
// components together (a missing component is the property's rest value), a
// float property alone, an object curve alone.
func gather(c *model.Clip) ([]*binding, error) {
	type key struct {
		path  uint32
		class int32
		attr  uint32
		sfile int32
		spath int64
	}
	var out []*binding
	byKey := map[key]*binding{}
	for i := range c.Curves {
		cv := &c.Curves[i]
		if err := checkCurve(cv); err != nil {
			return nil, fmt.Errorf("curve %d (%s): %w", i, describe(cv.Target), err)
		}
		t := cv.Target
		k := key{t.PathHash, t.ClassID, t.Attribute, t.Script.FileID, t.Script.PathID}
		if t.ClassID != model.ClassTransform || t.Transform == model.PropNone {
			b := &binding{target: t, curves: []*model.Curve{cv}, first: i}
			b.order = bindingRank(t)
			out = append(out, b)
			continue
		}
		b := byKey[k]
		n := 3
		if t.Transform == model.PropRotation {
			n = 4
		}
		if b == nil {
			b = &binding{target: t, curves: make([]*model.Curve, n), first: i, order: bindingRank(t)}
			byKey[k] = b
			out = append(out, b)
		}
		if t.Component < 0 || t.Component >= n {
			return nil, fmt.Errorf("curve %d (%s): %w: component %d", i, describe(t), ErrInvalid, t.Component)
		}
		if b.curves[t.Component] != nil {
			return nil, fmt.Errorf("curve %d (%s): %w: the clip drives this property twice", i, describe(t), ErrInvalid)
		}
		b.curves[t.Component] = cv
	}
	for _, b := range out {
		for comp, cv := range b.curves {
			if cv != nil {
				continue
			}
			t := b.target
			t.Component = comp
			t.Property = model.TransformPropertyName(t.Transform, comp)
			rest := float32(0)
			if t.Transform == model.PropScale || (t.Transform == model.PropRotation && comp == 3) {
				rest = 1
			}
			b.curves[comp] = &model.Curve{Target: t, Kind: model.CurveConstant, Value: rest}
		}
	}
	for i := range c.ObjectCurves {
		oc := &c.ObjectCurves[i]
		out = append(out, &binding{target: oc.Target, pptr: oc, first: len(c.Curves) + i, order: bindingRank(oc.Target) + 1})
	}
	return out, nil
}

// checkCurve refuses a curve the compiler cannot place.
func checkCurve(cv *model.Curve) error {
	switch cv.Kind {
	case model.CurveKeyframed:
		if len(cv.Keys) == 0 {
			return fmt.Errorf("%w: no keys", ErrInvalid)
		}
		for i := range cv.Keys {
			if !geom.Finite(cv.Keys[i].Time) {
				return fmt.Errorf("%w: key %d at time %v", ErrInvalid, i, cv.Keys[i].Time)
			}
		}
	case model.CurveStreamed:
		if len(cv.Segments) == 0 {
			return fmt.Errorf("%w: no segments", ErrInvalid)
		}
	case model.CurveDense:
		if len(cv.Samples) == 0 || !(cv.DenseRate > 0) {
			return fmt.Errorf("%w: no samples", ErrInvalid)
		}
	}
	return nil
}

// describe names a target in messages.
func describe(t model.Target) string {
	path := t.Path
	if !t.PathKnown {
		path = fmt.Sprintf("path#%08x", t.PathHash)
	}
	prop := t.Property
	if prop == "" {
		prop = fmt.Sprintf("class %d attribute %d", t.ClassID, t.Attribute)
	}
	if path == "" {
		return prop
	}
	return path + ":" + prop
}

// bindingRank orders binding kinds as Unity's builder lists them: Transform
// positions, rotations, scales and Euler angles (each in the clip's order),
// then every other float property in the clip's order, then object curves.
func bindingRank(t model.Target) int {
	if t.ClassID == model.ClassTransform {
		switch t.Transform {
		case model.PropPosition:
			return 0
		case model.PropRotation:
			return 1
		case model.PropScale:
			return 2
		case model.PropEuler:
			return 3
		}
	}
	return 4
}

// orderBindings sorts bindings by rank, keeping the clip's order within one.
func orderBindings(bs []*binding) []*binding {
	out := make([]*binding, 0, len(bs))
	for r := 0; r <= 5; r++ {
		for _, b := range bs {
			if b.order == r {
				out = append(out, b)
			}
		}
	}
	return out
}

// chooseBlock places a binding as Unity's builder does: constant when every
// curve holds one value, dense when the clip allows it (m_UseHighQualityCurve
// off) and a curve has keys on at least 7 in 50 of the clip's frames,
// streamed otherwise. Curves already compiled keep their block.
func chooseBlock(b *binding, frames int, highQuality bool) Block {
	if b.pptr != nil {
		if len(b.pptr.Keys) <= 1 {
			return BlockConstant
		}
		return BlockStreamed
	}
	allConst := true
	kinds := map[model.CurveKind]bool{}
	maxKeys := 0
	for _, cv := range b.curves {
		kinds[cv.Kind] = true
		if !isConstant(cv) {
			allConst = false
		}
		maxKeys = max(maxKeys, keyCount(cv))
	}
	if allConst {
		return BlockConstant
	}
	if len(kinds) == 1 || (len(kinds) == 2 && kinds[model.CurveConstant]) {
		switch {
		case kinds[model.CurveDense]:
			return BlockDense
		case kinds[model.CurveStreamed]:
			return BlockStreamed
		}
	}
	if !highQuality && maxKeys*denseRatioDen >= frames*denseRatioNum {
		return BlockDense
	}
	return BlockStreamed
}

// keyCount is the number of keys a curve has (a streamed curve's segments
// after its initial one).
func keyCount(cv *model.Curve) int {
	switch cv.Kind {
	case model.CurveKeyframed:
		return len(cv.Keys)
	case model.CurveStreamed:
		n := len(cv.Segments)
		if n > 0 && cv.Segments[0].Time == -math.MaxFloat32 {
			n--
		}
		return n
	case model.CurveDense:
		return len(cv.Samples)
	}
	return 1
}

// isConstant reports whether a curve holds one value for all time: every key
// the same value with flat (or stepped) tangents, every sample the same.
func isConstant(cv *model.Curve) bool {
	switch cv.Kind {
	case model.CurveConstant:
		return true
	case model.CurveKeyframed:
		v := cv.Keys[0].Value
		for _, k := range cv.Keys {
			if k.Value != v {
				return false
			}
		}
		if len(cv.Keys) == 1 {
			return true
		}
		for i, k := range cv.Keys {
			if i > 0 && k.InSlope != 0 && geom.Finite(k.InSlope) {
				return false
			}
			if i < len(cv.Keys)-1 && k.OutSlope != 0 && geom.Finite(k.OutSlope) {
				return false
			}
		}
		return true
	case model.CurveStreamed:
		v := cv.Segments[0].C[3]
		for i, s := range cv.Segments {
			if s.C[3] != v {
				return false
			}
			if i < len(cv.Segments)-1 && s.Time != -math.MaxFloat32 && (s.C[0] != 0 || s.C[1] != 0 || s.C[2] != 0) &&
				geom.Finite(s.C[0]) && geom.Finite(s.C[1]) && geom.Finite(s.C[2]) {
				return false
			}
		}
		return true
	case model.CurveDense:
		for _, x := range cv.Samples {
			if x != cv.Samples[0] {
				return false
			}
		}
		return true
	}
	return false
}

// constantValue is a constant curve's value.
func constantValue(cv *model.Curve) float32 {
	switch cv.Kind {
	case model.CurveConstant:
		return cv.Value
	case model.CurveKeyframed:
		return cv.Keys[0].Value
	case model.CurveStreamed:
		return cv.Segments[0].C[3]
	case model.CurveDense:
		return cv.Samples[0]
	}
	return 0
}

// objectCurve turns an object curve into a step curve of indexes into the
// clip's pptrCurveMapping, adding the objects it names to the mapping.
func objectCurve(oc *model.ObjectCurve, index map[model.Ref]int, mapping *[]unitywrite.Fields) model.Curve {
	cv := model.Curve{Target: oc.Target, Kind: model.CurveStreamed}
	inf := float32(math.Inf(1))
	for i, k := range oc.Keys {
		ix, ok := index[k.Object]
		if !ok {
			ix = len(*mapping)
			index[k.Object] = ix
			*mapping = append(*mapping, pptr(k.Object))
		}
		if i == 0 {
			cv.Segments = append(cv.Segments, model.Segment{Time: -math.MaxFloat32, C: [4]float32{0, 0, 0, float32(ix)}})
		}
		cv.Segments = append(cv.Segments, model.Segment{Time: k.Time, C: [4]float32{inf, inf, inf, float32(ix)}})
	}
	if len(oc.Keys) <= 1 {
		ix := 0
		if len(oc.Keys) == 1 {
			ix = index[oc.Keys[0].Object]
		}
		return model.Curve{Target: oc.Target, Kind: model.CurveConstant, Value: float32(ix)}
	}
	return cv
}

// bindingFields is a generic binding as the type tree names its fields
// (typeID from Unity 5.6, classID before).
func bindingFields(b *binding) unitywrite.Fields {
	t := b.target
	custom := customTransform
	switch {
	case t.ClassID == model.ClassAnimator:
		if _, ok := model.HumanAttributeName(t.Attribute); ok {
			custom = customAnimator
		}
	case t.ClassID == model.ClassSkinnedMeshRenderer && (t.Property == "" || strings.HasPrefix(t.Property, "blendShape.")):
		// A renderer's float curve whose name a compiled clip no longer
		// says is taken for a blend shape, what such curves are in games.
		custom = customBlendShape
	}
	return unitywrite.Fields{
		"path": t.PathHash, "attribute": t.Attribute, "script": pptr(t.Script),
		"typeID": t.ClassID, "classID": t.ClassID, "customType": custom,
		"isPPtrCurve": b.pptr != nil, "isIntCurve": false, "isSerializeReferenceCurve": false,
	}
}

func pptr(r model.Ref) unitywrite.Fields {
	return unitywrite.Fields{"m_FileID": r.FileID, "m_PathID": r.PathID}
}

func vec3(v geom.Vec3) unitywrite.Fields {
	return unitywrite.Fields{"x": v.X, "y": v.Y, "z": v.Z}
}

func quat(q geom.Quat) unitywrite.Fields {
	return unitywrite.Fields{"x": q.X, "y": q.Y, "z": q.Z, "w": q.W}
}

func xform(t geom.Transform) unitywrite.Fields {
	return unitywrite.Fields{"t": vec3(t.T), "q": quat(t.R), "s": vec3(t.S)}
}
