package bind

import (
	"fmt"
	"sync"

	"github.com/mecanim/mecanim/decode/catalog"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/typetree"
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

// CharacterAnimations returns the clips the legacy Animation components on
// character i's GameObjects list (their m_Animations and default
// m_Animation), in the order listed, each once, with a note for each one
// the inputs lack. Characters not read from Unity files have none.
func (s *Set) CharacterAnimations(i int) ([]int, []string) {
	ce, err := s.entry(KindCharacter, i)
	if err != nil {
		return nil, nil
	}
	u, ok := ce.origin.(unityRig)
	if !ok || u.r.Rig == nil {
		return nil, nil
	}
	f := u.r.File
	onRig := map[int64]bool{}
	for _, n := range u.r.Nodes {
		if n.GameObject.FileID == 0 && !n.GameObject.IsNull() {
			onRig[n.GameObject.PathID] = true
		}
	}
	var clips []int
	var notes []string
	seen := map[*entry]bool{}
	for k := range f.Objects {
		o := catalog.Object{File: f, Object: &f.Objects[k]}
		if o.ClassID() != model.ClassAnimation {
			continue
		}
		v, err := s.cat.Value(o)
		if err != nil {
			notes = append(notes, fmt.Sprintf("Animation component %s: %v", sourceOf(o), err))
			continue
		}
		if fid, pid, ok := v.Field("m_GameObject").PPtr(); !ok || fid != 0 || !onRig[pid] {
			continue
		}
		refs := []*typetree.Value{v.Field("m_Animation")}
		if list := v.Field("m_Animations"); list != nil {
			for _, x := range list.Elems() {
				refs = append(refs, &x)
			}
		}
		for _, r := range refs {
			fid, pid, ok := r.PPtr()
			if !ok || pid == 0 {
				continue
			}
			e, err := s.resolve(o, model.Ref{FileID: fid, PathID: pid})
			switch {
			case err != nil:
				notes = append(notes, fmt.Sprintf("Animation component %s: a clip: %v", sourceOf(o), err))
			case e.kind != KindClip:
				notes = append(notes, fmt.Sprintf("Animation component %s: lists a %s", sourceOf(o), e.kind))
			case !seen[e]:
				seen[e] = true
				clips = append(clips, e.index)
			}
		}
	}
	return clips, notes
}
