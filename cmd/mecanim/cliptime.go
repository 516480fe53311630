package main

import (
	"math"
)

// clipTimes maps the times asked for onto a clip of duration d, as an
// Animator plays it: into the clip when it loops (wrapped), clamped to its
// ends when it does not. Each time moved is noted on stderr, so a pose of
// a time the clip does not reach is never shown as if it did.
func clipTimes(e *env, clip string, ts []float32, d float32, loops bool) []float32 {
	out := make([]float32, len(ts))
	for i, t := range ts {
		out[i] = t
		if t >= 0 && t <= d {
			continue
		}
		switch {
		case loops && d > 0:
			w := float32(math.Mod(float64(t), float64(d)))
			if w < 0 {
				w += d
			}
			out[i] = w
			e.notef("time %g is outside clip %q (0 to %g s), which loops: posed at %g s", t, clip, d, w)
		case t < 0:
			out[i] = 0
			e.notef("time %g is before clip %q starts; it does not loop: posed at 0 s", t, clip)
		default:
			out[i] = d
			e.notef("time %g is after clip %q ends (%g s); it does not loop: posed at its end", t, clip, d)
		}
	}
	return out
}
