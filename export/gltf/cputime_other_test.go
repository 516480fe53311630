//go:build !linux

package gltf

// processCPU is unavailable here; benchmarks report wall time only.
func processCPU() int64 { return 0 }
