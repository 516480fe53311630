package examples

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// exampleFiles are the compiled examples docs/server.md cuts its snippets
// from.
var exampleFiles = []string{
	"../bind/example_test.go", "../anim/example_test.go", "../animator/example_test.go",
	"../decode/catalog/example_test.go", "../humanoid/example_test.go", "server/server.go",
}

// codeLine is a line of Go as the guide and the examples are compared: its
// end-of-line comment and surrounding space removed.
func codeLine(l string) string {
	if i := strings.Index(l, " //"); i >= 0 {
		l = l[:i]
	}
	return strings.TrimSpace(l)
}

// Every line of every Go snippet of docs/server.md is a line of one of the
// examples go test compiles (and runs), so the guide's code compiles
// against the API it describes: a snippet written by hand (a poser.Pose
// on a HumanPoser, a function that is gone) fails here.
func TestServerGuideSnippetsAreCutFromCompiledExamples(t *testing.T) {
	have := map[string]bool{}
	for _, f := range exampleFiles {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(string(b), "\n") {
			have[codeLine(l)] = true
		}
	}
	guide, err := os.ReadFile(filepath.Join("..", "docs", "server.md"))
	if err != nil {
		t.Fatal(err)
	}
	snippets, lines := 0, 0
	parts := strings.Split(string(guide), "```")
	for i := 1; i < len(parts); i += 2 {
		body, ok := strings.CutPrefix(parts[i], "go\n")
		if !ok {
			continue
		}
		snippets++
		for _, l := range strings.Split(body, "\n") {
			c := codeLine(l)
			if c == "" || c == "..." {
				continue
			}
			lines++
			if !have[c] {
				t.Errorf("docs/server.md: %q is in no compiled example", c)
			}
		}
	}
	if snippets < 6 || lines < 40 {
		t.Errorf("%d snippets, %d lines checked", snippets, lines)
	}
}
