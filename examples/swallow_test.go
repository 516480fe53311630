package examples

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"strings"
	"testing"
)

// No example drops an error: what readers copy must show what to do when
// a file does not open or an object does not decode. Every example file's
// assignments are type-checked, and a blank identifier (or a missing
// assignment) where a call returns an error or a list of errors fails.
func TestExamplesDropNoErrors(t *testing.T) {
	files, err := filepath.Glob("../*/example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	more, _ := filepath.Glob("../*/*/example_test.go")
	files = append(files, more...)
	if len(files) < 10 {
		t.Fatalf("%d example files", len(files))
	}
	errType := types.Universe.Lookup("error").Type()
	isErr := func(t types.Type) bool {
		if types.Identical(t, errType) {
			return true
		}
		s, ok := t.(*types.Slice)
		return ok && types.Identical(s.Elem(), errType)
	}
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "source", nil)
	for _, f := range files {
		af, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		// Type-check the file alone; it may use helpers of other files of
		// its package, whose errors are ignored.
		info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}}
		conf := types.Config{Importer: imp, Error: func(error) {}}
		conf.Check(af.Name.Name, fset, []*ast.File{af}, info)
		ast.Inspect(af, func(n ast.Node) bool {
			switch s := n.(type) {
			case *ast.AssignStmt:
				if len(s.Rhs) != 1 {
					return true
				}
				tv, ok := info.Types[s.Rhs[0]]
				if !ok {
					return true
				}
				tuple, ok := tv.Type.(*types.Tuple)
				if !ok {
					return true
				}
				for i, l := range s.Lhs {
					if id, ok := l.(*ast.Ident); ok && id.Name == "_" && i < tuple.Len() && isErr(tuple.At(i).Type()) {
						t.Errorf("%s: an error is dropped", fset.Position(s.Pos()))
					}
				}
			case *ast.ExprStmt:
				if call, ok := s.X.(*ast.CallExpr); ok {
					if tv, ok := info.Types[call]; ok && tv.Type != nil {
						res := tv.Type
						if tu, ok := res.(*types.Tuple); ok && tu.Len() > 0 {
							res = tu.At(tu.Len() - 1).Type()
						}
						name := types.ExprString(call.Fun)
						if isErr(res) && !strings.HasPrefix(name, "fmt.") && !strings.HasSuffix(name, ".Close") {
							t.Errorf("%s: the error of %s is dropped", fset.Position(s.Pos()), name)
						}
					}
				}
			}
			return true
		})
	}
}
