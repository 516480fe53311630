package bind

import (
	"errors"

	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/model"
)

// A generic clip whose character the inputs lack (a camera's, a light's,
// a prop's clip of a stage bundle) plays on a rig made of its own paths:
// every command makes that same choice (CharacterFor), so it poses,
// renders and exports rather than being refused. A humanoid clip needs an
// avatar and is never played so.

// ownPaths returns the character of clip i made of its own paths, built
// once per clip: named and sourced as the clip.
func (s *Set) ownPaths(clip int, c *model.Clip) (*bound.Character, error) {
	e, err := s.entry(KindClip, clip)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	if s.pathChars == nil {
		s.pathChars = map[*entry]*avatarChar{}
	}
	pc := s.pathChars[e]
	if pc == nil {
		pc = &avatarChar{}
		s.pathChars[e] = pc
	}
	s.mu.Unlock()
	pc.once.Do(func() {
		pc.c, pc.err = bound.NewCharacter(bound.CharacterInput{
			Name: c.Name, Source: e.src, Rig: model.RigOfPaths(c.Name, c), OwnPaths: true,
		})
	})
	return pc.c, pc.err
}

// onOwnPaths reports whether clip c, refused with err by the choice of a
// character, plays on its own paths instead: a generic clip no character
// of the inputs takes, with float or integer curves to play (a clip
// without curves, or of object references alone, has nothing its own
// paths could show, and keeps the refusal).
func onOwnPaths(c *model.Clip, err error) bool {
	return err != nil && errors.Is(err, ErrNoCharacter) && !c.Humanoid && len(c.Curves)+len(c.IntCurves) > 0
}
