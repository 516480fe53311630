package bind

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/internal/synth"
)

// A game's data folder opened as a set holds every Unity file in it (as
// inputs.Discover finds them, tested there), a copy counted once.
func TestASetOfAGameFolderHoldsItsUnityFiles(t *testing.T) {
	game := t.TempDir()
	data, err := os.ReadFile(synth.NewScene(t, synth.Options{Full: true}).Write("a.assets"))
	if err != nil {
		t.Fatal(err)
	}
	write := func(rel string, b []byte) string {
		p := filepath.Join(game, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("Game_Data/sharedassets0.assets", data)
	copied := write("Mods/hero/hero-copy", data) // no Unity name: told by its bytes
	write("Game_Data/Managed/Assembly-CSharp.dll", []byte("MZ\x90\x00 not a Unity file"))
	write(".cache/stale.assets", []byte("hidden: never read"))
	write("Library/imported.assets", []byte("an editor cache: never read"))

	set := openSet(t, game)
	if n := len(set.Clips()); n != 2 {
		t.Errorf("%d clips in the game folder, want its 2", n)
	}
	if _, err := set.FindClip("Idle"); err != nil {
		t.Error(err)
	}
	if d := set.duplicates; len(d) != 1 || d[0] != copied {
		t.Errorf("duplicates %q, want the copy", d)
	}
}

// A file given by name is read whatever it starts with: the reader says
// what is wrong with it, naming it.
func TestAFileGivenThatIsNoUnityFileIsAnErrorNamingIt(t *testing.T) {
	p := filepath.Join(t.TempDir(), "notes.txt")
	os.WriteFile(p, []byte("just some notes"), 0o644)
	_, err := Open(t.Context(), []string{p}, Options{})
	errs := Errors(err)
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), p) || !strings.Contains(errs[0].Error(), "not a Unity file") {
		t.Errorf("errors %v", errs)
	}
	_, err = Open(t.Context(), []string{filepath.Join(filepath.Dir(p), "absent.bundle")}, Options{})
	errs = Errors(err)
	if len(errs) != 1 || !errors.Is(errs[0], os.ErrNotExist) || strings.Count(errs[0].Error(), "absent.bundle") != 1 {
		t.Errorf("a missing file: %v", errs)
	}
}
