package view

import (
	"compress/gzip"
	"encoding/json"
	"math"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/mecanim/mecanim/geom"
)

// How heavy answers are sent (see the package doc).
const (
	// chunkBytes is how much of an answer is formatted before it is
	// sent: what one answer holds in memory.
	chunkBytes = 64 << 10
	// admitWait is how long a heavy request waits for a slot before 503.
	admitWait = 10 * time.Second
	// chunkTimeout is how long the client has to take each chunk.
	chunkTimeout = 10 * time.Second
	// answerTimeout bounds a whole answer.
	answerTimeout = 2 * time.Minute
)

// answer writes one JSON answer in chunks: values are formatted into a
// buffer of about chunkBytes, which is sent (with a write deadline) each
// time it fills. After a failed write (the client is gone or too slow)
// nothing more is sent and ok reports false.
type answer struct {
	w     http.ResponseWriter
	rc    *http.ResponseController
	zw    *gzip.Writer // compresses for remote clients that accept it
	chunk time.Duration
	end   time.Time
	buf   []byte
	err   error
	cut   *atomic.Int64 // counts answers given up on a failed write
}

// newAnswer starts a 200 JSON answer to r.
func (s *Server) newAnswer(w http.ResponseWriter, r *http.Request) *answer {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Add("Vary", "Accept-Encoding")
	a := &answer{w: w, rc: http.NewResponseController(w), chunk: s.chunkTimeout, end: time.Now().Add(answerTimeout),
		buf: make([]byte, 0, chunkBytes+chunkBytes/4), cut: &s.cutOff}
	if acceptsGzip(r) && !fromLoopback(r) {
		h.Set("Content-Encoding", "gzip")
		a.zw, _ = gzip.NewWriterLevel(w, gzip.BestSpeed)
	}
	return a
}

// ok reports whether the answer is still being taken; it sends the buffer
// once it holds a chunk.
func (a *answer) ok() bool {
	if len(a.buf) >= chunkBytes {
		a.send()
	}
	return a.err == nil
}

// send writes the buffer to the client within chunkTimeout (and the
// answer's deadline), and empties it.
func (a *answer) send() {
	defer func() { a.buf = a.buf[:0] }()
	if a.err != nil || len(a.buf) == 0 {
		return
	}
	d := time.Now().Add(a.chunk)
	if d.After(a.end) {
		d = a.end
	}
	// Not every ResponseWriter has deadlines (httptest's recorder): then
	// the server's own timeouts are all there is.
	_ = a.rc.SetWriteDeadline(d)
	if a.zw != nil {
		_, a.err = a.zw.Write(a.buf)
	} else {
		_, a.err = a.w.Write(a.buf)
	}
	if a.err == nil {
		if err := a.rc.Flush(); err != nil && err != http.ErrNotSupported {
			a.err = err
		}
	}
	if a.err != nil {
		a.cut.Add(1)
	}
}

// finish sends what is left.
func (a *answer) finish() {
	a.send()
	if a.zw != nil && a.err == nil {
		a.err = a.zw.Close()
		if a.err == nil {
			a.rc.Flush()
		}
	}
}

// raw appends s as is.
func (a *answer) raw(s string) { a.buf = append(a.buf, s...) }

// value appends v encoded as JSON (small values only: headers, names).
func (a *answer) value(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		b = []byte("null")
	}
	a.buf = append(a.buf, b...)
}

// object appends the fields of v (a struct encoded as a JSON object) as
// the start of an object, left open for more fields.
func (a *answer) object(v any) {
	b, err := json.Marshal(v)
	if err != nil || len(b) < 2 || b[len(b)-1] != '}' {
		b = []byte(`{"unencodable":true}`)
	}
	a.buf = append(a.buf, b[:len(b)-1]...)
}

// field appends `,"key":` (the object has at least one field already).
func (a *answer) field(key string) {
	a.buf = append(a.buf, ',', '"')
	a.buf = append(a.buf, key...)
	a.buf = append(a.buf, '"', ':')
}

// floats appends `,"key":[...]`, sending chunks as they fill; false once
// the client is gone.
func (a *answer) floats(key string, v []float32) bool {
	a.field(key)
	a.buf = append(a.buf, '[')
	for i, x := range v {
		if i > 0 {
			a.buf = append(a.buf, ',')
		}
		a.buf = appendFloat32(a.buf, x)
		if i&1023 == 1023 && !a.ok() {
			return false
		}
	}
	a.buf = append(a.buf, ']')
	return a.ok()
}

// uints appends `,"key":[...]` of unsigned integers as floats does.
func uints[T uint16 | uint32](a *answer, key string, v []T) bool {
	a.field(key)
	a.buf = append(a.buf, '[')
	for i, x := range v {
		if i > 0 {
			a.buf = append(a.buf, ',')
		}
		a.buf = strconv.AppendUint(a.buf, uint64(x), 10)
		if i&1023 == 1023 && !a.ok() {
			return false
		}
	}
	a.buf = append(a.buf, ']')
	return a.ok()
}

// appendFloat32 appends a float32 as encoding/json writes it (the
// shortest decimal that reads back the same float32); NaN and infinities,
// which JSON cannot hold, are written as 0 (callers count them first).
func appendFloat32(b []byte, f float32) []byte {
	if !geom.Finite(f) {
		return append(b, '0')
	}
	abs := math.Abs(float64(f))
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, float64(f), format, -1, 32)
	if format == 'e' {
		// e-07 to e-7, as encoding/json does
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}
