// Package extract exports a whole game: every character (Animator rig) of
// a set of Unity files — a game's data folder, a folder of mod bundles, or
// files — to a glTF binary file of its own holding every clip it plays,
// with a manifest of what went where. It is what modders and dataminers
// start from, and what `mecanim extract` runs.
//
// Every Unity file is opened once and all of them form one set (package
// bind): a character in one file plays clips of another through its
// controller. What goes into a character's file:
//
//   - the clips its controller plays (an override controller's
//     replacements applied) and those its Animation components list;
//   - clips no character plays, each where bind's one rule puts it, as
//     every command plays it (bind.Set.CharacterFor: the character whose
//     GameObjects its curves animate most, a humanoid clip's one humanoid
//     avatar, on the character that uses it or its own skeleton); a clip
//     several fit alike is left out, the candidates listed;
//   - humanoid clips no character plays on the avatar named in
//     Options.Avatar, when one is (on the character that uses it, else on
//     the avatar's own skeleton).
//
// Work is spread over Options.Workers goroutines and memory stays bounded
// whatever the game's size: objects are decoded when a character needs
// them and released when every character that needs them is written; see
// Extract for the bound. Outputs are written under temporary names and
// renamed when complete, so a stopped run leaves no partial file; a later
// run skips what is up to date and finishes the rest.
package extract

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/mecanim/mecanim/inputs"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mecanim/mecanim/bind"
	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/decode/catalog"
	"github.com/mecanim/mecanim/decode/gltfchar"
	"github.com/mecanim/mecanim/internal/atomicfile"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/assets"
	"github.com/mecanim/mecanim/unity/filepool"
	"github.com/mecanim/mecanim/unity/serialized"
	"github.com/mecanim/mecanim/unity/unityfs"
)

// Options configure an extraction.
type Options struct {
	// Out is the folder written to (created when missing).
	Out string
	// Workers is how many characters are decoded and written at once
	// (<= 0: one per CPU).
	Workers int
	// Avatar, when not empty, names the avatar (name or FILE#PATHID)
	// humanoid clips no character plays are exported on.
	Avatar string
	// Reader is how Unity files are read (layouts, Unity version).
	Reader assets.Options
	// HumanMap, when not nil, is the human bone map of the glTF
	// characters read (see bind.Options).
	HumanMap gltfchar.HumanMap
	// Force redoes outputs that are up to date.
	Force bool
	// Rate is the resampling rate of what is resampled (0: each clip's
	// own; see gltf.SceneOptions).
	Rate float32
	// NoMeshes leaves meshes out of the files.
	NoMeshes bool
	// Pictures draws a contact sheet (PNG) of every clip on every
	// character as well, in a folder beside its file.
	Pictures bool
	// CacheBudget bounds the decompressed bundle data held at once, with
	// the open files' metadata: the limit of the one unityfs.Cache every
	// file is read through (<= 0: DefaultCacheBudget; not used when
	// Reader.Cache is given). A file with a block, or metadata, that needs
	// more fails, saying so.
	CacheBudget int64
	// Progress, when not nil, is called from one goroutine a few times a
	// second while the extraction runs, and once at the end.
	Progress func(Progress)
	// OnOutput, when not nil, is called for every output as it is done:
	// written, found up to date, or failed. Calls come from the workers,
	// one at a time.
	OnOutput func(*Output)
}

// DefaultCacheBudget is the default Options.CacheBudget.
const DefaultCacheBudget = unityfs.DefaultMemoryLimit

// Output is one output as it is done.
type Output struct {
	// Path is the file, relative to Options.Out.
	Path string
	// Kind is "character" or "avatar" (an avatar's skeleton with the
	// humanoid clips no character plays).
	Kind string
	// Name and Source are the character's (or avatar's).
	Name   string
	Source model.Source
	// Clips is how many clips it holds; Pictures the contact sheets
	// written beside it.
	Clips    int
	Pictures []string
	// UpToDate is true when the file was already there, made from the
	// same inputs with the same options, and was not written again.
	UpToDate bool
	// Err is why the output could not be written.
	Err error
	// Character and Motions are what was written (nil when up to date or
	// failed), for tool authors who want more from them; they are valid
	// during the call only.
	Character *bound.Character
	Motions   []*bound.Motion
}

