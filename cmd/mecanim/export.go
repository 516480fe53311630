package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/mecanim/mecanim/bind"
	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/decode/mesh"
	"github.com/mecanim/mecanim/export/gltf"
	"github.com/mecanim/mecanim/extract"
	"github.com/mecanim/mecanim/internal/atomicfile"
)

// exportSynopsis is the export command's usage line.
const exportSynopsis = `FILE... [--animator NAME | --avatar NAME | --onto CHARACTER.glb] [--clip NAME]... [--rate HZ] [--interpolation exact|linear] [--no-meshes] [--json] -o OUT.glb|OUT.gltf
       mecanim export FILE... --all [--clip NAME]... [--format glb|gltf] [--interpolation exact|linear] [--json] -o DIR`

const exportAbout = `
Writes a rig (the Animator's GameObject hierarchy with its rest transforms,
its meshes) and clips as glTF 2.0 animations. Unity's left-handed frame is
mirrored into glTF's right-handed one (x negated; see export/gltf).
Generic clips and blend-shape weights keep their curves' shapes (STEP /
LINEAR / CUBICSPLINE tracks that give the runtime's values at every time);
Euler rotations, weighted keys and humanoid clips' bones are resampled at
each clip's sample rate (or --rate), with the error bound stated in
export/gltf.Sample. --interpolation linear writes no cubic splines (for
Blender 3.4, which drops their tangents): those tracks are sampled at --rate
too, and each clip's largest joint error between keys is printed.
Without --clip every clip of the files that binds to the rig is exported
(humanoid clips when the rig has a humanoid avatar). Clips, avatars and rigs
may come from different files given together.
--all exports every Animator rig of the files, each to DIR/NAME.glb (DIR is
created; NAME is the Animator's GameObject name, made safe for a file name,
with -2, -3... added when names repeat), going on after a rig that fails.

What was written is summarised on stderr (a note: --quiet silences it), or
with --json on stdout, one JSON object per file written (schema
docs/schema/export.json). The command exits 1 when anything asked for was
left out: a clip named with --clip that cannot be exported or moves
nothing on the rig, a mesh that could not be decoded, a rig that failed.
Clips left out of "every clip", renderers without a mesh and meshes outside
the inputs (in a file not given, or built into Unity other than its
primitives, which are made: Cube, Sphere, Capsule, Cylinder, Plane, Quad)
are notes, as extract has them.`

// exportOptions are the export command's options after parsing.
type exportOptions struct {
	animator, avatar, onto string
	clips                  []string
	rate                   float64
	linear                 bool // --interpolation linear
	noMeshes, asJSON       bool
	format                 string // glb or gltf (--all)
	// someClips, when not nil (--all), records the clips asked for that
	// played on some character; a clip that does not play on one is then
	// a note rather than an error.
	someClips map[string]bool
}

func runExport(e *env, args []string) error {
	fs := newFlags(e, "export", exportSynopsis)
	var o exportOptions
	fs.BoolVar(&o.asJSON, "json", false, "print the summary of each file written as JSON on stdout")
	fs.StringVar(&o.animator, "animator", "", "character to export, by its Animator's GameObject name or FILE#PATHID")
	fs.StringVar(&o.avatar, "avatar", "", "avatar to export (its Animator's character, or its own skeleton without one): name or FILE#PATHID")
	onto := fs.String("onto", "", "the character to export with the clips played on it, any source: a glTF/VRM file, a prefab with its avatar, a bundle (read with the inputs), or an Animator or avatar by name or FILE#PATHID")
	var clips multiFlag
	fs.Var(&clips, "clip", "clip to export (repeatable; default: every clip that binds to the rig)")
	all := fs.Bool("all", false, "export every rig of the files, each to its own file in the -o directory")
	out := fs.String("o", "", "output file (.glb, or .gltf with a .bin beside it); a directory with --all")
	fs.Float64Var(&o.rate, "rate", 0, "resampling rate in Hz (default: each clip's sample rate)")
	interp := fs.String("interpolation", "exact", "exact (keep the curves' shapes, cubic splines) or linear (sampled at --rate where not steps or lines: for Blender)")
	fs.BoolVar(&o.noMeshes, "no-meshes", false, "leave the meshes out (skeleton and animations only)")
	fs.StringVar(&o.format, "format", "glb", "file format with --all: glb or gltf")
	var rf readerFlags
	rf.register(fs)
	files, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	o.clips = clips
	on := bind.On{Character: o.animator, Avatar: o.avatar}
	if files, err = ontoFlag(files, *onto, &on); err != nil {
		return err
	}
	o.onto = on.Onto
	switch {
	case *out == "":
		return usagef("give the output with -o")
	case *all && (o.animator != "" || o.avatar != "" || o.onto != ""):
		return usagef("--all exports every rig; it takes no --animator, --avatar or --onto")
	case o.animator != "" && o.avatar != "":
		return usagef("give --animator or --avatar, not both")
	case o.rate < 0 || o.rate > 10000:
		return usagef("--rate %g is not in (0, 10000] Hz", o.rate)
	case o.format != "glb" && o.format != "gltf":
		return usagef("--format %q: want glb or gltf", o.format)
	case *interp != "exact" && *interp != "linear":
		return usagef("--interpolation %q: want exact or linear", *interp)
	}
	o.linear = *interp == "linear"
	if !*all {
		switch strings.ToLower(filepath.Ext(*out)) {
		case ".glb", ".gltf":
		default:
			return usagef("-o %q: the output must end in .glb or .gltf", *out)
		}
	}
	set, _, err := openSet(context.Background(), e, "export", files, &rf)
	if err != nil {
		return err
	}
	defer set.Close()
	if *all {
		if _, err := exportAll(e, set, &o, *out); err != nil {
			return err
		}
	} else {
		ch, err := chooseCharacter(set, &o)
		if err != nil {
			return err
		}
		if _, err := exportCharacter(e, set, ch, &o, *out); err != nil {
			return err
		}
	}
	return e.done()
}

