package bind

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"path"
	"strings"

	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/decode/catalog"
	"github.com/mecanim/mecanim/decode/compiled"
	"github.com/mecanim/mecanim/decode/mesh"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
)

// unityObject is an object of a Unity file of the catalog.
type unityObject struct{ o catalog.Object }

// identical compares the two objects' bytes.
func (u unityObject) identical(x origin) bool {
	v, ok := x.(unityObject)
	if !ok {
		return false
	}
	if u.o.File == v.o.File && u.o.PathID() == v.o.PathID() {
		return true
	}
	if u.o.Object.Size != v.o.Object.Size || u.o.ClassID() != v.o.ClassID() {
		return false
	}
	a, err1 := u.o.File.ReadObject(u.o.Object)
	b, err2 := v.o.File.ReadObject(v.o.Object)
	return err1 == nil && err2 == nil && bytes.Equal(a, b)
}

// unityRig is the rig of an Animator of a Unity file.
type unityRig struct{ r catalog.Rig }

// identical compares the rigs' GameObjects, their transforms and what
// their Animators use.
func (u unityRig) identical(x origin) bool {
	v, ok := x.(unityRig)
	if !ok {
		return false
	}
	return sameRig(u.r.Rig, v.r.Rig)
}

// sameRig reports whether two rigs are one character: the same nodes at
// the same transforms, Animators using the same references. Where the root
// itself stands (the Animator's GameObject, placed twice in a scene or a
// prefab) does not count: such copies pose alike, and the first is used.
func sameRig(a, b *model.Rig) bool {
	if len(a.Nodes) != len(b.Nodes) || (a.Animator == nil) != (b.Animator == nil) {
		return false
	}
	if a.Animator != nil && (a.Animator.Avatar != b.Animator.Avatar || a.Animator.Controller != b.Animator.Controller) {
		return false
	}
	for i := range a.Nodes {
		x, y := &a.Nodes[i], &b.Nodes[i]
		if x.Path != y.Path || x.Parent != y.Parent || (i > 0 && !sameTransform(x.Local, y.Local)) {
			return false
		}
	}
	return true
}

// sourceOf is where a Unity object was read.
func sourceOf(o catalog.Object) model.Source {
	return model.Source{Container: o.Container(), File: o.File.Name, PathID: o.PathID()}
}

// addCatalog lists the objects of the catalog's Unity files, appending
// to errs the rigs that do not decode. ctx is checked between objects:
// its error is returned when it ends.
func (s *Set) addCatalog(ctx context.Context, errs *[]error) error {
	if s.cat == nil {
		return ctx.Err()
	}
	for _, c := range s.cat.Containers {
		for _, f := range c.Files {
			if f.VersionNote != "" {
				s.logInput(ctx, c.Path, fmt.Sprintf("%s: %s: %s", c.Path, f.Name, f.VersionNote), slog.String("file", f.Name))
			}
		}
	}
	add := func(k Kind, class int32) error {
		for _, o := range s.cat.ByClass(class) {
			if err := ctx.Err(); err != nil {
				return err
			}
			name, err := s.cat.ObjectName(o)
			e := s.add(&entry{kind: k, name: name, nameErr: err, src: sourceOf(o), origin: unityObject{o}})
			s.byObj[objKey{o.File, o.PathID()}] = e
		}
		return nil
	}
	for _, c := range []struct {
		k     Kind
		class int32
	}{
		{KindClip, model.ClassAnimationClip},
		{KindAvatar, model.ClassAvatar},
		{KindController, model.ClassAnimatorController},
		{KindController, model.ClassOverrideController},
	} {
		if err := add(c.k, c.class); err != nil {
			return err
		}
	}
	rigs, rerrs := s.cat.Rigs(ctx)
	if err := ctx.Err(); err != nil {
		return err
	}
	*errs = append(*errs, rerrs...)
	for _, r := range rigs {
		src := model.Source{Container: r.File.Container.Path, File: r.File.Name}
		switch {
		case r.Animator != nil:
			src.PathID = r.Animator.Component.PathID
		case r.Legacy != nil:
			src.PathID = r.Legacy.Component.PathID
		case len(r.Nodes) > 0:
			src.PathID = r.Nodes[0].GameObject.PathID
		}
		s.add(&entry{kind: KindCharacter, name: r.Name, src: src, origin: unityRig{r}})
	}
	return nil
}

