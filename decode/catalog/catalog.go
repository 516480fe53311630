// Package catalog gathers the objects of several Unity files given
// together — clips from one bundle, the avatar from another, the rig from a
// third — resolves references between them, and decodes them into the
// model on demand, with names resolved from every name table it holds.
// It is what the commands that take FILE... work through.
package catalog

import (
	"context"
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"
	"sync"

	"github.com/mecanim/mecanim/decode/compiled"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/assets"
	"github.com/mecanim/mecanim/unity/filepool"
	"github.com/mecanim/mecanim/unity/serialized"
	"github.com/mecanim/mecanim/unity/typetree"
	"github.com/mecanim/mecanim/unity/unityfs"
)

// Object is one object of one serialized file in the catalog.
type Object struct {
	File   *assets.File
	Object *serialized.Object
}

// Container returns the path of the container the object came from.
func (o Object) Container() string { return o.File.Container.Path }

// PathID returns the object's path id.
func (o Object) PathID() int64 { return o.Object.PathID }

// ClassID returns the object's class id.
func (o Object) ClassID() int32 { return o.Object.ClassID }

// String names the object for messages: container, file, path id, class.
func (o Object) String() string {
	return fmt.Sprintf("%s: %s: object %d (%s)", o.Container(), o.File.Name, o.Object.PathID, o.File.ClassName(o.Object))
}

// Catalog is a set of opened Unity files.
type Catalog struct {
	Containers []*assets.Container

	files  []*assets.File
	byBase map[string][]*assets.File

	mu        sync.Mutex
	nameCache map[key]nameResult
	names     model.Names
	rigs      []Rig
	rigErrs   []error
	rigsDone  bool
}

type key struct {
	f   *assets.File
	pid int64
}

// Open opens every path. A file that cannot be opened is reported in the
// returned error (errors.Join of one *assets.Error per file) and skipped;
// the catalog holds the others. ctx is checked before each file: when it
// ends, Open closes what it opened and returns a nil catalog and an error
// wrapping ctx.Err(). Without opts.Cache, the files share one Cache (one
// memory limit); without opts.Trees, one set of type trees; without
// opts.Files, one pool of descriptors (however many paths there are).
func Open(ctx context.Context, paths []string, opts assets.Options) (*Catalog, error) {
	if opts.Cache == nil {
		opts.Cache = unityfs.NewCache(0)
	}
	if opts.Trees == nil {
		opts.Trees = serialized.NewTrees()
	}
	if opts.Files == nil {
		opts.Files = filepool.New(0)
	}
	c := &Catalog{byBase: map[string][]*assets.File{}, nameCache: map[key]nameResult{}}
	var errs []error
	for i, p := range paths {
		if err := ctx.Err(); err != nil {
			c.Close()
			return nil, fmt.Errorf("catalog: opened %d of %d files: %w", i, len(paths), err)
		}
		ct, err := assets.Open(p, opts)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		c.add(ct)
	}
	return c, errors.Join(errs...)
}

// New makes a catalog of containers already opened.
func New(cts ...*assets.Container) *Catalog {
	c := &Catalog{byBase: map[string][]*assets.File{}, nameCache: map[key]nameResult{}}
	for _, ct := range cts {
		c.add(ct)
	}
	return c
}

func (c *Catalog) add(ct *assets.Container) {
	c.Containers = append(c.Containers, ct)
	for _, f := range ct.Files {
		c.files = append(c.files, f)
		b := strings.ToLower(path.Base(f.Name))
		c.byBase[b] = append(c.byBase[b], f)
	}
}

