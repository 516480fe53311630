package compiled

import (
	"errors"
	"math"
	"testing"

	"github.com/mecanim/mecanim/model"
)

// frame encodes one streamed frame: time, then keys of (index, c0..c3).
func frame(t float32, keys ...[5]float32) []uint32 {
	w := []uint32{math.Float32bits(t), uint32(len(keys))}
	for _, k := range keys {
		w = append(w, uint32(int32(k[0])), math.Float32bits(k[1]), math.Float32bits(k[2]), math.Float32bits(k[3]), math.Float32bits(k[4]))
	}
	return w
}

func frames(fs ...[]uint32) []uint32 {
	var w []uint32
	for _, f := range fs {
		w = append(w, f...)
	}
	return w
}

var inf = float32(math.Inf(1))

func TestDecodeStreamed(t *testing.T) {
	valid := frames(
		frame(-math.MaxFloat32, [5]float32{0, 0, 0, 0, 1}, [5]float32{1, 0, 0, 0, 2}),
		frame(0, [5]float32{0, 0, 0, 1, 1}),
		frame(1, [5]float32{1, 0, 0, 0, 5}, [5]float32{0, 0, 0, 0, 2}),
		frame(inf),
	)
	tests := []struct {
		name     string
		words    []uint32
		curves   int
		wantErr  error
		segs     []int // segments per curve
		keysPast int
	}{
		{"empty block", nil, 0, nil, []int{}, 0},
		{"keys split by curve in time order", valid, 2, nil, []int{3, 2}, 0},
		{"keys past the curve count are kept and counted", valid, 1, nil, []int{3}, 2},
		{"time going backwards", frames(frame(1), frame(0), frame(inf)), 0, ErrMalformed, nil, 0},
		{"no +Inf frame", frames(frame(0, [5]float32{0, 0, 0, 0, 1})), 1, ErrMalformed, nil, 0},
		{"words after +Inf", frames(frame(inf), frame(inf)), 0, ErrMalformed, nil, 0},
		{"+Inf frame with keys", frames(frame(inf, [5]float32{0, 0, 0, 0, 1})), 1, ErrMalformed, nil, 0},
		{"key count past the data", []uint32{0, 1000, 0}, 0, ErrMalformed, nil, 0},
		{"negative key count", []uint32{0, 0xFFFFFFFF}, 0, ErrMalformed, nil, 0},
		{"negative curve index", frames(frame(0, [5]float32{-1, 0, 0, 0, 1}), frame(inf)), 1, ErrMalformed, nil, 0},
		{"header cut short", []uint32{0}, 0, ErrMalformed, nil, 0},
		{"NaN time", frames(frame(float32(math.NaN())), frame(inf)), 0, ErrMalformed, nil, 0},
		{"curve count beyond the data", frame(inf), 1 << 30, ErrMalformed, nil, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := DecodeStreamed(tc.words, tc.curves)
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("err = %v, want %v", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(b.Curves) != len(tc.segs) {
				t.Fatalf("%d curves, want %d", len(b.Curves), len(tc.segs))
			}
			for i, n := range tc.segs {
				if len(b.Curves[i]) != n {
					t.Errorf("curve %d: %d segments, want %d", i, len(b.Curves[i]), n)
				}
				for j := 1; j < len(b.Curves[i]); j++ {
					if b.Curves[i][j].Time < b.Curves[i][j-1].Time {
						t.Errorf("curve %d: segments out of order", i)
					}
				}
			}
			if b.KeysPast != tc.keysPast {
				t.Errorf("KeysPast = %d, want %d", b.KeysPast, tc.keysPast)
			}
			n := 0
			for _, s := range b.Past {
				n += len(s)
			}
			if n != tc.keysPast {
				t.Errorf("Past holds %d segments, want %d", n, tc.keysPast)
			}
		})
	}
}

// TestStreamedEvaluation checks the decoded segments evaluate as the
// format says: the initial frame holds, a cubic with per-second slopes.
func TestStreamedEvaluation(t *testing.T) {
	w := frames(
		frame(-math.MaxFloat32, [5]float32{0, 0, 0, 0, 1}),
		frame(0, [5]float32{0, 1, 0, 2, 1}), // 1 + 2dt + dt^3
		frame(2, [5]float32{0, 0, 0, 0, 13}),
		frame(inf),
	)
	b, err := DecodeStreamed(w, 1)
	if err != nil {
		t.Fatal(err)
	}
	c := model.Curve{Kind: model.CurveStreamed, Segments: b.Curves[0]}
	for _, tc := range []struct{ t, want float32 }{{-1, 1}, {0, 1}, {1, 4}, {1.5, 1 + 3 + 3.375}, {2, 13}, {5, 13}} {
		if got := c.Eval(tc.t); got != tc.want {
			t.Errorf("Eval(%g) = %g, want %g", tc.t, got, tc.want)
		}
	}
}
