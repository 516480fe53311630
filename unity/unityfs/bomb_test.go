package unityfs_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/pierrec/lz4/v4"
	xz "github.com/ulikunitz/xz/lzma"

	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/internal/synth"
	"github.com/mecanim/mecanim/unity/assets"
	"github.com/mecanim/mecanim/unity/unityfs"
)

// Decompression bombs: a bundle whose one block holds a real
// serialized file and a run of zeros up to the largest block size allowed
// (1 GiB), compressed with LZMA (about 150 KB for the gigabyte) or LZ4
// (about 4 MB). The bombs are built at test time, never committed, and
// read in a child process (this test binary run again) whose peak RSS the
// parent checks.

// bombEnv tells a run of the test binary to read a bomb and report.
const bombEnv = "MECANIM_UNITYFS_BOMB"

func TestMain(m *testing.M) {
	if spec := os.Getenv(bombEnv); spec != "" {
		os.Exit(bombChild(spec))
	}
	os.Exit(m.Run())
}

// bombReport is what the child prints.
type bombReport struct {
	Objects int    // objects read, over every copy
	Err     string // the first error, if any
	PeakRSS int64  // VmHWM, bytes
}

// bombChild opens copies of the bundle at once through unity/assets (as
// the CLI's ls and clips do), all with one Cache of the given limit, reads
// every object of every copy, then reports its peak RSS. spec is
// "path,copies,limit".
func bombChild(spec string) int {
	f := strings.Split(spec, ",")
	copies, _ := strconv.Atoi(f[1])
	limit, _ := strconv.ParseInt(f[2], 10, 64)
	cache := unityfs.NewCache(limit)
	var rep bombReport
	var cts []*assets.Container
	for range copies {
		c, err := assets.Open(f[0], assets.Options{Cache: cache})
		if err != nil {
			rep.Err = err.Error()
			break
		}
		cts = append(cts, c)
	}
	for round := 0; round < 2 && rep.Err == ""; round++ {
		for _, c := range cts {
			for _, sf := range c.Files {
				for i := range sf.Objects {
					if _, err := sf.ReadObject(&sf.Objects[i]); err != nil {
						rep.Err = err.Error()
					}
					rep.Objects++
				}
			}
		}
	}
	if cache.Used() > cache.Limit() {
		rep.Err = fmt.Sprintf("cache holds %d bytes, over its limit %d", cache.Used(), cache.Limit())
	}
	rep.PeakRSS = peakRSS()
	if err := json.NewEncoder(os.Stdout).Encode(rep); err != nil {
		return 1
	}
	return 0
}

// peakRSS returns the process's peak resident set (VmHWM), or -1.
func peakRSS() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return -1
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return -1
}

// runBomb runs the child on the bundle and returns its report.
func runBomb(t *testing.T, path string, copies int, limit int64) bombReport {
	t.Helper()

	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s,%d,%d", bombEnv, path, copies, limit))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	var rep bombReport
	if err := json.Unmarshal(out, &rep); err != nil {
		t.Fatalf("child printed %q: %v", out, err)
	}
	if rep.PeakRSS <= 0 {
		t.Skip("no /proc/self/status VmHWM on this system")
	}
	return rep
}

// bombSerializedFile returns a real serialized file: one from a corpus
// bundle, or one built in code when the corpus is absent.
func bombSerializedFile(t *testing.T) (name string, data []byte) {
	t.Helper()
	if _, ok := corpustest.Lookup(); ok {
		path := corpustest.Path(t, "lethal-emotes/customemotespackage2")
		a, err := unityfs.OpenFile(path)
		if err != nil {
			t.Fatal(err)
		}
		defer a.Close()
		for i, n := range a.Nodes {
			if n.Flags&4 != 0 {
				b, err := io.ReadAll(a.NodeReader(i))
				if err != nil {
					t.Fatal(err)
				}
				return n.Path, b
			}
		}
		t.Fatalf("%s holds no serialized file", path)
	}
	b, err := synth.SerializedFile(24, true, false)
	if err != nil {
		t.Fatal(err)
	}
	return "CAB-00000000000000000000000000000000", b
}

// bombPart is a node of a bomb's one block: its bytes, or a run of zeros.
type bombPart struct {
	path  string
	data  []byte
	zeros int
	flags uint32
}

func (p bombPart) size() int { return len(p.data) + p.zeros }

