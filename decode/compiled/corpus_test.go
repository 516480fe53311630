package compiled

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"

	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/unity/serialized"
	"github.com/mecanim/mecanim/unity/typetree"
	"github.com/mecanim/mecanim/unity/unityfs"
)

// corpusFile is one serialized file of the corpus (a bundle node or a loose file).
type corpusFile struct {
	Rel string // corpus-relative file path, plus "#node" for a bundle node
	F   *serialized.File
}

// corpusObject is one decoded object of the corpus.
type corpusObject struct {
	File *corpusFile
	Obj  *serialized.Object
	V    *typetree.Value
}

func (o *corpusObject) String() string {
	return o.File.Rel + ":" + o.V.Field("m_Name").Str()
}

var (
	corpusOnce  sync.Once
	corpusCache []*corpusFile
	corpusErr   error

	objCacheMu sync.Mutex
	objCache   = map[int32][]*corpusObject{}
)

// openCorpusDir opens every UnityFS bundle and loose SerializedFile under dir.
func openCorpusDir(dir string) ([]*corpusFile, error) {
	var out []*corpusFile
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		fh, err := os.Open(p)
		if err != nil {
			return err
		}
		st, err := fh.Stat()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		prefix := make([]byte, 64)
		n, _ := fh.ReadAt(prefix, 0)
		prefix = prefix[:n]
		switch {
		case unityfs.IsUnityFS(prefix):
			a, err := unityfs.Open(fh, st.Size())
			if err != nil {
				return nil // not ours to test
			}
			for i := range a.Nodes {
				r := a.NodeReader(i)
				head := make([]byte, 64)
				k, _ := r.ReadAt(head, 0)
				if !serialized.IsSerializedFile(head[:k], r.Size()) {
					continue
				}
				f, err := serialized.Open(r, r.Size(), a.Nodes[i].Path)
				if err != nil {
					continue
				}
				out = append(out, &corpusFile{Rel: rel + "#" + a.Nodes[i].Path, F: f})
			}
		case serialized.IsSerializedFile(prefix, st.Size()):
			f, err := serialized.Open(fh, st.Size(), rel)
			if err == nil {
				out = append(out, &corpusFile{Rel: rel, F: f})
			}
		default:
			fh.Close()
		}
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Rel < out[j].Rel })
	return out, err
}

// smallCorpus lists small bundles that together hold every class the
// converters read (fuzz seeding opens only these: each fuzz worker process
// runs the seeding again).
var smallCorpus = []string{"jotunn", "plateup-emotes", "lethal-emotes/customemotespackage2"}

// smallCorpusObjects decodes the objects of the class in smallCorpus.
func smallCorpusObjects(tb testing.TB, classID int32) []*corpusObject {
	tb.Helper()
	dir := corpustest.Dir(tb)
	var out []*corpusObject
	for _, sub := range smallCorpus {
		files, err := openCorpusDir(filepath.Join(dir, filepath.FromSlash(sub)))
		if err != nil {
			tb.Fatal(err)
		}
		for _, cf := range files {
			for i := range cf.F.Objects {
				o := &cf.F.Objects[i]
				if o.ClassID != classID {
					continue
				}
				if v, err := cf.F.Decode(o); err == nil {
					out = append(out, &corpusObject{File: cf, Obj: o, V: v})
				}
			}
		}
	}
	return out
}

// corpusFiles returns the corpus's serialized files (opened once per test binary).
func corpusFiles(tb testing.TB) []*corpusFile {
	tb.Helper()
	dir := corpustest.Dir(tb)
	corpusOnce.Do(func() { corpusCache, corpusErr = openCorpusDir(dir) })
	if corpusErr != nil {
		tb.Fatal(corpusErr)
	}
	return corpusCache
}

// corpusObjects decodes every object of the class in the corpus (objects
// whose type tree is missing are skipped).
func corpusObjects(tb testing.TB, classID int32) []*corpusObject {
	tb.Helper()
	objCacheMu.Lock()
	defer objCacheMu.Unlock()
	if out, ok := objCache[classID]; ok {
		return out
	}
	var out []*corpusObject
	for _, cf := range corpusFiles(tb) {
		for i := range cf.F.Objects {
			o := &cf.F.Objects[i]
			if o.ClassID != classID {
				continue
			}
			v, err := cf.F.Decode(o)
			if err != nil {
				tb.Fatalf("%s: %v", cf.Rel, err)
			}
			out = append(out, &corpusObject{File: cf, Obj: o, V: v})
		}
	}
	objCache[classID] = out
	return out
}

// findObject returns the object of the class named name in the file whose
// Rel starts with relPrefix.
func findObject(tb testing.TB, relPrefix string, classID int32, name string) *corpusObject {
	tb.Helper()
	for _, o := range corpusObjects(tb, classID) {
		if len(o.File.Rel) >= len(relPrefix) && o.File.Rel[:len(relPrefix)] == relPrefix && o.V.Field("m_Name").Str() == name {
			return o
		}
	}
	tb.Fatalf("no class %d object %q in %s", classID, name, relPrefix)
	return nil
}
