// Package view serves a local web page that plays the clips of a set of
// Unity files: it lists their characters, clips and controllers, plays a
// clip on its skeleton (bones coloured by side as present/render draws
// them, helpers faint, and the character's skinned and rigid meshes, drawn
// with WebGL by a page embedded in the binary), and runs a controller's
// state machine on the server while the page drives its parameters and
// layer weights. The page opens playing something: the first character
// with its first clip, or its controller (Scene.Start).
//
// The API the page uses (JSON; ids are indexes into the scene's lists):
//
//	GET  /api/scene                          characters, clips, controllers (Scene)
//	GET  /api/clip/{id}/frames?rate=30&rig=R&mesh=1
//	                                         the skeleton and its joints' positions
//	                                         per frame (Frames); the page plays them
//	GET  /api/controller/{id}?rig=R&mesh=1   start (once) and describe a controller
//	POST /api/controller/{id}/tick?rig=R     set parameters, step, get the state
//	                                         and pose (Tick, TickResult)
//	GET  /api/texture/{id}                   a base colour texture of the meshes
//	                                         sent (Material.Texture), as PNG
//
// rig=R plays on character R; without it (or -1) the binding chooses, and
// refuses when several characters fit, as every command does.
//
// Poses are in model space (see package bound: the space of the
// character's root GameObject's parent), in Unity's left-handed frame; the
// page mirrors x to draw them.
//
// # Safety
//
// The server is meant for one person on one machine, whose browser also
// visits other sites. It serves only its embedded assets and the objects
// of the library it was given: requests name clips and controllers by
// their index in the scene, never by a path, so no request can make it
// open a file, and error answers name files by their base name only.
// Request bodies are capped, paths that are not clean are refused, and
// (unless Options.Public is set) only requests addressed to a loopback host
// name are answered, which keeps other web sites from reaching it through
// DNS rebinding.
//
// Every API request must carry the header X-Mecanim-Token with the token
// of this server (Server.Token), which the page reads from its own HTML: a
// page of another site can send requests to the loopback port (an <img>
// tag is enough) but cannot read the page, so it cannot start work.
// Requests a browser marks as cross-site (Sec-Fetch-Site, Origin) are
// refused as well.
//
// Heavy answers (frames, meshes) are streamed in chunks as they are
// formatted, never built whole; at most MaxStreams are sent at once (more
// wait a little, then get 503), and each chunk must reach the client
// within a deadline, so slow readers cannot hold memory or turns for long.
package view

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/rand"
	"crypto/subtle"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/model"
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
	// MaxStreams is how many heavy answers (frames, meshes, a
	// controller's first start) the server works on at once.
	MaxStreams = 16
)

// TokenHeader is the request header that carries the server's token on
// every API request.
const TokenHeader = "X-Mecanim-Token"

// Options configure a Server.
type Options struct {
	// Public answers requests addressed to any host name; by default only
	// localhost and loopback addresses are answered. It turns off the
	// check that keeps other sites out through DNS rebinding: set it only
	// for a server listening on a network address (mecanim view keeps the
	// check on a loopback address even with --public).
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

	// token is what every API request must carry (see the package doc).
	token string
	// streams holds a slot per heavy answer in progress; a request waits
	// admitWait for one, and a client has chunkTimeout to take each chunk.
	streams      chan struct{}
	admitWait    time.Duration
	chunkTimeout time.Duration
	// cutOff counts answers given up because the client stopped taking
	// them (what the slow-reader test waits for).
	cutOff atomic.Int64
	// paths are the inputs' container paths, longest first, which error
	// answers replace with their base names; inputs names each for lists.
	paths  []string
	inputs map[string]string

	sceneOnce sync.Once
	scene     []byte
	sceneVal  *Scene

	mu        sync.Mutex
	playables map[playKey]*playResult
	meshCache map[*bound.Character]*meshResult
	sessions  map[sessionKey]*sessionSlot
	// textures are the base colour textures of the meshes sent, by id.
	textures   []*textureResult
	textureIDs map[*model.Texture]int
}

type asset struct {
	contentType string
	data        []byte
}

type playKey struct{ clip, rig int }

// playResult is a clip bound to a character, made once however many
// requests ask for it at the same time.
type playResult struct {
	once sync.Once
	m    *bound.Motion
	err  error
}

