package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/internal/corpustest"
)

// TestControllerPrintsTheBaseLayerAtFullWeight: the enemy controller stores
// weight 0 on its base layer, which Unity (and the animator package) plays
// at 1 whatever is stored; the text and JSON give the weight it plays at
// and keep the stored one beside it.
func TestControllerPrintsTheBaseLayerAtFullWeight(t *testing.T) {
	bundle := corpustest.Path(t, "lc-example-enemy/modassets")
	out, stderr, code := runCLI("controller", bundle)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		`layer 0 "Head Layer" (override, weight 1, stored 0)`,
		`layer 1 "Walk Layer" (additive, weight 1)`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q:\n%s", want, out)
		}
	}
	out, stderr, code = runCLI("controller", bundle, "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var v struct {
		Layers []struct {
			Name   string  `json:"name"`
			Weight float64 `json:"weight"`
			Stored float64 `json:"stored_weight"`
		} `json:"layers"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Layers) != 3 {
		t.Fatalf("%d layers, want 3", len(v.Layers))
	}
	for i, want := range [][2]float64{{1, 0}, {1, 1}, {1, 1}} {
		if l := v.Layers[i]; l.Weight != want[0] || l.Stored != want[1] {
			t.Errorf("layer %d %q: weight %g stored %g, want %g stored %g", i, l.Name, l.Weight, l.Stored, want[0], want[1])
		}
	}
}
