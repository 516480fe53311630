package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	qg "github.com/qmuntal/gltf"

	"github.com/mecanim/mecanim/internal/synth"
	"github.com/mecanim/mecanim/unity/unitywrite"
)

// TestMain runs the command itself when asked (MECANIM_RUN_MAIN=1), so
// that a test can run it as a process of its own and signal it.
func TestMain(m *testing.M) {
	if os.Getenv("MECANIM_RUN_MAIN") == "1" {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// characterBundles writes n bundles into a new folder, each a character
// "HeroNNN" (the synthetic humanoid) whose controller plays its own clips
// IdleNNN and WalkNNN.
func characterBundles(t *testing.T, n int) string {
	t.Helper()
	dir := t.TempDir()
	for i := range n {
		id := fmt.Sprintf("%03d", i)
		sc := synth.NewScene(t, synth.Options{Full: true})
		sc.Obj(synth.GameObjectBase)["m_Name"] = "Hero" + id
		sc.Set(synth.ClipID, synth.ClipFields("Idle"+id, 4, 0.01))
		sc.Set(synth.ClipID+1, synth.ClipFields("Walk"+id, 4, 0.05))
		sf, err := os.ReadFile(sc.Write("scene"))
		if err != nil {
			t.Fatal(err)
		}
		b, err := unitywrite.Bundle(synth.UnityVersion, []unitywrite.Entry{{Path: "CAB-" + id, Data: sf, Flags: 4}}, 64<<10)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "char"+id+".bundle"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestExtractWritesEveryCharacterAndAManifest(t *testing.T) {
	dir := characterBundles(t, 3)
	os.WriteFile(filepath.Join(dir, "readme.txt"), []byte("not a Unity file"), 0o644)
	copyOf, _ := os.ReadFile(filepath.Join(dir, "char001.bundle"))
	os.WriteFile(filepath.Join(dir, "copy.bundle"), copyOf, 0o644) // counted once
	out := filepath.Join(t.TempDir(), "out")
	mods := gltfValidator(t)
	stdout, stderr, code := runCLI("extract", dir, "-o", out, "-j", "2")
	if code != exitOK || stdout != "" || !strings.Contains(stderr, "3 of 3 characters and 6 of 6 clips exported") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	for i := range 3 {
		checkGLTF(t, mods, filepath.Join(out, fmt.Sprintf("Hero%03d.glb", i)), fmt.Sprintf("Idle%03d", i), fmt.Sprintf("Walk%03d", i))
	}
	first, err := os.ReadFile(filepath.Join(out, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Characters []struct{ Name, Output string }
		Ignored    []struct{ Path, Why string }
	}
	if err := json.Unmarshal(first, &m); err != nil || len(m.Characters) != 3 || len(m.Ignored) != 2 {
		t.Errorf("manifest: %v: %+v", err, m)
	}
	if _, _, code := runCLI("extract", dir, "-o", out); code != exitOK {
		t.Errorf("second run: exit %d", code)
	}
	if second, _ := os.ReadFile(filepath.Join(out, "manifest.json")); !bytes.Equal(first, second) {
		t.Error("second run: another manifest")
	}
}

func TestExtractExitStatuses(t *testing.T) {
	dir := characterBundles(t, 1)
	bad := filepath.Join(dir, "broken.bundle")
	os.WriteFile(bad, []byte("UnityFS\x00 cut short"), 0o644)
	out := filepath.Join(t.TempDir(), "out")
	for _, tc := range []struct {
		name string
		args []string
		want int
		says string
	}{
		{"no output folder", []string{"extract", dir}, exitUsage, "-o"},
		{"no path", []string{"extract", "-o", out}, exitUsage, "PATH"},
		{"a bad file among good ones", []string{"extract", dir, "-o", out}, exitFailed, "broken.bundle"},
	} {
		_, stderr, code := runCLI(tc.args...)
		if code != tc.want || !strings.Contains(stderr, tc.says) {
			t.Errorf("%s: exit %d (want %d), stderr %q (want it to name %q)", tc.name, code, tc.want, stderr, tc.says)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "Hero000.glb")); err != nil {
		t.Errorf("the good file beside the bad one was not written: %v", err)
	}
}

// TestExtractInterruptedBySIGINTLeavesOnlyCompleteFiles runs the command as
// a process, sends it SIGINT once its first file is written, checks that
// every file left is complete, and that the next run finishes the rest
// without writing again what is there.
func TestExtractInterruptedBySIGINTLeavesOnlyCompleteFiles(t *testing.T) {
	const n = 40
	dir := characterBundles(t, n)
	out := filepath.Join(t.TempDir(), "out")
	cmd := exec.Command(os.Args[0], "extract", dir, "-o", out, "-j", "1", "--pictures")
	cmd.Env = append(os.Environ(), "MECANIM_RUN_MAIN=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		if g, _ := filepath.Glob(filepath.Join(out, "*.glb")); len(g) > 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(2 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	glbs, _ := filepath.Glob(filepath.Join(out, "*.glb"))
	if err == nil || len(glbs) >= n {
		t.Fatalf("the run was not interrupted (%v, %d of %d files): make the input larger", err, len(glbs), n)
	}
	if !strings.Contains(stderr.String(), "stopped") {
		t.Errorf("stderr %q does not say the run stopped", stderr.String())
	}
	if _, err := os.Stat(filepath.Join(out, "manifest.json")); err == nil {
		t.Error("an interrupted run wrote a manifest")
	}
	left, _ := filepath.Glob(filepath.Join(out, ".*"))
	for _, l := range left {
		if !strings.HasSuffix(l, ".journal") {
			t.Errorf("left behind: %s", l)
		}
	}
	times := map[string]time.Time{}
	for _, g := range glbs {
		if _, err := qg.Open(g); err != nil {
			t.Errorf("%s is not a complete glTF file: %v", filepath.Base(g), err)
		}
		st, _ := os.Stat(g)
		times[g] = st.ModTime()
	}
	_, errOut, code := runCLI("extract", dir, "-o", out, "-j", "2", "--pictures")
	if code != exitOK {
		t.Fatalf("the next run: exit %d: %s", code, errOut)
	}
	all, _ := filepath.Glob(filepath.Join(out, "*.glb"))
	if len(all) != n {
		t.Errorf("the next run left %d files, want %d", len(all), n)
	}
	for g, at := range times {
		if st, _ := os.Stat(g); !st.ModTime().Equal(at) {
			t.Errorf("%s was written again", filepath.Base(g))
		}
	}
	t.Logf("interrupted after %d of %d characters", len(glbs), n)
}

// TestBlockCacheSetsTheMemoryLimit: --block-cache bounds the decompressed
// bundle data held at once; a block that needs more fails its file, and
// the reason names the option that raises the limit.
func TestBlockCacheSetsTheMemoryLimit(t *testing.T) {
	sc := synth.NewScene(t, synth.Options{Full: true})
	sc.Set(synth.ClipID, synth.ClipFields("Long", 200_000, 0.01))
	sf, err := os.ReadFile(sc.Write("scene"))
	if err != nil {
		t.Fatal(err)
	}
	if len(sf) < 2<<20 {
		t.Fatalf("the scene is %d bytes, want a block of over 2 MiB", len(sf))
	}
	b, err := unitywrite.Bundle(synth.UnityVersion, []unitywrite.Entry{{Path: "CAB-long", Data: sf, Flags: 4}}, 16<<20)
	if err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(t.TempDir(), "long.bundle")
	if err := os.WriteFile(in, b, 0o644); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	for _, tc := range []struct {
		name string
		args []string
		want int
		says string
	}{
		{"clips within the default", []string{"clips", in}, exitOK, ""},
		{"clips over a small limit", []string{"clips", in, "--block-cache", "1MiB"}, exitFailed, "--block-cache sets the limit"},
		{"clips within a raised limit", []string{"clips", in, "--block-cache", "1G"}, exitOK, ""},
		{"extract over a small limit", []string{"extract", in, "-o", out, "--block-cache", "1MiB"}, exitFailed, "--block-cache sets the limit"},
		{"a limit under 1 MiB", []string{"clips", in, "--block-cache", "4096"}, exitUsage, "--block-cache"},
		{"a limit in no unit", []string{"clips", in, "--block-cache", "2 lots"}, exitUsage, "unknown unit"},
	} {
		_, stderr, code := runCLI(tc.args...)
		if code != tc.want || !strings.Contains(stderr, tc.says) {
			t.Errorf("%s: exit %d (want %d), stderr %q (want it to say %q)", tc.name, code, tc.want, stderr, tc.says)
		}
	}
}

func TestParseSizeReadsUnits(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"1048576", 1 << 20, true},
		{"256MiB", 256 << 20, true},
		{"512M", 512 << 20, true},
		{"2GiB", 2 << 30, true},
		{"2gb", 2 << 30, true},
		{"4096K", 4 << 20, true},
		{"1000", 0, false},
		{"MiB", 0, false},
		{"-5MiB", 0, false},
		{"1TiB", 0, false},
		{"99999999999999999GiB", 0, false},
	} {
		got, err := parseSize(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("parseSize(%q) = %d, %v; want %d (ok %v)", tc.in, got, err, tc.want, tc.ok)
		}
	}
}
