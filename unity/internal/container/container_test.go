package container

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestOverlapFindsTheFirstOverlappingPairInOffsetOrder(t *testing.T) {
	type r struct{ off, size int64 }
	for _, tc := range []struct {
		name       string
		ranges     []r
		prev, next int
		ok         bool
	}{
		{"none", nil, -1, -1, false},
		{"back to back", []r{{0, 10}, {10, 5}, {15, 1}}, -1, -1, false},
		{"listed out of order", []r{{20, 5}, {0, 10}, {10, 10}}, -1, -1, false},
		{"empty ranges never overlap", []r{{0, 10}, {5, 0}, {10, 0}}, -1, -1, false},
		{"second starts inside first", []r{{0, 10}, {9, 5}}, 0, 1, true},
		{"found in offset order", []r{{30, 10}, {0, 10}, {35, 1}, {5, 1}}, 1, 3, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			prev, next, ok := Overlap(len(tc.ranges), func(i int) (int64, int64) { return tc.ranges[i].off, tc.ranges[i].size })
			if prev != tc.prev || next != tc.next || ok != tc.ok {
				t.Fatalf("Overlap = %d, %d, %v; want %d, %d, %v", prev, next, ok, tc.prev, tc.next, tc.ok)
			}
		})
	}
}

func TestReadFullTreatsAShortReadAsUnexpectedEOF(t *testing.T) {
	r := bytes.NewReader([]byte("abcdef"))
	for _, tc := range []struct {
		name string
		n    int
		off  int64
		want error
	}{
		{"inside", 3, 1, nil},
		{"up to the end", 2, 4, nil},
		{"past the end", 4, 4, io.ErrUnexpectedEOF},
		{"at the end", 1, 6, io.ErrUnexpectedEOF},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := ReadFull(r, make([]byte, tc.n), tc.off); err != tc.want {
				t.Fatalf("ReadFull = %v, want %v", err, tc.want)
			}
		})
	}
}

func TestOpenFileNamesTheFileInOpenErrorsAndClosesIt(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "x.bin")
	if err := os.WriteFile(name, []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := errors.New("bad header")
	var kept io.ReaderAt
	_, f, err := OpenFile(name, func(r io.ReaderAt, size int64) (int, error) {
		kept = r
		return 0, bad
	})
	if f != nil || !errors.Is(err, bad) || err.Error() != name+": bad header" {
		t.Fatalf("OpenFile = %v, %v; want nil, %q", f, err, name+": bad header")
	}
	if _, err := kept.ReadAt(make([]byte, 1), 0); err == nil {
		t.Fatal("the file was left open after open failed")
	}

	size, f, err := OpenFile(name, func(r io.ReaderAt, size int64) (int64, error) { return size, nil })
	if err != nil || size != 5 {
		t.Fatalf("OpenFile = %d, %v; want 5, nil", size, err)
	}
	f.Close()

	if _, _, err := OpenFile(filepath.Join(dir, "missing"), func(io.ReaderAt, int64) (int, error) { return 0, nil }); !errors.Is(err, fs.ErrNotExist) || strings.Count(err.Error(), "missing") != 1 {
		t.Fatalf("missing file: %v", err)
	}
}
