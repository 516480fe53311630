package unityfs_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/mecanim/mecanim/unity/unityfs"
)

func openBytes(tb testing.TB, b []byte) (*unityfs.Archive, error) {
	tb.Helper()
	return unityfs.Open(bytes.NewReader(b), int64(len(b)))
}

// readAllNodes reads every node fully and returns their bytes.
func readAllNodes(a *unityfs.Archive) ([][]byte, error) {
	var out [][]byte
	for i := range a.Nodes {
		b, err := io.ReadAll(a.NodeReader(i))
		if err != nil {
			return nil, fmt.Errorf("node %d (%s): %w", i, a.Nodes[i].Path, err)
		}
		if int64(len(b)) != a.Nodes[i].Size {
			return nil, fmt.Errorf("node %d (%s): read %d bytes, want %d", i, a.Nodes[i].Path, len(b), a.Nodes[i].Size)
		}
		out = append(out, b)
	}
	return out, nil
}

func compName(c int) string {
	return [...]string{"none", "lzma", "lz4", "lz4hc"}[c]
}

func TestSyntheticBundlesRoundTrip(t *testing.T) {
	type tc struct {
		name string
		spec bundleSpec
	}
	var cases []tc
	for _, v := range []uint32{5, 6, 7, 8} {
		for _, atEnd := range []bool{false, true} {
			for _, pad := range []bool{false, true} {
				for _, ic := range []int{0, 1, 2, 3} {
					for _, bc := range [][]int{{0}, {1}, {2}, {3}, {2, 0, 1, 3}} {
						name := fmt.Sprintf("v%d/atEnd=%v/pad=%v/info=%s/blocks=%v", v, atEnd, pad, compName(ic), bc)
						cases = append(cases, tc{name, sampleSpec(v, atEnd, pad, ic, bc...)})
					}
				}
			}
		}
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			file := buildBundle(t, c.spec)
			a, err := openBytes(t, file)
			if err != nil {
				t.Fatalf("Open: %v", err)
			}
			if a.Signature != "UnityFS" || a.FormatVersion != c.spec.version || a.PlayerVersion != "5.x.x" || a.EngineVersion != "2022.3.9f1" {
				t.Errorf("header = %q v%d %q %q", a.Signature, a.FormatVersion, a.PlayerVersion, a.EngineVersion)
			}
			if a.Size != int64(len(file)) {
				t.Errorf("Size = %d, want %d", a.Size, len(file))
			}
			if s := a.Stats(); s.BlocksDecompressed != 0 {
				t.Errorf("Open decompressed %d blocks, want 0", s.BlocksDecompressed)
			}
			if len(a.Nodes) != len(c.spec.nodes) {
				t.Fatalf("%d nodes, want %d", len(a.Nodes), len(c.spec.nodes))
			}
			got, err := readAllNodes(a)
			if err != nil {
				t.Fatal(err)
			}
			for i, n := range c.spec.nodes {
				if a.Nodes[i].Path != n.path || a.Nodes[i].Flags != n.flags {
					t.Errorf("node %d = %q flags %d, want %q flags %d", i, a.Nodes[i].Path, a.Nodes[i].Flags, n.path, n.flags)
				}
				if !bytes.Equal(got[i], n.data) {
					t.Errorf("node %d (%s): bytes differ", i, n.path)
				}
				if j, ok := a.Node(n.path); !ok || j != i {
					t.Errorf("Node(%q) = %d, %v; want %d, true", n.path, j, ok, i)
				}
			}
			if a.DataSize() != int64(len(c.spec.stream())) {
				t.Errorf("DataSize = %d, want %d", a.DataSize(), len(c.spec.stream()))
			}
		})
	}
}

