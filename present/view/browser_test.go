package view

// An end-to-end test in headless Chromium, driven over the DevTools
// protocol on a pipe (--remote-debugging-pipe: NUL-terminated JSON on file
// descriptors 3 and 4), which needs nothing beyond the standard library.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mecanim/mecanim/internal/corpustest"
)

// findChromium returns the browser to test with, skipping the test when
// there is none unless MECANIM_REQUIRE_CHROMIUM=1 (CI) demands one.
func findChromium(t *testing.T) string {
	t.Helper()
	required := os.Getenv("MECANIM_REQUIRE_CHROMIUM") == "1"
	if p := os.Getenv("MECANIM_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if required {
		t.Fatal("MECANIM_REQUIRE_CHROMIUM=1 but no chromium on PATH (apt-get install chromium)")
	}
	t.Skip("chromium not installed (set MECANIM_REQUIRE_CHROMIUM=1 to make this a failure)")
	return ""
}

// cdpMessage is a DevTools protocol message in either direction.
type cdpMessage struct {
	ID        int             `json:"id,omitempty"`
	SessionID string          `json:"sessionId,omitempty"`
	Method    string          `json:"method,omitempty"`
	Params    json.RawMessage `json:"params,omitempty"`
	Result    json.RawMessage `json:"result,omitempty"`
	Error     *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error,omitempty"`
}

// browser is a Chromium process and a DevTools client on its pipe.
type browser struct {
	cmd    *exec.Cmd
	w      io.WriteCloser
	stderr *lockedBuffer

	mu      sync.Mutex
	nextID  int
	pending map[int]chan cdpMessage
	events  []cdpMessage
	closed  bool
	readErr error
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func startBrowser(t *testing.T, path string) *browser {
	t.Helper()
	toChromeR, toChromeW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	fromChromeR, fromChromeW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(path,
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-default-apps", "--disable-extensions", "--mute-audio", "--hide-scrollbars",
		"--disable-dev-shm-usage", "--disable-renderer-backgrounding", "--disable-background-timer-throttling",
		"--disable-backgrounding-occluded-windows",
		"--use-angle=swiftshader", "--enable-unsafe-swiftshader",
		"--window-size=1000,700",
		"--user-data-dir="+t.TempDir(),
		"--remote-debugging-pipe",
		"about:blank")
	cmd.ExtraFiles = []*os.File{toChromeR, fromChromeW} // fds 3 and 4
	b := &browser{cmd: cmd, w: toChromeW, stderr: &lockedBuffer{}, pending: map[int]chan cdpMessage{}}
	cmd.Stderr = b.stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", path, err)
	}
	toChromeR.Close()
	fromChromeW.Close()
	go b.read(fromChromeR)
	t.Cleanup(func() { b.close(t) })
	return b
}

func (b *browser) read(r io.ReadCloser) {
	defer r.Close()
	br := bufio.NewReaderSize(r, 1<<20)
	for {
		line, err := br.ReadBytes(0)
		if err != nil {
			b.mu.Lock()
			b.readErr, b.closed = err, true
			for id, ch := range b.pending {
				close(ch)
				delete(b.pending, id)
			}
			b.mu.Unlock()
			return
		}
		var m cdpMessage
		if err := json.Unmarshal(line[:len(line)-1], &m); err != nil {
			continue
		}
		b.mu.Lock()
		if m.ID != 0 {
			if ch, ok := b.pending[m.ID]; ok {
				ch <- m
				delete(b.pending, m.ID)
			}
		} else {
			b.events = append(b.events, m)
		}
		b.mu.Unlock()
	}
}

