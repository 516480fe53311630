package filepool

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// writeFiles writes n files of distinct contents and returns their names
// and contents.
func writeFiles(t *testing.T, n int) ([]string, [][]byte) {
	t.Helper()
	dir := t.TempDir()
	names := make([]string, n)
	data := make([][]byte, n)
	for i := range n {
		data[i] = bytes.Repeat([]byte(fmt.Sprintf("file %04d;", i)), 50+i)
		names[i] = filepath.Join(dir, fmt.Sprintf("f%d.bin", i))
		if err := os.WriteFile(names[i], data[i], 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return names, data
}

func TestManyFilesAreReadThroughFewDescriptors(t *testing.T) {
	for _, max := range []int{1, 2, 7} {
		t.Run(fmt.Sprint("max ", max), func(t *testing.T) {
			names, data := writeFiles(t, 40)
			p := New(max)
			files := make([]*File, len(names))
			for i, n := range names {
				f, err := p.Open(n)
				if err != nil {
					t.Fatal(err)
				}
				files[i] = f
				if d := p.Descriptors(); d > max {
					t.Fatalf("%d descriptors open after opening %d files, max %d", d, i+1, max)
				}
			}
			// Read them round and round: every read reopens what was given up.
			for round := range 3 {
				for i, f := range files {
					off := int64(round*7+i) % f.Size()
					b := make([]byte, min(64, f.Size()-off))
					if _, err := f.ReadAt(b, off); err != nil {
						t.Fatalf("%s: %v", f.Name(), err)
					}
					if !bytes.Equal(b, data[i][off:off+int64(len(b))]) {
						t.Fatalf("%s at %d: read %q", f.Name(), off, b)
					}
					if d := p.Descriptors(); d > max {
						t.Fatalf("%d descriptors open, max %d", d, max)
					}
				}
			}
			for _, f := range files {
				if err := f.Close(); err != nil {
					t.Fatal(err)
				}
			}
			if d := p.Descriptors(); d != 0 {
				t.Errorf("%d descriptors left open after every file was closed", d)
			}
		})
	}
}

func TestConcurrentReadersShareThePool(t *testing.T) {
	names, data := writeFiles(t, 30)
	p := New(3)
	files := make([]*File, len(names))
	for i, n := range names {
		f, err := p.Open(n)
		if err != nil {
			t.Fatal(err)
		}
		files[i] = f
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 300 {
				i := (g*31 + k*7) % len(files)
				f := files[i]
				b := make([]byte, 10)
				off := int64(k) % (f.Size() - 10)
				if _, err := f.ReadAt(b, off); err != nil {
					errs <- err
					return
				}
				if !bytes.Equal(b, data[i][off:off+10]) {
					errs <- fmt.Errorf("%s at %d: read %q", f.Name(), off, b)
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
	// Idle descriptors are back under the max once nobody reads.
	if d := p.Descriptors(); d > 3 {
		t.Errorf("%d descriptors open with no read in progress, max 3", d)
	}
	for _, f := range files {
		f.Close()
	}
	if d := p.Descriptors(); d != 0 {
		t.Errorf("%d descriptors left open after every file was closed", d)
	}
}

// A file reopened must be the one first opened: a rewritten, replaced or
// removed file is an error naming it, never another file's bytes.
func TestAChangedFileIsAnErrorNotOtherBytes(t *testing.T) {
	cases := []struct {
		name    string
		change  func(t *testing.T, path string)
		changed bool // ErrChanged; otherwise the open error
	}{
		{"rewritten with other bytes of the same size", func(t *testing.T, path string) {
			b, _ := os.ReadFile(path)
			later := time.Now().Add(time.Hour)
			if err := os.WriteFile(path, bytes.ToUpper(b), 0o644); err != nil {
				t.Fatal(err)
			}
			os.Chtimes(path, later, later)
		}, true},
		{"truncated", func(t *testing.T, path string) {
			if err := os.Truncate(path, 10); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"replaced by another file", func(t *testing.T, path string) {
			b, _ := os.ReadFile(path)
			st, _ := os.Stat(path)
			tmp := path + ".new"
			os.WriteFile(tmp, b, 0o644)
			os.Chtimes(tmp, st.ModTime(), st.ModTime())
			if err := os.Rename(tmp, path); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"removed", func(t *testing.T, path string) {
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
		}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			names, _ := writeFiles(t, 2)
			p := New(1)
			a, err := p.Open(names[0])
			if err != nil {
				t.Fatal(err)
			}
			defer a.Close()
			b, err := p.Open(names[1]) // takes a's descriptor
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			tc.change(t, names[0])
			_, err = a.ReadAt(make([]byte, 4), 0)
			if err == nil {
				t.Fatal("read a changed file without an error")
			}
			if errors.Is(err, ErrChanged) != tc.changed {
				t.Errorf("errors.Is(err, ErrChanged) = %v: %v", !tc.changed, err)
			}
			if !strings.Contains(err.Error(), names[0]) {
				t.Errorf("the error does not name the file: %v", err)
			}
		})
	}
}

func TestReadsAfterCloseFail(t *testing.T) {
	names, _ := writeFiles(t, 1)
	p := New(0)
	f, err := p.Open(names[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := f.ReadAt(make([]byte, 4), 0); !errors.Is(err, ErrClosed) {
		t.Errorf("read after Close: %v", err)
	}
	if err := f.Close(); !errors.Is(err, ErrClosed) {
		t.Errorf("second Close: %v", err)
	}
	if _, err := p.Open(filepath.Join(filepath.Dir(names[0]), "absent")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("opening a missing file: %v", err)
	}
}

func TestTheDefaultLeavesMostOfALowLimitFree(t *testing.T) {
	for _, tc := range []struct {
		limit uint64
		want  int
	}{
		{0, DefaultMaxOpen}, {1 << 20, DefaultMaxOpen}, {1024, DefaultMaxOpen}, {1000, 250}, {256, 64}, {24, 6}, {8, minMaxOpen},
	} {
		if got := defaultMax(tc.limit); got != tc.want {
			t.Errorf("limit %d: %d descriptors, want %d", tc.limit, got, tc.want)
		}
	}
	if New(0).Max() > DefaultMaxOpen {
		t.Errorf("New(0) keeps %d descriptors, over %d", New(0).Max(), DefaultMaxOpen)
	}
}
