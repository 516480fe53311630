package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// schemaDir holds the JSON Schema of each command's JSON (docs/json.md).
const schemaDir = "../../docs/schema"

// jsonCommands are the commands that print JSON, each with its schema
// and whether it prints one JSON value per line (a listing) or one
// document.
var jsonCommands = map[string]bool{
	"ls": true, "clips": true, "avatar": true, "controller": true, "export": true,
	"dump": false, "sample": false, "pose": false, "retarget": false, "play": false,
}

// schemas compiles docs/schema/CMD.json for every command that prints
// JSON.
func schemas(t *testing.T) map[string]*jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	out := map[string]*jsonschema.Schema{}
	for cmd := range jsonCommands {
		p, err := filepath.Abs(filepath.Join(schemaDir, cmd+".json"))
		if err != nil {
			t.Fatal(err)
		}
		s, err := c.Compile(p)
		if err != nil {
			t.Fatalf("schema of %s: %v", cmd, err)
		}
		out[cmd] = s
	}
	return out
}

// validator checks commands' JSON against their schemas and counts what
// it checked.
type validator struct {
	t       *testing.T
	schemas map[string]*jsonschema.Schema
	checked map[string]int
}

// check validates what one command printed: every line (a listing) or
// the whole document, against the command's schema; and every identity in
// it names one of the inputs given.
func (v *validator) check(cmd string, inputs []string, out string) []any {
	v.t.Helper()
	var docs []string
	if jsonCommands[cmd] {
		for _, l := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
			if l != "" {
				docs = append(docs, l)
			}
		}
	} else {
		if strings.Count(strings.TrimRight(out, "\n"), "\n") != 0 {
			v.t.Errorf("%s: a document on several lines", cmd)
		}
		docs = []string{out}
	}
	var vals []any
	for _, d := range docs {
		val, err := jsonschema.UnmarshalJSON(strings.NewReader(d))
		if err != nil {
			v.t.Errorf("%s: not JSON: %v: %.200s", cmd, err, d)
			continue
		}
		if err := v.schemas[cmd].Validate(val); err != nil {
			v.t.Errorf("%s %v: does not follow docs/schema/%s.json: %v\n%.400s", cmd, inputs, cmd, err, d)
			continue
		}
		checkIdentities(v.t, cmd, val, inputs)
		v.checked[cmd]++
		vals = append(vals, val)
	}
	return vals
}

// checkIdentities checks that every object with a non-empty "container"
// names one of the inputs as given.
func checkIdentities(t *testing.T, cmd string, val any, inputs []string) {
	t.Helper()
	switch x := val.(type) {
	case map[string]any:
		if c, ok := x["container"].(string); ok && c != "" {
			found := false
			for _, in := range inputs {
				found = found || c == in || strings.HasPrefix(c, in+string(filepath.Separator))
			}
			if !found {
				t.Errorf("%s: container %q is none of the inputs %v", cmd, c, inputs)
			}
		}
		for k, v := range x {
			if k != "object" { // dump's object holds the file's own fields
				checkIdentities(t, cmd, v, inputs)
			}
		}
	case []any:
		for _, v := range x {
			checkIdentities(t, cmd, v, inputs)
		}
	}
}

// run runs a command with --json on inputs and validates its output: the
// command must succeed, or fail (exit 1) saying why on stderr, in which
// case what it printed must still follow the schema.
func (v *validator) run(cmd string, inputs []string, args ...string) []any {
	v.t.Helper()
	full := append(append([]string{cmd, "--json"}, inputs...), args...)
	out, stderr, code := runCLI(full...)
	switch {
	case code == exitOK:
	case code == exitFailed && strings.Contains(stderr, "mecanim "+cmd+": "):
		if out == "" {
			return nil
		}
	default:
		v.t.Errorf("%v: exit %d: %s", full, code, stderr)
		return nil
	}
	return v.check(cmd, inputs, out)
}

// runChoosing is run, choosing the first candidate when the command line
// was ambiguous (exit 2 listing each with the option that chooses it).
func (v *validator) runChoosing(cmd string, inputs []string, args ...string) []any {
	v.t.Helper()
	full := append(append([]string{cmd, "--json"}, inputs...), args...)
	_, stderr, code := runCLI(full...)
	if code == exitUsage {
		for _, l := range strings.Split(stderr, "\n") {
			if f := strings.Fields(l); len(f) >= 2 && strings.HasPrefix(f[0], "--") && strings.HasPrefix(l, "  ") {
				var kept []string
				for i := 0; i < len(args); i++ {
					if args[i] == "--avatar" || args[i] == "--animator" {
						i++
						continue
					}
					kept = append(kept, args[i])
				}
				args = append(kept, f[0], strings.Trim(f[1], "'"))
				break
			}
		}
	}
	return v.run(cmd, inputs, args...)
}

