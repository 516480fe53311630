package render

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/mecanim/mecanim/model"
)

// Series is one curve chosen for a plot and its legend label.
type Series struct {
	Label string
	Curve *model.Curve
}

// maxSeries bounds how many curves one plot shows (and one bare property
// may match before a path is required).
const maxSeries = 12

// SplitCurveList splits a comma-separated list of curve names, trimming
// spaces and dropping empty entries.
func SplitCurveList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// CurveName names a curve the way SelectCurves takes it back:
// "PATH:PROPERTY", the path "" for the root, "#<hash>" for a path no name
// table or rig names and "#<attribute>" for such a property. Listings
// (mecanim sample) name curves by it, so that any curve they show can be
// plotted.
func CurveName(t *model.Target) string {
	return t.PathName() + ":" + t.PropertyName()
}

// SelectCurves finds the clip's curves named by specs. A spec is a curve's
// CurveName ("Armature/Hips:m_LocalPosition.y", "#1331491074:#789985262"),
// or a property ("Left Arm Down-Up", "RootT.y", "m_LocalRotation.x", or
// "#<attribute>"), matching that property on every path, or
// "PATH:PROPERTY" for one path ("" before the colon is the root). An exact
// match is preferred; failing that the property is matched ignoring case.
func SelectCurves(c *model.Clip, specs []string) ([]Series, error) {
	if len(specs) == 0 {
		return nil, errors.New("no curve named")
	}
	var out []Series
	for _, spec := range specs {
		exact := -1
		for i := range c.Curves {
			if CurveName(&c.Curves[i].Target) == spec {
				exact = i
				break
			}
		}
		if exact >= 0 {
			out = append(out, Series{Label: spec, Curve: &c.Curves[exact]})
			continue
		}
		path, prop, hasPath := "", spec, false
		if i := strings.LastIndexByte(spec, ':'); i >= 0 {
			path, prop, hasPath = spec[:i], spec[i+1:], true
		}
		match := func(fold bool) []int {
			var hits []int
			for i := range c.Curves {
				t := &c.Curves[i].Target
				if hasPath && t.PathName() != path {
					continue
				}
				if p := t.PropertyName(); p == prop || (fold && strings.EqualFold(p, prop)) {
					hits = append(hits, i)
				}
			}
			return hits
		}
		hits := match(false)
		if len(hits) == 0 {
			hits = match(true)
		}
		if len(hits) == 0 {
			return nil, fmt.Errorf("clip %q has no curve %q%s", c.Name, spec, suggest(c, prop))
		}
		if !hasPath && len(hits) > maxSeries {
			return nil, fmt.Errorf("%q matches %d curves of clip %q; name one as PATH:PROPERTY (e.g. %q)", spec, len(hits), c.Name, CurveName(&c.Curves[hits[0]].Target))
		}
		for _, i := range hits {
			t := &c.Curves[i].Target
			label := t.PropertyName()
			if len(hits) > 1 || hasPath {
				label = CurveName(t)
			}
			out = append(out, Series{Label: label, Curve: &c.Curves[i]})
		}
	}
	if len(out) > maxSeries {
		return nil, fmt.Errorf("%d curves chosen; a plot shows at most %d", len(out), maxSeries)
	}
	return out, nil
}

// suggest lists a few of the clip's properties containing prop (ignoring
// case), for an error message.
func suggest(c *model.Clip, prop string) string {
	seen := map[string]bool{}
	var near []string
	lp := strings.ToLower(prop)
	for i := range c.Curves {
		p := c.Curves[i].Target.Property
		if p == "" || seen[p] {
			continue
		}
		if strings.Contains(strings.ToLower(p), lp) || strings.Contains(lp, strings.ToLower(p)) {
			seen[p] = true
			near = append(near, strconv.Quote(p))
		}
	}
	if len(near) == 0 {
		return " (run 'mecanim sample' to list its curves)"
	}
	sort.Strings(near)
	if len(near) > 6 {
		near = near[:6]
	}
	return " (did you mean " + strings.Join(near, ", ") + "?)"
}

// PlotOptions shape a curve plot; zero values take the defaults.
type PlotOptions struct {
	// Width and Height of the picture in pixels (default 960x480, each
	// 200..4096).
	Width, Height int
}

// seriesColours are the plot's line colours, in order.
var seriesColours = []color.RGBA{
	{31, 119, 180, 255}, {214, 39, 40, 255}, {44, 160, 44, 255}, {255, 127, 14, 255},
	{148, 103, 189, 255}, {140, 86, 75, 255}, {227, 119, 194, 255}, {127, 127, 127, 255},
	{188, 189, 34, 255}, {23, 190, 207, 255}, {0, 0, 0, 255}, {100, 100, 220, 255},
}

var (
	colGrid = color.RGBA{232, 232, 232, 255}
	colAxis = color.RGBA{150, 150, 150, 255}
)

// clipSpan returns the time span a plot covers: the clip's length, or for
// a clip without one (legacy) its last key, or one second.
func clipSpan(c *model.Clip) float32 {
	if l := c.Length(); l > 0 && finite(float64(l)) {
		return l
	}
	var end float32
	for i := range c.Curves {
		if k := c.Curves[i].Keys; len(k) > 0 && k[len(k)-1].Time-c.Start > end {
			end = k[len(k)-1].Time - c.Start
		}
	}
	if end > 0 && finite(float64(end)) {
		return end
	}
	return 1
}

