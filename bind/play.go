package bind

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/model"
)

// ErrDrivesNothing is wrapped by a NothingDrivenError: a clip chosen to
// play on a character drives none of its properties, so playing it would
// show the character at rest.
var ErrDrivesNothing = errors.New("drives nothing")

// NothingDrivenError says that a clip drives no property of the character
// it was to play on (no joint, no blend shape, no root motion), and what
// the clip animates instead. It wraps ErrDrivesNothing.
type NothingDrivenError struct {
	clip       string
	clipSource model.Source
	character  string // bound.Character.Describe
	// channels is how many channels the clip has; wanted names the first
	// few different things they animate ("path" and property).
	channels int
	wanted   []string
	// objectCurves is how many curves of the clip switch object
	// references (a SpriteRenderer's sprite): none of them moves a pose.
	objectCurves int
	// why says more when the clip could not be retargeted (empty: the
	// clip has no humanoid character of its own, or the character is
	// not humanoid).
	why string
}

// Error names the clip, the character and what the clip wanted.
func (e *NothingDrivenError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "clip %q (%s) %v on %s", e.clip, e.clipSource, ErrDrivesNothing, e.character)
	switch {
	case e.channels == 0 && e.objectCurves > 0:
		fmt.Fprintf(&b, ": its only curves switch object references (%s), which no pose shows", strings.Join(e.wanted, ", "))
	case e.channels == 0:
		b.WriteString(": it has no curves")
	default:
		fmt.Fprintf(&b, ": its %d channels animate %s", e.channels, strings.Join(e.wanted, ", "))
		if e.channels > len(e.wanted) {
			b.WriteString(", ...")
		}
		b.WriteString(", which it lacks")
	}
	if e.why != "" {
		b.WriteString("; " + e.why)
	}
	return b.String()
}

// Unwrap returns ErrDrivesNothing.
func (e *NothingDrivenError) Unwrap() error { return ErrDrivesNothing }

// ObjectCurves returns how many curves of the clip switch object references
// (sprites) when it has no other curves: a 2D clip, which no pose shows.
func (e *NothingDrivenError) ObjectCurves() int { return e.objectCurves }

// wantedShown is how many different things a NothingDrivenError names,
// wantedNames how many clips a note on clips left out names.
const (
	wantedShown = 3
	wantedNames = 8
)

// playOn binds clip i to character ch, the one way every command plays a
// clip on a character it has:
//
//   - a humanoid clip plays through ch's humanoid avatar (an error when
//     ch has none);
//   - a generic clip made for another humanoid character (the character
//     whose paths it animates most, or the glTF character it came with)
//     plays on a humanoid ch through muscles when ch has fewer than half
//     of the paths it animates there: recorded on its own character and
//     played on ch's avatar (bound.Retarget), as Unity plays clips
//     between humanoid avatars; the motion's RetargetedFrom says so;
//   - any other generic clip plays on ch's GameObjects by path, as a
//     generic clip plays in Unity on any Animator with its paths.
//
// A clip that drives no property of ch (no joint, blend shape or root
// motion) is a *NothingDrivenError: never a rest pose shown as played.
//
// A ctx that ends while the clip's own character is chosen is an error
// wrapping ctx.Err().
func (s *Set) playOn(ctx context.Context, clip int, ch *bound.Character) (*bound.Motion, error) {
	if ch == nil {
		return nil, errors.New("bind: Bind: nil character")
	}
	e, err := s.entry(KindClip, clip)
	if err != nil {
		return nil, err
	}
	c, err := s.Clip(bound.ClipID(clip))
	if err != nil {
		return nil, err
	}
	if c.Humanoid {
		return bound.Bind(c, e.src, ch)
	}
	m, err := bound.Bind(c, e.src, ch)
	if err != nil {
		return nil, err
	}
	if m.Generic().UnresolvedChannels() == 0 && drives(m, ch) {
		return m, nil // every path is ch's
	}
	if ch.Human() != nil {
		from, err := s.clipOwner(ctx, clip, ch)
		if cerr := cancelled(ctx); cerr != nil {
			return nil, cerr
		}
		if err == nil && from != nil && from.Human() != nil && 2*s.pathsOn(c, ch) < s.pathsOn(c, from) {
			return bound.Retarget(c, e.src, from, ch)
		}
	}
	if drives(m, ch) {
		return m, nil
	}
	// Say why it could not be retargeted either.
	why := ""
	from, err := s.clipOwner(ctx, clip, ch)
	if cerr := cancelled(ctx); cerr != nil {
		return nil, cerr
	}
	switch {
	case err != nil:
		why = err.Error()
	case from == nil:
	case from.Human() == nil:
		why = fmt.Sprintf("it is made for %s, which has no humanoid avatar to retarget it from", from.Describe())
	case ch.Human() == nil:
		why = fmt.Sprintf("it is made for %s, and %s has no humanoid avatar to retarget it onto", from.Describe(), ch.Describe())
	}
	return nil, nothingDriven(c, e.src, ch, why)
}

