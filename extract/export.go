package extract

import (
	"encoding/json"
	"fmt"
	"github.com/mecanim/mecanim/inputs"
	"image/png"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/mecanim/mecanim/bind"
	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/export/curves"
	"github.com/mecanim/mecanim/export/gltf"
	"github.com/mecanim/mecanim/internal/atomicfile"
	"github.com/mecanim/mecanim/present/render"
)

// export writes every job on the workers.
func (r *run) export() {
	r.parallel(len(r.jobs), func(i int) {
		j := r.jobs[i]
		out := &Output{Path: j.path, Kind: j.kind, Name: j.name, Source: j.src, Clips: len(j.uses)}
		if !r.o.Force && r.upToDateJob(j) {
			out.UpToDate, out.Pictures = true, j.res.Pictures
		} else {
			r.write(j, out)
		}
		r.release(j)
		if out.Err != nil {
			j.res.Err = out.Err.Error()
			j.res.cause = out.Err
		}
		if r.o.OnOutput != nil {
			r.outMu.Lock()
			r.o.OnOutput(out)
			r.outMu.Unlock()
		}
		out.Character, out.Motions = nil, nil
	})
}

// journalInfo is a job's journal entry: its stamp and what writing gave.
func (j *job) journalInfo() string {
	b, _ := json.Marshal(j.res)
	return j.stamp + " " + string(b)
}

// upToDateJob reports whether a job's outputs are there, made from the
// same inputs, and takes what writing gave from the journal.
func (r *run) upToDateJob(j *job) bool {
	r.journal.mu.Lock()
	rec, ok := r.journal.stamps[j.path]
	r.journal.mu.Unlock()
	st, info, _ := strings.Cut(rec, " ")
	if !ok || st != j.stamp {
		return false
	}
	var res jobResult
	if json.Unmarshal([]byte(info), &res) != nil || res.Err != "" {
		return false
	}
	for _, p := range append(append([]string{j.path}, res.Pictures...), res.Curves...) {
		if _, err := os.Stat(filepath.Join(r.o.Out, filepath.FromSlash(p))); err != nil {
			return false
		}
	}
	j.res = res
	return true
}

// write binds a job's clips to its character and writes the file (and its
// pictures).
func (r *run) write(j *job, out *Output) {
	s := r.set
	ch := j.on
	if j.char >= 0 {
		var err error
		if ch, err = s.Character(r.ctx, bound.CharacterID(j.char)); err != nil {
			out.Err = err
			return
		}
	}
	j.res = jobResult{Failed: map[string]string{}, causes: map[string]error{}}
	var motions []*bound.Motion
	refs := map[*bound.Motion]string{}
	for _, u := range j.uses {
		it := r.clipItems[u.clip]
		_, err := s.Clip(bound.ClipID(u.clip))
		if err != nil {
			j.res.Broken = append(j.res.Broken, it.Ref)
			j.res.causes[it.Ref] = err
		} else {
			var m *bound.Motion
			if m, err = s.Motion(r.ctx, u.clip, ch); err == nil {
				motions = append(motions, m)
				refs[m] = it.Ref
				continue
			}
		}
		j.res.Failed[it.Ref] = err.Error()
	}
	// A clip on its own paths: the curves glTF does not hold go in a table
	// beside the file (NAME.curves.json and .csv).
	tables := make([]*curves.Table, len(motions))
	if ch.OwnPaths() {
		for i, m := range motions {
			tables[i] = curves.Of(m.Clip(), m.Source(), r.o.Rate)
		}
	}
	sc, errs := gltf.BuildScene(ch, motions, gltf.SceneOptions{Rate: r.o.Rate, NoMeshes: r.o.NoMeshes})
	sc.Generator = "mecanim extract"
	for _, err := range errs {
		j.res.Notes = append(j.res.Notes, err.Error())
	}
	for k, a := range sc.Animations {
		if a.Stats.Unresolved > 0 {
			j.res.Notes = append(j.res.Notes, fmt.Sprintf("clip %q: exported without %d Transform channels that name no GameObject of %s", a.Name, a.Stats.Unresolved, ch.Describe()))
		}
		m := a.Motion
		for _, x := range m.Clip().NotFinite() {
			j.res.Notes = append(j.res.Notes, fmt.Sprintf("clip %q: %v: held at the value before it (left out when it has none)", a.Name, x))
		}
		ref := refs[m]
		if len(a.Tracks) > 0 || tables[k] != nil {
			j.res.Written = append(j.res.Written, ref)
			if m.Clip().Humanoid && m.RetargetedFrom() == nil { // a retargeted clip is the generic one it was
				j.res.Humanoid = append(j.res.Humanoid, ref)
			}
		} else if _, failed := j.res.Failed[ref]; !failed {
			j.res.Failed[ref] = fmt.Sprintf("moves nothing on %s (no glTF animation written): %s", ch.Describe(), a.Stats.NothingMoves)
		}
	}
	if r.ctx.Err() != nil {
		out.Err = r.ctx.Err()
		return
	}
	if err := atomicfile.Write(filepath.Join(r.o.Out, filepath.FromSlash(j.path)), func(w io.Writer) error { return gltf.WriteGLB(w, sc) }); err != nil {
		out.Err = err
		return
	}
	sc = nil
	base := strings.TrimSuffix(j.path, ".glb")
	for k, t := range tables {
		if t == nil {
			continue
		}
		b := base
		if k > 0 {
			b += "." + motions[k].Clip().Name
		}
		for _, f := range []struct {
			ext   string
			write func(io.Writer) error
		}{{".curves.json", t.WriteJSON}, {".curves.csv", t.WriteCSV}} {
			if err := atomicfile.Write(filepath.Join(r.o.Out, filepath.FromSlash(b+f.ext)), f.write); err != nil {
				out.Err = err
				return
			}
			j.res.Curves = append(j.res.Curves, b+f.ext)
		}
	}
	if r.o.Pictures {
		if err := r.pictures(j, motions); err != nil {
			out.Err = err
			return
		}
	}
	out.Pictures = j.res.Pictures
	out.Character, out.Motions = ch, motions
	if err := r.journal.addInfo(j.path, j.journalInfo()); err != nil {
		out.Err = err
	}
}

