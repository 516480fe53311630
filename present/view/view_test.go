package view

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mecanim/mecanim/bind"
	"github.com/mecanim/mecanim/internal/corpustest"
)

const helloBundle = "../../examples/hello.bundle"

// newTestServer serves the files with an httptest server; the helpers
// below send its token with every request to it.
func newTestServer(t *testing.T, files ...string) (*httptest.Server, *Server) {
	t.Helper()
	s := openServer(t, Options{Logf: t.Logf}, files...)
	ts := httptest.NewServer(s)
	tokens.Store(ts.URL, s.Token())
	t.Cleanup(func() {
		ts.Close()
		tokens.Delete(ts.URL)
	})
	return ts, s
}

// tokens maps test servers' URLs to their tokens.
var tokens sync.Map

// request makes a request carrying the token of the test server url is
// on.
func request(t *testing.T, method, url, contentType, body string) *http.Request {
	t.Helper()
	r, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		r.Header.Set("Content-Type", contentType)
	}
	tokens.Range(func(k, v any) bool {
		if strings.HasPrefix(url, k.(string)+"/") {
			r.Header.Set(TokenHeader, v.(string))
			return false
		}
		return true
	})
	return r
}

func get(t *testing.T, url string) (*http.Response, error) {
	return http.DefaultClient.Do(request(t, "GET", url, "", ""))
}

func getJSON(t *testing.T, url string, v any) {
	t.Helper()
	r, err := get(t, url)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	b, _ := io.ReadAll(r.Body)
	if r.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s: %s", url, r.Status, b)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
}

func post(t *testing.T, url, contentType, body string) (int, string) {
	t.Helper()
	r, err := http.DefaultClient.Do(request(t, "POST", url, contentType, body))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	b, _ := io.ReadAll(r.Body)
	return r.StatusCode, string(b)
}

// checkFrames checks a frames answer: sizes agree, every value is finite,
// and the pose changes over the clip.
func checkFrames(t *testing.T, f *Frames) {
	t.Helper()
	n := len(f.Paths)
	if n == 0 || len(f.Parents) != n {
		t.Fatalf("%s: %d paths, %d parents", f.Name, n, len(f.Parents))
	}
	if f.Frames < 2 || len(f.Positions) != f.Frames*n*3 {
		t.Fatalf("%s: %d frames x %d joints but %d values", f.Name, f.Frames, n, len(f.Positions))
	}
	if f.NonFinite != 0 {
		t.Errorf("%s: %d non-finite values", f.Name, f.NonFinite)
	}
	for i, v := range f.Positions {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			t.Fatalf("%s: value %d is %v", f.Name, i, v)
		}
	}
	moved := 0.0
	for k := 1; k < f.Frames; k++ {
		for i := 0; i < n*3; i++ {
			moved = math.Max(moved, math.Abs(float64(f.Positions[k*n*3+i]-f.Positions[i])))
		}
	}
	if moved < 1e-3 {
		t.Errorf("%s: no joint moves more than %g over the clip", f.Name, moved)
	}
}

func TestSceneListsTheExampleClipAndRig(t *testing.T) {
	ts, _ := newTestServer(t, helloBundle)
	var sc Scene
	getJSON(t, ts.URL+"/api/scene", &sc)
	if len(sc.Clips) != 1 || sc.Clips[0].Name != "Wave" || sc.Clips[0].ID != 0 {
		t.Errorf("clips = %+v, want Wave with id 0", sc.Clips)
	}
	if len(sc.Rigs) != 1 || sc.Rigs[0].Name != "Hello" || sc.Rigs[0].Joints != 7 {
		t.Errorf("rigs = %+v, want Hello with 7 joints", sc.Rigs)
	}
	if len(sc.Files) != 1 || sc.Files[0] != "hello.bundle" {
		t.Errorf("files = %q: want base names only", sc.Files)
	}
	var f Frames
	getJSON(t, ts.URL+"/api/clip/0/frames?rate=30", &f)
	checkFrames(t, &f)
	if f.Rate != 30 || f.Frames != 61 || f.Duration != 2 || !f.Loop {
		t.Errorf("Wave: rate %g, %d frames, duration %g, loop %v; want 30, 61, 2, true", f.Rate, f.Frames, f.Duration, f.Loop)
	}
}