// Plot draws the chosen curves over the clip's length: time across in
// seconds from the clip's start, value up, one colour each, with a legend.
// Curves are evaluated exactly (model.Curve.Eval) once per pixel column.
func Plot(c *model.Clip, series []Series, opts PlotOptions) (*image.RGBA, error) {
	if opts.Width == 0 {
		opts.Width = 960
	}
	if opts.Height == 0 {
		opts.Height = 480
	}
	if opts.Width < 200 || opts.Width > 4096 || opts.Height < 200 || opts.Height > 4096 {
		return nil, fmt.Errorf("plot size %dx%d: want 200..4096 each", opts.Width, opts.Height)
	}
	if len(series) == 0 || len(series) > maxSeries {
		return nil, fmt.Errorf("%d curves to plot: want 1..%d", len(series), maxSeries)
	}
	w, h := opts.Width, opts.Height
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	fillRect(img, img.Bounds(), colBackground)

	// title and legend (wrapping)
	span := clipSpan(c)
	drawText(img, margin, 8, fitText(fmt.Sprintf("%s  %ss", c.Name, fmtSeconds(span)), 2, w-2*margin), 2, colText)
	lx, ly := margin, 8+14+8
	for i, s := range series {
		label := fitText(s.Label, 2, w-2*margin-20)
		iw := 20 + textWidth(label, 2) + 16
		if lx > margin && lx+iw > w-margin {
			lx, ly = margin, ly+20
		}
		col := seriesColours[i%len(seriesColours)]
		line(img, img.Bounds(), float64(lx), float64(ly)+7, float64(lx+14), float64(ly)+7, 3, col)
		drawText(img, lx+20, ly, label, 2, colText)
		lx += iw
	}
	top := ly + 14 + 12

	// sample
	const left, right, bottom = 80, 16, 36
	area := image.Rect(left, top, w-right, h-bottom)
	if area.Dx() < 50 || area.Dy() < 50 {
		return nil, fmt.Errorf("plot %dx%d is too small for %d legend entries", w, h, len(series))
	}
	cols := area.Dx()
	vals := make([][]float64, len(series))
	lo, hi := math.Inf(1), math.Inf(-1)
	for i, s := range series {
		vals[i] = make([]float64, cols)
		for x := 0; x < cols; x++ {
			t := float64(span) * float64(x) / float64(cols-1)
			v := float64(s.Curve.Eval(c.Start + float32(t)))
			vals[i][x] = v
			if finite(v) {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	if lo > hi {
		lo, hi = -1, 1
	}
	if hi-lo < 1e-9 {
		d := math.Max(math.Abs(lo)*0.1, 1)
		lo, hi = lo-d, hi+d
	}
	pad := (hi - lo) * 0.05
	lo, hi = lo-pad, hi+pad

	// grid and axes
	fillRect(img, area, colCell)
	yOf := func(v float64) float64 {
		return float64(area.Max.Y) - (v-lo)/(hi-lo)*float64(area.Dy())
	}
	xOf := func(t float64) float64 {
		return float64(area.Min.X) + t/float64(span)*float64(area.Dx())
	}
	vticks, vstep := ticks(lo, hi, 6)
	for _, v := range vticks {
		y := math.Round(yOf(v)) + 0.5
		line(img, area, float64(area.Min.X), y, float64(area.Max.X), y, 1, colGrid)
		s := tickLabel(v, vstep)
		drawText(img, left-6-textWidth(s, 2), int(y)-7, s, 2, colSubtle)
	}
	if lo < 0 && hi > 0 {
		y := math.Round(yOf(0)) + 0.5
		line(img, area, float64(area.Min.X), y, float64(area.Max.X), y, 1, colAxis)
	}
	tticks, tstep := ticks(0, float64(span), 10)
	for _, t := range tticks {
		x := math.Round(xOf(t)) + 0.5
		line(img, area, x, float64(area.Min.Y), x, float64(area.Max.Y), 1, colGrid)
		s := tickLabel(t, tstep)
		drawText(img, int(x)-textWidth(s, 2)/2, area.Max.Y+8, s, 2, colSubtle)
	}
	strokeRect(img, area.Inset(-1), colAxis)

	// curves
	for i := range series {
		col := seriesColours[i%len(seriesColours)]
		for x := 1; x < cols; x++ {
			a, b := vals[i][x-1], vals[i][x]
			if !finite(a, b) {
				continue
			}
			line(img, area, float64(area.Min.X+x-1)+0.5, yOf(a), float64(area.Min.X+x)+0.5, yOf(b), 2, col)
		}
	}
	return img, nil
}

// ticks returns "nice" values (1, 2 or 5 times a power of ten apart) inside
// [lo, hi], about n of them, and their step.
func ticks(lo, hi float64, n int) ([]float64, float64) {
	if !(hi > lo) || !finite(lo, hi) {
		return nil, 0
	}
	raw := (hi - lo) / float64(n)
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	step := p
	for _, m := range []float64{1, 2, 5, 10} {
		if p*m >= raw {
			step = p * m
			break
		}
	}
	var out []float64
	for v := math.Ceil(lo/step) * step; v <= hi+step*1e-9 && len(out) < 100; v += step {
		out = append(out, v)
	}
	return out, step
}

// tickLabel formats a tick value with as many decimals as the step between
// ticks needs.
func tickLabel(v, step float64) string {
	dec := 0
	if step > 0 {
		dec = int(math.Max(0, math.Ceil(-math.Log10(step)-1e-9)))
	}
	if dec > 6 {
		dec = 6
	}
	if math.Abs(v) < math.Pow(10, -float64(dec))/2 {
		v = 0
	}
	return strconv.FormatFloat(v, 'f', dec, 64)
}
