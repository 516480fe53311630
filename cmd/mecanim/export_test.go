package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/bind"
	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/internal/corpustest"
	qg "github.com/qmuntal/gltf"
)

// gltfValidator returns the node_modules directory holding the Khronos
// glTF validator ("" when node or the package is missing; the tests then
// only read the files back).
func gltfValidator(t *testing.T) string {
	t.Helper()
	var dirs []string
	if d := os.Getenv("GLTF_VALIDATOR_DIR"); d != "" {
		dirs = append(dirs, filepath.Join(d, "node_modules"), d)
	}
	dirs = append(dirs, "/tmp/node_modules")
	if _, err := exec.LookPath("node"); err != nil {
		return ""
	}
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "gltf-validator", "package.json")); err == nil {
			return d
		}
	}
	if os.Getenv("MECANIM_REQUIRE_GLTF_VALIDATOR") == "1" {
		t.Fatal("glTF validator required (MECANIM_REQUIRE_GLTF_VALIDATOR=1) but not found")
	}
	t.Log("glTF validator not available: exports are only read back")
	return ""
}

// checkGLTF reads an exported file back (checking it holds the named
// animations) and, when the validator is available, validates it: no
// errors allowed.
func checkGLTF(t *testing.T, mods, path string, animations ...string) *qg.Document {
	t.Helper()
	doc, err := qg.Open(path)
	if err != nil {
		t.Fatalf("reading %s back: %v", path, err)
	}
	have := map[string]bool{}
	for _, a := range doc.Animations {
		have[a.Name] = len(a.Channels) > 0
	}
	for _, a := range animations {
		if !have[a] {
			t.Errorf("%s: no animation %q with channels (have %v)", path, a, have)
		}
	}
	if mods == "" {
		return doc
	}
	cmd := exec.Command("node", filepath.Join("..", "..", "export", "gltf", "testdata", "validate.js"), path)
	cmd.Env = append(os.Environ(), "NODE_PATH="+mods)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("validator on %s: %v", path, err)
	}
	var is struct {
		NumErrors int `json:"numErrors"`
		Messages  []struct {
			Code, Message, Pointer string
			Severity               int
		} `json:"messages"`
	}
	if err := json.Unmarshal(out, &is); err != nil {
		t.Fatal(err)
	}
	if is.NumErrors > 0 {
		for _, m := range is.Messages {
			if m.Severity == 0 {
				t.Errorf("%s: %s at %s: %s", path, m.Code, m.Pointer, m.Message)
			}
		}
	}
	return doc
}

func TestExportWritesTheExampleAsGLBAndGLTF(t *testing.T) {
	mods := gltfValidator(t)
	dir := t.TempDir()
	for _, name := range []string{"hello.glb", "hello.gltf"} {
		out := filepath.Join(dir, name)
		stdout, stderr, code := runCLI("export", example, "--animator", "Hello", "--clip", "Wave", "-o", out)
		if code != exitOK {
			t.Fatalf("%s: exit %d: %s", name, code, stderr)
		}
		if stdout != "" || !strings.Contains(stderr, `rig "Hello": 7 nodes`) || !strings.Contains(stderr, "1 animations") {
			t.Errorf("%s: stdout %q, summary on stderr %q", name, stdout, stderr)
		}
		doc := checkGLTF(t, mods, out, "Wave")
		if len(doc.Nodes) < 7 || doc.Nodes[0].Name != "Hello" {
			t.Errorf("%s: %d nodes, first %q", name, len(doc.Nodes), doc.Nodes[0].Name)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "hello.bin")); err != nil {
		t.Errorf(".gltf without its .bin: %v", err)
	}
}

func TestExportRefusesBadCommandLines(t *testing.T) {
	dir := t.TempDir()
	cases := [][]string{
		{"export", example, "--clip", "Wave"},                                                          // no -o
		{"export", example, "-o", filepath.Join(dir, "x.fbx")},                                         // not glTF
		{"export", example, "--all", "--animator", "Hello", "-o", dir},                                 // --all with a rig
		{"export", example, "--animator", "Hello", "--avatar", "A", "-o", filepath.Join(dir, "x.glb")}, // both
		{"export", example, "--rate", "-3", "-o", filepath.Join(dir, "x.glb")},                         // bad rate
		{"export", example, "--all", "--format", "fbx", "-o", dir},                                     // bad format
	}
	for _, args := range cases {
		if _, stderr, code := runCLI(args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d (%s)", args, code, exitUsage, stderr)
		}
	}
	if _, _, code := runCLI("export", example, "--animator", "Nobody", "-o", filepath.Join(dir, "x.glb")); code != exitFailed {
		t.Errorf("unknown animator: exit %d, want %d", code, exitFailed)
	}
}

// TestExportAllWritesEveryRig exports every rig of two corpus files (12
// humanoid rigs in one, 2 in the other, which also holds the clip Dab)
// into a directory: one validator-clean file per rig, named after it, and a
// summary line each.
func TestExportAllWritesEveryRig(t *testing.T) {
	skel := corpustest.Path(t, "ror2-skeletons/dlc3emoteskeletons")
	clips := corpustest.Path(t, "lethal-emotes/customemotespackage")
	mods := gltfValidator(t)
	dir := filepath.Join(t.TempDir(), "out")
	stdout, stderr, code := runCLI("export", skel, clips, "--all", "--clip", "Dab", "-o", dir)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.glb"))
	if len(files) != 15 || stdout != "" || !strings.Contains(stderr, "15 of 15 characters exported") {
		t.Fatalf("%d files; stdout %q; summary:\n%s", len(files), stdout, stderr)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "JoinVisual.glb") { // a legacy Animation's character: no humanoid avatar
			checkGLTF(t, mods, f)
			continue
		}
		checkGLTF(t, mods, f, "Dab")
	}
	t.Logf("%s", stderr)
}