func TestCorpusClipsPlayOnTheirRig(t *testing.T) {
	ts, _ := newTestServer(t, corpustest.Path(t, "lc-example-enemy/modassets"))
	var sc Scene
	getJSON(t, ts.URL+"/api/scene", &sc)
	want := map[string]bool{"die-Toilet": true, "walkCycle": true, "die-Legs": true, "HeadBop": true, "swingAttack": true, "die-Head": true}
	if len(sc.Clips) != len(want) {
		t.Fatalf("%d clips, want %d", len(sc.Clips), len(want))
	}
	for _, c := range sc.Clips {
		if !want[c.Name] {
			t.Errorf("unexpected clip %q", c.Name)
		}
		var f Frames
		getJSON(t, fmt.Sprintf("%s/api/clip/%d/frames?rate=24", ts.URL, c.ID), &f)
		checkFrames(t, &f)
		if f.On != `rig "ExampleEnemyModel"` || len(f.Paths) != 32 {
			t.Errorf("%s plays on %s with %d joints", c.Name, f.On, len(f.Paths))
		}
	}
	if len(sc.Rigs) != 1 || sc.Rigs[0].Controller != 0 {
		t.Errorf("rigs = %+v: want ExampleEnemyModel running controller 0", sc.Rigs)
	}
	if len(sc.Controllers) != 1 || len(sc.Controllers[0].Parameters) != 4 || sc.Controllers[0].Parameters[0].Type != "trigger" {
		t.Errorf("controllers = %+v: want one with 4 triggers", sc.Controllers)
	}
}

func TestMeshesComeWithTheirSkin(t *testing.T) {
	ts, _ := newTestServer(t, corpustest.Path(t, "lc-example-enemy/modassets"))
	var f Frames
	getJSON(t, ts.URL+"/api/clip/1/frames?mesh=1&rate=10", &f)
	checkFrames(t, &f)
	n := len(f.Paths)
	if len(f.Rotations) != f.Frames*n*4 || len(f.Scales) != f.Frames*n*3 {
		t.Fatalf("%d rotations and %d scales for %d frames of %d joints", len(f.Rotations), len(f.Scales), f.Frames, n)
	}
	skinned := 0
	for _, m := range f.Meshes {
		nv := len(m.Positions) / 3
		if nv == 0 || len(m.Positions) != 3*nv || len(m.Indices)%3 != 0 || len(m.Indices) == 0 {
			t.Errorf("mesh %q: %d position values, %d indices", m.Name, len(m.Positions), len(m.Indices))
		}
		for _, i := range m.Indices {
			if int(i) >= nv {
				t.Fatalf("mesh %q: index %d of %d vertices", m.Name, i, nv)
			}
		}
		if m.Bones == nil {
			if m.Joint < 0 || m.Joint >= n {
				t.Errorf("rigid mesh %q on joint %d", m.Name, m.Joint)
			}
			continue
		}
		skinned++
		if len(m.BindPoses) != 16*len(m.Bones) || len(m.BoneIndices) != 4*nv || len(m.BoneWeights) != 4*nv {
			t.Errorf("skinned mesh %q: %d bones, %d bind values, %d/%d influences", m.Name, len(m.Bones), len(m.BindPoses), len(m.BoneIndices), len(m.BoneWeights))
		}
		for _, b := range m.Bones {
			if b < 0 || b >= n {
				t.Errorf("mesh %q: bone on joint %d", m.Name, b)
			}
		}
		for _, b := range m.BoneIndices {
			if int(b) >= len(m.Bones) {
				t.Fatalf("mesh %q: influence of bone %d of %d", m.Name, b, len(m.Bones))
			}
		}
	}
	if len(f.Meshes) != 4 || skinned != 2 {
		t.Errorf("%d meshes (%d skinned), want 4 (2 skinned); notes %q", len(f.Meshes), skinned, f.MeshNotes)
	}
	var plain Frames
	getJSON(t, ts.URL+"/api/clip/1/frames?rate=10", &plain)
	if plain.Meshes != nil || plain.Rotations != nil {
		t.Errorf("meshes sent without mesh=1")
	}
}

