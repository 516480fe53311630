package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/bind"
	"github.com/mecanim/mecanim/extract"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/internal/synth"
	"github.com/mecanim/mecanim/present/view"
)

// choiceInputs are the input sets of the same-choice table, built with
// internal/synth (the YAML ones take the corpus's avatar asset and clip,
// and are skipped without the corpus).
var choiceInputs = map[string]func(t *testing.T) []string{
	// A clip one controller plays: two rigs of the same paths, each with
	// its controller; A's plays Walk.
	"a clip one controller plays": func(t *testing.T) []string {
		a := synth.NewScene(t, synth.Options{Full: true})
		a.Obj(synth.GameObjectBase)["m_Name"] = "A"
		b := synth.NewScene(t, synth.Options{Full: true})
		b.Obj(synth.GameObjectBase)["m_Name"] = "B"
		b.Obj(synth.ClipID)["m_Name"] = "BIdle"
		b.Obj(synth.ClipID + 1)["m_Name"] = "BWalk"
		b.Obj(synth.ControllerID)["m_Name"] = "BController"
		return []string{a.Write("a.assets"), b.Write("b.assets")}
	},
	// Many characters sharing one controller (and one avatar): three rigs.
	"many characters sharing one controller": func(t *testing.T) []string {
		sc := synth.NewScene(t, synth.Options{Full: true})
		sc.AddRig(1000, 1300, 1, geom.V3(0, 2, 0), true)
		sc.AddRig(2000, 2300, 1, geom.V3(0, 3, 0), true)
		return []string{sc.Write("crowd.assets")}
	},
	// A clip no character plays, two rigs of its paths: neither plays it.
	"a clip no character plays, two rigs fit": func(t *testing.T) []string {
		sc := synth.NewScene(t, synth.Options{Full: true})
		sc.Obj(synth.GameObjectBase)["m_Name"] = "Loose"
		sc.Obj(synth.AnimatorID)["m_Controller"] = synth.PPtr(0)
		sc.AddRig(1000, 1300, 1, geom.V3(0, 2, 0), false)
		sc.Obj(synth.GameObjectBase + 1000)["m_Name"] = "Other"
		return []string{sc.Write("loose.assets")}
	},
	// A clip no character plays, one rig of its paths: that rig.
	"a clip no character plays, one rig fits": func(t *testing.T) []string {
		sc := synth.NewScene(t, synth.Options{Full: true})
		sc.Obj(synth.GameObjectBase)["m_Name"] = "Loose"
		sc.Obj(synth.AnimatorID)["m_Controller"] = synth.PPtr(0)
		return []string{sc.Write("loose.assets")}
	},
	// An avatar alone, with humanoid clips: the avatar's own skeleton.
	"an avatar alone": func(t *testing.T) []string {
		sc := synth.NewScene(t, synth.Options{Full: true, Extended: true})
		for i := len(sc.Values()) - 1; i >= 0; i-- {
			switch sc.Values()[i].ClassID {
			case 1, 4, 95: // GameObject, Transform, Animator
				sc.Remove(i)
			}
		}
		return []string{sc.Write("avatar.assets")}
	},
	// A Unity project's YAML avatar and prefab (the prefab's Animator names
	// the avatar by GUID) with a humanoid clip, with and without the
	// avatar's .meta: with it the prefab's rig, without it the avatar's
	// own skeleton.
	"a YAML avatar and prefab with the avatar's .meta":    func(t *testing.T) []string { return yamlCharacter(t, true) },
	"a YAML avatar and prefab without the avatar's .meta": func(t *testing.T) []string { return yamlCharacter(t, false) },
	// Two rigs sharing a humanoid avatar; A's controller plays the clips.
	"two rigs sharing an avatar": func(t *testing.T) []string {
		sc := synth.NewScene(t, synth.Options{Full: true, Extended: true})
		sc.Obj(synth.GameObjectBase)["m_Name"] = "A"
		sc.AddRig(1000, 1300, 1, geom.V3(0, 2, 0), false)
		sc.Obj(synth.GameObjectBase + 1000)["m_Name"] = "B"
		sc.Obj(1300)["m_Avatar"] = synth.PPtr(synth.AvatarID)
		return []string{sc.Write("pair.assets")}
	},
}

// choiceQuestion is one question every command is asked alike, and the
// answer all must give: a character's description (`rig "A"`), or
// "refused" (each then lists the same candidates).
type choiceQuestion struct {
	inputs     string
	clip       string   // the clip pose, render, export, retarget, view and extract play
	on         []string // --animator/--avatar: asked of the commands that take it
	humanoid   bool     // retarget too
	controller string   // play --controller (with on)
	want       string
}

