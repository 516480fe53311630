package compiled

import (
	"encoding/binary"
	"testing"

	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/internal/fuzzcount"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/typetree"
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
		for _, o := range smallCorpusObjects(f, model.ClassAnimationClip) {
			sc := o.V.Path("m_MuscleClip", "m_Clip", "data", "m_StreamedClip")
			w := uint32s(sc.Field("data"))
			if len(w) > 1<<14 {
				continue
			}
			f.Add(wordsToBytes(w), uint16(sc.Field("curveCount").Uint()))
		}
	}
	count := fuzzcount.Counter("FuzzStreamedClip")
	f.Fuzz(func(t *testing.T, data []byte, curves uint16) {
		count()
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

// FuzzCompiledObjects mutates the bytes of real clips, avatars and
// controllers, decodes them with their real type trees and converts what
// decodes: the converters must never panic or allocate without bound on
// values that contradict themselves.
func FuzzCompiledObjects(f *testing.F) {
	type entry struct {
		layout *typetree.Layout
		order  binary.ByteOrder
	}
	layouts := map[uint8]entry{}
	classes := []int32{model.ClassAnimationClip, model.ClassAvatar, model.ClassAnimatorController, model.ClassAnimator}
	if _, ok := corpustest.Lookup(); ok {
		for k, cid := range classes {
			for _, o := range smallCorpusObjects(f, cid) {
				l, err := o.File.F.Layout(o.File.F.TypeOf(o.Obj))
				if err != nil {
					continue
				}
				if _, ok := layouts[uint8(k)]; !ok {
					layouts[uint8(k)] = entry{l, o.File.F.ByteOrder()}
				}
				if o.Obj.Size > 64<<10 || layouts[uint8(k)].layout != l {
					continue
				}
				b, err := o.File.F.ReadObject(o.Obj)
				if err == nil {
					f.Add(uint8(k), b)
				}
			}
		}
	}
	count := fuzzcount.Counter("FuzzCompiledObjects")
	f.Fuzz(func(t *testing.T, k uint8, data []byte) {
		count()
		e, ok := layouts[k%uint8(len(classes))]
		if !ok {
			return
		}
		v, err := e.layout.Decode(data, e.order)
		if v == nil || err != nil && v.Kind() != typetree.KindStruct {
			return
		}
		switch classes[k%uint8(len(classes))] {
		case model.ClassAnimationClip:
			if c, err := Clip(v, ""); err == nil {
				for i := range c.Curves {
					c.Curves[i].Eval(0.5)
				}
			}
		case model.ClassAvatar:
			Avatar(v, "")
		case model.ClassAnimatorController:
			Controller(v, "")
		case model.ClassAnimator:
			Animator(v)
		}
	})
}
