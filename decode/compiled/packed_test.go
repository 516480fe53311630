package compiled

import (
	"encoding/binary"
	"errors"
	"math"
	"runtime"
	"testing"

	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/typetree"
)

// bitWriter is the inverse of bitReader, for building test data.
type bitWriter struct {
	data []byte
	pos  int
}

func (w *bitWriter) write(x uint32, n int) {
	for i := 0; i < n; i++ {
		if w.pos>>3 >= len(w.data) {
			w.data = append(w.data, 0)
		}
		w.data[w.pos>>3] |= byte(x>>i&1) << (w.pos & 7)
		w.pos++
	}
}

// packQuat packs q as the format stores it (see unpackQuats).
func packQuat(w *bitWriter, q [4]float32) {
	big := 0
	for j := 1; j < 4; j++ {
		if math.Abs(float64(q[j])) > math.Abs(float64(q[big])) {
			big = j
		}
	}
	flags := uint32(big)
	if q[big] < 0 {
		flags |= 4
	}
	w.write(flags, 3)
	for j := 0; j < 4; j++ {
		if j == big {
			continue
		}
		bits := 10
		if (big+1)%4 == j {
			bits = 9
		}
		s := min(max((float64(q[j])+1)*0.5, 0), 1)
		w.write(uint32(s*float64(uint32(1)<<bits-1)), bits)
	}
}

const compressedOutline = `
CompressedAnimationCurve Base
  string m_Path
    Array Array array align
      int size 4
      char data 1
  PackedBitVector m_Times
    UInt32 m_NumItems 4
    vector m_Data
      Array Array array align
        int size 4
        UInt8 data 1
    UInt8 m_BitSize 1 align
  PackedBitVector m_Values
    UInt32 m_NumItems 4
    vector m_Data
      Array Array array align
        int size 4
        UInt8 data 1
  PackedBitVector m_Slopes
    UInt32 m_NumItems 4
    float m_Range 4
    float m_Start 4
    vector m_Data
      Array Array array align
        int size 4
        UInt8 data 1
    UInt8 m_BitSize 1 align
  int m_PreInfinity 4
  int m_PostInfinity 4
`

// TestCompressedRotationCurve packs keys the way the format says and checks
// the decoded curves: times to the hundredth, quaternions to their 9-10 bit
// quantisation, slopes to their 6-bit quantisation.
func TestCompressedRotationCurve(t *testing.T) {
	quats := [][4]float32{}
	for _, deg := range []geom.Vec3{geom.V3(0, 0, 0), geom.V3(10, 80, -30), geom.V3(-170, 20, 5), geom.V3(45, -135, 90)} {
		q := geom.FromEuler(deg, geom.OrderZXY)
		quats = append(quats, [4]float32{q.X, q.Y, q.Z, q.W})
	}
	times := []uint32{0, 25, 50, 125} // hundredths of a second, as deltas: 0, 0.25, 0.75, 2
	slopes := make([]float32, 8*len(quats))
	for i := range slopes {
		slopes[i] = float32(i%9) - 4
	}
	for _, split := range []bool{false, true} {
		ns := 4 * len(quats)
		if split {
			ns = 8 * len(quats)
		}
		e := &enc{}
		e.str("Root/Bone")
		tw := &bitWriter{}
		for _, x := range times {
			tw.write(x, 7)
		}
		e.u32(uint32(len(times)))
		e.u32(uint32(len(tw.data)))
		e.b = append(e.b, tw.data...)
		e.align()
		e.u8(7)
		e.align()
		qw := &bitWriter{}
		for _, q := range quats {
			packQuat(qw, q)
		}
		e.u32(uint32(len(quats)))
		e.u32(uint32(len(qw.data)))
		e.b = append(e.b, qw.data...)
		e.align()
		sw := &bitWriter{}
		for _, s := range slopes[:ns] {
			sw.write(uint32(math.Round(float64(s+4)/8*63)), 6)
		}
		e.u32(uint32(ns))
		e.f32(8)
		e.f32(-4)
		e.u32(uint32(len(sw.data)))
		e.b = append(e.b, sw.data...)
		e.align()
		e.u8(6)
		e.align()
		e.u32(uint32(model.InfinityClamp))
		e.u32(uint32(model.InfinityLoop))
		v, err := typetree.Decode(buildTree(t, compressedOutline), e.b, binary.LittleEndian)
		if err != nil {
			t.Fatal(err)
		}
		curves, err := compressedRotationCurve(v)
		if err != nil {
			t.Fatal(err)
		}
		wantTimes := []float32{0, 0.25, 0.75, 2}
		for c := 0; c < 4; c++ {
			cv := curves[c]
			if cv.PreInfinity != model.InfinityClamp || cv.PostInfinity != model.InfinityLoop {
				t.Errorf("infinities %d %d", cv.PreInfinity, cv.PostInfinity)
			}
			for i, k := range cv.Keys {
				if k.Time != wantTimes[i] {
					t.Errorf("key %d time %g, want %g", i, k.Time, wantTimes[i])
				}
				if d := math.Abs(float64(k.Value - quats[i][c])); d > 2.0/511 {
					t.Errorf("split=%v key %d component %d: %g, want %g", split, i, c, k.Value, quats[i][c])
				}
				in, out := slopes[i*4+c], slopes[i*4+c]
				if split {
					out = slopes[(i+len(quats))*4+c]
				}
				if math.Abs(float64(k.InSlope-in)) > 8.0/63 || math.Abs(float64(k.OutSlope-out)) > 8.0/63 {
					t.Errorf("split=%v key %d component %d slopes %g %g, want %g %g", split, i, c, k.InSlope, k.OutSlope, in, out)
				}
			}
		}
	}
}