func TestNodeLookupMissAndBadIndex(t *testing.T) {
	a, err := openBytes(t, buildBundle(t, sampleSpec(8, false, false, 2, 2)))
	if err != nil {
		t.Fatal(err)
	}
	if i, ok := a.Node("no-such-node"); ok || i != -1 {
		t.Errorf("Node(missing) = %d, %v", i, ok)
	}
	if r := a.NodeReader(-1); r != nil {
		t.Error("NodeReader(-1) != nil")
	}
	if r := a.NodeReader(len(a.Nodes)); r != nil {
		t.Error("NodeReader(len) != nil")
	}
	if _, err := a.ReadAt(make([]byte, 1), -1); err == nil {
		t.Error("ReadAt(-1) succeeded")
	}
	if n, err := a.ReadAt(make([]byte, 10), a.DataSize()-3); n != 3 || err != io.EOF {
		t.Errorf("ReadAt near the end = %d, %v; want 3, EOF", n, err)
	}
}

// A read touching one block decompresses only that block; later reads of it
// hit the cache; reads spanning a boundary decompress both neighbours.
func TestReadsDecompressOnlyTheBlocksTheyTouch(t *testing.T) {
	spec := bundleSpec{version: 8, infoComp: 2, blockComp: []int{2}, blockSize: 1000,
		nodes: []testNode{{path: "a", data: patternData(10000, 9)}}}
	a, err := openBytes(t, buildBundle(t, spec))
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Blocks) != 10 {
		t.Fatalf("%d blocks, want 10", len(a.Blocks))
	}
	r := a.NodeReader(0)
	steps := []struct {
		off                int64
		n                  int
		wantDecomp, wantHi int
	}{
		{5500, 1, 1, 0},    // block 5
		{5999, 1, 1, 1},    // block 5 again: a hit
		{6999, 2, 3, 1},    // blocks 6 (miss) and 7 (miss)
		{7000, 100, 3, 2},  // block 7: hit
		{0, 1, 4, 2},       // block 0
		{9999, 1, 5, 2},    // block 9
		{-1, 0, 5, 2},      // (no read: check only)
		{5000, 1000, 5, 3}, // block 5 once more: still cached
	}
	for _, s := range steps {
		if s.off >= 0 {
			buf := make([]byte, s.n)
			if _, err := r.ReadAt(buf, s.off); err != nil {
				t.Fatalf("ReadAt(%d): %v", s.off, err)
			}
			if !bytes.Equal(buf, spec.nodes[0].data[s.off:s.off+int64(s.n)]) {
				t.Fatalf("ReadAt(%d): wrong bytes", s.off)
			}
		}
		st := a.Stats()
		if st.BlocksDecompressed != s.wantDecomp || st.CacheHits != s.wantHi {
			t.Errorf("after read at %d: %+v; want %d decompressed, %d hits", s.off, st, s.wantDecomp, s.wantHi)
		}
	}
}

// directoryCharge is what the directory of bundle file holds of a Cache's
// limit while it is open (the tests' limits are for blocks).
func directoryCharge(t *testing.T, file []byte) int64 {
	t.Helper()
	a, err := unityfs.Open(bytes.NewReader(file), int64(len(file)))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	return a.Charged()
}

func TestCacheRespectsItsLimit(t *testing.T) {
	spec := bundleSpec{version: 8, blockComp: []int{2}, blockSize: 1000,
		nodes: []testNode{{path: "a", data: patternData(5000, 1)}}}
	file := buildBundle(t, spec)
	for _, c := range []struct {
		name     string
		limit    int64
		wantMiss int // decompressions after reading blocks 0,1,2,0,1,2
	}{
		{"default cache holds all", 0, 3},
		// A block holds its output (1000 bytes); while it is decoded,
		// also its compressed input (about 930) and decoder state.
		{"room for two blocks: thrash", 2500, 6},
		{"room for three blocks", 4100, 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.limit > 0 {
				c.limit += directoryCharge(t, file) // the limit is for blocks
			}
			cache := unityfs.NewCache(c.limit)
			a, err := unityfs.OpenWith(bytes.NewReader(file), int64(len(file)), unityfs.Options{Cache: cache})
			if err != nil {
				t.Fatal(err)
			}
			buf := make([]byte, 10)
			for _, off := range []int64{0, 1000, 2000, 0, 1000, 2000} {
				if _, err := a.ReadAt(buf, off); err != nil {
					t.Fatal(err)
				}
				if cache.Used() > cache.Limit() {
					t.Fatalf("cache holds %d bytes, over its limit of %d", cache.Used(), cache.Limit())
				}
			}
			// Re-reading the most recent block always hits.
			if _, err := a.ReadAt(buf, 2005); err != nil {
				t.Fatal(err)
			}
			if got := a.Stats().BlocksDecompressed; got != c.wantMiss {
				t.Errorf("decompressed %d blocks, want %d (%+v)", got, c.wantMiss, a.Stats())
			}
			if err := a.Close(); err != nil {
				t.Fatal(err)
			}
			if cache.Used() != 0 {
				t.Errorf("after Close the cache still holds %d bytes", cache.Used())
			}
		})
	}
}

