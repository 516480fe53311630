package bind

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/internal/synth"
)

// sameCABBundles writes two bundles of one base name in two folders,
// each holding a serialized file of one CAB name with different contents
// (two builds of one project): the rig named rig, its hips at hipsY, its
// Idle of other keys.
func sameCABBundles(t *testing.T) (a, b string) {
	write := func(dir, rig string, hipsY float32) string {
		sc := synth.NewScene(t, synth.Options{Full: true})
		sc.Set(synth.ClipID, synth.ClipFields("Idle", 3, 0.01*hipsY)) // a clip of other keys
		sc.Obj(synth.GameObjectBase)["m_Name"] = rig
		sc.Obj(synth.TransformBase + 1)["m_LocalPosition"] = synth.F{"x": float32(0), "y": hipsY, "z": float32(0)}
		p := sc.WriteBundle("data.bundle", "CAB-0123456789abcdef0123456789abcdef")
		d := filepath.Join(filepath.Dir(p), dir)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		q := filepath.Join(d, "data.bundle")
		if err := os.Rename(p, q); err != nil {
			t.Fatal(err)
		}
		return q
	}
	return write("build1", "A", 1), write("build2", "B", 2)
}

// Two builds of one project side by side: their serialized files share a
// CAB name (and their bundles a base name), so "CAB-…#PATHID" means two
// objects. Every reference the set prints then names the container, and
// each is accepted back: a refusal's candidates, the listings.
func TestReferencesResolveWhenTwoBundlesShareACABName(t *testing.T) {
	a, b := sameCABBundles(t)
	set := openSet(t, a, b)
	for _, sel := range []string{"Idle", "CAB-0123456789abcdef0123456789abcdef#600"} {
		_, err := set.FindClip(sel)
		var ce *ChoiceError
		if !errors.As(err, &ce) || len(ce.Candidates) != 2 {
			t.Fatalf("FindClip(%q): %v, want a refusal listing both builds' clips", sel, err)
		}
		seen := map[string]bool{}
		for _, c := range ce.Candidates {
			id, err := set.FindClip(c.Ref)
			if err != nil {
				t.Errorf("candidate %q of %q is not accepted back: %v", c.Ref, sel, err)
				continue
			}
			if got := set.Clips()[id].Source; got != c.Source {
				t.Errorf("candidate %q chooses %v, want %v", c.Ref, got, c.Source)
			}
			seen[c.Ref] = true
		}
		if len(seen) != 2 {
			t.Errorf("the candidates of %q share a reference: %+v", sel, ce.Candidates)
		}
	}
	for kind, items := range map[string]int{"character": len(set.Characters()), "clip": len(set.Clips()), "avatar": len(set.Avatars()), "controller": len(set.Controllers())} {
		if items != 2*map[string]int{"character": 1, "clip": 2, "avatar": 1, "controller": 1}[kind] {
			t.Errorf("%d %ss, want both builds'", items, kind)
		}
	}
	for i, it := range set.Characters() {
		id, err := set.FindCharacter(it.Ref)
		if err != nil || int(id) != i {
			t.Errorf("character %q listed as %q: found %d, %v", it.Name, it.Ref, id, err)
		}
	}
	for _, it := range set.Clips() {
		id, err := set.FindClip(it.Ref)
		if err != nil || set.Clips()[id].Source != it.Source {
			t.Errorf("clip %q listed as %q: found %d, %v", it.Name, it.Ref, id, err)
		}
	}
	// Which rig: the inputs hold two; the refusal's references choose
	// each, and each build's clip plays on its own build's rig.
	_, err := set.CharacterFor(t.Context(), On{})
	var ce *ChoiceError
	if !errors.As(err, &ce) || len(ce.Candidates) != 2 {
		t.Fatalf("two rigs, none named: %v, want a refusal listing both", err)
	}
	for _, c := range ce.Candidates {
		ch, err := set.CharacterFor(t.Context(), On{Character: c.Ref})
		if err != nil || ch.Source() != c.Source {
			t.Errorf("character %s: %v, %v", c.Ref, ch, err)
		}
	}
	for i, it := range set.Clips() {
		if it.Name != "Idle" {
			continue // Walk is the same asset in both builds: both rigs play it
		}
		ch, err := set.CharacterFor(t.Context(), On{}, bound.ClipID(i))
		if err != nil || ch.Source().Container != it.Source.Container {
			t.Errorf("clip %s plays on %v (%v), want its own build's rig", it.Ref, ch, err)
		}
	}
}
