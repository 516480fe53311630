package bind

import (
	"errors"
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
		i, err := set.Find(KindClip, clip)
		if err != nil {
			t.Fatal(err)
		}
		ch, err := set.CharacterFor(On{}, i)
		if err != nil {
			t.Errorf("%s: %v", clip, err)
			continue
		}
		if got := ch.Source().Container; got != want {
			t.Errorf("%s plays on the character of %s, want %s", clip, got, want)
		}
	}
	i, err := set.Find(KindClip, "LooseWalk")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := set.CharacterFor(On{}, i); !errors.Is(err, ErrAmbiguous) {
		t.Errorf("a clip no character plays, on three rigs of its paths: %v, want ErrAmbiguous", err)
	}
}
