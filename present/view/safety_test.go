package view

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/internal/corpustest"
)

// heavyWork reports what the server has started: clips bound, controllers
// started, the scene made.
func heavyWork(s *Server) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var w []string
	if len(s.playables) > 0 {
		w = append(w, fmt.Sprintf("%d clips bound", len(s.playables)))
	}
	if len(s.sessions) > 0 {
		w = append(w, fmt.Sprintf("%d controllers started", len(s.sessions)))
	}
	if s.scene != nil {
		w = append(w, "the scene made")
	}
	return strings.Join(w, ", ")
}

// A request another site's page can send (an <img>, a form, a fetch in
// no-cors mode) carries no token, and a browser marks it cross-site:
// either is refused before any work starts.
func TestCrossSiteRequestsStartNoWork(t *testing.T) {
	ts, s := newSynthServer(t)
	heavy := ts.URL + "/api/clip/4/frames?rate=240&mesh=1"
	for _, tc := range []struct {
		name, method, url string
		header            map[string]string
	}{
		{"no token", "GET", heavy, nil},
		{"wrong token", "GET", heavy, map[string]string{TokenHeader: strings.Repeat("0", 32)}},
		{"token prefix", "GET", heavy, map[string]string{TokenHeader: s.Token()[:16]}},
		{"cross-site", "GET", heavy, map[string]string{TokenHeader: s.Token(), "Sec-Fetch-Site": "cross-site"}},
		{"same-site (another port)", "GET", heavy, map[string]string{TokenHeader: s.Token(), "Sec-Fetch-Site": "same-site"}},
		{"foreign origin", "GET", heavy, map[string]string{TokenHeader: s.Token(), "Origin": "http://evil.example"}},
		{"null origin", "GET", heavy, map[string]string{TokenHeader: s.Token(), "Origin": "null"}},
		{"scene without token", "GET", ts.URL + "/api/scene", nil},
		{"controller without token", "GET", ts.URL + "/api/controller/0?mesh=1", nil},
		{"tick without token", "POST", ts.URL + "/api/controller/0/tick", map[string]string{"Content-Type": "application/json"}},
		{"tick from another site", "POST", ts.URL + "/api/controller/0/tick", map[string]string{"Content-Type": "application/json",
			TokenHeader: s.Token(), "Origin": "http://localhost:9999"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := http.NewRequest(tc.method, tc.url, strings.NewReader(`{"dt": 0.5}`))
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range tc.header {
				r.Header.Set(k, v)
			}
			resp, err := http.DefaultClient.Do(r)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusForbidden {
				t.Errorf("status %d (%s), want 403", resp.StatusCode, b)
			}
			if strings.Contains(string(b), s.Token()) {
				t.Errorf("the refusal shows the token")
			}
			if w := heavyWork(s); w != "" {
				t.Errorf("work started: %s", w)
			}
		})
	}
	// the page's own requests do work
	r := request(t, "GET", heavy, "", "")
	r.Header.Set("Sec-Fetch-Site", "same-origin")
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || heavyWork(s) == "" {
		t.Errorf("with the token, same-origin: %d, work %q", resp.StatusCode, heavyWork(s))
	}
}

