//go:build !unix

package main

// processCPU is unavailable here; benchmarks report wall time only.
func processCPU() int64 { return 0 }
