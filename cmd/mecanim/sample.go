package main

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/mecanim/mecanim/bind"
	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/present/render"
)

const sampleSynopsis = "FILE... (--clip NAME | --path-id N) (--at T[,T...] | --rate HZ) [--json | --csv]"

const sampleAbout = `
Evaluates every curve of a clip at the times asked for: --at takes times in
seconds from the clip's start (comma-separated, or --at repeated), --rate
samples the whole clip from 0 to its end at that many frames per second.

The table has one row per time and one column per curve, numbered (the
integer curves, of int, enum and hash properties, after the float ones,
their values whole numbers held from key to key); the
lines above it name each column's curve as PATH:PROPERTY, the name
'mecanim render --curves' takes (a path no name table names is #HASH, a
property #ATTRIBUTE). --csv prints the same table as CSV with those names
as the header; --json prints one JSON document (schema
docs/schema/sample.json). A clip without curves says so and exits 1.`

// curveJSON names a curve in sample's and retarget's JSON.
type curveJSON struct {
	Path     string `json:"path"`
	ClassID  int32  `json:"class_id"`
	Property string `json:"property"`
	// Curve is PATH:PROPERTY, as render --curves takes it.
	Curve string `json:"curve"`
	// Integer marks an integer curve (int, enum, hash), whose values are
	// JSON integers.
	Integer bool `json:"integer,omitempty"`
}

func curveOf(t *model.Target) curveJSON {
	return curveJSON{Path: t.PathName(), ClassID: t.ClassID, Property: t.PropertyName(), Curve: render.CurveName(t)}
}

// valuesFrame is one time of a sampled table: the value of each curve.
type valuesFrame struct {
	Time   jsonFloat    `json:"time"`
	Values []tableValue `json:"values"`
}

// tableValue is one value of a sampled table: a float, or an integer
// curve's int32, written exactly (a JSON integer, never a float).
type tableValue struct {
	f     float32
	i     int32
	isInt bool
}

func floatValue(x float32) tableValue { return tableValue{f: x} }
func intValue(x int32) tableValue     { return tableValue{i: x, isInt: true} }

// MarshalJSON implements json.Marshaler.
func (v tableValue) MarshalJSON() ([]byte, error) {
	if v.isInt {
		return strconv.AppendInt(nil, int64(v.i), 10), nil
	}
	return jsonFloat(v.f).MarshalJSON()
}

// String is the value as the CSV and the table print it.
func (v tableValue) String() string {
	if v.isInt {
		return strconv.FormatInt(int64(v.i), 10)
	}
	return strconv.FormatFloat(float64(v.f), 'g', -1, 32)
}

// sampleJSON is what sample --json prints.
type sampleJSON struct {
	Clip   objectRef     `json:"clip"`
	Curves []curveJSON   `json:"curves"`
	Frames []valuesFrame `json:"frames"`
}

// sampleTimes returns the times to sample: the --at list, or every 1/rate
// seconds from 0 to length inclusive.
func sampleTimes(at []string, rate float64, length float32) ([]float32, error) {
	if len(at) > 0 && rate > 0 {
		return nil, usagef("give --at or --rate, not both")
	}
	var ts []float32
	for _, list := range at {
		for _, a := range strings.Split(list, ",") {
			a = strings.TrimSpace(a)
			x, err := strconv.ParseFloat(a, 32)
			if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
				return nil, usagef("--at %q is not a time in seconds", a)
			}
			ts = append(ts, float32(x))
		}
	}
	if rate < 0 || math.IsNaN(rate) {
		return nil, usagef("--rate %g: a rate must be above 0 Hz", rate)
	}
	if rate > 0 {
		if rate > 10000 {
			return nil, usagef("--rate %g is above 10000 Hz", rate)
		}
		n := int(math.Floor(float64(length)*rate+1e-6)) + 1
		if n > 1_000_000 {
			return nil, usagef("--rate %g over %g s gives %d samples (more than a million)", rate, length, n)
		}
		for i := 0; i < n; i++ {
			ts = append(ts, float32(float64(i)/rate))
		}
	}
	if len(ts) == 0 {
		return nil, usagef("give --at T[,T...] or --rate HZ")
	}
	return ts, nil
}

// tableFormat is how sample and retarget print their table.
type tableFormat int

const (
	tableText tableFormat = iota
	tableCSV
	tableJSON
)

// formatFlags registers --json and --csv and returns a function giving
// the format they choose (a usage error for both).
func formatFlags(c *clipCommand) func() (tableFormat, error) {
	asJSON := c.fs.Bool("json", false, "JSON output (one document)")
	asCSV := c.fs.Bool("csv", false, "CSV output: a header of curve names, one row per time")
	return func() (tableFormat, error) {
		switch {
		case *asJSON && *asCSV:
			return 0, usagef("give --json or --csv, not both")
		case *asJSON:
			return tableJSON, nil
		case *asCSV:
			return tableCSV, nil
		}
		return tableText, nil
	}
}

