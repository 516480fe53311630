package bind

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/model"
)

// value decodes an entry's object once.
func (s *Set) value(e *entry) (any, error) {
	e.once.Do(func() {
		switch o := e.origin.(type) {
		case unityObject:
			e.val, e.err = s.decodeUnity(e, o)
		case unityRig:
			e.val, e.err = s.unityCharacter(e, o)
		default:
			e.val, e.err = s.decodeOther(e)
		}
	})
	return e.val, e.err
}

// Clip decodes clip i (once), its channels named from every name table
// and rig of the inputs.
func (s *Set) Clip(i int) (*model.Clip, error) {
	e, err := s.entry(KindClip, i)
	if err != nil {
		return nil, err
	}
	v, err := s.value(e)
	if err != nil {
		return nil, err
	}
	return v.(*model.Clip), nil
}

// Avatar decodes avatar i (once).
func (s *Set) Avatar(i int) (*model.Avatar, error) {
	e, err := s.entry(KindAvatar, i)
	if err != nil {
		return nil, err
	}
	v, err := s.value(e)
	if err != nil {
		return nil, err
	}
	return v.(*model.Avatar), nil
}

// ControllerClips is a controller with the clips it plays: its decoded
// model (an override controller's replacements applied: its clip names
// are those of the clips it plays), the clip entry of each slot, and what
// could not be resolved.
type ControllerClips struct {
	Controller *model.Controller
	// Clips are the indexes of the clips each slot plays (-1 for a null
	// slot or a clip the inputs lack), parallel to Controller.Clips.
	Clips []int
	// Notes say which clips are missing and where they are (the file that
	// holds them, the path id).
	Notes []string
}

// Controller decodes controller i (once) and resolves its clips across the
// inputs.
func (s *Set) Controller(i int) (*ControllerClips, error) {
	e, err := s.entry(KindController, i)
	if err != nil {
		return nil, err
	}
	v, err := s.value(e)
	if err != nil {
		return nil, err
	}
	cs := v.(*controllerSet)
	out := &ControllerClips{Controller: cs.ctl, Clips: make([]int, len(cs.clips)), Notes: cs.notes}
	for k, c := range cs.clips {
		out.Clips[k] = -1
		if c != nil {
			out.Clips[k] = c.index
		}
	}
	return out, nil
}

// ControllerModel decodes controller i (see Controller).
func (s *Set) ControllerModel(i int) (*model.Controller, error) {
	cc, err := s.Controller(i)
	if err != nil {
		return nil, err
	}
	return cc.Controller, nil
}

// Character puts together character i (once): its GameObjects, its avatar
// and its meshes.
func (s *Set) Character(i int) (*bound.Character, error) {
	e, err := s.entry(KindCharacter, i)
	if err != nil {
		return nil, err
	}
	v, err := s.value(e)
	if err != nil {
		return nil, err
	}
	return v.(*bound.Character), nil
}

// On says what a clip or a controller plays on: a character or an avatar,
// each by name or reference (see Find); both empty lets the binding
// choose.
type On struct {
	Character string
	Avatar    string
	// Onto is any character source (see Set.CharacterOn): an input file
	// holding one character, or a character or avatar by name or
	// reference.
	Onto string
}

// CharacterOn returns the character on names: the character chosen, the
// character of the avatar chosen (see AvatarCharacter), or the one Onto
// names: the one character read from that input file (a glTF or VRM
// file, a prefab with its avatar, a bundle with one Animator), else a
// character or avatar of that name or reference. It is nil, with no
// error, when on names neither.
func (s *Set) CharacterOn(on On) (*bound.Character, error) {
	switch {
	case (on.Character != "") && (on.Avatar != ""), on.Onto != "" && (on.Character != "" || on.Avatar != ""):
		return nil, errors.New("bind: give a character, an avatar or a place to play onto, not several")
	case on.Onto != "":
		return s.ontoCharacter(on.Onto)
	case on.Character != "":
		i, err := s.Find(KindCharacter, on.Character)
		if err != nil {
			return nil, err
		}
		return s.Character(i)
	case on.Avatar != "":
		i, err := s.Find(KindAvatar, on.Avatar)
		if err != nil {
			return nil, err
		}
		return s.AvatarCharacter(i)
	}
	return nil, nil
}

