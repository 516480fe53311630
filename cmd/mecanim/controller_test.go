package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/model"
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

// TestControllerShowsEachLayersBodyMask: every layer carries its humanoid
// body mask, "full", "none" or the parts that are on, in the text and as
// "body_mask" in the JSON; a layer naming an AvatarMask that was not read
// (a YAML source's MaskKey without mask words) says so instead of passing
// for the full mask.
func TestControllerShowsEachLayersBodyMask(t *testing.T) {
	words := func(m model.HumanMask) []uint32 { return m[:] }
	on := func(parts ...model.BodyPart) []uint32 {
		list := make([]uint32, model.BodyPartCount)
		for _, p := range parts {
			list[p] = 1
		}
		return words(model.HumanMaskFromParts(list))
	}
	cases := []struct {
		name     string
		layer    model.Layer
		wantJSON string // the raw "body_mask" value
		wantKey  string // "mask_key", "" for none
		wantText string
	}{
		{"the full mask compiled", model.Layer{BodyMask: words(model.FullHumanMask())}, `"full"`, "", "body mask: full"},
		{"no mask recorded is the full mask", model.Layer{}, `"full"`, "", "body mask: full"},
		{"an empty mask", model.Layer{BodyMask: []uint32{0, 0, 0}}, `"none"`, "", "body mask: none"},
		{"a partial mask names its parts", model.Layer{BodyMask: on(model.PartBody, model.PartHead, model.PartLeftArm)},
			`"Body+Head+LeftArm"`, "", "body mask: Body+Head+LeftArm"},
		{"an AvatarMask not read", model.Layer{MaskKey: "0123abcd:31900000"},
			`null`, "0123abcd:31900000", "body mask: unresolved AvatarMask 0123abcd:31900000"},
		{"an AvatarMask read keeps its key", model.Layer{MaskKey: ":9100", BodyMask: on(model.PartRoot, model.PartBody)},
			`"Root+Body"`, ":9100", "body mask: Root+Body"},
	}
	src := model.Source{Container: "c", File: "f", PathID: 1}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l := c.layer
			l.Name, l.Weight, l.StateMachine, l.SyncedLayer = "L", 1, -1, -1
			v := controllerView(src, &bound.ControllerClips{Controller: &model.Controller{Name: "C", Layers: []model.Layer{l}}}, nil)
			b, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			var j struct {
				Layers []map[string]json.RawMessage `json:"layers"`
			}
			if err := json.Unmarshal(b, &j); err != nil {
				t.Fatal(err)
			}
			got, ok := j.Layers[0]["body_mask"]
			if !ok || string(got) != c.wantJSON {
				t.Errorf("body_mask %s (present %v), want %s", got, ok, c.wantJSON)
			}
			key := j.Layers[0]["mask_key"]
			if string(key) != strconv.Quote(c.wantKey) {
				t.Errorf("mask_key %s, want %q", key, c.wantKey)
			}
			for _, k := range []string{"name", "state_machine", "blending", "weight", "stored_weight", "skeleton_mask_entries", "synced_layer"} {
				if _, ok := j.Layers[0][k]; !ok {
					t.Errorf("layer lacks %q: %s", k, b)
				}
			}
			var text strings.Builder
			controllerText(&text, v)
			if want := `layer 0 "L" (override, weight 1) ` + c.wantText + "\n"; !strings.Contains(text.String(), want) {
				t.Errorf("text lacks %q:\n%s", want, text.String())
			}
		})
	}
}

