package bind

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"

	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/model"
)

// value decodes an entry's object once.
func (s *Set) value(e *entry) (decoded, error) {
	e.once.Do(func() { e.val, e.err = s.decode(e) })
	return e.val, e.err
}

// decode decodes an entry's object by its kind and where it lives.
func (s *Set) decode(e *entry) (d decoded, err error) {
	switch o := e.origin.(type) {
	case unityObject:
		switch e.kind {
		case KindClip:
			d.clip, err = s.cat.Clip(o.o)
		case KindAvatar:
			d.avatar, err = s.cat.Avatar(o.o)
		case KindController:
			d.ctl, err = s.unityController(e, o.o, 0)
		}
	case yamlObject:
		switch e.kind {
		case KindClip:
			d.clip, err = o.in.f.ClipOf(o.doc)
		case KindAvatar:
			d.avatar, err = o.in.f.AvatarOf(o.doc)
		case KindController:
			d.ctl, err = s.yamlController(o, 0)
		}
	case unityRig:
		d.char, err = s.unityCharacter(e, o)
	case yamlRig:
		d.char, err = s.yamlCharacter(e, o)
	case gltfCharacter:
		d.char, err = s.gltfCharacterOf(e, o)
	case gltfAvatar:
		if o.av == nil {
			return d, o.err
		}
		d.avatar = o.av
	case modelClip:
		d.clip = o.c
	}
	if err == nil && d == (decoded{}) {
		err = fmt.Errorf("bind: %s %q (%s): no decoder for its input", e.kind, e.name, e.src)
	}
	return d, err
}

// Clip decodes a clip (once), its channels named from every name table
// and rig of the inputs.
func (s *Set) Clip(id bound.ClipID) (*model.Clip, error) {
	d, err := s.decoded(KindClip, int(id))
	return d.clip, err
}

// Avatar decodes an avatar (once).
func (s *Set) Avatar(id bound.AvatarID) (*model.Avatar, error) {
	d, err := s.decoded(KindAvatar, int(id))
	return d.avatar, err
}

// decoded decodes object i of kind k (once).
func (s *Set) decoded(k Kind, i int) (decoded, error) {
	e, err := s.entry(k, i)
	if err != nil {
		return decoded{}, err
	}
	return s.value(e)
}

// Controller decodes a controller (once) and resolves its clips across
// the inputs; its Notes (clips the inputs lack) go to the Logger too.
func (s *Set) Controller(ctx context.Context, id bound.ControllerID) (*bound.ControllerClips, error) {
	if err := cancelled(ctx); err != nil {
		return nil, err
	}
	d, err := s.decoded(KindController, int(id))
	if err != nil {
		return nil, err
	}
	cs := d.ctl
	s.logNotes(ctx, s.entries[KindController][id], nil, cs.notes)
	out := &bound.ControllerClips{Controller: cs.ctl, Clips: make([]bound.ClipID, len(cs.clips)), Notes: cs.notes}
	for k, c := range cs.clips {
		out.Clips[k] = -1
		if c != nil {
			out.Clips[k] = bound.ClipID(c.index)
		}
	}
	return out, nil
}

// Character puts a character together (once): its GameObjects, its
// avatar and its meshes (attached when first asked for).
func (s *Set) Character(ctx context.Context, id bound.CharacterID) (*bound.Character, error) {
	if err := cancelled(ctx); err != nil {
		return nil, err
	}
	return s.character(int(id))
}

func (s *Set) character(i int) (*bound.Character, error) {
	d, err := s.decoded(KindCharacter, i)
	return d.char, err
}

// On says what a clip or a controller plays on, as a user asks for it: a
// character or an avatar (the character whose Animator uses it, else the
// avatar's own skeleton at its default pose), each by name or reference
// (see FindClip). The zero On asks nothing: the binding chooses.
type On struct {
	Character string
	Avatar    string
	// Onto is any character source (see CharacterFor): an input file
	// holding one character, or a character or avatar by name or
	// reference.
	Onto string
}

