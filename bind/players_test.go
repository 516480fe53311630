package bind

import (
	"errors"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/internal/synth"
)

// Two characters whose rigs differ but share the paths a clip animates:
// the clip plays on the one whose controller plays it, not an ambiguity
// (the game's own answer); a clip neither plays stays ambiguous.
func TestAClipPlaysOnTheCharacterWhoseControllerPlaysIt(t *testing.T) {
	a := synth.NewScene(t, synth.Options{Full: true})
	b := synth.NewScene(t, synth.Options{Full: true})
	b.Obj(synth.ClipID)["m_Name"] = "BIdle"
	b.Obj(synth.ClipID + 1)["m_Name"] = "BWalk"
	b.Obj(synth.GameObjectBase)["m_Name"] = "B"
	b.Obj(synth.TransformBase + 1)["m_LocalPosition"] = synth.F{"x": float32(0), "y": float32(2), "z": float32(0)}
	loose := synth.NewScene(t, synth.Options{Full: true}) // its clips, and a rig nothing plays them on
	loose.Obj(synth.ClipID)["m_Name"] = "LooseIdle"
	loose.Obj(synth.ClipID + 1)["m_Name"] = "LooseWalk"
	loose.Obj(synth.GameObjectBase)["m_Name"] = "Loose"
	loose.Obj(synth.AnimatorID)["m_Controller"] = synth.PPtr(0)
	loose.Obj(synth.TransformBase + 1)["m_LocalPosition"] = synth.F{"x": float32(0), "y": float32(3), "z": float32(0)}
	pa, pb, pl := a.Write("a.assets"), b.Write("b.assets"), loose.Write("loose.assets")
	set := openSet(t, pa, pb, pl)
	for clip, want := range map[string]string{"Walk": pa, "Idle": pa, "BWalk": pb, "BIdle": pb} {
		i, err := set.FindClip(clip)
		if err != nil {
			t.Fatal(err)
		}
		ch, err := set.CharacterFor(t.Context(), On{}, i)
		if err != nil {
			t.Errorf("%s: %v", clip, err)
			continue
		}
		if got := ch.Source().Container; got != want {
			t.Errorf("%s plays on the character of %s, want %s", clip, got, want)
		}
	}
	i, err := set.FindClip("LooseWalk")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := set.CharacterFor(t.Context(), On{}, i); !errors.Is(err, ErrAmbiguous) {
		t.Errorf("a clip no character plays, on three rigs of its paths: %v, want ErrAmbiguous", err)
	}
}

// A character whose controller does not decode may be the one that plays
// the clip: the choice among several is refused naming the damaged
// controller and its input, not reported as an ambiguity the damage made.
func TestADamagedControllerIsNamedNotAnAmbiguity(t *testing.T) {
	a := synth.NewScene(t, synth.Options{Full: true})
	layer := a.Obj(synth.ControllerID)["m_Controller"].(synth.F)["m_LayerArray"].([]any)[0].(synth.F)["data"].(synth.F)
	layer["m_StateMachineIndex"] = 5 // one state machine
	other := synth.NewScene(t, synth.Options{Full: true})
	other.Obj(synth.ClipID)["m_Name"] = "OtherIdle"
	other.Obj(synth.ClipID + 1)["m_Name"] = "OtherWalk"
	other.Obj(synth.GameObjectBase)["m_Name"] = "Other"
	other.Obj(synth.TransformBase + 1)["m_LocalPosition"] = synth.F{"x": float32(0), "y": float32(2), "z": float32(0)}
	pa, po := a.Write("a.assets"), other.Write("other.assets")
	set := openSet(t, pa, po)
	i, err := set.FindClip("Walk")
	if err != nil {
		t.Fatal(err)
	}
	_, err = set.CharacterFor(t.Context(), On{}, i)
	if err == nil || errors.Is(err, ErrAmbiguous) || !strings.Contains(err.Error(), "a.assets") || !strings.Contains(err.Error(), "state machine 5") {
		t.Fatalf("err %v, want the damaged controller of a.assets named", err)
	}
}
