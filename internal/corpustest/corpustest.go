// Package corpustest locates the shared corpus of real Unity files for tests.
// The corpus is never copied into this repository: it lives beside the
// checkout (../shared/corpus) or wherever MECANIM_CORPUS points.
package corpustest

import (
	"os"
	"path/filepath"
	"testing"
)

// Dir returns the corpus directory, or skips the test (saying why) when it is
// absent. When MECANIM_CORPUS is set (as .ci/run does) a missing corpus fails
// the test instead of skipping it.
func Dir(tb testing.TB) string {
	tb.Helper()
	if d := os.Getenv("MECANIM_CORPUS"); d != "" {
		abs, err := filepath.Abs(d)
		if err == nil {
			if st, err := os.Stat(abs); err == nil && st.IsDir() {
				return abs
			}
		}
		tb.Fatalf("MECANIM_CORPUS=%q is not a directory", d)
	}
	if d, ok := find(); ok {
		return d
	}
	tb.Skip("corpus not found: set MECANIM_CORPUS or place it at ../shared/corpus beside the checkout")
	return ""
}

// Path returns the absolute path of a file inside the corpus (skipping as Dir does).
func Path(tb testing.TB, rel string) string {
	tb.Helper()
	return filepath.Join(Dir(tb), filepath.FromSlash(rel))
}

// Lookup returns the corpus directory without a testing.TB (for fuzz seeding
// and benchmarks' setup); ok is false when it cannot be found.
func Lookup() (string, bool) {
	if d := os.Getenv("MECANIM_CORPUS"); d != "" {
		if abs, err := filepath.Abs(d); err == nil {
			return abs, true
		}
	}
	return find()
}

// find walks up from the working directory looking for a go.mod, then checks
// ../shared/corpus beside that module root.
func find() (string, bool) {
	wd, err := os.Getwd()
	if err != nil {
		return "", false
	}
	for dir := wd; ; {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			c := filepath.Join(dir, "..", "shared", "corpus")
			if st, err := os.Stat(c); err == nil && st.IsDir() {
				abs, _ := filepath.Abs(c)
				return abs, true
			}
			return "", false
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}
