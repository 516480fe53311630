package archtest

import (
	"go/build"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
)

const module = "github.com/mecanim/mecanim/"

// deps returns the module packages pkg imports, directly or not (test files
// excluded).
func deps(t *testing.T, root, pkg string) []string {
	seen := map[string]bool{}
	var walk func(p string)
	walk = func(p string) {
		dir := filepath.Join(root, strings.TrimPrefix(p, module))
		bp, err := build.ImportDir(dir, 0)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		for _, imp := range bp.Imports {
			if strings.HasPrefix(imp, module) && !seen[imp] {
				seen[imp] = true
				walk(imp)
			}
		}
	}
	walk(module + pkg)
	var out []string
	for p := range seen {
		out = append(out, strings.TrimPrefix(p, module))
	}
	sort.Strings(out)
	return out
}

func TestEachStageImportsOnlyTheStagesBeforeIt(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	cases := []struct {
		pkg       string
		forbidden []string // prefixes
	}{
		{"geom", []string{"model", "unity", "decode", "bind", "bound", "anim", "humanoid", "animator", "export", "present", "cmd"}},
		{"model", []string{"unity", "decode", "bind", "bound", "anim", "humanoid", "animator", "export", "present", "cmd"}},
		{"unity/binread", []string{"unity/typetree", "unity/serialized", "unity/unityfs", "unity/webdata", "unity/assets", "unity/layouts", "model", "decode", "bind", "bound", "anim", "humanoid", "animator", "export", "present", "cmd"}},
		{"unity/typetree", []string{"unity/serialized", "unity/unityfs", "unity/webdata", "unity/assets", "unity/layouts", "model", "decode", "bind", "bound", "anim", "humanoid", "animator", "export", "present", "cmd"}},
		{"unity/layouts", []string{"unity/serialized", "unity/unityfs", "unity/webdata", "unity/assets", "model", "decode", "bind", "bound", "anim", "humanoid", "animator", "export", "present", "cmd"}},
		{"unity/serialized", []string{"unity/unityfs", "unity/webdata", "unity/assets", "model", "decode", "bind", "bound", "anim", "humanoid", "animator", "export", "present", "cmd"}},
		{"unity/unityfs", []string{"unity/serialized", "unity/webdata", "unity/assets", "model", "decode", "bind", "bound", "anim", "humanoid", "animator", "export", "present", "cmd"}},
		{"unity/webdata", []string{"unity/serialized", "unity/unityfs", "unity/assets", "model", "decode", "bind", "bound", "anim", "humanoid", "animator", "export", "present", "cmd"}},
		{"unity/assets", []string{"model", "decode", "bind", "bound", "anim", "humanoid", "animator", "export", "present", "cmd"}},
		{"unity/unitywrite", []string{"unity/assets", "unity/serialized", "unity/unityfs", "unity/webdata", "model", "decode", "bind", "bound", "anim", "humanoid", "animator", "export", "present", "cmd"}},
		{"decode/compiled", []string{"bind", "bound", "anim", "humanoid", "animator", "export", "present", "cmd"}},
		{"decode/yamlasset", []string{"unity", "bind", "bound", "anim", "humanoid", "animator", "export", "present", "cmd"}},
		{"decode/catalog", []string{"bind", "bound", "anim", "humanoid", "animator", "export", "present", "cmd"}},
		{"decode/mesh", []string{"bind", "bound", "anim", "humanoid", "animator", "export", "present", "cmd"}},
		{"anim", []string{"unity", "decode", "bind", "bound", "humanoid", "animator", "export", "present", "cmd"}},
		{"humanoid", []string{"unity", "decode", "bind", "bound", "animator", "export", "present", "cmd"}},
		{"animator", []string{"unity", "decode", "bind", "bound", "export", "present", "cmd"}},
		{"bound", []string{"unity", "decode", "bind", "export", "present", "cmd"}},
		{"bind", []string{"export", "present", "cmd"}},
		{"export/gltf", []string{"unity", "decode", "bind", "present", "cmd"}},
		{"present/playscript", []string{"unity", "decode", "bind", "export", "cmd"}},
		{"present/render", []string{"unity", "decode", "bind", "export", "cmd"}},
		{"present/view", []string{"unity", "decode", "bind", "export", "cmd"}},
		{"decode/gltfchar", []string{"unity", "bind", "bound", "anim", "humanoid", "animator", "export", "present", "cmd"}},
		{"humanoid/avatarbuild", []string{"unity", "decode", "bind", "bound", "animator", "export", "present", "cmd"}},
		// extract is an application, as the command line is: it opens the
		// files itself (on all cores, one catalog) and writes through the
		// presenters; nothing below imports it.
		{"extract", []string{"cmd", "present/view"}},
	}
	for _, c := range cases {
		for _, d := range deps(t, root, c.pkg) {
			for _, f := range c.forbidden {
				if d == f || strings.HasPrefix(d, f+"/") {
					t.Errorf("%s imports %s (a later stage or a file reader)", c.pkg, d)
				}
			}
		}
	}
}

// TestPicturesAndExportLinkNoReader is the check as a user runs
// it: `go list -deps ./present/render ./export/gltf` names no unity/
// package (drawing a pose or writing a file links no Unity reader).
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
