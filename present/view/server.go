// Package view serves a local web page that plays the clips of a set of
// Unity files: it lists their rigs, clips and controllers, plays a clip on
// its skeleton (bones as lines, joints as points, and the rig's skinned and
// rigid meshes, drawn with WebGL by a page embedded in the binary), and
// runs a controller's state machine on the server while the page drives its
// parameters and layer weights.
//
// The API the page uses (JSON; ids are indexes into the scene's lists):
//
//	GET  /api/scene                          rigs, clips, controllers (Scene)
//	GET  /api/clip/{id}/frames?rate=30&rig=R&mesh=1
//	                                         the skeleton and its joints' positions
//	                                         per frame (Frames); the page plays them
//	GET  /api/controller/{id}?mesh=1         start (once) and describe a controller
//	POST /api/controller/{id}/tick           set parameters, step, get the state
//	                                         and pose (Tick, TickResult)
//
// Poses are in model space (see package bound: the space of the
// character's root GameObject's parent), in Unity's left-handed frame; the
// page mirrors x to draw them.
//
// The server is meant for one person on one machine. It serves only its
// embedded assets and the objects of the library it was given: requests
// name clips and controllers by their index in the scene, never by a path,
// so no request can make it open a file. Request bodies are capped, paths
// that are not clean are refused, and (unless Options.Public is set) only
// requests addressed to a loopback host name are answered, which keeps
// other web sites from reaching it through DNS rebinding.
package view

import (
	"compress/gzip"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mecanim/mecanim/bound"
)

//go:embed assets/index.html assets/app.js assets/style.css
var assetFS embed.FS

// Limits of what one request may ask for.
const (
	// MaxBodyBytes caps a request body (parameter changes are small).
	MaxBodyBytes = 64 << 10
	// MaxRate is the highest frame rate a frames request may ask for.
	MaxRate = 240
	// MaxFrameValues caps the floats in one frames response (frames x
	// joints x 3); longer clips are sent at a lower rate.
	MaxFrameValues = 3 << 20
	// maxTick is the longest controller step one request may ask for.
	maxTick = 1.0
)

// Options configure a Server.
type Options struct {
	// Public answers requests addressed to any host name; by default only
	// localhost and loopback addresses are answered.
	Public bool
	// Logf receives a line for each object that failed to load (nil:
	// discarded).
	Logf func(format string, args ...any)
}

// Server is the viewer's http.Handler over one library of inputs (what
// bind made of them). It is safe for concurrent use.
type Server struct {
	lib    bound.Library
	opts   Options
	mux    *http.ServeMux
	assets map[string]asset

	clips []bound.Item
	ctls  []bound.Item
	rigs  []bound.Item

	sceneOnce sync.Once
	scene     []byte

	mu        sync.Mutex
	playables map[playKey]*playResult
	meshCache map[*bound.Character]*meshResult
	sessions  map[int]*session
}

type asset struct {
	contentType string
	data        []byte
}

type playKey struct{ clip, rig int }

type playResult struct {
	m   *bound.Motion
	err error
}

// New returns a Server over lib. The inputs behind it must stay open while
// the server runs; the server never closes them.
func New(lib bound.Library, opts Options) (*Server, error) {
	if lib == nil {
		return nil, errors.New("view: nil library")
	}
	s := &Server{
		lib:       lib,
		opts:      opts,
		mux:       http.NewServeMux(),
		assets:    map[string]asset{},
		clips:     lib.Clips(),
		ctls:      lib.Controllers(),
		rigs:      lib.Characters(),
		playables: map[playKey]*playResult{},
		meshCache: map[*bound.Character]*meshResult{},
		sessions:  map[int]*session{},
	}
	for name, ct := range map[string]string{
		"index.html": "text/html; charset=utf-8",
		"app.js":     "text/javascript; charset=utf-8",
		"style.css":  "text/css; charset=utf-8",
	} {
		b, err := assetFS.ReadFile("assets/" + name)
		if err != nil {
			return nil, fmt.Errorf("view: embedded asset %s: %w", name, err)
		}
		s.assets[name] = asset{ct, b}
	}
	s.mux.HandleFunc("GET /{$}", s.serveAsset("index.html"))
	s.mux.HandleFunc("GET /app.js", s.serveAsset("app.js"))
	s.mux.HandleFunc("GET /style.css", s.serveAsset("style.css"))
	s.mux.HandleFunc("GET /api/scene", s.handleScene)
	s.mux.HandleFunc("GET /api/clip/{id}/frames", s.handleFrames)
	s.mux.HandleFunc("GET /api/controller/{id}", s.handleController)
	s.mux.HandleFunc("POST /api/controller/{id}/tick", s.handleTick)
	return s, nil
}

func (s *Server) logf(format string, args ...any) {
	if s.opts.Logf != nil {
		s.opts.Logf(format, args...)
	}
}

// ServeHTTP answers one request: the page, its assets, or the API.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "+
		"connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
	if !s.opts.Public && !loopbackHost(r.Host) {
		writeError(w, http.StatusMisdirectedRequest, "this viewer answers only requests to localhost (start it with --public to serve other names)")
		return
	}
	if !cleanPath(r.URL.Path) || strings.Contains(r.URL.RawPath, "..") {
		writeError(w, http.StatusBadRequest, "bad path")
		return
	}
	if r.Body != nil {
		r.Body = http.MaxBytesReader(w, r.Body, MaxBodyBytes)
	}
	s.mux.ServeHTTP(w, r)
}

