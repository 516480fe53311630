// Package hello builds the example bundle examples/hello.bundle:
// a rig of seven GameObjects with an Animator and a generic
// clip "Wave" that uses all three Mecanim curve blocks (streamed rotation,
// dense position, constant scale) and an event.
package hello

import (
	"fmt"
	"math"

	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/layouts"
	"github.com/mecanim/mecanim/unity/typetree"
	"github.com/mecanim/mecanim/unity/unityversion"
	"github.com/mecanim/mecanim/unity/unitywrite"
)

// UnityVersion is the engine version the example claims; its layouts come
// from the built-in table.
const UnityVersion = "2022.3.9f1"

// F is shorthand for the encoder's struct values.
type F = unitywrite.Fields

func tree(classID int32) *typetree.Tree {
	v, _ := unityversion.Parse(UnityVersion)
	t, _, err := layouts.Lookup(v, classID)
	if err != nil {
		panic(fmt.Sprintf("no built-in layout for class %d: %v", classID, err)) // a programming error in gen
	}
	return t
}

func pptr(id int64) F { return F{"m_FileID": 0, "m_PathID": id} }

func v3(x, y, z float32) F { return F{"x": x, "y": y, "z": z} }

func quat(x, y, z, w float32) F { return F{"x": x, "y": y, "z": z, "w": w} }

type bone struct {
	name   string
	parent int
	pos    [3]float32
}

// The rig: index 0 is the Animator's GameObject.
var bones = []bone{
	{"Hello", -1, [3]float32{0, 0, 0}},
	{"Armature", 0, [3]float32{0, 0, 0}},
	{"Hips", 1, [3]float32{0, 1, 0}},
	{"Spine", 2, [3]float32{0, 0.3, 0}},
	{"Head", 3, [3]float32{0, 0.45, 0}},
	{"LeftArm", 3, [3]float32{-0.25, 0.35, 0}},
	{"RightArm", 3, [3]float32{0.25, 0.35, 0}},
}

func path(i int) string {
	if i <= 0 {
		return ""
	}
	if bones[i].parent <= 0 {
		return bones[i].name
	}
	return path(bones[i].parent) + "/" + bones[i].name
}

// HelloBundle builds the example bundle's bytes.
func HelloBundle() ([]byte, error) {
	const (
		goBase   = 100
		trBase   = 200
		animator = 300
		clipID   = 400
	)
	var objs []unitywrite.Object
	add := func(pid int64, class int32, v F) error {
		t := tree(class)
		b, err := unitywrite.Encode(t, v)
		if err != nil {
			return fmt.Errorf("object %d: %w", pid, err)
		}
		objs = append(objs, unitywrite.Object{PathID: pid, ClassID: class, Tree: t, Data: b})
		return nil
	}
	for i, b := range bones {
		comps := []any{F{"component": pptr(int64(trBase + i))}}
		if i == 0 {
			comps = append(comps, F{"component": pptr(animator)})
		}
		if err := add(int64(goBase+i), model.ClassGameObject, F{
			"m_Component": comps, "m_Name": b.name, "m_IsActive": true,
		}); err != nil {
			return nil, err
		}
		var kids []any
		for j, c := range bones {
			if c.parent == i {
				kids = append(kids, pptr(int64(trBase+j)))
			}
		}
		father := int64(0)
		if b.parent >= 0 {
			father = int64(trBase + b.parent)
		}
		if err := add(int64(trBase+i), model.ClassTransform, F{
			"m_GameObject":    pptr(int64(goBase + i)),
			"m_LocalRotation": quat(0, 0, 0, 1),
			"m_LocalPosition": v3(b.pos[0], b.pos[1], b.pos[2]),
			"m_LocalScale":    v3(1, 1, 1),
			"m_Children":      kids,
			"m_Father":        pptr(father),
		}); err != nil {
			return nil, err
		}
	}
	if err := add(animator, model.ClassAnimator, F{
		"m_GameObject": pptr(goBase), "m_Enabled": 1, "m_HasTransformHierarchy": true,
		"m_AllowConstantClipSamplingOptimization": true,
	}); err != nil {
		return nil, err
	}
	if err := add(clipID, model.ClassAnimationClip, waveClip()); err != nil {
		return nil, err
	}
	sf, err := unitywrite.SerializedFile(UnityVersion, 5, objs, nil, false)
	if err != nil {
		return nil, err
	}
	return unitywrite.Bundle(UnityVersion, []unitywrite.Entry{
		{Path: "CAB-hello0000000000000000000000000", Data: sf, Flags: 4},
	}, 4096)
}

