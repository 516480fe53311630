package layouts

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/unity/serialized"
	"github.com/mecanim/mecanim/unity/typetree"
	"github.com/mecanim/mecanim/unity/unityfs"
	"github.com/mecanim/mecanim/unity/unityversion"
	"github.com/mecanim/mecanim/unity/webdata"
)

// corpusFile is one serialized file of the corpus (inside a bundle or not).
type corpusFile struct {
	name string
	f    *serialized.File
}

// corpusSerializedFiles opens every serialized file of the corpus: plain ones
// and those inside UnityFS bundles and UnityWebData containers (nested as
// deep as they come). Files of other kinds are ignored.
func corpusSerializedFiles(t *testing.T) []corpusFile {
	t.Helper()
	dir := corpustest.Dir(t)
	var out []corpusFile
	var open func(r io.ReaderAt, size int64, name string, depth int)
	open = func(r io.ReaderAt, size int64, name string, depth int) {
		if depth > 4 {
			return
		}
		prefix := make([]byte, 64)
		n, _ := r.ReadAt(prefix, 0)
		prefix = prefix[:n]
		switch {
		case webdata.IsWebData(prefix):
			a, err := webdata.Open(r, size)
			if err != nil {
				t.Errorf("%s: %v", name, err)
				return
			}
			for i, e := range a.Entries {
				open(a.EntryReader(i), e.Size, name+"/"+e.Name, depth+1)
			}
		case unityfs.IsUnityFS(prefix):
			a, err := unityfs.Open(r, size)
			if err != nil {
				t.Errorf("%s: %v", name, err)
				return
			}
			for i, nd := range a.Nodes {
				open(a.NodeReader(i), nd.Size, name+"/"+nd.Path, depth+1)
			}
		case serialized.IsSerializedFile(prefix, size):
			f, err := serialized.Open(r, size, name)
			if err != nil {
				t.Errorf("%s: %v", name, err)
				return
			}
			out = append(out, corpusFile{name, f})
		}
	}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		fh, err := os.Open(path)
		if err != nil {
			return err
		}
		t.Cleanup(func() { fh.Close() })
		st, err := fh.Stat()
		if err != nil {
			return err
		}
		open(fh, st.Size(), filepath.ToSlash(rel), 0)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatal("no serialized files found in the corpus")
	}
	return out
}

// TestBuiltInLayoutsEqualCorpusTrees checks every type tree embedded in the
// corpus files, of a class the table covers, against Lookup for the file's
// version: it must be that version's exact layout, node for node.
func TestBuiltInLayoutsEqualCorpusTrees(t *testing.T) {
	classes := Classes()
	compared := 0
	for _, cf := range corpusSerializedFiles(t) {
		v, err := unityversion.Parse(cf.f.UnityVersion)
		if err != nil {
			t.Errorf("%s: %v", cf.name, err)
			continue
		}
		if v.IsBlank() || !cf.f.EnableTypeTree {
			continue // dated by TestInferVersionDatesCorpusFiles
		}
		for _, ty := range cf.f.Types {
			if _, ok := classes[ty.ClassID]; !ok || ty.Tree == nil {
				continue
			}
			want, matched, err := Lookup(v, ty.ClassID)
			if err != nil {
				t.Errorf("%s: class %d: %v", cf.name, ty.ClassID, err)
				continue
			}
			if matched != v {
				t.Errorf("%s: version %s is not in the table (matched %s)", cf.name, v, matched)
			}
			if ty.ClassID == ClassMonoBehaviour {
				if !Fits(ty.ClassID, want, ty.Tree) {
					t.Errorf("%s (%s): a MonoBehaviour tree does not start with the built-in native fields", cf.name, v)
				}
				compared++
				continue
			}
			if i := FirstDifference(ty.Tree, want); i >= 0 {
				t.Errorf("%s (%s) class %d differs from the built-in layout at node %d:\n file  %s\n table %s",
					cf.name, v, ty.ClassID, i, nodeAt(ty.Tree, i), nodeAt(want, i))
				continue
			}
			compared++
		}
	}
	if compared == 0 {
		t.Fatal("no corpus tree compared")
	}
	t.Logf("%d embedded trees equal the built-in layouts", compared)
}

