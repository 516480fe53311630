package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/model"
)

// retargetOutput is the JSON `retarget` writes.
type retargetOutput struct {
	Clip   string
	On     string
	Rate   float64
	Times  []float64
	Curves []struct {
		Path     string
		ClassID  int `json:"class_id"`
		Property string
		Values   []float64
	}
}

// The corpus has no generic clip animating a humanoid avatar's bones (its
// generic clips animate generic rigs, the Y Bot has no clips), so the
// command is checked on a humanoid clip read back on its avatar: Floss on
// bandit1 recorded at Floss's 30 Hz gives, at every frame, the values
// `sample` evaluates from Floss's own curves (within 1e-4, RootQ up to
// sign and normalised: Floss stores RootQ 0.2% off unit length), and 0 for
// the muscles of the bones bandit1 lacks (upper chest, neck, right eye, jaw,
// the thumbs' distal bones).
func TestRetargetOfFlossOnBandit1GivesFlossCurves(t *testing.T) {
	file := corpustest.Path(t, "lethal-emotes/customemotespackage")
	out, stderr, code := runCLI("retarget", file, "--clip", "Floss", "--avatar", "bandit1Avatar", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var r retargetOutput
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Clip != "Floss" || r.Rate != 30 || len(r.Times) != 49 || len(r.Curves) != 35+95 {
		t.Fatalf("clip %q at %g Hz, %d times, %d curves; want Floss, 30 Hz, 49 times, 130 curves", r.Clip, r.Rate, len(r.Times), len(r.Curves))
	}
	sout, stderr, code := runCLI("sample", file, "--clip", "Floss", "--rate", "30", "--json")
	if code != exitOK {
		t.Fatalf("sample: exit %d: %s", code, stderr)
	}
	var s retargetOutput
	if err := json.Unmarshal([]byte(sout), &s); err != nil {
		t.Fatal(err)
	}
	want := map[string][]float64{}
	for _, c := range s.Curves {
		if c.ClassID == 95 {
			want[c.Property] = c.Values
		}
	}
	if q := [4][]float64{want["RootQ.x"], want["RootQ.y"], want["RootQ.z"], want["RootQ.w"]}; q[0] != nil && q[1] != nil && q[2] != nil && q[3] != nil {
		for i := range q[3] {
			n := math.Sqrt(q[0][i]*q[0][i] + q[1][i]*q[1][i] + q[2][i]*q[2][i] + q[3][i]*q[3][i])
			for k := range q {
				q[k][i] /= n
			}
		}
	}
	qsign := 1.0
	compared := 0
	for _, c := range r.Curves {
		if c.ClassID != 95 || c.Path != "" || len(c.Values) != len(r.Times) {
			t.Fatalf("curve %q: class %d, path %q, %d values", c.Property, c.ClassID, c.Path, len(c.Values))
		}
		lacks := false
		for _, p := range []string{"UpperChest ", "Neck ", "Right Eye ", "Jaw ", "LeftHand.Thumb.3 ", "RightHand.Thumb.3 "} {
			lacks = lacks || strings.HasPrefix(c.Property, p)
		}
		if a, _ := model.HumanAttributeByName(c.Property); a >= model.FirstRootAttribute+7 && a < model.FirstMuscleAttribute {
			continue // IK goals: ours are where the pose puts the limbs (humanoid.Rig.Goals), not Unity's importer's
		}
		w, ok := want[c.Property]
		if lacks {
			w, ok = make([]float64, len(c.Values)), true
		}
		if !ok {
			continue
		}
		if c.Property == "RootQ.w" && c.Values[0]*w[0] < 0 {
			qsign = -1
		}
		compared++
		for i, v := range c.Values {
			ww := w[i]
			if strings.HasPrefix(c.Property, "RootQ.") {
				ww *= qsign
			}
			if math.Abs(v-ww) > 1e-4 {
				t.Errorf("%s at %g: %g, Floss has %g", c.Property, r.Times[i], v, ww)
				break
			}
		}
	}
	if compared < 50 {
		t.Errorf("compared %d curves with Floss's, want most of the 130", compared)
	}
}

// -o writes the same JSON to a file and prints a one-line summary.
func TestRetargetWritesTheJSONWithO(t *testing.T) {
	file := corpustest.Path(t, "lethal-emotes/customemotespackage")
	path := filepath.Join(t.TempDir(), "floss.json")
	out, stderr, code := runCLI("retarget", file, "--clip", "Floss", "--avatar", "IGOTITPOGGGGGAvatar", "--rate", "10", "-o", path)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(out, "written to") {
		t.Errorf("stdout %q", out)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var r retargetOutput
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	// 1.6 s at 10 Hz: frames at 0, 0.1, ..., 1.6.
	if r.Rate != 10 || len(r.Times) != 17 || len(r.Curves) != 130 || r.On != `rig "commando"` {
		t.Errorf("rate %g, %d times, %d curves, on %s", r.Rate, len(r.Times), len(r.Curves), r.On)
	}
}

func TestRetargetExitStatuses(t *testing.T) {
	file := corpustest.Path(t, "lethal-emotes/customemotespackage")
	cases := []struct {
		name string
		args []string
		want int
	}{
		{"no files", []string{"--clip", "Floss", "--avatar", "bandit1Avatar"}, exitUsage},
		{"no avatar, two humanoid ones in the files", []string{file, "--clip", "Floss"}, exitRead},
		{"no clip", []string{file, "--avatar", "bandit1Avatar"}, exitUsage},
		{"negative rate", []string{file, "--clip", "Floss", "--avatar", "bandit1Avatar", "--rate", "-1"}, exitUsage},
		{"rate too high", []string{file, "--clip", "Floss", "--avatar", "bandit1Avatar", "--rate", "1e9"}, exitUsage},
		{"unknown avatar", []string{file, "--clip", "Floss", "--avatar", "nobody"}, exitRead},
		// Join is a legacy generic clip of a prop's Transforms, none of them bandit1's bones.
		{"generic clip of other paths", []string{file, "--clip", "Join", "--avatar", "bandit1Avatar"}, exitRead},
		{"help", []string{"-h"}, exitOK},
	}
	for _, c := range cases {
		_, stderr, code := runCLI(append([]string{"retarget"}, c.args...)...)
		if code != c.want {
			t.Errorf("%s: exit %d want %d (stderr %q)", c.name, code, c.want, stderr)
		}
	}
}
