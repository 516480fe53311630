package anim

import (
	"math/rand"
	"runtime"
	"testing"
	"unsafe"

	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
)

// benchClip bakes the synthetic clip: joints joints (the root GameObject and
// a chain below it), each below the root with 4 streamed rotation curves and
// 3 streamed translation curves at 30 fps × keysMul, constant scale, over
// 4 seconds.
func benchClip(b *testing.B, joints, keysMul int) (*Clip, *Skeleton) {
	b.Helper()
	sk := chainSkeleton(joints)
	c, err := Bake(synthClip(sk, 30, 4, keysMul, 7), sk)
	if err != nil {
		b.Fatal(err)
	}
	return c, sk
}

// measure runs body b.N times on one locked OS thread and reports, besides
// wall time, the thread's CPU time per op and per unit ("cpu-ns/<unit>"):
// on a machine shared with other jobs wall time includes waiting for a
// core, CPU time does not.
func measure(b *testing.B, units int, unit string, body func(i int)) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ReportAllocs()
	b.ResetTimer()
	c0 := threadCPU()
	for i := 0; i < b.N; i++ {
		body(i)
	}
	cpu := threadCPU() - c0
	b.StopTimer()
	n := float64(b.N)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n/float64(units), "ns/"+unit)
	if cpu > 0 {
		b.ReportMetric(float64(cpu)/n, "cpu-ns/op")
		b.ReportMetric(float64(cpu)/n/float64(units), "cpu-ns/"+unit)
	}
}

// forward plays at 60 Hz, looping.
func forward(b *testing.B, c *Clip, sk *Skeleton) {
	dst := make([]geom.Transform, sk.Len())
	t := float32(0)
	measure(b, sk.Len(), "joint", func(int) {
		c.Sample(t, dst)
		t, _ = c.Advance(t, 1.0/60, model.WrapLoop)
	})
}

// seek samples at random times (from a table, so the generator is not
// measured).
func seek(b *testing.B, c *Clip, sk *Skeleton) {
	dst := make([]geom.Transform, sk.Len())
	ts := make([]float32, 4096)
	rng := rand.New(rand.NewSource(1))
	for i := range ts {
		ts[i] = rng.Float32() * c.Duration()
	}
	measure(b, sk.Len(), "joint", func(i int) { c.Sample(ts[i&4095], dst) })
}

// BenchmarkSampleForward80 is forward playback at 60 Hz of an 80-joint
// 30 fps clip.
func BenchmarkSampleForward80(b *testing.B) {
	c, sk := benchClip(b, 80, 1)
	forward(b, c, sk)
}

// BenchmarkSampleForward80Reduced is forward playback of the 80-joint clip
// after keyframe reduction kept 70% of each curve's keys at random: every
// curve has its own key times, so each channel does its own key lookup.
func BenchmarkSampleForward80Reduced(b *testing.B) {
	sk := chainSkeleton(80)
	c, err := Bake(synthClipKeep(sk, 30, 4, 1, 7, 0.7), sk)
	if err != nil {
		b.Fatal(err)
	}
	forward(b, c, sk)
}

// BenchmarkSampleRandomSeek80Reduced is random seeking on that clip.
func BenchmarkSampleRandomSeek80Reduced(b *testing.B) {
	sk := chainSkeleton(80)
	c, err := Bake(synthClipKeep(sk, 30, 4, 1, 7, 0.7), sk)
	if err != nil {
		b.Fatal(err)
	}
	seek(b, c, sk)
}

// BenchmarkSampleForward67 is the same on 67 joints (ozz-animation's
// playback sample size).
func BenchmarkSampleForward67(b *testing.B) {
	c, sk := benchClip(b, 67, 1)
	forward(b, c, sk)
}

// BenchmarkSampleRandomSeek samples the 80-joint clip at random times;
// compare with BenchmarkSampleForward80 (the index makes them equal).
func BenchmarkSampleRandomSeek80(b *testing.B) {
	c, sk := benchClip(b, 80, 1)
	seek(b, c, sk)
}

// BenchmarkSampleForward80Keys30x is BenchmarkSampleForward80 with 30
// times the keys (900 keys per second per curve).
func BenchmarkSampleForward80Keys30x(b *testing.B) {
	c, sk := benchClip(b, 80, 30)
	forward(b, c, sk)
}

// BenchmarkSampleRandomSeek80Keys30x is random seeking on 30× the keys.
func BenchmarkSampleRandomSeek80Keys30x(b *testing.B) {
	c, sk := benchClip(b, 80, 30)
	seek(b, c, sk)
}

// character is the whole per-instance playback state: which clip and when.
type character struct {
	t    float32
	clip uint32
}

