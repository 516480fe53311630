package humanoid

import (
	"fmt"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/geom"
)

// plan is the work a pose takes, each list in order (parents first): the
// human nodes whose local rotations it computes, the body nodes whose
// globals it composes (what the centre of mass, the body frame and the
// targets that are not local read, see Rig.compose), and the targets
// (indexes into Rig.targets) it writes.
type plan struct {
	rotate, compose, targets []int32
}

// Part is the share of a rig's pose that some joints of its skeleton need
// (anim.Joints): the human bones written to those joints, the rotations
// they and the body's placement (centre of mass, body frame) read, and no
// work for the human bones outside them. A server reading hitboxes on the
// head, hands and feet skips the fingers, toes, eyes and jaw this way; the
// joints it poses get exactly what Rig.Apply gives them. It is immutable
// and safe for concurrent use.
type Part struct {
	rig    *Rig
	joints *anim.Joints
	plan   plan
}

// Part returns the share of r's pose that the joints j need. It fails when
// j is a part of a skeleton of another size than r's.
func (r *Rig) Part(j *anim.Joints) (*Part, error) {
	if j == nil || j.SkeletonLen() != len(r.parents) {
		n := -1
		if j != nil {
			n = j.SkeletonLen()
		}
		return nil, fmt.Errorf("humanoid: avatar %q: a part of a %d-joint skeleton for a %d-joint rig", r.name, n, len(r.parents))
	}
	return &Part{rig: r, joints: j, plan: r.planFor(j.Has)}, nil
}

// planFor works out the work a pose of the joints has reports takes (nil:
// every joint): the targets written to them; the body nodes composed, those
// the centre of mass and the body frame read whatever the joints, and the
// nodes of targets that are not local, with their ancestors below the hips;
// the rotations of those and of the local targets' bones, with the chain
// parents whose twist they apply. It needs the targets planned (local).
func (r *Rig) planFor(has func(joint int) bool) plan {
	var pl plan
	rotate := make([]bool, len(r.nodes))
	compose := make([]bool, len(r.nodes))
	for _, c := range r.centres {
		for k := 0; k < c.n; k++ {
			compose[c.nodes[k]] = true
		}
	}
	for _, b := range bodyFrameBones {
		if n := r.bone[b]; n >= 0 {
			compose[n] = true
		}
	}
	for ti := range r.targets {
		t := &r.targets[ti]
		if has != nil && !has(t.node) {
			continue
		}
		pl.targets = append(pl.targets, int32(ti))
		if t.local {
			rotate[t.human] = true
			continue
		}
		compose[t.human] = true
		if t.anc >= 0 {
			compose[t.anc] = true
		}
	}
	// Children come after their parents.
	for i := len(r.nodes) - 1; i > r.hips; i-- {
		if compose[i] && r.nodes[i].body {
			compose[r.nodes[i].parent] = true
		}
	}
	for i := len(r.nodes) - 1; i >= 0; i-- {
		if compose[i] && r.nodes[i].body {
			rotate[i] = true
		}
		if rotate[i] && r.nodes[i].from >= 0 {
			rotate[r.nodes[i].from] = true
		}
	}
	for i := range r.nodes {
		if rotate[i] {
			pl.rotate = append(pl.rotate, int32(i))
		}
		if compose[i] && r.nodes[i].body && i > r.hips {
			pl.compose = append(pl.compose, int32(i))
		}
	}
	return pl
}

// Joints returns the joints the part poses.
func (pt *Part) Joints() *anim.Joints { return pt.joints }

// Rig returns the rig the part is of.
func (pt *Part) Rig() *Rig { return pt.rig }

// Apply is Rig.Apply for the part's joints: each gets the pose's human bone
// or its rest transform, as Rig.Apply gives it; the other joints of dst are
// left as they are. It does not allocate.
func (pt *Part) Apply(p *Pose, dst []geom.Transform) {
	r := pt.rig
	for k := 0; k < pt.joints.Len(); k++ {
		i := pt.joints.At(k)
		dst[i] = r.rest[i]
	}
	r.applyHuman(&pt.plan, p, dst)
}

// ApplyHuman is Rig.ApplyHuman for the part's joints: it writes the pose's
// human bones among them and leaves every other joint of dst as it is.
func (pt *Part) ApplyHuman(p *Pose, dst []geom.Transform) {
	pt.rig.applyHuman(&pt.plan, p, dst)
}
