package compiled

import (
	"errors"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/internal/synth"
	"github.com/mecanim/mecanim/unity/assets"
)

// TestRigReferencesMustResolve: a Transform whose m_Children names a
// Transform the file does not hold, or whose m_GameObject names no
// GameObject of the file, is a damaged reference: the rig is refused
// naming the Transform and the field, instead of silently losing a bone
// and its subtree (or naming it "").
func TestRigReferencesMustResolve(t *testing.T) {
	cases := []struct {
		name  string
		edit  func(sc *synth.Scene)
		field string
	}{
		{"undamaged", func(*synth.Scene) {}, ""},
		{"child not in the file", func(sc *synth.Scene) {
			x := sc.Obj(synth.TransformBase + 1)
			x["m_Children"] = append(x["m_Children"].([]any), synth.PPtr(9999))
		}, "m_Children"},
		{"GameObject not in the file", func(sc *synth.Scene) {
			sc.Obj(synth.TransformBase + 3)["m_GameObject"] = synth.PPtr(9998)
		}, "m_GameObject"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sc := synth.NewScene(t, synth.Options{})
			c.edit(sc)
			ct, err := assets.Open(sc.Write("scene.assets"), assets.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer ct.Close()
			f := ct.Files[0]
			rigs, err := RigsWith(f.File, f.Decode)
			if c.field == "" {
				if err != nil || len(rigs) != 1 || len(rigs[0].Nodes) != len(synth.Bones) {
					t.Fatalf("%d rigs, %v", len(rigs), err)
				}
				return
			}
			var e *Error
			if !errors.As(err, &e) || !errors.Is(err, ErrMalformed) || e.Field != c.field || !strings.Contains(err.Error(), "not in the file") && !strings.Contains(err.Error(), "holds no Transform") {
				t.Fatalf("err %v, want ErrMalformed naming the Transform and %s", err, c.field)
			}
		})
	}
}
