package archtest

import (
	"go/build"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
)

// A stage is a group of packages and the stages they may import directly.
// Every package of the module belongs to exactly one stage: a package added
// later fails TestEveryPackageHasAStage until it is placed here, so the
// layering is an allow-list, not a list of what was thought of.
type stage struct {
	name string
	// pkgs are the stage's packages: import paths below the module,
	// "dir/..." for a folder and everything under it.
	pkgs []string
	// may names the stages whose packages these may import; a stage that
	// names itself lets its packages import one another.
	may []string
}

// stages is the pipeline (ARCHITECTURE.md), lowest first.
var stages = []stage{
	{"geometry", []string{"geom"}, nil},
	{"model", []string{"model"}, []string{"geometry"}},

	// read: bytes, then containers and serialized files, then objects.
	{"read: bytes", []string{"unity/binread", "unity/typetree", "unity/unityversion", "unity/filepool", "unity/internal/..."}, nil},
	{"read: layouts", []string{"unity/layouts/..."}, []string{"read: bytes"}},
	{"read: files", []string{"unity/unityfs", "unity/webdata", "unity/serialized", "unity/unitywrite"}, []string{"read: bytes"}},
	{"read: objects", []string{"unity/assets"}, []string{"read: bytes", "read: layouts", "read: files"}},
	// What a set of paths holds: Unity files told by their bytes, the other
	// inputs by their names.
	{"read: inputs", []string{"inputs"}, []string{"read: bytes", "read: layouts", "read: files", "read: objects", "tools"}},

	// decode: typetree values, YAML and glTF into the model.
	{"decode", []string{"decode/..."}, []string{"geometry", "model", "read: bytes", "read: layouts", "read: files", "read: objects", "decode"}},

	// runtime: never a reader.
	{"runtime: clips", []string{"anim"}, []string{"geometry", "model"}},
	{"runtime: humanoid", []string{"humanoid/..."}, []string{"geometry", "model", "runtime: clips", "runtime: humanoid"}},
	{"runtime: controllers", []string{"animator"}, []string{"geometry", "model", "runtime: clips", "runtime: humanoid"}},

	// bind decides; bound holds what it made, and links no reader.
	{"bound", []string{"bound"}, []string{"geometry", "model", "runtime: clips", "runtime: humanoid", "runtime: controllers"}},
	// boundfile saves and loads bound values (generic clips in anim's baked
	// form, humanoid clips as humanoid.Bones); it links no Unity reader.
	{"saved", []string{"boundfile"}, []string{"model", "runtime: clips", "runtime: humanoid", "bound", "tools"}},
	{"bind", []string{"bind"}, []string{"geometry", "model", "read: bytes", "read: layouts", "read: files", "read: objects", "read: inputs", "decode",
		"runtime: clips", "runtime: humanoid", "runtime: controllers", "bound", "tools"}},

	// encode: the model into Unity's compiled forms and files a game loads
	// (reading the target game's file for its version and type trees).
	{"encode", []string{"encode/..."}, []string{"geometry", "model", "read: bytes", "read: layouts", "read: files",
		"read: objects", "encode"}},

	// present and export take what bind made.
	{"present", []string{"present/...", "export/..."}, []string{"geometry", "model", "runtime: clips", "runtime: humanoid",
		"runtime: controllers", "bound", "present", "tools"}},

	// applications: flags or a whole game in, one library call each.
	{"applications", []string{"cmd/...", "extract"}, []string{"geometry", "model", "read: bytes", "read: layouts", "read: files",
		"read: objects", "read: inputs", "decode", "runtime: clips", "runtime: humanoid", "runtime: controllers", "bound", "bind", "present",
		"applications", "tools", "encode", "saved"}},

	// Small helpers with no place in the pipeline: they import none of it.
	{"tools", []string{"internal/atomicfile", "internal/samefile", "internal/fuzzcount", "internal/corpustest", "internal/archtest",
		"internal/testreport"}, nil},
	// Test inputs: synthetic Unity files, written as a game's would be.
	{"test inputs", []string{"internal/synth", "internal/corpustest/filefuzz"}, []string{"geometry", "model", "read: bytes",
		"read: layouts", "read: files", "tools", "test inputs"}},
	// The example bundle's generator and the robustness sweep use the
	// whole project, as a user's program would.
	{"programs", []string{"examples/...", "robustness/..."}, []string{"geometry", "model", "read: bytes", "read: layouts",
		"read: files", "read: objects", "read: inputs", "decode", "runtime: clips", "runtime: humanoid", "runtime: controllers", "bound", "bind",
		"present", "applications", "tools", "test inputs", "programs", "encode", "saved"}},
}

