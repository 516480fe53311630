package gltf

import (
	"fmt"
	"math"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/decode/catalog"
	"github.com/mecanim/mecanim/decode/mesh"
	"github.com/mecanim/mecanim/humanoid"
	"github.com/mecanim/mecanim/model"
)

// SceneOptions choose what BuildScene adds to a rig.
type SceneOptions struct {
	// Clips are put on the rig: generic clips over the rig's Transform
	// hierarchy with their curves' own shapes (see Generic), humanoid
	// clips sampled through the Animator's avatar (skipped, with an
	// error, when the rig has no humanoid avatar; see Sample).
	Clips []*model.Clip
	// Rate is the rate in frames per second of what is resampled
	// (humanoid clips' bones, the tracks Generic and BlendShapes cannot
	// keep exactly); 0: each clip's sample rate (30 without one).
	Rate float32
	// Avatar, when not nil, is the humanoid avatar humanoid clips play
	// through instead of the Animator's.
	Avatar *model.Avatar
	// NoMeshes leaves the renderers out (skeleton and animations only).
	NoMeshes bool
	// Progress, when not nil, is called after each clip (done of total),
	// for progress bars on long exports.
	Progress func(done, total int)
}

// BuildScene gathers a rig of the catalog into a Scene: the meshes its
// renderers draw (meshes in other files of the catalog are found through
// it) and the given clips sampled onto it. What cannot be added — a
// renderer whose mesh is missing or compressed, a clip that does not bind
// — is reported in the errors and left out; the scene holds the rest.
func BuildScene(cat *catalog.Catalog, r catalog.Rig, opts SceneOptions) (*Scene, []error) {
	s := &Scene{Name: r.Name, Rig: r.Rig}
	var errs []error
	if !opts.NoMeshes {
		att, e := mesh.Attach(r.File, r.Rig, cat.Resolver())
		errs = append(errs, e...)
		s.Meshes = att
	}
	if len(opts.Clips) == 0 {
		return s, errs
	}
	sk, err := anim.SkeletonFromRig(r.Rig)
	if err != nil {
		return s, append(errs, err)
	}
	var hr *humanoid.Rig
	var herr error
	for ci, c := range opts.Clips {
		if opts.Progress != nil && ci > 0 {
			opts.Progress(ci, len(opts.Clips))
		}
		var a Animation
		rate := opts.Rate
		if !(rate > 0) {
			rate = clipRate(c)
		}
		if c.Humanoid {
			if hr == nil && herr == nil {
				if opts.Avatar != nil {
					hr, herr = humanoid.NewRig(opts.Avatar)
				} else {
					hr, herr = humanRigOf(cat, r)
				}
			}
			if herr != nil {
				errs = append(errs, fmt.Errorf("clip %q: %w", c.Name, herr))
				continue
			}
			hc, err := humanoid.Bake(c, hr)
			if err != nil {
				errs = append(errs, fmt.Errorf("clip %q: %w", c.Name, err))
				continue
			}
			hs := hr.Skeleton()
			a = Sample(c.Name, hc, JointMap(hs.Paths, r.Rig), hs.Rest, rate)
			a.Stats = AnimStats{Humanoid: true, Rate: rate, Resampled: len(a.Tracks), Unresolved: hc.Base().UnresolvedChannels()}
			for _, t := range a.Tracks {
				a.Stats.Keys += len(t.Times)
			}
			a.addBlendShapes(c, hc.Base(), r.Rig, s.Meshes, rate)
		} else {
			bc, err := anim.Bake(c, sk)
			if err != nil {
				errs = append(errs, fmt.Errorf("clip %q: %w", c.Name, err))
				continue
			}
			a, a.Stats = Generic(c, bc, JointMap(sk.Paths, r.Rig), opts.Rate)
			a.addBlendShapes(c, bc, r.Rig, s.Meshes, rate)
		}
		s.Animations = append(s.Animations, a)
	}
	if opts.Progress != nil {
		opts.Progress(len(opts.Clips), len(opts.Clips))
	}
	return s, errs
}

// addBlendShapes adds the clip's blend-shape weights tracks: exact where
// the curves allow (BlendShapes), resampled at rate otherwise.
func (a *Animation) addBlendShapes(c *model.Clip, fs FloatSampler, rig *model.Rig, meshes []model.MeshInstance, rate float32) {
	exact, rest := BlendShapes(c, rig, meshes)
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

// humanRigOf prepares the humanoid avatar of a rig's Animator.
func humanRigOf(cat *catalog.Catalog, r catalog.Rig) (*humanoid.Rig, error) {
	if !r.HasAvatar() {
		return nil, fmt.Errorf("rig %q has no avatar for a humanoid clip", r.Name)
	}
	o, ok := cat.RigAvatar(r)
	if !ok {
		return nil, fmt.Errorf("rig %q: avatar %d:%d not in the files given", r.Name, r.Animator.Avatar.FileID, r.Animator.Avatar.PathID)
	}
	a, err := cat.Avatar(o)
	if err != nil {
		return nil, err
	}
	return humanoid.NewRig(a)
}