func runSample(e *env, args []string) error {
	c := newClipCommand(e, "sample", sampleSynopsis)
	var at multiFlag
	c.fs.Var(&at, "at", "times in seconds from the clip's start, comma-separated (repeatable)")
	rate := c.fs.Float64("rate", 0, "sample the whole clip at this many frames per second")
	format := formatFlags(c)
	var f tableFormat
	check := func() (err error) {
		f, err = format()
		return err
	}
	return c.run(args, check, func(set *bind.Set, i bound.ClipID) error {
		clip, err := set.Clip(i)
		if err != nil {
			return err
		}
		it := set.Clips()[i]
		return printSample(e, clip, it.Source, at, *rate, f)
	})
}

// printSample evaluates every curve of a clip at the times asked for.
func printSample(e *env, clip *model.Clip, src model.Source, at []string, rate float64, f tableFormat) error {
	times, err := sampleTimes(at, rate, clipLength(clip))
	if err != nil {
		return err
	}
	times = clipTimes(e, clip.Name, times, clipLength(clip), clip.Loops())
	nf, ni := len(clip.Curves), len(clip.IntCurves)
	out := sampleJSON{Clip: refOf(clip.Name, src), Curves: make([]curveJSON, nf+ni), Frames: make([]valuesFrame, len(times))}
	for i := range clip.Curves {
		out.Curves[i] = curveOf(&clip.Curves[i].Target)
	}
	for i := range clip.IntCurves {
		out.Curves[nf+i] = curveOf(&clip.IntCurves[i].Target)
		out.Curves[nf+i].Integer = true
	}
	for k, t := range times {
		fr := valuesFrame{Time: jsonFloat(t), Values: make([]tableValue, nf+ni)}
		for i := range clip.Curves {
			fr.Values[i] = floatValue(clip.Curves[i].Eval(clip.Start + t))
		}
		for i := range clip.IntCurves {
			fr.Values[nf+i] = intValue(clip.IntCurves[i].Eval(clip.Start + t))
		}
		out.Frames[k] = fr
	}
	if nf+ni == 0 {
		if n := len(clip.ObjectCurves); n > 0 {
			t := clip.ObjectCurves[0].Target
			e.failf("clip %q (%s) has no float or integer curves to sample: its %d object-reference curves (%q %s first) switch objects such as sprites ('mecanim render' draws a sprite clip's frames)", clip.Name, src, n, t.Path, t.Property)
		} else {
			e.failf("clip %q (%s) has no curves to sample", clip.Name, src)
		}
	}
	w := bufio.NewWriter(e.stdout)
	defer w.Flush()
	title := fmt.Sprintf("clip %q (%s), %d curves, %d times", clip.Name, src, len(out.Curves), len(out.Frames))
	return writeTable(w, f, out, title)
}

// writeTable writes a sampled table (sample's or retarget's, whose JSON
// document v is) in the format asked for.
func writeTable(w io.Writer, f tableFormat, v any, title string) error {
	var curves []curveJSON
	var frames []valuesFrame
	switch t := v.(type) {
	case sampleJSON:
		curves, frames = t.Curves, t.Frames
	case retargetJSON:
		curves, frames = t.Curves, t.Frames
	}
	switch f {
	case tableJSON:
		return writeJSONLine(w, v)
	case tableCSV:
		cw := csv.NewWriter(w)
		row := make([]string, 1+len(curves))
		row[0] = "time"
		for i, c := range curves {
			row[1+i] = c.Curve
		}
		cw.Write(row)
		for _, fr := range frames {
			row[0] = strconv.FormatFloat(float64(fr.Time), 'g', -1, 32)
			for i, x := range fr.Values {
				row[1+i] = x.String()
			}
			cw.Write(row)
		}
		cw.Flush()
		return cw.Error()
	}
	fmt.Fprintln(w, title)
	width := len(strconv.Itoa(len(curves)))
	for i, c := range curves {
		fmt.Fprintf(w, "  [%*d] %s (class %d)\n", width, i+1, c.Curve, c.ClassID)
	}
	fmt.Fprintf(w, "%10s", "time")
	for i := range curves {
		fmt.Fprintf(w, " %12s", fmt.Sprintf("[%d]", i+1))
	}
	fmt.Fprintln(w)
	for _, fr := range frames {
		fmt.Fprintf(w, "%10.6g", float32(fr.Time))
		for _, x := range fr.Values {
			if x.isInt {
				fmt.Fprintf(w, " %12d", x.i)
				continue
			}
			fmt.Fprintf(w, " %12.6g", x.f)
		}
		fmt.Fprintln(w)
	}
	return nil
}
