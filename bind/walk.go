package bind

import (
	"fmt"
	"sync"

	"github.com/mecanim/mecanim/decode/catalog"
	"github.com/mecanim/mecanim/model"
)

// This file holds what a caller that walks a whole set once — extracting
// every character of a game — needs beyond choosing and binding: dropping
// what was decoded once it is written, and the clips a character's legacy
// Animation components play.

// Release drops what the set decoded for object i of kind k (a clip's
// curves, a character's meshes), so that a caller walking a large set
// holds only what it works on; a later use decodes the object again. The
// caller must not use the object, nor anything bound from it, while
// Release runs (a set is otherwise safe for concurrent use: it is
// Release that is not).
func (s *Set) Release(k Kind, i int) {
	e, err := s.entry(k, i)
	if err != nil {
		return
	}
	e.once = sync.Once{}
	e.val, e.err = nil, nil
}

// CharacterAnimations returns the clips character i's legacy Animation
// component holds (its default m_Animation, then its m_Animations), each
// once, with a note for each one the inputs lack. Characters that are not
// an Animation component's (an Animator's, or of other inputs) have none:
// an Animation component on an Animator's GameObject is a character of its
// own.
func (s *Set) CharacterAnimations(i int) ([]int, []string) {
	ce, err := s.entry(KindCharacter, i)
	if err != nil {
		return nil, nil
	}
	u, ok := ce.origin.(unityRig)
	if !ok || u.r.Rig == nil || u.r.Legacy == nil {
		return nil, nil
	}
	var clips []int
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
			clips = append(clips, e.index)
		}
	}
	return clips, notes
}