// Wave: the right arm swings about z (streamed), the hips bob (dense), the
// head is scaled (constant).
const (
	waveLength = 2.0
	waveRate   = 30
)

func armAngle(t float64) float64 { return math.Pi / 2 * math.Sin(math.Pi*t/waveLength) }

func hipsY(t float64) float64 { return 1 + 0.05*math.Sin(2*math.Pi*t/waveLength) }

func waveClip() F {
	// Streamed: the rotation's z and w as Hermite segments between keys
	// every 0.25 s, with exact derivatives as slopes.
	keyTimes := []float64{0, 0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2}
	comp := func(t float64) [4]float64 {
		a := armAngle(t)
		return [4]float64{0, 0, math.Sin(a / 2), math.Cos(a / 2)}
	}
	slope := func(t float64) [4]float64 {
		a := armAngle(t)
		da := math.Pi / 2 * math.Cos(math.Pi*t/waveLength) * math.Pi / waveLength
		return [4]float64{0, 0, math.Cos(a/2) * da / 2, -math.Sin(a/2) * da / 2}
	}
	var words []uint32
	f32 := func(x float64) uint32 { return math.Float32bits(float32(x)) }
	frame := func(t float32, keys [][5]float64) {
		words = append(words, math.Float32bits(t), uint32(len(keys)))
		for _, k := range keys {
			words = append(words, uint32(k[0]), f32(k[1]), f32(k[2]), f32(k[3]), f32(k[4]))
		}
	}
	v0 := comp(0)
	frame(-math.MaxFloat32, [][5]float64{{0, 0, 0, 0, v0[0]}, {1, 0, 0, 0, v0[1]}, {2, 0, 0, 0, v0[2]}, {3, 0, 0, 0, v0[3]}})
	for i, t0 := range keyTimes {
		var keys [][5]float64
		for c := 0; c < 4; c++ {
			v, m0 := comp(t0)[c], slope(t0)[c]
			if i == len(keyTimes)-1 {
				keys = append(keys, [5]float64{float64(c), 0, 0, 0, v})
				continue
			}
			t1 := keyTimes[i+1]
			h := t1 - t0
			v1, m1 := comp(t1)[c], slope(t1)[c]
			b := (3*(v1-v)/h - 2*m0 - m1) / h
			a := (m0 + m1 - 2*(v1-v)/h) / (h * h)
			keys = append(keys, [5]float64{float64(c), a, b, m0, v})
		}
		frame(float32(t0), keys)
	}
	frame(float32(math.Inf(1)), nil)

	frames := int(waveLength*waveRate) + 1
	var dense []float32
	for i := 0; i < frames; i++ {
		t := float64(i) / waveRate
		dense = append(dense, 0, float32(hipsY(t)), 0)
	}
	binding := func(p string, attr uint32) F {
		return F{"path": model.PathHash(p), "attribute": attr, "script": pptr(0), "typeID": model.ClassTransform}
	}
	ident := F{"t": v3(0, 0, 0), "q": quat(0, 0, 0, 1), "s": v3(1, 1, 1)}
	return F{
		"m_Name":                "Wave",
		"m_UseHighQualityCurve": true,
		"m_SampleRate":          float32(waveRate),
		"m_MuscleClip": F{
			"m_DeltaPose": F{"m_RootX": ident},
			"m_StartX":    ident, "m_StopX": ident, "m_LeftFootStartX": ident, "m_RightFootStartX": ident,
			"m_Clip": F{"data": F{
				"m_StreamedClip": F{"data": words, "curveCount": 4},
				"m_DenseClip": F{"m_FrameCount": frames, "m_CurveCount": 3, "m_SampleRate": float32(waveRate),
					"m_BeginTime": 0, "m_SampleArray": dense},
				"m_ConstantClip": F{"data": []float32{1.2, 1.2, 1.2}},
			}},
			"m_StartTime": 0, "m_StopTime": float32(waveLength),
			"m_LoopTime": true,
		},
		"m_ClipBindingConstant": F{
			"genericBindings": []any{
				binding(path(6), uint32(model.PropRotation)),
				binding(path(2), uint32(model.PropPosition)),
				binding(path(4), uint32(model.PropScale)),
			},
		},
		"m_Events": []any{
			F{"time": 1, "functionName": "OnWave", "data": "hello", "objectReferenceParameter": pptr(0),
				"floatParameter": 0.5, "intParameter": 7, "messageOptions": 0},
		},
	}
}
