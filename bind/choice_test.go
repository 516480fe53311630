package bind

import (
	"context"
	"errors"
	"testing"

	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/internal/synth"
)

// Every way of asking what plays (a clip alone, the viewer's "let the
// binding choose", a controller, an avatar, the inputs' only character)
// follows one rule: one candidate is chosen, several that differ are
// refused with a *ChoiceError listing each, whichever method asks.
func TestEveryChoiceFollowsOneRuleAndRefusesWhenSeveralFit(t *testing.T) {
	one := synth.NewScene(t, synth.Options{Full: true})
	two := synth.NewScene(t, synth.Options{Full: true})
	two.AddRig(1000, 1300, 1, geom.V3(0, 2, 0), true) // a second rig sharing the avatar and the controller
	sets := map[string]*Set{"one rig": openSet(t, one.Write("one.assets")), "two rigs": openSet(t, two.Write("two.assets"))}
	asks := map[string]func(s *Set) (string, error){
		"clip alone": func(s *Set) (string, error) {
			i, err := s.FindClip("Idle")
			if err != nil {
				return "", err
			}
			m, err := s.motionOn(i, On{})
			if err != nil {
				return "", err
			}
			return m.On().Source().String(), nil
		},
		"viewer's clip": func(s *Set) (string, error) {
			i, _ := s.FindClip("Walk")
			m, err := s.Motion(t.Context(), i, nil)
			if err != nil {
				return "", err
			}
			return m.On().Source().String(), nil
		},
		"the only character": func(s *Set) (string, error) {
			ch, err := s.CharacterFor(t.Context(), On{})
			if err != nil {
				return "", err
			}
			return ch.Source().String(), nil
		},
		"controller": func(s *Set) (string, error) {
			c, err := s.BindController(t.Context(), 0, nil)
			if err != nil {
				return "", err
			}
			return c.On().Source().String(), nil
		},
		"viewer's controller": func(s *Set) (string, error) {
			c, err := s.BindController(t.Context(), 0, nil)
			if err != nil {
				return "", err
			}
			return c.On().Source().String(), nil
		},
		"avatar": func(s *Set) (string, error) {
			ch, err := s.characterOn(On{Avatar: "SynthAvatar"})
			if err != nil {
				return "", err
			}
			return ch.Source().String(), nil
		},
	}
	for name, ask := range asks {
		got, err := ask(sets["one rig"])
		if err != nil || got == "" {
			t.Errorf("one rig: %s: %q, %v; want its character", name, got, err)
		}
		first := got
		for again := 0; again < 2; again++ {
			if got, err := ask(sets["one rig"]); got != first || err != nil {
				t.Errorf("one rig: %s asked again: %q, %v; want %q", name, got, err, first)
			}
		}
		got, err = ask(sets["two rigs"])
		var ce *ChoiceError
		if !errors.As(err, &ce) || !errors.Is(err, ErrAmbiguous) || len(ce.Candidates) != 2 {
			t.Errorf("two rigs: %s: %q, %v; want a refusal listing both", name, got, err)
			continue
		}
		for _, c := range ce.Candidates {
			if _, err := sets["two rigs"].find(ce.Kind, c.Ref); err != nil {
				t.Errorf("two rigs: %s: candidate %q does not resolve: %v", name, c.Ref, err)
			}
		}
	}
}

// motionOn is what the commands do: ask the one rule for the character,
// then bind.
func (s *Set) motionOn(clip bound.ClipID, on On) (*bound.Motion, error) {
	ch, err := s.CharacterFor(context.Background(), on, clip)
	if err != nil {
		return nil, err
	}
	return s.Motion(context.Background(), clip, ch)
}
