//go:build !purego

package anim

import "github.com/mecanim/mecanim/geom"

// haveVectorPose says LocalToModel composes in vectors on this build: on
// amd64, in SSE (which every amd64 processor has), unless built with the
// purego tag.
const haveVectorPose = true

// localToModelSSE composes joints from the first on, as
// localToModelScalar does, each in 4-wide SSE vectors: the same products
// and sums in the same order, lane by lane, so the same result to the bit
// (TestVectorLocalToModelIsScalar). A joint whose parent is the joint
// before it (most are) takes the parent from registers rather than
// reading back what was just stored. It stops at a joint whose parent
// does not come before it and returns that joint's index (len(parents)
// when it composed them all). local and out hold len(parents) transforms.
//
//go:noescape
func localToModelSSE(parents []int, local, out *geom.Transform) int

// localToModelVector is localToModelScalar in SSE.
func localToModelVector(parents []int, local, out []geom.Transform) {
	n := len(parents)
	if n == 0 {
		return
	}
	local, out = local[:n], out[:n]
	i := localToModelSSE(parents, &local[0], &out[0])
	// Parents changed after NewSkeleton checked them: what the scalar
	// form does from there.
	localToModelFrom(parents, local, out, i)
}
