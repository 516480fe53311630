package serialized

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/unity/unityfs"
	"github.com/mecanim/mecanim/unity/webdata"
)

// corpusFile is a serialized file found in the corpus: a plain file, a
// bundle member or a WebGL container entry (or a bundle inside one).
type corpusFile struct {
	name string // corpus-relative path, with "/"-joined inner names
	data []byte
}

// readAll reads a whole section.
func readAll(r io.ReaderAt, size int64) ([]byte, error) {
	b := make([]byte, size)
	_, err := r.ReadAt(b, 0)
	if err == io.EOF && int64(len(b)) == size {
		err = nil
	}
	return b, err
}

// collect finds the serialized files in data (named name), descending into
// UnityWebData containers and UnityFS bundles.
func collect(name string, data []byte, out *[]corpusFile) error {
	switch {
	case webdata.IsWebData(data):
		a, err := webdata.Open(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return err
		}
		for i, e := range a.Entries {
			b, err := readAll(a.EntryReader(i), e.Size)
			if err != nil {
				return err
			}
			if err := collect(name+"/"+e.Name, b, out); err != nil {
				return err
			}
		}
	case unityfs.IsUnityFS(data):
		a, err := unityfs.Open(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return err
		}
		for i, n := range a.Nodes {
			b, err := readAll(a.NodeReader(i), n.Size)
			if err != nil {
				return err
			}
			if err := collect(name+"/"+n.Path, b, out); err != nil {
				return err
			}
		}
	case IsSerializedFile(data[:min(len(data), 48)], int64(len(data))):
		*out = append(*out, corpusFile{name: name, data: data})
	}
	return nil
}

// corpusCache keeps the extracted corpus for the test binary's lifetime
// (decompressing the LZMA bundles dominates the tests' time otherwise).
var corpusCache = struct {
	sync.Mutex
	m map[string][]corpusFile
}{m: map[string][]corpusFile{}}

// corpusSerializedFiles returns every serialized file of the corpus rooted
// at dir, sorted by name.
func corpusSerializedFiles(dir string) ([]corpusFile, error) {
	corpusCache.Lock()
	defer corpusCache.Unlock()
	if fs, ok := corpusCache.m[dir]; ok {
		return fs, nil
	}
	fs, err := walkCorpus(dir)
	if err == nil {
		corpusCache.m[dir] = fs
	}
	return fs, err
}

func walkCorpus(dir string) ([]corpusFile, error) {
	var out []corpusFile
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		return collect(filepath.ToSlash(rel), b, &out)
	})
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out, err
}

func TestEveryCorpusObjectDecodesToExactlyItsSize(t *testing.T) {
	files, err := corpusSerializedFiles(corpustest.Dir(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 30 {
		t.Fatalf("found only %d serialized files in the corpus", len(files))
	}
	total, stripped := 0, 0
	for _, cf := range files {
		f, err := Open(bytes.NewReader(cf.data), int64(len(cf.data)), cf.name)
		if err != nil {
			t.Errorf("%s: %v", cf.name, err)
			continue
		}
		for i := range f.Objects {
			o := &f.Objects[i]
			total++
			_, err := f.Decode(o)
			if !f.EnableTypeTree {
				stripped++
				if !errors.Is(err, ErrNoTypeTree) {
					t.Errorf("%s: object %d of a file without type trees: err = %v, want ErrNoTypeTree", cf.name, o.PathID, err)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s: %v", cf.name, err)
			}
		}
	}
	t.Logf("%d serialized files, %d objects (%d without type trees)", len(files), total, stripped)
}

func TestStrippedWebGLFileListsObjectsByClass(t *testing.T) {
	files, err := corpusSerializedFiles(filepath.Join(corpustest.Dir(t), "unitydatatools", "webgl"))
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, cf := range files {
		f, err := Open(bytes.NewReader(cf.data), int64(len(cf.data)), cf.name)
		if err != nil {
			t.Fatalf("%s: %v", cf.name, err)
		}
		if f.EnableTypeTree {
			continue
		}
		found++
		if len(f.Objects) == 0 {
			t.Errorf("%s: no objects", cf.name)
		}
		for i := range f.Objects {
			o := &f.Objects[i]
			if o.ClassID <= 0 || f.TypeOf(o) == nil || f.TypeOf(o).Tree != nil {
				t.Errorf("%s: object %d: class %d, type %+v", cf.name, o.PathID, o.ClassID, f.TypeOf(o))
			}
		}
	}
	if found != 2 {
		t.Errorf("found %d files without type trees in webgl/HelloWorld.data, want 2", found)
	}
}

// manifestEntry is what the corpus MANIFEST (written with an independent
// reader) says about one serialized file.
type manifestEntry struct {
	version  uint32
	unity    string
	platform int32
	typeTree bool
	objects  int
	size     int64
}

// readManifest parses the serialized-file lines of the corpus MANIFEST.md,
// keyed by the same names corpusSerializedFiles gives.
func readManifest(t *testing.T, dir string) map[string]manifestEntry {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, "MANIFEST.md"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]manifestEntry{}
	var heading string
	var stack []string // names of containers by depth
	for _, line := range strings.Split(string(raw), "\n") {
		if h, ok := strings.CutPrefix(line, "### ./"); ok {
			heading = h[:strings.LastIndex(h, " (")]
			stack = stack[:0]
			continue
		}
		if heading == "" {
			continue
		}
		trim := strings.TrimLeft(line, " ")
		depth := (len(line) - len(trim)) / 2
		name, rest, named := strings.Cut(trim, ": ")
		if !named || strings.Contains(name, " ") {
			name, rest = "", trim
		}
		if len(stack) > depth {
			stack = stack[:depth]
		}
		for len(stack) < depth {
			stack = append(stack, "")
		}
		stack = append(stack, name)
		if !strings.HasPrefix(rest, "SerializedFile v") {
			continue
		}
		parts := []string{heading}
		for _, s := range stack {
			if s != "" {
				parts = append(parts, s)
			}
		}
		var e manifestEntry
		var tt string
		if _, err := fmt.Sscanf(rest, "SerializedFile v%d unity=%s platform=%d typetree=%s objs=%d size=%d",
			&e.version, &e.unity, &e.platform, &tt, &e.objects, &e.size); err != nil {
			t.Fatalf("MANIFEST line %q: %v", line, err)
		}
		e.typeTree = tt == "True"
		out[strings.Join(parts, "/")] = e
	}
	return out
}

func TestCorpusFilesMatchTheManifest(t *testing.T) {
	dir := corpustest.Dir(t)
	want := readManifest(t, dir)
	files, err := corpusSerializedFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != len(want) {
		t.Errorf("found %d serialized files, the MANIFEST lists %d", len(files), len(want))
	}
	for _, cf := range files {
		w, ok := want[cf.name]
		if !ok {
			t.Errorf("%s: not in the MANIFEST", cf.name)
			continue
		}
		f, err := Open(bytes.NewReader(cf.data), int64(len(cf.data)), cf.name)
		if err != nil {
			t.Errorf("%s: %v", cf.name, err)
			continue
		}
		got := manifestEntry{f.Version, f.UnityVersion, f.Platform, f.EnableTypeTree, len(f.Objects), f.FileSize}
		if got != w {
			t.Errorf("%s: read %+v, MANIFEST says %+v", cf.name, got, w)
		}
	}
}