// resolve follows a reference made in the file of a Unity object (whose
// Object may be nil) to the entry of the object it names; when the object
// is not in the inputs, the error says which file holds it.
func (s *Set) resolve(from catalog.Object, ref model.Ref) (*entry, error) {
	if ref.IsNull() {
		return nil, nil
	}
	if o, ok := s.cat.Resolve(from.File, ref); ok {
		if e := s.byObj[objKey{o.File, o.PathID()}]; e != nil {
			return e, nil
		}
		return nil, fmt.Errorf("%s is a %s", sourceOf(o), o.File.ClassName(o.Object))
	}
	return nil, s.missing(from, ref)
}

// missing says where an unresolved reference points: the file it names
// (its CAB name, which the bundle holding it is built around) and the path
// id.
func (s *Set) missing(from catalog.Object, ref model.Ref) error {
	if ref.FileID == 0 {
		return fmt.Errorf("path id %d is not in %s (%s)", ref.PathID, from.File.Name, from.Container())
	}
	i := int(ref.FileID) - 1
	if i < 0 || i >= len(from.File.Externals) {
		return fmt.Errorf("file index %d (path id %d) names no external file of %s", ref.FileID, ref.PathID, from.File.Name)
	}
	name := path.Base(strings.ReplaceAll(from.File.Externals[i].Path, "\\", "/"))
	return fmt.Errorf("path id %d is in %s, a file not given (give the bundle or file that holds it)", ref.PathID, name)
}

// maxOverrideDepth bounds override controllers overriding others.
const maxOverrideDepth = 8

// controllerSet is a controller with its clips resolved to entries
// (parallel to Controller.Clips; nil where missing) and what could not be
// resolved.
type controllerSet struct {
	ctl   *model.Controller
	clips []*entry
	notes []string
}

// unityController decodes a controller and resolves its clips across the
// inputs; an override controller is its base controller with clips
// replaced.
func (s *Set) unityController(e *entry, o catalog.Object, depth int) (*controllerSet, error) {
	if o.ClassID() != model.ClassOverrideController {
		ctl, err := s.cat.Controller(o)
		if err != nil {
			return nil, err
		}
		cs := &controllerSet{ctl: ctl, clips: make([]*entry, len(ctl.Clips))}
		for i, r := range ctl.Clips {
			if r.IsNull() {
				continue
			}
			ce, err := s.resolve(o, r)
			if err != nil {
				cs.notes = append(cs.notes, fmt.Sprintf("controller %q: clip %d: %v", ctl.Name, i, err))
				continue
			}
			if ce.kind != KindClip {
				cs.notes = append(cs.notes, fmt.Sprintf("controller %q: clip %d is a %s", ctl.Name, i, ce.kind))
				continue
			}
			cs.clips[i] = ce
		}
		return cs, nil
	}
	if depth >= maxOverrideDepth {
		return nil, fmt.Errorf("%s: override controllers nested more than %d deep", o, maxOverrideDepth)
	}
	v, err := s.cat.Value(o)
	if err != nil {
		return nil, err
	}
	oc, err := compiled.OverrideController(v)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", o, err)
	}
	be, err := s.resolve(o, oc.Controller)
	switch {
	case err != nil:
		return nil, fmt.Errorf("override controller %q (%s): its controller: %w", oc.Name, sourceOf(o), err)
	case be == nil:
		return nil, fmt.Errorf("override controller %q (%s) overrides no controller", oc.Name, sourceOf(o))
	case be.kind != KindController:
		return nil, fmt.Errorf("override controller %q (%s): its controller is a %s", oc.Name, sourceOf(o), be.kind)
	}
	bu, ok := be.origin.(unityObject)
	if !ok {
		return nil, fmt.Errorf("override controller %q (%s): its controller is not a Unity object", oc.Name, sourceOf(o))
	}
	base, err := s.unityController(be, bu.o, depth+1)
	if err != nil {
		return nil, err
	}
	var repl []replacement
	var notes []string
	for i, ov := range oc.Overrides {
		orig, err1 := s.resolve(o, ov.Original)
		over, err2 := s.resolve(o, ov.Override)
		if err := firstErr(err1, err2); err != nil {
			notes = append(notes, fmt.Sprintf("override controller %q: override %d: %v", oc.Name, i, err))
			continue
		}
		if orig != nil && over != nil {
			repl = append(repl, replacement{orig, over})
		}
	}
	return override(base, oc.Name, repl, notes), nil
}

