// Package robustness holds the corruption sweep: every command's library
// path fed truncated and bit-flipped copies of real and generated Unity
// files, checking that bad input gives errors, never a panic, a hang or an
// unbounded allocation. It has no code of its own outside its tests.
package robustness
