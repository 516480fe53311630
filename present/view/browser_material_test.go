package view

import (
	"context"
	"fmt"
	"image"
	"image/png"
	"net/http/httptest"
	"os"
	"testing"
	"time"
)

// The page draws what export writes: the face's quad with its texture
// (red and blue texels, tiled) and its green material, and its blend shape
// moving the quad's top as the clip drives it (the picture at t=1 differs
// from the one at t=0, the bones hidden).
func TestBrowserDrawsTexturesMaterialsAndBlendShapes(t *testing.T) {
	chromium := findChromium(t)
	if testing.Short() && os.Getenv("MECANIM_REQUIRE_CHROMIUM") != "1" {
		t.Skip("headless browser test skipped in -short mode")
	}
	s, err := New(newFaceLib(t), Options{Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	defer ts.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	b := startBrowser(t, chromium)
	p := b.newPage(ctx, t)
	shot := func(at string) (image.Image, image.Rectangle) {
		if err := b.call(ctx, p.session, "Page.navigate", map[string]any{"url": fmt.Sprintf("%s/?clip=0&rig=0&bones=0&t=%s", ts.URL, at)}, nil); err != nil {
			t.Fatal(err)
		}
		p.waitStatus(ctx, t, "paused")
		deadline := time.Now().Add(20 * time.Second)
		var textures string
		for time.Now().Before(deadline) && textures != "1" {
			p.eval(ctx, t, `document.body.dataset.textures || ""`, &textures)
			time.Sleep(100 * time.Millisecond)
		}
		if textures != "1" {
			t.Fatalf("t=%s: %q textures loaded, want 1", at, textures)
		}
		time.Sleep(300 * time.Millisecond) // a frame drawn with it
		var r []float64
		p.eval(ctx, t, `(() => { const r = document.getElementById("view").getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })()`, &r)
		return p.screenshot(ctx, t), image.Rect(int(r[0])+1, int(r[1])+1, int(r[2])-1, int(r[3])-1)
	}
	at0, canvas := shot("0")
	// Lit and sRGB-encoded, the texels stay clearly red, blue (times the
	// material's orange factor: no blue survives it) and green.
	var red, green int
	for y := canvas.Min.Y; y < canvas.Max.Y; y++ {
		for x := canvas.Min.X; x < canvas.Max.X; x++ {
			r, g, bl, _ := at0.At(x, y).RGBA()
			switch {
			case r > 0x8000 && g < 0x4000 && bl < 0x4000:
				red++
			case g > 0x8000 && r < 0x4000 && bl < 0x4000:
				green++
			}
		}
	}
	if red < 200 || green < 200 {
		t.Errorf("%d red (texture) and %d green (material) pixels, want both drawn", red, green)
	}
	at1, _ := shot("1")
	if n := differing(at0, at1, canvas); n < 200 {
		t.Errorf("only %d pixels differ between the smile at 0 and at 100", n)
	}
	if t.Failed() {
		for i, img := range []image.Image{at0, at1} {
			if f, err := os.CreateTemp("", fmt.Sprintf("mecanim-view-face%d-*.png", i)); err == nil {
				png.Encode(f, img)
				t.Logf("screenshot %s", f.Name())
				f.Close()
			}
		}
	}
	if probs := b.problems(); len(probs) > 0 {
		t.Errorf("the page reported %d problems: %q", len(probs), probs)
	}
}
