package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/mecanim/mecanim/internal/corpustest"
)

// TestPlayAnimatorTakesRootMotionFromOneJoint: ExampleEnemyModel's avatar
// names no root motion bone and none of its clips animates the Animator's
// own transform, so it has no root motion (each clip used to pick its own
// root joint: b.body, Bone... and report their wobble as motion).
func TestPlayAnimatorTakesRootMotionFromOneJoint(t *testing.T) {
	bundle := corpustest.Path(t, "lc-example-enemy/modassets")
	script := filepath.Join(t.TempDir(), "s.json")
	os.WriteFile(script, []byte(`{"duration": 3, "events": [{"at": 0.5, "trigger": "startWalk"}, {"at": 2.5, "trigger": "KillEnemy"}]}`), 0o644)
	out, stderr, code := runCLI("play", bundle, "--animator", "ExampleEnemyModel", "--script", script, "--rate", "10", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var doc struct {
		Frames []struct {
			RootMotion struct {
				T [3]float64
				R [4]float64
			} `json:"root_motion"`
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Frames) != 30 {
		t.Fatalf("%d ticks, want 30", len(doc.Frames))
	}
	for i, rec := range doc.Frames {
		if rec.RootMotion.T != [3]float64{} || rec.RootMotion.R != [4]float64{0, 0, 0, 1} {
			t.Errorf("tick %d: root motion %+v, want none", i+1, rec.RootMotion)
		}
	}
}
