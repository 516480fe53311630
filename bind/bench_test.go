package bind

import (
	"testing"

	"github.com/mecanim/mecanim/internal/corpustest"
)

// Binding every humanoid clip of a mod bundle onto one character: the
// avatar is decoded and its humanoid rig built once for the set, each clip
// decoded and baked once.
func BenchmarkMotionsOfACharacter(b *testing.B) {
	files := []string{corpustest.Path(b, "lethal-emotes/customemotespackage"), corpustest.Path(b, "lethal-emotes/scavbody")}
	for b.Loop() {
		set, err := Open(b.Context(), files, Options{})
		if err != nil {
			b.Fatal(err)
		}
		ci, err := set.FindCharacter("CAB-6cac020821b9c8c2a103f5e0c44b78fc#-2529895578980821914")
		if err != nil {
			b.Fatal(err)
		}
		ch, err := set.Character(b.Context(), ci)
		if err != nil {
			b.Fatal(err)
		}
		ms, _, err := set.Motions(b.Context(), ch)
		if err != nil || len(ms) == 0 {
			b.Fatalf("%d motions: %v", len(ms), err)
		}
		set.Close()
	}
}

// Choosing the character of a humanoid clip when none is named: every
// avatar of the inputs is decoded once to find the humanoid ones.
func BenchmarkMotionOnTheCharacterBindChooses(b *testing.B) {
	files := []string{corpustest.Path(b, "lethal-emotes/customemotespackage")}
	for b.Loop() {
		set, err := Open(b.Context(), files, Options{})
		if err != nil {
			b.Fatal(err)
		}
		i, err := set.FindClip("Dab")
		if err != nil {
			b.Fatal(err)
		}
		if _, err := set.motionOn(i, On{Avatar: "bandit1Avatar"}); err != nil {
			b.Fatal(err)
		}
		set.Close()
	}
}
