package animator

import (
	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/humanoid"
	"github.com/mecanim/mecanim/model"
)

// Clip is what an Animator, and the posers that pose its skeleton, know of
// one clip of its controller. A controller's clips are a []Clip parallel to
// Controller.Clips (the zero Clip for a null or missing slot), built with
// one of TimingClip, GenericClip and HumanClip per slot: that is the one way
// to give an Animator its clips.
type Clip struct {
	// Length is the clip's length in seconds (model.Clip.Duration); 0 for
	// a null or unknown clip, which then adds nothing to a state's length.
	Length float32
	// Loop is the clip's Loop Time setting (Mecanim ignores a legacy
	// clip's wrap mode).
	Loop bool
	// Events are the clip's events, sorted by time.
	Events []model.Event
	// Pose poses the skeleton the clip was bound to; nil for a clip known
	// by its timing only (posers leave what it would animate at rest).
	Pose anim.Sampler
	// Human is the clip's muscles, body and goals, for HumanPoser; nil for
	// a generic clip.
	Human *humanoid.Clip
	// Root says whether and from where the clip moves the root; Motion
	// measures how (nil: the clip gives no root motion).
	Root   RootSource
	Motion anim.RootMover
}

// RootSource says where a clip's root motion comes from, so that a layer
// takes root motion only from the clips that move the root.
type RootSource struct {
	// Moves reports that the clip animates the root motion joint (for a
	// humanoid clip: the body, RootT and RootQ). A clip that does not adds
	// neither root motion nor weight to its layer, so the layers below keep
	// theirs.
	Moves bool
	// Masked reports that a layer's skeleton mask weighs the motion, by the
	// mask's weight for the joint whose path hash is PathHash (a generic
	// rig's root motion joint); humanoid body motion is never masked so.
	Masked   bool
	PathHash uint32
	// Body reports humanoid body motion: a layer takes it only when its
	// body mask has the Root part (model.HumanMask.Root), as Unity's
	// runtime blends a layer's body motion only then.
	Body bool
}

// TimingClip is a decoded clip known by its timing alone: its length
// (model.Clip.Duration: a zero-length clip lasts one frame), Loop Time and
// events. An Animator over such clips runs its state machines and reports
// events but has no pose and no root motion. A nil clip gives the zero
// Clip.
func TimingClip(c *model.Clip) Clip {
	if c == nil {
		return Clip{}
	}
	ev := append([]model.Event(nil), c.Events...)
	sortEvents(ev)
	return Clip{Length: c.Duration(), Loop: c.Settings.LoopTime, Events: ev}
}

// GenericClip is a clip baked on a skeleton: it poses it, and moves the
// root when it animates the translation or rotation of its root joint, or
// carries RootT and RootQ curves (anim.Clip.ExtractRootMotion), masked by
// the root joint's path. Unity takes a rig's root motion from one joint for
// every clip: root the clips there first (anim.Clip.WithRoot). A nil clip
// gives the zero Clip.
func GenericClip(c *anim.Clip) Clip {
	if c == nil {
		return Clip{}
	}
	out := Clip{Length: c.Duration(), Loop: c.Settings().LoopTime, Events: c.Events(), Pose: c}
	j := c.RootJoint()
	switch {
	case c.HasRootMotionCurves():
		out.Root = RootSource{Moves: true}
		if j >= 0 {
			out.Root.Masked, out.Root.PathHash = true, model.HashOfPath(c.Skeleton().Paths[j])
		}
	case j >= 0 && c.Animates(j)&(anim.PropT|anim.PropR) != 0:
		out.Root = RootSource{Moves: true, Masked: true, PathHash: model.HashOfPath(c.Skeleton().Paths[j])}
	}
	if out.Root.Moves {
		out.Motion = c
	}
	return out
}

// HumanClip is a humanoid clip baked on a rig: it poses the rig (its
// muscles for HumanPoser, its curves on other bones for both posers), and
// moves the root by its body's motion when it has RootT or RootQ curves. A
// nil clip gives the zero Clip.
func HumanClip(c *humanoid.Clip) Clip {
	if c == nil {
		return Clip{}
	}
	b := c.Base()
	out := Clip{Length: c.Duration(), Loop: b.Settings().LoopTime, Events: b.Events(), Pose: c, Human: c}
	if c.MovesBody() {
		out.Root, out.Motion = RootSource{Moves: true, Body: true}, c
	}
	return out
}

// TimingClips is TimingClip of each clip (parallel to Controller.Clips;
// nil for a null or unresolved slot).
func TimingClips(clips []*model.Clip) []Clip {
	out := make([]Clip, len(clips))
	for i, c := range clips {
		out[i] = TimingClip(c)
	}
	return out
}

func sortEvents(ev []model.Event) {
	// Insertion sort: event lists are short and usually sorted already;
	// stable, so equal times keep their authored order.
	for i := 1; i < len(ev); i++ {
		for j := i; j > 0 && ev[j].Time < ev[j-1].Time; j-- {
			ev[j], ev[j-1] = ev[j-1], ev[j]
		}
	}
}
