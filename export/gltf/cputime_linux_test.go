package gltf

import "syscall"

// processCPU returns the process's user+system CPU time in nanoseconds
// (garbage collection included), so benchmarks on a shared, loaded
// machine can report time spent computing rather than waiting for a core.
func processCPU() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