// replacement is one clip an override controller replaces.
type replacement struct{ original, override *entry }

// override is base with the replacements applied to its clip slots: a copy
// of the controller named name, its clip names those of the clips now
// played.
func override(base *controllerSet, name string, repl []replacement, notes []string) *controllerSet {
	ctl := *base.ctl
	ctl.Name = name
	ctl.ClipNames = append([]string(nil), base.ctl.ClipNames...)
	for len(ctl.ClipNames) < len(ctl.Clips) {
		ctl.ClipNames = append(ctl.ClipNames, "")
	}
	cs := &controllerSet{ctl: &ctl, clips: append([]*entry(nil), base.clips...), notes: append(append([]string(nil), base.notes...), notes...)}
	for i, c := range cs.clips {
		for _, r := range repl {
			if c != nil && (c == r.original || c.origin.identical(r.original.origin)) {
				cs.clips[i] = r.override
				ctl.ClipNames[i] = r.override.name
				break
			}
		}
	}
	return cs
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// unityCharacter puts together the character of an Animator rig: its
// avatar (when the inputs hold it) and its meshes.
func (s *Set) unityCharacter(e *entry, u unityRig) (*bound.Character, error) {
	r := u.r
	in := bound.CharacterInput{Name: r.Name, Source: e.src, Rig: r.Rig}
	if r.HasAvatar() {
		ae, err := s.resolve(unityAnchor(u), r.Animator.Avatar)
		switch {
		case err != nil:
			in.AvatarMissing = fmt.Sprintf("its Animator's avatar: %v", err)
		case ae.kind != KindAvatar:
			in.AvatarMissing = fmt.Sprintf("its Animator's avatar is a %s", ae.kind)
		default:
			av, err := s.Avatar(bound.AvatarID(ae.index))
			if err != nil {
				in.AvatarMissing = fmt.Sprintf("its avatar %q does not decode: %v", ae.name, err)
			} else {
				in.Avatar, in.AvatarSource = av, ae.src
			}
		}
	}
	src, rig := s.meshSource(r.File), r.Rig // not r: it holds the file
	in.Meshes = func() ([]model.MeshInstance, []error) {
		s, f := src.get()
		if s == nil {
			return nil, []error{fmt.Errorf("character %q (%s): %w", in.Name, in.Source, ErrClosed)}
		}
		return mesh.Attach(f, rig, s.cat.Resolver())
	}
	return bound.NewCharacter(in)
}

// unityAnchor is where a rig's references are made: its file.
func unityAnchor(u unityRig) catalog.Object { return catalog.Object{File: u.r.File} }

// sameTransform compares two transforms, rotations up to sign.
func sameTransform(a, b geom.Transform) bool {
	return a.T == b.T && a.S == b.S && (a.R == b.R || a.R == b.R.Neg())
}
