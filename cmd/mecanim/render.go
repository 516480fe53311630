package main

import (
	"fmt"
	"image"
	"image/png"
	"io"

	"github.com/mecanim/mecanim/bind"
	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/internal/atomicfile"
	"github.com/mecanim/mecanim/present/render"
)

const renderSynopsis = `FILE... (--clip NAME | --path-id N) [--avatar NAME | --animator NAME | --onto CHARACTER.glb] -o SHEET.png [--frames N] [--views front,right,top] [--cell PX] [--columns N] [--axes]
       mecanim render FILE... (--clip NAME | --path-id N) (--curves "CURVE,..." | --curve CURVE...) -o PLOT.png`

const renderAbout = `
Draws a clip as a contact sheet: the skeleton of the character it plays on
(chosen as pose chooses it) at evenly spaced times, one band of cells per
view, bones coloured by side (left blue, right red) and helpers faint.
Views are named by what they show of a character facing +z, as Unity
characters do: front (its face), back, left (its left side), right (its
right side; "side" is the same), top (from above, facing up the picture).

--curves plots curves of the clip over its length instead: each named as
'mecanim sample' names it (PATH:PROPERTY, with #HASH for a path or
#ATTRIBUTE for a property no name table names), or by its property alone
for every path that has it. --curve names one curve (repeatable), for a
name that holds a comma. What was written is noted on stderr.

A 2D clip, which switches sprites (SpriteRenderer or UI Image) and moves no
Transform, is drawn as a strip of its frames instead, aligned by their
pivots; each further sprite curve is one more strip below.`

func runRender(e *env, args []string) error {
	c := newClipCommand(e, "render", renderSynopsis)
	c.onFlags()
	fs := c.fs
	out := fs.String("o", "", "PNG file to write (required)")
	frames := fs.Int("frames", 8, "how many evenly spaced times to draw")
	views := fs.String("views", "front", "views, comma-separated, named by what they show of a character facing +z: front, back, left, right (or side), top")
	cell := fs.Int("cell", 256, "cell size in pixels (64..1024)")
	columns := fs.Int("columns", 8, "most cells in a row (a view's frames wrap onto more rows)")
	axes := fs.Bool("axes", false, "draw each joint's local axes (x red, y green, z blue)")
	curves := fs.String("curves", "", "instead of a contact sheet, plot these curves over the clip: comma-separated names as sample prints them (PATH:PROPERTY) or properties (\"Left Arm Down-Up\", \"RootT.y\")")
	var oneCurve multiFlag
	fs.Var(&oneCurve, "curve", "a curve to plot, named as sample prints it (repeatable; not split at commas)")
	width := fs.Int("width", 960, "plot width in pixels (--curves)")
	height := fs.Int("height", 480, "plot height in pixels (--curves)")
	var vs []render.View
	check := func() error {
		if *out == "" {
			return usagef("give the PNG file to write with -o")
		}
		if *curves != "" || len(oneCurve) > 0 {
			if *width < 200 || *width > 4096 || *height < 200 || *height > 4096 {
				return usagef("--width %d --height %d: want 200..4096 each", *width, *height)
			}
			return nil
		}
		var err error
		if vs, err = render.ParseViews(*views); err != nil {
			return usagef("--views: %v", err)
		}
		if *frames < 1 || *frames > render.MaxFrames {
			return usagef("--frames %d: want 1..%d", *frames, render.MaxFrames)
		}
		if *cell < 64 || *cell > 1024 {
			return usagef("--cell %d: want 64..1024 pixels", *cell)
		}
		if *columns < 1 {
			return usagef("--columns %d: want at least 1", *columns)
		}
		return nil
	}
	return c.run(args, check, func(set *bind.Set, i bound.ClipID) error {
		var img image.Image
		on := "" // what the sheet shows the clip on
		if *curves != "" || len(oneCurve) > 0 {
			clip, err := set.Clip(i)
			if err != nil {
				return err
			}
			sel, err := render.SelectCurves(clip, append(render.SplitCurveList(*curves), oneCurve...))
			if err != nil {
				return usagef("--curves: %v", err)
			}
			if img, err = render.Plot(clip, sel, render.PlotOptions{Width: *width, Height: *height}); err != nil {
				return err
			}
		} else if strip, ok, err := spriteStrip(set, i); ok || err != nil {
			// A 2D clip (it switches sprites and moves no Transform):
			// its sprites' frames side by side.
			if err != nil {
				return err
			}
			img = strip
		} else {
			m, err := c.motion(set, i)
			if err != nil {
				return err
			}
			if img, err = render.Sheet(render.FromMotion(m), render.Options{Frames: *frames, Views: vs, Cell: *cell, Columns: *columns, Axes: *axes}); err != nil {
				return err
			}
			on = fmt.Sprintf(": clip %q on %s", m.Clip().Name, m.On().Describe())
		}
		if err := writePNG(*out, img); err != nil {
			return err
		}
		b := img.Bounds()
		e.notef("wrote %s (%dx%d)%s", *out, b.Dx(), b.Dy(), on)
		return nil
	})
}

// writePNG writes an image to a file (through a temporary file: no
// partial picture is left behind).
func writePNG(name string, img image.Image) error {
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	return atomicfile.Write(name, func(w io.Writer) error { return enc.Encode(w, img) })
}
