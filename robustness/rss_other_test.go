//go:build !unix

package robustness

import "os"

// peakRSS returns 0: the system does not say.
func peakRSS(ps *os.ProcessState) int64 { return 0 }