// characterOn returns the character on asks for, or nil (and no error)
// when on asks for none: the character chosen, the character of the
// avatar chosen, or the one Onto names: the one character read from that
// input file (a glTF or VRM file, a prefab with its avatar, a bundle with
// one Animator), else a character or avatar of that name or reference.
// An avatar several different characters use is refused, listing them.
func (s *Set) characterOn(on On) (*bound.Character, error) {
	switch {
	case (on.Character != "") && (on.Avatar != ""), on.Onto != "" && (on.Character != "" || on.Avatar != ""):
		return nil, errors.New("bind: give a character, an avatar or a place to play onto, not several")
	case on.Onto != "":
		return s.ontoCharacter(on.Onto)
	case on.Character != "":
		i, err := s.find(KindCharacter, on.Character)
		if err != nil {
			return nil, err
		}
		return s.character(i)
	case on.Avatar != "":
		i, err := s.find(KindAvatar, on.Avatar)
		if err != nil {
			return nil, err
		}
		return s.avatarCharacter(s.entries[KindAvatar][i])
	}
	return nil, nil
}

// avatarCharacter returns the character an avatar plays on: the character
// whose Animator uses it when the inputs hold one (several that differ
// are refused), else the avatar's own skeleton at its default pose.
func (s *Set) avatarCharacter(ae *entry) (*bound.Character, error) {
	users := s.avatarUsers(ae)
	if len(users) > 0 {
		if distinct(users) {
			return nil, s.ambiguous(KindCharacter, fmt.Sprintf("avatar %q is used by %d different characters", ae.name, len(users)), users)
		}
		return s.character(users[0].index)
	}
	d, err := s.value(ae)
	if err != nil {
		return nil, err
	}
	av := d.avatar
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

// CharacterController returns the controller a character's Animator
// plays (false for none, or one the inputs lack).
func (s *Set) CharacterController(id bound.CharacterID) (bound.ControllerID, bool) {
	ce, err := s.entry(KindCharacter, int(id))
	if err != nil {
		return -1, false
	}
	if e := s.characterController(ce); e != nil {
		return bound.ControllerID(e.index), true
	}
	return -1, false
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
func (s *Set) candidates(ctx context.Context, c *model.Clip) ([]*entry, Kind, error) {
	if c.Humanoid {
		var avs []*entry
		var broken []string
		for _, ae := range s.entries[KindAvatar] {
			if err := cancelled(ctx); err != nil {
				return nil, 0, err
			}
			av, err := s.Avatar(bound.AvatarID(ae.index))
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
		if err := cancelled(ctx); err != nil {
			return nil, 0, err
		}
		if av, err := s.Avatar(bound.AvatarID(ae.index)); err == nil && namesChannel(c, av.Names) {
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
func (s *Set) preferPlayers(ctx context.Context, clip int, cands []*entry, k Kind) ([]*entry, error) {
	if len(cands) < 2 {
		return cands, nil
	}
	var out []*entry
	for _, e := range cands {
		if err := cancelled(ctx); err != nil {
			return nil, err
		}
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
		d, err := s.value(ctl)
		if err != nil {
			return false, fmt.Errorf("character %q: its controller: %w", ce.name, err)
		}
		if slices.ContainsFunc(d.ctl.clips, func(e *entry) bool { return e != nil && same(e.index) }) {
			return true, nil
		}
	}
	clips, _ := s.animations(ce)
	return slices.ContainsFunc(clips, func(e *entry) bool { return same(e.index) }), nil
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
// every command, the viewer and extract alike: the character on asks for;
// else, for clips, the character each of them plays on (the characters
// whose Animator or Animation component plays it first; else those whose
// GameObjects its Transform channels name most; a humanoid clip's humanoid
// avatars), which must be one for all of them; else, with no clip, the
// only character of the inputs. Several candidates that differ are
// refused (a *ChoiceError listing each by a reference that chooses it);
// none is ErrNoCharacter, except for a generic clip, which then plays on a
// rig of its own paths (see ownPaths).
//
// ctx is checked between the objects decoded to choose (clips, avatars,
// controllers): when it ends, the error wraps ctx.Err().
func (s *Set) CharacterFor(ctx context.Context, on On, clips ...bound.ClipID) (*bound.Character, error) {
	if err := cancelled(ctx); err != nil {
		return nil, err
	}
	if ch, err := s.characterOn(on); ch != nil || err != nil {
		return ch, err
	}
	if len(clips) == 0 {
		return s.onlyCharacter()
	}
	var ch *bound.Character
	var chosen, first *entry
	var firstKind Kind
	for _, clip := range clips {
		c, e, k, err := s.characterFor(ctx, int(clip))
		if err != nil {
			return nil, err
		}
		switch {
		case ch == nil:
			ch, chosen, first, firstKind = c, e, s.entries[KindClip][clip], k
		case c != ch:
			ce := s.entries[KindClip][clip]
			what := fmt.Sprintf("clip %q plays on %s and clip %q on %s", first.name, ch.Describe(), ce.name, c.Describe())
			if k != firstKind {
				return nil, fmt.Errorf("%w: %s: give them one by one", ErrAmbiguous, what)
			}
			return nil, s.ambiguous(k, what, []*entry{chosen, e})
		}
	}
	return ch, nil
}

// onlyCharacter is the character of inputs that hold one (copies of one
// asset count once).
func (s *Set) onlyCharacter() (*bound.Character, error) {
	es := s.entries[KindCharacter]
	switch {
	case len(es) == 0:
		return nil, fmt.Errorf("%w: the inputs hold no character (Animator rig)", ErrNoCharacter)
	case len(es) > 1 && distinct(es):
		return nil, s.ambiguous(KindCharacter, fmt.Sprintf("the inputs hold %d characters", len(es)), es)
	}
	return s.character(es[0].index)
}

// characterFor is the character clip i plays on when nothing was asked
// for (see CharacterFor), with the entry that chose it (a character, or
// an avatar) and its kind.
func (s *Set) characterFor(ctx context.Context, clip int) (*bound.Character, *entry, Kind, error) {
	if err := cancelled(ctx); err != nil {
		return nil, nil, 0, err
	}
	c, err := s.Clip(bound.ClipID(clip))
	if err != nil {
		return nil, nil, 0, err
	}
	cands, k, err := s.candidates(ctx, c)
	if onOwnPaths(c, err) {
		ch, err := s.ownPaths(clip, c)
		return ch, s.entries[KindClip][clip], KindClip, err
	}
	if err != nil {
		return nil, nil, 0, err
	}
	if cands, err = s.preferPlayers(ctx, clip, cands, k); err != nil {
		return nil, nil, 0, err
	}
	if len(cands) > 1 && distinct(cands) {
		what := fmt.Sprintf("clip %q animates as many paths of %d characters", c.Name, len(cands))
		if k == KindAvatar {
			what = fmt.Sprintf("clip %q is humanoid and the inputs hold %d humanoid avatars", c.Name, len(cands))
		}
		return nil, nil, 0, s.ambiguous(k, what, cands)
	}
	var ch *bound.Character
	if k == KindAvatar {
		// Several characters of the one avatar: the ones that play the
		// clip, as among characters.
		if users := s.avatarUsers(cands[0]); len(users) > 1 && distinct(users) {
			players, err := s.preferPlayers(ctx, clip, users, KindCharacter)
			switch {
			case err != nil:
				return nil, nil, 0, err
			case len(players) < len(users) && distinct(players):
				return nil, nil, 0, s.ambiguous(KindCharacter, fmt.Sprintf("clip %q is played by %d characters of avatar %q", c.Name, len(players), cands[0].name), players)
			case len(players) < len(users):
				ch, err = s.character(players[0].index)
				return ch, players[0], KindCharacter, err
			}
		}
		ch, err = s.avatarCharacter(cands[0])
	} else {
		ch, err = s.character(cands[0].index)
	}
	return ch, cands[0], k, err
}

// Motion binds a clip to a character the set made (Character,
// CharacterFor), as every command plays a clip: a generic
// clip made for another humanoid character plays through muscles (its
// motion's RetargetedFrom says so), and a clip that drives nothing on the
// character is a *NothingDrivenError. On nil lets the binding choose (see
// CharacterFor), refusing when several characters fit. When ctx ends, the
// error wraps ctx.Err().
func (s *Set) Motion(ctx context.Context, clip bound.ClipID, on *bound.Character) (*bound.Motion, error) {
	if err := cancelled(ctx); err != nil {
		return nil, err
	}
	if on == nil {
		var err error
		if on, err = s.CharacterFor(ctx, On{}, clip); err != nil {
			return nil, err
		}
	}
	return s.playOn(ctx, int(clip), on)
}

// BindController binds a controller: its clips (across the inputs, an
// override controller's replacements applied) on a character the set made,
// or (on nil) on the character whose Animator plays it, else on none (its
// state machines only, with a note). Several different characters playing
// it are refused (a *ChoiceError listing them), as for a clip. The bound
// controller's Notes go to the Logger too. ctx is checked between the
// clips decoded and bound: when it ends, the error wraps ctx.Err().
func (s *Set) BindController(ctx context.Context, id bound.ControllerID, on *bound.Character) (*bound.Controller, error) {
	if err := cancelled(ctx); err != nil {
		return nil, err
	}
	var notes []string
	if on == nil {
		var err error
		if on, notes, err = s.controllerCharacter(int(id)); err != nil {
			return nil, err
		}
	}
	return s.bindController(ctx, int(id), on, notes)
}

// clipNote is a note about a clip of a controller: why it plays by its
// timing only.
type clipNote struct {
	text string
	clip *entry
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
		return nil, nil, s.ambiguous(KindCharacter, fmt.Sprintf("controller %q is played by %d characters", ce.name, len(users)), users)
	}
	ch, err := s.character(users[0].index)
	return ch, nil, err
}

// bindController binds controller i's clips to ch (nil: none).
// Its notes are logged when it is bound: those about the controller with
// its attributes, those about a clip with the clip's.
func (s *Set) bindController(ctx context.Context, i int, ch *bound.Character, notes []string) (*bound.Controller, error) {
	ctlEntry, err := s.entry(KindController, i)
	if err != nil {
		return nil, err
	}
	d, err := s.value(ctlEntry)
	if err != nil {
		return nil, err
	}
	cs := d.ctl
	in := bound.ControllerInput{Controller: cs.ctl, Source: ctlEntry.src, On: ch,
		Clips: make([]*model.Clip, len(cs.clips)), ClipSources: make([]model.Source, len(cs.clips)),
		Notes: append(append([]string(nil), notes...), cs.notes...)}
	for k, ce := range cs.clips {
		if ce == nil {
			continue
		}
		if err := cancelled(ctx); err != nil {
			return nil, err
		}
		cd, err := s.value(ce)
		if err != nil {
			// A clip the inputs hold that does not decode is damage, not
			// a missing file: the controller would play a wrong pose.
			return nil, fmt.Errorf("controller %q (%s): clip %q (%s): %w", ctlEntry.name, in.Source, ce.name, ce.src, err)
		}
		in.Clips[k], in.ClipSources[k] = cd.clip, ce.src
	}
	ctlNotes := in.Notes
	var clipNotes []clipNote
	if ch != nil {
		if in.Motions, clipNotes, err = s.controllerMotions(ctx, i, cs.clips, ch); err != nil {
			return nil, err
		}
		in.Notes = slices.Clone(ctlNotes)
		for _, n := range clipNotes {
			in.Notes = append(in.Notes, n.text)
		}
	}
	bc, err := bound.NewController(in)
	if err != nil {
		return nil, err
	}
	s.logNotes(ctx, ctlEntry, ch, ctlNotes)
	for _, n := range clipNotes {
		s.logNotes(ctx, n.clip, ch, []string{n.text}, slog.String(AttrController, s.ref(ctlEntry.src)))
	}
	return bc, nil
}
