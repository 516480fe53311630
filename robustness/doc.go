// Package robustness holds the corruption sweeps. The library sweep feeds
// every command's library path truncated and bit-flipped copies of real
// and generated Unity files, checking that bad input gives errors, never a
// panic, a hang or an unbounded allocation. The command-line sweep runs the
// mecanim binary on copies of corpus files damaged one field at a time
// (counts and sizes found by walking the type trees, header and directory
// fields, serialized files cut short, NaN and infinities in animation
// floats) and holds every command to the project's rule: exit status 0 only
// with the undamaged file's output, else exit status 1 with a message that
// names the file and an object or an offset. It has no code of its own
// outside its tests.
package robustness
