package archtest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

const module = "github.com/mecanim/mecanim/"

// TestPicturesAndExportLinkNoReader is the layering checked as a user would:
// `go list -deps ./present/render ./export/gltf ./present/view` names no
// unity/ or decode/ package (drawing a pose or writing a file links no
// Unity reader).
func TestPicturesAndExportLinkNoReader(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	cmd := exec.Command("go", "list", "-deps", "./present/render", "./export/gltf", "./present/view")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		if strings.HasPrefix(p, module+"unity/") || strings.HasPrefix(p, module+"decode/") {
			t.Errorf("a picture, an export or the viewer links %s", p)
		}
	}
}

// TestApplicationsHoldNoChoosingRule: which character, avatar, controller
// and clips play is decided in bind alone, so that every command, the
// viewer and extract make the same choice. The applications ask bind
// (bind.Set's CharacterFor, Motion, BindController); none makes a bound
// value itself, which would hold a choice of its own.
func TestApplicationsHoldNoChoosingRule(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	choosers := map[string]bool{"Bind": true, "NewCharacter": true, "NewController": true}
	for _, pkg := range []string{"cmd/mecanim", "extract", "present/view"} {
		dir := filepath.Join(root, pkg)
		fset := token.NewFileSet()
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			name := e.Name()
			if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			boundName := ""
			for _, imp := range f.Imports {
				if imp.Path.Value == `"`+module+`bound"` {
					boundName = "bound"
					if imp.Name != nil {
						boundName = imp.Name.Name
					}
				}
			}
			if boundName == "" {
				continue
			}
			ast.Inspect(f, func(n ast.Node) bool {
				sel, ok := n.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == boundName && choosers[sel.Sel.Name] {
					t.Errorf("%s: %s calls bound.%s: ask bind (its choosing rule) instead", fset.Position(sel.Pos()), filepath.Base(name), sel.Sel.Name)
				}
				return true
			})
		}
	}
}
