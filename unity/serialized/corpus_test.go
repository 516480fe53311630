package serialized

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
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
