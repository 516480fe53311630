package humanoid

import (
	"syscall"
	"unsafe"
)

// threadCPU returns the calling OS thread's CPU time in nanoseconds
// (CLOCK_THREAD_CPUTIME_ID), so benchmarks on a shared, loaded machine can
// report time actually spent computing rather than time waiting for a core.
func threadCPU() int64 {
	var ts syscall.Timespec
	const clockThreadCPUTimeID = 3
	syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0)
	return ts.Nano()
}
