package sprite

import (
	"bytes"
	"context"
	"encoding/base64"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"
)

// findChromium returns the browser's path, or skips (fails when
// MECANIM_REQUIRE_CHROMIUM=1, as CI sets it).
func findChromium(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("MECANIM_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("MECANIM_REQUIRE_CHROMIUM") == "1" {
		t.Fatal("MECANIM_REQUIRE_CHROMIUM=1 but no chromium on PATH (apt-get install chromium)")
	}
	t.Skip("chromium not installed (set MECANIM_REQUIRE_CHROMIUM=1 to make this a failure)")
	return ""
}

// Chromium's image decoder (an independent APNG decoder) plays the
// animated PNG as written: every frame, its duration and its pixels.
func TestChromiumPlaysTheAPNG(t *testing.T) {
	chromium := findChromium(t)
	var b bytes.Buffer
	if err := WriteAPNG(&b, frames(), 0); err != nil {
		t.Fatal(err)
	}
	page := `<html><body><pre id=out>pending</pre><script>
(async () => {
  try {
    const bin = Uint8Array.from(atob("` + base64.StdEncoding.EncodeToString(b.Bytes()) + `"), c => c.charCodeAt(0));
    const d = new ImageDecoder({data: bin, type: "image/png"});
    await d.tracks.ready;
    await d.completed;
    const t = d.tracks.selectedTrack;
    let s = "frames=" + t.frameCount;
    for (let i = 0; i < t.frameCount; i++) {
      const f = (await d.decode({frameIndex: i})).image;
      const c = new OffscreenCanvas(f.displayWidth, f.displayHeight);
      const g = c.getContext("2d");
      g.drawImage(f, 0, 0);
      s += ";" + f.displayWidth + "x" + f.displayHeight + " " + f.duration / 1000 + "ms " + Array.from(g.getImageData(4, 0, 1, 1).data).join(",");
    }
    document.getElementById("out").textContent = s;
  } catch (e) { document.getElementById("out").textContent = "error " + e; }
})();
</script></body></html>`
	p := filepath.Join(t.TempDir(), "apng.html")
	if err := os.WriteFile(p, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	// The decoder runs on Chromium's own threads, in real time: on a busy
	// machine the page can still read "pending" when its virtual time
	// runs out. Then ask again with more time; any other answer counts.
	var m [][]byte
	for _, budget := range []string{"5000", "30000", "120000"} {
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		out, err := exec.CommandContext(ctx, chromium, "--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir="+t.TempDir(),
			"--virtual-time-budget="+budget, "--dump-dom", "file://"+p).Output()
		cancel()
		if err != nil {
			t.Fatalf("chromium: %v", err)
		}
		m = regexp.MustCompile(`<pre id="out">([^<]*)`).FindSubmatch(out)
		if m == nil || string(m[1]) != "pending" {
			break
		}
		t.Logf("the page still read %q after a virtual time budget of %s ms", m[1], budget)
	}
	// Texel (4, 0) of the 5×4 canvas: the bar's red in frame 0, empty in
	// the others.
	want := "frames=3;5x4 100ms 255,0,0,200;5x4 50ms 0,0,0,0;5x4 250ms 0,0,0,0"
	if m == nil || string(m[1]) != want {
		t.Errorf("chromium read %q, want %q", m, want)
	}
}
