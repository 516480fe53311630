//go:build race

package lzma_test

// raceEnabled reports a build with the race detector.
const raceEnabled = true
