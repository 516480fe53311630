//go:build !unix

package boundfile_test

// processCPU is unavailable here; benchmarks report wall time only.
func processCPU() int64 { return 0 }
