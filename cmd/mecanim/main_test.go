package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/internal/corpustest"
)

func runCLI(args ...string) (stdout, stderr string, code int) {
	var o, e bytes.Buffer
	code = run(args, &o, &e)
	return o.String(), e.String(), code
}

func TestExitStatusesFollowTheContract(t *testing.T) {
	dir := corpustest.Dir(t)
	kitbash := filepath.Join(dir, "jotunn/kitbash")
	cases := []struct {
		name string
		args []string
		want int
	}{
		{"no command is a usage error", nil, exitUsage},
		{"unknown command", []string{"frobnicate"}, exitUsage},
		{"ls without files", []string{"ls"}, exitUsage},
		{"unknown flag", []string{"ls", "--bogus", kitbash}, exitUsage},
		{"ls of a good file", []string{"ls", kitbash}, exitOK},
		{"ls of a missing file", []string{"ls", filepath.Join(dir, "no-such-file")}, exitFailed},
		{"ls of an empty file", []string{"ls", filepath.Join(dir, "unitydatatools/invalidfile")}, exitFailed},
		{"dump needs a selector", []string{"dump", kitbash}, exitUsage},
		{"dump by name", []string{"dump", kitbash, "--name", "piece_odin_statue", "--type", "AnimationClip"}, exitOK},
		{"dump of a missing object", []string{"dump", kitbash, "--path-id", "12345"}, exitFailed},
		{"dump of an ambiguous name", []string{"dump", kitbash, "--name", "piece_odin_statue"}, exitUsage},
	}
	for _, c := range cases {
		_, stderr, code := runCLI(c.args...)
		if code != c.want {
			t.Errorf("%s: exit %d want %d (stderr %q)", c.name, code, c.want, stderr)
		}
		if code == exitFailed && !strings.Contains(stderr, "mecanim") {
			t.Errorf("%s: stderr %q", c.name, stderr)
		}
	}
}

func TestLsJSONHasOneObjectPerLineWithTheContractKeys(t *testing.T) {
	kitbash := corpustest.Path(t, "jotunn/kitbash")
	out, stderr, code := runCLI("ls", "--json", kitbash)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 21 {
		t.Fatalf("%d lines, want 21 objects", len(lines))
	}
	seen := map[string]bool{}
	for _, l := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		for _, k := range []string{"container", "file", "path_id", "class_id", "type", "name"} {
			if _, ok := m[k]; !ok {
				t.Fatalf("line %q lacks %q", l, k)
			}
		}
		if m["container"] != kitbash {
			t.Fatalf("container %v, want the path as given", m["container"])
		}
		seen[m["type"].(string)+"/"+m["name"].(string)] = true
	}
	for _, want := range []string{"AnimationClip/piece_odin_statue", "AnimatorController/piece_odin_statue", "GameObject/pivot"} {
		if !seen[want] {
			t.Errorf("missing %s", want)
		}
	}
}

func TestDumpKeepsPathIDsExactAndFieldsInTreeOrder(t *testing.T) {
	kitbash := corpustest.Path(t, "jotunn/kitbash")
	out, stderr, code := runCLI("dump", kitbash, "--path-id", "-6695949375172272720")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := `{"container":"` + kitbash + `","file":"CAB-451d4b25db6f8f07dfa265d45b48e21d","path_id":-6695949375172272720,"class_id":114,"type":"MonoBehaviour","name":"","object":{"m_GameObject":{"m_FileID":0,"m_PathID":`
	if !strings.HasPrefix(out, want) {
		t.Fatalf("unexpected start: %.300s", out)
	}
	dec := json.NewDecoder(strings.NewReader(out))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
}
