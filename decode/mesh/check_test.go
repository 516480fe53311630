package mesh

import (
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/unity/unitywrite"
)

// TestDecodeRefusesMeaninglessMeshes: bytes that read well but mean
// nothing a mesh can hold are refused at decode, naming the mesh, the
// field and the vertex, so that no exporter writes NaN into a glTF file
// (or fails later naming neither) and no unused skin slot pads a rig with
// joints for bones that do not exist.
func TestDecodeRefusesMeaninglessMeshes(t *testing.T) {
	le := binary.LittleEndian
	nan := math.Float32bits(float32(math.NaN()))
	inf := math.Float32bits(float32(math.Inf(1)))
	const stream1 = 80 // four vertices of 20 bytes in stream 0
	setData := func(off int, word uint32) func(f unitywrite.Fields) {
		return func(f unitywrite.Fields) {
			vd := f["m_VertexData"].(unitywrite.Fields)
			le.PutUint32(vd["m_DataSize"].([]byte)[off:], word)
		}
	}
	cases := []struct {
		name  string
		edit  func(f unitywrite.Fields)
		want  error
		names []string
	}{
		{"NaN position", setData(2*20+4, nan), ErrNotFinite, []string{"position of vertex 2"}},
		{"infinite position", setData(3*20, inf), ErrNotFinite, []string{"position of vertex 3"}},
		{"NaN half normal", func(f unitywrite.Fields) {
			vd := f["m_VertexData"].(unitywrite.Fields)
			le.PutUint16(vd["m_DataSize"].([]byte)[1*20+12:], 0x7e00)
		}, ErrNotFinite, []string{"normal of vertex 1"}},
		{"NaN weight", setData(stream1+16*2+4, nan), ErrNotFinite, []string{"bone weights of vertex 2"}},
		{"negative weight", setData(stream1+16*1, math.Float32bits(-0.5)), ErrMalformed, []string{"vertex 1"}},
		{"bone 0xFFFF at weight 0", setData(stream1+0*16+12, 0xffff), ErrBoneIndex, []string{"vertex 0", "bone 65535 of 2"}},
		{"bone just past the bind poses", setData(stream1+3*16+8, 2), ErrBoneIndex, []string{"vertex 3", "bone 2 of 2"}},
		{"NaN bind pose", func(f unitywrite.Fields) {
			f["m_BindPose"].([]unitywrite.Fields)[1] = unitywrite.Fields{"e00": float32(math.NaN()), "e33": float32(1)}
		}, ErrNotFinite, []string{"bind pose 1"}},
		{"NaN blend shape delta", func(f unitywrite.Fields) {
			f["m_Shapes"].(unitywrite.Fields)["vertices"].([]unitywrite.Fields)[2]["normal"] = v3(0, float32(math.NaN()), 0)
		}, ErrNotFinite, []string{"blend shape 0", "frame 1", "vertex 3"}},
		{"infinite blend frame weight", func(f unitywrite.Fields) {
			f["m_Shapes"].(unitywrite.Fields)["fullWeights"] = []float32{50, float32(math.Inf(1))}
		}, ErrNotFinite, []string{"frame 1"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := quadMesh()
			c.edit(f)
			_, err := decodeFields(t, f, Options{})
			var me *Error
			if !errors.Is(err, c.want) || !errors.As(err, &me) || me.Mesh != "quad" || me.Field == "" {
				t.Fatalf("err %v, want %v naming the mesh and field", err, c.want)
			}
			for _, s := range c.names {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("%q does not say %q", err, s)
				}
			}
		})
	}
	if _, err := decodeFields(t, quadMesh(), Options{}); err != nil {
		t.Fatalf("the undamaged mesh: %v", err)
	}
}
