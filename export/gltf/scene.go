package gltf

import (
	"fmt"
	"math"

	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/model"
)

// SceneOptions choose how BuildScene writes a character's clips.
type SceneOptions struct {
	// Rate is the rate in frames per second of what is resampled
	// (humanoid clips' bones, the tracks Generic and BlendShapes cannot
	// keep exactly); 0: each clip's sample rate (30 without one).
	Rate float32
	// Interpolation, when Linear, writes no CUBICSPLINE track: a track
	// that would be one (see Generic, BlendShapes) is sampled at Rate
	// instead and written LINEAR, for importers that drop cubic tangents
	// (Blender 3.4's keeps the key values and makes Bézier curves of its
	// own between them). Steps and lines stay exact. Any other value
	// keeps the curves' shapes (the default).
	Interpolation Interpolation
	// NoMeshes leaves the meshes out (skeleton and animations only).
	NoMeshes bool
	// Progress, when not nil, is called after each clip (done of total),
	// for progress bars on long exports.
	Progress func(done, total int)
}

// BuildScene gathers a character into a Scene: its GameObjects as nodes
// (node i is joint i of the character's skeleton, at its scene transform),
// the meshes drawn on them, and the clips bound to it. Generic clips keep
// their curves' shapes (Generic), humanoid clips' bones are sampled
// (Sample); with SceneOptions.Interpolation Linear, generic curves are
// sampled too where they are not steps or lines, and each animation's
// Stats.BetweenKeys says how far its sampled tracks put the joints from
// the runtime's pose (measuring it samples each clip once more). What
// cannot be added (a renderer whose mesh is missing, a clip
// bound to another character) is reported in the errors and left out; the
// scene holds the rest. Animations are named as Document writes them: a
// clip's name, made unique.
func BuildScene(ch *bound.Character, motions []*bound.Motion, opts SceneOptions) (*Scene, []error) {
	s := &Scene{Name: ch.Name(), Rig: ch.Rig()}
	var errs []error
	if !opts.NoMeshes {
		m, e := ch.Meshes()
		errs = append(errs, e...)
		s.Meshes = m
	}
	linear := opts.Interpolation == Linear
	sk := ch.Skeleton()
	joints := make([]int, sk.Len())
	for i := range joints {
		joints[i] = i
	}
	for mi, m := range motions {
		if opts.Progress != nil && mi > 0 {
			opts.Progress(mi, len(motions))
		}
		c := m.Clip()
		if m.On() != ch {
			errs = append(errs, fmt.Errorf("clip %q is bound to %s, not %s", c.Name, m.On().Describe(), ch.Describe()))
			continue
		}
		rate := opts.Rate
		if !(rate > 0) {
			rate = clipRate(c)
		}
		var a Animation
		if m.Humanoid() {
			a = Sample(c.Name, m, joints, sk.Rest, rate)
			a.Stats = AnimStats{Humanoid: true, Rate: rate, Resampled: len(a.Tracks), Unresolved: m.Floats().UnresolvedChannels()}
			for _, t := range a.Tracks {
				a.Stats.Keys += len(t.Times)
			}
		} else {
			a, a.Stats = generic(c, m.Generic(), joints, opts.Rate, linear)
		}
		a.addBlendShapes(c, m.Floats(), s.Rig, s.Meshes, rate, linear)
		if linear {
			a.Stats.BetweenKeys = betweenKeys(&a, m, sk)
		}
		if len(a.Tracks) == 0 {
			a.Stats.NothingMoves = nothingMoves(c, &a, ch.Describe())
		}
		a.Motion = m
		s.Animations = append(s.Animations, a)
		if ch.OwnPaths() {
			s.addCameras(CamerasOf(c, s.Rig))
		}
	}
	if opts.Progress != nil {
		opts.Progress(len(motions), len(motions))
	}
	// The names Document would write (see the package comment), so that
	// reports name the animations as the file does.
	var names model.NameSet
	for i := range s.Animations {
		if len(s.Animations[i].Tracks) > 0 {
			s.Animations[i].Name = names.Unique(animationName(s.Animations[i].Name))
		}
	}
	return s, errs
}

// addCameras adds cameras on nodes that have none yet.
func (s *Scene) addCameras(cams []Camera) {
	for _, c := range cams {
		dup := false
		for _, x := range s.Cameras {
			dup = dup || x.Node == c.Node
		}
		if !dup {
			s.Cameras = append(s.Cameras, c)
		}
	}
}

// addBlendShapes adds the clip's blend-shape weights tracks: exact where
// the curves allow (BlendShapes) and, when linear, they need no cubic
// spline; resampled at rate otherwise.
func (a *Animation) addBlendShapes(c *model.Clip, fs FloatSampler, rig *model.Rig, meshes []model.MeshInstance, rate float32, linear bool) {
	exact, rest := BlendShapes(c, rig, meshes)
	if linear {
		kept := exact[:0]
		for _, t := range exact {
			if t.Interpolation != CubicSpline {
				kept = append(kept, t)
				continue
			}
			for _, m := range meshes {
				if m.Node == t.Node && m.Mesh != nil && len(m.Mesh.BlendShapes) > 0 {
					rest = append(rest, m)
				}
			}
		}
		exact = kept
	}
	for _, t := range exact {
		a.Tracks = append(a.Tracks, t)
		a.Stats.Exact++
		a.Stats.Keys += len(t.Times)
		switch t.Interpolation {
		case Step:
			a.Stats.Step++
		case CubicSpline:
			a.Stats.Cubic++
		default:
			a.Stats.Linear++
		}
	}
	if len(rest) == 0 {
		return
	}
	bs := SampleBlendShapes(fs, rig, rest, rate)
	a.Tracks = append(a.Tracks, bs...)
	a.Stats.Resampled += len(bs)
	for _, t := range bs {
		a.Stats.Keys += len(t.Times)
	}
}

// clipRate is a clip's sample rate, or 30 when it has none.
func clipRate(c *model.Clip) float32 {
	if r := c.SampleRate; r > 0 && !math.IsInf(float64(r), 0) {
		return r
	}
	return 30
}

// nothingMoves says why a clip gave its animation no track on the
// character described by on: what it animates instead.
func nothingMoves(c *model.Clip, a *Animation, on string) string {
	transforms, shapes := 0, 0
	for i := range c.Curves {
		switch c.Curves[i].Target.ClassID {
		case model.ClassTransform:
			transforms++
		case model.ClassSkinnedMeshRenderer:
			shapes++
		}
	}
	others := len(c.Curves) - transforms - shapes
	switch {
	case len(c.Curves) == 0 && len(c.ObjectCurves) > 0:
		return fmt.Sprintf("it animates only object references (%s: sprites, materials and the like), which glTF cannot hold", curves(len(c.ObjectCurves)))
	case len(c.Curves) == 0:
		return "it has no curves"
	case transforms > 0 && a.Stats.Unresolved > 0:
		return fmt.Sprintf("its Transform curves name no GameObject of %s", on)
	case transforms == 0 && shapes == 0:
		return fmt.Sprintf("it animates no Transform and no blend shape (%s of other components' properties)", curves(others))
	case transforms == 0:
		return fmt.Sprintf("its blend-shape curves (%d) drive no mesh of %s", shapes, on)
	}
	return fmt.Sprintf("none of its curves drives a joint or a blend shape of %s", on)
}

// curves says how many curves, in words.
func curves(n int) string {
	if n == 1 {
		return "1 curve"
	}
	return fmt.Sprintf("%d curves", n)
}
