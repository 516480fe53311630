// Command sidebyside measures, in one run, the CPU time three LZMA decoders
// take to decode every LZMA block of the bundles issue 16 names: this
// project's unity/internal/lzma, github.com/ulikunitz/xz/lzma, and liblzma
// through Python 3's lzma module. It prints the median of several rounds
// for each, and the Go decoders' allocations per round.
//
//	go run ./unity/internal/lzma/testdata/sidebyside [-rounds 9] [bundle...]
//
// Bundles default to the two issue 16 measured, found in the corpus
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
	ours := measure(*rounds, func() {
		for _, b := range blocks {
			out := make([]byte, b.size)
			if err := d.Reset(b.src, b.size); err != nil {
				log.Fatal(err)
			}
			if _, err := d.Decode(out, b.size); err != nil {
				log.Fatal(err)
			}
		}
	})
	theirs := measure(*rounds, func() {
		for _, b := range blocks {
			if _, err := ulikunitz(b.src, b.size); err != nil {
				log.Fatal(err)
			}
		}
	})
	lib, err := liblzma(*rounds, blocks)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("| decoder | CPU s (median) | min–max | allocations per round |")
	fmt.Println("|---|---|---|---|")
	fmt.Printf("| unity/internal/lzma | %.3f | %.3f–%.3f | %d |\n", ours.median, ours.min, ours.max, ours.allocs)
	fmt.Printf("| ulikunitz/xz | %.3f | %.3f–%.3f | %d |\n", theirs.median, theirs.min, theirs.max, theirs.allocs)
	fmt.Printf("| liblzma (Python lzma) | %.3f | %.3f–%.3f | — |\n", lib.median, lib.min, lib.max)
}

type result struct {
	median, min, max float64
	allocs           uint64
}

func summarize(secs []float64) result {
	slices.Sort(secs)
	return result{median: secs[len(secs)/2], min: secs[0], max: secs[len(secs)-1]}
}

// measure runs f rounds times and returns its CPU seconds and the
// allocations of one round.
func measure(rounds int, f func()) result {
	var secs []float64
	var ms0, ms1 runtime.MemStats
	var allocs uint64
	for i := range rounds {
		runtime.GC()
		runtime.ReadMemStats(&ms0)
		t := cpu()
		f()
		secs = append(secs, cpu()-t)
		runtime.ReadMemStats(&ms1)
		if i == 0 {
			allocs = ms1.Mallocs - ms0.Mallocs
		}
	}
	r := summarize(secs)
	r.allocs = allocs
	return r
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

func liblzma(rounds int, blocks []block) (result, error) {
	dir, err := os.MkdirTemp("", "sidebyside")
	if err != nil {
		return result{}, err
	}
	defer os.RemoveAll(dir)
	args := []string{"-c", pyBench, strconv.Itoa(rounds)}
	for i, b := range blocks {
		p := filepath.Join(dir, fmt.Sprintf("%d.lzma", i))
		f := append(binary.LittleEndian.AppendUint64(append([]byte(nil), b.src[:5]...), uint64(b.size)), b.src[5:]...)
		if err := os.WriteFile(p, f, 0o644); err != nil {
			return result{}, err
		}
		args = append(args, p)
	}
	out, err := exec.Command("python3", args...).Output()
	if err != nil {
		return result{}, fmt.Errorf("python3: %w", err)
	}
	var secs []float64
	for _, l := range strings.Fields(string(out)) {
		s, err := strconv.ParseFloat(l, 64)
		if err != nil {
			return result{}, fmt.Errorf("python3 printed %q", l)
		}
		secs = append(secs, s)
	}
	return summarize(secs), nil
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
