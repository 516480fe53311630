//go:build !amd64 || purego

package anim

import "github.com/mecanim/mecanim/geom"

// haveVectorPose says LocalToModel composes in vectors on this build
// (amd64 without the purego tag): not here.
const haveVectorPose = false

func localToModelVector(parents []int, local, out []geom.Transform) {
	localToModelScalar(parents, local, out)
}
