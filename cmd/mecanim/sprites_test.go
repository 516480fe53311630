package main

import (
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/mecanim/mecanim/internal/synth"
)

// render draws a 2D clip (it switches a SpriteRenderer's sprite and moves
// no Transform) as a strip of its frames: four 2×2 sprites side by side,
// frame k the red 60·k+20 one.
func TestRenderDrawsASpriteClipAsAStrip(t *testing.T) {
	in := synth.SpriteClipFile(t)
	out := filepath.Join(t.TempDir(), "run.png")
	_, stderr, code := runCLI("render", in, "--clip", "Run", "-o", out)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if img.Bounds().Dx() != 8 || img.Bounds().Dy() != 2 {
		t.Fatalf("strip %v, want 8×2", img.Bounds())
	}
	for k := range 4 {
		if r, _, _, _ := img.At(2*k+1, 1).RGBA(); r>>8 != uint32(60*k+20) {
			t.Errorf("frame %d: red %d", k, r>>8)
		}
	}
}
