package archtest

import (
	"go/build"
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
		{"geom", []string{"model", "unity", "decode", "anim", "humanoid", "animator", "export", "present", "cmd"}},
		{"model", []string{"unity", "decode", "anim", "humanoid", "animator", "export", "present", "cmd"}},
		{"unity/assets", []string{"decode", "anim", "humanoid", "animator", "export", "present", "cmd"}},
		{"decode/compiled", []string{"anim", "humanoid", "animator", "export", "present", "cmd"}},
		{"decode/yamlasset", []string{"unity", "anim", "humanoid", "animator", "export", "present", "cmd"}},
		{"anim", []string{"unity", "decode", "humanoid", "animator", "export", "present", "cmd"}},
		{"humanoid", []string{"unity", "decode", "animator", "export", "present", "cmd"}},
		{"humanoid/avatarbuild", []string{"unity", "decode", "animator", "export", "present", "cmd"}},
		{"animator", []string{"unity", "decode", "export", "present", "cmd"}},
		{"unity/binread", []string{"unity/typetree", "unity/serialized", "unity/unityfs", "unity/webdata", "unity/assets", "model", "decode", "anim", "humanoid", "animator", "export", "present", "cmd"}},
		{"unity/typetree", []string{"unity/serialized", "unity/unityfs", "unity/webdata", "unity/assets", "model", "decode", "anim", "humanoid", "animator", "export", "present", "cmd"}},
		{"unity/serialized", []string{"unity/unityfs", "unity/webdata", "unity/assets", "model", "decode", "anim", "humanoid", "animator", "export", "present", "cmd"}},
		{"unity/unityfs", []string{"unity/serialized", "unity/assets", "model", "decode", "anim", "humanoid", "animator", "export", "present", "cmd"}},
		{"decode/catalog", []string{"anim", "humanoid", "animator", "export", "present", "cmd"}},
		{"decode/mesh", []string{"anim", "humanoid", "animator", "export", "present", "cmd"}},
		{"export/gltf", []string{"present", "cmd"}},
		{"present/playable", []string{"export", "cmd"}},
		{"present/render", []string{"export", "cmd"}},
		{"present/view", []string{"export", "cmd"}},
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
