package extract

import (
	"fmt"
	"path"
	"strings"

	"github.com/mecanim/mecanim/bind"
	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/assets"
)

// Why a clip is on an output (ClipUse.Why).
const (
	whyController = "controller"
	whyAnimation  = "animation"
	whyBinds      = "binds"
	whyAvatar     = "avatar"
	whyRetarget   = "retarget"
	whyPaths      = "paths"
)

// job is one output to write: a character (or an avatar's skeleton) with
// the clips put on it.
type job struct {
	kind   string // "character", "avatar" or "paths" (a clip on its own paths)
	char   int    // character index; -1 for an avatar's skeleton
	avatar int    // the character's avatar index (-1: none)
	name   string
	src    model.Source
	ref    string
	on     *bound.Character // an avatar's skeleton, kept for the run
	uses   []use
	path   string // relative to the output folder, with '/'
	stamp  string

	res jobResult
}

// jobResult is what writing a job gave, kept in the journal so that a run
// that finds the output up to date reports it alike.
type jobResult struct {
	Written  []string          `json:"written,omitempty"`  // refs of the clips in the file
	Humanoid []string          `json:"humanoid,omitempty"` // those of them that are humanoid
	Failed   map[string]string `json:"failed,omitempty"`   // ref -> why a clip is not in it
	Notes    []string          `json:"notes,omitempty"`    // what was left out
	Pictures []string          `json:"pictures,omitempty"` // contact sheets written
	Curves   []string          `json:"curves,omitempty"`   // curve tables written beside the file
	Err      string            `json:"err,omitempty"`
	// Broken are the refs of the clips left out because they do not
	// decode (damaged, or over the memory limit): failures of the run,
	// where the other reasons in Failed are not.
	Broken []string `json:"broken,omitempty"`

	cause  error            // what Err says, when this run met it
	causes map[string]error // why each Broken clip does not decode
}

