package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// When no file given opens, `clips` prints the errors and nothing on
// stdout: a header over no rows would read as files without clips.
func TestClipsPrintsOnlyTheErrorsWhenNoFileOpens(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing")
	for _, args := range [][]string{
		{"clips", missing},
		{"clips", missing, empty},
		{"clips", "--json", missing, empty},
	} {
		out, stderr, code := runCLI(args...)
		if code != exitFailed {
			t.Errorf("%v: exit %d, want %d", args, code, exitFailed)
		}
		if out != "" {
			t.Errorf("%v: stdout %q, want nothing", args, out)
		}
		for _, f := range args[1:] {
			if f != "--json" && !strings.Contains(stderr, f) {
				t.Errorf("%v: stderr does not name %s: %q", args, f, stderr)
			}
		}
	}
}
