// Package curves writes the curves of a clip that a glTF file does not
// hold (a camera's field of view, a light's intensity, a material's
// colour, a script's fields, blend shapes with no mesh to carry them,
// integer properties) as a table beside the .glb: NAME.curves.json and
// NAME.curves.csv, one row per frame, one column per curve, the columns
// named as sample and render --curves name them (PATH:PROPERTY).
package curves

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"io"
	"math"
	"strconv"

	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
)

// Column is one curve of a table: what it drives, and whether its values
// are integers.
type Column struct {
	Target  model.Target
	Integer bool
}

// Table is a clip's curves sampled from its start to its end, at Rate
// frames per second; Row computes a frame's values when asked, so a long
// clip costs no memory per frame.
type Table struct {
	Clip    string
	Source  model.Source
	Rate    float32
	Columns []Column
	// Frames is the number of rows: the clip's length at Rate, ends
	// included (at least 1).
	Frames int

	start  float32
	floats []model.Curve
	ints   []model.IntCurve
}

// maxFrames bounds a table's rows (a clip of hours at a high rate).
const maxFrames = 1 << 20

// Of returns the table of the clip's curves that glTF node animation does
// not hold: every float curve that is not a Transform's, then every
// integer curve, sampled at rate (the clip's sample rate when not above 0;
// 30 without one). A float value that is not a number is held at the
// value before it, and a curve without any number is left out (their
// notes come from model.Clip.NotFinite), so the files hold only numbers.
// Nil when the clip has no such curve.
func Of(c *model.Clip, src model.Source, rate float32) *Table {
	if !(rate > 0) || math.IsInf(float64(rate), 0) {
		rate = c.SampleRate
		if !(rate > 0) || math.IsInf(float64(rate), 0) {
			rate = 30
		}
	}
	t := &Table{Clip: c.Name, Source: src, Rate: rate, start: c.Start, ints: c.IntCurves}
	if !geom.Finite(t.start) {
		t.start = 0
	}
	for i := range c.Curves {
		if c.Curves[i].Target.ClassID == model.ClassTransform {
			continue
		}
		held, ok := c.Curves[i].Finite()
		if !ok {
			continue
		}
		t.floats = append(t.floats, held)
		t.Columns = append(t.Columns, Column{Target: held.Target})
	}
	for i := range c.IntCurves {
		t.Columns = append(t.Columns, Column{Target: c.IntCurves[i].Target, Integer: true})
	}
	if len(t.Columns) == 0 {
		return nil
	}
	n := int(math.Floor(float64(c.Length())*float64(rate)+1e-6)) + 1
	t.Frames = max(1, min(n, maxFrames))
	return t
}

// Time is frame f's time in seconds from the clip's start.
func (t *Table) Time(f int) float32 { return float32(float64(f) / float64(t.Rate)) }

// Row writes frame f's values into dst (one per column; an integer
// column's value is its int32, exact in a float64) and returns it.
func (t *Table) Row(f int, dst []float64) []float64 {
	dst = dst[:0]
	tm := t.start + t.Time(f)
	for i := range t.floats {
		dst = append(dst, float64(t.floats[i].Eval(tm)))
	}
	for i := range t.ints {
		dst = append(dst, float64(t.ints[i].Eval(tm)))
	}
	return dst
}

// Name is column i's name: PATH:PROPERTY, as sample and render --curves
// write it.
func (t *Table) Name(i int) string {
	tg := &t.Columns[i].Target
	return tg.PathName() + ":" + tg.PropertyName()
}

// format writes column i's value x: an integer as one, a float in its
// shortest 32-bit form.
func (t *Table) format(i int, x float64) string {
	if t.Columns[i].Integer {
		return strconv.FormatInt(int64(x), 10)
	}
	return strconv.FormatFloat(x, 'g', -1, 32)
}

// WriteCSV writes the table as CSV: a header of "time" and the column
// names, then one row per frame.
func (t *Table) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	row := make([]string, 1+len(t.Columns))
	row[0] = "time"
	for i := range t.Columns {
		row[1+i] = t.Name(i)
	}
	if err := cw.Write(row); err != nil {
		return err
	}
	var vals []float64
	for f := range t.Frames {
		row[0] = strconv.FormatFloat(float64(t.Time(f)), 'g', -1, 32)
		vals = t.Row(f, vals)
		for i, x := range vals {
			row[1+i] = t.format(i, x)
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// columnJSON is a column in the JSON file (docs/schema/curves.json).
type columnJSON struct {
	Path     string `json:"path"`
	ClassID  int32  `json:"class_id"`
	Property string `json:"property"`
	Curve    string `json:"curve"`
	Integer  bool   `json:"integer,omitempty"`
}

// WriteJSON writes the table as one JSON document (docs/schema/curves.json):
// the clip, its sample rate, the curves and the frames, the shape of
// sample --json's table.
func (t *Table) WriteJSON(w io.Writer) error {
	bw := bufio.NewWriter(w)
	head := struct {
		Clip struct {
			Name      string `json:"name"`
			Container string `json:"container"`
			File      string `json:"file"`
			PathID    int64  `json:"path_id"`
		} `json:"clip"`
		SampleRate json.Number  `json:"sample_rate"`
		Curves     []columnJSON `json:"curves"`
	}{}
	head.Clip.Name, head.Clip.Container, head.Clip.File, head.Clip.PathID = t.Clip, t.Source.Container, t.Source.File, t.Source.PathID
	head.SampleRate = json.Number(strconv.FormatFloat(float64(t.Rate), 'g', -1, 32))
	head.Curves = make([]columnJSON, len(t.Columns))
	for i := range t.Columns {
		tg := &t.Columns[i].Target
		head.Curves[i] = columnJSON{Path: tg.PathName(), ClassID: tg.ClassID, Property: tg.PropertyName(), Curve: t.Name(i), Integer: t.Columns[i].Integer}
	}
	b, err := json.Marshal(&head)
	if err != nil {
		return err
	}
	bw.Write(b[:len(b)-1]) // the frames go inside the object
	bw.WriteString(`,"frames":[`)
	var vals []float64
	for f := range t.Frames {
		if f > 0 {
			bw.WriteByte(',')
		}
		bw.WriteString(`{"time":`)
		bw.WriteString(strconv.FormatFloat(float64(t.Time(f)), 'g', -1, 32))
		bw.WriteString(`,"values":[`)
		vals = t.Row(f, vals)
		for i, x := range vals {
			if i > 0 {
				bw.WriteByte(',')
			}
			bw.WriteString(t.format(i, x))
		}
		bw.WriteString("]}")
	}
	bw.WriteString("]}\n")
	return bw.Flush()
}
