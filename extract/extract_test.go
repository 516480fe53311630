package extract_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	qg "github.com/qmuntal/gltf"

	"github.com/mecanim/mecanim/extract"
)

// validator returns the node_modules folder holding the Khronos glTF
// validator, or "" (then outputs are only read back).
func validator(t *testing.T) string {
	t.Helper()
	var dirs []string
	if d := os.Getenv("GLTF_VALIDATOR_DIR"); d != "" {
		dirs = append(dirs, filepath.Join(d, "node_modules"), d)
	}
	dirs = append(dirs, "/tmp/node_modules", "/tmp/mecanim-tools/node_modules")
	if _, err := exec.LookPath("node"); err == nil {
		for _, d := range dirs {
			if _, err := os.Stat(filepath.Join(d, "gltf-validator", "package.json")); err == nil {
				return d
			}
		}
	}
	if os.Getenv("MECANIM_REQUIRE_GLTF_VALIDATOR") == "1" {
		t.Fatal("glTF validator required (MECANIM_REQUIRE_GLTF_VALIDATOR=1) but not found")
	}
	t.Log("glTF validator not available: outputs are only read back")
	return ""
}

// checkOutput reads a .glb back, checks it has the animations named, and
// validates it when the validator is there.
func checkOutput(t *testing.T, mods, path string, animations []string) {
	t.Helper()
	doc, err := qg.Open(path)
	if err != nil {
		t.Fatalf("reading %s back: %v", path, err)
	}
	var have []string
	for _, a := range doc.Animations {
		have = append(have, a.Name)
	}
	for _, a := range animations {
		if !slices.Contains(have, a) {
			t.Errorf("%s: no animation %q (have %v)", filepath.Base(path), a, have)
		}
	}
	if mods == "" {
		return
	}
	cmd := exec.Command("node", filepath.Join("..", "export", "gltf", "testdata", "validate.js"), path)
	cmd.Env = append(os.Environ(), "NODE_PATH="+mods)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("validator on %s: %v", path, err)
	}
	var issues struct {
		NumErrors int `json:"numErrors"`
		Messages  []struct {
			Code, Message, Pointer string
			Severity               int
		} `json:"messages"`
	}
	if err := json.Unmarshal(out, &issues); err != nil {
		t.Fatal(err)
	}
	for _, m := range issues.Messages {
		if m.Severity == 0 {
			t.Errorf("%s: %s at %s: %s", filepath.Base(path), m.Code, m.Pointer, m.Message)
		}
	}
}

