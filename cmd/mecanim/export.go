package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/decode/catalog"
	"github.com/mecanim/mecanim/export/gltf"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/present/playable"
)

// exportSynopsis is the export command's usage line.
const exportSynopsis = `FILE... [--animator NAME | --avatar NAME] [--clip NAME]... [--rate HZ] [--no-meshes] [--quiet] -o OUT.glb|OUT.gltf
       mecanim export FILE... --all [--clip NAME]... [--format glb|gltf] -o DIR

Writes a rig (the Animator's GameObject hierarchy with its rest transforms,
its meshes) and clips as glTF 2.0 animations. Unity's left-handed frame is
mirrored into glTF's right-handed one (x negated; see export/gltf).
Generic clips and blend-shape weights keep their curves' shapes (STEP /
LINEAR / CUBICSPLINE tracks that give the runtime's values at every time);
Euler rotations, weighted keys and humanoid clips' bones are resampled at
each clip's sample rate (or --rate), with the error bound stated in
export/gltf.Sample.
Without --clip every clip of the files that binds to the rig is exported
(humanoid clips when the rig has a humanoid avatar). Clips, avatars and rigs
may come from different files given together.
--all exports every Animator rig of the files, each to DIR/NAME.glb (DIR is
created; NAME is the Animator's GameObject name, made safe for a file name,
with -2, -3... added when names repeat), going on after a rig that fails.`

// exportOptions are the export command's options after parsing.
type exportOptions struct {
	animator, avatar string
	clips            []string
	rate             float64
	noMeshes, quiet  bool
	format           string // glb or gltf (--all)
}

func runExport(e *env, args []string) error {
	fs := newFlags(e, "export", exportSynopsis)
	var o exportOptions
	fs.StringVar(&o.animator, "animator", "", "GameObject name of the Animator whose rig is exported")
	fs.StringVar(&o.avatar, "avatar", "", "avatar to export (its Animator's rig, or its own skeleton) and to play humanoid clips through")
	var clips multiFlag
	fs.Var(&clips, "clip", "clip to export (repeatable; default: every clip that binds to the rig)")
	all := fs.Bool("all", false, "export every rig of the files, each to its own file in the -o directory")
	out := fs.String("o", "", "output file (.glb, or .gltf with a .bin beside it); a directory with --all")
	fs.Float64Var(&o.rate, "rate", 0, "resampling rate in Hz (default: each clip's sample rate)")
	fs.BoolVar(&o.noMeshes, "no-meshes", false, "leave the meshes out (skeleton and animations only)")
	fs.BoolVar(&o.quiet, "quiet", false, "no progress on stderr")
	fs.StringVar(&o.format, "format", "glb", "file format with --all: glb or gltf")
	var rf readerFlags
	rf.register(fs)
	files, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	o.clips = clips
	switch {
	case *out == "":
		return usagef("give the output with -o")
	case *all && (o.animator != "" || o.avatar != ""):
		return usagef("--all exports every rig; it takes no --animator or --avatar")
	case o.animator != "" && o.avatar != "":
		return usagef("give --animator or --avatar, not both")
	case o.rate < 0 || o.rate > 10000:
		return usagef("--rate %g is not in (0, 10000] Hz", o.rate)
	case o.format != "glb" && o.format != "gltf":
		return usagef("--format %q: want glb or gltf", o.format)
	}
	if !*all {
		switch strings.ToLower(filepath.Ext(*out)) {
		case ".glb", ".gltf":
		default:
			return usagef("-o %q: the output must end in .glb or .gltf", *out)
		}
	}
	cat, failed, err := openCatalog(e, "export", files, &rf)
	if err != nil {
		return err
	}
	defer cat.Close()
	w := bufio.NewWriter(e.stdout)
	defer w.Flush()
	if *all {
		n, err := exportAll(e, w, cat, &o, *out)
		if err != nil {
			return err
		}
		failed += n
	} else {
		r, av, err := chooseRig(cat, &o)
		if err != nil {
			return err
		}
		if err := exportRig(e, w, cat, r, av, &o, *out); err != nil {
			return err
		}
	}
	if failed > 0 {
		return &failedError{failed}
	}
	return nil
}

// exportAll writes every rig to its own file in dir and returns how many
// failed (each reported on stderr).
func exportAll(e *env, w *bufio.Writer, cat *catalog.Catalog, o *exportOptions, dir string) (int, error) {
	rigs, errs := cat.Rigs()
	failed := 0
	for _, err := range errs {
		fmt.Fprintf(e.stderr, "mecanim export: %v\n", err)
		failed++
	}
	if len(rigs) == 0 {
		return failed, errors.New("no Animator rig in the files given")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return failed, err
	}
	used := map[string]int{}
	for i := range rigs {
		name := safeFileName(rigs[i].Name)
		used[name]++
		if n := used[name]; n > 1 {
			name = fmt.Sprintf("%s-%d", name, n)
		}
		path := filepath.Join(dir, name+"."+o.format)
		if err := exportRig(e, w, cat, rigs[i], nil, o, path); err != nil {
			fmt.Fprintf(e.stderr, "mecanim export: rig %q: %v\n", rigs[i].Name, err)
			failed++
		}
	}
	fmt.Fprintf(w, "%d of %d rigs exported to %s\n", len(rigs)-failed+len(errs), len(rigs), dir)
	return failed, nil
}