// TestSharedCacheBoundsEveryArchive proves that archives opened with one
// Cache share its limit: reading from one drops the blocks of another.
func TestSharedCacheBoundsEveryArchive(t *testing.T) {
	spec := bundleSpec{version: 8, blockComp: []int{3}, blockSize: 1000,
		nodes: []testNode{{path: "a", data: patternData(3000, 2)}}}
	file := buildBundle(t, spec)
	cache := unityfs.NewCache(2500 + 4*directoryCharge(t, file)) // two blocks and the decoder state
	var archives []*unityfs.Archive
	for range 4 {
		a, err := unityfs.OpenWith(bytes.NewReader(file), int64(len(file)), unityfs.Options{Cache: cache})
		if err != nil {
			t.Fatal(err)
		}
		archives = append(archives, a)
	}
	want := spec.stream()
	for round := range 3 {
		for k, a := range archives {
			got, err := io.ReadAll(a.NodeReader(0))
			if err != nil {
				t.Fatalf("round %d, archive %d: %v", round, k, err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("round %d, archive %d: wrong bytes", round, k)
			}
			if cache.Used() > cache.Limit() {
				t.Fatalf("cache holds %d bytes, over its limit of %d", cache.Used(), cache.Limit())
			}
		}
	}
	evicted := 0
	for _, a := range archives {
		evicted += a.Stats().CacheEvictions
	}
	if evicted == 0 {
		t.Error("no block was evicted: the archives did not share the limit")
	}
}

// TestReadBeyondTheLimitIsRefused proves that a read needing more of one
// block than the limit fails with a LimitError naming the block and sizes,
// while reads of the block's start still work.
func TestReadBeyondTheLimitIsRefused(t *testing.T) {
	for _, kind := range []int{1, 2} {
		t.Run(compName(kind), func(t *testing.T) {
			data := bytes.Repeat([]byte("0123456789abcdef"), 1<<17) // 2 MiB, one block
			spec := bundleSpec{version: 8, blockComp: []int{kind}, blockSize: len(data),
				nodes: []testNode{{path: "a", data: data}}}
			file := buildBundle(t, spec)
			cache := unityfs.NewCache(1536<<10 + directoryCharge(t, file))
			a, err := unityfs.OpenWith(bytes.NewReader(file), int64(len(file)), unityfs.Options{Cache: cache})
			if err != nil {
				t.Fatal(err)
			}
			head := make([]byte, 1000)
			if _, err := a.ReadAt(head, 0); err != nil || !bytes.Equal(head, data[:1000]) {
				t.Fatalf("reading the start: %v", err)
			}
			// Reads creeping forward up to near the limit work, though
			// the old and new buffers would not fit together.
			for off := int64(0); off < 1300<<10; off += 64 << 10 {
				if _, err := a.ReadAt(head, off); err != nil || !bytes.Equal(head, data[off:off+1000]) {
					t.Fatalf("reading at %d: %v", off, err)
				}
				if cache.Used() > cache.Limit() {
					t.Fatalf("cache holds %d bytes, over its limit of %d", cache.Used(), cache.Limit())
				}
			}
			_, err = a.ReadAt(head, int64(len(data)-1000))
			var le *unityfs.LimitError
			if !errors.As(err, &le) || !errors.Is(err, unityfs.ErrMemoryLimit) {
				t.Fatalf("reading the end: %v, want a LimitError", err)
			}
			if le.Block != 0 || le.Size != int64(len(data)) || le.Limit != cache.Limit() || le.Need <= le.Limit {
				t.Errorf("LimitError %+v does not describe the block and the sizes", le)
			}
			if !strings.Contains(err.Error(), "block 0") || !strings.Contains(err.Error(), fmt.Sprint(len(data))) {
				t.Errorf("message %q names neither the block nor its size", err)
			}
			if cache.Used() > cache.Limit() {
				t.Errorf("cache holds %d bytes, over its limit of %d", cache.Used(), cache.Limit())
			}
		})
	}
}

func TestConcurrentReadsAgree(t *testing.T) {
	spec := bundleSpec{version: 8, infoComp: 2, blockComp: []int{2, 1, 0, 3}, blockSize: 512,
		nodes: []testNode{{path: "a", data: patternData(20000, 5)}, {path: "b", data: patternData(3000, 6)}}}
	file := buildBundle(t, spec)
	a, err := unityfs.OpenWith(bytes.NewReader(file), int64(len(file)), unityfs.Options{Cache: unityfs.NewCache(80 << 10)})
	if err != nil {
		t.Fatal(err)
	}
	want := spec.stream()
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			buf := make([]byte, 300)
			for k := 0; k < 200; k++ {
				off := int64((g*7919 + k*104729) % (len(want) - len(buf)))
				if _, err := a.ReadAt(buf, off); err != nil {
					errs <- err
					return
				}
				if !bytes.Equal(buf, want[off:off+int64(len(buf))]) {
					errs <- fmt.Errorf("goroutine %d: wrong bytes at %d", g, off)
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// mutate returns a copy of b changed by f.
func mutate(b []byte, f func([]byte) []byte) []byte {
	return f(append([]byte(nil), b...))
}

func TestMalformedBundlesGiveFormatErrors(t *testing.T) {
	good := buildBundle(t, sampleSpec(8, false, false, 0, 0)) // uncompressed: easy to patch
	be := binary.BigEndian
	// Offsets within good: header fields, then (v8) padding to 64, block info at 64.
	const (
		offVersion = 8
		offSizes   = 8 + 4 + 6 + 11 // total size
		offCInfo   = offSizes + 8
		offUInfo   = offCInfo + 4
		offFlags   = offUInfo + 4
		offInfo    = 64
		offBlocks  = offInfo + 16 + 4 // first block's sizes
	)
	nBlocks := int(be.Uint32(good[offInfo+16:]))
	offNodes := offBlocks + nBlocks*10 // node count
	lz4Good := buildBundle(t, sampleSpec(8, false, false, 0, 2))

	cases := []struct {
		name string
		file []byte
		want string // substring of the error
	}{
		{"empty file", nil, "signature"},
		{"wrong signature", []byte("UnityWeb\x00\x00\x00\x00\x03"), "signature"},
		{"text file", []byte("this is so wrong!"), "signature"},
		{"signature only", []byte("UnityFS\x00"), "format version"},
		{"format version 9", mutate(good, func(b []byte) []byte { be.PutUint32(b[offVersion:], 9); return b }), "format version"},
		{"format version 3", mutate(good, func(b []byte) []byte { be.PutUint32(b[offVersion:], 3); return b }), "format version"},
		{"unterminated version string", append([]byte("UnityFS\x00\x00\x00\x00\x08"), bytes.Repeat([]byte("x"), 600)...), "player version"},
		{"header cut in the sizes", good[:offCInfo+2], "header"},
		{"negative total size", mutate(good, func(b []byte) []byte { be.PutUint64(b[offSizes:], 1<<63); return b }), "total size"},
		{"LZHAM block info", mutate(good, func(b []byte) []byte { be.PutUint32(b[offFlags:], 0x44); return b }), "compression type 4"},
		{"block info larger than 64 MiB", mutate(good, func(b []byte) []byte { be.PutUint32(b[offUInfo:], 65<<20); return b }), "exceeds the limit"},
		{"block info past the end", mutate(good, func(b []byte) []byte { be.PutUint32(b[offCInfo:], 1<<30); return b }), "do not fit"},
		{"block info at end larger than file", mutate(good, func(b []byte) []byte {
			be.PutUint32(b[offFlags:], 0xc0)
			be.PutUint32(b[offCInfo:], uint32(len(b)))
			return b
		}), "do not fit"},
		{"stored block info size mismatch", mutate(good, func(b []byte) []byte { be.PutUint32(b[offUInfo:], be.Uint32(b[offUInfo:])+1); return b }), "differs from the declared size"},
		{"huge block count", mutate(good, func(b []byte) []byte { be.PutUint32(b[offInfo+16:], 1<<30); return b }), "block count"},
		{"negative block count", mutate(good, func(b []byte) []byte { be.PutUint32(b[offInfo+16:], 1<<31); return b }), "negative count"},
		{"block larger than 1 GiB", mutate(good, func(b []byte) []byte { be.PutUint32(b[offBlocks:], 1<<30+1); return b }), "exceeds the limit"},
		{"stored block sizes differ", mutate(good, func(b []byte) []byte { be.PutUint32(b[offBlocks:], 999); return b }), "compressed size"},
		{"block compression 5", mutate(good, func(b []byte) []byte { be.PutUint16(b[offBlocks+8:], 5); return b }), "compression type 5"},
		{"block past the end", mutate(good, func(b []byte) []byte {
			be.PutUint32(b[offBlocks:], 1<<29)
			be.PutUint32(b[offBlocks+4:], 1<<29)
			return b
		}), "run past the end"},
		{"empty compressed block with data", mutate(lz4Good, func(b []byte) []byte { be.PutUint32(b[offBlocks+4:], 0); return b }), "empty compressed block"},
		{"node count too large", mutate(good, func(b []byte) []byte { be.PutUint32(b[offNodes:], 1<<20); return b }), "node count"},
		{"node past the data", mutate(good, func(b []byte) []byte { be.PutUint64(b[offNodes+4:], 1<<40); return b }), "outside"},
		{"negative node size", mutate(good, func(b []byte) []byte { be.PutUint64(b[offNodes+4+8:], 1<<63); return b }), "outside"},
		{"node path unterminated", good[:len(good)-1], ""},
		{"truncated block data", good[:len(good)-10], "run past the end"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := openBytes(t, c.file)
			if err == nil {
				t.Fatal("Open succeeded")
			}
			var fe *unityfs.FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v (%T) is not a *FormatError", err, err)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q does not mention %q", err, c.want)
			}
		})
	}
}

// Corrupt block data is only noticed when the block is read; the error names the block.
func TestCorruptBlockDataFailsOnRead(t *testing.T) {
	for _, kind := range []int{1, 2, 3} {
		t.Run(compName(kind), func(t *testing.T) {
			spec := bundleSpec{version: 6, infoComp: 0, blockComp: []int{kind}, blockSize: 4000,
				nodes: []testNode{{path: "a", data: patternData(4000, 1)}}}
			file := buildBundle(t, spec)
			a, err := openBytes(t, file)
			if err != nil {
				t.Fatal(err)
			}
			// Garble the block's compressed bytes (after LZMA's 5 property bytes).
			for i := a.DataOffset + 5; i < int64(len(file)); i++ {
				file[i] = 0xff
			}
			a, err = openBytes(t, file)
			if err != nil {
				t.Fatal(err)
			}
			_, err = io.ReadAll(a.NodeReader(0))
			var fe *unityfs.FormatError
			if !errors.As(err, &fe) || !strings.Contains(err.Error(), "block 0") {
				t.Fatalf("read error = %v, want a *FormatError naming block 0", err)
			}
		})
	}
}

// TestHugeLZMADictionaryCostsNothing proves that the dictionary size an
// LZMA block declares allocates nothing: the output is the dictionary.
func TestHugeLZMADictionaryCostsNothing(t *testing.T) {
	spec := bundleSpec{version: 6, blockComp: []int{1}, blockSize: 4000,
		nodes: []testNode{{path: "a", data: patternData(4000, 1)}}}
	file := buildBundle(t, spec)
	a, err := openBytes(t, file)
	if err != nil {
		t.Fatal(err)
	}
	binary.LittleEndian.PutUint32(file[a.DataOffset+1:], 0xFFFFFFFF) // the block's dictionary size
	cache := unityfs.NewCache(1 << 20)
	if a, err = unityfs.OpenWith(bytes.NewReader(file), int64(len(file)), unityfs.Options{Cache: cache}); err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(a.NodeReader(0))
	if err != nil || !bytes.Equal(got, spec.nodes[0].data) {
		t.Fatalf("read: %v", err)
	}
	if cache.Used() > 64<<10 {
		t.Errorf("a 4000-byte block holds %d bytes", cache.Used())
	}
}

func TestTruncatedSyntheticBundlesFailCleanly(t *testing.T) {
	for _, spec := range []bundleSpec{
		sampleSpec(8, false, true, 2, 2, 1),
		sampleSpec(7, true, false, 1, 3, 0),
		sampleSpec(6, false, false, 0, 0),
	} {
		file := buildBundle(t, spec)
		for n := 0; n < len(file); n++ {
			a, err := openBytes(t, file[:n])
			if err == nil {
				_, err = readAllNodes(a)
			}
			if err == nil {
				t.Fatalf("v%d: truncated to %d of %d bytes: no error", spec.version, n, len(file))
			}
		}
	}
}

func TestIsUnityFS(t *testing.T) {
	for _, c := range []struct {
		in   string
		want bool
	}{
		{"UnityFS\x00\x00\x00\x00\x08", true},
		{"UnityFS\x00", true},
		{"UnityFS", false},
		{"UnityWeb\x00", false},
		{"", false},
	} {
		if got := unityfs.IsUnityFS([]byte(c.in)); got != c.want {
			t.Errorf("IsUnityFS(%q) = %v", c.in, got)
		}
	}
}

func TestBlockAtMapsStreamOffsetsToBlocks(t *testing.T) {
	spec := bundleSpec{version: 8, blockComp: []int{2}, blockSize: 1000,
		nodes: []testNode{{path: "a", data: patternData(2500, 1)}}}
	a, err := openBytes(t, buildBundle(t, spec))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		off  int64
		want int
	}{{-1, -1}, {0, 0}, {999, 0}, {1000, 1}, {2499, 2}, {2500, -1}, {1 << 40, -1}} {
		if got := a.BlockAt(c.off); got != c.want {
			t.Errorf("BlockAt(%d) = %d, want %d", c.off, got, c.want)
		}
	}
}

