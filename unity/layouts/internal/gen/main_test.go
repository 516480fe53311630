package main

import (
	"bytes"
	"compress/flate"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestCommittedTableIsCurrent checks that ../../layouts.bin is what the
// generator makes from the shared dump today (compared inflated, since flate's
// output may differ between Go releases).
func TestCommittedTableIsCurrent(t *testing.T) {
	in := filepath.Join("..", "..", "..", "..", "..", "shared", "typetrees", "layouts-dedup.json.gz")
	if _, err := os.Stat(in); err != nil {
		t.Skipf("layout dump not present (%v): cannot check the committed table", err)
	}
	d, err := readDump(in)
	if err != nil {
		t.Fatal(err)
	}
	want, err := encode(d)
	if err != nil {
		t.Fatal(err)
	}
	z, err := os.ReadFile(filepath.Join("..", "..", "layouts.bin"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(flate.NewReader(bytes.NewReader(z)))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("layouts.bin (%d bytes inflated) is stale: the generator makes %d bytes; run go generate ./unity/layouts", len(got), len(want))
	}
}