// TestPackedVectorsTooShort: counts that claim more bits than the data
// holds are errors, not reads past the end.
func TestPackedVectorsTooShort(t *testing.T) {
	e := &enc{}
	e.str("x")
	e.u32(1000) // 1000 times of 7 bits
	e.u32(1)
	e.b = append(e.b, 0)
	e.align()
	e.u8(7)
	e.align()
	for i := 0; i < 2; i++ { // empty values and slopes
		e.u32(0)
		if i == 1 {
			e.f32(0)
			e.f32(0)
		}
		e.u32(0)
		if i == 1 {
			e.u8(0)
			e.align()
		}
	}
	e.u32(2)
	e.u32(2)
	v, err := typetree.Decode(buildTree(t, compressedOutline), e.b, binary.LittleEndian)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := compressedRotationCurve(v); err == nil {
		t.Fatal("no error for 1000 items in 1 byte")
	}
}

// TestZeroBitPackedCountsAreBounded: a vector of 0-bit items fits any item
// count in no data; a huge count there must be an error before anything is
// allocated for it (it made the decoder ask for 16 GiB).
func TestZeroBitPackedCountsAreBounded(t *testing.T) {
	for _, tc := range []struct {
		name   string
		times  uint32
		slopes uint32
	}{
		{"times", 0xFFFFFFFF, 0},
		{"slopes", 0, 0xFFFFFFFF},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := &enc{}
			e.str("x")
			e.u32(tc.times) // times: n items of 0 bits, no data
			e.u32(0)
			e.u8(0)
			e.align()
			e.u32(0) // no values
			e.u32(0)
			e.u32(tc.slopes) // slopes: n items of 0 bits
			e.f32(0)
			e.f32(0)
			e.u32(0)
			e.u8(0)
			e.align()
			e.u32(2)
			e.u32(2)
			v, err := typetree.Decode(buildTree(t, compressedOutline), e.b, binary.LittleEndian)
			if err != nil {
				t.Fatal(err)
			}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err = compressedRotationCurve(v)
			runtime.ReadMemStats(&after)
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("err = %v, want ErrMalformed", err)
			}
			if a := after.TotalAlloc - before.TotalAlloc; a > 1<<20 {
				t.Fatalf("allocated %d bytes before failing", a)
			}
			if _, err := unpackInts(v.Field("m_Times")); tc.times != 0 && !errors.Is(err, ErrMalformed) {
				t.Fatalf("unpackInts: err = %v, want ErrMalformed", err)
			}
		})
	}
}
