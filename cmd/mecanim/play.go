package main

import (
	"bufio"
	"context"
	"fmt"
	"os"

	"github.com/mecanim/mecanim/bind"
	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/present/playscript"
)

const playSynopsis = "FILE... (--animator NAME | --controller NAME [--animator NAME | --avatar NAME | --onto CHARACTER.vrm]) --script SCRIPT.json [--rate 60] [--json]"

const playAbout = `
Runs a controller headless at a fixed tick (--rate ticks per second): the
one the Animator --animator names plays, on its character (with root
motion), or the one --controller names (on the character whose Animator
plays it, if any). --controller with --animator, --avatar or --onto plays
that controller on the character chosen instead: a game's controller on
another rig, or on a glTF/VRM character (--onto, read with the inputs). After every tick it prints each layer's state,
normalized time and weight (and the transition running), the animation
events crossed and the root motion; --json prints one document (schema
docs/schema/play.json).

The script is a JSON object; every key:

  duration   seconds to run (required, 0 or more)
  events     a list of changes, each applied before the first tick that
             starts at or after its time; each has:
    at       seconds from the start (0 or more)
    set      parameter name -> value: a number for a float or int
             parameter, true or false for a bool or a trigger
    trigger  the name of a trigger parameter to set
    play     the name of a state to enter, as game code's Animator.Play
             (or CrossFadeInFixedTime with "fade"): the way to drive a
             controller that has no parameters
    layer    the layer "play" enters the state in (default 0)
    fade     seconds of the cross-fade into "play" (default 0: at once)

Unknown keys are an error naming the key, its line and column. Example:

  {"duration": 3,
   "events": [{"at": 0, "set": {"Speed": 1.5, "Grounded": true}},
              {"at": 1, "trigger": "Attack"},
              {"at": 2, "play": "Dance", "layer": 0, "fade": 0.25}]}`

type playLayerJSON struct {
	Layer          string    `json:"layer"`
	State          string    `json:"state"`
	NormalizedTime jsonFloat `json:"normalized_time"`
	Weight         jsonFloat `json:"weight"`
	// Next is the state a transition runs to (null: none), Transition
	// how far it has gone (0..1).
	Next       *string   `json:"next"`
	Transition jsonFloat `json:"transition"`
}

type playEventJSON struct {
	Clip     objectRef `json:"clip"`
	Function string    `json:"function"`
	// ClipTime is the event's time in its clip, in seconds.
	ClipTime jsonFloat `json:"clip_time"`
	Layer    string    `json:"layer"`
	State    string    `json:"state"`
	Weight   jsonFloat `json:"weight"`
	String   string    `json:"string"`
	Float    jsonFloat `json:"float"`
	Int      int32     `json:"int"`
}

type rootMotionJSON struct {
	T [3]jsonFloat `json:"t"`
	R [4]jsonFloat `json:"r"`
}

type playFrameJSON struct {
	Time       float64         `json:"time"`
	Layers     []playLayerJSON `json:"layers"`
	Events     []playEventJSON `json:"events"`
	RootMotion rootMotionJSON  `json:"root_motion"`
}

// playJSON is what play --json prints.
type playJSON struct {
	Controller objectRef       `json:"controller"`
	On         *characterRef   `json:"on"`
	SampleRate float64         `json:"sample_rate"`
	Frames     []playFrameJSON `json:"frames"`
}