// TestOverlappingNodesAreRejected proves that a block info listing the same
// decompressed bytes under several nodes is refused at Open (a small bundle
// must not make every reader of its nodes repeat the work per node), while
// empty nodes may sit anywhere.
func TestOverlappingNodesAreRejected(t *testing.T) {
	nodes := []testNode{
		{path: "a", data: patternData(100, 1)},
		{path: "b", data: patternData(100, 2)},
		{path: "empty", data: nil},
	}
	for _, tc := range []struct {
		name    string
		offsets []int64
		wantErr bool
	}{
		{"back to back", []int64{0, 100, 200}, false},
		{"empty node inside another", []int64{0, 100, 50}, false},
		{"second starts inside first", []int64{0, 50, 200}, true},
		{"same range twice", []int64{0, 0, 200}, true},
		{"listed out of order", []int64{100, 0, 0}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := buildBundle(t, bundleSpec{version: 7, nodes: nodes, offsets: tc.offsets})
			_, err := unityfs.Open(bytes.NewReader(b), int64(len(b)))
			var fe *unityfs.FormatError
			switch {
			case tc.wantErr && !errors.As(err, &fe):
				t.Fatalf("Open = %v, want a FormatError", err)
			case tc.wantErr && !strings.Contains(err.Error(), "overlaps"):
				t.Fatalf("Open = %v, want it to say the nodes overlap", err)
			case !tc.wantErr && err != nil:
				t.Fatalf("Open = %v, want success", err)
			}
		})
	}
}