func TestHumanoidClipPlaysOnAnAvatar(t *testing.T) {
	ts, _ := newTestServer(t, corpustest.Path(t, "lethal-emotes/customemotespackage"))
	var sc Scene
	getJSON(t, ts.URL+"/api/scene", &sc)
	for _, c := range sc.Clips {
		if c.Name != "Dab" {
			continue
		}
		// Two humanoid avatars fit: the viewer, as every command, refuses
		// to choose and lists them; on a rig chosen, the clip plays.
		r, err := get(t, fmt.Sprintf("%s/api/clip/%d/frames?rate=10", ts.URL, c.ID))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(r.Body)
		r.Body.Close()
		if r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(string(body), "choose one") {
			t.Errorf("Dab with no rig chosen: %s %s, want a refusal listing the avatars", r.Status, body)
		}
		rig := -1
		for _, r := range sc.Rigs {
			if r.Error == "" && strings.Contains(r.Name, "bandit") {
				rig = r.ID
				break
			}
		}
		var f Frames
		getJSON(t, fmt.Sprintf("%s/api/clip/%d/frames?rate=10&rig=%d", ts.URL, c.ID, rig), &f)
		checkFrames(t, &f)
		if !f.Humanoid {
			t.Errorf("Dab is humanoid, frames say not")
		}
		return
	}
	t.Fatal("no clip Dab")
}

func TestControllerTicksDriveTheStateMachine(t *testing.T) {
	ts, _ := newTestServer(t, corpustest.Path(t, "lc-example-enemy/modassets"))
	var info ControllerInfo
	getJSON(t, ts.URL+"/api/controller/0", &info)
	if len(info.Paths) != 32 || len(info.Layers) != 3 {
		t.Fatalf("controller: %d joints, %d layers", len(info.Paths), len(info.Layers))
	}
	tick := func(body string) TickResult {
		t.Helper()
		code, b := post(t, ts.URL+"/api/controller/0/tick", "application/json", body)
		if code != http.StatusOK {
			t.Fatalf("tick %s: %d %s", body, code, b)
		}
		var r TickResult
		if err := json.Unmarshal([]byte(b), &r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	r0 := tick(`{"reset": true, "dt": 0}`)
	if r0.Layers[1].State != "Empty" || len(r0.Positions) != 32*3 {
		t.Fatalf("after reset: walk layer in %q, %d values", r0.Layers[1].State, len(r0.Positions))
	}
	tick(`{"set": {"startWalk": true}, "dt": 0.05}`)
	var r TickResult
	for i := 0; i < 20; i++ {
		r = tick(`{"dt": 0.05}`)
	}
	if r.Layers[1].State != "walkCycle" {
		t.Errorf("after startWalk and 1 s: walk layer in %q (next %q), want walkCycle", r.Layers[1].State, r.Layers[1].Next)
	}
	moved := 0.0
	for i := range r.Positions {
		moved = math.Max(moved, math.Abs(float64(r.Positions[i]-r0.Positions[i])))
	}
	if moved < 1e-3 {
		t.Errorf("pose did not change over a second of play")
	}
	rw := tick(`{"dt": 0.05, "layer_weights": {"2": 0.25}}`)
	if rw.Layers[2].Weight != 0.25 || rw.Events == nil {
		t.Errorf("after setting layer 2's weight to 0.25: %g (events %v)", rw.Layers[2].Weight, rw.Events)
	}
	rm := tick(`{"dt": 0.05, "mesh": true}`)
	if len(rm.Rotations) != 32*4 || len(rm.Scales) != 32*3 {
		t.Errorf("tick with mesh: %d rotation and %d scale values, want %d and %d", len(rm.Rotations), len(rm.Scales), 32*4, 32*3)
	}
	var withMeshes ControllerInfo
	getJSON(t, ts.URL+"/api/controller/0?mesh=1", &withMeshes)
	if len(withMeshes.Meshes) != 4 {
		t.Errorf("controller info with mesh=1: %d meshes, want 4 (notes %q)", len(withMeshes.Meshes), withMeshes.MeshNotes)
	}
	if r.Time <= r0.Time {
		t.Errorf("time went from %g to %g", r0.Time, r.Time)
	}
}

func TestTickRejectsBadRequests(t *testing.T) {
	ts, _ := newTestServer(t, corpustest.Path(t, "lc-example-enemy/modassets"))
	url := ts.URL + "/api/controller/0/tick"
	for _, tc := range []struct {
		name, contentType, body string
		want                    int
	}{
		{"oversized body", "application/json", `{"dt": 0, "set": {"` + strings.Repeat("x", MaxBodyBytes) + `": 1}}`, http.StatusRequestEntityTooLarge},
		{"form post", "application/x-www-form-urlencoded", `dt=0.1`, http.StatusUnsupportedMediaType},
		{"plain text", "text/plain", `{"dt": 0.1}`, http.StatusUnsupportedMediaType},
		{"not json", "application/json", `{"dt": `, http.StatusBadRequest},
		{"negative dt", "application/json", `{"dt": -1}`, http.StatusBadRequest},
		{"huge dt", "application/json", `{"dt": 1e300}`, http.StatusBadRequest},
		{"unknown parameter", "application/json", `{"set": {"nope": true}}`, http.StatusBadRequest},
		{"string value", "application/json", `{"set": {"startWalk": "yes"}}`, http.StatusBadRequest},
		{"object value", "application/json", `{"set": {"startWalk": {}}}`, http.StatusBadRequest},
		{"layer weight out of range", "application/json", `{"layer_weights": {"1": 1.5}}`, http.StatusBadRequest},
		{"negative layer weight", "application/json", `{"layer_weights": {"1": -0.1}}`, http.StatusBadRequest},
		{"no such layer", "application/json", `{"layer_weights": {"3": 0.5}}`, http.StatusBadRequest},
		{"negative layer", "application/json", `{"layer_weights": {"-1": 0.5}}`, http.StatusBadRequest},
		{"layer weight", "application/json", `{"layer_weights": {"1": 0.5}}`, http.StatusOK},
		{"empty body", "application/json", ``, http.StatusOK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, b := post(t, url, tc.contentType, tc.body)
			if code != tc.want {
				t.Errorf("status %d (%s), want %d", code, strings.TrimSpace(b), tc.want)
			}
		})
	}
}

// rawGet sends a request line exactly as given (no client-side cleaning),
// with the token of the test server at addr, and returns the status and
// body.
func rawGet(t *testing.T, addr, method, target, host string) (int, string) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	tok, _ := tokens.Load("http://" + addr)
	fmt.Fprintf(c, "%s %s HTTP/1.1\r\nHost: %s\r\n%s: %v\r\nConnection: close\r\n\r\n", method, target, host, TokenHeader, tok)
	r, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("%s %s: %v", method, target, err)
	}
	defer r.Body.Close()
	b, _ := io.ReadAll(r.Body)
	return r.StatusCode, string(b)
}

