package webdata

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/andybalholm/brotli"
)

// Compression is how a WebGL build stored its data file: Unity compresses
// the whole UnityWebData container (and sometimes a bundle) as one gzip or
// brotli stream, named ".data.gz", ".data.br" or ".unityweb".
type Compression uint8

// Compressions.
const (
	CompressionNone Compression = iota
	CompressionGzip
	CompressionBrotli
)

var compressionNames = [...]string{"none", "gzip", "brotli"}

// String names the compression.
func (c Compression) String() string {
	if int(c) < len(compressionNames) {
		return compressionNames[c]
	}
	return fmt.Sprintf("Compression(%d)", c)
}

// BrotliMarker is the comment Unity's WebGL build writes into the first
// (metadata) meta-block of the brotli streams it makes, so that its loader
// can recognise them: brotli itself has no signature.
const BrotliMarker = "UnityWeb Compressed Content (brotli)"

// MaxExpandedSize bounds what a compressed data file may expand to (WebGL
// data files are loaded whole into a browser's memory, which stays well
// under this), so that a decompression bomb cannot fill a disk or memory.
const MaxExpandedSize = 8 << 30

// ErrTooLarge is wrapped when a compressed file expands beyond the limit
// it is read with.
var ErrTooLarge = errors.New("webdata: decompressed data exceeds the limit")

// Detect tells how a file is compressed from its first bytes (64 are
// enough) and its name: gzip by its magic number; brotli by Unity's
// marker, or, for a name ending in ".br" or ".unityweb", by its first
// bytes decoding to what can be the start of a UnityWebData container or a
// UnityFS bundle (the first 64 bytes of a brotli stream may hold only its
// code tables: the caller checks what the whole stream decodes to). Anything
// else is CompressionNone.
func Detect(prefix []byte, name string) Compression {
	if len(prefix) >= 3 && prefix[0] == 0x1f && prefix[1] == 0x8b && prefix[2] == 8 {
		return CompressionGzip
	}
	if IsWebData(prefix) || bytes.HasPrefix(prefix, []byte("UnityFS\x00")) {
		return CompressionNone
	}
	if bytes.Contains(prefix, []byte(BrotliMarker)) {
		return CompressionBrotli
	}
	lower := strings.ToLower(name)
	if strings.HasSuffix(lower, ".br") || strings.HasSuffix(lower, ".unityweb") {
		if out, ok := brotliPrefix(prefix, 16); ok && startsLikeUnity(out) {
			return CompressionBrotli
		}
	}
	return CompressionNone
}

// brotliPrefix decodes up to n bytes from the start of a brotli stream of
// which b is the beginning; ok is false when b is not the start of a valid
// stream (running out of b is not an error: a stream's first bytes may
// hold only its code tables).
func brotliPrefix(b []byte, n int) (out []byte, ok bool) {
	defer func() {
		if recover() != nil {
			out, ok = nil, false
		}
	}()
	out = make([]byte, n)
	k, err := io.ReadFull(brotli.NewReader(bytes.NewReader(b)), out)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return nil, false
	}
	return out[:k], true
}

// startsLikeUnity reports whether decoded bytes are consistent with the
// start of a UnityWebData container or a UnityFS bundle: they begin with
// its signature, or are all there is so far and begin it.
func startsLikeUnity(b []byte) bool {
	for _, sig := range []string{Signature, "UnityFS\x00"} {
		if len(b) >= len(sig) && string(b[:len(sig)]) == sig || len(b) < len(sig) && strings.HasPrefix(sig, string(b)) {
			return true
		}
	}
	return false
}

// NewReader returns the decompressed bytes of r, compressed with c, failing
// with ErrTooLarge once more than limit bytes come out (limit <= 0:
// MaxExpandedSize). Its memory is the decoder's window: 32 KiB for gzip, at
// most 16 MiB for brotli (Unity writes 4 MiB windows).
func NewReader(r io.Reader, c Compression, limit int64) (io.Reader, error) {
	if limit <= 0 {
		limit = MaxExpandedSize
	}
	var d io.Reader
	switch c {
	case CompressionNone:
		d = r
	case CompressionGzip:
		z, err := gzip.NewReader(bufio.NewReaderSize(r, 64<<10))
		if err != nil {
			return nil, &FormatError{Offset: 0, What: "gzip header", Err: err}
		}
		z.Multistream(false)
		d = z
	case CompressionBrotli:
		d = brotli.NewReader(bufio.NewReaderSize(r, 64<<10))
	default:
		return nil, fmt.Errorf("webdata: unknown compression %d", c)
	}
	return &limited{r: d, c: c, limit: limit}, nil
}

// limited counts what a decoder produces, fails past the limit and names
// the compression in the decoder's errors.
type limited struct {
	r     io.Reader
	c     Compression
	n     int64
	limit int64
}

func (l *limited) Read(p []byte) (n int, err error) {
	// A decoder bug must not crash a program reading an untrusted file.
	defer func() {
		if r := recover(); r != nil {
			n, err = 0, fmt.Errorf("webdata: %s data: decoder failure on corrupt data after %d decompressed bytes: %v", l.c, l.n, r)
		}
	}()
	n, err = l.r.Read(p)
	l.n += int64(n)
	if l.n > l.limit {
		return n, fmt.Errorf("%w: more than %d bytes of %s data", ErrTooLarge, l.limit, l.c)
	}
	if err != nil && err != io.EOF {
		err = fmt.Errorf("webdata: %s data after %d decompressed bytes: %w", l.c, l.n, err)
	}
	return n, err
}
