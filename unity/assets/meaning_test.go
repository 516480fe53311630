package assets

import (
	"errors"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/internal/synth"
	"github.com/mecanim/mecanim/unity/typetree"
	"github.com/mecanim/mecanim/unity/unitywrite"
)

// TestPPtrOutsideTheExternalsIsDamage: a PPtr whose m_FileID is neither 0
// (this file) nor a place in the file's externals table points into no file
// at all; decoding the object fails naming the field, instead of the
// reference silently leading nowhere (a bone, a child or a GameObject
// dropped). A m_FileID inside the table is a reference into another file,
// valid whether or not that file is given.
func TestPPtrOutsideTheExternalsIsDamage(t *testing.T) {
	ext := []unitywrite.External{{Path: "archive:/CAB-other/CAB-other", Type: 0}}
	cases := []struct {
		name    string
		fileID  int64
		damaged bool
	}{
		{"this file", 0, false},
		{"the one external", 1, false},
		{"past the externals", 2, true},
		{"negative", -1, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sc := synth.NewScene(t, synth.Options{Full: true})
			kids := sc.Obj(synth.TransformBase)["m_Children"].([]any)
			kids[0] = synth.F{"m_FileID": c.fileID, "m_PathID": int64(synth.TransformBase + 1)}
			p := sc.WriteWith("scene.assets", ext)
			ct, err := Open(p, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer ct.Close()
			f := ct.Files[0]
			o, ok := f.Object(synth.TransformBase)
			if !ok {
				t.Fatal("no root Transform")
			}
			_, err = f.Decode(o)
			if !c.damaged {
				if err != nil {
					t.Fatalf("valid reference refused: %v", err)
				}
				return
			}
			if !errors.Is(err, typetree.ErrFileID) {
				t.Fatalf("err = %v, want ErrFileID", err)
			}
			for _, want := range []string{"m_Children", "m_FileID", "object 200"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not name %q", err, want)
				}
			}
		})
	}
}
