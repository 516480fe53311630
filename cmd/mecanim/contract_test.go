package main

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/internal/synth"
	"github.com/mecanim/mecanim/present/playscript"
	"github.com/mecanim/mecanim/unity/unitywrite"
)

// `mecanim help CMD` answers with the command's own help (what `CMD -h`
// prints, on stdout, exit 0): its usage line, what it does and every
// option; an unknown command is a usage error.
func TestHelpAnswersForEveryCommand(t *testing.T) {
	general, _, code := runCLI("help")
	if code != exitOK {
		t.Fatalf("help: exit %d", code)
	}
	for _, c := range commands() {
		if !strings.Contains(general, "  "+c.name+" ") {
			t.Errorf("help does not list %s", c.name)
		}
		out, stderr, code := runCLI("help", c.name)
		if code != exitOK || stderr != "" || !strings.HasPrefix(out, "usage: mecanim "+c.name+" ") {
			t.Errorf("help %s: exit %d, stderr %q, stdout %.80q", c.name, code, stderr, out)
			continue
		}
		if h, _, code := runCLI(c.name, "-h"); h != out || code != exitOK {
			t.Errorf("%s -h differs from help %s", c.name, c.name)
		}
		if c.name != "view" && !strings.Contains(out, "--quiet") {
			t.Errorf("help %s lists no --quiet", c.name)
		}
		if c.about != "" && !strings.Contains(out, strings.Fields(c.about)[0]) {
			t.Errorf("help %s does not say what the command does", c.name)
		}
	}
	if _, stderr, code := runCLI("help", "frobnicate"); code != exitUsage || !strings.Contains(stderr, "frobnicate") {
		t.Errorf("help of an unknown command: exit %d, %q", code, stderr)
	}
}

// --version names the module, its version and the VCS revision the
// binary was built from (from the build information).
func TestVersionSaysTheModuleAndRevision(t *testing.T) {
	out, _, code := runCLI("--version")
	if code != exitOK || !strings.Contains(out, "github.com/mecanim/mecanim") {
		t.Errorf("--version: exit %d, %q", code, out)
	}
	bi := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/mecanim/mecanim", Version: "v0.3.0"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123abcd"}, {Key: "vcs.time", Value: "2026-12-01T10:00:00Z"}, {Key: "vcs.modified", Value: "true"}}}
	got := versionLine(bi, true)
	for _, want := range []string{"github.com/mecanim/mecanim v0.3.0", "revision 0123abcd", "2026-12-01T10:00:00Z", "local changes", "go1.26.8"} {
		if !strings.Contains(got, want) {
			t.Errorf("%q does not say %q", got, want)
		}
	}
	if got := versionLine(&debug.BuildInfo{Main: debug.Module{Path: "m"}}, true); !strings.Contains(got, "(devel)") || !strings.Contains(got, "revision unknown") {
		t.Errorf("without a version or revision: %q", got)
	}
}