// Progress is how far an extraction is.
type Progress struct {
	// Phase is "reading", "planning", "exporting" or "done".
	Phase string
	// Files of FilesTotal Unity files are open, holding Objects objects;
	// Bytes is their size on disk, Expanded the bytes decompressed so far
	// (bundle blocks and compressed WebGL data).
	Files, FilesTotal int
	Objects           int
	Bytes, Expanded   int64
	// Done of Total items of the phase (files, clips, outputs) are done.
	Done, Total int
	// Elapsed is the time since the start; Left an estimate of the time
	// the phase still needs (0 when unknown).
	Elapsed, Left time.Duration
}

// ErrNoOutput is returned when no output folder is given.
var ErrNoOutput = errors.New("extract: no output folder")

// Extract reads every Unity file of paths as one set and writes every
// character, with the clips it plays, to Options.Out, with
// manifest.json. Inputs that cannot be read and outputs that cannot be
// written are listed in the manifest's Failed and the rest goes on; the
// error is for what stops everything (the output folder cannot be
// written, ctx is cancelled: then what is complete stays and a later run
// finishes the rest).
//
// Memory: what stays for the whole run is the files' metadata (their
// object tables, the characters' GameObject hierarchies and every object's
// name: proportional to the number of objects, not to the bytes of the
// game; each distinct type tree is held once for all the files, through
// Reader.Trees); decompressed bundle blocks are held within
// CacheBudget (one unityfs.Cache for every file); the rest
// is what Workers characters being written at once hold (each its
// skeleton, avatar, meshes, the clips it plays and its glTF file while it
// is encoded), released when it is written. BENCHMARKS.md has the numbers.
func Extract(ctx context.Context, paths []string, o Options) (*Manifest, error) {
	if o.Out == "" {
		return nil, ErrNoOutput
	}
	if o.Workers <= 0 {
		o.Workers = runtime.NumCPU()
	}
	if o.CacheBudget <= 0 {
		o.CacheBudget = DefaultCacheBudget
	}
	if o.Reader.Cache == nil {
		o.Reader.Cache = unityfs.NewCache(o.CacheBudget)
	}
	if o.Reader.Trees == nil {
		o.Reader.Trees = serialized.NewTrees()
	}
	if o.Reader.Files == nil {
		// A game can hold more files than the process may keep open.
		o.Reader.Files = filepool.New(0)
	}
	if err := os.MkdirAll(o.Out, 0o755); err != nil {
		return nil, err
	}
	removeStaleTemps(o.Out)
	jn, err := openJournal(o.Out)
	if err != nil {
		return nil, err
	}
	defer jn.close()
	r := &run{o: o, ctx: ctx, journal: jn, start: time.Now()}
	r.progress.Phase = "reading"
	stop := r.report()
	defer stop()

	ins, skipped, failed := discover(ctx, paths, o.Out)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	r.failed = failed
	r.inputsStamp = r.stampInputs(ins, skipped, failed)
	if m, ok := r.upToDate(); ok {
		return m, nil
	}
	r.open(ins)
	if err := ctx.Err(); err != nil {
		r.close()
		return nil, err
	}
	defer r.close()
	r.setPhase("planning", len(r.charItems)+len(r.clipItems))
	r.plan()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	r.setPhase("exporting", len(r.jobs))
	r.export()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m := r.manifest(ins, skipped)
	r.exportSprites(m)
	if err := atomicfile.Write(filepath.Join(o.Out, "manifest.json"), func(w io.Writer) error { return writeManifest(w, m) }); err != nil {
		return m, err
	}
	var outs []string
	for _, x := range m.Outputs {
		outs = append(outs, x.Path)
	}
	if err := jn.complete(r.inputsStamp, outs); err != nil {
		return m, err
	}
	r.setPhase("done", 0)
	return m, nil
}

// writeManifest writes the manifest as indented JSON.
func writeManifest(w io.Writer, m *Manifest) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(m)
}