// pictures draws a contact sheet of every clip of a job into a folder
// beside its file (NAME.pictures/CLIP.png).
func (r *run) pictures(j *job, motions []*bound.Motion) error {
	dir := strings.TrimSuffix(j.path, ".glb") + ".pictures"
	if err := os.MkdirAll(filepath.Join(r.o.Out, filepath.FromSlash(dir)), 0o755); err != nil {
		return err
	}
	names := make([]string, len(motions))
	for i, m := range motions {
		names[i] = m.Clip().Name
	}
	names = UniqueNames(names)
	for i, m := range motions {
		img, err := render.Sheet(render.FromMotion(m), render.Options{})
		if err != nil {
			j.res.Notes = append(j.res.Notes, fmt.Sprintf("clip %q: no picture: %v", m.Clip().Name, err))
			continue
		}
		p := path.Join(dir, names[i]+".png")
		if err := atomicfile.Write(filepath.Join(r.o.Out, filepath.FromSlash(p)), func(w io.Writer) error {
			return (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(w, img)
		}); err != nil {
			return err
		}
		j.res.Pictures = append(j.res.Pictures, p)
	}
	return nil
}

// release drops what a written job decoded that no job still to come
// needs.
func (r *run) release(j *job) {
	s := r.set
	r.mu.Lock()
	defer r.mu.Unlock()
	if j.char >= 0 {
		bind.Release(s, bound.CharacterID(j.char))
	}
	for _, u := range j.uses {
		if r.clipRef[u.clip]--; r.clipRef[u.clip] == 0 {
			bind.Release(s, bound.ClipID(u.clip))
		}
	}
	if j.avatar >= 0 {
		if r.avRef[j.avatar]--; r.avRef[j.avatar] == 0 {
			bind.Release(s, bound.AvatarID(j.avatar))
		}
	}
}

// manifest puts together what was read and written.
func (r *run) manifest(ins []inputs.Found, skipped []inputs.Passed) *Manifest {
	s := r.set
	m := &Manifest{Generator: stampVersion, Inputs: []Input{}, Characters: []Character{}, Clips: []Clip{}, Avatars: []Object{}, Controllers: []Object{}, Outputs: []OutputInfo{}}
	for i, in := range ins {
		x := Input{Path: in.Path, Kind: in.Kind, Size: in.Size}
		if !in.Built {
			x.Objects = r.objectsOf(in.Path)
		}
		if c := r.cts[i]; c != nil {
			x.Kind, x.Expanded = string(c.Kind), c.Expanded
			if in.Kind != string(c.Kind) {
				x.Kind = in.Kind + " (" + string(c.Kind) + ")"
			}
			for _, f := range c.Files {
				x.Files = append(x.Files, f.Name)
				x.Objects += len(f.Objects)
			}
		}
		m.Inputs = append(m.Inputs, x)
	}
	for _, sk := range skipped {
		m.Ignored = append(m.Ignored, Ignored{Path: sk.Path, Why: sk.Why})
	}
	humanoid := make([]bool, len(r.clips))
	clipOut := make([][]string, len(r.clips))
	clipWhy := make([][]string, len(r.clips))
	avOut := map[int][]string{}
	ctlOut := map[int][]string{}
	jobOf := map[int]*job{}
	for _, j := range r.jobs {
		if j.char >= 0 {
			jobOf[j.char] = j
		}
		written := map[string]bool{}
		for _, ref := range j.res.Written {
			written[ref] = true
		}
		human := map[string]bool{}
		for _, ref := range j.res.Humanoid {
			human[ref] = true
		}
		for _, u := range j.uses {
			it := r.clipItems[u.clip]
			humanoid[u.clip] = humanoid[u.clip] || human[it.Ref]
			if written[it.Ref] {
				clipOut[u.clip] = append(clipOut[u.clip], j.path)
			} else if why, ok := j.res.Failed[it.Ref]; ok {
				clipWhy[u.clip] = append(clipWhy[u.clip], j.path+": "+why)
			}
		}
		if j.res.Err != "" {
			m.Failed = append(m.Failed, Failure{Output: j.path, Error: j.res.Err, err: j.res.cause})
			continue
		}
		m.Outputs = append(m.Outputs, OutputInfo{Path: j.path, Kind: j.kind, Character: j.ref})
		for _, p := range j.res.Pictures {
			m.Outputs = append(m.Outputs, OutputInfo{Path: p, Kind: "picture", Character: j.ref})
		}
		for _, p := range j.res.Curves {
			m.Outputs = append(m.Outputs, OutputInfo{Path: p, Kind: "curves", Character: j.ref})
		}
		if j.avatar >= 0 {
			avOut[j.avatar] = append(avOut[j.avatar], j.path)
		}
		if j.char >= 0 && r.chars[j.char].controller >= 0 {
			ctlOut[r.chars[j.char].controller] = append(ctlOut[r.chars[j.char].controller], j.path)
		}
	}
	for i, cp := range r.chars {
		it := r.charItems[i]
		c := Character{Name: it.Name, Source: sourceOf(it.Source, it.Ref), Clips: []ClipUse{}, Notes: cp.notes}
		if cp.avatar >= 0 {
			a := r.avItems[cp.avatar]
			c.Avatar = a.Ref
		}
		if cp.controller >= 0 {
			a := r.ctlItems[cp.controller]
			c.Controller = a.Ref
		}
		if cp.err != nil {
			c.Error = cp.err.Error()
			m.Failed = append(m.Failed, Failure{Input: it.Source.Container, Error: fmt.Sprintf("character %q (%s): %v", it.Name, it.Ref, cp.err), err: cp.err})
		}
		if j := jobOf[i]; j != nil {
			c.Notes = append(c.Notes, j.res.Notes...)
			c.Notes = append(c.Notes, r.failedNotes(j)...)
			if j.res.Err != "" {
				c.Error = j.res.Err
			} else {
				c.Output, c.Pictures = j.path, j.res.Pictures
			}
			written := map[string]bool{}
			for _, ref := range j.res.Written {
				written[ref] = true
			}
			for _, u := range j.uses {
				ci := r.clipItems[u.clip]
				if written[ci.Ref] {
					c.Clips = append(c.Clips, ClipUse{Ref: ci.Ref, Name: ci.Name, Why: u.why})
				}
			}
		}
		m.Characters = append(m.Characters, c)
	}
	for _, j := range r.jobs {
		if (j.kind == "avatar" || j.kind == "paths") && j.res.Err == "" {
			c := Character{Name: j.name, Source: sourceOf(j.src, j.ref), Output: j.path, Pictures: j.res.Pictures, Curves: j.res.Curves, Avatar: j.ref, Clips: []ClipUse{}, Notes: append(j.res.Notes, r.failedNotes(j)...)}
			if j.kind == "paths" {
				c.Avatar, c.OwnPaths = "", true
			}
			written := map[string]bool{}
			for _, ref := range j.res.Written {
				written[ref] = true
			}
			for _, u := range j.uses {
				ci := r.clipItems[u.clip]
				if written[ci.Ref] {
					c.Clips = append(c.Clips, ClipUse{Ref: ci.Ref, Name: ci.Name, Why: u.why})
				}
			}
			m.Characters = append(m.Characters, c)
		}
	}
	// A clip that does not decode is a failure of the run, said once
	// whichever characters play it.
	brokenSaid := map[string]bool{}
	broken := func(it bound.Item, why string, err error) {
		if !brokenSaid[it.Ref] {
			brokenSaid[it.Ref] = true
			m.Failed = append(m.Failed, objectFailure("clip", it, why, err))
		}
	}
	for _, j := range r.jobs {
		for _, u := range j.uses {
			it := r.clipItems[u.clip]
			if slices.Contains(j.res.Broken, it.Ref) {
				broken(it, j.res.Failed[it.Ref], j.res.causes[it.Ref])
			}
		}
	}
	for k, cl := range r.clips {
		it := r.clipItems[k]
		if cl.broken != nil {
			broken(it, cl.broken.Error(), cl.broken)
		}
		c := Clip{Name: it.Name, Source: sourceOf(it.Source, it.Ref), Humanoid: cl.humanoid || humanoid[k], Outputs: sortedUnique(clipOut[k])}
		if cl.played && len(c.Outputs) == 0 {
			// Played, but written nowhere: decode it to say what it is.
			if x, err := s.Clip(bound.ClipID(k)); err == nil {
				c.Humanoid = x.Humanoid
			}
			bind.Release(s, bound.ClipID(k))
		}
		switch {
		case cl.sameAs >= 0:
			same := r.clipItems[cl.sameAs]
			c.SameAs = same.Ref
			c.Outputs = sortedUnique(clipOut[cl.sameAs])
			if len(c.Outputs) == 0 {
				c.Skipped = "the same as " + same.Ref + ", which is in no output"
			}
		case len(c.Outputs) > 0:
		case cl.skipped != "":
			c.Skipped = cl.skipped
		case len(clipWhy[k]) > 0:
			c.Skipped = strings.Join(sortedUnique(clipWhy[k]), "; ")
		default:
			c.Skipped = "not exported (its character could not be)"
		}
		m.Clips = append(m.Clips, c)
	}
	for i := range len(r.avItems) {
		it := r.avItems[i]
		m.Avatars = append(m.Avatars, Object{Name: it.Name, Source: sourceOf(it.Source, it.Ref), Outputs: sortedUnique(avOut[i])})
	}
	for i := range len(r.ctlItems) {
		it := r.ctlItems[i]
		m.Controllers = append(m.Controllers, Object{Name: it.Name, Source: sourceOf(it.Source, it.Ref), Outputs: sortedUnique(ctlOut[i])})
	}
	for _, n := range r.notes {
		m.Failed = append(m.Failed, Failure{Error: n})
	}
	m.Failed = append(m.Failed, r.failed...)
	sort.SliceStable(m.Failed, func(a, b int) bool {
		x, y := m.Failed[a], m.Failed[b]
		if x.Input != y.Input {
			return x.Input < y.Input
		}
		if x.Output != y.Output {
			return x.Output < y.Output
		}
		return x.Error < y.Error
	})
	sort.Slice(m.Outputs, func(a, b int) bool { return m.Outputs[a].Path < m.Outputs[b].Path })
	return m
}

// failedNotes says, in the job's clip order, which clips put on it are not
// in its file and why.
func (r *run) failedNotes(j *job) []string {
	var out []string
	for _, u := range j.uses {
		it := r.clipItems[u.clip]
		if why, ok := j.res.Failed[it.Ref]; ok {
			out = append(out, fmt.Sprintf("clip %q (%s, %s): left out: %s", it.Name, it.Ref, u.why, why))
		}
	}
	return out
}

// objectsOf counts the objects the set lists from an input that is not a
// built Unity file.
func (r *run) objectsOf(container string) int {
	n := 0
	for _, items := range [][]bound.Item{r.charItems, r.clipItems, r.avItems, r.ctlItems} {
		for _, it := range items {
			if it.Source.Container == container {
				n++
			}
		}
	}
	return n
}
