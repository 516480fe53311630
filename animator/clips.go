package animator

import (
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
)

// Clips tells an Animator what it needs to know of a controller's clips,
// by controller clip index (Controller.Clips). The state machine needs only
// this, not the poses, so it runs without sampling anything.
type Clips interface {
	// ClipLength is the clip's length in seconds; 0 for a null or unknown
	// clip (which then adds nothing to a state's length).
	ClipLength(i int) float32
	// ClipLoops reports whether the clip loops: its Loop Time setting (the
	// Animator ignores a legacy clip's wrap mode).
	ClipLoops(i int) bool
	// ClipEvents returns the clip's events sorted by time.
	ClipEvents(i int) []model.Event
}

// RootMotionClips is Clips that can also say how the clip's root moved
// between two clip times across a number of whole loops. An Animator built
// over one accumulates root motion; over plain Clips its root motion is
// zero.
type RootMotionClips interface {
	Clips
	ClipRootMotion(i int, from, to float32, loops int) (geom.Vec3, geom.Quat)
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

// RootSourceClips is RootMotionClips that also says, per clip, whether and
// from which joint it moves the root. Over plain RootMotionClips every clip
// counts as moving the root and skeleton masks do not weigh it.
type RootSourceClips interface {
	RootMotionClips
	ClipRootSource(i int) RootSource
}

// ClipTable is Clips from plain slices (any of them may be shorter than the
// controller's clip list; missing entries read as zero).
type ClipTable struct {
	Lengths []float32
	Loop    []bool
	Events  [][]model.Event
}

// ClipLength implements Clips.
func (t *ClipTable) ClipLength(i int) float32 {
	if i < 0 || i >= len(t.Lengths) || !(t.Lengths[i] > 0) {
		return 0
	}
	return t.Lengths[i]
}

// ClipLoops implements Clips.
func (t *ClipTable) ClipLoops(i int) bool { return i >= 0 && i < len(t.Loop) && t.Loop[i] }

// ClipEvents implements Clips.
func (t *ClipTable) ClipEvents(i int) []model.Event {
	if i < 0 || i >= len(t.Events) {
		return nil
	}
	return t.Events[i]
}

// TableFromModel builds a ClipTable from decoded clips parallel to
// Controller.Clips (nil for a null or unresolved slot): each clip's length,
// its Loop Time setting and its events (sorted by time). It agrees with
// AnimClips and HumanoidClips over the same clips baked: Mecanim loops a
// clip by its Loop Time setting alone (a legacy wrap mode does not count),
// and a zero-length clip lasts one frame, as anim.Clip.Duration says.
func TableFromModel(clips []*model.Clip) *ClipTable {
	t := &ClipTable{
		Lengths: make([]float32, len(clips)),
		Loop:    make([]bool, len(clips)),
		Events:  make([][]model.Event, len(clips)),
	}
	for i, c := range clips {
		if c == nil {
			continue
		}
		t.Lengths[i] = clipDuration(c)
		t.Loop[i] = c.Settings.LoopTime
		ev := append([]model.Event(nil), c.Events...)
		sortEvents(ev)
		t.Events[i] = ev
	}
	return t
}

// clipDuration is c's length as anim.Bake gives it: Stop - Start, or one
// frame (1/SampleRate, 1/60 s without a usable rate) for a zero-length clip.
func clipDuration(c *model.Clip) float32 {
	if l := c.Stop - c.Start; l > 0 && geom.Finite(l) {
		return l
	}
	if f := 1 / c.SampleRate; f > 0 && geom.Finite(f) {
		return f
	}
	return 1.0 / 60
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
