package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/internal/synth"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/unitywrite"
)

// An avatar whose description leaves every parent name empty (as
// AvatarBuilder.BuildHumanAvatar and UniVRM write it) rebuilds from its own
// skeleton's hierarchy, as one with its parents named does.
func TestAvatarRebuildTakesEmptyParentsFromTheHierarchy(t *testing.T) {
	write := func(name string, a *model.Avatar) string {
		tree, err := synth.Tree(model.ClassAvatar)
		if err != nil {
			t.Fatal(err)
		}
		data, err := unitywrite.Encode(tree, synth.AvatarFields(a))
		if err != nil {
			t.Fatal(err)
		}
		file, err := unitywrite.SerializedFile(synth.UnityVersion, 19, []unitywrite.Object{{PathID: 1, ClassID: model.ClassAvatar, Tree: tree, Data: data}}, nil, false)
		if err != nil {
			t.Fatal(err)
		}
		b, err := unitywrite.Bundle(synth.UnityVersion, []unitywrite.Entry{{Path: "CAB-" + name, Data: file, Flags: 4}}, 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	named := synth.DescribedHumanAvatar()
	empty := synth.DescribedHumanAvatar()
	for i := range empty.Description.Skeleton {
		empty.Description.Skeleton[i].ParentName = ""
	}
	type rebuilt struct {
		Rebuild *struct {
			MaxRotationDeg float64 `json:"max_rotation_deg"`
			MaxRelative    float64 `json:"max_relative"`
		} `json:"rebuild"`
		Problems []string `json:"problems"`
	}
	var got [2]rebuilt
	for i, p := range []string{write("named", named), write("empty", empty)} {
		out, stderr, code := runCLI("avatar", p, "--rebuild", "--json")
		if code != exitOK {
			t.Fatalf("%s: exit %d: %s", p, code, stderr)
		}
		if err := json.Unmarshal([]byte(out), &got[i]); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		for _, pr := range got[i].Problems {
			if strings.HasPrefix(pr, "rebuild:") {
				t.Errorf("%s: %s", p, pr)
			}
		}
		if got[i].Rebuild == nil {
			t.Fatalf("%s: no rebuild", p)
		}
	}
	if *got[0].Rebuild != *got[1].Rebuild {
		t.Errorf("rebuilt with parents named %+v, from the hierarchy %+v", *got[0].Rebuild, *got[1].Rebuild)
	}
}
