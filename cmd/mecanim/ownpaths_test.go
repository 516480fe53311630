package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/internal/synth"
	"github.com/mecanim/mecanim/model"
	qg "github.com/qmuntal/gltf"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// stageScene is the synthetic scene with two clips no character of it
// takes: a stage clip (a camera's motion and lens, a light) and a camera
// clip of integer curves only.
func stageScene(t *testing.T) string {
	sc := synth.NewScene(t, synth.Options{Full: true})
	sc.Add(9001, model.ClassAnimationClip, synth.CameraClipFields(false))
	sc.Add(9002, model.ClassAnimationClip, synth.StageClipFields())
	return sc.Write("stage.assets")
}

// A clip whose character the inputs lack plays on a rig of its own paths:
// export writes its Transform curves as node animation, its Camera as a
// glTF camera, and its other curves in NAME.curves.json and .csv beside
// the file; the JSON follows its schema.
func TestExportPlaysAClipWithoutItsRigOnItsOwnPaths(t *testing.T) {
	p := stageScene(t)
	out := filepath.Join(t.TempDir(), "stage.glb")
	stdout, stderr, code := runCLI("export", p, "--clip", "StageCut", "-o", out, "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var sum struct {
		On         struct{ Kind, Name string }
		Animations []struct{ Written bool }
		Curves     []string
	}
	if err := json.Unmarshal([]byte(stdout), &sum); err != nil {
		t.Fatal(err)
	}
	if sum.On.Kind != "paths" || sum.On.Name != "StageCut" || len(sum.Animations) != 1 || !sum.Animations[0].Written {
		t.Errorf("summary %+v: want the clip written on its own paths", sum)
	}
	base := strings.TrimSuffix(out, ".glb")
	if len(sum.Curves) != 2 || sum.Curves[0] != base+".curves.json" || sum.Curves[1] != base+".curves.csv" {
		t.Errorf("curves %q, want the JSON and CSV tables beside the file", sum.Curves)
	}
	doc, err := qg.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	// The root and the two GameObjects the clip names (by hash: no name
	// table of the scene names them), and the camera's own node.
	if len(doc.Nodes) != 4 || len(doc.Cameras) != 1 || len(doc.Animations) != 1 {
		t.Fatalf("%d nodes, %d cameras, %d animations; want 4, 1, 1", len(doc.Nodes), len(doc.Cameras), len(doc.Animations))
	}
	cam := doc.Cameras[0].Perspective
	if cam == nil || abs(cam.Yfov-40*3.14159265/180) > 1e-5 || abs(cam.Znear-0.1) > 1e-6 {
		t.Errorf("camera %+v: want 40° and a near plane at 0.1", cam)
	}
	camNode := "#" + itoa(model.PathHash(synth.StageCamPath))
	ch := doc.Animations[0].Channels
	if len(ch) != 1 || doc.Nodes[*ch[0].Target.Node].Name != camNode {
		t.Errorf("channels %+v: want the camera node's translation", ch)
	}

	table, err := os.ReadFile(base + ".curves.json")
	if err != nil {
		t.Fatal(err)
	}
	checkCurvesSchema(t, string(table))
	var tb struct {
		SampleRate float64 `json:"sample_rate"`
		Curves     []struct{ Curve string }
		Frames     []struct {
			Time   float64
			Values []float64
		}
	}
	if err := json.Unmarshal(table, &tb); err != nil {
		t.Fatal(err)
	}
	if tb.SampleRate != 10 || len(tb.Curves) != 3 || len(tb.Frames) != 3 || tb.Frames[2].Values[0] != 40 || abs(tb.Frames[2].Values[2]-2.5) > 1e-6 {
		t.Errorf("table %+v: want 3 curves (fov, near, intensity) over 3 frames at 10 Hz", tb)
	}
	csv, _ := os.ReadFile(base + ".curves.csv")
	if !strings.HasPrefix(string(csv), "time,"+camNode+":#") || strings.Count(string(csv), "\n") != 4 {
		t.Errorf("csv:\n%s", csv)
	}

	// A clip of integer curves alone: nothing for glTF to move, its table
	// holds it, and that is no failure.
	out2 := filepath.Join(t.TempDir(), "cut.glb")
	_, stderr, code = runCLI("export", p, "--clip", "CameraCut", "-o", out2)
	if code != exitOK || !strings.Contains(stderr, "cut.curves.json") {
		t.Fatalf("integer-only clip: exit %d: %s", code, stderr)
	}
	cut, _ := os.ReadFile(strings.TrimSuffix(out2, ".glb") + ".curves.csv")
	if !strings.Contains(string(cut), ",2143289345,") {
		t.Errorf("integer table does not hold 2143289345 exactly:\n%s", cut)
	}
}