func TestOnlyOwnAssetsAndObjectsAreServed(t *testing.T) {
	ts, _ := newTestServer(t, helloBundle)
	addr := strings.TrimPrefix(ts.URL, "http://")
	for _, tc := range []struct {
		target string
		want   []int
	}{
		{"/../../etc/passwd", []int{400}},
		{"/%2e%2e/%2e%2e/etc/passwd", []int{400}},
		{"/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd", []int{400}},
		{"/..%2f..%2fetc%2fpasswd", []int{400}},
		{"/app.js/../../../etc/passwd", []int{400}},
		{"/api/clip/../../../../etc/passwd", []int{400}},
		{"/api/clip/%2e%2e/frames", []int{400}},
		{"/./app.js", []int{400}},
		{"//etc/passwd", []int{400}},
		{"/%2fetc%2fpasswd", []int{400}},
		{"/etc/passwd", []int{404}},
		{"/assets/app.js", []int{404}},
		{"/server.go", []int{404}},
		{"/..\\..\\etc\\passwd", []int{400}},
		{"/C:%5cWindows%5cwin.ini", []int{400}},
		{"/%00", []int{400}},
		{"/api/clip/1/frames", []int{404}},
		{"/api/clip/-1/frames", []int{404}},
		{"/api/clip/00/frames", []int{404}},
		{"/api/clip/+0/frames", []int{404}},
		{"/api/clip/0x0/frames", []int{404}},
		{"/api/clip/99999999999999999999/frames", []int{404}},
		{"/api/clip/%2fetc%2fpasswd/frames", []int{400}},
		{"/api/clip/0/frames?rig=1", []int{404}},
		{"/api/clip/0/frames?rig=../../etc/passwd", []int{404}},
		{"/api/clip/0/frames?rate=0", []int{400}},
		{"/api/clip/0/frames?rate=NaN", []int{400}},
		{"/api/clip/0/frames?rate=1e9", []int{400}},
		{"/api/clip/0/frames?mesh=../../etc/passwd", []int{400}},
		{"/api/clip/0/frames?mesh=1", []int{200}},
		{"/api/controller/0", []int{404}},
		{"http://127.0.0.1/../../etc/passwd", []int{400}},
		{"/api/clip/0/frames", []int{200}},
		{"/", []int{200}},
		{"/app.js", []int{200}},
	} {
		code, body := rawGet(t, addr, "GET", tc.target, addr)
		ok := false
		for _, w := range tc.want {
			ok = ok || code == w
		}
		if !ok {
			t.Errorf("GET %s: %d, want %v", tc.target, code, tc.want)
		}
		if strings.Contains(body, "root:") {
			t.Errorf("GET %s: answered with /etc/passwd", tc.target)
		}
	}
	if code, _ := rawGet(t, addr, "POST", "/api/scene", addr); code != http.StatusMethodNotAllowed {
		t.Errorf("POST /api/scene: %d, want 405", code)
	}
}