// contractFiles writes the inputs the contract tests run on: a scene with
// a humanoid character, its controller and two clips; a scene with a rig
// and nothing else; an empty serialized file; and a play script.
func contractFiles(t *testing.T) (scene, bare, empty, script string) {
	scene = synth.NewScene(t, synth.Options{Full: true}).Write("scene.assets")
	bare = synth.NewScene(t, synth.Options{}).Write("bare.assets")
	data, err := unitywrite.SerializedFile(synth.UnityVersion, 5, nil, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	empty = filepath.Join(t.TempDir(), "empty.assets")
	script = filepath.Join(t.TempDir(), "script.json")
	if err := os.WriteFile(empty, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(script, []byte(`{"duration": 0.5, "events": [{"at": 0.1, "set": {"Speed": 1}}, {"at": 0.2, "trigger": "Again"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	return
}

// Every command keeps the contract: on success it exits 0, prints the
// output asked for on stdout and nothing else (JSON that parses, nothing
// when the output is a file), says what it wrote only in notes on stderr,
// and --quiet silences them; when it finds nothing or cannot do what was
// asked it exits 1 with each reason on one stderr line; a wrong command
// line exits 2.
func TestEveryCommandKeepsTheOutputContract(t *testing.T) {
	scene, bare, empty, script := contractFiles(t)
	out := t.TempDir()
	type run struct {
		args []string
		code int
		// json: stdout is JSON (one document, or a value per line);
		// noStdout: the output is a file; notes: stderr holds notes
		// without --quiet.
		json, noStdout, notes bool
		reason                string // in the one stderr line of a failure
	}
	cases := map[string][]run{
		"ls": {
			{args: []string{"ls", "--json", scene}, json: true},
			{args: []string{"ls", empty}, code: exitFailed, reason: "holds no objects"},
			{args: []string{"ls"}, code: exitUsage},
		},
		"dump": {
			{args: []string{"dump", scene, "--path-id", "600"}, json: true},
			{args: []string{"dump", scene, "--path-id", "12345"}, code: exitFailed, reason: "no object with path id 12345"},
			{args: []string{"dump", scene}, code: exitUsage},
		},
		"clips": {
			{args: []string{"clips", "--json", scene}, json: true},
			{args: []string{"clips", bare}, code: exitFailed, reason: "no clip in the inputs"},
		},
		"avatar": {
			{args: []string{"avatar", "--json", scene}, json: true},
			{args: []string{"avatar", bare}, code: exitFailed, reason: "no avatar in the inputs"},
			{args: []string{"avatar", scene, "--name", "Nobody"}, code: exitFailed, reason: "no avatar \"Nobody\""},
		},
		"controller": {
			{args: []string{"controller", "--json", scene}, json: true},
			{args: []string{"controller", bare}, code: exitFailed, reason: "no controller in the inputs"},
		},
		"sample": {
			{args: []string{"sample", scene, "--clip", "Idle", "--at", "0,0.1", "--json"}, json: true},
			{args: []string{"sample", scene, "--clip", "Idle", "--at", "0,0.1", "--csv"}},
			{args: []string{"sample", scene, "--clip", "Run", "--at", "0"}, code: exitFailed, reason: "no clip \"Run\""},
			{args: []string{"sample", scene, "--clip", "Idle"}, code: exitUsage},
			{args: []string{"sample", scene, "--clip", "Idle", "--at", "0", "--json", "--csv"}, code: exitUsage},
		},
		"pose": {
			{args: []string{"pose", scene, "--clip", "Walk", "--rate", "10", "--json"}, json: true},
			{args: []string{"pose", bare, "--clip", "Walk", "--at", "0"}, code: exitFailed, reason: "no clip \"Walk\""},
		},
		"retarget": {
			{args: []string{"retarget", scene, "--clip", "Walk", "--avatar", "SynthAvatar", "--json"}, json: true},
			{args: []string{"retarget", scene, "--clip", "Walk", "--avatar", "SynthAvatar", "-o", filepath.Join(out, "walk.json")}, noStdout: true, notes: true},
			{args: []string{"retarget", scene, "--clip", "Walk", "-o", filepath.Join(out, "walk.fbx")}, code: exitUsage},
			{args: []string{"retarget", scene, "--clip", "Walk", "--avatar", "Nobody"}, code: exitFailed, reason: "no avatar \"Nobody\""},
		},
		"play": {
			{args: []string{"play", scene, "--controller", "SynthController", "--script", script, "--rate", "20", "--json"}, json: true},
			{args: []string{"play", scene, "--controller", "Nobody", "--script", script}, code: exitFailed, reason: "no controller \"Nobody\""},
			{args: []string{"play", scene, "--controller", "SynthController"}, code: exitUsage},
		},
		"render": {
			{args: []string{"render", scene, "--clip", "Walk", "--frames", "2", "-o", filepath.Join(out, "walk.png")}, noStdout: true, notes: true},
			{args: []string{"render", scene, "--clip", "Walk", "--curve", "Hips:m_LocalPosition.y", "-o", filepath.Join(out, "plot.png")}, noStdout: true, notes: true},
			{args: []string{"render", scene, "--clip", "Walk", "--views", "diagonal", "-o", filepath.Join(out, "x.png")}, code: exitUsage},
		},
		"export": {
			{args: []string{"export", scene, "-o", filepath.Join(out, "scene.glb")}, noStdout: true, notes: true},
			{args: []string{"export", scene, "--json", "-o", filepath.Join(out, "scene2.glb")}, json: true, notes: true},
			{args: []string{"export", scene, "--clip", "Run", "-o", filepath.Join(out, "x.glb")}, code: exitFailed, reason: "clip \"Run\""},
			{args: []string{"export", scene}, code: exitUsage},
		},
		"pack": {
			{args: []string{"pack", scene, "--like", scene, "-o", filepath.Join(out, "packed.bundle")}, noStdout: true, notes: true},
			{args: []string{"pack", scene, "--clip", "Run", "--like", scene, "-o", filepath.Join(out, "x.bundle")}, code: exitFailed, reason: "no clip \"Run\""},
			{args: []string{"pack", scene, "-o", filepath.Join(out, "y.bundle")}, code: exitUsage},
			{args: []string{"pack", scene, "--like", scene, "-o", filepath.Join(out, "z.bundle"), "--compression", "zip"}, code: exitUsage},
		},
		"view": {
			{args: []string{"view", scene, "--addr", "0.0.0.0:0"}, code: exitUsage},
		},
		"extract": {
			{args: []string{"extract", scene, "-o", filepath.Join(out, "game")}, noStdout: true, notes: true},
			{args: []string{"extract", empty, "-o", filepath.Join(out, "nothing")}, code: exitFailed, reason: "nothing to extract"},
			{args: []string{"extract", scene}, code: exitUsage},
		},
	}
	for _, c := range commands() {
		if len(cases[c.name]) == 0 {
			t.Errorf("no contract case for %s", c.name)
		}
	}
	for name, runs := range cases {
		for _, r := range runs {
			stdout, stderr, code := runCLI(r.args...)
			if code != r.code {
				t.Errorf("%v: exit %d, want %d (stderr %q)", r.args, code, r.code, stderr)
				continue
			}
			switch {
			case r.code == exitFailed:
				var lines []string
				for _, l := range strings.Split(strings.TrimSuffix(stderr, "\n"), "\n") {
					if !strings.Contains(l, ": note: ") {
						lines = append(lines, l)
					}
				}
				if len(lines) != 1 || !strings.HasPrefix(lines[0], "mecanim "+name+": ") || !strings.Contains(lines[0], r.reason) {
					t.Errorf("%v: stderr %q: want one line saying %q", r.args, stderr, r.reason)
				}
			case r.code == exitUsage:
				if !strings.HasPrefix(stderr, "mecanim "+name+": ") {
					t.Errorf("%v: stderr %q", r.args, stderr)
				}
			default:
				if r.noStdout && stdout != "" {
					t.Errorf("%v: stdout %q: the output is a file", r.args, stdout)
				}
				if !r.noStdout && stdout == "" {
					t.Errorf("%v: nothing on stdout", r.args)
				}
				if r.json {
					for _, l := range strings.Split(strings.TrimSpace(stdout), "\n") {
						if !json.Valid([]byte(l)) {
							t.Errorf("%v: stdout line is not JSON: %.100q", r.args, l)
						}
					}
				}
				if r.notes != strings.Contains(stderr, "mecanim "+name+": note: ") || strings.Replace(stderr, "mecanim "+name+": note: ", "", -1) != strings.Join(noteBodies(stderr), "") {
					t.Errorf("%v: stderr %q: want notes %v, and nothing but notes", r.args, stderr, r.notes)
				}
				q, qerr, qcode := runCLI(append(r.args, "--quiet")...)
				if qcode != exitOK || qerr != "" || (!strings.Contains(strings.Join(r.args, " "), "-o") && q != stdout) {
					t.Errorf("%v --quiet: exit %d, stderr %q (want nothing), stdout changed %v", r.args, qcode, qerr, q != stdout)
				}
			}
		}
	}
}

// noteBodies returns the text of each stderr line that is a note.
func noteBodies(stderr string) []string {
	var out []string
	for _, l := range strings.SplitAfter(stderr, "\n") {
		if _, b, ok := strings.Cut(l, ": note: "); ok {
			out = append(out, b)
		}
	}
	return out
}

// A file whose Unity version is blanked has it inferred: every command
// that reads it says so, once per serialized file, on stderr; --quiet
// silences it.
func TestEveryCommandSaysTheUnityVersionItInferred(t *testing.T) {
	sekai := corpustest.Path(t, "sekai/ladies_s_31_0001")
	for _, args := range [][]string{
		{"ls", sekai},
		{"dump", sekai, "--path-id", "7790740821555569059"},
		{"avatar", sekai},
		{"controller", sekai},
		{"clips", sekai},
		{"export", sekai, "--all", "--no-meshes", "-o", t.TempDir()},
	} {
		_, stderr, _ := runCLI(args...)
		if n := strings.Count(stderr, "the file's Unity version is \"0.0.0\"; assumed"); n != 1 {
			t.Errorf("%s: the inferred version said %d times: %q", args[0], n, stderr)
		}
		_, stderr, _ = runCLI(append(args, "--quiet")...)
		if strings.Contains(stderr, "assumed") {
			t.Errorf("%s --quiet: %q", args[0], stderr)
		}
	}
}

// sample's and retarget's text has one row per time (a line per time, not
// per curve: no line grows with the times asked for), numbered columns
// named above the table, and --csv the same table with the curves' names
// as its header.
func TestSampleTablesHaveOneRowPerTime(t *testing.T) {
	scene, _, _, _ := contractFiles(t)
	text, _, code := runCLI("sample", scene, "--clip", "Walk", "--rate", "100")
	if code != exitOK {
		t.Fatal(code)
	}
	lines := strings.Split(strings.TrimSpace(text), "\n")
	// title, one line per curve, the header, 31 times (0..0.3 s at 100 Hz)
	var curves int
	for _, l := range lines {
		if strings.HasPrefix(l, "  [") {
			curves++
		}
	}
	if len(lines) != 1+curves+1+31 || curves == 0 {
		t.Fatalf("%d lines for %d curves: want title, curves, header and 31 rows:\n%s", len(lines), curves, text)
	}
	for _, l := range lines[2+curves:] {
		if f := strings.Fields(l); len(f) != 1+curves {
			t.Errorf("row %q: %d fields, want the time and %d values", l, len(f), curves)
		}
	}
	c, _, _ := runCLI("sample", scene, "--clip", "Walk", "--rate", "100", "--csv")
	rows, err := csv.NewReader(strings.NewReader(c)).ReadAll()
	if err != nil || len(rows) != 32 || len(rows[0]) != 1+curves || rows[0][0] != "time" || rows[1][0] != "0" {
		t.Fatalf("csv: %d rows, %v, header %v", len(rows), err, rows[0])
	}
	// Every column's name plots that curve with render.
	for _, name := range rows[0][1:] {
		if _, stderr, code := runCLI("render", scene, "--clip", "Walk", "--curve", name, "-o", filepath.Join(t.TempDir(), "p.png")); code != exitOK {
			t.Errorf("render --curve %q: exit %d: %s", name, code, stderr)
		}
	}
}

// Curves sample names by hash (a path no name table of the inputs names)
// are plotted by render under that name: walkCycle's one unresolved path.
func TestRenderPlotsTheCurvesSampleNamesByHash(t *testing.T) {
	enemy := corpustest.Path(t, "lc-example-enemy/modassets")
	c, _, code := runCLI("sample", enemy, "--clip", "walkCycle", "--at", "0", "--csv")
	if code != exitOK {
		t.Fatal(code)
	}
	header, err := csv.NewReader(strings.NewReader(c)).Read()
	if err != nil {
		t.Fatal(err)
	}
	var hashed []string
	for _, n := range header[1:] {
		if strings.HasPrefix(n, "#") {
			hashed = append(hashed, n)
		}
	}
	if len(hashed) != 10 {
		t.Fatalf("%d curves named by hash, want walkCycle's 10 on path #2629932354: %v", len(hashed), hashed)
	}
	args := []string{"render", enemy, "--clip", "walkCycle", "-o", filepath.Join(t.TempDir(), "p.png")}
	for _, n := range hashed[:4] {
		args = append(args, "--curve", n)
	}
	if _, stderr, code := runCLI(args...); code != exitOK {
		t.Errorf("render of %v: exit %d: %s", hashed[:4], code, stderr)
	}
}

// Every key a play script takes is documented, with an example that runs,
// in `mecanim help play` and in docs/json.md; a misspelt key is a usage
// error naming the key and where it is.
func TestPlayScriptKeysAreDocumentedAndCheckedByTheCLI(t *testing.T) {
	var keys []string
	for _, typ := range []reflect.Type{reflect.TypeOf(playscript.Script{}), reflect.TypeOf(playscript.ScriptEvent{})} {
		for i := 0; i < typ.NumField(); i++ {
			name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
			keys = append(keys, name)
		}
	}
	help, _, _ := runCLI("help", "play")
	doc, err := os.ReadFile("../../docs/json.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(doc), "## Play scripts")
	for where, text := range map[string]string{"help play": help, "docs/json.md": section} {
		for _, k := range keys {
			if !strings.Contains(text, "  "+k+" ") && !strings.Contains(text, "`"+k+"`") {
				t.Errorf("%s does not document the key %q", where, k)
			}
		}
		// the example: from the first line starting with {"duration" to
		// the closing brace that balances it
		i := strings.Index(text, `{"duration"`)
		if i < 0 {
			t.Errorf("%s has no example", where)
			continue
		}
		depth, end := 0, -1
		for j, r := range text[i:] {
			if r == '{' {
				depth++
			} else if r == '}' {
				if depth--; depth == 0 {
					end = i + j + 1
					break
				}
			}
		}
		s, err := playscript.Parse([]byte(text[i:end]))
		if err != nil {
			t.Errorf("%s: the example does not parse: %v", where, err)
			continue
		}
		used := map[string]bool{"duration": true, "events": true}
		for _, e := range s.Events {
			for k, ok := range map[string]bool{"at": true, "set": e.Set != nil, "trigger": e.Trigger != "", "play": e.Play != "", "layer": strings.Contains(text[i:end], `"layer"`), "fade": e.Fade != 0} {
				used[k] = used[k] || ok
			}
		}
		for _, k := range keys {
			if !used[k] {
				t.Errorf("%s: the example does not show %q", where, k)
			}
		}
	}
	scene, _, _, _ := contractFiles(t)
	bad := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(bad, []byte("{\"duration\": 1,\n \"evnts\": []}"), 0o644)
	_, stderr, code := runCLI("play", scene, "--controller", "SynthController", "--script", bad)
	if code != exitUsage || !strings.Contains(stderr, `"evnts"`) || !strings.Contains(stderr, "line 2, column 2") {
		t.Errorf("a misspelt key: exit %d, %q", code, stderr)
	}
}

// The README's command table names only options the commands take, and
// every command.
func TestReadmeCommandTableMatchesTheCommands(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	flagRe := regexp.MustCompile(`--([a-z][a-z-]*)`)
	for _, l := range strings.Split(string(b), "\n") {
		rest, ok := strings.CutPrefix(l, "| `mecanim ")
		if !ok {
			continue
		}
		usage, _, _ := strings.Cut(rest, "` |")
		name := strings.Fields(usage)[0]
		if _, ok := findCommand(name); !ok {
			continue // help, --version
		}
		seen[name] = true
		help, _, _ := runCLI(name, "-h")
		for _, m := range flagRe.FindAllStringSubmatch(usage, -1) {
			if !strings.Contains(help, "  --"+m[1]+"\n") && !strings.Contains(help, "  --"+m[1]+" ") {
				t.Errorf("README: mecanim %s --%s: no such option", name, m[1])
			}
		}
	}
	for _, c := range commands() {
		if !seen[c.name] {
			t.Errorf("README's table lacks %s", c.name)
		}
	}
}
