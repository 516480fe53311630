package bind

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/model"
)

// ontoCharacter returns the character sel names as a place to play on,
// whatever kind of source it is: an input file (a glTF or VRM character,
// a prefab with its avatar, an avatar asset, a bundle) stands for the one
// character read from it (several that differ are ErrAmbiguous); anything
// else is a character (an Animator's GameObject), else an avatar, by name
// or reference.
func (s *Set) ontoCharacter(sel string) (*bound.Character, error) {
	for _, k := range []Kind{KindCharacter, KindAvatar} {
		var hits []*entry
		for _, e := range s.entries[k] {
			if fromFile(e.src, sel) {
				hits = append(hits, e)
			}
		}
		if len(hits) == 0 {
			continue
		}
		if distinct(hits) {
			return nil, s.ambiguous(k, fmt.Sprintf("%s holds %d %ss", sel, len(hits), k), hits)
		}
		if k == KindAvatar {
			return s.avatarCharacter(hits[0])
		}
		return s.character(hits[0].index)
	}
	i, err := s.find(KindCharacter, sel)
	if errors.Is(err, ErrNotFound) {
		if j, aerr := s.find(KindAvatar, sel); aerr == nil {
			return s.avatarCharacter(s.entries[KindAvatar][j])
		} else if !errors.Is(aerr, ErrNotFound) {
			return nil, aerr
		}
		return nil, fmt.Errorf("%w: %q is no input file holding a character, and no character or avatar of the inputs", ErrNotFound, sel)
	}
	if err != nil {
		return nil, err
	}
	return s.character(i)
}

// fromFile reports whether an object was read from the file path names:
// its container, or its asset file in a project folder.
func fromFile(src model.Source, path string) bool {
	want, err := filepath.Abs(path)
	if err != nil {
		return false
	}
	same := func(p string) bool {
		if p == "" {
			return false
		}
		a, err := filepath.Abs(p)
		return err == nil && a == want
	}
	return same(src.Container) || (src.File != "" && same(filepath.Join(src.Container, src.File)))
}
