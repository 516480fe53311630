//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package filepool

import "syscall"

// openLimit returns the process's limit on open descriptors (0: unknown).
func openLimit() uint64 {
	var l syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
		return 0
	}
	return uint64(l.Cur)
}