// Close closes every container.
func (c *Catalog) Close() error {
	var first error
	for _, ct := range c.Containers {
		if err := ct.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// Files returns every serialized file in the catalog, in the order opened.
func (c *Catalog) Files() []*assets.File { return c.files }

// ByClass returns every object of the class, in file order.
func (c *Catalog) ByClass(classID int32) []Object {
	var out []Object
	for _, f := range c.files {
		for i := range f.Objects {
			if f.Objects[i].ClassID == classID {
				out = append(out, Object{f, &f.Objects[i]})
			}
		}
	}
	return out
}

// Name returns an object's m_Name ("" when it has none or cannot be read).
func (c *Catalog) Name(o Object) string {
	n, _ := c.ObjectName(o)
	return n
}

// nameResult is a cached ObjectName.
type nameResult struct {
	name string
	err  error
}

// ObjectName returns an object's m_Name, or why it cannot be read (read
// once).
func (c *Catalog) ObjectName(o Object) (string, error) {
	k := key{o.File, o.Object.PathID}
	c.mu.Lock()
	n, ok := c.nameCache[k]
	c.mu.Unlock()
	if ok {
		return n.name, n.err
	}
	n.name, n.err = o.File.ObjectName(o.Object)
	if n.err != nil {
		n.err = fmt.Errorf("%s: %s: object %d: name: %w", o.File.Container.Path, o.File.Name, o.Object.PathID, n.err)
	}
	c.mu.Lock()
	c.nameCache[k] = n
	c.mu.Unlock()
	return n.name, n.err
}

// Named returns the objects of the class with the given m_Name.
func (c *Catalog) Named(classID int32, name string) []Object {
	var out []Object
	for _, o := range c.ByClass(classID) {
		if c.Name(o) == name {
			out = append(out, o)
		}
	}
	return out
}

// ErrNotFound is wrapped when an object looked up by name is absent.
var ErrNotFound = errors.New("not found")

// One returns the single object of the class with the name; an error lists
// the candidates when there are none or several.
func (c *Catalog) One(classID int32, className, name string) (Object, error) {
	hits := c.Named(classID, name)
	switch len(hits) {
	case 1:
		return hits[0], nil
	case 0:
		var have []string
		for _, o := range c.ByClass(classID) {
			have = append(have, fmt.Sprintf("%q", c.Name(o)))
		}
		sort.Strings(have)
		if len(have) > 12 {
			have = append(have[:12], "...")
		}
		return Object{}, fmt.Errorf("%w: no %s named %q (have %s)", ErrNotFound, className, name, strings.Join(have, ", "))
	}
	// The same asset in several bundles (a clip shipped twice) is one asset
	// when its bytes are the same; prefer the first.
	return hits[0], nil
}

// Resolve follows a reference made in file from to the object it names,
// through the file's externals to another serialized file of the catalog.
func (c *Catalog) Resolve(from *assets.File, ref model.Ref) (Object, bool) {
	if ref.IsNull() {
		return Object{}, false
	}
	target := from
	if ref.FileID != 0 {
		i := int(ref.FileID) - 1
		if i < 0 || i >= len(from.Externals) {
			return Object{}, false
		}
		b := strings.ToLower(path.Base(from.Externals[i].Path))
		fs := c.byBase[b]
		if len(fs) == 0 {
			return Object{}, false
		}
		target = fs[0]
	}
	o, ok := target.Object(ref.PathID)
	if !ok {
		return Object{}, false
	}
	return Object{target, o}, true
}

// Resolver returns Resolve in the shape of a resolver function (the
// mesh package's Resolver), so code that follows references between files
// without knowing the catalog — mesh.Attach — can follow them through it.
func (c *Catalog) Resolver() func(from *assets.File, ref model.Ref) (*assets.File, *serialized.Object, bool) {
	return func(from *assets.File, ref model.Ref) (*assets.File, *serialized.Object, bool) {
		o, ok := c.Resolve(from, ref)
		return o.File, o.Object, ok
	}
}

// Value decodes an object with its type tree or built-in layout; bytes past
// a script's native fields are not an error. An error names the container
// as well as the serialized file, path id and class.
func (c *Catalog) Value(o Object) (*typetree.Value, error) {
	v, err := o.File.Decode(o.Object)
	var te *typetree.TrailingError
	if err != nil && v != nil && errors.As(err, &te) {
		return v, nil
	}
	if err != nil {
		return v, fmt.Errorf("%s: %w", o.Container(), err)
	}
	return v, nil
}

// Names returns every name table the catalog holds, merged: the avatars'
// and controllers' m_TOS and the paths of every rig. Built once.
func (c *Catalog) Names() model.Names {
	c.mu.Lock()
	if c.names != nil {
		defer c.mu.Unlock()
		return c.names
	}
	c.mu.Unlock()
	n := model.Names{}
	for _, class := range []int32{model.ClassAvatar, model.ClassAnimatorController} {
		for _, o := range c.ByClass(class) {
			v, err := c.Value(o)
			if err != nil || v == nil {
				continue
			}
			if t := v.Field("m_TOS"); t != nil {
				for h, s := range compiled.TOS(t) {
					n[h] = s
				}
			}
		}
	}
	rigs, _ := c.Rigs(context.Background()) // part of one clip's decoding
	for _, r := range rigs {
		for h, p := range r.Names() {
			n[h] = p
		}
	}
	c.mu.Lock()
	c.names = n
	c.mu.Unlock()
	return n
}

// Clip decodes a clip and names its channels from the catalog's tables.
func (c *Catalog) Clip(o Object) (*model.Clip, error) {
	v, err := c.Value(o)
	if err != nil {
		return nil, err
	}
	clip, err := compiled.Clip(v, o.File.UnityVersion)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", o, err)
	}
	compiled.ResolveNames(clip, c.Names())
	return clip, nil
}

// Rig is a rig of the catalog with the file it was built from.
type Rig struct {
	*model.Rig
	File *assets.File
}

// HasAvatar reports whether the rig's Animator names an avatar (found in
// the catalog or not).
func (r Rig) HasAvatar() bool {
	return r.Rig != nil && r.Animator != nil && !r.Animator.Avatar.IsNull()
}

// RigAvatar returns the avatar object the rig's Animator names. It is
// false when the Animator names none (see HasAvatar) or when the avatar is
// not in the files of the catalog.
func (c *Catalog) RigAvatar(r Rig) (Object, bool) {
	if !r.HasAvatar() {
		return Object{}, false
	}
	return c.Resolve(r.File, r.Animator.Avatar)
}

// Rigs returns the rig of every Animator in the catalog, then of every
// legacy Animation component and every hierarchy of skinned meshes no
// Animator drives (compiled.RigsWith; built once). ctx is checked between
// files: when it ends, Rigs returns the rigs built so far and, last of
// its errors, one wrapping ctx.Err(), and keeps nothing (a later call
// builds them all).
func (c *Catalog) Rigs(ctx context.Context) ([]Rig, []error) {
	c.mu.Lock()
	if c.rigsDone {
		defer c.mu.Unlock()
		return c.rigs, c.rigErrs
	}
	c.mu.Unlock()
	var rigs []Rig
	var errs []error
	for _, f := range c.files {
		hasRig := false
		for i := range f.Objects {
			switch f.Objects[i].ClassID {
			case model.ClassAnimator, model.ClassAnimation, model.ClassSkinnedMeshRenderer:
				hasRig = true
			}
		}
		if !hasRig {
			continue
		}
		if err := ctx.Err(); err != nil {
			return rigs, append(errs, fmt.Errorf("catalog: rigs: %w", err))
		}
		rs, err := rigsOf(f)
		if err != nil {
			errs = append(errs, &assets.Error{Container: f.Container.Path, Entry: f.Name, Err: fmt.Errorf("rigs: %w", err)})
		}
		for _, r := range rs {
			rigs = append(rigs, Rig{r, f})
		}
	}
	c.mu.Lock()
	c.rigs, c.rigErrs, c.rigsDone = rigs, errs, true
	c.mu.Unlock()
	return rigs, errs
}

// rigsOf builds a file's rigs, decoding its objects through the file's
// layout policy (built-in layouts for stripped files).
func rigsOf(f *assets.File) ([]*model.Rig, error) {
	return compiled.RigsWith(f.File, func(o *serialized.Object) (*typetree.Value, error) {
		v, err := f.Decode(o)
		var te *typetree.TrailingError
		if err != nil && v != nil && errors.As(err, &te) {
			return v, nil
		}
		return v, err
	})
}

// Rig returns the rig of the Animator on the GameObject named name.
func (c *Catalog) Rig(name string) (Rig, error) {
	rigs, _ := c.Rigs(context.Background())
	var have []string
	for _, r := range rigs {
		if r.Name == name {
			return r, nil
		}
		have = append(have, fmt.Sprintf("%q", r.Name))
	}
	return Rig{}, fmt.Errorf("%w: no Animator on a GameObject named %q (have %s)", ErrNotFound, name, strings.Join(have, ", "))
}

// Avatar decodes an avatar.
func (c *Catalog) Avatar(o Object) (*model.Avatar, error) {
	v, err := c.Value(o)
	if err != nil {
		return nil, err
	}
	a, err := compiled.Avatar(v, o.File.UnityVersion)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", o, err)
	}
	return a, nil
}

