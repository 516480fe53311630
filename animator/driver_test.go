package animator

import (
	"math"
	"math/rand/v2"
	"testing"
)

// repeat is n frames of dt seconds.
func repeat(n int, dt float64) []float64 {
	f := make([]float64, n)
	for i := range f {
		f[i] = dt
	}
	return f
}

// jittered is n frame times of whole ten-thousandths of a second, each
// within ±jitter of total/n, adding up to total ten-thousandths.
func jittered(seed uint64, n, total, jitter int) []float64 {
	r := rand.New(rand.NewPCG(seed, 1))
	ticks := make([]int, n)
	left := total
	for i := range ticks {
		ticks[i] = total/n + r.IntN(2*jitter+1) - jitter
		left -= ticks[i]
	}
	for i := 0; left != 0; i = (i + 1) % n { // spread the remainder back
		d := max(-jitter, min(jitter, left))
		if ticks[i]+d > 0 {
			ticks[i] += d
			left -= d
		}
	}
	f := make([]float64, n)
	for i, k := range ticks {
		f[i] = float64(k) / 10000
	}
	return f
}

// TestDriverTickRunsEveryWholeStep proves that frame times adding up to a
// whole number of steps run exactly that many, whatever their size or
// order: a float32 step (1/60 rounds up) or a float64 sum of decimal frame
// times (ten 0.1 s frames add up to just under 1 s) would drop the last.
func TestDriverTickRunsEveryWholeStep(t *testing.T) {
	cases := []struct {
		name   string
		rate   float64
		frames []float64
		want   uint64
	}{
		{"1/30 s frames at 60 Hz", 60, repeat(30, 1.0/30), 60},
		{"1/60 s frames at 60 Hz", 60, repeat(60, 1.0/60), 60},
		{"1/144 s frames at 60 Hz", 60, repeat(144, 1.0/144), 60},
		{"0.1 s frames at 60 Hz", 60, repeat(10, 0.1), 60},
		{"0.25 s frames at 60 Hz", 60, repeat(4, 0.25), 60},
		{"1/60 s frames at 30 Hz", 30, repeat(60, 1.0/60), 30},
		{"0.02 s frames at 50 Hz", 50, repeat(50, 0.02), 50},
		{"1/60 s frames at 144 Hz", 144, repeat(60, 1.0/60), 144},
		{"0.1 s frames at 30 Hz", 30, repeat(10, 0.1), 30},
		{"1/7 s frames at 60 Hz", 60, repeat(7, 1.0/7), 60},
		{"jittered around 1/60 s, 1 s", 60, jittered(1, 60, 10000, 40), 60},
		{"jittered around 1/144 s, 1 s", 60, jittered(2, 144, 10000, 20), 60},
		{"jittered 5 to 45 ms, 1 s", 60, jittered(3, 40, 10000, 200), 60},
		{"jittered around 0.1 s at 30 Hz, 1 s", 30, jittered(4, 10, 10000, 300), 30},
		{"an hour of 1/144 s frames at 60 Hz", 60, repeat(144*3600, 1.0/144), 60 * 3600},
		{"an hour of 0.1 s frames at 60 Hz", 60, repeat(10*3600, 0.1), 60 * 3600},
	}
	for _, k := range cases {
		t.Run(k.name, func(t *testing.T) {
			d := NewDriver(k.rate)
			var sum float64
			for _, f := range k.frames {
				sum += f
				d.Tick(f)
			}
			if got := d.Steps(); got != k.want {
				t.Errorf("%d frames adding up to %.17g s ran %d steps, want %d (alpha %g)", len(k.frames), sum, got, k.want, d.Alpha())
			}
			if a := d.Alpha(); a > 1e-6 {
				t.Errorf("alpha %g after whole steps, want 0", a)
			}
		})
	}
}

// TestDriverTickKeepsFractions proves that time short of a step waits in
// Alpha (in [0, 1)) for the next tick, and that a tick runs at most
// MaxStepsPerTick steps, dropping the whole steps beyond.
func TestDriverTickKeepsFractions(t *testing.T) {
	d := NewDriver(60)
	if n := d.Tick(1.0 / 120); n != 0 || math.Abs(float64(d.Alpha())-0.5) > 1e-6 {
		t.Errorf("half a step: %d steps, alpha %g; want 0, 0.5", n, d.Alpha())
	}
	if n := d.Tick(1.0 / 120); n != 1 || d.Alpha() > 1e-6 {
		t.Errorf("second half: %d steps, alpha %g; want 1, 0", n, d.Alpha())
	}
	if n := d.Tick(100.25 / 60); n != MaxStepsPerTick || math.Abs(float64(d.Alpha())-0.25) > 1e-6 {
		t.Errorf("100.25 steps at once: %d steps, alpha %g; want %d, 0.25", n, d.Alpha(), MaxStepsPerTick)
	}
	if n := d.Tick(0.75 / 60); n != 1 {
		t.Errorf("after the cap, the kept fraction and 0.75 ran %d steps, want 1", n)
	}
	d.Tick(math.Nextafter(1.0/60, 0)) // just short of a step, within the slack: runs
	if a := d.Alpha(); !(a >= 0 && a < 1) {
		t.Errorf("alpha %g outside [0, 1)", a)
	}
}

// TestDriverRecoversFromNonFiniteTime proves that an infinite or NaN frame
// time (or a zero-value Driver) neither runs unbounded steps nor stops the
// driver for good.
func TestDriverRecoversFromNonFiniteTime(t *testing.T) {
	for _, bad := range []float64{math.Inf(1), math.NaN(), math.Inf(-1), -1, 0, math.MaxFloat64} {
		d := NewDriver(60)
		if n := d.Tick(bad); n > MaxStepsPerTick {
			t.Errorf("Tick(%g) ran %d steps", bad, n)
		}
		if n := d.Tick(1.0 / 60); n != 1 {
			t.Errorf("after Tick(%g), a 1/60 s frame ran %d steps, want 1", bad, n)
		}
		if a := d.Alpha(); !(a >= 0 && a < 1) {
			t.Errorf("after Tick(%g), alpha %g", bad, a)
		}
	}
	var zero Driver
	if n := zero.Tick(1); n != 0 || zero.Alpha() != 0 {
		t.Errorf("zero Driver ran %d steps, alpha %g", n, zero.Alpha())
	}
}
