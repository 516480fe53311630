package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// A write that fails leaves neither the file nor a temporary one; one that
// succeeds replaces the file whole.
func TestWriteLeavesACompleteFileOrNone(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "out.glb")
	if err := os.WriteFile(name, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := Write(name, func(w io.Writer) error {
		io.WriteString(w, "partial")
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("err %v, want boom", err)
	}
	if b, _ := os.ReadFile(name); string(b) != "old" {
		t.Errorf("a failed write changed the file to %q", b)
	}
	if err := Write(name, func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(name); string(b) != "new" {
		t.Errorf("file %q, want new", b)
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if IsTemp(e.Name()) || e.Name() != "out.glb" {
			t.Errorf("left %s", e.Name())
		}
	}
	if !IsTemp(".out.glb.123" + suffix) {
		t.Error("IsTemp does not know Write's temporary names")
	}
}
