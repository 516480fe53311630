package compiled

import (
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/internal/synth"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/typetree"
	"github.com/mecanim/mecanim/unity/unitywrite"
)

// TestClipValuesMustMeanSomething: a clip whose times are not finite (a
// stop time of +Inf gave a length of "Infinity") or whose binding names a
// class id no Unity version has (the curve was dropped and the pose
// changed, exit 0) is refused, naming the clip and the field. A binding to
// a real class, and an unknown class in a file newer than the layouts
// known, stay valid.
func TestClipValuesMustMeanSomething(t *testing.T) {
	tree, err := synth.Tree(model.ClassAnimationClip)
	if err != nil {
		t.Fatal(err)
	}
	// withBinding adds a one-curve binding of class id to the clip.
	withBinding := func(id int32, attr ...uint32) func(f synth.F) {
		return func(f synth.F) {
			a := uint32(7)
			if len(attr) > 0 {
				a = attr[0]
			}
			cb := f["m_ClipBindingConstant"].(synth.F)
			cb["genericBindings"] = append(cb["genericBindings"].([]any), synth.F{"path": model.PathHash(synth.BonePath(2)),
				"attribute": a, "script": synth.PPtr(0), "typeID": id, "classID": id})
			cl := f["m_MuscleClip"].(synth.F)["m_Clip"].(synth.F)["data"].(synth.F)["m_ConstantClip"].(synth.F)
			cl["data"] = append(cl["data"].([]float32), 0.5)
		}
	}
	stop := func(x float32) func(f synth.F) {
		return func(f synth.F) { f["m_MuscleClip"].(synth.F)["m_StopTime"] = x }
	}
	cases := []struct {
		name    string
		edit    func(f synth.F)
		version string
		field   string // "" when valid
		says    string
	}{
		{"undamaged", func(synth.F) {}, "", "", ""},
		{"binding to a real class", withBinding(model.ClassSkinnedMeshRenderer), "", "", ""},
		{"binding to no class", withBinding(987654), "2022.3.9f1", "genericBindings", "class id 987654"},
		{"binding to no class of a later Unity", withBinding(987654), "9999.1.0f1", "", ""},
		{"a Transform attribute that is no property", withBinding(model.ClassTransform, 9), "", "genericBindings", "attribute 9"},
		{"stop time +Inf", stop(float32(math.Inf(1))), "", "m_MuscleClip.m_StopTime", "finite"},
		{"stop time NaN", stop(float32(math.NaN())), "", "m_MuscleClip.m_StopTime", "finite"},
		{"stop before start", stop(-1), "", "m_MuscleClip.m_StopTime", "before its start"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := synth.ClipFields("Idle", 3, 0.01)
			c.edit(f)
			b, err := unitywrite.Encode(tree, f)
			if err != nil {
				t.Fatal(err)
			}
			v, err := typetree.Decode(tree, b, binary.LittleEndian)
			if err != nil {
				t.Fatal(err)
			}
			_, err = Clip(v, c.version)
			if c.field == "" {
				if err != nil {
					t.Fatalf("valid clip refused: %v", err)
				}
				return
			}
			var e *Error
			if !errors.As(err, &e) || !errors.Is(err, ErrMalformed) || e.Object != "Idle" || !strings.Contains(e.Field, c.field) {
				t.Fatalf("err %v, want ErrMalformed naming the clip and %s", err, c.field)
			}
			if !strings.Contains(err.Error(), c.says) {
				t.Errorf("%q does not say %q", err, c.says)
			}
		})
	}
}