// Every command makes the same choice: pose plays the clip on its own
// paths too, rather than refusing it.
func TestPosePlaysAClipWithoutItsRigOnItsOwnPaths(t *testing.T) {
	p := stageScene(t)
	stdout, stderr, code := runCLI("pose", p, "--clip", "StageCut", "--at", "0.2", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, `"kind":"paths"`) || !strings.Contains(stdout, `"t":[2,0,0]`) {
		t.Errorf("pose: %.600s", stdout)
	}
}

// checkCurvesSchema validates a curve table against docs/schema/curves.json.
func checkCurvesSchema(t *testing.T, doc string) {
	t.Helper()
	checkSchemaFile(t, "curves.json", doc)
}

// checkSchemaFile validates a JSON document against docs/schema/NAME.
func checkSchemaFile(t *testing.T, name, doc string) {
	t.Helper()
	p, err := filepath.Abs(filepath.Join(schemaDir, name))
	if err != nil {
		t.Fatal(err)
	}
	sch, err := jsonschema.NewCompiler().Compile(p)
	if err != nil {
		t.Fatalf("schema: %v", err)
	}
	val, err := jsonschema.UnmarshalJSON(strings.NewReader(doc))
	if err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	if err := sch.Validate(val); err != nil {
		t.Errorf("does not follow docs/schema/%s: %v\n%.400s", name, err, doc)
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

func itoa(x uint32) string { return strings.TrimPrefix(model.UnnamedPath(x), "#") }

// Extract exports a clip no character takes on its own paths, writes its
// curve tables beside the file, and lists both in the manifest.
func TestExtractListsClipsOnTheirOwnPathsAndTheirTables(t *testing.T) {
	p := stageScene(t)
	out := t.TempDir()
	_, stderr, code := runCLI("extract", p, "-o", out)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(filepath.Join(out, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	checkSchemaFile(t, "manifest.json", string(b))
	var m struct {
		Characters []struct {
			Name     string
			Output   string
			OwnPaths bool `json:"own_paths"`
			Curves   []string
			Clips    []struct{ Name, Why string }
		}
		Clips []struct {
			Name    string
			Outputs []string
			Skipped string
		}
		Outputs []struct{ Path, Kind string }
	}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	kinds := map[string]string{}
	for _, o := range m.Outputs {
		kinds[o.Path] = o.Kind
	}
	for _, name := range []string{"StageCut", "CameraCut"} {
		found := false
		for _, c := range m.Characters {
			if c.Name != name {
				continue
			}
			found = true
			if !c.OwnPaths || c.Output != name+".glb" || len(c.Clips) != 1 || c.Clips[0].Why != "paths" ||
				len(c.Curves) != 2 || c.Curves[0] != name+".curves.json" {
				t.Errorf("character %+v: want %s on its own paths with its tables", c, name)
			}
			if kinds[c.Output] != "paths" || kinds[name+".curves.json"] != "curves" || kinds[name+".curves.csv"] != "curves" {
				t.Errorf("outputs %v: want %s.glb (paths) and its two tables (curves)", kinds, name)
			}
			if _, err := os.Stat(filepath.Join(out, name+".curves.csv")); err != nil {
				t.Error(err)
			}
		}
		if !found {
			t.Errorf("no character record for %s in %s", name, b)
		}
	}
	for _, c := range m.Clips {
		if (c.Name == "StageCut" || c.Name == "CameraCut") && (len(c.Outputs) != 1 || c.Skipped != "") {
			t.Errorf("clip %+v: want it in its own output", c)
		}
	}
}
