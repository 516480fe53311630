package animator

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"

	"github.com/mecanim/mecanim/model"
)

// MaxScriptTicks bounds the ticks one Run may produce (over four and a half
// hours at 60 Hz), and so the records it holds.
const MaxScriptTicks = 1_000_000

// Script is a timed list of parameter changes for a headless run: the CLI
// reads it from JSON such as
//
//	{"duration": 5.0, "events": [{"at": 0.5, "set": {"Speed": 1.0, "Grounded": true}},
//	                             {"at": 1.0, "trigger": "Attack"}]}
type Script struct {
	Duration float64       `json:"duration"`
	Events   []ScriptEvent `json:"events"`
}

// ScriptEvent sets parameters (numbers for floats and ints, booleans for
// bools and triggers), sets a trigger, and/or plays a state at time At:
// Play names a state of layer Layer, entered at once (Fade 0) or by a
// cross-fade of Fade seconds, as game code calls Animator.Play or
// CrossFadeInFixedTime.
type ScriptEvent struct {
	At      float64        `json:"at"`
	Set     map[string]any `json:"set,omitempty"`
	Trigger string         `json:"trigger,omitempty"`
	Play    string         `json:"play,omitempty"`
	Layer   int            `json:"layer,omitempty"`
	Fade    float64        `json:"fade,omitempty"`
}

// ParseScript reads a Script from JSON, rejecting unknown fields, a negative
// or non-finite duration and events at negative or non-finite times.
func ParseScript(data []byte) (*Script, error) {
	var s Script
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("animator: script: %w", err)
	}
	if !(s.Duration >= 0) || math.IsInf(s.Duration, 0) {
		return nil, fmt.Errorf("animator: script: bad duration %v", s.Duration)
	}
	for i, e := range s.Events {
		if !(e.At >= 0) || math.IsInf(e.At, 0) {
			return nil, fmt.Errorf("animator: script: event %d: bad time %v", i, e.At)
		}
	}
	return &s, nil
}

// Record is the animator's state after one tick of a Run.
type Record struct {
	T          float64       `json:"t"`
	Layers     []LayerRecord `json:"layers"`
	Events     []EventRecord `json:"events"`
	RootMotion RootRecord    `json:"root_motion"`
}

// LayerRecord is one layer in a Record; Next is empty and Transition 0 when
// no transition runs.
type LayerRecord struct {
	Layer          int     `json:"layer"`
	State          string  `json:"state"`
	NormalizedTime float32 `json:"normalized_time"`
	Weight         float32 `json:"weight"`
	Next           string  `json:"next"`
	Transition     float32 `json:"transition"`
}

// EventRecord is an animation event crossed in a tick.
type EventRecord struct {
	Layer    int     `json:"layer"`
	State    string  `json:"state"`
	Clip     int     `json:"clip"`
	ClipName string  `json:"clip_name,omitempty"`
	Function string  `json:"function"`
	Time     float32 `json:"time"`
	Weight   float32 `json:"weight"`
	String   string  `json:"string,omitempty"`
	Float    float32 `json:"float,omitempty"`
	Int      int32   `json:"int,omitempty"`
}

// RootRecord is a tick's root motion: translation and rotation (x, y, z, w).
type RootRecord struct {
	T [3]float32 `json:"t"`
	R [4]float32 `json:"r"`
}

// Run resets a, then ticks it at rate Hz for the script's duration, applying
// each script event before the first tick that starts at or after its time,
// and returns one Record per tick. The same animator definition, script and
// rate always give identical records.
func Run(a *Animator, s *Script, rate float64) ([]Record, error) {
	if !(rate > 0) || math.IsInf(rate, 0) {
		return nil, fmt.Errorf("animator: run: bad rate %v", rate)
	}
	ticks := math.Ceil(s.Duration*rate - 1e-9)
	if ticks > MaxScriptTicks {
		return nil, fmt.Errorf("animator: run: %v ticks exceed the limit of %d", ticks, MaxScriptTicks)
	}
	n := int(ticks)
	evs := append([]ScriptEvent(nil), s.Events...)
	sort.SliceStable(evs, func(i, j int) bool { return evs[i].At < evs[j].At })
	a.Reset()
	dt := float32(1 / rate)
	out := make([]Record, 0, min(n, 1<<14))
	next := 0
	for k := 1; k <= n; k++ {
		start := float64(k-1) / rate
		for next < len(evs) && evs[next].At <= start+1e-9 {
			if err := apply(a, &evs[next]); err != nil {
				return nil, fmt.Errorf("animator: run: event at %v: %w", evs[next].At, err)
			}
			next++
		}
		a.Tick(dt)
		out = append(out, record(a, float64(k)/rate))
	}
	return out, nil
}

func apply(a *Animator, e *ScriptEvent) error {
	keys := make([]string, 0, len(e.Set))
	for k := range e.Set {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if err := a.Set(k, e.Set[k]); err != nil {
			return err
		}
	}
	if e.Trigger != "" {
		i := a.Param(e.Trigger)
		if i < 0 || a.def.c.Parameters[i].Type != model.ParamTrigger {
			return fmt.Errorf("no trigger %q", e.Trigger)
		}
		a.SetTrigger(i)
	}
	if e.Play != "" {
		s := a.def.StateIndex(e.Layer, e.Play)
		if s < 0 || !a.CrossFade(e.Layer, s, float32(e.Fade), 0) {
			return fmt.Errorf("no state %q to play in layer %d", e.Play, e.Layer)
		}
	}
	return nil
}

func record(a *Animator, t float64) Record {
	r := Record{T: t, Layers: make([]LayerRecord, a.Layers()), Events: []EventRecord{}}
	for i := range r.Layers {
		li := a.Layer(i)
		lr := LayerRecord{Layer: i, State: a.StateName(i, li.State), NormalizedTime: li.NormalizedTime, Weight: li.Weight}
		if li.InTransition {
			lr.Next, lr.Transition = a.StateName(i, li.Next), li.Transition
		}
		r.Layers[i] = lr
	}
	for _, e := range a.Events() {
		var clip string
		if names := a.def.c.ClipNames; e.Clip >= 0 && e.Clip < len(names) {
			clip = names[e.Clip]
		}
		r.Events = append(r.Events, EventRecord{Layer: e.Layer, State: a.StateName(e.Layer, e.State), Clip: e.Clip, ClipName: clip,
			Function: e.Event.Function, Time: e.Event.Time, Weight: e.Weight,
			String: e.Event.Data, Float: e.Event.Float, Int: e.Event.Int})
	}
	dt, dq := a.RootMotion()
	r.RootMotion = RootRecord{T: [3]float32{dt.X, dt.Y, dt.Z}, R: [4]float32{dq.X, dq.Y, dq.Z, dq.W}}
	return r
}

// RunScript runs a JSON script (see Script) on a fresh Animator of c, whose
// clips (parallel to c.Clips, nil where unknown) give state lengths,
// looping and events, at rate Hz: the command line's entry point.
func RunScript(c *model.Controller, clips []*model.Clip, script []byte, rate float64) ([]Record, error) {
	s, err := ParseScript(script)
	if err != nil {
		return nil, err
	}
	a, err := New(c, TableFromModel(clips))
	if err != nil {
		return nil, err
	}
	return Run(a, s, rate)
}
