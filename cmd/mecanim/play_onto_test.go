package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/internal/synth"
)

// play runs a controller on a character other than its Animator's: on a
// VRM character (--onto) and on another rig (--animator with
// --controller); alone, --avatar and --onto are usage errors.
func TestPlayRunsAControllerOnTheCharacterChosen(t *testing.T) {
	vrm := corpustest.Path(t, "characters/cryptovoxels.vrm")
	scene := synth.NewScene(t, synth.Options{Full: true, Extended: true}).Write("scene.assets")
	script := filepath.Join(t.TempDir(), "script.json")
	if err := os.WriteFile(script, []byte(`{"duration": 0.5}`), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"its own Animator", []string{"--animator", "Synth"}, exitOK, `on rig "Synth"`},
		{"onto a VRM character", []string{"--controller", "SynthController", "--onto", vrm}, exitOK, `on rig "cryptovoxels"`},
		{"--onto without --controller", []string{"--animator", "Synth", "--onto", vrm}, exitUsage, "--controller"},
		{"--avatar without --controller", []string{"--avatar", "SynthAvatar"}, exitUsage, "--controller"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args := append([]string{"play", scene, "--script", script}, c.args...)
			stdout, stderr, code := runCLI(args...)
			if code != c.code || !strings.Contains(stdout+stderr, c.want) {
				t.Fatalf("exit %d, want %d saying %q:\n%s%s", code, c.code, c.want, stdout, stderr)
			}
			if code == exitOK && !strings.Contains(stdout, "Idle") {
				t.Errorf("the controller's entry state Idle does not play:\n%s", stdout)
			}
		})
	}
}
