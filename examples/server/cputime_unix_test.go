//go:build unix

package main

import "syscall"

// processCPU returns the CPU time the process has used, in nanoseconds (all
// threads: the collector's too), so benchmarks on a shared, loaded machine
// can report time spent computing rather than time waiting for a core.
func processCPU() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
