package compiled

import (
	"encoding/binary"
	"testing"

	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/model"
)

// wordsToBytes and bytesToWords convert streamed words for the fuzzer.
func wordsToBytes(w []uint32) []byte {
	b := make([]byte, 4*len(w))
	for i, x := range w {
		binary.LittleEndian.PutUint32(b[4*i:], x)
	}
	return b
}

func bytesToWords(b []byte) []uint32 {
	w := make([]uint32, len(b)/4)
	for i := range w {
		w[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return w
}

// FuzzStreamedClip feeds arbitrary words to DecodeStreamed: it must never
// panic, and what it accepts must be in time order per curve and evaluate.
func FuzzStreamedClip(f *testing.F) {
	f.Add(wordsToBytes(frames(frame(-3.4e38, [5]float32{0, 0, 0, 0, 1}), frame(inf))), uint16(1))
	if _, ok := corpustest.Lookup(); ok {
		for _, o := range corpusObjects(f, model.ClassAnimationClip) {
			sc := o.V.Path("m_MuscleClip", "m_Clip", "data", "m_StreamedClip")
			w := uint32s(sc.Field("data"))
			if len(w) > 1<<14 {
				continue
			}
			f.Add(wordsToBytes(w), uint16(sc.Field("curveCount").Uint()))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, curves uint16) {
		b, err := DecodeStreamed(bytesToWords(data), int(curves))
		if err != nil {
			return
		}
		for i, segs := range b.Curves {
			for j := 1; j < len(segs); j++ {
				if segs[j].Time < segs[j-1].Time {
					t.Fatalf("curve %d out of order", i)
				}
			}
			c := model.Curve{Kind: model.CurveStreamed, Segments: segs}
			c.Eval(0.5)
		}
	})
}
