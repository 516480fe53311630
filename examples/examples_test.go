package examples

import (
	"bytes"
	"os"
	"testing"

	"github.com/mecanim/mecanim/examples/internal/hello"
)

func TestCommittedExampleMatchesItsGenerator(t *testing.T) {
	want, err := hello.HelloBundle()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("hello.bundle")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("hello.bundle is stale: run go generate ./examples")
	}
}