// plan decides what goes where: each character's controller and Animation
// clips, where each clip no character plays goes, and the jobs. It decodes
// every character and clip once, on the workers, releasing each.
func (r *run) plan() {
	s := r.set
	nc, nk, na := len(r.charItems), len(r.clipItems), len(r.avItems)
	r.avatarOf = map[model.Source]int{}
	for i := range na {
		it := r.avItems[i]
		if _, dup := r.avatarOf[it.Source]; !dup {
			r.avatarOf[it.Source] = i
		}
	}
	r.charOf = map[model.Source]int{}
	for i := range nc {
		it := r.charItems[i]
		if _, dup := r.charOf[it.Source]; !dup {
			r.charOf[it.Source] = i
		}
	}
	// Avatars and controllers that do not decode are failures of the run
	// (what would play on them or through them is left out, and said).
	nctl := len(r.ctlItems)
	broken := make([]error, na+nctl)
	r.parallel(na+nctl, func(i int) {
		if i < na {
			_, broken[i] = s.Avatar(bound.AvatarID(i))
			bind.Release(s, bound.AvatarID(i))
		} else {
			_, broken[i] = s.Controller(r.ctx, bound.ControllerID(i-na))
			bind.Release(s, bound.ControllerID(i-na))
		}
	})
	for i, err := range broken {
		if err == nil {
			continue
		}
		var it bound.Item
		what := "avatar"
		if i < na {
			it = r.avItems[i]
		} else {
			it, what = r.ctlItems[i-na], "controller"
		}
		r.failed = append(r.failed, objectFailure(what, it, err.Error(), err))
	}
	// Characters: their avatar, controller and the clips they play.
	r.chars = make([]charPlan, nc)
	r.parallel(nc, func(i int) {
		cp := &r.chars[i]
		cp.avatar, cp.controller = -1, -1
		if c, ok := s.CharacterController(bound.CharacterID(i)); ok {
			cp.controller = int(c)
		}
		ch, err := s.Character(r.ctx, bound.CharacterID(i))
		if err != nil {
			cp.err = err
			return
		}
		if av, src := ch.Avatar(); av != nil {
			if k, ok := r.avatarOf[src]; ok {
				cp.avatar = k
			}
		}
		bind.Release(s, bound.CharacterID(i))
		seen := map[bound.ClipID]bool{}
		if cp.controller >= 0 {
			cc, err := s.Controller(r.ctx, bound.ControllerID(cp.controller))
			if err != nil {
				cp.notes = append(cp.notes, fmt.Sprintf("its controller does not decode: %v", err))
			} else {
				cp.notes = append(cp.notes, cc.Notes...)
				for _, k := range cc.Clips {
					if k >= 0 && !seen[k] {
						seen[k] = true
						cp.plays = append(cp.plays, use{k, whyController})
					}
				}
			}
		}
		ks, notes := s.CharacterAnimations(r.ctx, bound.CharacterID(i))
		cp.notes = append(cp.notes, notes...)
		for _, k := range ks {
			if !seen[k] {
				seen[k] = true
				cp.plays = append(cp.plays, use{k, whyAnimation})
			}
		}
	})
	if r.ctx.Err() != nil {
		return
	}
	r.clips = make([]clipPlan, nk)
	for i := range r.clips {
		r.clips[i].sameAs = -1
	}
	for _, cp := range r.chars {
		for _, u := range cp.plays {
			r.clips[u.clip].played = true
		}
	}
	// Clips: humanoid or not, and where those no character plays go.
	binds := make([]int, nk)                  // the character a clip goes on (-1: none)
	ownPaths := make([]*bound.Character, nk)  // or the rig of its own paths
	skeletons := make([]*bound.Character, nk) // or an avatar's own skeleton
	r.parallel(nk, func(k int) {
		binds[k] = -1
		cl := &r.clips[k]
		if cl.played {
			return // decoded when its character is written
		}
		c, err := s.Clip(bound.ClipID(k))
		if err != nil {
			cl.skipped = fmt.Sprintf("does not decode: %v", err)
			cl.broken = err
			return
		}
		defer bind.Release(s, bound.ClipID(k))
		cl.humanoid = c.Humanoid
		it := r.clipItems[k]
		if j, err := s.FindClip(it.Ref); err == nil && int(j) != k {
			cl.sameAs = int(j) // the same reference twice (a file given twice)
			return
		}
		if j, err := s.FindClip(it.Name); err == nil && int(j) != k {
			cl.sameAs = int(j) // the same bytes in another file
			return
		}
		if c.Humanoid && r.o.Avatar != "" {
			return // placed below, on the avatar asked for
		}
		// Where no character plays it: where bind's one rule puts it, as
		// every command plays it.
		ch, err := s.CharacterFor(r.ctx, bind.On{}, bound.ClipID(k))
		if err != nil {
			cl.skipped = err.Error()
			return
		}
		if ch.OwnPaths() {
			ownPaths[k] = ch
			return
		}
		if _, ok := r.avatarOf[ch.Source()]; ok && ch.FromAvatar() {
			skeletons[k] = ch // an avatar's own skeleton
			return
		}
		t, ok := r.charOf[ch.Source()]
		if !ok {
			cl.skipped = fmt.Sprintf("no character plays it and it binds only to %s, which no character in the inputs uses", ch.Describe())
			return
		}
		binds[k] = t
	})
	if r.ctx.Err() != nil {
		return
	}
	// What planning decoded is released: the export decodes again what
	// each character needs, and releases it when written.
	for i := range nc {
		bind.Release(s, bound.CharacterID(i))
	}
	for i := range na {
		bind.Release(s, bound.AvatarID(i))
	}
	for i := range len(r.ctlItems) {
		bind.Release(s, bound.ControllerID(i))
	}
	r.makeJobs(binds, ownPaths, skeletons)
}

