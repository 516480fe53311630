// Command sidebyside measures, in one run, the CPU time three LZMA decoders
// take to decode every LZMA block of the bundles BENCHMARKS.md names: this
// project's unity/internal/lzma, github.com/ulikunitz/xz/lzma, and liblzma
// through Python 3's lzma module. It prints the median of several rounds
// for each, and the Go decoders' allocations per round. The decoders take
// turns round by round.
//
//	go run ./unity/internal/lzma/testdata/sidebyside [-rounds 9] [bundle...]
//
// Bundles default to the two BENCHMARKS.md measures, found in the corpus
// (MECANIM_CORPUS or ../shared/corpus beside the checkout).
package main

import (
	"bytes"
	"encoding/binary"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	xz "github.com/ulikunitz/xz/lzma"

	"github.com/mecanim/mecanim/unity/internal/lzma"
	"github.com/mecanim/mecanim/unity/unityfs"
)

type block struct {
	src  []byte // properties header and data
	size int
}

// pyBench times liblzma: it decodes each .lzma file (the classic header:
// properties, 64-bit size, data) given on the command line, rounds times,
// and prints each round's CPU seconds.
const pyBench = `
import lzma, sys, time
rounds = int(sys.argv[1])
data = [open(p, 'rb').read() for p in sys.argv[2:]]
sizes = [int.from_bytes(d[5:13], 'little') for d in data]
for _ in range(rounds):
    t = time.process_time()
    for d, n in zip(data, sizes):
        out = lzma.LZMADecompressor(format=lzma.FORMAT_ALONE).decompress(d)
        assert len(out) == n
    print(time.process_time() - t)
`

func main() {
	rounds := flag.Int("rounds", 9, "rounds per decoder; the median is reported")
	flag.Parse()
	files := flag.Args()
	if len(files) == 0 {
		dir := os.Getenv("MECANIM_CORPUS")
		if dir == "" {
			dir = "../shared/corpus"
		}
		files = []string{filepath.Join(dir, "lethal-emotes/customemotespackage"), filepath.Join(dir, "ror2-skeletons/dlc3emoteskeletons")}
	}
	var blocks []block
	var total int64
	for _, f := range files {
		bs, err := lzmaBlocks(f)
		if err != nil {
			log.Fatal(err)
		}
		for _, b := range bs {
			total += int64(b.size)
		}
		blocks = append(blocks, bs...)
	}
	fmt.Printf("%d LZMA blocks, %.1f MB uncompressed, %d rounds, GOMAXPROCS=%d\n", len(blocks), float64(total)/1e6, *rounds, runtime.GOMAXPROCS(0))

	var d lzma.Decoder
	oursRound := func() {
		for _, b := range blocks {
			out := make([]byte, b.size)
			if err := d.Reset(b.src, b.size); err != nil {
				log.Fatal(err)
			}
			if _, err := d.Decode(out, b.size); err != nil {
				log.Fatal(err)
			}
		}
	}
	theirsRound := func() {
		for _, b := range blocks {
			if _, err := ulikunitz(b.src, b.size); err != nil {
				log.Fatal(err)
			}
		}
	}
	files, cleanup, err := alone(blocks)
	if err != nil {
		log.Fatal(err)
	}
	defer cleanup()
	// The decoders take turns round by round, so that load from other
	// work on the machine falls on all three alike.
	var ours, theirs, lib []float64
	var oursAllocs, theirsAllocs uint64
	for range *rounds {
		s, a := measure(oursRound)
		ours, oursAllocs = append(ours, s), a
		s, a = measure(theirsRound)
		theirs, theirsAllocs = append(theirs, s), a
		s, err := liblzma(files)
		if err != nil {
			log.Fatal(err)
		}
		lib = append(lib, s)
	}
	o, t, l := summarize(ours), summarize(theirs), summarize(lib)
	fmt.Println("| decoder | CPU s (median) | min–max | allocations per round |")
	fmt.Println("|---|---|---|---|")
	fmt.Printf("| unity/internal/lzma | %.3f | %.3f–%.3f | %d |\n", o.median, o.min, o.max, oursAllocs)
	fmt.Printf("| ulikunitz/xz | %.3f | %.3f–%.3f | %d |\n", t.median, t.min, t.max, theirsAllocs)
	fmt.Printf("| liblzma (Python lzma) | %.3f | %.3f–%.3f | — |\n", l.median, l.min, l.max)
	fmt.Printf("ratio liblzma / ours (median): %.2f\n", l.median/o.median)
}

type result struct {
	median, min, max float64
}

func summarize(secs []float64) result {
	secs = slices.Clone(secs)
	slices.Sort(secs)
	return result{median: secs[len(secs)/2], min: secs[0], max: secs[len(secs)-1]}
}

// measure runs f once and returns its CPU seconds and allocations.
func measure(f func()) (float64, uint64) {
	var ms0, ms1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms0)
	t := cpu()
	f()
	secs := cpu() - t
	runtime.ReadMemStats(&ms1)
	return secs, ms1.Mallocs - ms0.Mallocs
}

// cpu returns the process's user and system CPU seconds.
func cpu() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		log.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

func ulikunitz(src []byte, size int) ([]byte, error) {
	hdr := make([]byte, 0, 13)
	hdr = append(hdr, src[:5]...)
	hdr = binary.LittleEndian.AppendUint64(hdr, uint64(size))
	r, err := xz.NewReader(io.MultiReader(bytes.NewReader(hdr), bytes.NewReader(src[5:])))
	if err != nil {
		return nil, err
	}
	out := make([]byte, size)
	_, err = io.ReadFull(r, out)
	return out, err
}

// alone writes each block as a classic .lzma file (properties, 64-bit
// size, data) for liblzma, and returns their paths.
func alone(blocks []block) ([]string, func(), error) {
	dir, err := os.MkdirTemp("", "sidebyside")
	if err != nil {
		return nil, nil, err
	}
	cleanup := func() { os.RemoveAll(dir) }
	var paths []string
	for i, b := range blocks {
		p := filepath.Join(dir, fmt.Sprintf("%d.lzma", i))
		f := append(binary.LittleEndian.AppendUint64(append([]byte(nil), b.src[:5]...), uint64(b.size)), b.src[5:]...)
		if err := os.WriteFile(p, f, 0o644); err != nil {
			cleanup()
			return nil, nil, err
		}
		paths = append(paths, p)
	}
	return paths, cleanup, nil
}

// liblzma runs one round of pyBench and returns its CPU seconds.
func liblzma(files []string) (float64, error) {
	out, err := exec.Command("python3", append([]string{"-c", pyBench, "1"}, files...)...).Output()
	if err != nil {
		return 0, fmt.Errorf("python3: %w", err)
	}
	s, err := strconv.ParseFloat(strings.TrimSpace(string(out)), 64)
	if err != nil {
		return 0, fmt.Errorf("python3 printed %q", out)
	}
	return s, nil
}

func lzmaBlocks(path string) ([]block, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	a, err := unityfs.Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var out []block
	off := a.DataOffset
	for _, b := range a.Blocks {
		if b.Compression() == unityfs.CompressionLZMA {
			out = append(out, block{src: data[off : off+int64(b.CompressedSize)], size: int(b.UncompressedSize)})
		}
		off += int64(b.CompressedSize)
	}
	return out, nil
}