// writeBomb writes a bundle whose one block, compressed with kind, holds
// the parts back to back, and returns its path.
func writeBomb(t *testing.T, kind int, parts ...bombPart) string {
	t.Helper()
	var block []byte
	switch kind {
	case unityfs.CompressionLZMA:
		block = lzmaBomb(parts)
	case unityfs.CompressionLZ4:
		block = lz4Bomb(parts)
	}
	total := 0
	for _, p := range parts {
		total += p.size()
	}
	be := binary.BigEndian
	info := make([]byte, 16)
	info = be.AppendUint32(info, 1)
	info = be.AppendUint32(info, uint32(total))
	info = be.AppendUint32(info, uint32(len(block)))
	info = be.AppendUint16(info, uint16(kind))
	info = be.AppendUint32(info, uint32(len(parts)))
	off := 0
	for _, p := range parts {
		info = be.AppendUint64(info, uint64(off))
		info = be.AppendUint64(info, uint64(p.size()))
		info = be.AppendUint32(info, p.flags)
		info = append(append(info, p.path...), 0)
		off += p.size()
	}
	out := []byte("UnityFS\x00")
	out = be.AppendUint32(out, 6)
	out = append(out, "5.x.x\x002019.4.0f1\x00"...)
	out = be.AppendUint64(out, 0)
	out = be.AppendUint32(out, uint32(len(info)))
	out = be.AppendUint32(out, uint32(len(info)))
	out = be.AppendUint32(out, unityfs.FlagBlocksAndDirectoryCombined)
	out = append(out, info...)
	out = append(out, block...)
	be.PutUint64(out[8+4+6+11:], uint64(len(out)))
	path := filepath.Join(t.TempDir(), "bomb.bundle")
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// lz4Bomb codes the parts as one LZ4 block: each run of zeros as one zero
// literal and one match at offset 1, the last five bytes as literals.
func lz4Bomb(parts []bombPart) []byte {
	var out, lits []byte
	seq := func(matchLen int) {
		n := len(lits)
		tok := byte(min(n, 15)) << 4
		if matchLen > 0 {
			tok |= byte(min(matchLen-4, 15))
		}
		out = append(out, tok)
		if n >= 15 {
			out = appendLen(out, n-15)
		}
		out = append(out, lits...)
		lits = lits[:0]
		if matchLen > 0 {
			out = append(out, 1, 0) // offset 1
			if matchLen-4 >= 15 {
				out = appendLen(out, matchLen-4-15)
			}
		}
	}
	for i, p := range parts {
		lits = append(lits, p.data...)
		if p.zeros == 0 {
			continue
		}
		tail := 0
		if i == len(parts)-1 {
			tail = 5
		}
		lits = append(lits, 0)
		if p.zeros-1-tail >= 4 {
			seq(p.zeros - 1 - tail)
			lits = append(lits, make([]byte, tail)...)
		} else {
			lits = append(lits, make([]byte, p.zeros-1)...)
		}
	}
	seq(0)
	return out
}

func appendLen(out []byte, n int) []byte {
	for ; n >= 255; n -= 255 {
		out = append(out, 255)
	}
	return append(out, byte(n))
}

// lzmaBomb codes the parts as a raw LZMA stream (lc=3, lp=0, pb=2, with the
// properties header): bytes as literals, each run of zeros as a zero
// literal and repeats of the last distance (1), 273 bytes at a time.
func lzmaBomb(parts []bombPart) []byte {
	e := &lzmaBombEncoder{rc: rangeEncoder{rng: 0xFFFFFFFF, cacheSize: 1}}
	e.init()
	for _, p := range parts {
		for _, b := range p.data {
			e.literal(b)
		}
		if p.zeros == 0 {
			continue
		}
		e.literal(0)
		rem := p.zeros - 1
		for rem > 0 {
			if rem == 1 {
				e.literal(0)
				break
			}
			n := min(rem, 273)
			if rem-n == 1 {
				n--
			}
			e.rep0(n)
			rem -= n
		}
	}
	e.rc.flush()
	hdr := []byte{3 + 9*(0+5*2), 0, 0, 0, 0}
	binary.LittleEndian.PutUint32(hdr[1:], 1<<20)
	return append(hdr, e.rc.out...)
}

type rangeEncoder struct {
	out       []byte
	low       uint64
	rng       uint32
	cache     byte
	cacheSize int
}

func (r *rangeEncoder) shiftLow() {
	if uint32(r.low) < 0xFF000000 || r.low>>32 != 0 {
		carry := byte(r.low >> 32)
		tmp := r.cache
		for {
			r.out = append(r.out, tmp+carry)
			tmp = 0xFF
			r.cacheSize--
			if r.cacheSize == 0 {
				break
			}
		}
		r.cache = byte(r.low >> 24)
	}
	r.cacheSize++
	r.low = (r.low & 0x00FFFFFF) << 8
}

func (r *rangeEncoder) bit(p *uint16, b int) {
	bound := (r.rng >> 11) * uint32(*p)
	if b == 0 {
		r.rng = bound
		*p += (2048 - *p) >> 5
	} else {
		r.low += uint64(bound)
		r.rng -= bound
		*p -= *p >> 5
	}
	for r.rng < 1<<24 {
		r.rng <<= 8
		r.shiftLow()
	}
}

func (r *rangeEncoder) tree(p []uint16, bits int, sym int) {
	m := 1
	for i := bits - 1; i >= 0; i-- {
		b := sym >> i & 1
		r.bit(&p[m], b)
		m = m<<1 | b
	}
}

func (r *rangeEncoder) flush() {
	for range 5 {
		r.shiftLow()
	}
}

// lzmaBombEncoder is the part of an LZMA encoder the bombs need: literals
// and repeats of distance 1, with the specification's probability model.
type lzmaBombEncoder struct {
	rc         rangeEncoder
	out        []byte // the last byte written, for the literal context
	pos        int
	state      int
	isMatch    [12][4]uint16
	isRep      [12]uint16
	isRepG0    [12]uint16
	isRep0Long [12][4]uint16
	choice     uint16
	choice2    uint16
	low, mid   [4][8]uint16
	high       [256]uint16
	lit        [8][0x300]uint16
}

func (e *lzmaBombEncoder) init() {
	fill := func(p []uint16) {
		for i := range p {
			p[i] = 1024
		}
	}
	for s := range 12 {
		fill(e.isMatch[s][:])
		fill(e.isRep0Long[s][:])
	}
	fill(e.isRep[:])
	fill(e.isRepG0[:])
	e.choice, e.choice2 = 1024, 1024
	for i := range 4 {
		fill(e.low[i][:])
		fill(e.mid[i][:])
	}
	fill(e.high[:])
	for i := range e.lit {
		fill(e.lit[i][:])
	}
	e.out = []byte{0}
}

func (e *lzmaBombEncoder) literal(b byte) {
	e.rc.bit(&e.isMatch[e.state][e.pos&3], 0)
	prev := byte(0)
	if e.pos > 0 {
		prev = e.out[0]
	}
	p := &e.lit[prev>>5]
	sym := 1
	if e.state >= 7 {
		// A literal after a match is coded against the byte at the
		// match distance (1: the previous byte) until a bit differs.
		mb := int(prev)
		for i := 7; i >= 0; i-- {
			mbit := mb >> i & 1
			bit := int(b) >> i & 1
			e.rc.bit(&p[0x100+mbit<<8+sym], bit)
			sym = sym<<1 | bit
			if mbit != bit {
				for i--; i >= 0; i-- {
					bit := int(b) >> i & 1
					e.rc.bit(&p[sym], bit)
					sym = sym<<1 | bit
				}
				break
			}
		}
	} else {
		for i := 7; i >= 0; i-- {
			bit := int(b) >> i & 1
			e.rc.bit(&p[sym], bit)
			sym = sym<<1 | bit
		}
	}
	switch {
	case e.state < 4:
		e.state = 0
	case e.state < 10:
		e.state -= 3
	default:
		e.state -= 6
	}
	e.out[0] = b
	e.pos++
}

// rep0 codes n (2 to 273) bytes repeated from the last distance, which is
// 1 as long as no other match was coded.
func (e *lzmaBombEncoder) rep0(n int) {
	ps := e.pos & 3
	e.rc.bit(&e.isMatch[e.state][ps], 1)
	e.rc.bit(&e.isRep[e.state], 1)
	e.rc.bit(&e.isRepG0[e.state], 0)
	e.rc.bit(&e.isRep0Long[e.state][ps], 1)
	l := n - 2
	switch {
	case l < 8:
		e.rc.bit(&e.choice, 0)
		e.rc.tree(e.low[ps][:], 3, l)
	case l < 16:
		e.rc.bit(&e.choice, 1)
		e.rc.bit(&e.choice2, 0)
		e.rc.tree(e.mid[ps][:], 3, l-8)
	default:
		e.rc.bit(&e.choice, 1)
		e.rc.bit(&e.choice2, 1)
		e.rc.tree(e.high[:], 8, l-16)
	}
	if e.state < 7 {
		e.state = 8
	} else {
		e.state = 11
	}
	e.out[0] = 0
	e.pos += n
}

// TestBombEncodersAreValid checks the test's own encoders on small bombs
// against the independent decoders (ulikunitz/xz, and the LZ4 format as
// pierrec/lz4 reads it via the bundle reader's oracle tests), so the bomb
// tests below read the bundles they mean to.
func TestBombEncodersAreValid(t *testing.T) {
	data := patternData(3000, 7)
	for _, parts := range [][]bombPart{
		{{data: data}, {zeros: 100000}},
		{{zeros: 70000}, {data: data}},
		{{data: data[:10]}, {zeros: 2}, {data: data[:1]}, {zeros: 274}, {zeros: 275}},
	} {
		var want []byte
		for _, p := range parts {
			want = append(want, p.data...)
			want = append(want, make([]byte, p.zeros)...)
		}
		src := lzmaBomb(parts)
		hdr := append(append([]byte(nil), src[:5]...), binary.LittleEndian.AppendUint64(nil, uint64(len(want)))...)
		r, err := xz.NewReader(io.MultiReader(bytes.NewReader(hdr), bytes.NewReader(src[5:])))
		if err != nil {
			t.Fatal(err)
		}
		got := make([]byte, len(want))
		if _, err := io.ReadFull(r, got); err != nil || !bytes.Equal(got, want) {
			t.Fatalf("ulikunitz/xz reads the LZMA bomb encoder's output wrongly: %v", err)
		}
		lz := lz4Bomb(parts)
		got = make([]byte, len(want))
		if n, err := lz4.UncompressBlock(lz, got); err != nil || n != len(want) || !bytes.Equal(got, want) {
			t.Fatalf("pierrec/lz4 reads the LZ4 bomb encoder's output wrongly: %d bytes, %v", n, err)
		}
	}
}

// TestDecompressionBombsStayBounded reads bundles whose one block is a
// serialized file and a run of zeros filling the block to 1 GiB, four
// copies open at once, in a child process, and checks its peak RSS.
// Zeros after the file (as a .resS node) are never decoded: reads stop
// where they need. Zeros before it would have to be decoded to reach the
// file, more than the memory limit: the bundle is refused with an error
// naming the file, the block and the sizes.
func TestDecompressionBombsStayBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 1 GiB bombs; skipped in -short")
	}
	if raceEnabled {
		t.Skip("peak RSS means nothing under the race detector (shadow memory)")
	}
	name, ser := bombSerializedFile(t)
	zeros := unityfs.MaxBlockSize - len(ser)
	const bound = 128 << 20
	for _, kind := range []int{unityfs.CompressionLZMA, unityfs.CompressionLZ4} {
		t.Run(compName(kind)+"/zeros after the file", func(t *testing.T) {
			path := writeBomb(t, kind, bombPart{path: name, data: ser, flags: 4}, bombPart{path: name + ".resS", zeros: zeros})
			rep := runBomb(t, path, 4, 0)
			if rep.Err != "" {
				t.Fatalf("reading the bomb: %s", rep.Err)
			}
			if rep.Objects == 0 {
				t.Fatal("no object read")
			}
			t.Logf("%d objects read over 4 copies, peak RSS %d MiB", rep.Objects, rep.PeakRSS>>20)
			if rep.PeakRSS > bound {
				t.Errorf("peak RSS %d MiB, over the bound of %d MiB", rep.PeakRSS>>20, bound>>20)
			}
		})
		t.Run(compName(kind)+"/zeros before the file", func(t *testing.T) {
			path := writeBomb(t, kind, bombPart{path: name + ".resS", zeros: zeros}, bombPart{path: name, data: ser, flags: 4})
			rep := runBomb(t, path, 4, 0)
			for _, want := range []string{path, "block 0", strconv.Itoa(unityfs.MaxBlockSize), "memory limit"} {
				if !strings.Contains(rep.Err, want) {
					t.Errorf("error %q does not say %q", rep.Err, want)
				}
			}
			t.Logf("refused: %s; peak RSS %d MiB", rep.Err, rep.PeakRSS>>20)
			if rep.PeakRSS > bound {
				t.Errorf("peak RSS %d MiB, over the bound of %d MiB", rep.PeakRSS>>20, bound>>20)
			}
		})
	}
}

