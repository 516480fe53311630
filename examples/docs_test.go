package examples

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// guides are the guides whose Go snippets are cut from compiled examples,
// each with the example files it cuts them from.
var guides = []struct {
	doc      string
	examples []string
}{
	{"server.md", []string{
		"../bind/example_test.go", "../anim/example_test.go", "../animator/example_test.go",
		"../decode/catalog/example_test.go", "../humanoid/example_test.go", "server/server.go",
	}},
	{"library.md", []string{
		"../unity/assets/example_test.go", "../decode/catalog/example_test.go", "../anim/example_test.go",
		"../bind/example_test.go", "../humanoid/example_test.go", "../export/gltf/example_test.go",
		"../present/render/example_test.go", "../decode/yamlasset/example_test.go",
	}},
}

// examplePath is a relative path to the example bundle, as an example
// test names it from its own folder ("../../examples/hello.bundle").
var examplePath = regexp.MustCompile(`"(\.\./)+examples/`)

// codeLine is a line of Go as the guide and the examples are compared: its
// end-of-line comment and surrounding space removed, and the example
// bundle named from the repository's root.
func codeLine(l string) string {
	if i := strings.Index(l, " //"); i >= 0 {
		l = l[:i]
	}
	return examplePath.ReplaceAllString(strings.TrimSpace(l), `"examples/`)
}

// Every line of every Go snippet of the guides is a line of one of the
// examples go test compiles (and runs), so the guides' code compiles
// against the API they describe: a snippet written by hand (a poser.Pose on
// a HumanPoser, a function that is gone) fails here.
func TestGuideSnippetsAreCutFromCompiledExamples(t *testing.T) {
	for _, g := range guides {
		t.Run(g.doc, func(t *testing.T) {
			have := map[string]bool{}
			for _, f := range g.examples {
				b, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				for _, l := range strings.Split(string(b), "\n") {
					have[codeLine(l)] = true
				}
			}
			guide, err := os.ReadFile(filepath.Join("..", "docs", g.doc))
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
						t.Errorf("docs/%s: %q is in no compiled example", g.doc, c)
					}
				}
			}
			if snippets < 4 || lines < 20 {
				t.Errorf("docs/%s: %d snippets, %d lines checked", g.doc, snippets, lines)
			}
		})
	}
}
