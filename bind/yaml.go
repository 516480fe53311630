package bind

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"github.com/mecanim/mecanim/inputs"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/decode/yamlasset"
	"github.com/mecanim/mecanim/model"
)

// yamlInput is one parsed editor asset.
type yamlInput struct {
	path      string // as opened
	container string // the input given (the file, or its project folder)
	rel       string // the asset's path in its project folder ("" for a file given alone)
	f         *yamlasset.File
}

// source is where an object of the asset was read.
func (in *yamlInput) source(fileID int64) model.Source {
	return model.Source{Container: in.container, File: in.rel, PathID: fileID}
}

// yamlObject is an object (a document) of an editor asset.
type yamlObject struct {
	in  *yamlInput
	doc *yamlasset.Document
}

// identical: the same document of the same asset.
func (y yamlObject) identical(o origin) bool {
	v, ok := o.(yamlObject)
	return ok && v.in == y.in && v.doc == y.doc
}

// yamlRig is the hierarchy below an Animator (or a root) of a prefab or
// scene.
type yamlRig struct {
	in  *yamlInput
	rig *model.Rig
}

func (y yamlRig) identical(o origin) bool {
	v, ok := o.(yamlRig)
	return ok && sameRig(y.rig, v.rig)
}

// yamlKey names a document of an editor asset.
type yamlKey struct {
	path   string
	fileID int64
}

// addProject reads a project folder: every editor asset below it, and the
// GUIDs its .meta files give. It stops when ctx ends (between files).
func (s *Set) addProject(ctx context.Context, dir string) []error {
	var errs []error
	var assets []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			errs = append(errs, err)
			return nil
		}
		if ctx.Err() != nil {
			return filepath.SkipAll
		}
		if d.IsDir() {
			if p != dir && inputs.NotWalked(d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		switch {
		case strings.HasSuffix(p, ".meta"):
			s.readMeta(p)
		case inputs.HasYAMLExtension(p):
			assets = append(assets, p)
		}
		return nil
	})
	if err != nil {
		errs = append(errs, err)
	}
	for _, p := range assets {
		if ctx.Err() != nil {
			return errs
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			rel = p
		}
		if err := s.addYAML(p, dir, filepath.ToSlash(rel)); err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}

