package yamlasset

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/mecanim/mecanim/model"
)

// linearBroken is the keyframe tangent mode WriteClip gives its keys: both
// tangents linear and broken apart (Unity's TangentMode Linear in the left
// and right bits, plus the broken bit), so the editor shows the curve as
// the straight segments between the keys that the clip holds.
const linearBroken = 1 | 2<<1 | 2<<5

// WriteClip writes a clip as the editor's AnimationClip asset (a .anim),
// in the layout the editor writes (serializedVersion 6): its float
// curves (humanoid attributes of the Animator, blend shapes, properties)
// as keyframed m_FloatCurves, its Transform curves as m_PositionCurves,
// m_RotationCurves (quaternions) or m_EulerCurves and m_ScaleCurves by
// path, the generic bindings the editor keeps beside them, its settings
// and events. Dense and streamed curves become keys at their frames with
// linear tangents (the values between frames are the segments between
// the keys, as a dense curve's are); keyframed curves keep their keys.
// ReadClip of the written asset (Parse, then File.Clip) gives the clip's
// values at every key time.
func WriteClip(w io.Writer, c *model.Clip) error {
	if c == nil {
		return fmt.Errorf("yamlasset: WriteClip: nil clip")
	}
	bw := bufio.NewWriter(w)
	p := func(format string, a ...any) { fmt.Fprintf(bw, format, a...) }
	p("%%YAML 1.1\n%%TAG !u! tag:unity3d.com,2011:\n--- !u!74 &7400000\nAnimationClip:\n")
	p("  m_ObjectHideFlags: 0\n  m_CorrespondingSourceObject: {fileID: 0}\n  m_PrefabInstance: {fileID: 0}\n  m_PrefabAsset: {fileID: 0}\n")
	p("  m_Name: %s\n  serializedVersion: 6\n  m_Legacy: %d\n  m_Compressed: 0\n  m_UseHighQualityCurve: 1\n", scalar(c.Name), b2i(c.Legacy))

	// Transform curves grouped by path and property, float curves one by
	// one, in the clip's order.
	type group struct {
		path  string
		prop  model.TransformProp
		order int32
		comps [4]*model.Curve
	}
	var groups []*group
	byKey := map[string]*group{}
	var floats []*model.Curve
	for i := range c.Curves {
		cv := &c.Curves[i]
		t := &cv.Target
		if t.ClassID == model.ClassTransform && t.Transform != model.PropNone && t.Component >= 0 && t.Component < 4 {
			k := t.Path + "\x00" + strconv.Itoa(int(t.Transform))
			g := byKey[k]
			if g == nil {
				g = &group{path: t.PathName(), prop: t.Transform, order: int32(t.RotationOrder)}
				byKey[k] = g
				groups = append(groups, g)
			}
			g.comps[t.Component] = cv
			continue
		}
		floats = append(floats, cv)
	}
	vectorCurves := func(field string, prop model.TransformProp, n int) {
		var gs []*group
		for _, g := range groups {
			if g.prop == prop {
				gs = append(gs, g)
			}
		}
		if len(gs) == 0 {
			p("  %s: []\n", field)
			return
		}
		p("  %s:\n", field)
		for _, g := range gs {
			p("  - curve:\n      serializedVersion: 2\n")
			writeVectorKeys(bw, c, g.comps[:n])
			p("      m_PreInfinity: 2\n      m_PostInfinity: 2\n      m_RotationOrder: %d\n", rotationOrder(g.order, prop))
			p("    path: %s\n", scalar(g.path))
		}
	}
	vectorCurves("m_RotationCurves", model.PropRotation, 4)
	p("  m_CompressedRotationCurves: []\n")
	vectorCurves("m_EulerCurves", model.PropEuler, 3)
	vectorCurves("m_PositionCurves", model.PropPosition, 3)
	vectorCurves("m_ScaleCurves", model.PropScale, 3)
	if len(floats) == 0 {
		p("  m_FloatCurves: []\n")
	} else {
		p("  m_FloatCurves:\n")
		for _, cv := range floats {
			p("  - curve:\n      serializedVersion: 2\n")
			writeVectorKeys(bw, c, []*model.Curve{cv})
			p("      m_PreInfinity: 2\n      m_PostInfinity: 2\n      m_RotationOrder: 4\n")
			p("    attribute: %s\n    path: %s\n    classID: %d\n    script: {fileID: 0}\n", scalar(cv.Target.PropertyName()), scalar(cv.Target.PathName()), cv.Target.ClassID)
		}
	}
	rate := c.SampleRate
	if !(rate > 0) || math.IsInf(float64(rate), 0) {
		rate = 60
	}
	p("  m_PPtrCurves: []\n  m_SampleRate: %s\n  m_WrapMode: %d\n", num(rate), c.WrapMode)
	p("  m_Bounds:\n    m_Center: {x: 0, y: 0, z: 0}\n    m_Extent: {x: 0, y: 0, z: 0}\n")
	p("  m_ClipBindingConstant:\n")
	if len(groups)+len(floats) == 0 {
		p("    genericBindings: []\n")
	} else {
		p("    genericBindings:\n")
		for _, g := range groups {
			p("    - serializedVersion: 2\n      path: %d\n      attribute: %d\n      script: {fileID: 0}\n      typeID: 4\n      customType: 0\n      isPPtrCurve: 0\n",
				model.PathHash(g.path), g.prop)
		}
		for _, cv := range floats {
			t := &cv.Target
			attr, custom := t.Attribute, 0
			if t.ClassID == model.ClassAnimator && t.Property != "" {
				if a, ok := model.HumanAttributeByName(t.Property); ok {
					attr, custom = a, 8
				}
			}
			p("    - serializedVersion: 2\n      path: %d\n      attribute: %d\n      script: {fileID: 0}\n      typeID: %d\n      customType: %d\n      isPPtrCurve: 0\n",
				t.PathHash, attr, t.ClassID, custom)
		}
	}
	p("    pptrCurveMapping: []\n")
	s := &c.Settings
	p("  m_AnimationClipSettings:\n    serializedVersion: 2\n    m_AdditiveReferencePoseClip: {fileID: 0}\n    m_AdditiveReferencePoseTime: 0\n")
	p("    m_StartTime: %s\n    m_StopTime: %s\n    m_OrientationOffsetY: %s\n    m_Level: %s\n    m_CycleOffset: %s\n    m_HasAdditiveReferencePose: 0\n",
		num(c.Start), num(c.Stop), num(s.OrientationOffsetY), num(s.Level), num(s.CycleOffset))
	p("    m_LoopTime: %d\n    m_LoopBlend: %d\n    m_LoopBlendOrientation: %d\n    m_LoopBlendPositionY: %d\n    m_LoopBlendPositionXZ: %d\n",
		b2i(s.LoopTime), b2i(s.LoopBlend), b2i(s.LoopBlendOrientation), b2i(s.LoopBlendPositionY), b2i(s.LoopBlendPositionXZ))
	p("    m_KeepOriginalOrientation: %d\n    m_KeepOriginalPositionY: %d\n    m_KeepOriginalPositionXZ: %d\n    m_HeightFromFeet: %d\n    m_Mirror: %d\n",
		b2i(s.KeepOriginalOrientation), b2i(s.KeepOriginalPositionY), b2i(s.KeepOriginalPositionXZ), b2i(s.HeightFromFeet), b2i(s.Mirror))
	p("  m_EditorCurves: []\n  m_EulerEditorCurves: []\n  m_HasGenericRootTransform: 0\n  m_HasMotionFloatCurves: 0\n")
	if len(c.Events) == 0 {
		p("  m_Events: []\n")
	} else {
		p("  m_Events:\n")
		for _, e := range c.Events {
			p("  - time: %s\n    functionName: %s\n    data: %s\n    objectReferenceParameter: {fileID: 0}\n    floatParameter: %s\n    intParameter: %d\n    messageOptions: %d\n",
				num(e.Time), scalar(e.Function), scalar(e.Data), num(e.Float), e.Int, e.MessageOptions)
		}
	}
	return bw.Flush()
}

