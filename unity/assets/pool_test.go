package assets_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/mecanim/mecanim/internal/synth"
	"github.com/mecanim/mecanim/unity/assets"
	"github.com/mecanim/mecanim/unity/filepool"
)

// Plain serialized files with their streamed-data side files, read from
// many goroutines at once (extract's workers, the viewer's requests)
// through a pool of fewer descriptors than files: every read gives the
// file's own bytes.
func TestSideFilesAreReadConcurrentlyThroughAPool(t *testing.T) {
	sf, err := synth.SerializedFile(0, true, false)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	const files = 6
	pool := filepool.New(2)
	var cts []*assets.Container
	for i := range files {
		sub := filepath.Join(dir, fmt.Sprint(i))
		os.Mkdir(sub, 0o755)
		writeFile(t, filepath.Join(sub, "level0"), sf)
		writeFile(t, filepath.Join(sub, "level0.resS"), bytes.Repeat([]byte{byte('a' + i)}, 4096))
		c, err := assets.Open(filepath.Join(sub, "level0"), assets.Options{Files: pool})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		cts = append(cts, c)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for g := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 50 {
				i := (g + k) % files
				b, err := cts[i].ReadStream("level0.resS", uint64(k*16), 16)
				if err != nil {
					errs <- err
					return
				}
				if !bytes.Equal(b, bytes.Repeat([]byte{byte('a' + i)}, 16)) {
					errs <- fmt.Errorf("file %d: read %q", i, b)
					return
				}
				if objectCount(cts[i]) == 0 {
					errs <- fmt.Errorf("file %d: no objects", i)
					return
				}
				if _, err := cts[i].Files[0].ReadObject(&cts[i].Files[0].Objects[0]); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if d := pool.Descriptors(); d > 2 {
		t.Errorf("%d descriptors held with no read in progress, max 2", d)
	}
}