// readMeta records the GUID a .meta file gives its asset.
func (s *Set) readMeta(meta string) {
	f, err := os.Open(meta)
	if err != nil {
		return
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for i := 0; i < 8 && sc.Scan(); i++ {
		if g, ok := strings.CutPrefix(sc.Text(), "guid:"); ok {
			if g = strings.TrimSpace(g); g != "" {
				abs, _ := filepath.Abs(strings.TrimSuffix(meta, ".meta"))
				s.guidPath[g] = abs
			}
			return
		}
	}
}

// addYAML parses an editor asset and lists its objects.
func (s *Set) addYAML(path, container, rel string) error {
	f, err := yamlasset.ParseFile(path)
	if err != nil {
		return err
	}
	abs, _ := filepath.Abs(path)
	s.readMeta(path + ".meta")
	return s.addYAMLFile(f, abs, container, rel)
}

// addYAMLFile lists the objects of an editor asset already parsed; abs
// identifies it (its absolute path, or its path inside a package).
func (s *Set) addYAMLFile(f *yamlasset.File, abs, container, rel string) error {
	in := &yamlInput{path: abs, container: container, rel: rel, f: f}
	if strings.EqualFold(filepath.Ext(abs), ".prefab") {
		s.prefabs[abs] = f
	}
	add := func(k Kind, d *yamlasset.Document) {
		e := s.add(&entry{kind: k, name: d.Name(), src: in.source(d.FileID), origin: yamlObject{in, d}})
		s.byYAML[yamlKey{abs, d.FileID}] = e
	}
	for _, d := range f.Docs {
		if d.Stripped {
			continue
		}
		switch {
		case d.ClassID == model.ClassAnimationClip || d.Type == "AnimationClip":
			add(KindClip, d)
		case d.ClassID == model.ClassAnimatorController || d.Type == "AnimatorController":
			add(KindController, d)
		case d.ClassID == model.ClassOverrideController || d.Type == "AnimatorOverrideController":
			add(KindController, d)
		case d.ClassID == model.ClassAvatar || d.Type == "Avatar":
			add(KindAvatar, d)
		case d.ClassID == classAvatarMask || d.Type == "AvatarMask":
			s.byYAML[yamlKey{abs, d.FileID}] = &entry{kind: kinds, name: d.Name(), src: in.source(d.FileID), origin: yamlObject{in, d}}
		}
	}
	switch strings.ToLower(filepath.Ext(abs)) {
	case ".prefab", ".unity":
		rigs, err := f.RigsFrom(s.prefab)
		if err != nil {
			return err
		}
		for _, r := range rigs {
			src := in.source(0)
			if r.Animator != nil {
				src.PathID = r.Animator.Component.PathID
			}
			s.add(&entry{kind: KindCharacter, name: r.Name, src: src, origin: yamlRig{in, r}})
		}
	}
	return nil
}

// prefab returns the editor prefab a GUID names among the inputs (parsed
// once), so that a scene's or prefab's instances of it are read whole; nil
// when the GUID names no prefab of the inputs.
func (s *Set) prefab(guid string) *yamlasset.File {
	path, ok := s.guidPath[guid]
	if !ok || !strings.EqualFold(filepath.Ext(path), ".prefab") {
		return nil
	}
	if f, ok := s.prefabs[path]; ok {
		return f
	}
	f, err := yamlasset.ParseFile(path)
	if err != nil {
		f = nil // not readable here (inside a package, or damaged: reported when it is added)
	}
	s.prefabs[path] = f
	return f
}

// classAvatarMask is the class id of an AvatarMask.
const classAvatarMask = 319

// yamlResolve follows a reference made in an editor asset (a model.Ref of
// the file: FileID 0 for its own objects, else the 1-based index of a GUID
// it names) to the entry of the object.
func (s *Set) yamlResolve(in *yamlInput, ref model.Ref) (*entry, error) {
	if ref.IsNull() {
		return nil, nil
	}
	path := in.path
	if ref.FileID != 0 {
		gs := in.f.GUIDs()
		i := int(ref.FileID) - 1
		if i < 0 || i >= len(gs) {
			return nil, fmt.Errorf("%s: reference to file %d of %d", in.path, ref.FileID, len(gs))
		}
		p, err := s.guidAsset(gs[i])
		if err != nil {
			return nil, err
		}
		path = p
	}
	if e := s.byYAML[yamlKey{path, ref.PathID}]; e != nil {
		return e, nil
	}
	return nil, fmt.Errorf("object %d of %s is not among the inputs", ref.PathID, path)
}

// yamlResolveKey follows a reference key ("fileID" or "guid:fileID", as
// yamlasset writes them) made in an editor asset.
func (s *Set) yamlResolveKey(in *yamlInput, key string) (*entry, error) {
	g, id, ok := strings.Cut(key, ":")
	if !ok {
		g, id = "", key
	}
	fileID, err := strconv.ParseInt(id, 10, 64)
	if err != nil {
		return nil, fmt.Errorf("reference %q: %v", key, err)
	}
	if g == "" && fileID == 0 {
		return nil, nil
	}
	path := in.path
	if g != "" {
		if path, err = s.guidAsset(g); err != nil {
			return nil, err
		}
	}
	if e := s.byYAML[yamlKey{path, fileID}]; e != nil {
		return e, nil
	}
	return nil, fmt.Errorf("object %d of %s is not among the inputs", fileID, path)
}

// guidAsset returns the path of the asset a GUID names, from the .meta
// files of the inputs.
func (s *Set) guidAsset(g string) (string, error) {
	if p, ok := s.guidPath[g]; ok {
		return p, nil
	}
	if strings.Trim(g, "0") == "" || strings.HasPrefix(g, "0000000000000000") {
		return "", fmt.Errorf("asset %s is one of Unity's built-in resources, not in any input", g)
	}
	return "", fmt.Errorf("asset %s is not among the inputs (no .meta file of theirs gives that guid: give the project folder)", g)
}

// yamlController converts a controller asset and resolves its clips (and
// its layers' AvatarMasks) through the inputs; an override controller is
// its base with clips replaced.
func (s *Set) yamlController(y yamlObject, depth int) (*controllerSet, error) {
	f, d := y.in.f, y.doc
	if d.ClassID == model.ClassOverrideController || d.Type == "AnimatorOverrideController" {
		if depth >= maxOverrideDepth {
			return nil, fmt.Errorf("%s: override controllers nested more than %d deep", f.Name, maxOverrideDepth)
		}
		oc, err := f.OverrideControllerOf(d)
		if err != nil {
			return nil, err
		}
		src := y.in.source(d.FileID)
		be, err := s.yamlResolveKey(y.in, oc.ControllerKey)
		switch {
		case err != nil:
			return nil, fmt.Errorf("override controller %q (%s): its controller: %w", oc.Name, src, err)
		case be == nil || be.kind != KindController:
			return nil, fmt.Errorf("override controller %q (%s) overrides no controller", oc.Name, src)
		}
		by, ok := be.origin.(yamlObject)
		if !ok {
			return nil, fmt.Errorf("override controller %q (%s): its controller is not an editor asset", oc.Name, src)
		}
		base, err := s.yamlController(by, depth+1)
		if err != nil {
			return nil, err
		}
		var repl []replacement
		var notes []string
		for i, ov := range oc.Overrides {
			orig, err1 := s.yamlResolveKey(y.in, ov.OriginalKey)
			over, err2 := s.yamlResolveKey(y.in, ov.OverrideKey)
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
	ctl, err := f.ControllerOf(d)
	if err != nil {
		return nil, err
	}
	cs := &controllerSet{ctl: ctl, clips: make([]*entry, len(ctl.Clips))}
	for i, key := range ctl.ClipKeys {
		ce, err := s.yamlResolveKey(y.in, key)
		if err != nil {
			cs.notes = append(cs.notes, fmt.Sprintf("controller %q: clip %d: %v", ctl.Name, i, err))
			continue
		}
		if ce != nil && ce.kind == KindClip && i < len(cs.clips) {
			cs.clips[i] = ce
		}
	}
	yamlasset.ResolveClips(ctl, func(key string) *model.Clip {
		for i, k := range ctl.ClipKeys {
			if k == key && i < len(cs.clips) && cs.clips[i] != nil {
				if c, err := s.Clip(bound.ClipID(cs.clips[i].index)); err == nil {
					return c
				}
			}
		}
		return nil
	})
	yamlasset.ResolveMasks(ctl, func(key string) *yamlasset.AvatarMask {
		me, err := s.yamlResolveKey(y.in, key)
		if err != nil || me == nil {
			cs.notes = append(cs.notes, fmt.Sprintf("controller %q: AvatarMask %s: %v", ctl.Name, key, errOrMissing(err)))
			return nil
		}
		mo, ok := me.origin.(yamlObject)
		if !ok {
			return nil
		}
		m, err := mo.in.f.AvatarMaskOf(mo.doc)
		if err != nil {
			cs.notes = append(cs.notes, fmt.Sprintf("controller %q: AvatarMask %s: %v", ctl.Name, key, err))
			return nil
		}
		return m
	})
	return cs, nil
}

func errOrMissing(err error) error {
	if err == nil {
		return errors.New("not among the inputs")
	}
	return err
}

// yamlCharacter puts together the character of a prefab's or scene's
// hierarchy: its avatar when the inputs hold it (meshes live in the model
// files the editor imports, which the set does not read).
func (s *Set) yamlCharacter(e *entry, y yamlRig) (*bound.Character, error) {
	in := bound.CharacterInput{Name: y.rig.Name, Source: e.src, Rig: y.rig}
	if a := y.rig.Animator; a != nil && !a.Avatar.IsNull() {
		ae, err := s.yamlResolve(y.in, a.Avatar)
		switch {
		case err != nil:
			in.AvatarMissing = fmt.Sprintf("its Animator's avatar: %v", err)
		case ae == nil || ae.kind != KindAvatar:
			in.AvatarMissing = "its Animator's avatar is not an avatar of the inputs"
		default:
			av, err := s.Avatar(bound.AvatarID(ae.index))
			if err != nil {
				in.AvatarMissing = fmt.Sprintf("its avatar %q does not decode: %v", ae.name, err)
			} else {
				in.Avatar, in.AvatarSource = av, ae.src
			}
		}
	}
	return bound.NewCharacter(in)
}