func runPlay(e *env, args []string) error {
	fs := newFlags(e, "play", playSynopsis)
	animatorName := fs.String("animator", "", "GameObject name of the Animator to run (its controller, rig and root motion); with --controller, the character to run that controller on")
	ctlName := fs.String("controller", "", "controller to run (on the character whose Animator plays it, if any; when several do, choose one with --animator)")
	avatarName := fs.String("avatar", "", "with --controller: the avatar whose character runs it (name or FILE#PATHID)")
	onto := fs.String("onto", "", "with --controller: a glTF or VRM character (.glb, .gltf, .vrm) to run it on, read with the inputs")
	scriptPath := fs.String("script", "", "the JSON script of parameter changes (see above)")
	rate := fs.Float64("rate", 60, "ticks per second")
	asJSON := fs.Bool("json", false, "JSON output (one document)")
	var rf readerFlags
	rf.register(fs)
	files, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	on := bind.On{Character: *animatorName, Avatar: *avatarName}
	if *ctlName == "" {
		if *animatorName == "" || *avatarName != "" || *onto != "" {
			return usagef("give --animator, or --controller (with --animator, --avatar or --onto to choose its character)")
		}
	} else if files, err = ontoFlag(files, *onto, &on); err != nil {
		return err
	}
	if *scriptPath == "" {
		return usagef("--script is required")
	}
	if !(*rate > 0 && *rate <= 10000) {
		return usagef("--rate %g is not in (0, 10000]", *rate)
	}
	data, err := os.ReadFile(*scriptPath)
	if err != nil {
		return usagef("--script: %v", err)
	}
	script, err := playscript.Parse(data)
	if err != nil {
		return usagef("--script %s: %v", *scriptPath, err)
	}
	set, _, err := openSet(context.Background(), e, "play", files, &rf)
	if err != nil {
		return err
	}
	defer set.Close()
	bc, err := playController(set, *ctlName, on)
	if err != nil {
		return err
	}
	for _, n := range bc.Notes() {
		e.notef("%s", n)
	}
	noted := map[*bound.Motion]bool{}
	for _, m := range bc.Clips() {
		if m != nil && !noted[m] {
			noted[m] = true
			noteRetarget(e, m)
		}
	}
	ctl := bc.Model()
	recs, err := playscript.Run(bc.NewAnimator(), script, *rate)
	if err != nil {
		return err
	}
	out := playJSON{Controller: refOf(ctl.Name, bc.Source()), SampleRate: *rate, Frames: make([]playFrameJSON, 0, len(recs))}
	if ch := bc.On(); ch != nil {
		c := characterOf(ch)
		out.On = &c
	}
	layerName := func(i int) string {
		if i >= 0 && i < len(ctl.Layers) {
			return ctl.Layers[i].Name
		}
		return fmt.Sprintf("#layer%d", i)
	}
	clipRef := func(i int) objectRef {
		name := ""
		if i >= 0 && i < len(ctl.ClipNames) {
			name = ctl.ClipNames[i]
		}
		return refOf(name, bc.ClipSource(i))
	}
	for _, r := range recs {
		fr := playFrameJSON{Time: r.T, Layers: []playLayerJSON{}, Events: []playEventJSON{}}
		for _, l := range r.Layers {
			lj := playLayerJSON{Layer: layerName(l.Layer), State: l.State, NormalizedTime: jsonFloat(l.NormalizedTime),
				Weight: jsonFloat(l.Weight), Transition: jsonFloat(l.Transition)}
			if l.Next != "" {
				next := l.Next
				lj.Next = &next
			}
			fr.Layers = append(fr.Layers, lj)
		}
		for _, ev := range r.Events {
			fr.Events = append(fr.Events, playEventJSON{Clip: clipRef(ev.Clip), Function: ev.Function, ClipTime: jsonFloat(ev.Time),
				Layer: layerName(ev.Layer), State: ev.State, Weight: jsonFloat(ev.Weight), String: ev.String,
				Float: jsonFloat(ev.Float), Int: ev.Int})
		}
		for i := 0; i < 3; i++ {
			fr.RootMotion.T[i] = jsonFloat(r.RootMotion.T[i])
		}
		for i := 0; i < 4; i++ {
			fr.RootMotion.R[i] = jsonFloat(r.RootMotion.R[i])
		}
		out.Frames = append(out.Frames, fr)
	}
	w := bufio.NewWriter(e.stdout)
	defer w.Flush()
	if *asJSON {
		if err := writeJSONLine(w, out); err != nil {
			return err
		}
		return e.done()
	}
	onWhat := "no character (states, events and timing only)"
	if ch := bc.On(); ch != nil {
		onWhat = ch.Describe()
	}
	fmt.Fprintf(w, "controller %q (%s) on %s, %d ticks at %g Hz\n", ctl.Name, bc.Source(), onWhat, len(out.Frames), *rate)
	for _, fr := range out.Frames {
		fmt.Fprintf(w, "time %.4f", fr.Time)
		for _, l := range fr.Layers {
			fmt.Fprintf(w, "  [%s] %s %.3f w=%.2f", l.Layer, l.State, float32(l.NormalizedTime), float32(l.Weight))
			if l.Next != nil {
				fmt.Fprintf(w, " -> %s %.2f", *l.Next, float32(l.Transition))
			}
		}
		for _, ev := range fr.Events {
			fmt.Fprintf(w, "  event %s.%s@%g", ev.Clip.Name, ev.Function, float32(ev.ClipTime))
		}
		if bc.On() != nil {
			rm := fr.RootMotion
			fmt.Fprintf(w, "  root move %.5g %.5g %.5g turn %.5g %.5g %.5g %.5g", float32(rm.T[0]), float32(rm.T[1]), float32(rm.T[2]),
				float32(rm.R[0]), float32(rm.R[1]), float32(rm.R[2]), float32(rm.R[3]))
		}
		fmt.Fprintln(w)
	}
	return e.done()
}

// playController binds the controller play runs: the one the character
// on names plays (with its root motion), or the one named ctlName, on the
// character on chooses or else on the character whose Animator plays it.
func playController(set *bind.Set, ctlName string, on bind.On) (*bound.Controller, error) {
	if ctlName == "" {
		ci, err := set.FindCharacter(on.Character)
		if err != nil {
			return nil, err
		}
		k, ok := set.CharacterController(ci)
		if !ok {
			return nil, fmt.Errorf("the Animator of %q has no controller in the inputs", on.Character)
		}
		ch, err := set.Character(context.Background(), ci)
		if err != nil {
			return nil, err
		}
		return set.BindController(context.Background(), k, ch)
	}
	k, err := set.FindController(ctlName)
	if err != nil {
		return nil, err
	}
	var ch *bound.Character // nil: the character whose Animator plays it
	if on != (bind.On{}) {
		if ch, err = set.CharacterFor(context.Background(), on); err != nil {
			return nil, err
		}
	}
	return set.BindController(context.Background(), k, ch)
}