// clipOwner returns the character a generic clip was made for, when it is
// not ch: the one the binding would choose for it (see CharacterFor). It
// returns nil when that is ch, or when no character of the inputs has the
// clip's paths.
func (s *Set) clipOwner(ctx context.Context, clip int, ch *bound.Character) (*bound.Character, error) {
	from, _, _, err := s.characterFor(ctx, clip)
	var ce *ChoiceError
	switch {
	case errors.As(err, &ce):
		// Several characters fit the clip alike: when ch is one of them
		// the clip is ch's; else the one read with the clip (a glTF
		// file's own character), if it is among them.
		var own []bound.Item
		for _, it := range ce.Candidates {
			if it.Source == ch.Source() {
				return nil, nil
			}
		}
		clipSrc := s.entries[KindClip][clip].src
		for _, it := range ce.Candidates {
			if it.Source.Container == clipSrc.Container && it.Source.File == clipSrc.File {
				own = append(own, it)
			}
		}
		if len(own) != 1 {
			return nil, fmt.Errorf("it animates as many paths of several characters, so which one's humanoid avatar to retarget it from is not clear (%s)", firstLine(err))
		}
		i, err := s.find(ce.Kind, own[0].Ref)
		if err != nil {
			return nil, err
		}
		if ce.Kind == KindAvatar {
			return s.avatarCharacter(s.entries[KindAvatar][i])
		}
		return s.character(i)
	case errors.Is(err, ErrNoCharacter):
		return nil, nil
	case err != nil:
		return nil, err
	case from == ch:
		return nil, nil
	}
	return from, nil
}

// firstLine is the first line of an error's message.
func firstLine(err error) string {
	msg := err.Error()
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		return msg[:i]
	}
	return msg
}

// pathsOn counts a clip's Transform channels whose joint ch's skeleton
// has.
func (s *Set) pathsOn(c *model.Clip, ch *bound.Character) int {
	sk := ch.Skeleton()
	n := 0
	for i := range c.Curves {
		t := &c.Curves[i].Target
		if t.ClassID != model.ClassTransform {
			continue
		}
		if _, ok := sk.Resolve(t); ok {
			n++
		}
	}
	return n
}

// drives reports whether a generic motion drives a property of its
// character: a joint, or a float channel (blend shape, material or script
// property, root motion curves) on one of the character's GameObjects.
func drives(m *bound.Motion, ch *bound.Character) bool {
	g := m.Generic()
	if g == nil || g.TrackCount() > 0 {
		return true
	}
	sk := ch.Skeleton()
	for _, t := range g.FloatTargets() {
		if t.ClassID == model.ClassAnimator && t.Path == "" && t.PathHash == 0 && model.IsRootMotionAttribute(t.Attribute) {
			return true
		}
		if t.ClassID == model.ClassAnimator {
			continue // humanoid channels of a generic clip: nothing reads them
		}
		if _, ok := sk.Resolve(&t); ok {
			return true
		}
	}
	return false
}

// nothingDriven describes what a clip that drives nothing on ch wanted.
func nothingDriven(c *model.Clip, src model.Source, ch *bound.Character, why string) error {
	e := &NothingDrivenError{clip: c.Name, clipSource: src, character: ch.Describe(), channels: len(c.Curves), why: why}
	seen := map[string]bool{}
	for i := range c.Curves {
		t := &c.Curves[i].Target
		path := t.Path
		if !t.PathKnown {
			path = fmt.Sprintf("#%d", t.PathHash)
		}
		what := fmt.Sprintf("%q", path)
		if t.Property != "" {
			what += " " + t.Property
		}
		key := path + "\x00" + t.Property
		if t.ClassID == model.ClassTransform {
			what = fmt.Sprintf("%q", path)
			key = path
		}
		if seen[key] {
			continue
		}
		seen[key] = true
		if len(e.wanted) < wantedShown {
			e.wanted = append(e.wanted, what)
		}
	}
	if len(c.Curves) == 0 {
		e.objectCurves = len(c.ObjectCurves)
		for i := range c.ObjectCurves {
			if t := &c.ObjectCurves[i].Target; len(e.wanted) < wantedShown {
				e.wanted = append(e.wanted, fmt.Sprintf("%q %s", t.Path, t.Property))
			}
		}
	}
	return e
}