// BenchmarkCrowd1000 advances and samples 1,000 characters sharing 4
// 80-joint clips at different times; one op is the whole crowd's frame.
func BenchmarkCrowd1000(b *testing.B) {
	sk := chainSkeleton(80)
	var clips [4]*Clip
	for i := range clips {
		c, err := Bake(synthClip(sk, 30, 2+float64(i), 1, int64(i)), sk)
		if err != nil {
			b.Fatal(err)
		}
		clips[i] = c
	}
	crowd := make([]character, 1000)
	rng := rand.New(rand.NewSource(2))
	for i := range crowd {
		crowd[i] = character{t: rng.Float32() * 2, clip: uint32(i % 4)}
	}
	pose := make([]geom.Transform, sk.Len()) // each character's pose goes to its skinning, then is reused
	measure(b, len(crowd), "character", func(int) {
		for k := range crowd {
			ch := &crowd[k]
			c := clips[ch.clip]
			c.Sample(ch.t, pose)
			ch.t, _ = c.Advance(ch.t, 1.0/60, model.WrapLoop)
		}
	})
	b.ReportMetric(float64(unsafe.Sizeof(character{})), "state-bytes/character")
}

// BenchmarkBake80 measures baking the 80-joint clip (done once per clip
// and skeleton).
func BenchmarkBake80(b *testing.B) {
	sk := chainSkeleton(80)
	mc := synthClip(sk, 30, 4, 1, 7)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := Bake(mc, sk); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkUnmarshalClip80 decodes the clip BenchmarkBake80 bakes, and
// BenchmarkUnmarshalClip80Reduced one with keyframe-reduced curves (solos
// through a grid): what loading a saved clip costs against baking it.
func BenchmarkUnmarshalClip80(b *testing.B) {
	sk := chainSkeleton(80)
	unmarshalClip(b, synthClip(sk, 30, 4, 1, 7), sk)
}

func BenchmarkUnmarshalClip80Reduced(b *testing.B) {
	sk := chainSkeleton(80)
	unmarshalClip(b, synthClipKeep(sk, 30, 4, 1, 7, 0.5), sk)
}

func unmarshalClip(b *testing.B, mc *model.Clip, sk *Skeleton) {
	c, err := Bake(mc, sk)
	if err != nil {
		b.Fatal(err)
	}
	data, err := c.MarshalBinary()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := UnmarshalClip(data, sk); err != nil {
			b.Fatal(err)
		}
	}
}

// localToModel composes a pose of sk into model space.
func localToModel(b *testing.B, sk *Skeleton) {
	local := make([]geom.Transform, sk.Len())
	rng := rand.New(rand.NewSource(3))
	for i := range local {
		ax := geom.V3(float32(rng.NormFloat64()), float32(rng.NormFloat64()), float32(rng.NormFloat64())).Normalize()
		local[i] = geom.Transform{T: geom.V3(rng.Float32(), rng.Float32(), rng.Float32()), R: geom.AxisAngle(ax, rng.Float32()), S: geom.V3(1, 1, 1)}
	}
	out := make([]geom.Transform, sk.Len())
	measure(b, sk.Len(), "joint", func(int) { LocalToModel(sk, local, out) })
}

// BenchmarkLocalToModel94 composes a 94-joint humanoid-shaped tree (the
// size of the ozz comparison's dance skeleton) into model space.
func BenchmarkLocalToModel94(b *testing.B) { localToModel(b, treeSkeleton(94)) }

// BenchmarkLocalToModelChain80 composes an 80-joint chain, each joint the
// child of the one before (the longest dependency chain).
func BenchmarkLocalToModelChain80(b *testing.B) { localToModel(b, chainSkeleton(80)) }

// BenchmarkSampleDense94 is forward playback at 60 Hz of a 30 fps dense
// clip on a 94-joint tree, 41 of whose joints are animated (a rotation and
// a translation each, as the ozz comparison's dense dance clip).
func BenchmarkSampleDense94(b *testing.B) {
	sk := treeSkeleton(94)
	c, err := Bake(synthDenseClip(sk, 30, 3, 2, 5), sk)
	if err != nil {
		b.Fatal(err)
	}
	forward(b, c, sk)
}

// BenchmarkSampleDense94Model is BenchmarkSampleDense94 with the pose put
// in model space (LocalToModel).
func BenchmarkSampleDense94Model(b *testing.B) {
	sk := treeSkeleton(94)
	c, err := Bake(synthDenseClip(sk, 30, 3, 2, 5), sk)
	if err != nil {
		b.Fatal(err)
	}
	dst := make([]geom.Transform, sk.Len())
	mst := make([]geom.Transform, sk.Len())
	t := float32(0)
	measure(b, sk.Len(), "joint", func(int) {
		c.Sample(t, dst)
		LocalToModel(sk, dst, mst)
		t, _ = c.Advance(t, 1.0/60, model.WrapLoop)
	})
}
