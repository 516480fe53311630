package serialized

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/mecanim/mecanim/internal/corpustest"
)

// The generic decoder is what the clip decoder reads: check that a large
// humanoid clip's curve data comes out packed and self-consistent.
func TestLargeClipCurveDataIsPackedAndConsistent(t *testing.T) {
	files, err := corpusSerializedFiles(filepath.Join(corpustest.Dir(t), "lethal-emotes"))
	if err != nil {
		t.Fatal(err)
	}
	var f *File
	for _, cf := range files {
		if cf.name == "customemotespackage/CAB-1c015bf0b0345fd2fd5c91b718be8d67" {
			f, err = Open(bytes.NewReader(cf.data), int64(len(cf.data)), cf.name)
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	if f == nil {
		t.Fatal("lethal-emotes CAB not found")
	}
	o, ok := f.Object(134989785292537841)
	if !ok {
		t.Fatal("BayonettaTest not found")
	}
	v, err := f.Decode(o)
	if err != nil {
		t.Fatal(err)
	}
	if name := v.Field("m_Name").Str(); name != "BayonettaTest" {
		t.Fatalf("m_Name = %q", name)
	}
	clip := v.Path("m_MuscleClip", "m_Clip", "data")
	streamed := clip.Path("m_StreamedClip", "data")
	dense := clip.Field("m_DenseClip")
	constant := clip.Path("m_ConstantClip", "data")
	if !streamed.Packed() || !dense.Field("m_SampleArray").Packed() || !constant.Packed() {
		t.Fatal("curve arrays are not packed")
	}
	words := streamed.Uint32s()
	samples := dense.Field("m_SampleArray").Float32s()
	frames, curves := dense.Field("m_FrameCount").Int(), dense.Field("m_CurveCount").Int()
	if int64(len(samples)) != frames*curves {
		t.Errorf("dense samples %d, want frames %d x curves %d", len(samples), frames, curves)
	}
	// The streamed, dense and constant blocks together take nearly all of
	// the 2.5 MB object.
	total := 4*len(words) + 4*len(samples) + 4*constant.Len()
	if total < int(o.Size)*9/10 {
		t.Errorf("curve data %d bytes of a %d-byte clip", total, o.Size)
	}
	t.Logf("streamed %d words, dense %d x %d, constant %d", len(words), frames, curves, constant.Len())
}
