package synth

import (
	"math"

	"github.com/mecanim/mecanim/model"
)

// Integer bit patterns that read as NaN or an infinity when taken for a
// float: values an int, enum or hash property holds like any other.
const (
	IntQuietNaN = int32(0x7fc00001)
	IntMinusOne = int32(-1)         // 0xffffffff, a NaN as a float
	IntInfinity = int32(0x7f800000) // +Inf as a float
	IntPayload  = int32(0x7fc12345) // a NaN with a payload as a float
)

// CameraClipFields is a camera clip named "CameraCut" on the path "Cam" as
// Unity 2022 compiles it: a streamed field of view (Camera, class 20), a
// streamed integer script property "shot" (keys 3, then the bits of a NaN
// at 0.5 s, then -1 at 1 s), a dense integer "lens" (5, then IntPayload at
// 0.2 s) and a constant one "mode" (IntInfinity), all isIntCurve.
// discrete says the layout has discreteCurveCount (2022.3.19 on): the
// integer curve is then counted there, after the float one.
func CameraClipFields(discrete bool) F {
	f := math.Float32bits
	var w []uint32
	key := func(i uint32, c3 uint32) { w = append(w, i, 0, 0, 0, c3) }
	w = append(w, f(-math.MaxFloat32), 2)
	key(0, f(60))
	key(1, 3)
	w = append(w, f(0.5), 2)
	key(0, f(40))
	key(1, uint32(IntQuietNaN))
	w = append(w, f(1), 1)
	key(1, 0xffffffff) // IntMinusOne
	w = append(w, f(float32(math.Inf(1))), 0)
	sc := F{"data": w, "curveCount": 2, "discreteCurveCount": 0}
	if discrete {
		sc["curveCount"], sc["discreteCurveCount"] = 1, 1
	}
	bits := func(i int32) float32 { return math.Float32frombits(uint32(i)) }
	binding := func(class int, attr uint32, isInt bool) F {
		b := F{"path": model.PathHash("Cam"), "attribute": attr, "script": F{"m_FileID": 0, "m_PathID": 0},
			"typeID": class, "classID": class}
		if isInt {
			b["isIntCurve"] = 1
		}
		return b
	}
	return F{
		"m_Name":       "CameraCut",
		"m_SampleRate": float32(30),
		"m_MuscleClip": F{
			"m_Clip": F{"data": F{
				"m_StreamedClip": sc,
				"m_DenseClip": F{"m_FrameCount": 3, "m_CurveCount": 1, "m_SampleRate": float32(10),
					"m_SampleArray": []float32{bits(5), bits(5), bits(IntPayload)}},
				"m_ConstantClip": F{"data": []float32{bits(IntInfinity)}},
			}},
			"m_StopTime": float32(2),
		},
		"m_ClipBindingConstant": F{"genericBindings": []any{
			binding(20, model.PathHash("field of view"), false),
			binding(114, model.PathHash("shot"), true),
			binding(114, model.PathHash("lens"), true),
			binding(114, model.PathHash("mode"), true),
		}},
	}
}

// Stage clip paths: GameObjects no character of the synthetic scene has.
const (
	StageCamPath   = "Stage/Cam"
	StageLightPath = "Stage/Light"
)

// StageClipFields is a stage clip named "StageCut" whose GameObjects no
// character of the scene has: the camera's position (dense: x is 0, 1, 2
// at 0, 0.1, 0.2 s; y and z 0) with its field of view (40°) and near
// plane (0.1), and a light's intensity (2.5), bound by path hashes alone
// as Unity compiles them.
func StageClipFields() F {
	binding := func(path string, class int, attr uint32) F {
		return F{"path": model.PathHash(path), "attribute": attr, "script": F{"m_FileID": 0, "m_PathID": 0},
			"typeID": class, "classID": class}
	}
	return F{
		"m_Name":       "StageCut",
		"m_SampleRate": float32(10),
		"m_MuscleClip": F{
			"m_Clip": F{"data": F{
				"m_StreamedClip": F{"data": []uint32{}, "curveCount": 0, "discreteCurveCount": 0},
				"m_DenseClip": F{"m_FrameCount": 3, "m_CurveCount": 3, "m_SampleRate": float32(10),
					"m_SampleArray": []float32{0, 0, 0, 1, 0, 0, 2, 0, 0}},
				"m_ConstantClip": F{"data": []float32{40, 0.1, 2.5}},
			}},
			"m_StopTime": float32(0.2),
		},
		"m_ClipBindingConstant": F{"genericBindings": []any{
			binding(StageCamPath, model.ClassTransform, uint32(model.PropPosition)),
			binding(StageCamPath, 20, model.PathHash("field of view")),
			binding(StageCamPath, 20, model.PathHash("near clip plane")),
			binding(StageLightPath, 108, model.PathHash("m_Intensity")),
		}},
	}
}