// exportAll writes every character to its own file in dir and returns how
// many failed (each reported on stderr).
func exportAll(e *env, set *bind.Set, o *exportOptions, dir string) (int, error) {
	items := set.Characters()
	if len(items) == 0 {
		return 0, errors.New("no character (Animator rig) in the inputs")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, err
	}
	names := make([]string, len(items))
	for i, it := range items {
		names[i] = it.Name
	}
	names = extract.UniqueNames(names)
	failed, done := 0, 0
	// A clip asked for need play only on some of the characters: those it
	// does not play on leave it out with a note; a clip that plays on none
	// is an error.
	all := *o
	all.someClips = map[string]bool{}
	for i, it := range items {
		path := filepath.Join(dir, names[i]+"."+o.format)
		ch, err := set.Character(context.Background(), bound.CharacterID(i))
		if err == nil {
			var n int
			if n, err = exportCharacter(e, set, ch, &all, path); err == nil {
				failed += n
				done++
				continue
			}
		}
		e.failf("%s %q (%s): %v", bind.KindCharacter, it.Name, it.Ref, err)
		failed++
	}
	for _, name := range o.clips {
		if !all.someClips[name] {
			e.failf("clip %q plays on none of the characters", name)
			failed++
		}
	}
	e.notef("%d of %d characters exported to %s", done, len(items), dir)
	return failed, nil
}

// chooseCharacter asks bind for the character to export: the one
// --animator or --avatar names, else the one the named clips play on, else
// the only one of the inputs (bind.Set.CharacterFor, the rule every
// command follows).
func chooseCharacter(set *bind.Set, o *exportOptions) (*bound.Character, error) {
	var clips []bound.ClipID
	for _, name := range o.clips {
		i, err := set.FindClip(name)
		if err != nil {
			return nil, err
		}
		clips = append(clips, i)
	}
	ch, err := set.CharacterFor(context.Background(), bind.On{Character: o.animator, Avatar: o.avatar, Onto: o.onto}, clips...)
	var ce *bind.ChoiceError
	if errors.As(err, &ce) && len(clips) == 0 {
		ce.What += " (or export them all with --all)"
	}
	return ch, err
}

// exportJSON is the summary of one file export wrote (export --json).
type exportJSON struct {
	Output     string           `json:"output"`
	On         characterRef     `json:"on"`
	Nodes      int              `json:"nodes"`
	Meshes     int              `json:"meshes"`
	Animations []exportAnimJSON `json:"animations"`
	// LeftOut are what was asked for and not written (each also a
	// failure on stderr); Notes what else was left out, and why.
	LeftOut []string `json:"left_out"`
	Notes   []string `json:"notes"`
	// Curves are the tables written beside the file for a clip played on
	// its own paths (NAME.curves.json, NAME.curves.csv).
	Curves []string `json:"curves"`
}