// New returns a Server over lib. The inputs behind it must stay open while
// the server runs; the server never closes them.
func New(lib bound.Library, opts Options) (*Server, error) {
	if lib == nil {
		return nil, errors.New("view: nil library")
	}
	var tok [16]byte
	if _, err := rand.Read(tok[:]); err != nil {
		return nil, fmt.Errorf("view: making the session token: %w", err)
	}
	s := &Server{
		lib:       lib,
		opts:      opts,
		mux:       http.NewServeMux(),
		assets:    map[string]asset{},
		clips:     lib.Clips(),
		ctls:      lib.Controllers(),
		rigs:      lib.Characters(),
		token:     hex.EncodeToString(tok[:]),
		streams:   make(chan struct{}, MaxStreams),
		admitWait: admitWait, chunkTimeout: chunkTimeout,
		playables:  map[playKey]*playResult{},
		meshCache:  map[*bound.Character]*meshResult{},
		textureIDs: map[*model.Texture]int{},
		sessions:   map[sessionKey]*sessionSlot{},
	}
	s.paths = containerPaths(s.rigs, s.clips, s.ctls)
	var containers []string
	for _, g := range [][]bound.Item{s.rigs, s.clips, s.ctls} {
		for _, it := range g {
			containers = append(containers, it.Source.Container)
		}
	}
	s.inputs = inputNames(containers)
	for name, ct := range map[string]string{
		"index.html": "text/html; charset=utf-8",
		"app.js":     "text/javascript; charset=utf-8",
		"style.css":  "text/css; charset=utf-8",
	} {
		b, err := assetFS.ReadFile("assets/" + name)
		if err != nil {
			return nil, fmt.Errorf("view: embedded asset %s: %w", name, err)
		}
		if name == "index.html" {
			// The page reads the token from its own HTML, which no
			// other site's page can read.
			const slot = `<meta name="mecanim-token" content="">`
			if !bytes.Contains(b, []byte(slot)) {
				return nil, fmt.Errorf("view: embedded index.html has no token slot")
			}
			b = bytes.Replace(b, []byte(slot), []byte(`<meta name="mecanim-token" content="`+s.token+`">`), 1)
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
	s.mux.HandleFunc("GET /api/texture/{id}", s.handleTexture)
	return s, nil
}

// Token returns the token every API request must carry in TokenHeader.
// The page gets it from its own HTML; a program driving the API can read
// it there too, or take it from here.
func (s *Server) Token() string { return s.token }

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
	if strings.HasPrefix(r.URL.Path, "/api/") {
		if why := crossSite(r); why != "" {
			writeError(w, http.StatusForbidden, "cross-site request refused ("+why+")")
			return
		}
		if got := r.Header.Get(TokenHeader); subtle.ConstantTimeCompare([]byte(got), []byte(s.token)) != 1 {
			writeError(w, http.StatusForbidden, "missing or wrong "+TokenHeader+": the viewer's page sends it")
			return
		}
	}
	if r.Body != nil {
		r.Body = http.MaxBytesReader(w, r.Body, MaxBodyBytes)
	}
	s.mux.ServeHTTP(w, r)
}

// crossSite says why a browser's request comes from another site's page
// ("" when it does not, or when no browser says): Sec-Fetch-Site other
// than same-origin or none (a typed address), or an Origin that is not
// this server's.
func crossSite(r *http.Request) string {
	switch v := r.Header.Get("Sec-Fetch-Site"); v {
	case "", "same-origin", "none":
	default:
		return "Sec-Fetch-Site: " + v
	}
	if o := r.Header.Get("Origin"); o != "" && o != "http://"+r.Host && o != "https://"+r.Host {
		return "Origin: " + o
	}
	return ""
}

// admit takes a slot for a heavy answer, waiting up to admitWait for one;
// without one it answers 503 and returns false. The caller calls the
// returned release when done.
func (s *Server) admit(w http.ResponseWriter, r *http.Request) (release func(), ok bool) {
	release = func() { <-s.streams }
	select {
	case s.streams <- struct{}{}:
		return release, true
	default:
	}
	t := time.NewTimer(s.admitWait)
	defer t.Stop()
	select {
	case s.streams <- struct{}{}:
		return release, true
	case <-t.C:
		w.Header().Set("Retry-After", "2")
		writeError(w, http.StatusServiceUnavailable, fmt.Sprintf("busy: %d answers are being sent; try again", MaxStreams))
	case <-r.Context().Done():
	}
	return nil, false
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
		writeError(w, http.StatusInternalServerError, "encoding the answer failed")
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
