package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The library's messages name no option of this command line: a library
// error is read by programs that have other options, or none (a
// selection error says what to choose; the command line says with which
// option). Every string literal of the library's non-test sources is
// checked against every option the commands take.
func TestLibraryMessagesNameNoCommandLineOption(t *testing.T) {
	options := map[string]bool{}
	opt := regexp.MustCompile(`(?m)^  --([a-z][a-z-]*)`)
	for _, c := range commands() {
		help, _, _ := runCLI(c.name, "-h")
		for _, m := range opt.FindAllStringSubmatch(help, -1) {
			options[m[1]] = true
		}
	}
	if !options["avatar"] || !options["unity-version"] || !options["human-map"] {
		t.Fatalf("options read from the help: %v", options)
	}
	// present/view is the viewer's: its page tells the person who started
	// `mecanim view` how to serve other host names (its owner's to move).
	known := map[string]string{"present/view/server.go": "public"}
	fset := token.NewFileSet()
	checked := 0
	err := filepath.WalkDir("../..", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel("../..", p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == "cmd" || rel == "internal" || rel == "examples" || strings.HasPrefix(rel, ".") && rel != "." || d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			return err
		}
		checked++
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			for _, m := range regexp.MustCompile(`--([a-z][a-z-]*)`).FindAllStringSubmatch(lit.Value, -1) {
				if options[m[1]] && known[rel] != m[1] {
					t.Errorf("%s: %s names the command line's --%s", fset.Position(lit.Pos()), lit.Value, m[1])
				}
			}
			return true
		})
		return nil
	})
	if err != nil || checked < 50 {
		t.Fatalf("%d files checked: %v", checked, err)
	}
}
