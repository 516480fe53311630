package compiled

import (
	"encoding/binary"
	"errors"
	"testing"

	"github.com/mecanim/mecanim/internal/synth"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/unitywrite"
)

// A blend tree names its parameter by the parameter's hash, as shipped
// games' controllers do (a 2022.3 mod's 2D blend tree), or by an index into
// m_Values; a value that is neither is refused, naming the field.
func TestBlendTreeParameterByHashOrIndex(t *testing.T) {
	for _, tc := range []struct {
		name    string
		eventID uint32
		want    int // the parameter, -2: refused
	}{
		{"hash of Speed", model.PathHash("Speed"), 0},
		{"hash of Again", model.PathHash("Again"), 1},
		{"index of Speed", 0, 0},
		{"none", 0xFFFFFFFF, -1},
		{"neither", 1930422965, -2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := synth.ControllerFields()
			sm := f["m_Controller"].(unitywrite.Fields)["m_StateMachineArray"].([]any)[0].(unitywrite.Fields)["data"].(unitywrite.Fields)
			state := sm["m_StateConstantArray"].([]any)[0].(unitywrite.Fields)["data"].(unitywrite.Fields)
			tree := state["m_BlendTreeConstantArray"].([]any)[0].(unitywrite.Fields)["data"].(unitywrite.Fields)
			root := tree["m_NodeArray"].([]any)[0].(unitywrite.Fields)["data"].(unitywrite.Fields)
			root["m_BlendEventID"] = tc.eventID
			tt, err := synth.Tree(model.ClassAnimatorController)
			if err != nil {
				t.Fatal(err)
			}
			b, err := unitywrite.Encode(tt, f)
			if err != nil {
				t.Fatal(err)
			}
			v, err := builtinLayout(t, model.ClassAnimatorController).Decode(b, binary.LittleEndian)
			if err != nil {
				t.Fatal(err)
			}
			c, err := Controller(v, "2022.3.9f1")
			if tc.want == -2 {
				var e *Error
				if !errors.As(err, &e) || !errors.Is(err, ErrMalformed) || e.Field == "" {
					t.Fatalf("err = %v, want ErrMalformed naming the field", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := c.StateMachines[0].States[0].Motions[0].Nodes[0].Param; got != tc.want {
				t.Errorf("parameter %d, want %d", got, tc.want)
			}
		})
	}
}
