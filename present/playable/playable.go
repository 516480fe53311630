// Package playable puts a clip from a set of Unity files on the skeleton it
// should play on: a generic clip on the rig (or avatar) whose paths it
// animates, a humanoid clip on a humanoid avatar through its muscles. The
// result samples poses through the runtime, so the pose command, pictures,
// the viewer and glTF export all pose a clip the same way.
package playable

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/decode/catalog"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/humanoid"
	"github.com/mecanim/mecanim/model"
)

// Sampler poses a skeleton at a time of a clip (anim.Clip and
// humanoid.Clip both are).
type Sampler interface {
	Name() string
	Duration() float32
	Sample(t float32, dst []geom.Transform)
}

// Options choose what a clip plays on; both empty lets Load choose.
type Options struct {
	// Avatar names the avatar (required for a humanoid clip when the files
	// hold several humanoid avatars).
	Avatar string
	// Animator names the GameObject of an Animator whose rig (and avatar)
	// the clip plays on.
	Animator string
}

// Playable is a clip baked onto a skeleton.
type Playable struct {
	Clip     *model.Clip
	Skeleton *anim.Skeleton
	Sampler  Sampler
	Humanoid bool
	// On names what the clip plays on: "rig X", "avatar Y".
	On string
	// Rig is the rig used (nil when the skeleton came from an avatar);
	// Avatar the avatar used (nil for a generic clip on a rig).
	Rig    *catalog.Rig
	Avatar *model.Avatar
	// Generic is the baked generic clip (nil for humanoid clips).
	Generic *anim.Clip
	// HumanRig is the humanoid rig (nil for generic clips).
	HumanRig *humanoid.Rig
}

// ErrNoSkeleton is wrapped when nothing in the files can play the clip.
var ErrNoSkeleton = errors.New("nothing to play the clip on")

// Load bakes the clip object onto the skeleton chosen by opts.
func Load(cat *catalog.Catalog, clipObj catalog.Object, opts Options) (*Playable, error) {
	clip, err := cat.Clip(clipObj)
	if err != nil {
		return nil, err
	}
	return LoadClip(cat, clip, opts)
}

// LoadClip is Load for a clip already decoded.
func LoadClip(cat *catalog.Catalog, clip *model.Clip, opts Options) (*Playable, error) {
	var rig *catalog.Rig
	if opts.Animator != "" {
		r, err := cat.Rig(opts.Animator)
		if err != nil {
			return nil, err
		}
		rig = &r
	}
	if clip.Humanoid {
		av, err := humanAvatar(cat, opts.Avatar, rig)
		if err != nil {
			return nil, fmt.Errorf("clip %q is humanoid: %w", clip.Name, err)
		}
		hr, err := humanoid.NewRig(av)
		if err != nil {
			return nil, err
		}
		hc, err := humanoid.Bake(clip, hr)
		if err != nil {
			return nil, err
		}
		return &Playable{Clip: clip, Skeleton: hr.Skeleton(), Sampler: hc, Humanoid: true,
			On: fmt.Sprintf("avatar %q", av.Name), Rig: rig, Avatar: av, HumanRig: hr}, nil
	}
	if opts.Avatar != "" {
		o, err := cat.One(model.ClassAvatar, "Avatar", opts.Avatar)
		if err != nil {
			return nil, err
		}
		av, err := cat.Avatar(o)
		if err != nil {
			return nil, err
		}
		s, err := AvatarSkeleton(av)
		if err != nil {
			return nil, err
		}
		return bakeGeneric(clip, s, fmt.Sprintf("avatar %q", av.Name), nil, av)
	}
	if rig == nil {
		r, err := bestRig(cat, clip)
		if err != nil {
			return nil, err
		}
		rig = r
	}
	s, err := anim.SkeletonFromRig(rig.Rig)
	if err != nil {
		return nil, err
	}
	return bakeGeneric(clip, s, fmt.Sprintf("rig %q", rig.Name), rig, nil)
}