// exportAnimJSON is one clip of an export: how its tracks were made
// (export/gltf.AnimStats).
type exportAnimJSON struct {
	Clip       objectRef `json:"clip"`
	Written    bool      `json:"written"`
	Tracks     int       `json:"tracks"`
	Exact      int       `json:"exact"`
	Step       int       `json:"step"`
	Linear     int       `json:"linear"`
	Cubic      int       `json:"cubic"`
	Resampled  int       `json:"resampled"`
	SampleRate jsonFloat `json:"sample_rate"`
	SplitKeys  int       `json:"split_keys"`
	Keys       int       `json:"keys"`
	Unresolved int       `json:"unresolved_channels"`
}

// exportCharacter binds the clips asked for (or every clip that plays on
// the character) and writes the character with them to path. What was
// asked for and cannot be written (a clip named with --clip, a mesh) is a
// failure; what else is left out (clips of "every clip" that do not play
// on it, renderers without a mesh) is a note. It returns how many things
// asked for were not done (each reported).
func exportCharacter(e *env, set *bind.Set, ch *bound.Character, o *exportOptions, path string) (int, error) {
	var motions []*bound.Motion
	sum := exportJSON{Output: path, On: characterOf(ch), Animations: []exportAnimJSON{}, LeftOut: []string{}, Notes: []string{}, Curves: []string{}}
	failed := 0
	leftOut := func(format string, a ...any) {
		m := fmt.Sprintf(format, a...)
		sum.LeftOut = append(sum.LeftOut, m)
		e.failf("%s: %s", path, m)
		failed++
	}
	asked := len(o.clips) > 0
	if asked {
		for _, name := range o.clips {
			i, err := set.FindClip(name)
			if err != nil {
				return failed, err // nothing is written for a clip that is not there
			}
			m, err := set.Motion(context.Background(), i, ch)
			if err != nil {
				if o.someClips != nil { // --all: it may play on others
					sum.Notes = append(sum.Notes, err.Error())
					continue
				}
				leftOut("clip %q: %v", name, err)
				continue
			}
			if o.someClips != nil {
				o.someClips[name] = true
			}
			if n := retargetNote(m); n != "" {
				sum.Notes = append(sum.Notes, n)
			}
			motions = append(motions, m)
		}
	} else {
		var notes []string
		var err error
		motions, notes, err = set.Motions(context.Background(), ch)
		sum.Notes = append(sum.Notes, notes...)
		for _, m := range motions {
			if n := retargetNote(m); n != "" {
				sum.Notes = append(sum.Notes, n)
			}
		}
		if err != nil {
			// one line per clip that could not be bound
			if j, ok := err.(interface{ Unwrap() []error }); ok {
				for _, err := range j.Unwrap() {
					leftOut("%v", err)
				}
			} else {
				leftOut("%v", err)
			}
		}
	}
	bar := newProgress(e.stderr, e.quiet, ch.Name())
	opts := gltf.SceneOptions{Rate: float32(o.rate), NoMeshes: o.noMeshes, Progress: bar.update}
	if o.linear {
		opts.Interpolation = gltf.Linear
	}
	s, errs := gltf.BuildScene(ch, motions, opts)
	bar.done()
	s.Generator = "mecanim export"
	if err := writeScene(path, s); err != nil {
		return failed, err
	}
	tables, inTable, err := writeCurves(ch, motions, path, float32(o.rate))
	sum.Curves = append(sum.Curves, tables...)
	if err != nil {
		return failed, err
	}
	var st gltf.AnimStats
	tracks := 0
	for k, a := range s.Animations {
		aj := exportAnimJSON{Clip: refOf(a.Name, motions[k].Source()), Written: len(a.Tracks) > 0, Tracks: len(a.Tracks),
			Exact: a.Stats.Exact, Step: a.Stats.Step, Linear: a.Stats.Linear, Cubic: a.Stats.Cubic, Resampled: a.Stats.Resampled,
			SampleRate: jsonFloat(a.Stats.Rate), SplitKeys: a.Stats.SplitKeys, Keys: a.Stats.Keys, Unresolved: a.Stats.Unresolved}
		sum.Animations = append(sum.Animations, aj)
		st.Exact += a.Stats.Exact
		st.Step += a.Stats.Step
		st.Linear += a.Stats.Linear
		st.Cubic += a.Stats.Cubic
		st.Resampled += a.Stats.Resampled
		st.SplitKeys += a.Stats.SplitKeys
		st.Keys += a.Stats.Keys
		tracks += len(a.Tracks)
		if a.Stats.Unresolved > 0 {
			sum.Notes = append(sum.Notes, fmt.Sprintf("clip %q: exported without its %d Transform channels that name no GameObject of %s", a.Name, a.Stats.Unresolved, ch.Describe()))
		}
		for _, x := range motions[k].Clip().NotFinite() {
			sum.Notes = append(sum.Notes, fmt.Sprintf("clip %q: %v: held at the value before it (left out when it has none)", a.Name, x))
		}
		if len(a.Tracks) == 0 && inTable[k] {
			sum.Notes = append(sum.Notes, fmt.Sprintf("clip %q moves no node of its own paths: its curves are in %s", a.Name, strings.Join(tables, " and ")))
		} else if len(a.Tracks) == 0 {
			if asked {
				leftOut("clip %q moves nothing on %s (no glTF animation written): %s", a.Name, ch.Describe(), a.Stats.NothingMoves)
			} else {
				sum.Notes = append(sum.Notes, fmt.Sprintf("clip %q moves nothing on %s (no glTF animation written): %s", a.Name, ch.Describe(), a.Stats.NothingMoves))
			}
		}
	}
	for _, err := range errs {
		// A mesh outside the inputs (none named, Unity's own resources,
		// a file not given) is a note, as extract has it; one that fails
		// to decode is left out.
		if errors.Is(err, mesh.ErrNoMesh) || errors.Is(err, mesh.ErrBuiltinMesh) || errors.Is(err, mesh.ErrMeshMissing) {
			sum.Notes = append(sum.Notes, err.Error())
			continue
		}
		leftOut("%v", err)
	}
	sum.Nodes, sum.Meshes = len(s.Rig.Nodes), len(s.Meshes)
	if o.asJSON {
		if err := writeJSONLine(e.stdout, sum); err != nil {
			return failed, err
		}
	}
	e.notef("%s: %s: %d nodes, %d meshes, %d animations, %d tracks (%d exact: %d step, %d linear, %d cubic, %d split keys; %d resampled), %d keys",
		path, ch.Describe(), sum.Nodes, sum.Meshes, len(s.Animations), tracks, st.Exact, st.Step, st.Linear, st.Cubic, st.SplitKeys, st.Resampled, st.Keys)
	if o.linear {
		size := gltf.RigSize(s.Rig)
		for _, a := range s.Animations {
			if a.Stats.Resampled == 0 {
				e.notef("clip %q: exact (steps and lines only)", a.Name)
				continue
			}
			rel := ""
			if size > 0 {
				rel = fmt.Sprintf(" (%.2g%% of the rig's size, %.3g m)", 100*a.Stats.BetweenKeys/size, size)
			}
			e.notef("clip %q: sampled at %g Hz, joints within %.3g mm of the runtime between keys%s", a.Name, a.Stats.Rate, 1000*a.Stats.BetweenKeys, rel)
		}
	}
	for _, m := range sum.Notes {
		e.notef("%s", m)
	}
	return failed, nil
}