func nodeAt(t *typetree.Tree, i int) string {
	if i >= len(t.Nodes) {
		return "(end)"
	}
	n := t.Nodes[i]
	return strings.Repeat(" ", n.Level) + n.Type + " " + n.Name +
		" size=" + itoa(int(n.ByteSize)) + " flags=" + itoa(int(n.Flags)) + " v=" + itoa(int(n.Version)) + " tf=" + itoa(int(n.TypeFlags))
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestInferVersionDatesCorpusFiles dates every corpus file with type trees
// from its trees alone: its own version must be a candidate, and the blanked
// sekai bundle must come out within 2022.3.
func TestInferVersionDatesCorpusFiles(t *testing.T) {
	sekai := false
	for _, cf := range corpusSerializedFiles(t) {
		if !cf.f.EnableTypeTree {
			continue
		}
		trees := map[int32]*typetree.Tree{}
		covered := false
		for _, ty := range cf.f.Types {
			if ty.Tree != nil {
				trees[ty.ClassID] = ty.Tree
				_, ok := Classes()[ty.ClassID]
				covered = covered || ok
			}
		}
		got := InferVersion(trees)
		if !covered {
			if got != nil {
				t.Errorf("%s: candidates %v without a covered class", cf.name, got)
			}
			continue
		}
		v, err := unityversion.Parse(cf.f.UnityVersion)
		if err != nil {
			t.Errorf("%s: %v", cf.name, err)
			continue
		}
		if len(got) == 0 {
			t.Errorf("%s (%s): no candidate version", cf.name, v)
			continue
		}
		t.Logf("%s (%s): %d candidates %s … %s", cf.name, v, len(got), got[0], got[len(got)-1])
		if !v.IsBlank() {
			if !slices.Contains(got, v) {
				t.Errorf("%s: its version %s is not among the inferred", cf.name, v)
			}
			continue
		}
		if strings.HasPrefix(filepath.ToSlash(cf.name), "sekai/") {
			// The dump's README dates this bundle 2022.3.19f1+; that needs
			// classes outside our table (it holds no AnimationClip, whose
			// 2022.3.19f1 change would show). Our classes (Transform from
			// 2022.3.5f1, Animator up to 2022.3.x) must still confine it to
			// 2022.3 and keep 2022.3.19f1.
			sekai = true
			branch := unityversion.MustParse("2022.3.0")
			for _, c := range got {
				if !c.SameMinor(branch) {
					t.Errorf("%s: candidate %s is outside 2022.3", cf.name, c)
				}
			}
			if !slices.Contains(got, unityversion.MustParse("2022.3.19f1")) {
				t.Errorf("%s: 2022.3.19f1 is not a candidate", cf.name)
			}
		}
	}
	if !sekai {
		t.Error("the blanked sekai bundle was not found")
	}
}

// TestBuiltInLayoutsDecodeCorpusObjects decodes every object of a covered
// class in every corpus file of a known version — with or without type trees
// — with the built-in layout of that version. Each must consume the object's
// bytes exactly (a MonoBehaviour's native part must decode, its script fields
// follow).
func TestBuiltInLayoutsDecodeCorpusObjects(t *testing.T) {
	classes := Classes()
	decoded, stripped := 0, 0
	for _, cf := range corpusSerializedFiles(t) {
		v, err := unityversion.Parse(cf.f.UnityVersion)
		if err != nil || v.IsBlank() {
			continue
		}
		for i := range cf.f.Objects {
			o := &cf.f.Objects[i]
			if _, ok := classes[o.ClassID]; !ok {
				continue
			}
			tree, _, err := Lookup(v, o.ClassID)
			if err != nil {
				t.Errorf("%s: object %d: %v", cf.name, o.PathID, err)
				continue
			}
			data, err := cf.f.ReadObject(o)
			if err != nil {
				t.Errorf("%s: %v", cf.name, err)
				continue
			}
			l, err := typetree.Compile(tree)
			if err != nil {
				t.Fatalf("class %d: %v", o.ClassID, err)
			}
			if !decodesExactly(l, o.ClassID, data, cf.f.ByteOrder()) {
				_, err := l.Decode(data, cf.f.ByteOrder())
				t.Errorf("%s (%s): object %d of class %d (%d bytes): %v", cf.name, v, o.PathID, o.ClassID, len(data), err)
				continue
			}
			decoded++
			if !cf.f.EnableTypeTree {
				stripped++
			}
		}
	}
	if decoded == 0 {
		t.Fatal("no corpus object decoded")
	}
	t.Logf("%d objects (%d from files without type trees) decode exactly with the built-in layouts", decoded, stripped)
}

// TestInferVersionFromObjectsDatesCorpusFiles dates every corpus file from
// its objects' bytes alone (as if it had neither version nor type trees): its
// own version must be a candidate; the blanked sekai bundle must stay within
// 2022.3.
func TestInferVersionFromObjectsDatesCorpusFiles(t *testing.T) {
	classes := Classes()
	for _, cf := range corpusSerializedFiles(t) {
		var samples []Sample
		perClass := map[int32]int{}
		for i := range cf.f.Objects {
			o := &cf.f.Objects[i]
			if _, ok := classes[o.ClassID]; !ok || perClass[o.ClassID] >= 8 || o.Size > 1<<20 {
				continue
			}
			data, err := cf.f.ReadObject(o)
			if err != nil {
				t.Errorf("%s: %v", cf.name, err)
				continue
			}
			perClass[o.ClassID]++
			samples = append(samples, Sample{o.ClassID, data})
		}
		if len(samples) == 0 {
			continue
		}
		got := InferVersionFromObjects(samples, cf.f.ByteOrder())
		v, err := unityversion.Parse(cf.f.UnityVersion)
		if err != nil {
			t.Errorf("%s: %v", cf.name, err)
			continue
		}
		if len(got) == 0 {
			t.Errorf("%s (%s): no candidate version from %d objects", cf.name, v, len(samples))
			continue
		}
		t.Logf("%s (%s): %d objects give %d candidates %s … %s", cf.name, v, len(samples), len(got), got[0], got[len(got)-1])
		if !v.IsBlank() {
			if !slices.Contains(got, v) {
				t.Errorf("%s: its version %s is not among the inferred", cf.name, v)
			}
			continue
		}
		if strings.HasPrefix(cf.name, "sekai/") {
			if !slices.Contains(got, unityversion.MustParse("2022.3.19f1")) {
				t.Errorf("%s: 2022.3.19f1 is not a candidate", cf.name)
			}
		}
	}
}
