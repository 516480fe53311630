package webdata_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/andybalholm/brotli"

	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/internal/fuzzcount"
	"github.com/mecanim/mecanim/unity/webdata"
)

func gzipBytes(t testing.TB, b []byte) []byte {
	var buf bytes.Buffer
	z := gzip.NewWriter(&buf)
	z.Comment = "UnityWeb Compressed Content (gzip)"
	z.Write(b)
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func brotliBytes(t testing.TB, b []byte) []byte {
	var buf bytes.Buffer
	w := brotli.NewWriterLevel(&buf, 5)
	w.Write(b)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestDetectTellsCompressionByMagicMarkerAndName(t *testing.T) {
	data := buildWebData(sampleEntries)
	gz, br := gzipBytes(t, data), brotliBytes(t, data)
	marked := append([]byte{0x6b, 0x8d, 0}, webdata.BrotliMarker...)
	for _, tc := range []struct {
		name   string
		file   string
		prefix []byte
		want   webdata.Compression
	}{
		{"gzip by its magic, whatever the name", "game.data", gz, webdata.CompressionGzip},
		{"brotli by its name and decoded start", "game.data.br", br, webdata.CompressionBrotli},
		{"brotli .unityweb", "game.data.unityweb", br, webdata.CompressionBrotli},
		{"brotli by Unity's marker", "game.data", marked, webdata.CompressionBrotli},
		{"brotli without a .br name or marker is not guessed", "game.data", br, webdata.CompressionNone},
		{"plain web data", "game.data.br", data, webdata.CompressionNone},
		{"a .br file that is not Unity data", "app.wasm.br", brotliBytes(t, []byte("\x00asm\x01\x00\x00\x00 not unity")), webdata.CompressionNone},
		{"random bytes named .unityweb", "x.unityweb", []byte("hello, world: not compressed at all"), webdata.CompressionNone},
	} {
		p := tc.prefix
		if len(p) > 64 {
			p = p[:64]
		}
		if got := webdata.Detect(p, tc.file); got != tc.want {
			t.Errorf("%s: Detect = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestNewReaderExpandsGzipAndBrotli(t *testing.T) {
	data := buildWebData(sampleEntries)
	for _, tc := range []struct {
		c    webdata.Compression
		file []byte
	}{
		{webdata.CompressionNone, data},
		{webdata.CompressionGzip, gzipBytes(t, data)},
		{webdata.CompressionBrotli, brotliBytes(t, data)},
	} {
		r, err := webdata.NewReader(bytes.NewReader(tc.file), tc.c, 0)
		if err != nil {
			t.Fatalf("%v: %v", tc.c, err)
		}
		got, err := io.ReadAll(r)
		if err != nil || !bytes.Equal(got, data) {
			t.Errorf("%v: %d bytes, %v; want the %d bytes compressed", tc.c, len(got), err, len(data))
		}
	}
}

func TestNewReaderStopsAtTheLimit(t *testing.T) {
	zeros := make([]byte, 8<<20)
	for _, c := range []webdata.Compression{webdata.CompressionGzip, webdata.CompressionBrotli} {
		var file []byte
		if c == webdata.CompressionGzip {
			file = gzipBytes(t, zeros)
		} else {
			file = brotliBytes(t, zeros)
		}
		r, err := webdata.NewReader(bytes.NewReader(file), c, 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		n, err := io.Copy(io.Discard, r)
		if !errors.Is(err, webdata.ErrTooLarge) || n > 1<<20+256<<10 {
			t.Errorf("%v: %d-byte bomb read %d bytes with limit 1 MiB, err %v; want ErrTooLarge", c, len(file), n, err)
		}
	}
}

func TestNewReaderReportsDamage(t *testing.T) {
	data := buildWebData(sampleEntries)
	for _, c := range []webdata.Compression{webdata.CompressionGzip, webdata.CompressionBrotli} {
		var file []byte
		if c == webdata.CompressionGzip {
			file = gzipBytes(t, data)
		} else {
			file = brotliBytes(t, data)
		}
		for _, cut := range []int{len(file) / 2, len(file) - 1} {
			r, err := webdata.NewReader(bytes.NewReader(file[:cut]), c, 0)
			if err == nil {
				_, err = io.Copy(io.Discard, r)
			}
			if err == nil {
				t.Errorf("%v cut to %d of %d bytes: no error", c, cut, len(file))
			}
		}
	}
}

func FuzzNewReader(f *testing.F) {
	data := buildWebData(sampleEntries)
	f.Add(gzipBytes(f, data), false)
	f.Add(brotliBytes(f, data), true)
	if dir, ok := corpustest.Lookup(); ok {
		if b, err := os.ReadFile(filepath.Join(dir, "unitydatatools", "webgl", "HelloWorld.data")); err == nil {
			f.Add(gzipBytes(f, b[:4096]), false)
			f.Add(brotliBytes(f, b[:4096]), true)
		}
	}
	count := fuzzcount.Counter("FuzzNewReader")
	f.Fuzz(func(t *testing.T, file []byte, br bool) {
		count()
		c := webdata.CompressionGzip
		if br {
			c = webdata.CompressionBrotli
		}
		r, err := webdata.NewReader(bytes.NewReader(file), c, 4<<20)
		if err != nil {
			return
		}
		n, err := io.Copy(io.Discard, r)
		if n > 4<<20+1<<20 {
			t.Fatalf("read %d bytes past the 4 MiB limit (%v)", n, err)
		}
	})
}
