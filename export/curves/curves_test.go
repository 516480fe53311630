package curves

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/model"
)

func target(path string, class int32, prop string) model.Target {
	return model.Target{Path: path, PathHash: model.PathHash(path), PathKnown: true, ClassID: class, Attribute: model.PathHash(prop), Property: prop}
}

// The table holds every curve but a Transform's, integers exact, values
// that are not numbers held, and a curve without any number left out.
func TestTableHoldsWhatGLTFCannotAndOnlyNumbers(t *testing.T) {
	nan := float32(math.NaN())
	c := &model.Clip{Name: "Cut", SampleRate: 2, Stop: 1, Curves: []model.Curve{
		{Target: target("Cam", model.ClassTransform, "m_LocalPosition.x"), Kind: model.CurveConstant, Value: 1},
		{Target: target("Cam", 20, "field of view"), Kind: model.CurveDense, Samples: []float32{30, nan, 50}, DenseRate: 2},
		{Target: target("Lamp", 108, "m_Intensity"), Kind: model.CurveConstant, Value: nan},
	}, IntCurves: []model.IntCurve{{Target: target("Cam", 114, "shot"), Keys: []model.IntKey{{Time: 0, Value: 2147483647}, {Time: 0.5, Value: -7}}}}}
	tb := Of(c, model.Source{Container: "stage.bundle", PathID: 5}, 0)
	if tb == nil || len(tb.Columns) != 2 || tb.Frames != 3 || tb.Rate != 2 {
		t.Fatalf("table %+v: want the field of view and the shot over 3 frames at 2 Hz", tb)
	}
	var js, cs bytes.Buffer
	if err := tb.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	if err := tb.WriteCSV(&cs); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Clip       struct{ Name, Container string }
		SampleRate float64 `json:"sample_rate"`
		Curves     []struct {
			Curve   string
			Integer bool
		}
		Frames []struct {
			Time   float64
			Values []json.Number
		}
	}
	d := json.NewDecoder(bytes.NewReader(js.Bytes()))
	d.UseNumber()
	if err := d.Decode(&doc); err != nil {
		t.Fatalf("%v: %s", err, js.String())
	}
	if doc.Clip.Name != "Cut" || doc.Clip.Container != "stage.bundle" || doc.Curves[0].Curve != "Cam:field of view" || !doc.Curves[1].Integer {
		t.Errorf("head %+v", doc)
	}
	want := [][]string{{"30", "2147483647"}, {"30", "-7"}, {"50", "-7"}}
	for f, w := range want {
		for i, x := range w {
			if got := doc.Frames[f].Values[i].String(); got != x {
				t.Errorf("frame %d column %d: %s, want %s", f, i, got, x)
			}
		}
	}
	if got := cs.String(); got != "time,Cam:field of view,Cam:shot\n0,30,2147483647\n0.5,30,-7\n1,50,-7\n" {
		t.Errorf("csv:\n%s", got)
	}
	if Of(&model.Clip{Curves: c.Curves[:1]}, model.Source{}, 0) != nil {
		t.Errorf("a clip of Transform curves alone has a table")
	}
}

// A clip of hours at a high rate is bounded in rows, and costs nothing per
// row until written.
func TestTableRowsAreBounded(t *testing.T) {
	c := &model.Clip{Name: "Long", Stop: 1e6, Curves: []model.Curve{{Target: target("A", 108, "m_Intensity"), Kind: model.CurveConstant, Value: 1}}}
	tb := Of(c, model.Source{}, 1000)
	if tb.Frames != maxFrames {
		t.Errorf("%d frames, want the bound %d", tb.Frames, maxFrames)
	}
	if !strings.Contains(tb.Name(0), "A:m_Intensity") {
		t.Errorf("name %q", tb.Name(0))
	}
}
