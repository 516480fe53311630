package inputs

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/internal/synth"
)

// A game's data folder given to any command is read for every Unity file
// in it, whatever its name, as extract reads it: not only a project's
// YAML assets. Copies count once; other files, hidden folders and the
// editor's caches are passed over.
func TestAGameFolderIsReadForItsUnityFiles(t *testing.T) {
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
	first := write("Game_Data/sharedassets0.assets", data)
	copied := write("Mods/hero/hero-copy", data) // no Unity name: told by its bytes
	write("Game_Data/Managed/Assembly-CSharp.dll", []byte("MZ\x90\x00 not a Unity file"))
	write(".cache/stale.assets", []byte("hidden: never read"))
	write("Library/imported.assets", []byte("an editor cache: never read"))

	found, passed, errs := Discover(t.Context(), []string{game}, "")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if len(found) != 1 || found[0].Path != first || !found[0].Built || found[0].Kind != "SerializedFile" {
		t.Errorf("found %+v, want only %s", found, first)
	}
	var same, other int
	for _, p := range passed {
		switch {
		case p.Path == copied && p.Same == first:
			same++
		case strings.HasSuffix(p.Path, ".dll") && p.Why == "not a Unity file":
			other++
		default:
			t.Errorf("passed over %+v", p)
		}
	}
	if same != 1 || other != 1 {
		t.Errorf("passed %+v: want the copy and the dll", passed)
	}
}

// A context that has ended stops Discover before it reads a file: nothing
// found, and its last error wraps the context's.
func TestDiscoverStopsWhenItsContextEnds(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile(synth.NewScene(t, synth.Options{Full: true}).Write("a.assets"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a.assets"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	for _, paths := range [][]string{{dir}, {filepath.Join(dir, "a.assets")}} {
		found, _, errs := Discover(ctx, paths, "")
		if len(found) != 0 || len(errs) == 0 || !errors.Is(errs[len(errs)-1], context.Canceled) {
			t.Errorf("%s: found %v, errors %v", paths[0], found, errs)
		}
	}
}