// safeFileName keeps letters, digits, '-', '_' and '.' of a name (others
// become '_'); an empty name becomes "rig".
func safeFileName(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			b[i] = '_'
		}
	}
	s = strings.Trim(string(b), ".")
	if s == "" {
		return "rig"
	}
	return s
}

// chooseRig finds the rig to export (and the avatar named by --avatar):
// the Animator named by --animator; the Animator using the avatar named
// by --avatar, else the avatar's own skeleton; else the only rig of the
// files, or the rig the named clips bind to best.
func chooseRig(cat *catalog.Catalog, o *exportOptions) (catalog.Rig, *model.Avatar, error) {
	if o.animator != "" {
		r, err := cat.Rig(o.animator)
		return r, nil, err
	}
	rigs, _ := cat.Rigs()
	if o.avatar != "" {
		ao, err := cat.One(model.ClassAvatar, "Avatar", o.avatar)
		if err != nil {
			return catalog.Rig{}, nil, err
		}
		av, err := cat.Avatar(ao)
		if err != nil {
			return catalog.Rig{}, nil, err
		}
		for _, r := range rigs {
			if x, ok := cat.RigAvatar(r); ok && x.File == ao.File && x.PathID() == ao.PathID() {
				return r, av, nil
			}
		}
		rig, err := rigFromAvatar(av)
		if err != nil {
			return catalog.Rig{}, nil, err
		}
		return catalog.Rig{Rig: rig, File: ao.File}, av, nil
	}
	if len(rigs) == 1 {
		return rigs[0], nil, nil
	}
	if len(o.clips) > 0 {
		for _, name := range o.clips {
			co, err := cat.One(model.ClassAnimationClip, "AnimationClip", name)
			if err != nil {
				return catalog.Rig{}, nil, err
			}
			c, err := cat.Clip(co)
			if err != nil {
				return catalog.Rig{}, nil, err
			}
			if c.Humanoid {
				continue
			}
			p, err := playable.LoadClip(cat, c, playable.Options{})
			if err != nil {
				return catalog.Rig{}, nil, err
			}
			if p.Rig != nil {
				return *p.Rig, nil, nil
			}
		}
	}
	var have []string
	for _, r := range rigs {
		have = append(have, fmt.Sprintf("%q", r.Name))
	}
	sort.Strings(have)
	if len(have) == 0 {
		return catalog.Rig{}, nil, errors.New("no Animator rig in the files given (give --avatar to export an avatar's skeleton)")
	}
	return catalog.Rig{}, nil, usagef("%d rigs in the files given; choose one with --animator (%s) or export them all with --all", len(rigs), strings.Join(have, ", "))
}

// rigFromAvatar makes a rig of an avatar's skeleton (no GameObjects: the
// nodes are named by the last part of their paths), resting at the
// avatar's default pose.
func rigFromAvatar(a *model.Avatar) (*model.Rig, error) {
	sk, err := playable.AvatarSkeleton(a)
	if err != nil {
		return nil, err
	}
	r := &model.Rig{Name: a.Name}
	for i, p := range sk.Paths {
		name := p[strings.LastIndexByte(p, '/')+1:]
		if i == 0 && p == "" {
			name = a.Name
		}
		r.Nodes = append(r.Nodes, model.RigNode{Name: name, Path: p, Parent: sk.Parents[i], Local: sk.Rest[i]})
	}
	return r, nil
}

// rigClips returns the clips to export on a rig: those named, or every
// clip of the files that binds to it (generic clips with a Transform
// channel on one of its paths; humanoid clips when it has a humanoid
// avatar), with what was left out and why.
func rigClips(cat *catalog.Catalog, r catalog.Rig, human bool, why string, names []string) ([]*model.Clip, []string, error) {
	var out []*model.Clip
	var skipped []string
	if len(names) > 0 {
		for _, name := range names {
			co, err := cat.One(model.ClassAnimationClip, "AnimationClip", name)
			if err != nil {
				return nil, nil, err
			}
			c, err := cat.Clip(co)
			if err != nil {
				return nil, nil, err
			}
			out = append(out, c)
		}
		return out, nil, nil
	}
	sk, err := anim.SkeletonFromRig(r.Rig)
	if err != nil {
		return nil, nil, err
	}
	humanSkipped := 0
	for _, co := range cat.ByClass(model.ClassAnimationClip) {
		c, err := cat.Clip(co)
		if err != nil {
			skipped = append(skipped, fmt.Sprintf("clip %q: %v", cat.Name(co), err))
			continue
		}
		if c.Humanoid {
			if human {
				out = append(out, c)
			} else {
				humanSkipped++
			}
			continue
		}
		if binds(c, sk) {
			out = append(out, c)
		}
	}
	if humanSkipped > 0 {
		skipped = append(skipped, fmt.Sprintf("%d humanoid clips: %s (give --avatar)", humanSkipped, why))
	}
	return out, skipped, nil
}

