package extract_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/mecanim/mecanim/extract"
)

// Environment of the child process the memory test measures.
const (
	childIn     = "MECANIM_EXTRACT_CHILD_IN"
	childOut    = "MECANIM_EXTRACT_CHILD_OUT"
	childBudget = "MECANIM_EXTRACT_CHILD_BUDGET"
)

// The memory bound, as BENCHMARKS.md states it. What an extraction holds
// (its live heap) is the runtime and the files' metadata (object tables,
// type trees, names and rigs: about 0.2 MiB per bundle of this game, whose
// bundles embed the type trees of 8 classes), the bundle blocks held (the
// cache budget, and what one read takes past it), and what each worker
// holds: one character with its clips decoded, baked and encoded, about 14
// times the bytes of its clips' serialized data (here 2 clips of 50,000
// frames: 1.2 MiB). The child is given the heap bound as its soft memory
// limit (GOMEMLIMIT) and collects at a quarter of growth (GOGC=25), so
// that its heap stays near what is live even when other processes take
// the CPU the collector runs on; its peak resident memory is allowed the
// program, stacks and the collector's lag on top.
const (
	memBudget    = 32 << 20 // Options.CacheBudget in the test
	memWorkers   = 2
	memPerWorker = 24 << 20
	memFiles     = 128
	memMetadata  = memFiles * (256 << 10)
	memBase      = 48 << 20
	memBound     = memBase + memMetadata + memBudget + memWorkers*memPerWorker
	memNonHeap   = 56 << 20
)

// extractInChild extracts dir in a child process and returns its peak
// resident memory and the outputs written.
func extractInChild(t *testing.T, dir string, budget int64) (peak int64, outputs int) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "out")
	cmd := exec.Command(os.Args[0], "-test.run=^TestLargeGameStaysInsideTheMemoryBound$")
	cmd.Env = append(os.Environ(), childIn+"="+dir, childOut+"="+out, childBudget+"="+strconv.FormatInt(budget, 10),
		"GOMEMLIMIT="+strconv.FormatInt(memBound, 10), "GOGC=25")
	b, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, b)
	}
	glbs, _ := filepath.Glob(filepath.Join(out, "*.glb"))
	return int64(cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss) << 10, len(glbs)
}

// TestLargeGameStaysInsideTheMemoryBound extracts a game of 128 bundles
// (each a character with 2 long clips: 154 MiB of serialized data, about
// 2 GiB decoded all at once) in a child process and checks its peak
// resident memory. Without releasing what each character decoded, or
// without a limit on the bundles' blocks held, the peak passes the bound
// (268 and 263 MiB measured, against 140 to 143 MiB, alone or beside two
// busy processes).
func TestLargeGameStaysInsideTheMemoryBound(t *testing.T) {
	if in := os.Getenv(childIn); in != "" {
		budget, _ := strconv.ParseInt(os.Getenv(childBudget), 10, 64)
		m, err := extract.Extract(context.Background(), []string{in}, extract.Options{Out: os.Getenv(childOut), Workers: memWorkers, CacheBudget: budget, NoMeshes: true})
		if err != nil || len(m.Failed) > 0 {
			t.Fatalf("extract: %v %+v", err, m.Failed)
		}
		return
	}
	if testing.Short() {
		t.Skip("the large game takes a while to write and extract")
	}
	if raceEnabled {
		t.Skip("the race detector's memory is not the extraction's")
	}
	large, data := writeLargeGame(t, memFiles, 50_000)
	start := time.Now()
	peak, n := extractInChild(t, large, memBudget)
	t.Logf("%d characters, %s of serialized data, in %v: peak RSS %s (bound %s for the heap, %s for the rest)",
		n, mb(data), time.Since(start).Round(time.Millisecond), mb(peak), mb(memBound), mb(memNonHeap))
	if n != memFiles {
		t.Errorf("%d outputs, want %d", n, memFiles)
	}
	if peak > memBound+memNonHeap {
		t.Errorf("peak RSS %s is over the bound of %s + %s", mb(peak), mb(memBound), mb(memNonHeap))
	}
}

func mb(n int64) string { return strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64) + " MiB" }