// Every layer of every corpus controller stores the full mask.
func TestControllerCorpusLayersHaveTheFullBodyMask(t *testing.T) {
	dir := corpustest.Dir(t)
	for _, f := range []string{"lc-example-enemy/modassets", "plateup-emotes/morbman", "jotunn/kitbash",
		"lethal-emotes/customemotespackage", "unitydatatools/2020.3.0f1/assetbundle"} {
		path := filepath.Join(dir, f)
		out, stderr, code := runCLI("controller", path, "--json")
		if code != exitOK {
			t.Fatalf("%s: exit %d: %s", f, code, stderr)
		}
		layers := 0
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			var v struct {
				Layers []map[string]json.RawMessage `json:"layers"`
			}
			if err := json.Unmarshal([]byte(line), &v); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			for _, l := range v.Layers {
				layers++
				if m := string(l["body_mask"]); m != `"full"` {
					t.Errorf("%s: layer %s: body_mask %s, want \"full\"", f, l["name"], m)
				}
			}
		}
		text, _, _ := runCLI("controller", path)
		if n := strings.Count(text, ") body mask: full\n"); layers == 0 || n != layers {
			t.Errorf("%s: %d layers, %d text lines with the full body mask", f, layers, n)
		}
	}
}

// The JSON states carry the settings that change how a state plays: loop,
// Foot IK, write defaults (dancecontroller's source: Foot IK on every state
// but "none", which loops; PoopToLoop does not loop).
func TestControllerJSONStatesCarryTheirSettings(t *testing.T) {
	path := corpustest.Path(t, "lethal-emotes/customemotespackage")
	out, stderr, code := runCLI("controller", path, "--name", "dancecontroller", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var v struct {
		Machines []struct {
			States []struct {
				Name          string `json:"name"`
				Loop          bool   `json:"loop"`
				FootIK        bool   `json:"foot_ik"`
				WriteDefaults bool   `json:"write_defaults"`
			} `json:"states"`
		} `json:"state_machines"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	want := map[string][2]bool{"none": {true, false}, "Loop": {true, true}, "Poop": {true, true},
		"PoopToLoop": {false, true}, "LoopFromPoop": {true, true}}
	seen := 0
	for _, m := range v.Machines {
		for _, s := range m.States {
			w, ok := want[s.Name]
			if !ok {
				continue
			}
			seen++
			if s.Loop != w[0] || s.FootIK != w[1] || !s.WriteDefaults {
				t.Errorf("state %q: loop %v foot_ik %v write_defaults %v, want %v %v true", s.Name, s.Loop, s.FootIK, s.WriteDefaults, w[0], w[1])
			}
		}
	}
	if seen != len(want) {
		t.Errorf("%d of %d states seen", seen, len(want))
	}
}

// TestControllerOfAnEmptyLayerNamesNoDefaultState: a layer whose state
// machine has no state (a Lethal Company mod's controller has one) starts
// in none, said as "(none)", never as a state that does not exist.
func TestControllerOfAnEmptyLayerNamesNoDefaultState(t *testing.T) {
	path := filepath.Join(t.TempDir(), "Empty.controller")
	if err := os.WriteFile(path, []byte(`%YAML 1.1
%TAG !u! tag:unity3d.com,2011:
--- !u!91 &9100000
AnimatorController:
  m_Name: Empty
  m_AnimatorParameters: []
  m_AnimatorLayers:
  - serializedVersion: 5
    m_Name: Walk Layer
    m_StateMachine: {fileID: 1107000}
    m_Mask: {fileID: 0}
    m_BlendingMode: 0
    m_SyncedLayerIndex: -1
    m_DefaultWeight: 1
--- !u!1107 &1107000
AnimatorStateMachine:
  m_Name: Walk Layer
  m_ChildStates: []
  m_ChildStateMachines: []
  m_AnyStateTransitions: []
  m_EntryTransitions: []
  m_DefaultState: {fileID: 0}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := runCLI("controller", path)
	if code != exitOK || !strings.Contains(out, "default state (none)") || strings.Contains(out, "#state") {
		t.Fatalf("exit %d: %s\n%s", code, out, stderr)
	}
	out, stderr, code = runCLI("controller", path, "--json")
	if code != exitOK || !strings.Contains(out, `"default_state":"(none)"`) {
		t.Fatalf("exit %d: %s\n%s", code, out, stderr)
	}
}
