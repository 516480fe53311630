package assets

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/unity/layouts"
	"github.com/mecanim/mecanim/unity/typetree"
)

// corpusUnityFiles lists every file under the corpus that opens as a Unity
// file (recognised by content).
func corpusUnityFiles(t *testing.T) []string {
	t.Helper()
	dir := corpustest.Dir(t)
	var out []string
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() || info.Size() == 0 {
			return err
		}
		c, err := Open(p, Options{})
		if err != nil {
			return nil
		}
		c.Close()
		out = append(out, p)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestBuiltinLayoutsDecodeLikeEmbeddedTrees proves the built-in layout table
// on files that carry their own trees: every object of every class the
// table covers decodes to the same JSON both ways. (The blank-version sekai
// bundle is read with its version inferred.)
func TestBuiltinLayoutsDecodeLikeEmbeddedTrees(t *testing.T) {
	files := corpusUnityFiles(t)
	covered := layouts.Classes()
	compared := 0
	for _, p := range files {
		emb, err := Open(p, Options{})
		if err != nil {
			t.Fatal(err)
		}
		blt, err := Open(p, Options{Layouts: LayoutsBuiltin})
		if err != nil {
			t.Fatal(err)
		}
		for i, f := range emb.Files {
			g := blt.Files[i]
			for j := range f.Objects {
				o := &f.Objects[j]
				if _, ok := covered[o.ClassID]; !ok {
					continue
				}
				if ty := f.TypeOf(o); ty == nil || ty.Tree == nil || ty.ScriptTypeIndex >= 0 {
					continue
				}
				a, errA := f.Decode(o)
				b, errB := g.Decode(&g.Objects[j])
				var te *typetree.TrailingError
				if errA != nil && !errors.As(errA, &te) {
					t.Errorf("%s %s %d: embedded: %v", p, f.Name, o.PathID, errA)
					continue
				}
				if errB != nil && !errors.As(errB, &te) {
					t.Errorf("%s %s %d (class %d, version %s %s): builtin: %v", p, f.Name, o.PathID, o.ClassID, g.Version, g.VersionNote, errB)
					continue
				}
				var ja, jb bytes.Buffer
				typetree.WriteJSON(&ja, a)
				typetree.WriteJSON(&jb, b)
				if !bytes.Equal(ja.Bytes(), jb.Bytes()) {
					t.Errorf("%s %s %d (class %d): built-in decode differs from embedded", p, f.Name, o.PathID, o.ClassID)
				}
				compared++
			}
		}
		emb.Close()
		blt.Close()
	}
	t.Logf("%d objects of %d files decoded equal both ways", compared, len(files))
	if compared < 1000 {
		t.Fatalf("only %d objects compared", compared)
	}
}
