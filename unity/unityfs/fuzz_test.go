package unityfs_test

import (
	"bytes"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/internal/fuzzcount"
	"github.com/mecanim/mecanim/unity/unityfs"
)

// fuzzSeedLimit bounds whole-file seeds (big inputs make the fuzzer's
// minimisation crawl); larger corpus bundles contribute their header and
// block info (and other prefixes) only.
const fuzzSeedLimit = 32 << 10

func FuzzOpen(f *testing.F) {
	for _, spec := range []bundleSpec{
		sampleSpec(8, false, true, 2, 2, 0),
		sampleSpec(7, true, false, 3, 3),
		sampleSpec(6, false, false, 1, 1),
		sampleSpec(5, false, false, 0, 0),
	} {
		f.Add(buildBundle(f, spec))
	}
	if dir, ok := corpustest.Lookup(); ok {
		_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			data, err := os.ReadFile(path)
			if err != nil || !unityfs.IsUnityFS(data) {
				return nil
			}
			if len(data) <= fuzzSeedLimit {
				f.Add(data)
			}
			for _, n := range []int{40, 64, 150, 600, 2048} {
				if n < len(data) {
					f.Add(data[:n])
				}
			}
			return nil
		})
	}
	count := fuzzcount.Counter("FuzzOpen")
	f.Fuzz(func(t *testing.T, data []byte) {
		count()
		a, err := unityfs.OpenWith(bytes.NewReader(data), int64(len(data)), unityfs.Options{Cache: unityfs.NewCache(8 << 20)})
		if err != nil {
			return
		}
		for i := range a.Nodes {
			n, err := io.Copy(io.Discard, a.NodeReader(i))
			if err == nil && n != a.Nodes[i].Size {
				t.Fatalf("node %d: read %d bytes without error, want %d", i, n, a.Nodes[i].Size)
			}
		}
	})
}
