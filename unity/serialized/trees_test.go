package serialized

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// TestFilesOpenedWithOneTreesShareTheirTypeTrees: files whose types carry
// the same tree hold one tree and one compiled layout between them, and
// decode as they do alone; trees that differ in any byte, or in byte
// order, stay apart.
func TestFilesOpenedWithOneTreesShareTheirTypeTrees(t *testing.T) {
	for _, v := range []uint32{12, 17, 19, 22} {
		t.Run(fmt.Sprint(v), func(t *testing.T) {
			little, big := buildFile(v, false), buildFile(v, true)
			shared := NewTrees()
			open := func(b []byte, name string, trees *Trees) *File {
				t.Helper()
				f, err := OpenWith(bytes.NewReader(b), int64(len(b)), name, Options{Trees: trees})
				if err != nil {
					t.Fatal(err)
				}
				return f
			}
			a, b := open(little, "a.assets", shared), open(little, "b.assets", shared)
			if a.Types[0].Tree != b.Types[0].Tree {
				t.Error("two files with the same tree hold two trees")
			}
			la, err := a.Layout(&a.Types[0])
			if err != nil {
				t.Fatal(err)
			}
			if lb, _ := b.Layout(&b.Types[0]); la != lb {
				t.Error("the shared tree was compiled twice")
			}
			if c := open(big, "c.assets", shared); c.Types[0].Tree == a.Types[0].Tree {
				t.Error("a big-endian file took a little-endian file's tree")
			}
			if n := shared.Len(); n != 2 {
				t.Errorf("Len = %d, want 2 (one per byte order)", n)
			}
			alone := open(little, "alone.assets", nil)
			if alone.Types[0].Tree == a.Types[0].Tree {
				t.Error("a file opened without Trees shares a tree")
			}
			for i := range alone.Objects {
				want, err := alone.Decode(&alone.Objects[i])
				if err != nil {
					t.Fatal(err)
				}
				got, err := b.Decode(&b.Objects[i])
				if err != nil {
					t.Fatal(err)
				}
				if g, w := strings.Join(render(got), "\n"), strings.Join(render(want), "\n"); g != w || g == "" {
					t.Errorf("object %d decodes to\n%s\nshared, to\n%s\nalone", i, g, w)
				}
			}
		})
	}
}
