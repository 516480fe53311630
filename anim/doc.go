// Package anim is the runtime side of clip playback: a Skeleton of joints, a
// clip baked once against it (Bake) into an immutable Clip that any number of
// goroutines sample at the same time, playback-time arithmetic (Advance,
// root motion, events) and pose math (local to model space, blending,
// additive layers).
//
// # Baked form
//
// Bake resolves every channel of a model.Clip to a joint (by path, or by
// path hash when the path is not known) or to a float track, once. Constant
// channels are folded into a base pose that Sample copies, so they cost
// nothing per sample. Animated channels keep the form that evaluates exactly
// as model.(*Curve).Eval does:
//
//   - streamed curves keep their cubic segments (bit-for-bit the same
//     arithmetic as model.EvalSegment);
//   - unweighted keyframed curves become cubic segments (a Hermite segment is
//     a cubic in time, so this is exact up to float32 rounding of the
//     coefficients); loop and ping-pong infinities are mapped per track;
//   - weighted keyframed segments (Bezier in time and value, not a cubic in
//     time) are resampled into cubic segments, halving the worst-fitting
//     piece until every piece is within 1e-6 of the span of the segment's
//     values, or, where float32 cannot resolve that (values large against
//     their span), within four float32 steps of its largest value (checked
//     on the exact curve at bake time, at float32 times with the sampler's
//     float32 arithmetic; at most 256 pieces a segment);
//   - dense curves keep their float32 samples, those over the same frames
//     together (frame-major), so a sample finds its frame once per group.
//     (Packing unit rotations into 8 bytes a frame halved their memory but
//     doubled the cost of sampling them: decoding the largest component
//     takes a square root per frame read.)
//
// Rotations are evaluated per component and normalised, as the decoded
// curves are; Euler channels (degrees) are converted with their rotation
// order after evaluation.
//
// # Finding keys
//
// Keys are found in constant time through an index, never a cursor, so
// Sample keeps nothing between calls, allocates nothing and is safe for
// concurrent use; a random seek costs what a forward step costs.
//
//   - Channels whose key times are identical share one timeline: a lookup
//     per timeline, and the coefficients of all its channels for one key
//     are adjacent (key-major), so a sample reads one block per timeline.
//   - A timeline of more than eight keys carries an index of one int32 per
//     key: its span cut into as many uniform slices as it has keys, each
//     slice naming the last key whose slice is before it. A lookup is one
//     multiply, one read and, with keys spread evenly, about one step
//     forward (two branch-free steps, then a loop that rarely runs; a NaN
//     sentinel after the last key ends every walk). Shorter timelines
//     binary-search.
//   - Channels alone on their timeline ("solos", what keyframe reduction
//     leaves) keep each key's time beside its coefficients. When the union
//     of their key times is small (at most 4 entries per solo key, as when
//     keys sit on a common frame grid) the clip keeps that union as a grid
//     with its own index and a key map of one uint16 per solo per grid
//     time: a sample finds its grid time once and then reads every solo's
//     key from one contiguous row, without branches. Otherwise each solo
//     is looked up through its own index.
//
// # Time
//
// A Clip's own time runs from 0 to Duration. Sample clamps t into that range
// and evaluates the curves at Start+t (clamped to the model clip's Stop).
// Event times are in the same 0..Duration time.
package anim