// cleanPath reports whether p is an absolute, clean URL path with nothing
// that could climb out of a directory.
func cleanPath(p string) bool {
	if p == "" || p[0] != '/' || strings.Contains(p, "//") {
		return false
	}
	for _, seg := range strings.Split(p[1:], "/") {
		if seg == "." || seg == ".." {
			return false
		}
	}
	return !strings.ContainsAny(p, "\\\x00")
}

// loopbackHost reports whether a Host header names this machine's loopback
// interface: localhost, 127.0.0.0/8 or ::1 (with or without a port).
func loopbackHost(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") || strings.HasSuffix(strings.ToLower(host), ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// IsLoopback reports whether a listen address (host:port) binds only to a
// loopback interface. An empty host (every interface) is not loopback.
func IsLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil || host == "" {
		return false
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func (s *Server) serveAsset(name string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		a := s.assets[name]
		w.Header().Set("Content-Type", a.contentType)
		w.Header().Set("Content-Length", strconv.Itoa(len(a.data)))
		if r.Method == http.MethodHead {
			return
		}
		w.Write(a.data)
	}
}

// writeError answers with a JSON {"error": msg}.
func writeError(w http.ResponseWriter, code int, msg string) {
	b, _ := json.Marshal(struct {
		Error string `json:"error"`
	}{msg})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	w.Write(append(b, '\n'))
}

// gzipOver is the size above which JSON answers are compressed for remote
// clients that accept it (frames shrink about half). Over loopback the
// compression would cost more time than the bytes it saves.
const gzipOver = 32 << 10

func writeJSON(w http.ResponseWriter, r *http.Request, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	b = append(b, '\n')
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Add("Vary", "Accept-Encoding")
	if len(b) < gzipOver || !acceptsGzip(r) || fromLoopback(r) {
		w.Write(b)
		return
	}
	h.Set("Content-Encoding", "gzip")
	zw, err := gzip.NewWriterLevel(w, gzip.BestSpeed)
	if err != nil {
		return
	}
	zw.Write(b)
	zw.Close()
}

// fromLoopback reports whether the request came over a loopback interface.
func fromLoopback(r *http.Request) bool {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// acceptsGzip reports whether the request's Accept-Encoding lists gzip
// (without q=0).
func acceptsGzip(r *http.Request) bool {
	for _, v := range r.Header.Values("Accept-Encoding") {
		for _, part := range strings.Split(v, ",") {
			name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
			if strings.EqualFold(strings.TrimSpace(name), "gzip") {
				q := strings.ReplaceAll(params, " ", "")
				return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
			}
		}
	}
	return false
}

// index parses a decimal index below n from the request's {id}; anything
// else (signs, spaces, leading zeros, out of range) is not found.
func index(r *http.Request, name string, n int) (int, bool) {
	v := r.PathValue(name)
	if v == "" || len(v) > 9 || (len(v) > 1 && v[0] == '0') {
		return 0, false
	}
	i := 0
	for _, c := range v {
		if c < '0' || c > '9' {
			return 0, false
		}
		i = i*10 + int(c-'0')
	}
	return i, i < n
}

// meshParam reads the mesh query parameter: "" or "0" is false, "1" true;
// another value is answered with 400 and ok false.
func meshParam(w http.ResponseWriter, r *http.Request) (mesh, ok bool) {
	switch r.URL.Query().Get("mesh") {
	case "", "0":
		return false, true
	case "1":
		return true, true
	}
	writeError(w, http.StatusBadRequest, "mesh must be 0 or 1")
	return false, false
}

// readJSON decodes a capped JSON request body into v.
func readJSON(w http.ResponseWriter, r *http.Request, v any) bool {
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		// A plain form post from another page cannot set this type without
		// a CORS preflight, which this server never grants.
		writeError(w, http.StatusUnsupportedMediaType, "body must be application/json")
		return false
	}
	b, err := io.ReadAll(r.Body)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("body over %d bytes", mbe.Limit))
		} else {
			writeError(w, http.StatusBadRequest, "reading body: "+err.Error())
		}
		return false
	}
	if len(b) == 0 {
		return true
	}
	if err := json.Unmarshal(b, v); err != nil {
		writeError(w, http.StatusBadRequest, "body: "+err.Error())
		return false
	}
	return true
}

// Timeouts of the server Serve runs.
const (
	readHeaderTimeout = 5 * time.Second
	readTimeout       = 30 * time.Second
	writeTimeout      = 2 * time.Minute
	idleTimeout       = 2 * time.Minute
	shutdownTimeout   = 5 * time.Second
)

// Serve answers requests on ln with h until ctx is done, then shuts down
// gracefully (requests in flight get a few seconds to finish) and returns
// nil. It returns the listener's error if serving fails first. The server
// has read, write and idle timeouts and caps request headers.
func Serve(ctx context.Context, ln net.Listener, h http.Handler) error {
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    32 << 10,
		BaseContext:       func(net.Listener) context.Context { return ctx },
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	err := srv.Shutdown(sctx)
	if err != nil {
		srv.Close()
	}
	if e := <-errc; e != nil && !errors.Is(e, http.ErrServerClosed) {
		return e
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return nil
	}
	return err
}

func jsonBytes(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}