// AvatarCharacter returns the character avatar i plays on: the character
// whose Animator uses it when the inputs hold one (several that differ are
// ErrAmbiguous), else the avatar's own skeleton at its default pose.
func (s *Set) AvatarCharacter(i int) (*bound.Character, error) {
	ae, err := s.entry(KindAvatar, i)
	if err != nil {
		return nil, err
	}
	users := s.avatarUsers(ae)
	if len(users) > 0 {
		if distinct(users) {
			return nil, ambiguous(KindCharacter, fmt.Sprintf("avatar %q is used by %d different characters", ae.name, len(users)), users)
		}
		return s.Character(users[0].index)
	}
	av, err := s.Avatar(i)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	if s.avatarChars == nil {
		s.avatarChars = map[*entry]*avatarChar{}
	}
	ac := s.avatarChars[ae]
	if ac == nil {
		ac = &avatarChar{}
		s.avatarChars[ae] = ac
	}
	s.mu.Unlock()
	ac.once.Do(func() {
		ac.c, ac.err = bound.NewCharacter(bound.CharacterInput{Name: av.Name, Source: ae.src, Avatar: av, AvatarSource: ae.src})
	})
	return ac.c, ac.err
}

// avatarUsers returns the characters whose Animator uses avatar entry ae
// (or an identical avatar).
func (s *Set) avatarUsers(ae *entry) []*entry {
	var out []*entry
	for _, ce := range s.entries[KindCharacter] {
		if a := s.characterAvatar(ce); a != nil && (a == ae || a.origin.identical(ae.origin)) {
			out = append(out, ce)
		}
	}
	return out
}

// characterAvatar returns the avatar entry a character's Animator names
// (nil for none, or one the inputs lack).
func (s *Set) characterAvatar(ce *entry) *entry {
	switch o := ce.origin.(type) {
	case unityRig:
		if o.r.HasAvatar() {
			if e, err := s.resolve(unityAnchor(o), o.r.Animator.Avatar); err == nil && e.kind == KindAvatar {
				return e
			}
		}
	default:
		return s.otherCharacterAvatar(ce)
	}
	return nil
}

// CharacterController returns the index of the controller character i's
// Animator plays (-1 for none, or one the inputs lack).
func (s *Set) CharacterController(i int) int {
	ce, err := s.entry(KindCharacter, i)
	if err != nil {
		return -1
	}
	if e := s.characterController(ce); e != nil {
		return e.index
	}
	return -1
}

func (s *Set) characterController(ce *entry) *entry {
	switch o := ce.origin.(type) {
	case unityRig:
		if a := o.r.Animator; a != nil && !a.Controller.IsNull() {
			if e, err := s.resolve(unityAnchor(o), a.Controller); err == nil && e.kind == KindController {
				return e
			}
		}
	default:
		return s.otherCharacterController(ce)
	}
	return nil
}

// candidates returns the characters a clip may play on when nothing was
// asked for: for a humanoid clip the distinct humanoid avatars; for a
// generic clip the characters whose paths its Transform channels name most
// often (else avatars whose name tables name them). Several distinct
// candidates are refused by CharacterFor, everywhere.
func (s *Set) candidates(c *model.Clip) ([]*entry, Kind, error) {
	if c.Humanoid {
		var avs []*entry
		var broken []string
		for _, ae := range s.entries[KindAvatar] {
			av, err := s.Avatar(ae.index)
			if err != nil {
				broken = append(broken, fmt.Sprintf("avatar %q (%s): %v", ae.name, ae.src, err))
				continue
			}
			if !av.IsHuman() {
				continue
			}
			dup := false
			for _, x := range avs {
				dup = dup || x.origin.identical(ae.origin)
			}
			if !dup {
				avs = append(avs, ae)
			}
		}
		if len(avs) == 0 {
			if len(broken) > 0 {
				return nil, KindAvatar, fmt.Errorf("%w: clip %q is humanoid and no avatar of the inputs that decodes is humanoid; %s", ErrNoCharacter, c.Name, strings.Join(broken, "; "))
			}
			return nil, KindAvatar, fmt.Errorf("%w: clip %q is humanoid and the inputs hold no humanoid avatar (add the file holding one)", ErrNoCharacter, c.Name)
		}
		return avs, KindAvatar, nil
	}
	var best []*entry
	bestN := 0
	for _, ce := range s.entries[KindCharacter] {
		n := s.channelsOn(c, ce)
		switch {
		case n > bestN:
			best, bestN = []*entry{ce}, n
		case n == bestN && n > 0:
			best = append(best, ce)
		}
	}
	if bestN > 0 {
		return best, KindCharacter, nil
	}
	var avs []*entry
	for _, ae := range s.entries[KindAvatar] {
		if av, err := s.Avatar(ae.index); err == nil && namesChannel(c, av.Names) {
			avs = append(avs, ae)
		}
	}
	if len(avs) > 0 {
		return avs, KindAvatar, nil
	}
	if len(s.entries[KindCharacter]) == 0 {
		if len(c.Curves) == 0 && len(c.ObjectCurves) > 0 {
			// A 2D clip: it switches sprites (or other objects) only.
			return nil, KindCharacter, fmt.Errorf("%w: clip %q switches objects (sprites, materials) and moves no Transform, and the inputs hold no character (render draws a sprite clip, extract writes it as an animated PNG and a sprite sheet)", ErrNoCharacter, c.Name)
		}
		return nil, KindCharacter, fmt.Errorf("%w: clip %q animates Transforms, and the inputs hold no character (add the file with the character's GameObjects)", ErrNoCharacter, c.Name)
	}
	var have []string
	for _, ce := range s.entries[KindCharacter] {
		have = append(have, fmt.Sprintf("%q", ce.name))
	}
	return nil, KindCharacter, fmt.Errorf("%w: no character in the inputs has the paths clip %q animates (characters: %s)", ErrNoCharacter, c.Name, strings.Join(have, ", "))
}

