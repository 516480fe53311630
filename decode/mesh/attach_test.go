package mesh

import (
	"errors"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/decode/catalog"
	"github.com/mecanim/mecanim/internal/synth"
	"github.com/mecanim/mecanim/unity/assets"
	"github.com/mecanim/mecanim/unity/unitywrite"
)

// A renderer whose mesh reference is empty and a renderer drawing one of
// Unity's built-in meshes (held by Unity's own resource files, not given)
// are each reported, naming the renderer, its GameObject and why, never
// dropped without a word; a mesh in another file not given says so.
func TestAttachReportsRenderersItLeavesOut(t *testing.T) {
	sc := synth.NewScene(t, synth.Options{Full: true})
	smr := func(pid int64, bone int, mesh synth.F) {
		sc.Add(pid, ClassSkinnedMeshRenderer, synth.F{"m_GameObject": synth.PPtr(int64(synth.GameObjectBase + bone)), "m_Mesh": mesh, "m_Enabled": true})
	}
	smr(900, 1, synth.F{"m_FileID": 0, "m_PathID": 0})
	smr(901, 2, synth.F{"m_FileID": 1, "m_PathID": 10202})
	smr(902, 3, synth.F{"m_FileID": 2, "m_PathID": 77})
	p := sc.WriteWith("renderers.assets", []unitywrite.External{
		{Path: "Library/unity default resources"}, {Path: "archive:/CAB-0123/CAB-0123"}})
	c, err := assets.Open(p, assets.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cat := catalog.New(c)
	defer cat.Close()
	rigs, errs := cat.Rigs()
	if len(errs) > 0 || len(rigs) != 1 {
		t.Fatalf("%d rigs, %v", len(rigs), errs)
	}
	meshes, errs := Attach(rigs[0].File, rigs[0].Rig, cat.Resolver())
	if len(meshes) != 0 || len(errs) != 3 {
		t.Fatalf("%d meshes, errors %v: want 3 renderers reported", len(meshes), errs)
	}
	want := []struct {
		err  error
		says []string
	}{
		{ErrNoMesh, []string{"renderer 900", synth.BonePath(1), "has no mesh"}},
		{ErrBuiltinMesh, []string{"renderer 901", "10202", "unity default resources", "built-in"}},
		{ErrMeshMissing, []string{"renderer 902", "77", "CAB-0123", "no file given"}},
	}
	for i, w := range want {
		if !errors.Is(errs[i], w.err) {
			t.Errorf("renderer %d: %v, want %v", i, errs[i], w.err)
		}
		for _, s := range w.says {
			if !strings.Contains(errs[i].Error(), s) {
				t.Errorf("renderer %d: %q does not say %q", i, errs[i], s)
			}
		}
	}
}