// binds reports whether a generic clip drives a joint of the skeleton.
func binds(c *model.Clip, sk *anim.Skeleton) bool {
	for i := range c.Curves {
		t := &c.Curves[i].Target
		if t.ClassID != model.ClassTransform {
			continue
		}
		if _, ok := sk.IndexHash(t.PathHash); ok {
			return true
		}
		if t.PathKnown {
			if _, ok := sk.Index(t.Path); ok {
				return true
			}
		}
	}
	return false
}

// humanAvatarOf reports whether a rig's Animator has a humanoid avatar in
// the files, and if not, why.
func humanAvatarOf(cat *catalog.Catalog, r catalog.Rig) (bool, string) {
	if !r.HasAvatar() {
		return false, "the rig's Animator has no avatar"
	}
	o, ok := cat.RigAvatar(r)
	if !ok {
		return false, "the rig's avatar is not in the files given"
	}
	a, err := cat.Avatar(o)
	if err != nil {
		return false, fmt.Sprintf("the rig's avatar does not decode: %v", err)
	}
	if !a.IsHuman() {
		return false, fmt.Sprintf("the rig's avatar %q is generic", a.Name)
	}
	return true, ""
}

// exportRig builds one rig's scene, writes it to path and prints what was
// exported and what was left out.
func exportRig(e *env, w io.Writer, cat *catalog.Catalog, r catalog.Rig, av *model.Avatar, o *exportOptions, path string) error {
	human, why := av != nil && av.IsHuman(), "the avatar given is not humanoid"
	if av == nil {
		human, why = humanAvatarOf(cat, r)
	}
	clips, skipped, err := rigClips(cat, r, human, why, o.clips)
	if err != nil {
		return err
	}
	opts := gltf.SceneOptions{Clips: clips, Rate: float32(o.rate), NoMeshes: o.noMeshes || r.Animator == nil, Avatar: av}
	bar := newProgress(e.stderr, o.quiet, r.Name)
	opts.Progress = bar.update
	s, errs := gltf.BuildScene(cat, r, opts)
	bar.done()
	s.Generator = "mecanim export"
	var werr error
	if strings.EqualFold(filepath.Ext(path), ".gltf") {
		werr = gltf.WriteGLTF(path, s)
	} else {
		var f *os.File
		f, werr = os.Create(path)
		if werr == nil {
			werr = gltf.WriteGLB(f, s)
			if cerr := f.Close(); werr == nil {
				werr = cerr
			}
		}
	}
	if werr != nil {
		return fmt.Errorf("writing %s: %w", path, werr)
	}
	var st gltf.AnimStats
	tracks := 0
	for _, a := range s.Animations {
		st.Exact += a.Stats.Exact
		st.Step += a.Stats.Step
		st.Linear += a.Stats.Linear
		st.Cubic += a.Stats.Cubic
		st.Resampled += a.Stats.Resampled
		st.SplitKeys += a.Stats.SplitKeys
		st.Keys += a.Stats.Keys
		tracks += len(a.Tracks)
		if a.Stats.Unresolved > 0 {
			skipped = append(skipped, fmt.Sprintf("clip %q: %d Transform channels name no node of the rig", a.Name, a.Stats.Unresolved))
		}
		if len(a.Tracks) == 0 {
			skipped = append(skipped, fmt.Sprintf("clip %q: moves nothing on the rig (no glTF animation written)", a.Name))
		}
	}
	for _, err := range errs {
		skipped = append(skipped, err.Error())
	}
	fmt.Fprintf(w, "%s: rig %q: %d nodes, %d meshes, %d animations, %d tracks (%d exact: %d step, %d linear, %d cubic, %d split keys; %d resampled), %d keys\n",
		path, r.Name, len(s.Rig.Nodes), len(s.Meshes), len(s.Animations), tracks, st.Exact, st.Step, st.Linear, st.Cubic, st.SplitKeys, st.Resampled, st.Keys)
	for _, m := range skipped {
		fmt.Fprintf(w, "  skipped: %s\n", m)
	}
	return nil
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