// preferPlayers narrows several candidates (characters, or avatars) to
// those of the characters that play the clip — their Animator's
// controller or their Animation component lists it — when any do: a clip
// plays where the game plays it, though other characters of the same
// paths or avatars could. A candidate's controller that does not decode
// could have listed the clip: the choice is not made without it, and its
// damage is the error (not an ambiguity the damage made).
func (s *Set) preferPlayers(clip int, cands []*entry, k Kind) ([]*entry, error) {
	if len(cands) < 2 {
		return cands, nil
	}
	var out []*entry
	for _, e := range cands {
		users := []*entry{e}
		if k == KindAvatar {
			users = s.avatarUsers(e)
		}
		for _, ce := range users {
			plays, err := s.plays(ce, clip)
			if err != nil {
				return nil, err
			}
			if plays {
				out = append(out, e)
				break
			}
		}
	}
	if len(out) == 0 {
		return cands, nil
	}
	return out, nil
}

// plays reports whether character ce's controller or Animation component
// lists clip i (or an identical copy of it); a controller that does not
// decode is an error.
func (s *Set) plays(ce *entry, i int) (bool, error) {
	want, err := s.entry(KindClip, i)
	if err != nil {
		return false, nil
	}
	same := func(j int) bool {
		if j == i {
			return true
		}
		e, err := s.entry(KindClip, j)
		return err == nil && e.origin != nil && want.origin != nil && e.origin.identical(want.origin)
	}
	if ctl := s.characterController(ce); ctl != nil {
		cc, err := s.Controller(ctl.index)
		if err != nil {
			return false, fmt.Errorf("character %q: its controller: %w", ce.name, err)
		}
		if slices.ContainsFunc(cc.Clips, same) {
			return true, nil
		}
	}
	clips, _ := s.CharacterAnimations(ce.index)
	return slices.ContainsFunc(clips, same), nil
}

// channelsOn counts a clip's channels whose paths a character's
// GameObjects have: its Transform channels, and those of components below
// the root (a blend-shape clip plays on the character with its mesh).
func (s *Set) channelsOn(c *model.Clip, ce *entry) int {
	r := s.characterRig(ce)
	if r == nil {
		return 0
	}
	names := r.Names()
	n := 0
	for i := range c.Curves {
		t := &c.Curves[i].Target
		// A Transform channel, or a component's below the root (blend
		// shapes, materials: every character has a root).
		if t.ClassID != model.ClassTransform && (t.PathHash == 0 || t.ClassID == model.ClassAnimator) {
			continue
		}
		if _, ok := names[t.PathHash]; ok {
			n++
		}
	}
	return n
}

// namesChannel reports whether a name table names one of a clip's
// Transform channels' paths.
func namesChannel(c *model.Clip, names model.Names) bool {
	for i := range c.Curves {
		t := &c.Curves[i].Target
		if t.ClassID == model.ClassTransform {
			if _, ok := names[t.PathHash]; ok && t.PathHash != 0 {
				return true
			}
		}
	}
	return false
}

