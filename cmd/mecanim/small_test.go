package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/internal/synth"
)

// tinyClip is an editor clip asset of one document.
const tinyClip = `%YAML 1.1
%TAG !u! tag:unity3d.com,2011:
--- !u!74 &7400000
AnimationClip:
  m_ObjectHideFlags: 0
  m_Name: Tiny
  m_SampleRate: 60
  m_Events: []
  m_Big: 9007199254740993
  m_Text: "60"
`

// ls and dump take every input the other commands take: a YAML asset
// (alone or in a project folder) lists its documents and dumps one as
// JSON; a glTF character lists what the other commands read of it.
func TestLsAndDumpTakeYAMLAssetsFoldersAndGLTF(t *testing.T) {
	dir := t.TempDir()
	anim := filepath.Join(dir, "Tiny.anim")
	if err := os.WriteFile(anim, []byte(tinyClip), 0o644); err != nil {
		t.Fatal(err)
	}
	walk, _, _ := noopInputs(t)
	pkg := writeTinyPackage(t, "Assets/Anims/Tiny.anim", []byte(tinyClip))
	cases := []struct {
		name   string
		args   []string
		stdout []string
	}{
		{"ls of a YAML asset", []string{"ls", anim}, []string{"\t7400000\t74\tAnimationClip\tTiny\n"}},
		{"ls of a project folder", []string{"ls", dir}, []string{"Tiny.anim\t\t7400000\t74\tAnimationClip\tTiny\n"}},
		{"ls of a glTF character", []string{"ls", walk}, []string{"\t95\tAnimator\twalk\n", "\t90\tAvatar\twalkAvatar\n", "\t1\t74\tAnimationClip\t" + synth.MixamoWalk + "\n"}},
		{"ls of a .unitypackage", []string{"ls", pkg}, []string{"Assets/Anims/Tiny.anim\t7400000\t74\tAnimationClip\tTiny\n"}},
		{"dump of a YAML document by file id", []string{"dump", anim, "--path-id", "7400000"}, []string{`"class_id":74,"type":"AnimationClip","name":"Tiny","object":{`, `"m_SampleRate":60`, `"m_Big":9007199254740993`, `"m_Text":"60"`, `"m_Events":[]`}},
		{"dump of a YAML document by name", []string{"dump", anim, "--name", "Tiny", "--type", "AnimationClip"}, []string{`"path_id":7400000`}},
	}
	for _, c := range cases {
		stdout, stderr, code := runCLI(c.args...)
		if code != exitOK {
			t.Errorf("%s: exit %d, stderr %q", c.name, code, stderr)
		}
		for _, s := range c.stdout {
			if !strings.Contains(stdout, s) {
				t.Errorf("%s: stdout %q does not hold %q", c.name, stdout, s)
			}
		}
		if strings.HasPrefix(c.args[0], "dump") && !json.Valid([]byte(stdout)) {
			t.Errorf("%s: not JSON: %q", c.name, stdout)
		}
	}
}

// play's text shows the root motion of every tick, as its help says.
func TestPlayTextShowsRootMotionEveryTick(t *testing.T) {
	_, human, _ := noopInputs(t)
	script := filepath.Join(t.TempDir(), "s.json")
	if err := os.WriteFile(script, []byte(`{"duration": 0.25}`), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runCLI("play", human, "--animator", "Synth", "--script", script, "--rate", "20")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	ticks := 0
	for _, l := range strings.Split(stdout, "\n") {
		if !strings.HasPrefix(l, "time ") {
			continue
		}
		ticks++
		if !strings.Contains(l, "  root move ") || !strings.Contains(l, " turn ") {
			t.Errorf("tick without its root motion: %q", l)
		}
	}
	if ticks != 5 {
		t.Errorf("%d ticks, want 5: %q", ticks, stdout)
	}
}

// controller's text names a clip by reference where different clips of
// its slots share a name, and by name alone elsewhere.
func TestControllerTextNamesRepeatedClipsByReference(t *testing.T) {
	clips := []controllerClipJSON{
		{Name: "Walk", Container: "a/bundle1", File: "CAB-1", PathID: 10, ref: "CAB-1#10"},
		{Name: "Walk", Container: "b/bundle2", File: "CAB-2", PathID: 20, ref: "CAB-2#20"},
		{Name: "Idle", Container: "a/bundle1", File: "CAB-1", PathID: 11, ref: "CAB-1#11"},
		{Name: "Idle", Container: "a/bundle1", File: "CAB-1", PathID: 11, ref: "CAB-1#11"},
		{Name: "Gone", Missing: "in a file not given"},
	}
	want := []string{"Walk (CAB-1#10)", "Walk (CAB-2#20)", "Idle", "Idle", "Gone"}
	got := clipLabels(clips)
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("labels %q, want %q", got, want)
	}
}

// A time asked for outside a clip is moved into it as an Animator plays
// it, and never silently.
func TestClipTimesWrapOrClampWithANote(t *testing.T) {
	cases := []struct {
		name  string
		in    []float32
		loops bool
		want  []float32
		notes int
	}{
		{"inside", []float32{0, 0.5, 2}, false, []float32{0, 0.5, 2}, 0},
		{"after the end of a clip that does not loop", []float32{3}, false, []float32{2}, 1},
		{"before the start", []float32{-1}, false, []float32{0}, 1},
		{"after the end of a looping clip", []float32{2.5, -0.5}, true, []float32{0.5, 1.5}, 2},
	}
	for _, c := range cases {
		var errb strings.Builder
		e := &env{stdout: &strings.Builder{}, stderr: &errb}
		got := clipTimes(e, "c", c.in, 2, c.loops)
		for i := range got {
			if d := got[i] - c.want[i]; d > 1e-6 || d < -1e-6 {
				t.Errorf("%s: %v, want %v", c.name, got, c.want)
				break
			}
		}
		if n := strings.Count(errb.String(), "note: time"); n != c.notes {
			t.Errorf("%s: %d notes, want %d: %q", c.name, n, c.notes, errb.String())
		}
	}
}

// writeTinyPackage writes an editor package (.unitypackage: a gzipped tar
// of GUID/pathname and GUID/asset) holding one asset.
func writeTinyPackage(t *testing.T, pathname string, asset []byte) string {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	tw := tar.NewWriter(zw)
	for _, f := range []struct {
		name string
		data []byte
	}{
		{"0123456789abcdef0123456789abcdef/pathname", []byte(pathname)},
		{"0123456789abcdef0123456789abcdef/asset", asset},
		{"0123456789abcdef0123456789abcdef/asset.meta", []byte("fileFormatVersion: 2\nguid: 0123456789abcdef0123456789abcdef\n")},
	} {
		if err := tw.WriteHeader(&tar.Header{Name: f.name, Mode: 0o644, Size: int64(len(f.data)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(f.data); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "tiny.unitypackage")
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
