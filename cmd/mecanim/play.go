package main

import (
	"bufio"
	"fmt"
	"os"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/animator"
	"github.com/mecanim/mecanim/decode/catalog"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/humanoid"
	"github.com/mecanim/mecanim/model"
)

type playLayerJSON struct {
	Layer          string    `json:"layer"`
	State          string    `json:"state"`
	NormalizedTime jsonFloat `json:"normalized_time"`
	Weight         jsonFloat `json:"weight"`
	Next           *string   `json:"next"`
	Transition     jsonFloat `json:"transition"`
}

type playEventJSON struct {
	Clip     string    `json:"clip"`
	Function string    `json:"function"`
	Time     jsonFloat `json:"time"`
	Layer    string    `json:"layer"`
	State    string    `json:"state"`
	Weight   jsonFloat `json:"weight"`
	String   string    `json:"string,omitempty"`
	Float    jsonFloat `json:"float,omitempty"`
	Int      int32     `json:"int,omitempty"`
}

type playRecordJSON struct {
	T          float64         `json:"t"`
	Layers     []playLayerJSON `json:"layers"`
	Events     []playEventJSON `json:"events"`
	RootMotion struct {
		T [3]jsonFloat `json:"t"`
		R [4]jsonFloat `json:"r"`
	} `json:"root_motion"`
}

func runPlay(e *env, args []string) error {
	fs := newFlags(e, "play", "FILE... (--animator NAME | --controller NAME) --script SCRIPT.json [--rate 60] [--json]")
	animatorName := fs.String("animator", "", "GameObject name of the Animator to run (its controller, rig and root motion)")
	ctlName := fs.String("controller", "", "controller to run (without a rig: no root motion)")
	scriptPath := fs.String("script", "", "JSON script: {\"duration\": s, \"events\": [{\"at\": s, \"set\": {...}, \"trigger\": name}]}")
	rate := fs.Float64("rate", 60, "ticks per second")
	asJSON := fs.Bool("json", false, "one JSON object per tick")
	var rf readerFlags
	rf.register(fs)
	files, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if (*animatorName == "") == (*ctlName == "") {
		return usagef("give exactly one of --animator and --controller")
	}
	if *scriptPath == "" {
		return usagef("--script is required")
	}
	if !(*rate > 0 && *rate <= 10000) {
		return usagef("--rate %g is not in (0, 10000]", *rate)
	}
	data, err := os.ReadFile(*scriptPath)
	if err != nil {
		return err
	}
	script, err := animator.ParseScript(data)
	if err != nil {
		return fmt.Errorf("%s: %w", *scriptPath, err)
	}
	cat, failed, err := openCatalog(e, "play", files, &rf)
	if err != nil {
		return err
	}
	defer cat.Close()

	var ctlObj catalog.Object
	var rig *catalog.Rig
	if *animatorName != "" {
		r, err := cat.Rig(*animatorName)
		if err != nil {
			return err
		}
		rig = &r
		if r.Animator == nil || r.Animator.Controller.IsNull() {
			return fmt.Errorf("the Animator on %q has no controller", *animatorName)
		}
		o, ok := cat.Resolve(r.File, r.Animator.Controller)
		if !ok {
			return fmt.Errorf("the controller of the Animator on %q is not in the files given", *animatorName)
		}
		ctlObj = o
	} else {
		o, err := cat.One(model.ClassAnimatorController, "AnimatorController", *ctlName)
		if err != nil {
			return err
		}
		ctlObj = o
	}
	ctl, err := cat.Controller(ctlObj)
	if err != nil {
		return err
	}
	clips, errs := cat.ControllerClips(ctlObj, ctl)
	for _, err := range errs {
		fmt.Fprintf(e.stderr, "mecanim play: %v\n", err)
	}
	var src animator.Clips = animator.TableFromModel(clips)
	if rig != nil {
		// Bake on the rig so that root motion is accumulated, every clip
		// from the Animator's one root motion joint.
		s, err := anim.SkeletonFromRig(rig.Rig)
		if err == nil {
			var av *model.Avatar
			if o, ok := cat.RigAvatar(*rig); ok {
				if av, err = cat.Avatar(o); err != nil {
					fmt.Fprintf(e.stderr, "mecanim play: avatar of %q: %v (root motion from the Animator's transform)\n", *animatorName, err)
					av = nil
				}
			}
			baked := bakeRooted(clips, s, rootMotionJoint(av, s))
			human, err := bakeHumanoid(clips, av)
			if err != nil {
				fmt.Fprintf(e.stderr, "mecanim play: humanoid clips on the avatar of %q: %v (no body motion)\n", *animatorName, err)
			}
			src = mixedClips{baked, human, animator.TableFromModel(clips)}
		}
	}
	a, err := animator.New(ctl, src)
	if err != nil {
		return err
	}
	recs, err := animator.Run(a, script, *rate)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(e.stdout)
	defer w.Flush()
	layerName := func(i int) string {
		if i >= 0 && i < len(ctl.Layers) {
			return ctl.Layers[i].Name
		}
		return fmt.Sprintf("#layer%d", i)
	}
	clipName := func(i int) string {
		if i >= 0 && i < len(clips) && clips[i] != nil {
			return clips[i].Name
		}
		if i >= 0 && i < len(ctl.ClipNames) {
			return ctl.ClipNames[i]
		}
		return ""
	}
	for _, r := range recs {
		out := playRecordJSON{T: r.T, Layers: []playLayerJSON{}, Events: []playEventJSON{}}
		for _, l := range r.Layers {
			lj := playLayerJSON{Layer: layerName(l.Layer), State: l.State, NormalizedTime: jsonFloat(l.NormalizedTime),
				Weight: jsonFloat(l.Weight), Transition: jsonFloat(l.Transition)}
			if l.Next != "" {
				next := l.Next
				lj.Next = &next
			}
			out.Layers = append(out.Layers, lj)
		}
		for _, ev := range r.Events {
			out.Events = append(out.Events, playEventJSON{Clip: clipName(ev.Clip), Function: ev.Function, Time: jsonFloat(ev.Time),
				Layer: layerName(ev.Layer), State: ev.State, Weight: jsonFloat(ev.Weight), String: ev.String,
				Float: jsonFloat(ev.Float), Int: ev.Int})
		}
		for i := 0; i < 3; i++ {
			out.RootMotion.T[i] = jsonFloat(r.RootMotion.T[i])
		}
		for i := 0; i < 4; i++ {
			out.RootMotion.R[i] = jsonFloat(r.RootMotion.R[i])
		}
		if *asJSON {
			if err := writeJSONLine(w, out); err != nil {
				return err
			}
			continue
		}
		fmt.Fprintf(w, "t=%.4f", r.T)
		for _, l := range out.Layers {
			fmt.Fprintf(w, "  [%s] %s %.3f w=%.2f", l.Layer, l.State, float32(l.NormalizedTime), float32(l.Weight))
			if l.Next != nil {
				fmt.Fprintf(w, " -> %s %.2f", *l.Next, float32(l.Transition))
			}
		}
		for _, ev := range out.Events {
			fmt.Fprintf(w, "  event %s.%s@%g", ev.Clip, ev.Function, float32(ev.Time))
		}
		fmt.Fprintln(w)
	}
	if failed > 0 {
		return &failedError{failed}
	}
	return nil
}

