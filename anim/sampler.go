package anim

import "github.com/mecanim/mecanim/geom"

// Sampler is a clip bound to a skeleton: what every consumer of poses (a
// controller's layers, a recorder of humanoid clips, an exporter, a
// picture) plays. A Clip is one; so is a humanoid clip baked onto a rig.
type Sampler interface {
	// Duration is how long the clip plays, in seconds (never 0).
	Duration() float32
	// Sample writes the skeleton's local pose at time t (clamped into
	// [0, Duration]) into dst, which holds at least one transform per
	// joint.
	Sample(t float32, dst []geom.Transform)
	// Animates reports which properties of joint j the clip drives: what
	// a layer playing it overrides (0 for a joint it leaves at rest).
	Animates(j int) Props
}

// RootMover is a clip that carries a character through the world: how its
// root moved between two clip times across whole loops (see
// Clip.ExtractRootMotion for the convention). A Clip is one; so is a
// humanoid clip (its body's motion).
type RootMover interface {
	ExtractRootMotion(from, to float32, loops int) RootMotion
}

var (
	_ Sampler   = (*Clip)(nil)
	_ RootMover = (*Clip)(nil)
)
