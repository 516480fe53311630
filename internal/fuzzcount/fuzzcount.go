// Package fuzzcount lets a fuzz campaign count its executions exactly.
// `go test -fuzz` adds a worker's executions to the count it prints only
// when the worker reports back, which a worker finding nothing new does
// late or never, so the printed count can be thousands of times too low.
// With MECANIM_FUZZ_COUNT set to a directory, each fuzz process writes its
// own count there (every 1,000 inputs and every second); the campaign sums
// the files afterwards.
package fuzzcount

import (
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"
)

// Env names the directory the counts are written to.
const Env = "MECANIM_FUZZ_COUNT"

// Counter returns the function a fuzz target calls once per input. Without
// MECANIM_FUZZ_COUNT it does nothing.
func Counter(target string) func() {
	dir := os.Getenv(Env)
	if dir == "" {
		return func() {}
	}
	var n, last atomic.Int64
	var lastWrite atomic.Int64
	path := filepath.Join(dir, fmt.Sprintf("%s.%d", target, os.Getpid()))
	return func() {
		c := n.Add(1)
		now := time.Now().UnixNano()
		if c-last.Load() >= 1000 || now-lastWrite.Load() > int64(time.Second) {
			last.Store(c)
			lastWrite.Store(now)
			_ = os.WriteFile(path, []byte(fmt.Sprint(c)), 0o644)
		}
	}
}
