// Package playscript runs an Animator headless on a timed script of
// parameter changes, triggers and direct plays, one JSON document (see
// Script), and records its state after every tick: what `mecanim play`
// does and prints. The Animator itself knows nothing of scripts; a game
// server drives it from code.
package playscript

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"

	"github.com/mecanim/mecanim/animator"
	"github.com/mecanim/mecanim/model"
)

// MaxTicks bounds the ticks one Run may produce (over four and a half
// hours at 60 Hz), and so the records it holds.
const MaxTicks = 1_000_000

// Script is a timed list of changes for a headless run, read from JSON:
//
//	{"duration": 5.0, "events": [
//	  {"at": 0.5, "set": {"Speed": 1.0, "Grounded": true}},
//	  {"at": 1.0, "trigger": "Attack"},
//	  {"at": 2.0, "play": "Dance", "layer": 0, "fade": 0.25}]}
//
// Keys: "duration" (seconds to run, required, ≥ 0) and "events" (a list).
// Each event has "at" (seconds from the start, ≥ 0) and any of: "set"
// (parameter name → value: numbers for float and int parameters, true or
// false for bools and triggers), "trigger" (the name of a trigger
// parameter to set), "play" (the name of a state to enter, in layer
// "layer", 0 by default, at once or by a cross-fade of "fade" seconds, as
// game code calls Animator.Play or CrossFadeInFixedTime: the way to drive a
// controller that has no parameters). Unknown keys are an error.
type Script struct {
	Duration float64       `json:"duration"`
	Events   []ScriptEvent `json:"events"`
}

// ScriptEvent is one entry of a Script's events (see Script for its keys).
type ScriptEvent struct {
	At      float64        `json:"at"`
	Set     map[string]any `json:"set,omitempty"`
	Trigger string         `json:"trigger,omitempty"`
	Play    string         `json:"play,omitempty"`
	Layer   int            `json:"layer,omitempty"`
	Fade    float64        `json:"fade,omitempty"`
}

// ErrScript is wrapped by every error a malformed script gives.
var ErrScript = errors.New("playscript: bad script")

// Parse reads a Script from JSON. It rejects unknown keys (naming the key
// and where it is), trailing data, a negative or non-finite duration and
// events at negative or non-finite times or with a negative fade.
func Parse(data []byte) (*Script, error) {
	var s Script
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrScript, describe(data, err))
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("%w: data after the script's object", ErrScript)
	}
	if !(s.Duration >= 0) || math.IsInf(s.Duration, 0) {
		return nil, fmt.Errorf("%w: duration %v: want a number of seconds, 0 or more", ErrScript, s.Duration)
	}
	for i, e := range s.Events {
		if !(e.At >= 0) || math.IsInf(e.At, 0) {
			return nil, fmt.Errorf("%w: event %d: \"at\" %v: want a time in seconds, 0 or more", ErrScript, i, e.At)
		}
		if !(e.Fade >= 0) || math.IsInf(e.Fade, 0) {
			return nil, fmt.Errorf("%w: event %d: \"fade\" %v: want seconds, 0 or more", ErrScript, i, e.Fade)
		}
	}
	return &s, nil
}

// describe turns a JSON decoding error into one that says where: the line
// and column of the offending key or value.
func describe(data []byte, err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return fmt.Sprintf("%s: %v", position(data, se.Offset), err)
	case errors.As(err, &te):
		off := te.Offset
		key := te.Field[strings.LastIndexByte(te.Field, '.')+1:]
		if i := bytes.LastIndex(data[:min(int(off), len(data))], []byte(`"`+key+`"`)); i >= 0 {
			off = int64(i) + 1 // the key's opening quote
		}
		return fmt.Sprintf("%s: %q is %s, want %s", position(data, off), te.Field, te.Value, te.Type)
	}
	msg := err.Error()
	if key, ok := strings.CutPrefix(msg, "json: unknown field "); ok {
		name := strings.Trim(key, `"`)
		off := int64(bytes.Index(data, []byte(key)))
		if off >= 0 {
			return fmt.Sprintf("%s: unknown key %q (keys: duration, events; in an event: at, set, trigger, play, layer, fade)", position(data, off+1), name)
		}
		return fmt.Sprintf("unknown key %q", name)
	}
	return msg
}

// position writes a byte offset of data as "line L, column C".
func position(data []byte, off int64) string {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	line, col := 1, 1
	for _, c := range data[:max(off-1, 0)] {
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return fmt.Sprintf("line %d, column %d", line, col)
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
func Run(a *animator.Animator, s *Script, rate float64) ([]Record, error) {
	if !(rate > 0) || math.IsInf(rate, 0) {
		return nil, fmt.Errorf("playscript: run: bad rate %v", rate)
	}
	ticks := math.Ceil(s.Duration*rate - 1e-9)
	if ticks > MaxTicks {
		return nil, fmt.Errorf("playscript: run: %v ticks exceed the limit of %d", ticks, MaxTicks)
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
				return nil, fmt.Errorf("playscript: run: event at %v: %w", evs[next].At, err)
			}
			next++
		}
		a.Tick(float64(dt))
		out = append(out, record(a, float64(k)/rate))
	}
	return out, nil
}

func apply(a *animator.Animator, e *ScriptEvent) error {
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
		if i < 0 || a.Definition().Controller().Parameters[i].Type != model.ParamTrigger {
			return fmt.Errorf("no trigger %q", e.Trigger)
		}
		a.SetTrigger(i)
	}
	if e.Play != "" {
		s := a.Definition().StateIndex(e.Layer, e.Play)
		if s < 0 || !a.CrossFade(e.Layer, s, float32(e.Fade), 0) {
			return fmt.Errorf("no state %q to play in layer %d", e.Play, e.Layer)
		}
	}
	return nil
}

func record(a *animator.Animator, t float64) Record {
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
		if names := a.Definition().Controller().ClipNames; e.Clip >= 0 && e.Clip < len(names) {
			clip = names[e.Clip]
		}
		r.Events = append(r.Events, EventRecord{Layer: e.Layer, State: a.StateName(e.Layer, e.State), Clip: e.Clip, ClipName: clip,
			Function: e.Event.Function, Time: e.Event.Time, Weight: e.Weight,
			String: e.Event.Data, Float: e.Event.Float, Int: e.Event.Int})
	}
	m := a.RootMotion()
	r.RootMotion = RootRecord{T: [3]float32{m.T.X, m.T.Y, m.T.Z}, R: [4]float32{m.R.X, m.R.Y, m.R.Z, m.R.W}}
	return r
}
