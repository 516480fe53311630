package anim

import (
	"runtime"
	"testing"
	"unsafe"

	"github.com/mecanim/mecanim/model"
)

// keyBytes is the size of a decoded clip's key data: 20 bytes a streamed
// segment (time and cubic), 4 a dense sample or a constant, a Keyframe's
// size a key.
func keyBytes(c *model.Clip) int {
	n := 0
	for i := range c.Curves {
		cv := &c.Curves[i]
		n += 20*len(cv.Segments) + 4*len(cv.Samples) + int(unsafe.Sizeof(model.Keyframe{}))*len(cv.Keys)
		if cv.Kind == model.CurveConstant {
			n += 4
		}
	}
	return n
}

// retained is the heap a value made by mk keeps alive: 16 are made and
// kept, the heap's growth divided by 16.
func retained(mk func() any) float64 {
	keep := make([]any, 16)
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&m0)
	for i := range keep {
		keep[i] = mk()
	}
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&m1)
	runtime.KeepAlive(keep)
	return (float64(m1.HeapAlloc) - float64(m0.HeapAlloc)) / float64(len(keep))
}

// statsClips are clips of every baked form, with what they play on.
func statsClips() []struct {
	name string
	mc   *model.Clip
	sk   *Skeleton
} {
	chain, tree := chainSkeleton(40), treeSkeleton(94)
	withFloats := synthClip(chain, 30, 2, 1, 3)
	for k := 0; k < 20; k++ {
		withFloats.Curves = append(withFloats.Curves, model.Curve{
			Target: model.Target{ClassID: model.ClassSkinnedMeshRenderer, Attribute: uint32(k), Path: "Body", PathKnown: true, Property: "blendShape.Smile"},
			Kind:   model.CurveStreamed, Segments: streamedCurve(wobble(float64(k)), 30, 2)})
	}
	for k := 0; k < 10; k++ {
		withFloats.Events = append(withFloats.Events, model.Event{Time: float32(k) / 5, Function: "Footstep", Data: "left"})
	}
	return []struct {
		name string
		mc   *model.Clip
		sk   *Skeleton
	}{
		{"streamed", synthClip(chain, 30, 4, 1, 1), chain},
		{"keyframe-reduced (grid)", synthClipKeep(chain, 30, 4, 1, 2, 0.7), chain},
		{"dense", synthDenseClip(tree, 30, 3, 2, 5), tree},
		{"floats and events", withFloats, chain},
	}
}

// Stats().Bytes is what a baked clip keeps on the heap (within the
// allocator's rounding, and never less by more than 5%), and a baked clip
// keeps at most twice its key data.
func TestStatsBytesIsWhatAClipKeeps(t *testing.T) {
	for _, k := range statsClips() {
		c, err := Bake(k.mc, k.sk)
		if err != nil {
			t.Fatal(err)
		}
		st := c.Stats().Bytes
		heap := retained(func() any { c, _ := Bake(k.mc, k.sk); return c })
		keys := keyBytes(k.mc)
		t.Logf("%-24s Stats %7d B, heap %9.0f B (%.3f), key data %7d B (%.3f)", k.name, st, heap, heap/float64(st), keys, float64(st)/float64(keys))
		if heap > 1.15*float64(st) || heap < 0.95*float64(st) {
			t.Errorf("%s: the heap keeps %.0f bytes a clip, Stats says %d", k.name, heap, st)
		}
		if st > 2*keys {
			t.Errorf("%s: %d bytes for %d bytes of key data", k.name, st, keys)
		}
	}
}