// characterRig returns a character entry's GameObjects without putting
// the character together.
func (s *Set) characterRig(ce *entry) *model.Rig {
	switch o := ce.origin.(type) {
	case unityRig:
		return o.r.Rig
	default:
		return s.otherCharacterRig(ce)
	}
}

// CharacterFor is the one rule that chooses what clips play on, for
// every command, the viewer and extract alike: the character on names
// (asked for by name or reference); else, for clips, the character each
// of them plays on (see candidates: the characters whose Animator or
// Animation component plays it first, then the best fits), which must be
// the same for all of them; else, with no clip, the only character of the
// inputs. Several candidates that differ are refused (a *ChoiceError
// listing each by a reference that chooses it); none is ErrNoCharacter,
// except for a generic clip, which then plays on a rig of its own paths
// (see ownPaths).
func (s *Set) CharacterFor(on On, clips ...int) (*bound.Character, error) {
	if ch, err := s.CharacterOn(on); ch != nil || err != nil {
		return ch, err
	}
	if len(clips) == 0 {
		return s.onlyCharacter()
	}
	var ch *bound.Character
	var first string
	for _, clip := range clips {
		c, err := s.characterFor(clip)
		if err != nil {
			return nil, err
		}
		it, _ := s.Entry(KindClip, clip)
		switch {
		case ch == nil:
			ch, first = c, it.Name
		case c != ch:
			e := &ChoiceError{Kind: KindCharacter, What: fmt.Sprintf("clip %q plays on %s and clip %q on %s", first, ch.Describe(), it.Name, c.Describe())}
			for _, x := range []*bound.Character{ch, c} {
				e.Candidates = append(e.Candidates, s.itemOf(x))
			}
			return nil, e
		}
	}
	return ch, nil
}

// itemOf is the listing of a character the set made (a character of the
// inputs, or an avatar's own skeleton).
func (s *Set) itemOf(ch *bound.Character) bound.Item {
	src := ch.Source()
	return bound.Item{Name: ch.Name(), Source: src, Label: ch.Name(), Ref: Ref(src)}
}

// onlyCharacter is the character of inputs that hold one (copies of one
// asset count once).
func (s *Set) onlyCharacter() (*bound.Character, error) {
	es := s.entries[KindCharacter]
	switch {
	case len(es) == 0:
		return nil, fmt.Errorf("%w: the inputs hold no character (Animator rig)", ErrNoCharacter)
	case len(es) > 1 && distinct(es):
		return nil, ambiguous(KindCharacter, fmt.Sprintf("the inputs hold %d characters", len(es)), es)
	}
	return s.Character(es[0].index)
}

// characterFor is the character clip i plays on when nothing was asked
// for (see CharacterFor).
func (s *Set) characterFor(clip int) (*bound.Character, error) {
	c, err := s.Clip(clip)
	if err != nil {
		return nil, err
	}
	cands, k, err := s.candidates(c)
	if onOwnPaths(c, err) {
		return s.ownPaths(clip, c)
	}
	if err != nil {
		return nil, err
	}
	if cands, err = s.preferPlayers(clip, cands, k); err != nil {
		return nil, err
	}
	if len(cands) > 1 && distinct(cands) {
		what := fmt.Sprintf("clip %q animates as many paths of %d characters", c.Name, len(cands))
		if k == KindAvatar {
			what = fmt.Sprintf("clip %q is humanoid and the inputs hold %d humanoid avatars", c.Name, len(cands))
		}
		return nil, ambiguous(k, what, cands)
	}
	if k == KindAvatar {
		return s.AvatarCharacter(cands[0].index)
	}
	return s.Character(cands[0].index)
}

// MotionOn binds clip i to what on names, or to the character the binding
// chooses for it (see CharacterFor).
func (s *Set) MotionOn(clip int, on On) (*bound.Motion, error) {
	ch, err := s.CharacterFor(on, clip)
	if err != nil {
		return nil, err
	}
	return s.bindClip(clip, ch)
}

// Bind binds clip i to a character the set made (chosen with
// CharacterFor, Character or AvatarCharacter), as every command plays a
// clip: a generic clip made for another humanoid character plays through
// muscles (its motion's RetargetedFrom says so), and a clip that drives
// nothing on the character is a *NothingDrivenError.
func (s *Set) Bind(clip int, ch *bound.Character) (*bound.Motion, error) {
	return s.bindClip(clip, ch)
}

