package extract_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	qg "github.com/qmuntal/gltf"

	"github.com/mecanim/mecanim/extract"
	"github.com/mecanim/mecanim/internal/synth"
)

// With --avatar, a clip no character plays that binds to a humanoid
// character (a Mixamo glTF walk) goes on the avatar's character too,
// through muscles, as a humanoid clip would; without --avatar it stays on
// its own character only. The manifest says why each plays where.
func TestExtractPutsAHumanoidsGenericClipOnTheAvatarThroughMuscles(t *testing.T) {
	dir := t.TempDir()
	walk := filepath.Join(dir, "walk.glb")
	if err := os.WriteFile(walk, synth.MixamoGLB(true), 0o644); err != nil {
		t.Fatal(err)
	}
	human := synth.NewScene(t, synth.Options{Full: true}).Write("human.assets")
	for _, c := range []struct {
		avatar string
		want   map[string]string // character -> why the walk plays there
	}{
		{"", map[string]string{"walk": "binds"}},
		{"SynthAvatar", map[string]string{"walk": "binds", "Synth": "retarget"}},
	} {
		out := filepath.Join(t.TempDir(), "out")
		m, err := extract.Extract(context.Background(), []string{walk, human}, extract.Options{Out: out, Workers: 1, Avatar: c.avatar})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, ch := range m.Characters {
			for _, u := range ch.Clips {
				if u.Name == synth.MixamoWalk {
					got[ch.Name] = u.Why
				}
			}
		}
		if len(got) != len(c.want) {
			t.Errorf("--avatar %q: the walk plays on %v, want %v", c.avatar, got, c.want)
		}
		for k, v := range c.want {
			if got[k] != v {
				t.Errorf("--avatar %q: the walk on %s: %q, want %q", c.avatar, k, got[k], v)
			}
		}
		for _, cl := range m.Clips {
			if cl.Name == synth.MixamoWalk && cl.Humanoid {
				t.Errorf("--avatar %q: the walk is listed as a humanoid clip", c.avatar)
			}
		}
		if c.avatar == "" {
			continue
		}
		doc, err := qg.Open(filepath.Join(out, "Synth.glb"))
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, a := range doc.Animations {
			found = found || (a.Name == synth.MixamoWalk && len(a.Channels) > 0)
		}
		if !found {
			t.Errorf("Synth.glb has no animation %q", synth.MixamoWalk)
		}
	}
}