// schemaInputs are the corpus inputs each checked alone: every Unity file,
// the folders of editor sources and the glTF characters.
func schemaInputs(t *testing.T) []string {
	dir := corpustest.Dir(t)
	in := corpusInputs(t)
	for _, rel := range []string{"lethal-emotes/source", "lc-example-enemy/source", "animation-jobs-samples/DefaultMale",
		"animation-jobs-samples/Chomper", "characters/cryptovoxels.vrm", "characters/VRMC_materials_mtoon_UV_Animation_Test.vrm"} {
		in = append(in, filepath.Join(dir, rel))
	}
	sort.Strings(in)
	return in
}

// TestEveryCommandsJSONFollowsItsSchema runs every command that prints
// JSON on every corpus input (each alone), validating what it prints
// against its JSON Schema in docs/schema with a maintained validator: ls,
// clips, avatar and controller on every input, dump on one object of each
// class of every Unity file, sample and pose on every clip (three times),
// retarget of each input's first humanoid clip on each of its humanoid
// avatars, play of every controller, export of every rig (--all, no
// meshes, 10 Hz). Every identity printed must name the input given.
func TestEveryCommandsJSONFollowsItsSchema(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every command on every corpus input")
	}
	v := &validator{t: t, schemas: schemas(t), checked: map[string]int{}}
	script := filepath.Join(t.TempDir(), "script.json")
	if err := os.WriteFile(script, []byte(`{"duration": 1, "events": [{"at": 0.2, "set": {}}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, in := range schemaInputs(t) {
		ins := []string{in}
		st, err := os.Stat(in)
		if raceEnabled && err == nil && st.Size() > 1<<20 {
			continue // the small files only: see raceEnabled
		}
		unity := err == nil && !st.IsDir() && !strings.HasSuffix(in, ".vrm")
		// Commands whose objects a Unity file lacks (its classes, as ls
		// lists them) are left out: each run decompresses the file again.
		has := func(class string) bool { return true }
		if unity {
			ls := v.run("ls", ins)
			classes := map[string]bool{}
			for _, r := range ls {
				classes[fmt.Sprint(r.(map[string]any)["class_id"])] = true
			}
			has = func(class string) bool { return classes[class] }
			for _, o := range someObjects(ls) {
				v.run("dump", ins, "--file", o[0], "--path-id", o[1])
			}
		}
		var clips, avatars []any
		if has("74") {
			clips = v.run("clips", ins)
		}
		if has("90") {
			avatars = v.run("avatar", ins)
		}
		if has("91") {
			for _, c := range v.run("controller", ins) {
				v.runChoosing("play", ins, "--controller", ref(c), "--script", script, "--rate", "10")
			}
		}
		// The first clip of each kind (generic, humanoid, legacy), a humanoid
		// one on the first humanoid avatar.
		var humanoidClip, humanoidAvatar string
		for _, a := range avatars {
			if a.(map[string]any)["humanoid"] == true && humanoidAvatar == "" {
				humanoidAvatar = ref(a)
			}
		}
		kinds := map[string]bool{}
		for _, c := range clips {
			m := c.(map[string]any)
			r := m["ref"].(string)
			kind := fmt.Sprint(m["humanoid"], m["legacy"])
			if kinds[kind] {
				continue
			}
			kinds[kind] = true
			v.run("sample", ins, "--clip", r, "--at", "0,0.5,1")
			if m["humanoid"] == true && humanoidAvatar != "" {
				v.runChoosing("pose", ins, "--clip", r, "--avatar", humanoidAvatar, "--at", "0,0.5,1")
			} else {
				v.runChoosing("pose", ins, "--clip", r, "--at", "0,0.5,1")
			}
			if m["humanoid"] == true && humanoidClip == "" {
				humanoidClip = r
			}
		}
		if humanoidClip != "" && humanoidAvatar != "" {
			v.runChoosing("retarget", ins, "--clip", humanoidClip, "--avatar", humanoidAvatar, "--rate", "10")
		}
		if has("95") {
			v.run("export", ins, "--all", "--no-meshes", "--rate", "5", "-o", t.TempDir())
		}
	}
	for cmd := range jsonCommands {
		if v.checked[cmd] == 0 {
			t.Errorf("no output of %s was checked", cmd)
		}
	}
	t.Logf("documents checked per command: %v", v.checked)
}

// ref is the reference that chooses an object a listing printed.
func ref(rec any) string {
	m := rec.(map[string]any)
	if r, ok := m["ref"].(string); ok {
		return r
	}
	f, _ := m["file"].(string)
	if f == "" {
		f = filepath.Base(m["container"].(string))
	}
	return fmt.Sprintf("%s#%v", f, m["path_id"])
}

// someObjects returns the serialized file and path id of two objects of a
// Unity file (from what ls --json printed): its first object, and its
// first clip or avatar.
func someObjects(ls []any) [][2]string {
	var objs [][2]string
	for i, rec := range ls {
		m := rec.(map[string]any)
		if class := fmt.Sprint(m["class_id"]); i == 0 || len(objs) < 2 && (class == "74" || class == "90") {
			objs = append(objs, [2]string{m["file"].(string), fmt.Sprint(m["path_id"])})
		}
	}
	return objs
}