// bindClip binds clip i to a character (see playOn).
func (s *Set) bindClip(clip int, ch *bound.Character) (*bound.Motion, error) {
	return s.playOn(clip, ch)
}

// ControllerOn binds controller i: its clips (across the inputs, an
// override controller's replacements applied) on the character on names,
// else on the character whose Animator plays it, else on none (its state
// machines only). Several different characters playing it are refused
// (a *ChoiceError listing them), as for a clip.
func (s *Set) ControllerOn(i int, on On) (*bound.Controller, error) {
	ch, err := s.CharacterOn(on)
	if err != nil {
		return nil, err
	}
	var notes []string
	if ch == nil {
		if ch, notes, err = s.controllerCharacter(i); err != nil {
			return nil, err
		}
	}
	return s.bindController(i, ch, notes)
}

// controllerCharacter is the character whose Animator plays controller i
// (nil, with a note, for none; several that differ are refused).
func (s *Set) controllerCharacter(i int) (*bound.Character, []string, error) {
	ce, err := s.entry(KindController, i)
	if err != nil {
		return nil, nil, err
	}
	var users []*entry
	for _, c := range s.entries[KindCharacter] {
		if x := s.characterController(c); x != nil && (x == ce || x.origin.identical(ce.origin)) {
			users = append(users, c)
		}
	}
	switch {
	case len(users) == 0:
		return nil, []string{fmt.Sprintf("no Animator in the inputs plays controller %q: states, events and timing only (no pose, no root motion)", ce.name)}, nil
	case len(users) > 1 && distinct(users):
		return nil, nil, ambiguous(KindCharacter, fmt.Sprintf("controller %q is played by %d characters", ce.name, len(users)), users)
	}
	ch, err := s.Character(users[0].index)
	return ch, nil, err
}

// bindController binds controller i's clips to ch (nil: none).
func (s *Set) bindController(i int, ch *bound.Character, notes []string) (*bound.Controller, error) {
	cc, err := s.Controller(i)
	if err != nil {
		return nil, err
	}
	in := bound.ControllerInput{Controller: cc.Controller, Source: s.entries[KindController][i].src, On: ch,
		Clips: make([]*model.Clip, len(cc.Clips)), ClipSources: make([]model.Source, len(cc.Clips)),
		Notes: append(append([]string(nil), notes...), cc.Notes...)}
	for k, ci := range cc.Clips {
		if ci < 0 {
			continue
		}
		c, err := s.Clip(ci)
		if err != nil {
			// A clip the inputs hold that does not decode is damage, not
			// a missing file: the controller would play a wrong pose.
			ce := s.entries[KindClip][ci]
			return nil, fmt.Errorf("controller %q (%s): clip %q (%s): %w", s.entries[KindController][i].name, in.Source, ce.name, ce.src, err)
		}
		in.Clips[k], in.ClipSources[k] = c, s.entries[KindClip][ci].src
	}
	if ch != nil {
		var err error
		if in.Motions, in.Notes, err = s.controllerMotions(i, cc.Clips, ch, in.Notes); err != nil {
			return nil, err
		}
	}
	return bound.NewController(in)
}

// Characters implements bound.Library.
func (s *Set) Characters() []bound.Item { return s.Items(KindCharacter) }

// Clips implements bound.Library.
func (s *Set) Clips() []bound.Item { return s.Items(KindClip) }

// Controllers implements bound.Library.
func (s *Set) Controllers() []bound.Item { return s.Items(KindController) }

// Motion implements bound.Library: clip i on character j, or (j < 0) on
// the character the binding chooses (see CharacterFor).
func (s *Set) Motion(clip, character int) (*bound.Motion, error) {
	if character < 0 {
		return s.MotionOn(clip, On{})
	}
	ch, err := s.Character(character)
	if err != nil {
		return nil, err
	}
	return s.bindClip(clip, ch)
}

// BindController implements bound.Library's Controller: controller i on
// character j, or (j < 0) on the character whose Animator plays it.
func (s *Set) BindController(i, character int) (*bound.Controller, error) {
	if character < 0 {
		return s.ControllerOn(i, On{})
	}
	ch, err := s.Character(character)
	if err != nil {
		return nil, err
	}
	return s.bindController(i, ch, nil)
}
