package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/decode/mesh"
	"github.com/mecanim/mecanim/internal/synth"
	"github.com/mecanim/mecanim/unity/unitywrite"
)

// export and extract agree on meshes outside the inputs: a renderer
// drawing Unity's built-in cube gets the cube in both; one drawing another
// of Unity's built-in meshes and one drawing a mesh of a file not given
// are notes in both, naming the mesh and the file, and both exit 0.
func TestExportAndExtractAgreeOnMeshesOutsideTheInputs(t *testing.T) {
	sc := synth.NewScene(t, synth.Options{Full: true})
	smr := func(pid int64, bone int, file, id int64) {
		sc.Add(pid, mesh.ClassSkinnedMeshRenderer, synth.F{"m_GameObject": synth.PPtr(int64(synth.GameObjectBase + bone)),
			"m_Mesh": synth.F{"m_FileID": file, "m_PathID": id}, "m_Enabled": true})
	}
	smr(901, 2, 1, 10205) // not a primitive
	smr(902, 3, 2, 77)
	smr(903, 4, 1, 10202) // the cube
	p := sc.WriteWith("renderers.assets", []unitywrite.External{
		{Path: "Library/unity default resources"}, {Path: "archive:/CAB-0123/CAB-0123"}})
	dir := t.TempDir()
	_, exportErr, exportCode := runCLI("export", p, "-o", filepath.Join(dir, "one.glb"))
	_, extractErr, extractCode := runCLI("extract", p, "-o", filepath.Join(dir, "all"))
	if exportCode != exitOK || extractCode != exitOK {
		t.Fatalf("export exit %d (%s), extract exit %d (%s): want both 0", exportCode, exportErr, extractCode, extractErr)
	}
	manifest, err := os.ReadFile(filepath.Join(dir, "all", "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, says := range []string{"10205", "unity default resources", "77", "CAB-0123"} {
		if !strings.Contains(exportErr, says) || !strings.Contains(string(manifest), says) {
			t.Errorf("export's notes %q or extract's manifest do not say %q", exportErr, says)
		}
	}
	if !strings.Contains(exportErr, "1 meshes") {
		t.Errorf("export wrote no cube: %q", exportErr)
	}
}
