package view

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/bind"
	"github.com/mecanim/mecanim/internal/corpustest"
)

func openServer(tb testing.TB, opts Options, files ...string) *Server {
	tb.Helper()
	set, err := bind.Open(tb.Context(), files, bind.Options{})
	if err != nil {
		tb.Fatalf("open: %v", err)
	}
	tb.Cleanup(func() { set.Close() })
	s, err := New(set, opts)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

func TestRemoteClientsGetLargeAnswersCompressed(t *testing.T) {
	s := openServer(t, Options{Public: true}, corpustest.Path(t, "lc-example-enemy/modassets"))
	for _, tc := range []struct {
		name, remote, accept string
		gzip                 bool
	}{
		{"remote accepting gzip", "192.0.2.1:1234", "gzip, deflate", true},
		{"remote refusing gzip", "192.0.2.1:1234", "gzip;q=0", false},
		{"remote without Accept-Encoding", "192.0.2.1:1234", "", false},
		{"loopback accepting gzip", "127.0.0.1:1234", "gzip", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/api/clip/3/frames", nil)
			r.Header.Set(TokenHeader, s.Token())
			r.RemoteAddr = tc.remote
			if tc.accept != "" {
				r.Header.Set("Accept-Encoding", tc.accept)
			}
			w := httptest.NewRecorder()
			s.ServeHTTP(w, r)
			if w.Code != 200 {
				t.Fatalf("status %d: %s", w.Code, w.Body)
			}
			var body io.Reader = w.Body
			if got := w.Header().Get("Content-Encoding") == "gzip"; got != tc.gzip {
				t.Fatalf("gzip = %v, want %v", got, tc.gzip)
			}
			if tc.gzip {
				zr, err := gzip.NewReader(w.Body)
				if err != nil {
					t.Fatal(err)
				}
				body = zr
			}
			var f Frames
			if err := json.NewDecoder(body).Decode(&f); err != nil {
				t.Fatal(err)
			}
			checkFrames(t, &f)
		})
	}
}

// allowedOK are the only paths that may answer 200 for a server over
// hello.bundle (one clip, one rig, no controller).
var allowedOK = map[string]bool{"/": true, "/app.js": true, "/style.css": true, "/api/scene": true, "/api/clip/0/frames": true}

// FuzzRequestTarget sends arbitrary request targets: the server must not
// panic, must answer 200 only for its own assets and objects, and must
// never answer with a file's bytes.
func FuzzRequestTarget(f *testing.F) {
	for _, seed := range []string{"/", "/app.js", "/api/scene", "/api/clip/0/frames?rate=10&rig=0", "/../../etc/passwd",
		"/%2e%2e/%2e%2e/etc/passwd", "/api/clip/%2e%2e/frames", "//etc/passwd", "/api/controller/0", "/assets/index.html",
		"/api/clip/0/frames?rate=1e-300", "/api/clip/0/frames?rig=-1"} {
		f.Add("GET", seed)
	}
	f.Add("POST", "/api/controller/0/tick")
	f.Add("HEAD", "/app.js")
	s := openServer(f, Options{}, helloBundle)
	f.Fuzz(func(t *testing.T, method, target string) {
		req, err := http.ReadRequest(bufio.NewReader(strings.NewReader(method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + TokenHeader + ": " + s.Token() + "\r\n\r\n")))
		if err != nil {
			return
		}
		w := httptest.NewRecorder()
		s.ServeHTTP(w, req)
		if w.Code == 200 && !allowedOK[req.URL.Path] {
			t.Errorf("%s %q: 200 for path %q", method, target, req.URL.Path)
		}
		if b := w.Body.String(); strings.Contains(b, "root:") || strings.Contains(b, "package view") {
			t.Errorf("%s %q: answered with a file's contents", method, target)
		}
	})
}

func benchmarkFrames(b *testing.B, s *Server, name string) {
	id := -1
	for _, c := range s.Scene().Clips {
		if c.Name == name {
			id = c.ID
		}
	}
	if id < 0 {
		b.Fatalf("no clip %q", name)
	}
	if _, err := s.ClipFrames(id, -1, 30, false); err != nil { // bake once, outside the timing
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r := httptest.NewRequest("GET", "/api/clip/"+itoa(id)+"/frames", nil)
		r.Host, r.RemoteAddr = "127.0.0.1", "127.0.0.1:1"
		r.Header.Set(TokenHeader, s.Token())
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		if w.Code != 200 {
			b.Fatal(w.Body)
		}
		b.SetBytes(int64(w.Body.Len()))
	}
}

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}

// BenchmarkFramesExample measures a frames answer of the 2 s, 7-joint example.
func BenchmarkFramesExample(b *testing.B) {
	benchmarkFrames(b, openServer(b, Options{}, helloBundle), "Wave")
}

// BenchmarkFramesHumanoid measures a frames answer of a 6.8 s humanoid clip
// on a 142-joint avatar skeleton (206 frames).
func BenchmarkFramesHumanoid(b *testing.B) {
	benchmarkFrames(b, openServer(b, Options{}, corpustest.Path(b, "lethal-emotes/customemotespackage")), "Default Dance")
}

// BenchmarkPlayEveryClip plays every clip of a character's files on a new
// server, as the page does when one goes through the clip list: the
// humanoid clips name no avatar, so the server finds one for each.
func BenchmarkPlayEveryClip(b *testing.B) {
	for _, sc := range []struct {
		name  string
		files []string
	}{
		{"one-avatar", []string{"plateup-emotes/morbman", "lethal-emotes/customemotespackage2"}},
		{"twelve-avatars", []string{"ror2-skeletons/dlc3emoteskeletons", "lethal-emotes/customemotespackage2"}},
	} {
		b.Run(sc.name, func(b *testing.B) {
			var paths []string
			for _, f := range sc.files {
				paths = append(paths, corpustest.Path(b, f))
			}
			b.ReportAllocs()
			for b.Loop() {
				set, err := bind.Open(b.Context(), paths, bind.Options{})
				if err != nil {
					b.Fatal(err)
				}
				s, err := New(set, Options{})
				if err != nil {
					b.Fatal(err)
				}
				for i := range s.clips {
					if _, err := s.Motion(i, -1); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