// writeVectorKeys writes the m_Curve of a curve of len(comps) components
// (a float curve has one; missing components are 0, a quaternion's w 1):
// a key at every time any component has one.
func writeVectorKeys(w *bufio.Writer, c *model.Clip, comps []*model.Curve) {
	var times []float32
	seen := map[float32]bool{}
	for _, cv := range comps {
		if cv == nil {
			continue
		}
		for _, t := range keyTimes(c, cv) {
			if !seen[t] {
				seen[t] = true
				times = append(times, t)
			}
		}
	}
	sortFloats(times)
	if len(times) == 0 {
		fmt.Fprintf(w, "      m_Curve: []\n")
		return
	}
	fmt.Fprintf(w, "      m_Curve:\n")
	for i, t := range times {
		var v, in, out [4]float32
		for k, cv := range comps {
			if cv == nil {
				if len(comps) == 4 && k == 3 {
					v[k] = 1
				}
				continue
			}
			v[k] = cv.Eval(t)
			if i > 0 {
				in[k] = (v[k] - comps[k].Eval(times[i-1])) / (t - times[i-1])
			}
			if i+1 < len(times) {
				out[k] = (comps[k].Eval(times[i+1]) - v[k]) / (times[i+1] - t)
			}
		}
		if i == 0 {
			in = out
		}
		if i+1 == len(times) {
			out = in
		}
		fmt.Fprintf(w, "      - serializedVersion: 3\n        time: %s\n", num(t-c.Start))
		if len(comps) == 1 {
			fmt.Fprintf(w, "        value: %s\n        inSlope: %s\n        outSlope: %s\n", num(v[0]), num(in[0]), num(out[0]))
			fmt.Fprintf(w, "        tangentMode: %d\n        weightedMode: 0\n        inWeight: 0.33333334\n        outWeight: 0.33333334\n", linearBroken)
			continue
		}
		vec := func(x [4]float32) string {
			if len(comps) == 4 {
				return fmt.Sprintf("{x: %s, y: %s, z: %s, w: %s}", num(x[0]), num(x[1]), num(x[2]), num(x[3]))
			}
			return fmt.Sprintf("{x: %s, y: %s, z: %s}", num(x[0]), num(x[1]), num(x[2]))
		}
		third := [4]float32{0.33333334, 0.33333334, 0.33333334, 0.33333334}
		fmt.Fprintf(w, "        value: %s\n        inSlope: %s\n        outSlope: %s\n", vec(v), vec(in), vec(out))
		fmt.Fprintf(w, "        tangentMode: %d\n        weightedMode: 0\n        inWeight: %s\n        outWeight: %s\n", linearBroken, vec(third), vec(third))
	}
}

