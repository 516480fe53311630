package bind

import (
	"context"
	"fmt"
	"sync"

	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/decode/catalog"
	"github.com/mecanim/mecanim/model"
)

// This file holds what a caller that walks a whole set once — extracting
// every character of a game — needs beyond choosing and binding: dropping
// what was decoded once it is written, and the clips a character's legacy
// Animation components play.

// Release drops what set s decoded for one object (a clip's curves, a
// character's meshes), so that a caller walking a large set holds only
// what it works on; a later use decodes the object again. The caller must
// not use the object, nor anything bound from it, while Release runs (a
// set is otherwise safe for concurrent use: it is Release that is not).
func Release[ID bound.ClipID | bound.CharacterID | bound.AvatarID | bound.ControllerID](s *Set, id ID) {
	var k Kind
	switch any(id).(type) {
	case bound.ClipID:
		k = KindClip
	case bound.CharacterID:
		k = KindCharacter
	case bound.AvatarID:
		k = KindAvatar
	default:
		k = KindController
	}
	e, err := s.entry(k, int(id))
	if err != nil {
		return
	}
	e.once = sync.Once{}
	e.val, e.err = decoded{}, nil
}

// CharacterAnimations returns the clips a character's legacy Animation
// component holds (its default m_Animation, then its m_Animations), each
// once, with a note for each one the inputs lack. Characters that are not
// an Animation component's (an Animator's, or of other inputs) have none:
// an Animation component on an Animator's GameObject is a character of its
// own. The notes go to the Logger too.
func (s *Set) CharacterAnimations(ctx context.Context, id bound.CharacterID) ([]bound.ClipID, []string) {
	ce, err := s.entry(KindCharacter, int(id))
	if err != nil {
		return nil, nil
	}
	es, notes := s.animations(ce)
	s.logNotes(ctx, ce, nil, notes)
	clips := make([]bound.ClipID, len(es))
	for i, e := range es {
		clips[i] = bound.ClipID(e.index)
	}
	return clips, notes
}

// animations is CharacterAnimations for a character entry.
func (s *Set) animations(ce *entry) ([]*entry, []string) {
	u, ok := ce.origin.(unityRig)
	if !ok || u.r.Rig == nil || u.r.Legacy == nil {
		return nil, nil
	}
	var clips []*entry
	var notes []string
	seen := map[*entry]bool{}
	from := catalog.Object{File: u.r.File}
	for _, ref := range append([]model.Ref{u.r.Legacy.Clip}, u.r.Legacy.Clips...) {
		if ref.IsNull() {
			continue
		}
		e, err := s.resolve(from, ref)
		switch {
		case err != nil:
			notes = append(notes, fmt.Sprintf("Animation component %q: a clip: %v", u.r.Name, err))
		case e.kind != KindClip:
			notes = append(notes, fmt.Sprintf("Animation component %q: lists a %s", u.r.Name, e.kind))
		case !seen[e]:
			seen[e] = true
			clips = append(clips, e)
		}
	}
	return clips, notes
}