// rootMotionJoint is the joint of s an Animator takes root motion from, for
// all its clips: its avatar's root motion bone when the avatar names one
// that s has, else its own transform (the skeleton root, path "").
func rootMotionJoint(av *model.Avatar, s *anim.Skeleton) int {
	if av != nil && av.RootMotionBone >= 0 && av.RootMotionBone < len(av.Skeleton.Nodes) {
		if j, ok := s.IndexHash(av.Skeleton.Nodes[av.RootMotionBone].PathHash); ok {
			return j
		}
	}
	if j, ok := s.Index(""); ok {
		return j
	}
	return 0
}

// bakeRooted bakes the generic clips on s with root joint root (humanoid
// clips and those that fail to bake stay nil: no root motion). Baking
// alone would let each clip pick its own root joint (anim.RootRule).
func bakeRooted(clips []*model.Clip, s *anim.Skeleton, root int) animator.AnimClips {
	baked := make(animator.AnimClips, len(clips))
	for i, c := range clips {
		if c == nil || c.Humanoid {
			continue
		}
		if b, err := anim.Bake(c, s); err == nil {
			if b, err = b.WithRoot(root); err == nil {
				baked[i] = b
			}
		}
	}
	return baked
}

// bakeHumanoid bakes the humanoid clips on a humanoid avatar (nil for a
// generic avatar or none; clips that fail to bake stay nil).
func bakeHumanoid(clips []*model.Clip, av *model.Avatar) (animator.HumanoidClips, error) {
	if av == nil || av.Human == nil {
		return nil, nil
	}
	r, err := humanoid.NewRig(av)
	if err != nil {
		return nil, err
	}
	out := make(animator.HumanoidClips, len(clips))
	for i, c := range clips {
		if c != nil && c.Humanoid {
			out[i], _ = humanoid.Bake(c, r)
		}
	}
	return out, nil
}

// mixedClips is root motion from baked clips where there are some (generic
// clips on the rig, humanoid ones on its avatar: their body's motion), and
// lengths, loops and events from the decoded clips for every slot.
type mixedClips struct {
	baked animator.AnimClips
	human animator.HumanoidClips
	table *animator.ClipTable
}

func (m mixedClips) humanAt(i int) bool { return i >= 0 && i < len(m.human) && m.human[i] != nil }

func (m mixedClips) ClipLength(i int) float32       { return m.table.ClipLength(i) }
func (m mixedClips) ClipLoops(i int) bool           { return m.table.ClipLoops(i) }
func (m mixedClips) ClipEvents(i int) []model.Event { return m.table.ClipEvents(i) }

// ClipRootSource implements animator.RootSourceClips: a clip not baked
// (failed, or humanoid without a humanoid avatar) has no root motion.
func (m mixedClips) ClipRootSource(i int) animator.RootSource {
	if i >= 0 && i < len(m.baked) && m.baked[i] != nil {
		return m.baked.ClipRootSource(i)
	}
	if m.humanAt(i) {
		return m.human.ClipRootSource(i)
	}
	return animator.RootSource{}
}

// ClipRootMotion implements animator.RootMotionClips.
func (m mixedClips) ClipRootMotion(i int, from, to float32, loops int) (geomVec3, geomQuat) {
	if i >= 0 && i < len(m.baked) && m.baked[i] != nil {
		return m.baked.ClipRootMotion(i, from, to, loops)
	}
	if m.humanAt(i) {
		return m.human.ClipRootMotion(i, from, to, loops)
	}
	return geomVec3{}, geomQuat{W: 1}
}

type (
	geomVec3 = geom.Vec3
	geomQuat = geom.Quat
)