// keyTimes returns the times (in curve time) at which a curve changes
// course: its keys, its dense frames, its streamed segments' starts.
func keyTimes(c *model.Clip, cv *model.Curve) []float32 {
	var out []float32
	switch cv.Kind {
	case model.CurveKeyframed:
		for _, k := range cv.Keys {
			out = append(out, k.Time)
		}
	case model.CurveDense:
		if cv.DenseRate > 0 {
			for i := range cv.Samples {
				out = append(out, cv.DenseBegin+float32(i)/cv.DenseRate)
			}
		}
	case model.CurveStreamed:
		for _, s := range cv.Segments {
			if s.Time > -math.MaxFloat32 && !math.IsInf(float64(s.Time), 0) {
				out = append(out, s.Time)
			}
		}
	}
	if len(out) == 0 {
		out = []float32{c.Start}
	}
	return out
}

func sortFloats(x []float32) {
	for i := 1; i < len(x); i++ {
		for j := i; j > 0 && x[j] < x[j-1]; j-- {
			x[j], x[j-1] = x[j-1], x[j]
		}
	}
}

// rotationOrder is the m_RotationOrder of a curve group: Euler curves keep
// theirs, others are 4 (the editor's default).
func rotationOrder(order int32, prop model.TransformProp) int32 {
	if prop == model.PropEuler {
		return order
	}
	return 4
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// num writes a float32 in its shortest form that reads back exactly.
func num(x float32) string {
	if math.IsInf(float64(x), 1) {
		return "Infinity"
	}
	if math.IsInf(float64(x), -1) {
		return "-Infinity"
	}
	if x != x {
		return "NaN"
	}
	return strconv.FormatFloat(float64(x), 'g', -1, 32)
}

// scalar writes a string as a YAML scalar: plain when that reads back as
// the same string, else single-quoted.
func scalar(s string) string {
	if s == "" {
		return ""
	}
	plain := !strings.ContainsAny(s, ":#{}[],&*!|>'\"%@`\n\t") && s == strings.TrimSpace(s) && !strings.HasPrefix(s, "-") && !strings.HasPrefix(s, "?")
	if plain {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}
