package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/mecanim/mecanim/extract"
)

// extractSynopsis is the extract command's usage line.
const extractSynopsis = "PATH... -o OUT/ [-j N] [--avatar NAME] [--pictures] [--force] [--rate HZ] [--no-meshes] [--quiet]"

// extractAbout is what help says of extract.
const extractAbout = `
Exports a whole game: every character (Animator rig) of the Unity files
found in PATH (a game's data folder, a folder of mod bundles, or files:
bundles, level and sharedassets files, split files, WebGL .data files
plain, gzip or brotli; also a Unity project or a ripped one, whose YAML
assets are read with the GUIDs of their .meta files, a .unitypackage, and
glTF/VRM characters) to OUT/NAME.glb, with every clip its controller and
Animation components play, and every clip no character plays on the
character it binds to. Humanoid clips no character plays go on --avatar,
or are listed. OUT/manifest.json names for every character, clip, avatar
and controller where it was read (container, file, path id), its output,
and what was skipped and why. 2D clips (switching the sprite of a
SpriteRenderer or UI Image) go to OUT/sprites/ as an animated PNG and a
sprite sheet with Aseprite-shaped JSON timing.
All files are read as one set (a character in one bundle plays clips of
another). A file that cannot be read is listed and the rest goes on (exit
status 1 at the end). Outputs appear complete or not at all: Ctrl-C stops
after the characters being written, and a second run skips what is up to
date and finishes the rest (--force redoes everything).`

func runExtract(e *env, args []string) error {
	fs := newFlags(e, "extract", extractSynopsis)
	var o extract.Options
	fs.StringVar(&o.Out, "o", "", "output folder (created when missing)")
	fs.IntVar(&o.Workers, "j", 0, "characters written at once (default: one per CPU)")
	fs.StringVar(&o.Avatar, "avatar", "", "avatar to export humanoid clips no character plays on: name or FILE#PATHID")
	fs.BoolVar(&o.Pictures, "pictures", false, "draw a contact sheet (PNG) of every clip on its character, in OUT/NAME.pictures/")
	fs.BoolVar(&o.Force, "force", false, "redo outputs that are up to date")
	rate := fs.Float64("rate", 0, "resampling rate in Hz (default: each clip's sample rate)")
	fs.BoolVar(&o.NoMeshes, "no-meshes", false, "leave the meshes out (skeletons and animations only)")
	var rf readerFlags
	rf.register(fs)
	paths, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	switch {
	case len(paths) == 0:
		return usagef("no PATH given")
	case o.Out == "":
		return usagef("give the output folder with -o")
	case *rate < 0 || *rate > 10000:
		return usagef("--rate %g is not in (0, 10000] Hz", *rate)
	case o.Workers < 0:
		return usagef("-j %d: want a count of workers", o.Workers)
	}
	o.Rate = float32(*rate)
	bo, err := rf.bindOptions()
	if err != nil {
		return err
	}
	o.Reader, o.HumanMap = bo.Reader, bo.HumanMap
	bar := newExtractProgress(e.stderr, e.quiet)
	o.Progress = bar.update
	// The first Ctrl-C stops after the characters being written (their
	// files complete); a second one stops at once (temporary files are
	// removed by the next run).
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		stop()
	}()
	m, err := extract.Extract(ctx, paths, o)
	bar.done()
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("stopped: the outputs written are complete; run again to finish")
		}
		return err
	}
	for _, f := range m.Failed {
		where := f.Input
		if where == "" {
			where = f.Output
		}
		msg := f.Error
		if where != "" && !strings.HasPrefix(f.Error, where) {
			msg = where + ": " + msg
		}
		e.fail(failureError{msg, f.Err()})
	}
	if len(m.Characters) == 0 && len(m.Clips) == 0 {
		e.failf("nothing to extract: the %d files read hold no character and no clip", len(m.Inputs))
	}
	if !e.quiet {
		written, clips, skipped := 0, 0, 0
		for _, c := range m.Characters {
			if c.Output != "" {
				written++
			}
		}
		for _, c := range m.Clips {
			if len(c.Outputs) > 0 {
				clips++
			} else {
				skipped++
			}
		}
		e.notef("%d of %d characters and %d of %d clips exported to %s (%d clips left out: see manifest.json) from %d files",
			written, len(m.Characters), clips, len(m.Clips), o.Out, skipped, len(m.Inputs))
		if pr := bar.last; pr.Bytes > 0 {
			secs := pr.Elapsed.Seconds()
			e.notef("read %.1f MB (%.1f MB decompressed) in %.2f s: %.1f MB/s of files, %.1f MB/s decompressed",
				float64(pr.Bytes)/1e6, float64(pr.Expanded)/1e6, secs, float64(pr.Bytes)/1e6/secs, float64(pr.Expanded)/1e6/secs)
		}
	}
	return e.done()
}

// extractProgress draws one line of progress on stderr when it is a
// terminal (nothing otherwise, or with --quiet).
type extractProgress struct {
	w    io.Writer
	on   bool
	last extract.Progress
}

func newExtractProgress(w io.Writer, quiet bool) *extractProgress {
	p := &extractProgress{w: w}
	if f, ok := w.(*os.File); ok && !quiet {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			p.on = true
		}
	}
	return p
}

func (p *extractProgress) update(pr extract.Progress) {
	p.last = pr
	if !p.on {
		return
	}
	secs := pr.Elapsed.Seconds()
	rate := ""
	if secs > 0 {
		rate = fmt.Sprintf(", %.1f MB/s read, %.1f MB/s expanded", float64(pr.Bytes)/1e6/secs, float64(pr.Expanded)/1e6/secs)
	}
	left := ""
	if pr.Left > 0 {
		left = ", " + pr.Left.Round(time.Second).String() + " left"
	}
	line := fmt.Sprintf("%s %d/%d: %d/%d files, %d objects%s%s", pr.Phase, pr.Done, pr.Total, pr.Files, pr.FilesTotal, pr.Objects, rate, left)
	if len(line) > 110 {
		line = line[:110]
	}
	fmt.Fprintf(p.w, "\r%-110s", line)
}

func (p *extractProgress) done() {
	if p.on {
		fmt.Fprintf(p.w, "\r%s\r", strings.Repeat(" ", 110))
	}
}

// failureError is an extraction's failure as the command reports it: its
// message, with its cause when this run met it.
type failureError struct {
	msg   string
	cause error
}

func (f failureError) Error() string { return f.msg }
func (f failureError) Unwrap() error { return f.cause }
