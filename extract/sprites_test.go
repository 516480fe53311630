package extract

import (
	"context"
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/mecanim/mecanim/internal/synth"
)

// A 2D game's sprite clip, which moves no Transform and so plays on no
// character, comes out as an animated PNG, a sprite sheet with its JSON
// timing (Aseprite's shape) and its frames, listed in the manifest as the
// clip's outputs.
func TestExtractWritesSpriteClips(t *testing.T) {
	in := synth.SpriteClipFile(t)
	out := t.TempDir()
	m, err := Extract(context.Background(), []string{in}, Options{Out: out, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Failed) > 0 {
		t.Fatalf("failed: %+v", m.Failed)
	}
	var run *Clip
	for i := range m.Clips {
		if m.Clips[i].Name == "Run" {
			run = &m.Clips[i]
		}
	}
	if run == nil || len(run.Outputs) != 2 || run.Outputs[0] != "sprites/Run.png" || run.Outputs[1] != "sprites/Run.sheet.png" || run.Skipped != "" {
		t.Fatalf("clip Run: %+v", run)
	}
	kinds := map[string]string{}
	for _, o := range m.Outputs {
		kinds[o.Path] = o.Kind
	}
	if kinds["sprites/Run.png"] != KindSpriteAnimation || kinds["sprites/Run.sheet.png"] != KindSpriteSheet {
		t.Errorf("outputs %v", kinds)
	}
	js, err := os.ReadFile(filepath.Join(out, "sprites", "Run.sheet.json"))
	if err != nil {
		t.Fatal(err)
	}
	var sheet struct {
		Frames []struct {
			Duration int64 `json:"duration"`
		} `json:"frames"`
	}
	if err := json.Unmarshal(js, &sheet); err != nil || len(sheet.Frames) != 4 {
		t.Fatalf("sheet JSON %s: %v", js, err)
	}
	for k, f := range sheet.Frames {
		if f.Duration != 100 {
			t.Errorf("frame %d lasts %d ms, want 100", k, f.Duration)
		}
	}
	// Frame k is the red 60·k+20 sprite.
	for k := range 4 {
		fp, err := os.Open(filepath.Join(out, "sprites", "Run.frames", "00"+string(rune('0'+k))+".png"))
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(fp)
		fp.Close()
		if err != nil {
			t.Fatal(err)
		}
		if r, _, _, a := img.At(0, 0).RGBA(); r>>8 != uint32(60*k+20) || a>>8 != 255 || img.Bounds().Dx() != 2 {
			t.Errorf("frame %d: red %d alpha %d, %v", k, r>>8, a>>8, img.Bounds())
		}
	}
}