func bakeGeneric(clip *model.Clip, s *anim.Skeleton, on string, rig *catalog.Rig, av *model.Avatar) (*Playable, error) {
	c, err := anim.Bake(clip, s)
	if err != nil {
		return nil, err
	}
	return &Playable{Clip: clip, Skeleton: s, Sampler: c, On: on, Rig: rig, Avatar: av, Generic: c}, nil
}

// humanAvatar picks the humanoid avatar a humanoid clip plays on.
func humanAvatar(cat *catalog.Catalog, name string, rig *catalog.Rig) (*model.Avatar, error) {
	if name != "" {
		o, err := cat.One(model.ClassAvatar, "Avatar", name)
		if err != nil {
			return nil, err
		}
		return cat.Avatar(o)
	}
	if rig != nil && rig.HasAvatar() {
		if o, ok := cat.RigAvatar(*rig); ok {
			return cat.Avatar(o)
		}
		return nil, fmt.Errorf("%w: the Animator %q's avatar is not in the files given", ErrNoSkeleton, rig.Name)
	}
	var humans []*model.Avatar
	var names []string
	for _, o := range cat.ByClass(model.ClassAvatar) {
		a, err := cat.Avatar(o)
		if err != nil || !a.IsHuman() {
			continue
		}
		humans = append(humans, a)
		names = append(names, fmt.Sprintf("%q", a.Name))
	}
	switch len(humans) {
	case 0:
		return nil, fmt.Errorf("%w: no humanoid avatar in the files given (add the file holding one)", ErrNoSkeleton)
	case 1:
		return humans[0], nil
	}
	sort.Strings(names)
	return nil, fmt.Errorf("%d humanoid avatars in the files given; choose one with --avatar (%s)", len(humans), strings.Join(names, ", "))
}

// bestRig returns the rig whose paths the clip's Transform channels name
// most often.
func bestRig(cat *catalog.Catalog, clip *model.Clip) (*catalog.Rig, error) {
	rigs, _ := cat.Rigs()
	best, bestN := -1, 0
	for i := range rigs {
		names := rigs[i].Names()
		n := 0
		for j := range clip.Curves {
			t := &clip.Curves[j].Target
			if t.ClassID != model.ClassTransform {
				continue
			}
			if _, ok := names[t.PathHash]; ok {
				n++
			}
		}
		if n > bestN {
			best, bestN = i, n
		}
	}
	if best < 0 {
		var have []string
		for _, r := range rigs {
			have = append(have, fmt.Sprintf("%q", r.Name))
		}
		if len(have) == 0 {
			return nil, fmt.Errorf("%w: clip %q animates Transforms, and the files given hold no Animator rig (add the file with the character)", ErrNoSkeleton, clip.Name)
		}
		return nil, fmt.Errorf("%w: no rig in the files given has the paths clip %q animates (rigs: %s)", ErrNoSkeleton, clip.Name, strings.Join(have, ", "))
	}
	return &rigs[best], nil
}

// AvatarSkeleton builds a skeleton from an avatar: its nodes named by the
// avatar's name table, resting at its default pose.
func AvatarSkeleton(a *model.Avatar) (*anim.Skeleton, error) {
	n := len(a.Skeleton.Nodes)
	paths := make([]string, n)
	parents := make([]int, n)
	rest := make([]geom.Transform, n)
	for i, nd := range a.Skeleton.Nodes {
		p, ok := a.Names.Lookup(nd.PathHash)
		if !ok {
			p = fmt.Sprintf("#%d", nd.PathHash)
		}
		paths[i], parents[i] = p, nd.Parent
		rest[i] = geom.Identity
		if i < len(a.DefaultPose) {
			rest[i] = a.DefaultPose[i]
		}
	}
	return anim.NewSkeleton(paths, parents, rest)
}

// Pose samples the clip at t into local (the joints' local transforms) and,
// when model is not nil, their transforms in the rig's space.
func (p *Playable) Pose(t float32, local, model []geom.Transform) {
	p.Sampler.Sample(t, local)
	if model != nil {
		anim.LocalToModel(p.Skeleton, local, model)
	}
}
