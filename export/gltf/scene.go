package gltf

import (
	"fmt"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/decode/catalog"
	"github.com/mecanim/mecanim/decode/mesh"
	"github.com/mecanim/mecanim/humanoid"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/assets"
	"github.com/mecanim/mecanim/unity/serialized"
)

// SceneOptions choose what BuildScene adds to a rig.
type SceneOptions struct {
	// Clips are sampled onto the rig: generic clips over the rig's
	// Transform hierarchy, humanoid clips through the Animator's avatar
	// (skipped, with an error, when the rig has no humanoid avatar).
	Clips []*model.Clip
	// Rate is the sampling rate in frames per second (0: 30).
	Rate float32
	// NoMeshes leaves the renderers out (skeleton and animations only).
	NoMeshes bool
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
		resolve := func(from *assets.File, ref model.Ref) (*assets.File, *serialized.Object, bool) {
			o, ok := cat.Resolve(from, ref)
			return o.File, o.Object, ok
		}
		att, e := mesh.Attach(r.File, r.Rig, resolve)
		errs = append(errs, e...)
		s.Meshes = FromAttached(att)
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
	for _, c := range opts.Clips {
		var a Animation
		if c.Humanoid {
			if hr == nil && herr == nil {
				hr, herr = humanRigOf(cat, r)
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
			a = Sample(c.Name, hc, JointMap(hs.Paths, r.Rig), hs.Rest, opts.Rate)
			a.Tracks = append(a.Tracks, SampleBlendShapes(hc.Base(), r.Rig, s.Meshes, opts.Rate)...)
		} else {
			bc, err := anim.Bake(c, sk)
			if err != nil {
				errs = append(errs, fmt.Errorf("clip %q: %w", c.Name, err))
				continue
			}
			a = Sample(c.Name, bc, JointMap(sk.Paths, r.Rig), sk.Rest, opts.Rate)
			a.Tracks = append(a.Tracks, SampleBlendShapes(bc, r.Rig, s.Meshes, opts.Rate)...)
		}
		s.Animations = append(s.Animations, a)
	}
	return s, errs
}

// humanRigOf prepares the humanoid avatar of a rig's Animator.
func humanRigOf(cat *catalog.Catalog, r catalog.Rig) (*humanoid.Rig, error) {
	if r.Animator == nil || r.Animator.Avatar.IsNull() {
		return nil, fmt.Errorf("rig %q has no avatar for a humanoid clip", r.Name)
	}
	o, ok := cat.Resolve(r.File, r.Animator.Avatar)
	if !ok {
		return nil, fmt.Errorf("rig %q: avatar %d:%d not in the files given", r.Name, r.Animator.Avatar.FileID, r.Animator.Avatar.PathID)
	}
	a, err := cat.Avatar(o)
	if err != nil {
		return nil, err
	}
	return humanoid.NewRig(a)
}
