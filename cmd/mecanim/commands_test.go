package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/internal/corpustest"
)

// example is the bundle the project generates itself (go generate ./examples).
const example = "../../examples/hello.bundle"

func TestSampleOfTheExampleFollowsItsGenerator(t *testing.T) {
	out, stderr, code := runCLI("sample", example, "--clip", "Wave", "--at", "0", "--at", "0.5", "--at", "1", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	s := decodeTable(t, out)
	if s.Clip.Name != "Wave" || len(s.Times) != 3 || len(s.Curves) != 10 {
		t.Fatalf("clip %q, %d times, %d curves", s.Clip.Name, len(s.Times), len(s.Curves))
	}
	want := map[string][]float64{
		// The arm's z rotation is sin(a/2) with a = π/2·sin(πt/2).
		"Armature/Hips/Spine/RightArm m_LocalRotation.z": {0, math.Sin(math.Pi / 4 * math.Sin(math.Pi/4)), math.Sin(math.Pi / 4)},
		"Armature/Hips m_LocalPosition.y":                {1, 1 + 0.05*math.Sin(math.Pi/2), 1},
		"Armature/Hips/Spine/Head m_LocalScale.x":        {1.2, 1.2, 1.2},
	}
	found := 0
	for _, c := range s.Curves {
		w, ok := want[c.Path+" "+c.Property]
		if !ok {
			continue
		}
		found++
		if c.ClassID != 4 {
			t.Errorf("%s: class %d", c.Path, c.ClassID)
		}
		for i := range w {
			if math.Abs(c.Values[i]-w[i]) > 1e-4 {
				t.Errorf("%s %s at %g: %g want %g", c.Path, c.Property, s.Times[i], c.Values[i], w[i])
			}
		}
	}
	if found != len(want) {
		t.Fatalf("found %d of %d expected curves (paths resolved through the rig?)", found, len(want))
	}
}

func TestPoseJSONGivesLocalAndModelTransforms(t *testing.T) {
	out, stderr, code := runCLI("pose", example, "--clip", "Wave", "--at", "1", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var p struct {
		Clip   objectRef
		On     characterRef
		Frames []struct {
			Time   float64
			Joints []struct {
				Path         string
				Local, Model struct{ T, R, S []float64 }
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatal(err)
	}
	if len(p.Frames) != 1 || len(p.Frames[0].Joints) != 7 || p.Clip.Name != "Wave" || p.Clip.PathID == 0 || p.On.Name != "Hello" || p.On.Kind != "rig" {
		t.Fatalf("%+v", p)
	}
	for _, j := range p.Frames[0].Joints {
		if j.Path == "Armature/Hips/Spine/Head" {
			// Head: hips at y=1 (t=1: sin(π)=0), spine +0.3, head +0.45.
			if math.Abs(j.Model.T[1]-1.75) > 1e-4 || math.Abs(j.Local.S[0]-1.2) > 1e-6 {
				t.Errorf("head model %v local scale %v", j.Model.T, j.Local.S)
			}
		}
		if j.Path == "Armature/Hips/Spine/RightArm" {
			if math.Abs(j.Local.R[2]-math.Sin(math.Pi/4)) > 1e-4 {
				t.Errorf("right arm rotation %v", j.Local.R)
			}
		}
	}
}

func TestClipsListsEveryClipOfTheCorpusFiles(t *testing.T) {
	dir := corpustest.Dir(t)
	out, stderr, code := runCLI("clips", "--json", filepath.Join(dir, "lethal-emotes/customemotespackage"), filepath.Join(dir, "lc-example-enemy/modassets"))
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	names := map[string]map[string]any{}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatal(err)
		}
		names[m["name"].(string)] = m
	}
	if len(names) != 12 {
		t.Fatalf("%d clips: %v", len(names), names)
	}
	if names["Join"]["legacy"] != true || names["Dab"]["humanoid"] != true || names["walkCycle"]["humanoid"] != false {
		t.Errorf("kinds wrong: %v %v %v", names["Join"], names["Dab"], names["walkCycle"])
	}
	// walkCycle binds 63 paths; one of them (10 curves, hash 2629932354)
	// names no Transform of the enemy's rig, and no name table in the files
	// knows it, so it stays unresolved rather than guessed.
	if n := names["walkCycle"]["unresolved_paths"].(float64); n != 10 {
		t.Errorf("walkCycle: %g curves with unresolved paths, want the 10 of the one path its rig lacks", n)
	}
}

func TestHumanoidPoseNeedsAnAvatarAndPlaysOnOne(t *testing.T) {
	bundle := corpustest.Path(t, "lethal-emotes/customemotespackage")
	_, stderr, code := runCLI("pose", bundle, "--clip", "Dab", "--at", "1")
	if code == exitOK || !strings.Contains(stderr, "--avatar") {
		t.Fatalf("two humanoid avatars and no --avatar: exit %d, %q", code, stderr)
	}
	out, stderr, code := runCLI("pose", bundle, "--clip", "Dab", "--avatar", "bandit1Avatar", "--at", "0.5", "--at", "1.5", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var p struct {
		Frames []struct {
			Joints []struct {
				Path  string
				Local struct{ R []float64 }
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatal(err)
	}
	if len(p.Frames) != 2 || len(p.Frames[0].Joints) < 20 {
		t.Fatalf("%d poses", len(p.Frames))
	}
	moved := 0
	for j := range p.Frames[0].Joints {
		a, b := p.Frames[0].Joints[j].Local.R, p.Frames[1].Joints[j].Local.R
		n := math.Sqrt(a[0]*a[0] + a[1]*a[1] + a[2]*a[2] + a[3]*a[3])
		if math.Abs(n-1) > 1e-3 {
			t.Fatalf("joint %s rotation not unit: %v", p.Frames[0].Joints[j].Path, a)
		}
		if math.Abs(a[0]-b[0])+math.Abs(a[1]-b[1])+math.Abs(a[2]-b[2]) > 1e-3 {
			moved++
		}
	}
	if moved < 10 {
		t.Errorf("only %d joints moved between 0.5 s and 1.5 s of Dab", moved)
	}
}

func TestAvatarJSONCarriesTheHumanCheck(t *testing.T) {
	bundle := corpustest.Path(t, "plateup-emotes/morbman")
	out, stderr, code := runCLI("avatar", bundle, "--name", "morbmanAvatar", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var a struct {
		Name       string
		HumanCheck struct {
			CenterOfMass []float64 `json:"center_of_mass"`
			StoredRootT  []float64 `json:"stored_root_t"`
			Angle        float64   `json:"body_frame_angle_deg"`
		} `json:"human_check"`
	}
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		if math.Abs(a.HumanCheck.CenterOfMass[i]-a.HumanCheck.StoredRootT[i]) > 1e-5 {
			t.Fatalf("centre of mass %v vs m_RootX.t %v", a.HumanCheck.CenterOfMass, a.HumanCheck.StoredRootT)
		}
	}
}

// --rebuild builds each avatar again from its human description and
// reports the worst difference per field; an avatar without a description
// says so.
func TestAvatarRebuildReportsTheWorstDifferencePerField(t *testing.T) {
	morb := corpustest.Path(t, "plateup-emotes/morbman")
	sekai := corpustest.Path(t, "sekai/ladies_s_31_0001")
	out, stderr, code := runCLI("avatar", morb, sekai, "--rebuild", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d lines, want 2", len(lines))
	}
	var a, generic struct {
		Rebuild *struct {
			MaxRotationDeg float64            `json:"max_rotation_deg"`
			MaxRelative    float64            `json:"max_relative"`
			Fields         map[string]float64 `json:"fields"`
		} `json:"rebuild"`
		Problems []string
	}
	if err := json.Unmarshal([]byte(lines[0]), &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(lines[1]), &generic); err != nil {
		t.Fatal(err)
	}
	if a.Rebuild == nil || a.Rebuild.MaxRotationDeg > 1e-3 || a.Rebuild.MaxRelative > 1e-5 || len(a.Rebuild.Fields) < 20 {
		t.Fatalf("morbman rebuilt: %+v", a.Rebuild)
	}
	if d, ok := a.Rebuild.Fields["default_pose.q"]; !ok || math.Abs(d-90) > 1e-3 {
		t.Errorf("default_pose.q %v, want morbman's 90° (the scene's pose, not in the description)", d)
	}
	if generic.Rebuild != nil || len(generic.Problems) == 0 || !strings.Contains(generic.Problems[len(generic.Problems)-1], "no human description") {
		t.Errorf("sekai's generic avatar: rebuild %+v, problems %q", generic.Rebuild, generic.Problems)
	}
	text, _, code := runCLI("avatar", morb, "--rebuild")
	if code != exitOK || !strings.Contains(text, "rebuild from the human description") || !strings.Contains(text, "axes.pre") {
		t.Errorf("text output lacks the rebuild: %.2000s", text)
	}
}

func TestControllerAndPlayWalkTheEnemyController(t *testing.T) {
	bundle := corpustest.Path(t, "lc-example-enemy/modassets")
	out, stderr, code := runCLI("controller", bundle, "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(out, `"name":"Head Layer"`) || !strings.Contains(out, `"destination":"die-Toilet"`) {
		t.Fatalf("controller JSON lacks its layers and states: %.300s", out)
	}
	script := filepath.Join(t.TempDir(), "s.json")
	os.WriteFile(script, []byte(`{"duration": 3, "events": [{"at": 0.5, "trigger": "startWalk"}, {"at": 2.5, "trigger": "KillEnemy"}]}`), 0o644)
	out, stderr, code = runCLI("play", bundle, "--controller", "ExampleEnemyAnimator", "--script", script, "--rate", "10", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var doc struct {
		Controller objectRef
		On         *characterRef
		Frames     []struct {
			Time   float64
			Layers []struct{ Layer, State string }
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Frames) != 30 || doc.Frames[29].Time != 3 || doc.Controller.Name != "ExampleEnemyAnimator" || doc.Controller.PathID != 7717430140009473784 {
		t.Fatalf("%d ticks, want 30 to 3 s, of the controller with its path id: %+v", len(doc.Frames), doc.Controller)
	}
	last := doc.Frames[len(doc.Frames)-1]
	got := []string{}
	for _, l := range last.Layers {
		got = append(got, l.Layer+"="+l.State)
	}
	if strings.Join(got, ",") != "Head Layer=die-Head,Walk Layer=die-Legs,Toilet Layer=die-Toilet" {
		t.Fatalf("after KillEnemy: %v", got)
	}
	// Determinism: the same run twice gives the same bytes.
	out2, _, _ := runCLI("play", bundle, "--controller", "ExampleEnemyAnimator", "--script", script, "--rate", "10", "--json")
	if out2 != out {
		t.Fatal("two runs differ")
	}
}

func TestRenderWritesAPNGSheetAndAPlot(t *testing.T) {
	dir := t.TempDir()
	sheet := filepath.Join(dir, "wave.png")
	_, stderr, code := runCLI("render", example, "--clip", "Wave", "--frames", "4", "-o", sheet)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	plot := filepath.Join(dir, "curves.png")
	_, stderr, code = runCLI("render", example, "--clip", "Wave", "--curves", "m_LocalRotation.z,m_LocalPosition.y", "-o", plot)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, p := range []string{sheet, plot} {
		b, err := os.ReadFile(p)
		if err != nil || len(b) < 1000 || string(b[1:4]) != "PNG" {
			t.Errorf("%s: not a PNG (%d bytes, %v)", p, len(b), err)
		}
	}
	if _, _, code := runCLI("render", example, "--clip", "Wave", "--frames", "0", "-o", sheet); code != exitUsage {
		t.Errorf("--frames 0: exit %d, want usage error", code)
	}
}

func TestViewRefusesANonLoopbackAddressWithoutPublic(t *testing.T) {
	_, stderr, code := runCLI("view", example, "--addr", "0.0.0.0:0")
	if code != exitUsage {
		t.Fatalf("exit %d (%s), want a usage error", code, stderr)
	}
	if !strings.Contains(stderr, "--public") {
		t.Errorf("the error should say how to allow it: %q", stderr)
	}
}

// table is sample's and retarget's JSON read back with each curve's
// values gathered from the frames.
type table struct {
	Clip       objectRef
	On         characterRef
	SampleRate float64 `json:"sample_rate"`
	Times      []float64
	Curves     []struct {
		Path     string
		ClassID  int `json:"class_id"`
		Property string
		Curve    string
		Values   []float64
	}
}

func decodeTable(t *testing.T, out string) table {
	t.Helper()
	var doc struct {
		table
		Frames []struct {
			Time   float64
			Values []float64
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v: %.300s", err, out)
	}
	tb := doc.table
	for _, f := range doc.Frames {
		tb.Times = append(tb.Times, f.Time)
		if len(f.Values) != len(tb.Curves) {
			t.Fatalf("a frame of %d values for %d curves", len(f.Values), len(tb.Curves))
		}
		for i, v := range f.Values {
			tb.Curves[i].Values = append(tb.Curves[i].Values, v)
		}
	}
	return tb
}
