package yamlasset

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/internal/corpustest"
)

// corpusYAML lists the corpus's YAML assets (relative paths).
func corpusYAML(dir string) []string {
	var out []string
	filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return nil
		}
		for _, ext := range []string{".anim", ".controller", ".prefab", ".asset", ".meta", ".overrideController", ".mask", ".unity"} {
			if strings.HasSuffix(p, ext) {
				out = append(out, p)
			}
		}
		return nil
	})
	return out
}

func TestEveryCorpusYAMLFileParses(t *testing.T) {
	dir := corpustest.Dir(t)
	files := corpusYAML(dir)
	if len(files) < 30 {
		t.Fatalf("found only %d YAML files in the corpus", len(files))
	}
	for _, p := range files {
		rel, _ := filepath.Rel(dir, p)
		f, err := ParseFile(p)
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			continue
		}
		if len(f.Docs) == 0 {
			t.Errorf("%s: no documents", rel)
		}
		for _, d := range f.Docs {
			if d.Root == nil || d.Body == nil {
				t.Errorf("%s: document at line %d has no root", rel, d.Line)
			}
		}
	}
}
