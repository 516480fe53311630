package unityfs_test

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/unity/unityfs"
	"github.com/mecanim/mecanim/unity/webdata"
)

// manifestBundle is what the corpus MANIFEST (written by an independent
// reader) says about one bundle.
type manifestBundle struct {
	version    uint32
	engine     string
	player     string
	comp       []int // block compression types used
	nodes      int
	serialized map[string]manifestSerialized // serialized-file nodes by path
}

type manifestSerialized struct {
	version uint32
	size    int64
}

var (
	reManifestFile    = regexp.MustCompile(`^### \./(.+) \(\d+ bytes\)$`)
	reManifestBundle  = regexp.MustCompile(`^(\s*)(?:(.+?): )?UnityFS v(\d+) engine=(\S+) player=(\S+) comp=\{([^}]*)\} nodes=(\d+)`)
	reManifestSerFile = regexp.MustCompile(`^(\s*)(.+?): SerializedFile v(\d+) .*size=(\d+)`)
)

// readManifest returns the bundles the MANIFEST lists, keyed by corpus path
// (for a bundle inside a WebData container: "container!entry").
func readManifest(t *testing.T) map[string]*manifestBundle {
	t.Helper()
	f, err := os.Open(corpustest.Path(t, "MANIFEST.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]*manifestBundle{}
	var file string
	var cur *manifestBundle
	curIndent := -1
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if m := reManifestFile.FindStringSubmatch(line); m != nil {
			file, cur, curIndent = m[1], nil, -1
			continue
		}
		if m := reManifestBundle.FindStringSubmatch(line); m != nil && file != "" {
			v, _ := strconv.Atoi(m[3])
			n, _ := strconv.Atoi(m[7])
			cur = &manifestBundle{version: uint32(v), engine: m[4], player: m[5], nodes: n, serialized: map[string]manifestSerialized{}}
			for _, c := range strings.FieldsFunc(m[6], func(r rune) bool { return r == ',' || r == ' ' }) {
				ci, _ := strconv.Atoi(c)
				cur.comp = append(cur.comp, ci)
			}
			key := file
			if m[2] != "" {
				key += "!" + m[2]
			}
			out[key], curIndent = cur, len(m[1])
			continue
		}
		if m := reManifestSerFile.FindStringSubmatch(line); m != nil && cur != nil && len(m[1]) == curIndent+2 {
			v, _ := strconv.Atoi(m[3])
			size, _ := strconv.ParseInt(m[4], 10, 64)
			cur.serialized[m[2]] = manifestSerialized{uint32(v), size}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatal("MANIFEST lists no UnityFS bundles")
	}
	return out
}

// corpusBundle is a bundle found in the corpus by content.
type corpusBundle struct {
	key  string // corpus path, or "container!entry"
	data []byte
}

// findCorpusBundles walks the corpus and returns every UnityFS bundle,
// recognised by content, including those inside WebData containers.
func findCorpusBundles(t testing.TB) []corpusBundle {
	t.Helper()
	dir := corpustest.Dir(t)
	var out []corpusBundle
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		rel = filepath.ToSlash(rel)
		switch {
		case unityfs.IsUnityFS(data):
			out = append(out, corpusBundle{rel, data})
		case webdata.IsWebData(data):
			w, err := webdata.Open(bytes.NewReader(data), int64(len(data)))
			if err != nil {
				t.Fatalf("%s: %v", rel, err)
			}
			for _, e := range w.Entries {
				b := data[e.Offset : e.Offset+e.Size]
				if unityfs.IsUnityFS(b) {
					out = append(out, corpusBundle{rel + "!" + e.Name, b})
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestCorpusBundlesMatchManifest(t *testing.T) {
	manifest := readManifest(t)
	bundles := findCorpusBundles(t)
	seen := map[string]bool{}
	for _, cb := range bundles {
		t.Run(cb.key, func(t *testing.T) {
			seen[cb.key] = true
			want, ok := manifest[cb.key]
			if !ok {
				t.Fatalf("bundle not in the MANIFEST")
			}
			a, err := openBytes(t, cb.data)
			if err != nil {
				t.Fatalf("Open: %v", err)
			}
			if a.FormatVersion != want.version || a.EngineVersion != want.engine || a.PlayerVersion != want.player {
				t.Errorf("header v%d %q %q, want v%d %q %q", a.FormatVersion, a.EngineVersion, a.PlayerVersion, want.version, want.engine, want.player)
			}
			if a.Size != int64(len(cb.data)) {
				t.Errorf("declared size %d, file has %d", a.Size, len(cb.data))
			}
			var comp []int
			for _, b := range a.Blocks {
				if !slices.Contains(comp, b.Compression()) {
					comp = append(comp, b.Compression())
				}
			}
			slices.Sort(comp)
			if !slices.Equal(comp, want.comp) {
				t.Errorf("block compression %v, want %v", comp, want.comp)
			}
			if len(a.Nodes) != want.nodes {
				t.Errorf("%d nodes, want %d", len(a.Nodes), want.nodes)
			}
			for name := range want.serialized {
				if _, ok := a.Node(name); !ok {
					t.Errorf("node %q missing", name)
				}
			}
			nodes, err := readAllNodes(a)
			if err != nil {
				t.Fatal(err)
			}
			for i, n := range a.Nodes {
				ws, isSer := want.serialized[n.Path]
				if !isSer {
					continue
				}
				if n.Size != ws.size {
					t.Errorf("%s: size %d, want %d", n.Path, n.Size, ws.size)
				}
				// A serialized file's header holds its format version at offset 8 (big-endian).
				if len(nodes[i]) < 12 {
					t.Errorf("%s: %d bytes is too short for a serialized-file header", n.Path, len(nodes[i]))
					continue
				}
				if v := binary.BigEndian.Uint32(nodes[i][8:]); v != ws.version {
					t.Errorf("%s: serialized-file version %d, want %d", n.Path, v, ws.version)
				}
			}
			if s := a.Stats(); s.BlocksDecompressed < len(a.Blocks) || s.BytesDecompressed < a.DataSize() {
				t.Errorf("reading all nodes decompressed %+v for %d blocks / %d bytes", s, len(a.Blocks), a.DataSize())
			}
		})
	}
	for key := range manifest {
		if !seen[key] {
			t.Errorf("MANIFEST bundle %s was not found in the corpus by content", key)
		}
	}
}

func TestCorpusInvalidFileIsRejected(t *testing.T) {
	data, err := os.ReadFile(corpustest.Path(t, "unitydatatools/invalidfile"))
	if err != nil {
		t.Fatal(err)
	}
	if unityfs.IsUnityFS(data) {
		t.Error("IsUnityFS(invalidfile) = true")
	}
	_, err = openBytes(t, data)
	var fe *unityfs.FormatError
	if !errors.As(err, &fe) || fe.Offset != 0 || !strings.Contains(err.Error(), "not a UnityFS bundle") {
		t.Errorf("Open(invalidfile) error = %v, want a *FormatError at offset 0 saying it is not a bundle", err)
	}
}

// truncationLengths returns the lengths to cut a file of size n to: every
// length through the header and block info, a spread through the data, and
// every length near the end.
func truncationLengths(n int, headerEnd int) []int {
	var out []int
	for l := 0; l < n && l < headerEnd+64; l++ {
		out = append(out, l)
	}
	for k := 1; k < 200; k++ {
		out = append(out, n*k/200)
	}
	for l := max(n-64, 0); l < n; l++ {
		out = append(out, l)
	}
	return out
}

func TestCorpusTruncatedBundlesFailCleanly(t *testing.T) {
	for _, cb := range findCorpusBundles(t) {
		t.Run(cb.key, func(t *testing.T) {
			a, err := openBytes(t, cb.data)
			if err != nil {
				t.Fatal(err)
			}
			headerEnd := int(a.DataOffset)
			for _, l := range truncationLengths(len(cb.data), headerEnd) {
				a, err := openBytes(t, cb.data[:l])
				if err == nil {
					_, err = readAllNodes(a)
				}
				if err == nil {
					t.Fatalf("truncated to %d of %d bytes: no error", l, len(cb.data))
				}
			}
		})
	}
}

// Reading one byte of one node of a bundle decompresses only the block
// holding it, an LZMA block only up to the byte; Open decompresses nothing.
func TestCorpusReadsAreLazy(t *testing.T) {
	for _, c := range []struct {
		file string
		node string
	}{
		{"lethal-emotes/customemotespackage", "CAB-1c015bf0b0345fd2fd5c91b718be8d67.resS"}, // the largest: one LZMA block
		{"sekai/ladies_s_31_0001", "CAB-7124530fd63cde50437bef58ade2714f.resS"},            // 22 LZ4HC blocks
		{"sekai/ladies_s_31_0001", "CAB-7124530fd63cde50437bef58ade2714f"},
	} {
		t.Run(c.file+"/"+c.node, func(t *testing.T) {
			f, err := os.Open(corpustest.Path(t, c.file))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			st, err := f.Stat()
			if err != nil {
				t.Fatal(err)
			}
			a, err := unityfs.Open(f, st.Size())
			if err != nil {
				t.Fatal(err)
			}
			if s := a.Stats(); s.BlocksDecompressed != 0 {
				t.Fatalf("Open decompressed %d blocks", s.BlocksDecompressed)
			}
			i, ok := a.Node(c.node)
			if !ok {
				t.Fatalf("no node %q", c.node)
			}
			mid := a.Nodes[i].Size / 2
			if _, err := a.NodeReader(i).ReadAt(make([]byte, 1), mid); err != nil {
				t.Fatal(err)
			}
			b := a.BlockAt(a.Nodes[i].Offset + mid)
			s := a.Stats()
			upto := a.Nodes[i].Offset + mid + 1 - blockStart(a, b)
			// LZMA may finish a match past the byte: at most 273 bytes.
			lo, hi := upto, upto+273
			if a.Blocks[b].Compression() != unityfs.CompressionLZMA {
				// Unity's LZ4 chunks are small: decoded whole at once.
				lo, hi = int64(a.Blocks[b].UncompressedSize), int64(a.Blocks[b].UncompressedSize)
			}
			if s.BlocksDecompressed != 1 || s.BytesDecompressed < lo || s.BytesDecompressed > hi {
				t.Errorf("reading 1 byte (block %d of %d, %d bytes in) did %+v, want %d to %d bytes of that block decompressed", b, len(a.Blocks), upto, s, lo, hi)
			}
		})
	}
}

// blockStart returns the uncompressed-stream offset of block b.
func blockStart(a *unityfs.Archive, b int) int64 {
	var off int64
	for _, bl := range a.Blocks[:b] {
		off += int64(bl.UncompressedSize)
	}
	return off
}

// Reading a node in small pieces decompresses each block once (the cache works).
func TestCorpusSequentialSmallReadsDecompressEachBlockOnce(t *testing.T) {
	data, err := os.ReadFile(corpustest.Path(t, "sekai/ladies_s_31_0001"))
	if err != nil {
		t.Fatal(err)
	}
	a, err := openBytes(t, data)
	if err != nil {
		t.Fatal(err)
	}
	for i := range a.Nodes {
		r := bufio.NewReaderSize(a.NodeReader(i), 512)
		if _, err := io.Copy(io.Discard, r); err != nil {
			t.Fatal(err)
		}
	}
	if s := a.Stats(); s.BlocksDecompressed != len(a.Blocks) {
		t.Errorf("%d blocks, decompressed %d times", len(a.Blocks), s.BlocksDecompressed)
	}
}

func TestOpenFileReadsAndCloses(t *testing.T) {
	path := corpustest.Path(t, "jotunn/kitbash")
	a, err := unityfs.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := readAllNodes(a); err != nil {
		t.Fatal(err)
	}
	if err := a.Close(); err != nil {
		t.Error(err)
	}
	_, err = unityfs.OpenFile(corpustest.Path(t, "unitydatatools/invalidfile"))
	var fe *unityfs.FormatError
	if !errors.As(err, &fe) || !strings.Contains(err.Error(), "invalidfile") {
		t.Errorf("OpenFile(invalidfile) = %v, want a *FormatError naming the file", err)
	}
	if _, err := unityfs.OpenFile(path + ".missing"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("OpenFile(missing) = %v", err)
	}
}
