//go:build !race

package gltf

// raceEnabled is true under the race detector (go test -race).
const raceEnabled = false