// call sends a command (to the browser when session is "") and decodes its
// result into result (if not nil).
func (b *browser) call(ctx context.Context, session, method string, params, result any) error {
	if params == nil {
		params = struct{}{}
	}
	p, err := json.Marshal(params)
	if err != nil {
		return err
	}
	ch := make(chan cdpMessage, 1)
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return fmt.Errorf("%s: browser gone (%v)", method, b.readErr)
	}
	b.nextID++
	id := b.nextID
	b.pending[id] = ch
	b.mu.Unlock()
	msg, _ := json.Marshal(cdpMessage{ID: id, SessionID: session, Method: method, Params: p})
	if _, err := b.w.Write(append(msg, 0)); err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	select {
	case m, ok := <-ch:
		if !ok {
			return fmt.Errorf("%s: browser closed the pipe", method)
		}
		if m.Error != nil {
			return fmt.Errorf("%s: %s", method, m.Error.Message)
		}
		if result != nil {
			return json.Unmarshal(m.Result, result)
		}
		return nil
	case <-ctx.Done():
		return fmt.Errorf("%s: %w", method, ctx.Err())
	}
}

func (b *browser) close(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	b.call(ctx, "", "Browser.close", nil, nil)
	b.w.Close()
	done := make(chan error, 1)
	go func() { done <- b.cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		b.cmd.Process.Kill()
		<-done
	}
	if t.Failed() {
		log := b.stderr.String()
		if len(log) > 4000 {
			log = log[len(log)-4000:]
		}
		t.Logf("chromium stderr (tail):\n%s", log)
	}
}

// problems returns the console errors, uncaught exceptions and error log
// entries (failed loads included) the page produced so far.
func (b *browser) problems() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []string
	for _, e := range b.events {
		switch e.Method {
		case "Runtime.exceptionThrown":
			var p struct {
				ExceptionDetails struct {
					Text      string `json:"text"`
					Exception struct {
						Description string `json:"description"`
					} `json:"exception"`
				} `json:"exceptionDetails"`
			}
			json.Unmarshal(e.Params, &p)
			out = append(out, "exception: "+p.ExceptionDetails.Text+" "+p.ExceptionDetails.Exception.Description)
		case "Runtime.consoleAPICalled":
			var p struct {
				Type string `json:"type"`
				Args []struct {
					Value       any    `json:"value"`
					Description string `json:"description"`
				} `json:"args"`
			}
			json.Unmarshal(e.Params, &p)
			if p.Type == "error" || p.Type == "assert" {
				var parts []string
				for _, a := range p.Args {
					parts = append(parts, fmt.Sprint(a.Value, a.Description))
				}
				out = append(out, "console."+p.Type+": "+strings.Join(parts, " "))
			}
		case "Log.entryAdded":
			var p struct {
				Entry struct {
					Level  string `json:"level"`
					Text   string `json:"text"`
					URL    string `json:"url"`
					Source string `json:"source"`
				} `json:"entry"`
			}
			json.Unmarshal(e.Params, &p)
			if p.Entry.Level == "error" {
				out = append(out, fmt.Sprintf("log %s: %s %s", p.Entry.Source, p.Entry.Text, p.Entry.URL))
			}
		}
	}
	return out
}

// page is one tab attached in flat mode.
type page struct {
	b       *browser
	session string
}

