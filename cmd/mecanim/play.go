package main

import (
	"bufio"
	"fmt"
	"os"

	"github.com/mecanim/mecanim/bind"
	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/present/playscript"
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
	script, err := playscript.Parse(data)
	if err != nil {
		return fmt.Errorf("%s: %w", *scriptPath, err)
	}
	set, failed, err := openSet(e, "play", files, &rf)
	if err != nil {
		return err
	}
	defer set.Close()
	bc, err := playController(set, *animatorName, *ctlName)
	if err != nil {
		return err
	}
	for _, n := range bc.Notes() {
		fmt.Fprintf(e.stderr, "mecanim play: note: %s\n", n)
	}
	ctl := bc.Model()
	recs, err := playscript.Run(bc.NewAnimator(), script, *rate)
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

// playController binds the controller play runs: the one the character
// --animator names plays (with its root motion), or the one --controller
// names (on the character whose Animator plays it, if any).
func playController(set *bind.Set, animatorName, ctlName string) (*bound.Controller, error) {
	if animatorName != "" {
		ci, err := set.Find(bind.KindCharacter, animatorName)
		if err != nil {
			return nil, err
		}
		k := set.CharacterController(ci)
		if k < 0 {
			return nil, fmt.Errorf("the Animator of %q has no controller in the inputs", animatorName)
		}
		return set.BindController(k, ci)
	}
	k, err := set.Find(bind.KindController, ctlName)
	if err != nil {
		return nil, err
	}
	return set.ControllerOn(k, bind.On{})
}
