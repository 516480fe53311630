package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/internal/synth"
	"github.com/mecanim/mecanim/model"
)

// A clip whose integer curve holds bit patterns that read as NaN when
// taken for floats (a shipped camera clip): clips lists it, sample prints
// each integer exactly as a JSON integer held from key to key, following
// the schema, and nothing exits 1.
func TestIntegerCurvesAreSampledAsJSONIntegers(t *testing.T) {
	sc := synth.NewScene(t, synth.Options{Full: true})
	sc.Add(9001, model.ClassAnimationClip, synth.CameraClipFields(false))
	p := sc.Write("scene.assets")

	v := &validator{t: t, schemas: schemas(t), checked: map[string]int{}}
	clips := v.run("clips", []string{p})
	found := false
	for _, c := range clips {
		m := c.(map[string]any)
		if m["name"] == "CameraCut" {
			found = true
			if n, _ := m["int_curves"].(json.Number).Int64(); n != 3 {
				t.Errorf("int_curves %v, want 3", m["int_curves"])
			}
		}
	}
	if !found {
		t.Fatalf("clips does not list CameraCut")
	}

	out, stderr, code := runCLI("sample", p, "--clip", "CameraCut", "--at", "0,0.5,1", "--json")
	if code != exitOK {
		t.Fatalf("sample: exit %d: %s", code, stderr)
	}
	v.check("sample", []string{p}, out)
	var doc struct {
		Curves []struct {
			Curve   string
			Integer bool
		}
		Frames []struct{ Values []json.Number }
	}
	d := json.NewDecoder(strings.NewReader(out))
	d.UseNumber()
	if err := d.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Curves) != 4 || doc.Curves[0].Integer || !doc.Curves[1].Integer || !doc.Curves[3].Integer {
		t.Fatalf("curves %+v: want the field of view, then 3 integer curves", doc.Curves)
	}
	want := [][]string{
		{"60", "3", "5", "2139095040"},
		{"40", "2143289345", "2143363909", "2139095040"},
		{"40", "-1", "2143363909", "2139095040"},
	}
	for k, w := range want {
		for i, x := range w {
			if got := doc.Frames[k].Values[i].String(); got != x {
				t.Errorf("frame %d curve %d (%s): %s, want %s", k, i, doc.Curves[i].Curve, got, x)
			}
		}
	}

	csv, _, code := runCLI("sample", p, "--clip", "CameraCut", "--at", "0.5", "--csv")
	if code != exitOK || !strings.Contains(csv, ",2143289345,") {
		t.Errorf("csv (exit %d) does not hold the integer 2143289345 exactly:\n%s", code, csv)
	}
}
