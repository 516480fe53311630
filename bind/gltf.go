package bind

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/decode/gltfchar"
	"github.com/mecanim/mecanim/decode/yamlasset"
	"github.com/mecanim/mecanim/humanoid/avatarbuild"
	"github.com/mecanim/mecanim/model"
)

// gltfCharacter is a character read from a glTF or VRM file, with the
// avatar built from its human description (nil when it has none).
type gltfCharacter struct {
	ch     *gltfchar.Character
	avatar *model.Avatar
	avErr  error
}

func (g gltfCharacter) identical(o origin) bool {
	v, ok := o.(gltfCharacter)
	return ok && v.ch == g.ch
}

// gltfAvatar is the avatar built for a glTF character, or from a model
// importer's human description; err says why one could not be built (the
// avatar is still offered, and refused with err where it is used).
type gltfAvatar struct {
	av  *model.Avatar
	err error
}

func (g gltfAvatar) identical(o origin) bool {
	v, ok := o.(gltfAvatar)
	return ok && g.av != nil && v.av == g.av
}

// modelClip is a clip decoded already (a glTF character's animations).
type modelClip struct{ c *model.Clip }

func (m modelClip) identical(o origin) bool {
	v, ok := o.(modelClip)
	return ok && v.c == m.c
}

// addCharacterFile reads a glTF or VRM character: the character, its
// animations as clips, and the avatar built from its human bone map (as
// Unity's importer builds one from a model's human description).
func (s *Set) addCharacterFile(path string) error {
	ch, err := gltfchar.Config{HumanMap: s.opts.HumanMap}.Open(path)
	if err != nil {
		return err
	}
	g := gltfCharacter{ch: ch}
	ce := s.add(&entry{kind: KindCharacter, name: ch.Name, src: model.Source{Container: path}})
	if ch.Human != nil {
		g.avatar, g.avErr = avatarbuild.Build(ch.Name+"Avatar", ch.Human)
		if g.avErr == nil {
			ae := s.add(&entry{kind: KindAvatar, name: g.avatar.Name, src: model.Source{Container: path}, origin: gltfAvatar{av: g.avatar}})
			s.gltfAvatars[ce] = ae
		}
	}
	ce.origin = g
	for i, c := range ch.Clips {
		s.add(&entry{kind: KindClip, name: c.Name, src: model.Source{Container: path, PathID: int64(i + 1)}, origin: modelClip{c}})
	}
	return nil
}

// addModelMeta reads a model importer's human description and builds the
// avatar Unity's importer would (the model itself is not read: the avatar
// plays on its own skeleton, the description's T-pose).
func (s *Set) addModelMeta(path string) error {
	f, err := yamlasset.ParseFile(path)
	if err != nil {
		return err
	}
	return s.addModelSettings(f, filepath.Base(path), model.Source{Container: path})
}

// addModelSettings adds the avatar of a model importer's settings already
// parsed, named after the model's file name (base).
func (s *Set) addModelSettings(f *yamlasset.File, base string, src model.Source) error {
	d, err := f.HumanDescription()
	if err != nil {
		return err
	}
	if len(d.Human) == 0 {
		return nil // a generic model: nothing to play on without its FBX
	}
	name := base
	if i := strings.IndexByte(base, '.'); i > 0 {
		name = base[:i]
	}
	name += "Avatar"
	if avatarbuild.NeedsParents(d) {
		// Unity's importer of older versions leaves every parent to the
		// model file's hierarchy: valid settings, whose avatar only the
		// model builds. The avatar is listed, and refused where used.
		err := fmt.Errorf("%s: avatar %q: its human description leaves every bone's parent to the model's own hierarchy, in the model file, which mecanim does not read (convert the model to glTF, in Blender for one, and give that)", src.Container, name)
		s.add(&entry{kind: KindAvatar, name: name, src: src, origin: gltfAvatar{err: err}})
		return nil
	}
	av, err := avatarbuild.Build(name, d)
	if err != nil {
		return fmt.Errorf("%s: %w", src.Container, err)
	}
	s.add(&entry{kind: KindAvatar, name: name, src: src, origin: gltfAvatar{av: av}})
	return nil
}

// gltfCharacterOf puts a glTF character together.
func (s *Set) gltfCharacterOf(e *entry, g gltfCharacter) (*bound.Character, error) {
	in := bound.CharacterInput{Name: g.ch.Name, Source: e.src, Rig: g.ch.Rig, Avatar: g.avatar,
		Meshes: func() ([]model.MeshInstance, []error) { return g.ch.Meshes, nil }}
	switch {
	case g.avErr != nil:
		in.AvatarMissing = fmt.Sprintf("its human description does not build an avatar: %v", g.avErr)
	case g.ch.Human == nil:
		in.AvatarMissing = "no human bone map: not a VRM, no known bone names (give a human bone map: Options.HumanMap)"
	}
	if ae := s.gltfAvatars[e]; ae != nil {
		in.AvatarSource = ae.src
	}
	return bound.NewCharacter(in)
}