// TestExportAllGoesOnAfterAFailingRig makes one rig's output impossible
// (a directory where its file should go): the others are written and the
// command exits 1 with the count.
func TestExportAllGoesOnAfterAFailingRig(t *testing.T) {
	skel := corpustest.Path(t, "ror2-skeletons/dlc3emoteskeletons")
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "worker.glb"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := runCLI("export", skel, "--all", "--no-meshes", "-o", dir)
	if code != exitFailed || !strings.Contains(stderr, "mecanim export: character \"worker\"") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.glb"))
	if len(files) != 12 || !strings.Contains(stderr, "11 of 12 characters exported") { // 11 files + the directory
		t.Errorf("%d entries; summary:\n%s", len(files), stderr)
	}
}

// TestExportAvatarPlaysHumanoidClips exports by --avatar: the Animator
// using the avatar is the rig, and the humanoid clip plays through it.
func TestExportAvatarPlaysHumanoidClips(t *testing.T) {
	pkg := corpustest.Path(t, "lethal-emotes/customemotespackage")
	mods := gltfValidator(t)
	out := filepath.Join(t.TempDir(), "bandit.glb")
	_, stderr, code := runCLI("export", pkg, "--avatar", "bandit1Avatar", "--clip", "Dab", "--rate", "60", "-o", out)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, `rig "bandit"`) || !strings.Contains(stderr, "1 animations") {
		t.Errorf("summary %q", stderr)
	}
	checkGLTF(t, mods, out, "Dab")
}

// TestExportAvatarWithoutARigUsesItsSkeleton exports a humanoid clip on
// an avatar's own skeleton (no Animator hierarchy: nodes named by the
// avatar's paths, resting at its default pose).
func TestExportAvatarWithoutARigUsesItsSkeleton(t *testing.T) {
	pkg := corpustest.Path(t, "lethal-emotes/customemotespackage")
	mods := gltfValidator(t)
	set, err := bind.Open(t.Context(), []string{pkg}, bind.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	ai, err := set.FindAvatar("bandit1Avatar")
	if err != nil {
		t.Fatal(err)
	}
	av, err := set.Avatar(ai)
	if err != nil {
		t.Fatal(err)
	}
	ch, err := bound.NewCharacter(bound.CharacterInput{Name: av.Name, Avatar: av})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(ch.Rig().Nodes); n != len(av.Skeleton.Nodes) {
		t.Fatalf("%d nodes for %d skeleton nodes", n, len(av.Skeleton.Nodes))
	}
	out := filepath.Join(t.TempDir(), "skeleton.gltf")
	var sum bytes.Buffer
	e := &env{stdout: &sum, stderr: &sum}
	if n, err := exportCharacter(e, set, ch, &exportOptions{clips: []string{"Dab"}}, out); err != nil || n != 0 {
		t.Fatal(n, err)
	}
	if !strings.Contains(sum.String(), "1 animations") || strings.Contains(sum.String(), "left out") {
		t.Errorf("summary %q", sum.String())
	}
	checkGLTF(t, mods, out, "Dab")
}

// export exits 1 when something asked for was not written, saying what and
// why on one line each: a clip named with --clip that moves nothing on the
// rig. A clip exported without channels that name no GameObject is a
// note, and the export succeeds; a renderer drawing Unity's built-in
// sphere gets the sphere; --no-meshes asks for no mesh.
func TestExportExitsOneWhenSomethingAskedForIsLeftOut(t *testing.T) {
	dir := corpustest.Dir(t)
	emotes := filepath.Join(dir, "lethal-emotes/customemotespackage")
	enemy := filepath.Join(dir, "lc-example-enemy/modassets")
	udt := filepath.Join(dir, "unitydatatools/2020.3.0f1/assetbundle")
	out := t.TempDir()
	cases := []struct {
		name   string
		args   []string
		code   int
		stderr []string
	}{
		{"a legacy prop clip on a humanoid rig", []string{emotes, "--animator", "bandit", "--clip", "Join", "--no-meshes"}, exitFailed,
			[]string{`clip "Join" (` + emotes, `drives nothing on rig "bandit": its 22 channels animate "bot to top"`}},
		{"Unity's built-in sphere", []string{udt, "--animator", "Sphere"}, exitOK,
			[]string{`rig "Sphere": 1 nodes, 1 meshes`}},
		{"no meshes asked for", []string{udt, "--animator", "Sphere", "--no-meshes"}, exitOK, nil},
		{"channels of a path the rig lacks", []string{enemy, "--clip", "walkCycle", "--no-meshes"}, exitOK,
			[]string{`note: clip "walkCycle": exported without its 10 Transform channels that name no GameObject`}},
	}
	for i, c := range cases {
		args := append(append([]string{"export"}, c.args...), "-o", filepath.Join(out, fmt.Sprintf("%d.glb", i)))
		stdout, stderr, code := runCLI(args...)
		if code != c.code || stdout != "" {
			t.Errorf("%s: exit %d (want %d), stdout %q, stderr %q", c.name, code, c.code, stdout, stderr)
		}
		for _, s := range c.stderr {
			if !strings.Contains(stderr, s) {
				t.Errorf("%s: stderr %q does not say %q", c.name, stderr, s)
			}
		}
		if strings.Contains(stderr, "not found") || strings.Contains(stderr, "skipped") {
			t.Errorf("%s: %q", c.name, stderr)
		}
	}
}
