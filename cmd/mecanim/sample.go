package main

import (
	"bufio"
	"fmt"
	"math"
	"strconv"

	"github.com/mecanim/mecanim/bind"
	"github.com/mecanim/mecanim/model"
)

// sampleCurve is one curve of `sample --json`.
type sampleCurve struct {
	Path     string      `json:"path"`
	ClassID  int32       `json:"class_id"`
	Property string      `json:"property"`
	Values   []jsonFloat `json:"values"`
}

// jsonFloat writes a float32 in its shortest form, with NaN and the
// infinities as strings.
type jsonFloat float32

// MarshalJSON implements json.Marshaler.
func (f jsonFloat) MarshalJSON() ([]byte, error) {
	x := float64(f)
	switch {
	case math.IsNaN(x):
		return []byte(`"NaN"`), nil
	case math.IsInf(x, 1):
		return []byte(`"Infinity"`), nil
	case math.IsInf(x, -1):
		return []byte(`"-Infinity"`), nil
	}
	return strconv.AppendFloat(nil, x, 'g', -1, 32), nil
}

// targetPath is a target's path, or "#<hash>" when it could not be named.
func targetPath(t *model.Target) string {
	if t.PathKnown {
		return t.Path
	}
	return "#" + strconv.FormatUint(uint64(t.PathHash), 10)
}

// targetProperty is a target's property, or "#<attribute>" when unknown.
func targetProperty(t *model.Target) string {
	if t.Property != "" {
		return t.Property
	}
	return "#" + strconv.FormatUint(uint64(t.Attribute), 10)
}

// sampleTimes returns the times to sample: the --at list, or every 1/rate
// seconds from 0 to length inclusive.
func sampleTimes(at []string, rate float64, length float32) ([]float32, error) {
	if len(at) > 0 && rate > 0 {
		return nil, usagef("give --at or --rate, not both")
	}
	var ts []float32
	for _, a := range at {
		x, err := strconv.ParseFloat(a, 32)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, usagef("--at %q is not a time in seconds", a)
		}
		ts = append(ts, float32(x))
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
		return nil, usagef("give --at T (repeatable) or --rate HZ")
	}
	return ts, nil
}

func runSample(e *env, args []string) error {
	c := newClipCommand(e, "sample", "FILE... (--clip NAME | --path-id N) (--at T... | --rate HZ) [--json]")
	var at multiFlag
	c.fs.Var(&at, "at", "time in seconds from the clip's start (repeatable)")
	rate := c.fs.Float64("rate", 0, "sample the whole clip at this rate (Hz)")
	asJSON := c.fs.Bool("json", false, "JSON output")
	return c.run(args, nil, func(set *bind.Set, i int) error {
		clip, err := set.Clip(i)
		if err != nil {
			return err
		}
		return printSample(e, clip, at, *rate, *asJSON)
	})
}

// printSample evaluates every curve of a clip at the times asked for.
func printSample(e *env, clip *model.Clip, at []string, rate float64, asJSON bool) error {
	times, err := sampleTimes(at, rate, clipLength(clip))
	if err != nil {
		return err
	}
	out := struct {
		Clip   string        `json:"clip"`
		Times  []jsonFloat   `json:"times"`
		Curves []sampleCurve `json:"curves"`
	}{Clip: clip.Name}
	for _, t := range times {
		out.Times = append(out.Times, jsonFloat(t))
	}
	for i := range clip.Curves {
		cv := &clip.Curves[i]
		sc := sampleCurve{Path: targetPath(&cv.Target), ClassID: cv.Target.ClassID, Property: targetProperty(&cv.Target)}
		for _, t := range times {
			sc.Values = append(sc.Values, jsonFloat(cv.Eval(clip.Start+t)))
		}
		out.Curves = append(out.Curves, sc)
	}
	w := bufio.NewWriter(e.stdout)
	defer w.Flush()
	if asJSON {
		return writeJSONLine(w, out)
	}
	fmt.Fprintf(w, "clip %q, %d curves\n%-40s %-28s", clip.Name, len(out.Curves), "path", "property")
	for _, t := range times {
		fmt.Fprintf(w, " %12s", fmt.Sprintf("t=%g", t))
	}
	fmt.Fprintln(w)
	for _, c := range out.Curves {
		fmt.Fprintf(w, "%-40s %-28s", c.Path, c.Property)
		for _, v := range c.Values {
			fmt.Fprintf(w, " %12.6g", float32(v))
		}
		fmt.Fprintln(w)
	}
	return nil
}
