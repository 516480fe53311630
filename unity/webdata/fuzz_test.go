package webdata_test

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/internal/fuzzcount"
	"github.com/mecanim/mecanim/unity/webdata"
)

func FuzzOpen(f *testing.F) {
	f.Add(buildWebData(sampleEntries))
	f.Add(buildWebData(nil))
	if dir, ok := corpustest.Lookup(); ok {
		if data, err := os.ReadFile(filepath.Join(dir, "unitydatatools", "webgl", "HelloWorld.data")); err == nil {
			// The directory plus a little data; the whole 2.5 MB file is too big a seed.
			for _, n := range []int{20, 100, 240, 1024} {
				f.Add(data[:n])
			}
		}
	}
	count := fuzzcount.Counter("FuzzOpen")
	f.Fuzz(func(t *testing.T, data []byte) {
		count()
		a, err := webdata.Open(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return
		}
		for i, e := range a.Entries {
			n, err := io.Copy(io.Discard, a.EntryReader(i))
			if err != nil || n != e.Size {
				t.Fatalf("entry %d (%q): read %d bytes, %v; want %d", i, e.Name, n, err, e.Size)
			}
		}
	})
}