// checkComplete checks a manifest against what was asked: every character
// written, every clip in an output or skipped with a reason, every output
// there and valid.
func checkComplete(t *testing.T, mods, out string, m *extract.Manifest) {
	t.Helper()
	checkManifestSchema(t, filepath.Join(out, "manifest.json"))
	for _, c := range m.Characters {
		if c.Output == "" {
			t.Errorf("character %q (%s): no output: %s", c.Name, c.Source.Ref, c.Error)
			continue
		}
		var clips []string
		for _, u := range c.Clips {
			clips = append(clips, u.Name)
		}
		checkOutput(t, mods, filepath.Join(out, c.Output), clips)
	}
	for _, c := range m.Clips {
		if len(c.Outputs) == 0 && c.Skipped == "" {
			t.Errorf("clip %q (%s in %s): in no output, and no reason given", c.Name, c.Source.Ref, c.Source.Container)
		}
		if c.Source.Container == "" || c.Source.Ref == "" {
			t.Errorf("clip %q: no source: %+v", c.Name, c.Source)
		}
	}
	for _, o := range m.Outputs {
		if _, err := os.Stat(filepath.Join(out, o.Path)); err != nil {
			t.Errorf("output %s listed but missing: %v", o.Path, err)
		}
	}
	left, _ := filepath.Glob(filepath.Join(out, ".*mecanim-tmp"))
	if len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

func names[T any](xs []T, name func(T) string) []string {
	var out []string
	for _, x := range xs {
		out = append(out, name(x))
	}
	sort.Strings(out)
	return out
}

func TestSyntheticGameExtractsCompletely(t *testing.T) {
	g := writeGame(t)
	mods := validator(t)
	out := filepath.Join(t.TempDir(), "out")
	var mu sync.Mutex
	var outputs []*extract.Output
	m, err := extract.Extract(context.Background(), []string{g.dir}, extract.Options{Out: out, Workers: 2,
		OnOutput: func(o *extract.Output) {
			mu.Lock()
			defer mu.Unlock()
			if o.Character == nil || o.Err != nil || o.UpToDate {
				t.Errorf("first run: output %s: character %v, err %v, up to date %v", o.Path, o.Character != nil, o.Err, o.UpToDate)
			}
			outputs = append(outputs, o)
		}})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Failed) > 0 {
		t.Errorf("failures: %+v", m.Failed)
	}
	want := append([]string(nil), g.characters...)
	sort.Strings(want)
	if got := names(m.Characters, func(c extract.Character) string { return c.Name }); !slices.Equal(got, want) {
		t.Errorf("characters %v, want %v", got, want)
	}
	want = append([]string(nil), g.clips...)
	sort.Strings(want)
	if got := names(m.Clips, func(c extract.Clip) string { return c.Name }); !slices.Equal(got, want) {
		t.Errorf("clips %v, want %v", got, want)
	}
	for _, c := range m.Clips {
		if len(c.Outputs) == 0 {
			t.Errorf("clip %q: not exported: %s", c.Name, c.Skipped)
		}
	}
	// Hero (level0) plays the controller of the split sharedassets file;
	// Knight plays the controller of the bundle it depends on.
	for _, c := range m.Characters {
		var clips []string
		for _, u := range c.Clips {
			clips = append(clips, u.Name+":"+u.Why)
		}
		sort.Strings(clips)
		switch c.Name {
		case "Hero", "Synth":
			if !slices.Equal(clips, []string{"Idle:controller", "Walk:controller"}) {
				t.Errorf("%s: clips %v", c.Name, clips)
			}
		case "Knight", "Dummy":
			if !slices.Equal(clips, []string{"KnightIdle:controller", "KnightWalk:controller"}) {
				t.Errorf("%s: clips %v", c.Name, clips)
			}
		}
	}
	kinds := map[string]int{}
	for _, in := range m.Inputs {
		kinds[in.Kind]++
	}
	if kinds["gzip WebGL data (UnityWebData)"] != 1 || kinds["brotli WebGL data (UnityWebData)"] != 1 || kinds["split SerializedFile (SerializedFile)"] != 1 || kinds["UnityFS"] != 2 || kinds["SerializedFile"] != 1 {
		t.Errorf("inputs by kind: %v", kinds)
	}
	if len(m.Ignored) != 1 || !strings.HasSuffix(m.Ignored[0].Path, ".dll") {
		t.Errorf("ignored: %+v", m.Ignored)
	}
	if len(outputs) != len(g.characters) {
		t.Errorf("%d outputs reported, want %d", len(outputs), len(g.characters))
	}
	checkComplete(t, mods, out, m)
	first, err := os.ReadFile(filepath.Join(out, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}

	// A second run writes nothing and gives the same manifest.
	stamps := modTimes(t, out)
	n := 0
	m2, err := extract.Extract(context.Background(), []string{g.dir}, extract.Options{Out: out, Workers: 2,
		OnOutput: func(o *extract.Output) {
			n++
			if !o.UpToDate {
				t.Errorf("second run: %s not up to date", o.Path)
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	second, _ := os.ReadFile(filepath.Join(out, "manifest.json"))
	if !bytes.Equal(first, second) || len(m2.Characters) != len(m.Characters) || n != len(g.characters) {
		t.Errorf("second run: manifest changed (%v) or %d outputs reported", !bytes.Equal(first, second), n)
	}
	if after := modTimes(t, out); !mapsEqual(stamps, after) {
		t.Errorf("second run rewrote files")
	}

	// A changed input redoes what it feeds, and only that.
	touch := filepath.Join(g.dir, "Build", "web.data.gz")
	b, _ := os.ReadFile(touch)
	write(t, touch, b)
	os.Chtimes(touch, stampTime, stampTime)
	var redone []string
	if _, err := extract.Extract(context.Background(), []string{g.dir}, extract.Options{Out: out, Workers: 2,
		OnOutput: func(o *extract.Output) {
			if !o.UpToDate {
				redone = append(redone, o.Name)
			}
		}}); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(redone, []string{"GzipGuy"}) {
		t.Errorf("after touching web.data.gz, redone %v; want [GzipGuy]", redone)
	}
	third, _ := os.ReadFile(filepath.Join(out, "manifest.json"))
	if !bytes.Equal(first, third) {
		t.Error("manifest changed after redoing an output from the same bytes")
	}

	// --force redoes everything.
	redone = nil
	if _, err := extract.Extract(context.Background(), []string{g.dir}, extract.Options{Out: out, Workers: 1, Force: true,
		OnOutput: func(o *extract.Output) {
			if !o.UpToDate {
				redone = append(redone, o.Name)
			}
		}}); err != nil {
		t.Fatal(err)
	}
	if len(redone) != len(g.characters) {
		t.Errorf("--force redid %v", redone)
	}
}

func modTimes(t *testing.T, dir string) map[string]int64 {
	out := map[string]int64{}
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() && !strings.HasPrefix(fi.Name(), ".mecanim-extract") {
			out[p] = fi.ModTime().UnixNano()
		}
		return nil
	})
	return out
}

func mapsEqual(a, b map[string]int64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// stampTime is a modification time no file of a test has by chance.
var stampTime = time.Date(2031, 1, 2, 3, 4, 5, 0, time.UTC)
