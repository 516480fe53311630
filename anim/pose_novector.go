//go:build !(goexperiment.simd && amd64)

package anim

import "github.com/mecanim/mecanim/geom"

// haveVectorPose says LocalToModel has a vector form on this build and
// machine (built with GOEXPERIMENT=simd on amd64 with AVX): not here.
const haveVectorPose = false

func localToModelVector(parents []int, local, out []geom.Transform) {
	localToModelScalar(parents, local, out)
}