// run is one extraction in progress.
type run struct {
	o       Options
	ctx     context.Context
	journal *journal
	start   time.Time

	inputsStamp string
	cts         []*assets.Container // by input, nil where it failed
	ins         []inputs.Found
	set         *bind.Set
	// what the set lists of each kind (an object's handle is its place)
	clipItems, charItems, avItems, ctlItems []bound.Item
	cat                                     *catalog.Catalog
	failed                                  []Failure

	// the plan
	chars    []charPlan
	clips    []clipPlan
	jobs     []*job
	avatarOf map[model.Source]int // avatar index by source
	charOf   map[model.Source]int // character index by source
	notes    []string             // about the whole set (--avatar)

	// what is held while exporting
	mu      sync.Mutex
	clipRef []int // jobs still to use each clip
	avRef   []int // jobs still to use each avatar

	pmu      sync.Mutex
	progress Progress
	phaseAt  time.Time
	done     atomic.Int64
	objects  atomic.Int64
	bytes    atomic.Int64
	files    atomic.Int64
	outMu    sync.Mutex // serialises OnOutput
}

// charPlan is what planning learned of a character.
type charPlan struct {
	err        error
	avatar     int // index, -1 none
	controller int // index, -1 none
	notes      []string
	plays      []use // controller and Animation clips, in order
}

// use is a clip on a character and why.
type use struct {
	clip bound.ClipID
	why  string
}

// clipPlan is what planning learned of a clip.
type clipPlan struct {
	humanoid bool
	played   bool
	sameAs   int // index of an identical clip exported in its place, -1
	skipped  string
	broken   error // why the clip does not decode, when planning found it
}

// setPhase starts a phase of total items.
func (r *run) setPhase(name string, total int) {
	r.pmu.Lock()
	r.progress.Phase, r.progress.Total, r.progress.Done = name, total, 0
	r.phaseAt = time.Now()
	r.done.Store(0)
	r.pmu.Unlock()
}

// snapshot is the progress now.
func (r *run) snapshot() Progress {
	r.pmu.Lock()
	p := r.progress
	at := r.phaseAt
	r.pmu.Unlock()
	p.Files, p.Objects, p.Bytes = int(r.files.Load()), int(r.objects.Load()), r.bytes.Load()
	p.Expanded = r.expanded()
	p.Done = int(r.done.Load())
	p.Elapsed = time.Since(r.start)
	if p.Done > 0 && p.Total > p.Done {
		spent := time.Since(at)
		p.Left = time.Duration(float64(spent) * float64(p.Total-p.Done) / float64(p.Done))
	}
	return p
}

// expanded is the bytes decompressed so far.
func (r *run) expanded() int64 {
	r.pmu.Lock()
	cts := r.cts
	r.pmu.Unlock()
	var n int64
	for _, c := range cts {
		if c == nil {
			continue
		}
		n += c.Expanded
		for _, a := range c.Bundles {
			n += a.Stats().BytesDecompressed
		}
	}
	return n
}

// report calls Options.Progress a few times a second until stopped.
func (r *run) report() (stop func()) {
	if r.o.Progress == nil {
		return func() {}
	}
	quit := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(250 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-quit:
				return
			case <-t.C:
				r.o.Progress(r.snapshot())
			}
		}
	}()
	return func() {
		close(quit)
		wg.Wait()
		r.o.Progress(r.snapshot())
	}
}