// The token is in the page (where its script reads it) and nowhere else.
func TestTheTokenIsInThePageOnly(t *testing.T) {
	ts, s := newSynthServer(t)
	if len(s.Token()) != 32 {
		t.Fatalf("token %q", s.Token())
	}
	for path, want := range map[string]bool{"/": true, "/app.js": false, "/style.css": false, "/api/scene": false, "/api/clip/0/frames": false, "/api/controller/0": false} {
		resp, err := get(t, ts.URL+path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Errorf("%s: %d", path, resp.StatusCode)
		}
		if got := strings.Contains(string(b), s.Token()); got != want {
			t.Errorf("%s holds the token: %v, want %v", path, got, want)
		}
	}
	other, err := New(newSynthLib(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if other.Token() == s.Token() {
		t.Errorf("two servers share a token")
	}
}

// Frames are streamed as they are formatted; what arrives is the answer
// ClipFrames builds in memory.
func TestStreamedFramesAreTheAnswerBuiltInMemory(t *testing.T) {
	type server struct {
		name  string
		open  func(t *testing.T) (string, *Server)
		clips []int
	}
	servers := []server{
		{"synthetic", func(t *testing.T) (string, *Server) { ts, s := newSynthServer(t); return ts.URL, s }, []int{0, 1, 2}},
		{"hello", func(t *testing.T) (string, *Server) { ts, s := newTestServer(t, helloBundle); return ts.URL, s }, []int{0}},
	}
	if _, ok := corpustest.Lookup(); ok {
		servers = append(servers, server{"enemy with meshes", func(t *testing.T) (string, *Server) {
			ts, s := newTestServer(t, corpustest.Path(t, "lc-example-enemy/modassets"))
			return ts.URL, s
		}, []int{0, 1}})
	}
	for _, sv := range servers {
		t.Run(sv.name, func(t *testing.T) {
			url, s := sv.open(t)
			for _, clip := range sv.clips {
				for _, mesh := range []bool{false, true} {
					m := map[bool]int{false: 0, true: 1}[mesh]
					var got Frames
					getJSON(t, fmt.Sprintf("%s/api/clip/%d/frames?rate=24&mesh=%d", url, clip, m), &got)
					f, err := s.ClipFrames(clip, -1, 24, mesh)
					if err != nil {
						t.Fatal(err)
					}
					b, _ := json.Marshal(f)
					var want Frames
					json.Unmarshal(b, &want)
					if !reflect.DeepEqual(got, want) {
						t.Errorf("clip %d mesh=%v: the streamed answer differs from the one built in memory", clip, mesh)
					}
					if got.Box == nil || len(got.Sides) != len(got.Paths) || len(got.Body) != len(got.Paths) {
						t.Errorf("clip %d: box %v, %d sides, %d body marks for %d joints", clip, got.Box, len(got.Sides), len(got.Body), len(got.Paths))
					}
				}
			}
		})
	}
}

// A client that does not read its answer is cut off once a chunk waits
// longer than the chunk timeout, and its slot goes to the next request.
func TestSlowReadersAreCutOffAndFreeTheirSlot(t *testing.T) {
	ts, s := newSynthServer(t)
	s.chunkTimeout = 300 * time.Millisecond
	s.admitWait = 200 * time.Millisecond
	addr := strings.TrimPrefix(ts.URL, "http://")
	heavy := "/api/clip/4/frames?rate=240&mesh=1"
	// more never-reading clients than there are slots
	conns := make([]net.Conn, MaxStreams+4)
	for i := range conns {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		c.(*net.TCPConn).SetReadBuffer(4 << 10)
		fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: %s\r\n%s: %s\r\n\r\n", heavy, addr, TokenHeader, s.Token())
		conns[i] = c
	}
	// Every slow reader that got a slot is let go within a few chunk
	// timeouts (the kernel may still hold what was written; the server
	// holds nothing). At least MaxStreams of them got one: a request is
	// turned away only while MaxStreams others hold every slot.
	deadline := time.Now().Add(30 * time.Second)
	for s.cutOff.Load() < MaxStreams || len(s.streams) > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d slow readers cut off, %d answers still in progress", s.cutOff.Load(), len(s.streams))
		}
		time.Sleep(20 * time.Millisecond)
	}
	// Then a request gets its answer. On a loaded machine a slow reader
	// may still have been waiting for a slot and take one first, so a 503
	// is retried until the deadline: what must not happen is a slot kept.
	for {
		resp, err := get(t, ts.URL+heavy)
		if err != nil {
			t.Fatal(err)
		}
		n, _ := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			t.Logf("%d slow readers cut off; answered %d bytes after", s.cutOff.Load(), n)
			return
		}
		if resp.StatusCode != http.StatusServiceUnavailable || time.Now().After(deadline) {
			t.Fatalf("status %d after the slow readers were let go", resp.StatusCode)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Error answers name files by their base names only.
func TestErrorAnswersShowNoLocalPaths(t *testing.T) {
	ts, _ := newSynthServer(t)
	code, body := rawGet(t, strings.TrimPrefix(ts.URL, "http://"), "GET", "/api/clip/3/frames", strings.TrimPrefix(ts.URL, "http://"))
	if code != http.StatusUnprocessableEntity {
		t.Fatalf("the humanoid clip on a rig without an avatar: %d %s", code, body)
	}
	if strings.Contains(body, "/home/") || strings.Contains(body, "private") {
		t.Errorf("the error answer shows a local path: %s", body)
	}
	if !strings.Contains(body, "stick.bundle") || !strings.Contains(body, "Salute") {
		t.Errorf("the error answer no longer says which file and clip: %s", body)
	}
	for _, tc := range []struct{ in, want string }{
		{`clip "X" (/home/someone/private/stick.bundle: path id 19) failed`, `clip "X" (stick.bundle: path id 19) failed`},
		{`open /var/data/game files/a.bundle: no such file`, `open a.bundle: no such file`},
		{`reading /tmp/x/y.assets: EOF`, `reading y.assets: EOF`},
		{`C:\Users\me\game\level0: bad header`, `level0: bad header`},
		{`"/srv/a/b.bundle"`, `"b.bundle"`},
		{`see https://example.com/a/b`, `see https://example.com/a/b`},
		{`7/8 joints, ratio 1/2`, `7/8 joints, ratio 1/2`},
		{`a/relative/path.bundle`, `a/relative/path.bundle`},
	} {
		srv := &Server{paths: []string{"/var/data/game files/a.bundle"}}
		if got := srv.public(tc.in); got != tc.want {
			t.Errorf("public(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// Concurrent requests for one clip bind it once.
func TestConcurrentFirstRequestsBindOnce(t *testing.T) {
	lib := &countingLib{synthLib: newSynthLib(t)}
	s, err := New(lib, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.Motion(0, -1)
			s.session(0, -1)
		}()
	}
	wg.Wait()
	if lib.motions != 1 || lib.controllers != 1 {
		t.Errorf("8 concurrent first requests bound the clip %d times and the controller %d times, want once each", lib.motions, lib.controllers)
	}
}

type countingLib struct {
	*synthLib
	mu                   sync.Mutex
	motions, controllers int
}

func (l *countingLib) Motion(ctx context.Context, clip bound.ClipID, on *bound.Character) (*bound.Motion, error) {
	l.mu.Lock()
	l.motions++
	l.mu.Unlock()
	return l.synthLib.Motion(ctx, clip, on)
}

func (l *countingLib) BindController(ctx context.Context, ctl bound.ControllerID, on *bound.Character) (*bound.Controller, error) {
	l.mu.Lock()
	l.controllers++
	l.mu.Unlock()
	return l.synthLib.BindController(ctx, ctl, on)
}
