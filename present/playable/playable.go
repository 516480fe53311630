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
	"sync"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/decode/catalog"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/humanoid"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/assets"
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

// Load bakes the clip object onto the skeleton chosen by opts. It decodes
// what it needs afresh; to load several clips of the same files, use a
// Loader.
func Load(cat *catalog.Catalog, clipObj catalog.Object, opts Options) (*Playable, error) {
	return NewLoader(cat).Load(clipObj, opts)
}

// LoadClip is Load for a clip already decoded.
func LoadClip(cat *catalog.Catalog, clip *model.Clip, opts Options) (*Playable, error) {
	return NewLoader(cat).LoadClip(clip, opts)
}

// Loader loads clips of one catalog, decoding each avatar and building
// each humanoid rig at most once however many clips it loads: finding the
// avatar of a humanoid clip that names none decodes every avatar in the
// files, which a viewer or an export going through every clip would
// otherwise repeat per clip. The Playables it returns share those avatars
// and humanoid rigs (neither is changed after it is built). A Loader is
// safe for concurrent use; it holds what it decoded as long as it lives.
type Loader struct {
	cat *catalog.Catalog
	// decode decodes an avatar object (the catalog's Avatar; tests count
	// calls through it).
	decode func(catalog.Object) (*model.Avatar, error)

	mu      sync.Mutex
	avatars map[avatarKey]*avatarEntry
}

// avatarKey names an avatar object of the catalog.
type avatarKey struct {
	file *assets.File
	pid  int64
}

// avatarEntry is an avatar decoded once and, when asked for, the humanoid
// rig built from it once.
type avatarEntry struct {
	once sync.Once
	av   *model.Avatar
	err  error

	rigOnce sync.Once
	rig     *humanoid.Rig
	rigErr  error
}

// NewLoader returns a Loader over cat.
func NewLoader(cat *catalog.Catalog) *Loader {
	return &Loader{cat: cat, decode: cat.Avatar, avatars: map[avatarKey]*avatarEntry{}}
}

// Load bakes the clip object onto the skeleton chosen by opts.
func (l *Loader) Load(clipObj catalog.Object, opts Options) (*Playable, error) {
	clip, err := l.cat.Clip(clipObj)
	if err != nil {
		return nil, err
	}
	return l.LoadClip(clip, opts)
}

// Avatar decodes an avatar object of the catalog, once.
func (l *Loader) Avatar(o catalog.Object) (*model.Avatar, error) {
	e := l.entry(o)
	return e.av, e.err
}

// entry returns the avatar object's entry, decoding the avatar on first
// use.
func (l *Loader) entry(o catalog.Object) *avatarEntry {
	k := avatarKey{o.File, o.PathID()}
	l.mu.Lock()
	e, ok := l.avatars[k]
	if !ok {
		e = &avatarEntry{}
		l.avatars[k] = e
	}
	l.mu.Unlock()
	e.once.Do(func() { e.av, e.err = l.decode(o) })
	return e
}

// humanRig returns the humanoid rig of a decoded avatar entry, built once.
func (e *avatarEntry) humanRig() (*humanoid.Rig, error) {
	e.rigOnce.Do(func() { e.rig, e.rigErr = humanoid.NewRig(e.av) })
	return e.rig, e.rigErr
}

// namedAvatar returns the entry of the avatar named name.
func (l *Loader) namedAvatar(name string) (*avatarEntry, error) {
	o, err := l.cat.One(model.ClassAvatar, "Avatar", name)
	if err != nil {
		return nil, err
	}
	e := l.entry(o)
	return e, e.err
}

// LoadClip is Load for a clip already decoded.
func (l *Loader) LoadClip(clip *model.Clip, opts Options) (*Playable, error) {
	cat := l.cat
	var rig *catalog.Rig
	if opts.Animator != "" {
		r, err := cat.Rig(opts.Animator)
		if err != nil {
			return nil, err
		}
		rig = &r
	}
	if clip.Humanoid {
		e, err := l.humanAvatar(opts.Avatar, rig)
		if err != nil {
			return nil, fmt.Errorf("clip %q is humanoid: %w", clip.Name, err)
		}
		hr, err := e.humanRig()
		if err != nil {
			return nil, err
		}
		hc, err := humanoid.Bake(clip, hr)
		if err != nil {
			return nil, err
		}
		return &Playable{Clip: clip, Skeleton: hr.Skeleton(), Sampler: hc, Humanoid: true,
			On: fmt.Sprintf("avatar %q", e.av.Name), Rig: rig, Avatar: e.av, HumanRig: hr}, nil
	}
	if opts.Avatar != "" {
		e, err := l.namedAvatar(opts.Avatar)
		if err != nil {
			return nil, err
		}
		s, err := AvatarSkeleton(e.av)
		if err != nil {
			return nil, err
		}
		return bakeGeneric(clip, s, fmt.Sprintf("avatar %q", e.av.Name), nil, e.av)
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
func (l *Loader) humanAvatar(name string, rig *catalog.Rig) (*avatarEntry, error) {
	if name != "" {
		return l.namedAvatar(name)
	}
	if rig != nil && rig.HasAvatar() {
		if o, ok := l.cat.RigAvatar(*rig); ok {
			e := l.entry(o)
			return e, e.err
		}
		return nil, fmt.Errorf("%w: the Animator %q's avatar is not in the files given", ErrNoSkeleton, rig.Name)
	}
	var humans []*avatarEntry
	var names []string
	for _, o := range l.cat.ByClass(model.ClassAvatar) {
		e := l.entry(o)
		if e.err != nil || !e.av.IsHuman() {
			continue
		}
		humans = append(humans, e)
		names = append(names, fmt.Sprintf("%q", e.av.Name))
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
