//go:build race

package unityfs_test

// raceEnabled reports a build with the race detector, whose shadow memory
// makes a process's RSS say nothing about what the code under test holds.
const raceEnabled = true