var choiceQuestions = []choiceQuestion{
	{inputs: "a clip one controller plays", clip: "Walk", controller: "a.assets#" + fmt.Sprint(synth.ControllerID), want: `rig "A"`},
	{inputs: "many characters sharing one controller", clip: "Walk", controller: "SynthController", want: "refused"},
	{inputs: "a clip no character plays, two rigs fit", clip: "Walk", want: "refused"},
	{inputs: "a clip no character plays, one rig fits", clip: "Walk", want: `rig "Loose"`},
	{inputs: "an avatar alone", clip: "Walk", humanoid: true, want: `avatar "SynthAvatar"`},
	{inputs: "two rigs sharing an avatar", clip: "Walk", humanoid: true, controller: "SynthController", want: `rig "A"`},
	{inputs: "a YAML avatar and prefab with the avatar's .meta", clip: "Dab", humanoid: true, want: `rig "Chad"`},
	{inputs: "a YAML avatar and prefab without the avatar's .meta", clip: "Dab", humanoid: true, want: `avatar "ChadRigAvatar"`},
	{inputs: "two rigs sharing an avatar", clip: "Walk", humanoid: true, on: []string{"--avatar", "SynthAvatar"}, controller: "SynthController", want: "refused"},
}

// The same inputs give the same choice in every command: pose, render,
// export, retarget, the viewer's scene API, extract and play each answer
// what a clip (or a controller) plays on, or each refuse listing the same
// candidates. Extract answers for every character at once: a clip it
// puts on several characters (each plays it) counts as a refusal to
// choose among them, as the commands that play one clip refuse.
func TestEveryCommandMakesTheSameChoice(t *testing.T) {
	for _, q := range choiceQuestions {
		name := q.inputs + " " + q.clip + strings.Join(q.on, " ")
		t.Run(name, func(t *testing.T) {
			files := choiceInputs[q.inputs](t)
			got := askEveryCommand(t, files, q)
			if len(got) < 4 {
				t.Fatalf("only %d commands asked: %v", len(got), got)
			}
			t.Logf("answers:\n%s", describeAnswers(got))
			var first string
			for cmd, answer := range got {
				if !strings.HasPrefix(answer, q.want) {
					t.Errorf("%s answers %s, want %s", cmd, answer, q.want)
				}
				if first == "" {
					first = answer
				}
			}
			for _, answer := range got {
				if answer != first {
					t.Errorf("the commands choose differently:\n%s", describeAnswers(got))
					break
				}
			}
		})
	}
}