// makeJobs turns the plan into outputs: one per character that decodes,
// one for the --avatar's skeleton when no character uses that avatar, one
// per clip played on its own paths.
func (r *run) makeJobs(binds []int, ownPaths, skeletons []*bound.Character) {
	nc := len(r.chars)
	uses := make([][]use, nc)
	for i, cp := range r.chars {
		uses[i] = append(uses[i], cp.plays...)
	}
	for k, t := range binds {
		if t >= 0 {
			uses[t] = append(uses[t], use{bound.ClipID(k), whyBinds})
		}
	}
	var onAvatar *job
	var humans []int
	for k, cl := range r.clips {
		if r.o.Avatar != "" && cl.humanoid && !cl.played && cl.sameAs < 0 && cl.skipped == "" {
			humans = append(humans, k)
		}
	}
	var tgt struct {
		done bool
		t    int
		j    *job
		why  string
	}
	target := func() (int, *job, string) {
		if !tgt.done {
			tgt.t, tgt.j, tgt.why = r.avatarTarget()
			tgt.done = true
		}
		return tgt.t, tgt.j, tgt.why
	}
	if len(humans) > 0 {
		t, j, why := target()
		for _, k := range humans {
			switch {
			case why != "":
				r.clips[k].skipped = why
			case t >= 0:
				uses[t] = append(uses[t], use{bound.ClipID(k), whyAvatar})
			default:
				j.uses = append(j.uses, use{bound.ClipID(k), whyAvatar})
			}
		}
		onAvatar = j
	}
	if r.o.Avatar != "" {
		// A generic clip no character plays that binds to a humanoid
		// character goes on the --avatar too, through muscles (bind
		// retargets it), as a humanoid clip would.
		for k, t := range binds {
			if t < 0 || r.clips[k].humanoid || !r.humanoidCharacter(t) {
				continue
			}
			at, j, why := target()
			switch {
			case why != "" || at == t:
			case at >= 0:
				uses[at] = append(uses[at], use{bound.ClipID(k), whyRetarget})
			default:
				j.uses = append(j.uses, use{bound.ClipID(k), whyRetarget})
				onAvatar = j
			}
		}
	}
	for i, cp := range r.chars {
		if cp.err != nil {
			continue
		}
		it := r.charItems[i]
		r.jobs = append(r.jobs, &job{kind: "character", char: i, avatar: cp.avatar, name: it.Name, src: it.Source, ref: it.Ref, uses: uses[i]})
	}
	if onAvatar != nil && len(onAvatar.uses) > 0 {
		r.jobs = append(r.jobs, onAvatar)
	}
	// Avatars' own skeletons the one rule put clips on, one job each.
	bySkeleton := map[*bound.Character]*job{}
	for k, ch := range skeletons {
		if ch == nil {
			continue
		}
		j := bySkeleton[ch]
		if j == nil {
			it := r.avItems[r.avatarOf[ch.Source()]]
			j = &job{kind: "avatar", char: -1, avatar: -1, name: it.Name, src: it.Source, ref: it.Ref, on: ch}
			bySkeleton[ch] = j
			r.jobs = append(r.jobs, j)
		}
		j.uses = append(j.uses, use{bound.ClipID(k), whyBinds})
	}
	for k, ch := range ownPaths {
		if ch == nil || r.clips[k].sameAs >= 0 {
			continue
		}
		it := r.clipItems[k]
		r.jobs = append(r.jobs, &job{kind: "paths", char: -1, avatar: -1, name: it.Name, src: it.Source, ref: it.Ref, on: ch, uses: []use{{bound.ClipID(k), whyPaths}}})
	}
	names := make([]string, len(r.jobs))
	for i, j := range r.jobs {
		names[i] = j.name
	}
	for i, n := range UniqueNames(names) {
		r.jobs[i].path = n + ".glb"
	}
	r.clipRef = make([]int, len(r.clips))
	r.avRef = make([]int, len(r.avItems))
	for _, j := range r.jobs {
		for _, u := range j.uses {
			r.clipRef[u.clip]++
		}
		if j.avatar >= 0 {
			r.avRef[j.avatar]++
		}
		j.stamp = r.stampJob(j)
	}
}

// humanoidCharacter reports whether character i has a humanoid avatar
// (what it decodes is released again).
func (r *run) humanoidCharacter(i int) bool {
	ch, err := r.set.Character(r.ctx, bound.CharacterID(i))
	defer bind.Release(r.set, bound.CharacterID(i))
	return err == nil && ch.Human() != nil
}