// stageOf returns the stage a package belongs to (the most specific
// pattern wins), or nil.
func stageOf(pkg string) *stage {
	var best *stage
	bestLen := -1
	for i := range stages {
		for _, p := range stages[i].pkgs {
			n := -1
			if dir, ok := strings.CutSuffix(p, "/..."); ok {
				if pkg == dir || strings.HasPrefix(pkg, dir+"/") {
					n = len(dir)
				}
			} else if pkg == p {
				n = len(p) + 1 // an exact name beats a folder
			}
			if n > bestLen {
				best, bestLen = &stages[i], n
			}
		}
	}
	return best
}

// modulePackages lists the module's packages (folders with non-test Go
// files), as paths below the module, with their direct module imports.
func modulePackages(t *testing.T) map[string][]string {
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	pkgs := map[string][]string{}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if p != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || name == "node_modules") {
			return filepath.SkipDir
		}
		if p != root {
			if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
				return filepath.SkipDir // another module (a benchmark harness)
			}
		}
		bp, err := build.ImportDir(p, 0)
		if err != nil {
			if _, ok := err.(*build.NoGoError); ok {
				return nil
			}
			t.Errorf("%s: %v", p, err)
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		var imps []string
		for _, imp := range bp.Imports {
			if s, ok := strings.CutPrefix(imp, module); ok {
				imps = append(imps, s)
			}
		}
		pkgs[rel] = imps
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) < 20 {
		t.Fatalf("found %d packages: the walk is broken", len(pkgs))
	}
	return pkgs
}

func TestEveryPackageHasAStage(t *testing.T) {
	var missing []string
	for pkg := range modulePackages(t) {
		if stageOf(pkg) == nil {
			missing = append(missing, pkg)
		}
	}
	sort.Strings(missing)
	for _, p := range missing {
		t.Errorf("package %s belongs to no stage: place it in internal/archtest's stages (and ARCHITECTURE.md)", p)
	}
}

func TestEachStageImportsOnlyTheStagesItMay(t *testing.T) {
	pkgs := modulePackages(t)
	names := make([]string, 0, len(pkgs))
	for p := range pkgs {
		names = append(names, p)
	}
	sort.Strings(names)
	for _, pkg := range names {
		from := stageOf(pkg)
		if from == nil {
			continue // TestEveryPackageHasAStage says so
		}
		for _, imp := range pkgs[pkg] {
			to := stageOf(imp)
			if to == nil {
				continue
			}
			ok := false
			for _, m := range from.may {
				if m == to.name {
					ok = true
				}
			}
			if !ok {
				t.Errorf("%s (%s) imports %s (%s), which its stage may not", pkg, from.name, imp, to.name)
			}
		}
	}
}

func TestStagesNameOnlyStagesThatExist(t *testing.T) {
	known := map[string]bool{}
	for _, s := range stages {
		if known[s.name] {
			t.Errorf("stage %q twice", s.name)
		}
		known[s.name] = true
		for _, p := range s.pkgs {
			if _, err := path.Match(p, ""); err != nil {
				t.Errorf("stage %q: pattern %q: %v", s.name, p, err)
			}
		}
	}
	for _, s := range stages {
		for _, m := range s.may {
			if !known[m] {
				t.Errorf("stage %q may import %q, which is no stage", s.name, m)
			}
		}
	}
}
