//go:build unix

package robustness

import (
	"os"
	"runtime"
	"syscall"
)

// peakRSS returns the most memory a finished child process held at once
// (its maximum resident set size), or 0 when the system does not say.
func peakRSS(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return int64(ru.Maxrss) // bytes
	}
	return int64(ru.Maxrss) << 10 // kilobytes
}