// avatarTarget is where humanoid clips no character plays go: the
// character that uses the --avatar (t >= 0), or a job for the avatar's
// own skeleton; why says why nowhere.
func (r *run) avatarTarget() (t int, j *job, why string) {
	s := r.set
	if r.o.Avatar == "" {
		var have []string
		for i := range len(r.avItems) {
			if av, err := s.Avatar(bound.AvatarID(i)); err == nil && av.IsHuman() {
				it := r.avItems[i]
				have = append(have, fmt.Sprintf("%q", it.Label))
			}
			bind.Release(s, bound.AvatarID(i))
		}
		why := "humanoid, and no character plays it: exported only when an avatar is chosen for such clips"
		if len(have) > 0 {
			why += " (humanoid avatars: " + strings.Join(sortedUnique(have), ", ") + ")"
		}
		return -1, nil, why
	}
	ai, err := s.FindAvatar(r.o.Avatar)
	if err == nil {
		var av *model.Avatar
		if av, err = s.Avatar(ai); err == nil && !av.IsHuman() {
			err = fmt.Errorf("avatar %q is not humanoid", av.Name)
		}
	}
	var ch *bound.Character
	if err == nil {
		ch, err = s.CharacterFor(r.ctx, bind.On{Avatar: r.o.Avatar})
	}
	if err != nil {
		r.failed = append(r.failed, Failure{Error: fmt.Sprintf("the avatar chosen, %q: %v", r.o.Avatar, err)})
		return -1, nil, fmt.Sprintf("humanoid, no character plays it, and the avatar chosen, %q, cannot take it", r.o.Avatar)
	}
	if i, ok := r.charOf[ch.Source()]; ok && r.chars[i].err == nil {
		return i, nil, ""
	}
	it := r.avItems[ai]
	return -1, &job{kind: "avatar", char: -1, avatar: -1, name: it.Name, src: it.Source, ref: it.Ref, on: ch}, ""
}

// stampJob is the stamp of everything a job's output is made from.
func (r *run) stampJob(j *job) string {
	parts := []string{stampVersion, r.optionsString(), j.kind, j.path, j.ref}
	containers := map[string]bool{j.src.Container: true}
	for _, u := range j.uses {
		it := r.clipItems[u.clip]
		parts = append(parts, it.Ref, it.Name, u.why)
		containers[it.Source.Container] = true
	}
	if j.avatar >= 0 {
		it := r.avItems[j.avatar]
		parts = append(parts, "avatar", it.Ref)
		containers[it.Source.Container] = true
	}
	if j.char >= 0 {
		if c := r.chars[j.char].controller; c >= 0 {
			it := r.ctlItems[c]
			containers[it.Source.Container] = true
		}
		// Meshes and materials come from the files the character's file
		// names.
		for _, f := range r.cat.Files() {
			if f.Container.Path != j.src.Container || f.Name != j.src.File {
				continue
			}
			for _, e := range f.Externals {
				base := strings.ToLower(path.Base(strings.ReplaceAll(e.Path, "\\", "/")))
				for _, g := range r.cat.Files() {
					if strings.ToLower(path.Base(g.Name)) == base {
						containers[g.Container.Path] = true
					}
				}
			}
		}
	}
	for _, in := range r.ins {
		c := in.Path
		if base, _, ok := assets.SplitBase(in.Path); ok {
			c = base
		}
		if containers[c] || containers[in.Path] {
			parts = append(parts, in.Path, fmt.Sprint(in.Size), in.ModTime.UTC().String())
		}
	}
	return stamp(parts...)
}

// objectFailure is the failure of an object that does not decode: it
// names the object and its input once.
func objectFailure(what string, it bound.Item, why string, err error) Failure {
	name := fmt.Sprintf("%s %q (%s)", what, it.Name, it.Ref)
	if it.Name == "" {
		name = what + " " + it.Ref // its name did not read either
	}
	why = strings.TrimPrefix(why, it.Source.Container+": ")
	return Failure{Input: it.Source.Container, Error: name + ": " + why, err: err}
}