func TestForeignHostNamesAreRefused(t *testing.T) {
	ts, _ := newTestServer(t, helloBundle)
	addr := strings.TrimPrefix(ts.URL, "http://")
	for host, want := range map[string]int{
		addr:                     200,
		"localhost:8080":         200,
		"[::1]:8080":             200,
		"127.1.2.3":              200,
		"evil.example":           http.StatusMisdirectedRequest,
		"evil.example:8080":      http.StatusMisdirectedRequest,
		"127.0.0.1.evil.example": http.StatusMisdirectedRequest,
		"192.168.1.2:8080":       http.StatusMisdirectedRequest,
	} {
		if code, _ := rawGet(t, addr, "GET", "/api/scene", host); code != want {
			t.Errorf("Host %q: %d, want %d", host, code, want)
		}
	}
}

func TestIsLoopback(t *testing.T) {
	for addr, want := range map[string]bool{
		"127.0.0.1:8080": true,
		"127.0.0.1:0":    true,
		"[::1]:8080":     true,
		"localhost:80":   true,
		":8080":          false,
		"0.0.0.0:8080":   false,
		"[::]:8080":      false,
		"10.0.0.1:8080":  false,
		"example.com:80": false,
		"127.0.0.1":      false, // no port: not a listen address
	} {
		if got := IsLoopback(addr); got != want {
			t.Errorf("IsLoopback(%q) = %v, want %v", addr, got, want)
		}
	}
}

func TestServeStopsWhenTheContextEnds(t *testing.T) {
	set, err := bind.Open(t.Context(), []string{helloBundle}, bind.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	s, err := New(set, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	tokens.Store("http://"+ln.Addr().String(), s.Token())
	defer tokens.Delete("http://" + ln.Addr().String())
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, ln, s) }()
	var sc Scene
	getJSON(t, "http://"+ln.Addr().String()+"/api/scene", &sc)
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve returned %v after cancel", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return after cancel")
	}
	if _, err := net.DialTimeout("tcp", ln.Addr().String(), time.Second); err == nil {
		t.Errorf("still listening after Serve returned")
	}
}

func TestConcurrentRequestsShareCachesSafely(t *testing.T) {
	ts, _ := newTestServer(t, corpustest.Path(t, "lc-example-enemy/modassets"))
	errc := make(chan error, 16)
	for g := 0; g < 8; g++ {
		go func() {
			for k := 0; k < 3; k++ {
				r, err := http.DefaultClient.Do(request(t, "GET", fmt.Sprintf("%s/api/clip/%d/frames?rate=10&mesh=%d", ts.URL, (g+k)%6, k%2), "", ""))
				if err == nil {
					io.Copy(io.Discard, r.Body)
					r.Body.Close()
					if r.StatusCode != 200 {
						err = fmt.Errorf("frames: %s", r.Status)
					}
				}
				if err == nil {
					r, err = http.DefaultClient.Do(request(t, "POST", ts.URL+"/api/controller/0/tick", "application/json", `{"dt": 0.02, "set": {"startWalk": true}}`))
					if err == nil {
						io.Copy(io.Discard, r.Body)
						r.Body.Close()
						if r.StatusCode != 200 {
							err = fmt.Errorf("tick: %s", r.Status)
						}
					}
				}
				if err != nil {
					errc <- err
					return
				}
			}
			errc <- nil
		}()
	}
	for g := 0; g < 8; g++ {
		if err := <-errc; err != nil {
			t.Error(err)
		}
	}
}