// Controller decodes a controller and names its clips from the objects its
// clip references lead to.
func (c *Catalog) Controller(o Object) (*model.Controller, error) {
	v, err := c.Value(o)
	if err != nil {
		return nil, err
	}
	ctl, err := compiled.Controller(v, o.File.UnityVersion)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", o, err)
	}
	for len(ctl.ClipNames) < len(ctl.Clips) {
		ctl.ClipNames = append(ctl.ClipNames, "")
	}
	for i, r := range ctl.Clips {
		if ctl.ClipNames[i] != "" {
			continue
		}
		if co, ok := c.Resolve(o.File, r); ok {
			ctl.ClipNames[i] = c.Name(co)
		}
	}
	return ctl, nil
}

// ControllerClips decodes the clips a controller's blend trees index, in
// the controller's clip order; a null or unresolvable slot is nil, and its
// error is reported. A clip listed in several slots is decoded once and
// shared by them (so a controller listing one big clip many times costs
// one decode), and its error is reported once.
func (c *Catalog) ControllerClips(ctlObj Object, ctl *model.Controller) ([]*model.Clip, []error) {
	out := make([]*model.Clip, len(ctl.Clips))
	var errs []error
	done := map[key]*model.Clip{}
	for i, r := range ctl.Clips {
		if r.IsNull() {
			continue
		}
		co, ok := c.Resolve(ctlObj.File, r)
		if !ok {
			errs = append(errs, fmt.Errorf("%s: clip %d (file %d, path id %d) is not in the files given", ctlObj, i, r.FileID, r.PathID))
			continue
		}
		k := key{co.File, co.Object.PathID}
		if clip, seen := done[k]; seen {
			out[i] = clip
			continue
		}
		clip, err := c.Clip(co)
		done[k] = clip
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out[i] = clip
	}
	return out, errs
}
