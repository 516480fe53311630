package main

import (
	"bufio"
	"fmt"
	"image"
	"image/png"
	"os"

	"github.com/mecanim/mecanim/bind"
	"github.com/mecanim/mecanim/present/render"
)

func runRender(e *env, args []string) error {
	c := newClipCommand(e, "render", "FILE... --clip NAME [--avatar NAME | --animator NAME] -o SHEET.png [--frames N] [--views front,side,top] [--cell PX] [--columns N] [--axes] | --curves \"NAME,PATH:PROPERTY\"")
	c.onFlags()
	fs := c.fs
	out := fs.String("o", "", "PNG file to write (required)")
	frames := fs.Int("frames", 8, "how many evenly spaced times to draw")
	views := fs.String("views", "front", "views, comma-separated: front (along +z), back (along -z), side (along -x), top (along -y)")
	cell := fs.Int("cell", 256, "cell size in pixels (64..1024)")
	columns := fs.Int("columns", 8, "most cells in a row (a view's frames wrap onto more rows)")
	axes := fs.Bool("axes", false, "draw each joint's local axes (x red, y green, z blue)")
	curves := fs.String("curves", "", "instead of a contact sheet, plot these curves over the clip: comma-separated properties (\"Left Arm Down-Up\", \"RootT.y\") or PATH:PROPERTY")
	width := fs.Int("width", 960, "plot width in pixels (--curves)")
	height := fs.Int("height", 480, "plot height in pixels (--curves)")
	var vs []render.View
	check := func() error {
		if *out == "" {
			return usagef("give the PNG file to write with -o")
		}
		if *curves != "" {
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
	return c.run(args, check, func(set *bind.Set, i int) error {
		var img image.Image
		if *curves != "" {
			clip, err := set.Clip(i)
			if err != nil {
				return err
			}
			sel, err := render.SelectCurves(clip, render.SplitCurveList(*curves))
			if err != nil {
				return usagef("--curves: %v", err)
			}
			if img, err = render.Plot(clip, sel, render.PlotOptions{Width: *width, Height: *height}); err != nil {
				return err
			}
		} else {
			m, err := c.motion(set, i)
			if err != nil {
				return err
			}
			if img, err = render.Sheet(render.FromMotion(m), render.Options{Frames: *frames, Views: vs, Cell: *cell, Columns: *columns, Axes: *axes}); err != nil {
				return err
			}
		}
		if err := writePNG(*out, img); err != nil {
			return err
		}
		b := img.Bounds()
		fmt.Fprintf(e.stdout, "wrote %s (%dx%d)\n", *out, b.Dx(), b.Dy())
		return nil
	})
}

// writePNG writes an image to a file.
func writePNG(name string, img image.Image) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(w, img); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", name, err)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", name, err)
	}
	return f.Close()
}
