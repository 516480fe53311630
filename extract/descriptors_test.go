//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package extract_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/mecanim/mecanim/extract"
)

const (
	childFewFDs  = "MECANIM_EXTRACT_CHILD_FEW_FDS"
	fewFDs       = 64
	manyBundles  = 200 // more than fewFDs: every one is kept for the run
	framesOfEach = 20
)

// A game can hold more files than the process may keep open; extract
// keeps every file for its run, through a pool of descriptors that
// reopens them. The child lowers its own limit to 64 descriptors and
// extracts 200 bundles (before the pool: "too many open files").
func TestMoreFilesThanTheProcessMayOpenAreExtracted(t *testing.T) {
	if in := os.Getenv(childFewFDs); in != "" {
		var l syscall.Rlimit
		if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
			t.Fatal(err)
		}
		l.Cur = fewFDs
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(t.TempDir(), "out")
		m, err := extract.Extract(context.Background(), []string{in}, extract.Options{Out: out, Workers: 2, NoMeshes: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(m.Failed) > 0 {
			t.Fatalf("failed: %+v", m.Failed)
		}
		glbs, _ := filepath.Glob(filepath.Join(out, "*.glb"))
		fmt.Printf("outputs %d\n", len(glbs))
		if len(glbs) != manyBundles {
			t.Fatalf("%d outputs from %d bundles", len(glbs), manyBundles)
		}
		return
	}
	if testing.Short() {
		t.Skip("writing 200 bundles takes a while")
	}
	dir, _ := writeLargeGame(t, manyBundles, framesOfEach)
	cmd := exec.Command(os.Args[0], "-test.run=^TestMoreFilesThanTheProcessMayOpenAreExtracted$", "-test.v")
	cmd.Env = append(os.Environ(), childFewFDs+"="+dir)
	b, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("extract of %d bundles with %d descriptors: %v\n%s", manyBundles, fewFDs, err, b)
	}
}