// switchesObjectsOn reports whether clip c switches object references (a
// sprite) on one of ch's GameObjects: a 2D clip, which plays there though
// it moves no joint.
func switchesObjectsOn(c *model.Clip, ch *bound.Character) bool {
	sk := ch.Skeleton()
	for i := range c.ObjectCurves {
		if _, ok := sk.Resolve(&c.ObjectCurves[i].Target); ok {
			return true
		}
	}
	return false
}

// Motions binds to character ch every clip of the inputs that plays on it
// (see playOn: generic clips that drive its properties, humanoid clips when
// its avatar is humanoid, other humanoid characters' clips through
// muscles), in input order. Each clip left out gets a note saying why (it
// drives nothing on ch, it is humanoid and ch is not). Clips that would
// play but cannot (a clip or the character's avatar does not decode, a
// clip does not bake) are errors, joined in err: what could be bound is
// returned with them. The notes go to the Logger too. ctx is checked
// between clips: when it ends, Motions returns nothing but an error
// wrapping ctx.Err().
func (s *Set) Motions(ctx context.Context, ch *bound.Character) (motions []*bound.Motion, notes []string, err error) {
	var errs []error
	var human []string
	humans := 0
	for i, e := range s.entries[KindClip] {
		if err := cancelled(ctx); err != nil {
			return nil, nil, err
		}
		if _, err := s.Clip(bound.ClipID(i)); err != nil {
			errs = append(errs, fmt.Errorf("clip %q (%s): %w", e.name, e.src, err))
			continue
		}
		m, err := s.playOn(ctx, i, ch)
		if cerr := cancelled(ctx); cerr != nil {
			return nil, nil, cerr
		}
		switch {
		case err == nil:
			motions = append(motions, m)
		case errors.Is(err, bound.ErrNotHumanoid):
			human = append(human, fmt.Sprintf("%q", e.name))
		case errors.Is(err, ErrDrivesNothing):
			n := "left out: " + err.Error()
			notes = append(notes, n)
			s.logNotes(ctx, e, ch, []string{n})
		default:
			errs = append(errs, err)
		}
	}
	if humans = len(human); humans > 0 {
		if humans > wantedNames {
			human = append(human[:wantedNames], fmt.Sprintf("... %d more", len(human)-wantedNames))
		}
		names := strings.Join(human, ", ")
		if why := ch.AvatarMissing(); why != "" {
			errs = append(errs, fmt.Errorf("%d humanoid clips left out (%s): %s has no avatar: %s", humans, names, ch.Describe(), why))
		} else {
			why := "it has no humanoid avatar"
			if av, _ := ch.Avatar(); av != nil {
				why = fmt.Sprintf("its avatar %q is generic", av.Name)
			}
			n := fmt.Sprintf("%d humanoid clips left out (%s): %s %s (choose a humanoid avatar to play them on)", humans, names, ch.Describe(), why)
			notes = append(notes, n)
			s.log(ctx, n, slog.String(AttrInput, ch.Source().Container), slog.String(AttrObject, ch.Name()),
				slog.String(AttrKind, KindCharacter.String()), slog.String(AttrCharacter, ch.Describe()))
		}
	}
	return motions, notes, errors.Join(errs...)
}

// controllerMotions binds the clips of controller i's slots to ch, each as
// playOn does. A clip that cannot be bound plays by its timing only, with
// a note saying why; when none of them drives anything on ch the
// controller would run as a rest pose, which is an error naming the
// controller, the character and what its clips wanted.
func (s *Set) controllerMotions(ctx context.Context, i int, clips []*entry, ch *bound.Character) ([]*bound.Motion, []clipNote, error) {
	var notes []clipNote
	out := make([]*bound.Motion, len(clips))
	done := map[*entry]*bound.Motion{}
	played, nothing := 0, 0
	var first error
	for k, ci := range clips {
		if ci == nil {
			continue
		}
		if m, ok := done[ci]; ok {
			out[k] = m
			continue
		}
		m, err := s.playOn(ctx, ci.index, ch)
		if cerr := cancelled(ctx); cerr != nil {
			return nil, nil, cerr
		}
		done[ci] = m
		if err != nil {
			if first == nil {
				first = err
			}
			if errors.Is(err, ErrDrivesNothing) {
				// A 2D clip switching the character's sprites still plays
				// there: the controller runs on its timing.
				if c, cerr := s.Clip(bound.ClipID(ci.index)); cerr != nil || !switchesObjectsOn(c, ch) {
					nothing++
				}
			}
			notes = append(notes, clipNote{err.Error(), ci})
			continue
		}
		out[k] = m
		played++
	}
	if played == 0 && nothing > 0 {
		ce := s.entries[KindController][i]
		return nil, nil, fmt.Errorf("controller %q (%s) on %s: none of its clips drives anything there: %w", ce.name, ce.src, ch.Describe(), first)
	}
	return out, notes, nil
}