// TestBlockInfoCountsAgainstTheLimit proves that Open charges the block info
// it decompresses: a Cache too small for it refuses the bundle, saying so.
func TestBlockInfoCountsAgainstTheLimit(t *testing.T) {
	file := buildBundle(t, sampleSpec(8, false, false, 1, 2))
	_, err := unityfs.OpenWith(bytes.NewReader(file), int64(len(file)), unityfs.Options{Cache: unityfs.NewCache(1000)})
	var le *unityfs.LimitError
	if !errors.As(err, &le) || le.Block != -1 || !strings.Contains(err.Error(), "the block info") {
		t.Fatalf("Open = %v, want a LimitError for the block info", err)
	}
	if _, err := unityfs.OpenWith(bytes.NewReader(file), int64(len(file)), unityfs.Options{Cache: unityfs.NewCache(1 << 20)}); err != nil {
		t.Fatalf("Open with room = %v", err)
	}
}

// TestConcurrentReadsOfArchivesSharingACache reads several archives that
// share a Cache too small for all their blocks from many goroutines at once:
// blocks are dropped, their buffers handed to other blocks, and re-decoded,
// while other goroutines read them. Every read must return the right bytes
// and the Cache must stay within its limit (run it with -race).
func TestConcurrentReadsOfArchivesSharingACache(t *testing.T) {
	specs := []bundleSpec{
		{version: 8, blockComp: []int{1}, blockSize: 20000, nodes: []testNode{{path: "a", data: patternData(60000, 1)}}},
		{version: 8, blockComp: []int{2, 3}, blockSize: 9000, nodes: []testNode{{path: "b", data: patternData(45000, 2)}}},
		{version: 7, blockComp: []int{1, 2, 0}, blockSize: 7000, nodes: []testNode{{path: "c", data: patternData(35000, 3)}}},
	}
	cache := unityfs.NewCache(160 << 10)
	var archives []*unityfs.Archive
	var wants [][]byte
	for _, s := range specs {
		file := buildBundle(t, s)
		a, err := unityfs.OpenWith(bytes.NewReader(file), int64(len(file)), unityfs.Options{Cache: cache})
		if err != nil {
			t.Fatal(err)
		}
		archives = append(archives, a)
		wants = append(wants, s.stream())
	}
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for g := range 12 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := make([]byte, 700)
			for k := range 150 {
				i := (g + k) % len(archives)
				want := wants[i]
				off := int64((g*7919 + k*104729) % (len(want) - len(buf)))
				if _, err := archives[i].ReadAt(buf, off); err != nil {
					errs <- fmt.Errorf("goroutine %d, archive %d at %d: %w", g, i, off, err)
					return
				}
				if !bytes.Equal(buf, want[off:off+int64(len(buf))]) {
					errs <- fmt.Errorf("goroutine %d: archive %d: wrong bytes at %d", g, i, off)
					return
				}
				if u := cache.Used(); u > cache.Limit() {
					errs <- fmt.Errorf("cache holds %d bytes, over its limit of %d", u, cache.Limit())
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
	evicted := 0
	for _, a := range archives {
		evicted += a.Stats().CacheEvictions
	}
	if evicted == 0 {
		t.Error("nothing was evicted: the test did not exercise sharing")
	}
}