func (b *browser) newPage(ctx context.Context, t *testing.T) *page {
	t.Helper()
	var target struct {
		TargetID string `json:"targetId"`
	}
	if err := b.call(ctx, "", "Target.createTarget", map[string]any{"url": "about:blank"}, &target); err != nil {
		t.Fatal(err)
	}
	var att struct {
		SessionID string `json:"sessionId"`
	}
	if err := b.call(ctx, "", "Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true}, &att); err != nil {
		t.Fatal(err)
	}
	p := &page{b, att.SessionID}
	for _, m := range []string{"Runtime.enable", "Log.enable", "Page.enable"} {
		if err := b.call(ctx, p.session, m, nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.call(ctx, p.session, "Emulation.setDeviceMetricsOverride",
		map[string]any{"width": 1000, "height": 700, "deviceScaleFactor": 1, "mobile": false}, nil); err != nil {
		t.Fatal(err)
	}
	return p
}

// eval evaluates a JavaScript expression and decodes its JSON value.
func (p *page) eval(ctx context.Context, t *testing.T, expr string, v any) {
	t.Helper()
	var r struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		ExceptionDetails *struct {
			Text string `json:"text"`
		} `json:"exceptionDetails"`
	}
	if err := p.b.call(ctx, p.session, "Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true}, &r); err != nil {
		t.Fatal(err)
	}
	if r.ExceptionDetails != nil {
		t.Fatalf("evaluating %s: %s", expr, r.ExceptionDetails.Text)
	}
	if v != nil && len(r.Result.Value) > 0 {
		if err := json.Unmarshal(r.Result.Value, v); err != nil {
			t.Fatalf("evaluating %s: %v", expr, err)
		}
	}
}

// waitStatus polls the page's data-status until it is one of want.
func (p *page) waitStatus(ctx context.Context, t *testing.T, want ...string) string {
	t.Helper()
	var last string
	for {
		p.eval(ctx, t, `document.body ? document.body.dataset.status + "" : ""`, &last)
		for _, w := range want {
			if last == w {
				return last
			}
		}
		if last == "error" {
			var msg string
			p.eval(ctx, t, `document.getElementById("status").textContent + " " + document.getElementById("errors").textContent`, &msg)
			t.Fatalf("page status error: %s", msg)
		}
		select {
		case <-ctx.Done():
			t.Fatalf("page status %q, waited for %q: %v (problems: %q)", last, want, ctx.Err(), p.b.problems())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func (p *page) screenshot(ctx context.Context, t *testing.T) image.Image {
	t.Helper()
	var r struct {
		Data string `json:"data"`
	}
	if err := p.b.call(ctx, p.session, "Page.captureScreenshot", map[string]any{"format": "png"}, &r); err != nil {
		t.Fatal(err)
	}
	b, err := base64.StdEncoding.DecodeString(r.Data)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// differing counts the pixels of rect that differ between a and b by more
// than a small tolerance in some channel.
func differing(a, b image.Image, rect image.Rectangle) int {
	rect = rect.Intersect(a.Bounds()).Intersect(b.Bounds())
	n := 0
	for y := rect.Min.Y; y < rect.Max.Y; y++ {
		for x := rect.Min.X; x < rect.Max.X; x++ {
			r1, g1, b1, _ := a.At(x, y).RGBA()
			r2, g2, b2, _ := b.At(x, y).RGBA()
			if absDiff(r1, r2) > 0x1800 || absDiff(g1, g2) > 0x1800 || absDiff(b1, b2) > 0x1800 {
				n++
			}
		}
	}
	return n
}

func absDiff(a, b uint32) uint32 {
	if a > b {
		return a - b
	}
	return b - a
}

func TestBrowserPlaysACorpusClip(t *testing.T) {
	chromium := findChromium(t)
	if testing.Short() && os.Getenv("MECANIM_REQUIRE_CHROMIUM") != "1" {
		t.Skip("headless browser test skipped in -short mode")
	}
	ts, s := newTestServer(t, corpustest.Path(t, "lc-example-enemy/modassets"))
	walk := -1
	var names []string
	for _, c := range s.Scene().Clips {
		names = append(names, c.Name)
		if c.Name == "walkCycle" {
			walk = c.ID
		}
	}
	if walk < 0 {
		t.Fatal("no walkCycle clip")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	b := startBrowser(t, chromium)
	p := b.newPage(ctx, t)

	// A clip chosen and played from the URL, at a fifth of its speed: a
	// second (and the screenshot's own time) then moves the looping
	// 0.58 s cycle by about a third, never by a whole cycle, which would
	// show the same pose.
	if err := b.call(ctx, p.session, "Page.navigate", map[string]any{"url": fmt.Sprintf("%s/?clip=%d&autoplay=1&speed=0.2", ts.URL, walk)}, nil); err != nil {
		t.Fatal(err)
	}
	p.waitStatus(ctx, t, "playing")
	var dom struct {
		GL     string    `json:"gl"`
		Meshes string    `json:"meshes"`
		Clips  []string  `json:"clips"`
		Title  string    `json:"title"`
		Errors string    `json:"errors"`
		Canvas []float64 `json:"canvas"`
	}
	p.eval(ctx, t, `(() => {
		const r = document.getElementById("view").getBoundingClientRect();
		return {
			gl: document.body.dataset.gl || "",
			meshes: document.body.dataset.meshes || "",
			clips: [...document.querySelectorAll("#clips li")].map(li => li.firstChild.textContent),
			title: document.getElementById("title").textContent,
			errors: document.getElementById("errors").textContent,
			canvas: [r.left, r.top, r.right, r.bottom],
		};
	})()`, &dom)
	if dom.GL != "webgl" {
		t.Fatalf("WebGL not initialised (data-gl=%q): %s", dom.GL, dom.Errors)
	}
	if strings.Join(dom.Clips, ",") != strings.Join(names, ",") {
		t.Errorf("page lists clips %q, want %q", dom.Clips, names)
	}
	if dom.Meshes != "4" {
		t.Errorf("walkCycle drawn with %q meshes, want the rig's 4 (body, head, legs, hat)", dom.Meshes)
	}
	if dom.Title != "walkCycle" {
		t.Errorf("page plays %q, want walkCycle", dom.Title)
	}
	if len(dom.Canvas) != 4 || dom.Canvas[2]-dom.Canvas[0] < 100 || dom.Canvas[3]-dom.Canvas[1] < 100 {
		t.Fatalf("canvas rectangle %v", dom.Canvas)
	}
	canvas := image.Rect(int(dom.Canvas[0])+1, int(dom.Canvas[1])+1, int(dom.Canvas[2])-1, int(dom.Canvas[3])-1)

	var t1, t2 string
	shot1 := p.screenshot(ctx, t)
	p.eval(ctx, t, `document.body.dataset.time`, &t1)
	time.Sleep(time.Second)
	shot2 := p.screenshot(ctx, t)
	p.eval(ctx, t, `document.body.dataset.time`, &t2)
	if t1 == t2 {
		t.Errorf("clip time stayed at %s over a second of play", t1)
	}
	if n := differing(shot1, shot2, canvas); n < 50 {
		t.Errorf("only %d canvas pixels changed in a second of play (times %s, %s)", n, t1, t2)
		for i, img := range []image.Image{shot1, shot2} {
			if f, err := os.CreateTemp("", fmt.Sprintf("mecanim-view-shot%d-*.png", i+1)); err == nil {
				png.Encode(f, img)
				t.Logf("screenshot %s", f.Name())
				f.Close()
			}
		}
	} else {
		t.Logf("%d canvas pixels changed between t=%s and t=%s", n, t1, t2)
	}

	// The controller: a trigger pressed on the page moves the walk layer
	// into walkCycle on the server.
	if err := b.call(ctx, p.session, "Page.navigate", map[string]any{"url": ts.URL + "/?controller=0&autoplay=1"}, nil); err != nil {
		t.Fatal(err)
	}
	p.waitStatus(ctx, t, "playing")
	p.eval(ctx, t, `(() => {
		for (const row of document.querySelectorAll("#paramlist .param"))
			if (row.querySelector(".name").textContent === "startWalk") { row.querySelector("button").click(); return true; }
		return false;
	})()`, nil)
	deadline := time.Now().Add(20 * time.Second)
	var states string
	for time.Now().Before(deadline) {
		p.eval(ctx, t, `document.body.dataset.states || ""`, &states)
		if strings.Contains(states, "walkCycle") {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if !strings.Contains(states, "walkCycle") {
		t.Errorf("after pressing startWalk the layers are in %q, want walkCycle among them", states)
	}

	if probs := b.problems(); len(probs) > 0 {
		t.Errorf("the page reported %d problems:\n%s", len(probs), strings.Join(probs, "\n"))
	}
}