// TestCopiesShareTheMemoryLimit proves the limit holds per process, not per
// block or per file: six copies of a bundle whose file sits behind 64 MiB
// of zeros each need 64 MiB decoded, 384 MiB in all, read twice over; with
// one 100 MiB Cache the process stays under that limit plus 64 MiB for the
// program (a dropped block's buffer is reused by the next, not left to the
// garbage collector).
func TestCopiesShareTheMemoryLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("decodes 768 MiB; skipped in -short")
	}
	if raceEnabled {
		t.Skip("peak RSS means nothing under the race detector (shadow memory)")
	}
	name, ser := bombSerializedFile(t)
	const limit = 100 << 20
	const bound = limit + 64<<20
	for _, kind := range []int{unityfs.CompressionLZMA, unityfs.CompressionLZ4} {
		t.Run(compName(kind), func(t *testing.T) {
			path := writeBomb(t, kind, bombPart{path: name + ".resS", zeros: 64 << 20}, bombPart{path: name, data: ser, flags: 4})
			rep := runBomb(t, path, 6, limit)
			if rep.Err != "" {
				t.Fatalf("reading: %s", rep.Err)
			}
			t.Logf("%d objects read over 6 copies, peak RSS %d MiB", rep.Objects, rep.PeakRSS>>20)
			if rep.PeakRSS > bound {
				t.Errorf("peak RSS %d MiB, over the bound of %d MiB", rep.PeakRSS>>20, bound>>20)
			}
		})
	}
}