// writeScene writes a scene to path (.gltf: with a .bin beside it; else
// .glb) through a temporary file renamed when complete, so that no partial
// output is left behind.
func writeScene(path string, s *gltf.Scene) error {
	if strings.EqualFold(filepath.Ext(path), ".gltf") {
		return gltf.WriteGLTF(path, s)
	}
	return atomicfile.Write(path, func(w io.Writer) error { return gltf.WriteGLB(w, s) })
}

// progress draws a bar on stderr while clips are put on a rig when
// stderr is a terminal (nothing otherwise, or with --quiet).
type progress struct {
	w    io.Writer
	name string
	on   bool
}

func newProgress(w io.Writer, quiet bool, name string) *progress {
	p := &progress{w: w, name: name}
	if f, ok := w.(*os.File); ok && !quiet {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			p.on = true
		}
	}
	return p
}

func (p *progress) update(done, total int) {
	if !p.on || total == 0 {
		return
	}
	const width = 30
	n := done * width / total
	fmt.Fprintf(p.w, "\r%-20.20s [%s%s] %d/%d clips", p.name, strings.Repeat("=", n), strings.Repeat(" ", width-n), done, total)
}

func (p *progress) done() {
	if p.on {
		fmt.Fprintf(p.w, "\r%s\r", strings.Repeat(" ", 70))
	}
}