// parallel runs f(i) for i in [0, n) on the workers, in order of i
// handed out, stopping early when the context is cancelled.
func (r *run) parallel(n int, f func(i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(r.o.Workers, max(n, 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r.ctx.Err() == nil {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				f(i)
				r.done.Add(1)
			}
		}()
	}
	wg.Wait()
}

// open opens every input on the workers and makes them one set.
func (r *run) open(ins []inputs.Found) {
	r.ins = ins
	r.pmu.Lock()
	r.progress.FilesTotal = len(ins)
	r.progress.Total = len(ins)
	r.phaseAt = time.Now()
	r.pmu.Unlock()
	cts := make([]*assets.Container, len(ins))
	errs := make([]error, len(ins))
	var others []string // read by the set: glTF, YAML, projects
	for _, in := range ins {
		if !in.Built {
			others = append(others, in.Path)
		}
	}
	r.parallel(len(ins), func(i int) {
		if !ins[i].Built {
			r.bytes.Add(ins[i].Size)
			r.files.Add(1)
			return
		}
		c, err := assets.Open(ins[i].Path, r.o.Reader)
		if err != nil {
			errs[i] = err
			return
		}
		cts[i] = c
		n := 0
		for _, f := range c.Files {
			n += len(f.Objects)
		}
		r.objects.Add(int64(n))
		r.bytes.Add(ins[i].Size)
		r.files.Add(1)
	})
	var open []*assets.Container
	for i, c := range cts {
		if errs[i] != nil {
			r.failed = append(r.failed, Failure{Input: ins[i].Path, Error: errs[i].Error(), err: errs[i]})
		}
		if c != nil {
			open = append(open, c)
		}
	}
	r.pmu.Lock()
	r.cts = cts
	r.pmu.Unlock()
	r.cat = catalog.New(open...)
	// Names are read once per object and cached by the catalog: read them
	// on the workers before the set lists them one by one.
	var named []catalog.Object
	for _, class := range []int32{model.ClassAnimationClip, model.ClassAvatar, model.ClassAnimatorController, model.ClassOverrideController} {
		named = append(named, r.cat.ByClass(class)...)
	}
	r.pmu.Lock()
	r.progress.Total += len(named)
	r.pmu.Unlock()
	r.parallel(len(named), func(i int) { r.cat.Name(named[i]) })
	set, err := bind.NewWith(r.ctx, r.cat, others, bind.Options{Reader: r.o.Reader, HumanMap: r.o.HumanMap})
	if set == nil {
		return // r.ctx ended: Extract says so, and closes the files
	}
	for _, err := range bind.Errors(err) {
		var in string
		var ie *inputs.Error
		var ae *assets.Error
		switch {
		case errors.As(err, &ie):
			in = ie.Input
		case errors.As(err, &ae):
			in = ae.Container
		}
		r.failed = append(r.failed, Failure{Input: in, Error: err.Error(), err: err})
	}
	r.set = set
	r.clipItems, r.charItems, r.avItems, r.ctlItems = set.Clips(), set.Characters(), set.Avatars(), set.Controllers()
}

// close closes every input.
func (r *run) close() {
	if r.set != nil {
		r.set.Close()
		return
	}
	for _, c := range r.cts {
		if c != nil {
			c.Close()
		}
	}
}

// stampInputs is the stamp of every input and option: equal stamps mean
// an extraction would write the same.
func (r *run) stampInputs(ins []inputs.Found, skipped []inputs.Passed, failed []Failure) string {
	parts := []string{stampVersion, r.optionsString()}
	for _, in := range ins {
		parts = append(parts, in.Path, fmt.Sprint(in.Size), in.ModTime.UTC().Format(time.RFC3339Nano))
	}
	for _, s := range skipped {
		parts = append(parts, "ignored", s.Path)
	}
	for _, f := range failed {
		parts = append(parts, "failed", f.Input, f.Error)
	}
	return stamp(parts...)
}

// optionsString is the options that change what is written.
func (r *run) optionsString() string {
	o := r.o
	return fmt.Sprintf("rate=%g meshes=%v pictures=%v avatar=%q layouts=%d unity=%q", o.Rate, !o.NoMeshes, o.Pictures, o.Avatar, o.Reader.Layouts, o.Reader.UnityVersion)
}

// upToDate returns the last complete run's manifest when it was made from
// the same inputs with the same options and all its outputs are there.
func (r *run) upToDate() (*Manifest, bool) {
	if r.o.Force || r.journal.inputs != r.inputsStamp {
		return nil, false
	}
	b, err := os.ReadFile(filepath.Join(r.o.Out, "manifest.json"))
	if err != nil {
		return nil, false
	}
	var m Manifest
	if json.Unmarshal(b, &m) != nil {
		return nil, false
	}
	for _, x := range m.Outputs {
		if _, err := os.Stat(filepath.Join(r.o.Out, filepath.FromSlash(x.Path))); err != nil {
			return nil, false
		}
	}
	if r.o.OnOutput != nil {
		kind := map[string]string{}
		for _, x := range m.Outputs {
			kind[x.Path] = x.Kind
		}
		for _, c := range m.Characters {
			if c.Output != "" {
				r.o.OnOutput(&Output{Path: c.Output, Kind: kind[c.Output], Name: c.Name, Clips: len(c.Clips), Pictures: c.Pictures, UpToDate: true,
					Source: model.Source{Container: c.Source.Container, File: c.Source.File, PathID: c.Source.PathID}})
			}
		}
	}
	return &m, true
}

// sortedUnique sorts and removes repeats.
func sortedUnique(s []string) []string {
	sort.Strings(s)
	return slices.Compact(s)
}
