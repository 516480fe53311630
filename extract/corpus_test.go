package extract_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/extract"
	"github.com/mecanim/mecanim/internal/corpustest"
)

// The whole corpus as one input: every character written, every clip in an
// output or listed with why, clips no character plays in exactly one
// output, every output valid, and the same manifest from another run with
// another worker count.
func TestCorpusExtractsEveryCharacterAndClip(t *testing.T) {
	dir := corpustest.Dir(t)
	if raceEnabled {
		// The synthetic games run the same concurrent paths under the
		// detector in a fraction of the time.
		t.Skip("the whole corpus three times over is too slow under the race detector")
	}
	mods := validator(t)
	tmp := t.TempDir()
	run := func(out string, workers int) (*extract.Manifest, []byte) {
		m, err := extract.Extract(context.Background(), []string{dir}, extract.Options{Out: out, Workers: workers, Avatar: "Y BotAvatar"})
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(out, "manifest.json"))
		if err != nil {
			t.Fatal(err)
		}
		return m, b
	}
	out := filepath.Join(tmp, "a")
	m, first := run(out, 2)
	if len(m.Failed) > 0 {
		t.Errorf("failures: %+v", m.Failed)
	}
	if len(m.Characters) < 27 || len(m.Clips) < 30 || len(m.Inputs) < 22 {
		t.Errorf("%d characters, %d clips from %d inputs; the corpus has at least 27, 30 and 22", len(m.Characters), len(m.Clips), len(m.Inputs))
	}
	checkComplete(t, mods, out, m)
	placed := map[string]int{} // clip (container and ref) -> outputs that hold it as a clip no character plays
	exported := 0
	for _, c := range m.Characters {
		for _, u := range c.Clips {
			if u.Why == "binds" || u.Why == "avatar" {
				placed[u.Ref]++
			}
		}
	}
	for _, c := range m.Clips {
		if len(c.Outputs) > 0 {
			exported++
		}
		if len(c.Outputs) == 0 && c.SameAs == "" && !strings.Contains(c.Skipped, "nothing to play the clip on") {
			t.Errorf("clip %q (%s in %s) left out: %s", c.Name, c.Source.Ref, c.Source.Container, c.Skipped)
		}
	}
	for ref, n := range placed {
		if n != 1 {
			t.Errorf("clip %s, which no character plays, is in %d outputs", ref, n)
		}
	}
	if exported < 25 {
		t.Errorf("%d of %d clips exported; want at least 25 (all but the legacy clips no rig has the paths of)", exported, len(m.Clips))
	}
	// The same inputs give the same manifest, whatever the worker count;
	// a second run into the same folder writes nothing.
	if _, again := run(filepath.Join(tmp, "b"), 1); !bytes.Equal(first, again) {
		t.Error("a run with one worker wrote another manifest")
	}
	before := modTimes(t, out)
	if _, again := run(out, 2); !bytes.Equal(first, again) || !mapsEqual(before, modTimes(t, out)) {
		t.Error("a second run changed the manifest or rewrote files")
	}
}
