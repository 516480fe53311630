//go:build !linux

package humanoid

// threadCPU is unavailable here; benchmarks report wall time only.
func threadCPU() int64 { return 0 }