func describeAnswers(got map[string]string) string {
	var lines []string
	for cmd, a := range got {
		lines = append(lines, fmt.Sprintf("  %-9s %s", cmd, a))
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// askEveryCommand asks q of each command and returns each one's answer.
func askEveryCommand(t *testing.T, files []string, q choiceQuestion) map[string]string {
	t.Helper()
	set, err := bind.Open(t.Context(), files, bind.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	var refs []string
	for _, it := range append(set.Characters(), set.Avatars()...) {
		refs = append(refs, it.Ref)
	}
	refused := func(text string) string {
		var in []string
		for _, r := range refs {
			if regexp.MustCompile(regexp.QuoteMeta(r) + `(\D|$)`).MatchString(text) {
				in = append(in, r)
			}
		}
		sort.Strings(in)
		return "refused: " + strings.Join(in, " ")
	}
	dir := t.TempDir()
	got := map[string]string{}
	// cli runs a command and reads its answer: the JSON "on" (jsonOn), or
	// the description a note gives, or the candidates of a refusal.
	cli := func(cmd string, jsonOn bool, args ...string) {
		stdout, stderr, code := runCLI(append([]string{cmd}, args...)...)
		switch {
		case code == exitUsage && strings.Contains(stderr, "choose one"):
			got[cmd] = refused(stderr)
		case code != exitOK:
			got[cmd] = fmt.Sprintf("exit %d: %s", code, stderr)
		case jsonOn:
			var v struct {
				On *struct{ Name, Kind string } `json:"on"`
			}
			if err := json.NewDecoder(strings.NewReader(stdout)).Decode(&v); err != nil || v.On == nil {
				got[cmd] = fmt.Sprintf("no character in its JSON: %v", err)
				return
			}
			got[cmd] = fmt.Sprintf("%s %q", v.On.Kind, v.On.Name)
		default:
			m := regexp.MustCompile(` on ((rig|avatar) "[^"]*")`).FindStringSubmatch(stderr)
			if m == nil {
				got[cmd] = "says no character: " + stderr
				return
			}
			got[cmd] = m[1]
		}
	}
	clipArgs := append(append(append([]string{}, files...), "--clip", q.clip), q.on...)
	cli("pose", true, append(clipArgs, "--at", "0", "--json")...)
	cli("render", false, append(clipArgs, "-o", filepath.Join(dir, "r.png"))...)
	cli("export", true, append(clipArgs, "--json", "-o", filepath.Join(dir, "e.glb"))...)
	if q.humanoid {
		cli("retarget", false, append(clipArgs, "-o", filepath.Join(dir, "r.anim"))...)
	}
	if q.controller != "" {
		script := filepath.Join(dir, "script.json")
		if err := os.WriteFile(script, []byte(`{"duration": 0.1}`), 0o644); err != nil {
			t.Fatal(err)
		}
		cli("play", true, append(append(append([]string{}, files...), "--controller", q.controller, "--script", script, "--json"), q.on...)...)
	}
	if len(q.on) > 0 {
		return got // the viewer and extract take no character for one clip
	}
	// The viewer's scene API, the clip with no rig chosen.
	srv, err := view.New(set, view.Options{})
	if err != nil {
		t.Fatal(err)
	}
	id, err := set.FindClip(q.clip)
	if err != nil {
		t.Fatal(err)
	}
	f, err := srv.ClipFrames(int(id), -1, 10, false)
	var ce *bind.ChoiceError
	switch {
	case errors.As(err, &ce):
		got["view"] = refused(err.Error())
	case err != nil:
		got["view"] = "error: " + err.Error()
	default:
		got["view"] = f.On
	}
	// extract: where the clip went.
	out := filepath.Join(dir, "extract")
	if _, stderr, code := runCLI(append(append([]string{"extract"}, files...), "-o", out)...); code != exitOK {
		got["extract"] = fmt.Sprintf("exit %d: %s", code, stderr)
		return got
	}
	b, err := os.ReadFile(filepath.Join(out, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m extract.Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	who := map[string]string{} // output -> description
	ref := map[string]string{} // output -> the character's reference
	for _, c := range m.Characters {
		who[c.Output] = fmt.Sprintf("rig %q", c.Name)
		ref[c.Output] = c.Source.Ref
	}
	for _, o := range m.Outputs {
		if o.Kind == "avatar" {
			for _, c := range m.Characters {
				if c.Output == o.Path {
					who[o.Path] = fmt.Sprintf("avatar %q", c.Name)
				}
			}
		}
	}
	for _, c := range m.Clips {
		if c.Name != q.clip {
			continue
		}
		switch {
		case len(c.Outputs) == 1:
			got["extract"] = who[c.Outputs[0]]
		case len(c.Outputs) > 1:
			var rs []string
			for _, o := range c.Outputs {
				rs = append(rs, ref[o])
			}
			got["extract"] = refused(strings.Join(rs, " "))
		case strings.Contains(c.Skipped, "choose one"):
			got["extract"] = refused(c.Skipped)
		default:
			got["extract"] = "left out: " + c.Skipped
		}
	}
	return got
}

// Two builds of one project side by side: bundles of one base name whose
// serialized files share a CAB name, with different contents. Every
// reference a refusal prints is accepted back by the same option.
func TestReferencesPrintedAreAcceptedBack(t *testing.T) {
	var files []string
	for i, rig := range []string{"A", "B"} {
		sc := synth.NewScene(t, synth.Options{Full: true})
		sc.Obj(synth.GameObjectBase)["m_Name"] = rig
		sc.Obj(synth.TransformBase + 1)["m_LocalPosition"] = synth.F{"x": float32(0), "y": float32(i + 1), "z": float32(0)}
		sc.Set(synth.ClipID, synth.ClipFields("Idle", 3, 0.01*float32(i+1))) // other keys
		p := sc.WriteBundle("data.bundle", "CAB-0123456789abcdef0123456789abcdef")
		d := filepath.Join(filepath.Dir(p), fmt.Sprintf("build%d", i+1))
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		q := filepath.Join(d, "data.bundle")
		if err := os.Rename(p, q); err != nil {
			t.Fatal(err)
		}
		files = append(files, q)
	}
	for _, c := range []struct{ option, value string }{
		{"--clip", "Idle"},
		{"--clip", "CAB-0123456789abcdef0123456789abcdef#600"},
		{"--animator", "CAB-0123456789abcdef0123456789abcdef#300"},
	} {
		args := append(append([]string{"pose"}, files...), "--clip", "Walk", "--at", "0")
		if c.option == "--clip" {
			args = append(append([]string{"pose"}, files...), "--at", "0")
		}
		args = append(args, c.option, c.value)
		_, stderr, code := runCLI(args...)
		if code != exitUsage {
			t.Fatalf("%s %s: exit %d, want a refusal listing both builds:\n%s", c.option, c.value, code, stderr)
		}
		var refs []string
		for _, l := range strings.Split(stderr, "\n") {
			if f := strings.Fields(l); len(f) >= 2 && f[0] == c.option && strings.HasPrefix(l, "  ") {
				refs = append(refs, strings.Trim(f[1], "'"))
			}
		}
		if len(refs) != 2 || refs[0] == refs[1] {
			t.Fatalf("%s %s: candidates %q, want two different references:\n%s", c.option, c.value, refs, stderr)
		}
		for _, ref := range refs {
			again := append(args[:len(args)-1:len(args)-1], ref)
			if _, stderr, code := runCLI(again...); code != exitOK {
				t.Errorf("%s %s, as the refusal printed it: exit %d:\n%s", c.option, ref, code, stderr)
			}
		}
	}
}

// yamlCharacter lays out a Unity project's YAML sources of a character:
// the corpus's humanoid avatar asset, its Dab clip and a prefab whose
// GameObjects are the avatar's skeleton and whose Animator names the
// avatar by GUID; with meta, the avatar's .meta gives that GUID.
func yamlCharacter(t *testing.T, meta bool) []string {
	src := corpustest.Path(t, "lethal-emotes/source")
	set, err := bind.Open(t.Context(), []string{filepath.Join(src, "ChadRigAvatar.asset")}, bind.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	av, err := set.Avatar(0)
	if err != nil {
		t.Fatal(err)
	}
	const guid = "0123456789abcdef0123456789abcdef"
	var b strings.Builder
	b.WriteString("%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n")
	n := len(av.Skeleton.Nodes)
	for i, nd := range av.Skeleton.Nodes {
		name := "Chad"
		if p := av.Names[nd.PathHash]; p != "" {
			name = p[strings.LastIndex(p, "/")+1:]
		}
		comps := fmt.Sprintf("  - component: {fileID: %d}\n", 2000+i)
		if i == 0 {
			comps += "  - component: {fileID: 3000}\n"
		}
		fmt.Fprintf(&b, "--- !u!1 &%d\nGameObject:\n  m_Component:\n%s  m_Name: %s\n  m_IsActive: 1\n", 1000+i, comps, name)
		var kids []string
		for j, c := range av.Skeleton.Nodes {
			if c.Parent == i {
				kids = append(kids, fmt.Sprintf("  - {fileID: %d}\n", 2000+j))
			}
		}
		children := " []\n"
		if len(kids) > 0 {
			children = "\n" + strings.Join(kids, "")
		}
		father := 0
		if nd.Parent >= 0 {
			father = 2000 + nd.Parent
		}
		x := geom.Identity
		if i < len(av.SkeletonPose) {
			x = av.SkeletonPose[i]
		}
		fmt.Fprintf(&b, "--- !u!4 &%d\nTransform:\n  m_GameObject: {fileID: %d}\n  m_LocalRotation: {x: %g, y: %g, z: %g, w: %g}\n  m_LocalPosition: {x: %g, y: %g, z: %g}\n  m_LocalScale: {x: 1, y: 1, z: 1}\n  m_Children:%s  m_Father: {fileID: %d}\n",
			2000+i, 1000+i, x.R.X, x.R.Y, x.R.Z, x.R.W, x.T.X, x.T.Y, x.T.Z, children, father)
	}
	_ = n
	fmt.Fprintf(&b, "--- !u!95 &3000\nAnimator:\n  m_GameObject: {fileID: 1000}\n  m_Enabled: 1\n  m_Avatar: {fileID: 9000000, guid: %s, type: 2}\n  m_Controller: {fileID: 0}\n", guid)
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	read := func(name string) []byte {
		d, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	files := []string{write("Dab.anim", read("Dab.anim")), write("ChadRigAvatar.asset", read("ChadRigAvatar.asset")), write("Chad.prefab", []byte(b.String()))}
	if meta {
		write("ChadRigAvatar.asset.meta", []byte("fileFormatVersion: 2\nguid: "+guid+"\nNativeFormatImporter:\n"))
	}
	return files
}
