package samefile

import (
	"os"
	"path/filepath"
	"testing"
)

// A copy is seen as the file it copies; a file of the same size and other
// bytes is not.
func TestSeenTellsCopiesFromFilesOfTheSameSize(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a, b, c := write("a", "hello"), write("b", "world"), write("c", "hello")
	var x Index
	for _, tc := range []struct {
		path, earlier string
		same          bool
	}{{a, "", false}, {b, "", false}, {c, a, true}, {a, a, true}} {
		fi, err := os.Stat(tc.path)
		if err != nil {
			t.Fatal(err)
		}
		if e, same := x.Seen(tc.path, fi.Size()); e != tc.earlier || same != tc.same {
			t.Errorf("Seen(%s) = %q, %v; want %q, %v", filepath.Base(tc.path), e, same, tc.earlier, tc.same)
		}
	}
}
