package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/mecanim/mecanim/bind"
	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/model"
)

type conditionJSON struct {
	Mode      string    `json:"mode"`
	Parameter string    `json:"parameter"`
	Threshold jsonFloat `json:"threshold"`
}

type transitionJSON struct {
	Destination         string          `json:"destination"`
	Conditions          []conditionJSON `json:"conditions"`
	Duration            jsonFloat       `json:"duration"`
	FixedDuration       bool            `json:"fixed_duration"`
	Offset              jsonFloat       `json:"offset"`
	ExitTime            *jsonFloat      `json:"exit_time"`
	Interruption        int32           `json:"interruption_source"`
	OrderedInterruption bool            `json:"ordered_interruption"`
	CanTransitionToSelf bool            `json:"can_transition_to_self"`
}

// blendNodeJSON is one node of a state's blend tree: a leaf plays clip
// (an index into the controller's clips; -1 none), any other node blends
// its children (indexes into the same tree) by its parameters.
type blendNodeJSON struct {
	Type        string         `json:"type"` // "clip" for a leaf
	Parameter   string         `json:"parameter"`
	ParameterY  string         `json:"parameter_y"`
	Clip        int            `json:"clip"`
	Children    []int          `json:"children"`
	Thresholds  []jsonFloat    `json:"thresholds"`
	Positions   [][2]jsonFloat `json:"positions"`
	ChildParams []string       `json:"child_parameters"`
}

type stateJSON struct {
	Name         string            `json:"name"`
	NameHash     uint32            `json:"name_hash"`
	FullPathHash uint32            `json:"full_path_hash"`
	Speed        jsonFloat         `json:"speed"`
	SpeedParam   string            `json:"speed_parameter"`
	CycleOffset  jsonFloat         `json:"cycle_offset"`
	Mirror       bool              `json:"mirror"`
	MirrorParam  string            `json:"mirror_parameter"`
	CycleParam   string            `json:"cycle_offset_parameter"`
	TimeParam    string            `json:"time_parameter"`
	Loop         bool              `json:"loop"`
	FootIK       bool              `json:"foot_ik"`
	WriteDefault bool              `json:"write_defaults"`
	Motions      [][]blendNodeJSON `json:"motions"`
	Transitions  []transitionJSON  `json:"transitions"`
}

type machineJSON struct {
	DefaultState string           `json:"default_state"`
	States       []stateJSON      `json:"states"`
	AnyState     []transitionJSON `json:"any_state"`
	Entry        []transitionJSON `json:"entry"`
}

type layerJSON struct {
	Name         string `json:"name"`
	StateMachine int    `json:"state_machine"`
	Blending     string `json:"blending"`
	// Weight is the weight the layer plays at: the stored one, except
	// the base layer, which Unity (and the animator package) always plays
	// at 1 whatever is stored. StoredWeight is the stored one.
	Weight       jsonFloat `json:"weight"`
	StoredWeight jsonFloat `json:"stored_weight"`
	SkeletonMask int       `json:"skeleton_mask_entries"`
	SyncedLayer  int       `json:"synced_layer"`
	// BodyMask is the humanoid body mask the layer plays with
	// (model.HumanMask.String: "full", "none", "Body+Head"...), nil when
	// the layer names an AvatarMask (MaskKey) that was not read.
	BodyMask *string `json:"body_mask"`
	MaskKey  string  `json:"mask_key"`
}

// layerBodyMask returns what layerJSON.BodyMask holds for a layer.
func layerBodyMask(l *model.Layer) *string {
	if l.MaskKey != "" && len(l.BodyMask) == 0 {
		return nil
	}
	s := l.HumanMask().String()
	return &s
}

// bodyMaskText is a layer's body mask as the text output gives it.
func bodyMaskText(l layerJSON) string {
	if l.BodyMask == nil {
		return "unresolved AvatarMask " + l.MaskKey
	}
	return *l.BodyMask
}

type parameterJSON struct {
	Name    string    `json:"name"`
	Type    string    `json:"type"`
	Default jsonFloat `json:"default"`
}

// controllerClipJSON is one clip slot of a controller: the clip it plays
// and where it was found, or (missing) why it is not in the inputs.
type controllerClipJSON struct {
	Name      string `json:"name"`
	Container string `json:"container"`
	File      string `json:"file"`
	PathID    int64  `json:"path_id"`
	// Missing says why the clip is not in the inputs ("" when it is, or
	// the slot is empty).
	Missing string `json:"missing"`
	// ref is the reference that chooses the clip (not in the JSON, which
	// gives its parts).
	ref string
}

type controllerJSON struct {
	Container     string               `json:"container"`
	File          string               `json:"file"`
	PathID        int64                `json:"path_id"`
	Name          string               `json:"name"`
	Parameters    []parameterJSON      `json:"parameters"`
	Layers        []layerJSON          `json:"layers"`
	StateMachines []machineJSON        `json:"state_machines"`
	Clips         []controllerClipJSON `json:"clips"`
	Notes         []string             `json:"notes"`
}

// controllerView describes a controller read at src, its clips resolved
// across the inputs (clips lists the inputs' clips, which cc's indexes
// name).
func controllerView(src model.Source, cc *bound.ControllerClips, clips []bound.Item) controllerJSON {
	c := cc.Controller
	v := controllerJSON{Container: src.Container, File: src.File, PathID: src.PathID, Name: c.Name,
		Parameters: []parameterJSON{}, Layers: []layerJSON{}, StateMachines: []machineJSON{}, Clips: []controllerClipJSON{},
		Notes: append([]string{}, cc.Notes...)}
	param := func(i int) string {
		if i >= 0 && i < len(c.Parameters) {
			return c.Parameters[i].Name
		}
		return ""
	}
	for _, p := range c.Parameters {
		v.Parameters = append(v.Parameters, parameterJSON{p.Name, p.Type.String(), jsonFloat(p.Default)})
	}
	for li := range c.Layers {
		l := &c.Layers[li]
		b := "override"
		if l.Blending == model.BlendAdditive {
			b = "additive"
		}
		w := l.Weight
		if li == 0 {
			w = 1 // the base layer always plays at full weight
		}
		v.Layers = append(v.Layers, layerJSON{l.Name, l.StateMachine, b, jsonFloat(w), jsonFloat(l.Weight), len(l.SkeletonMask), l.SyncedLayer,
			layerBodyMask(l), l.MaskKey})
	}
	clipName := func(i int) string {
		if i < 0 || i >= len(c.Clips) {
			return ""
		}
		if i < len(cc.Clips) && cc.Clips[i] >= 0 && int(cc.Clips[i]) < len(clips) {
			return clips[cc.Clips[i]].Name
		}
		if i < len(c.ClipNames) && c.ClipNames[i] != "" {
			return c.ClipNames[i]
		}
		if c.Clips[i].IsNull() {
			return "(none)"
		}
		return "#clip" + strconv.Itoa(i)
	}
	for k := range c.Clips {
		cj := controllerClipJSON{Name: clipName(k)}
		switch {
		case k < len(cc.Clips) && cc.Clips[k] >= 0 && int(cc.Clips[k]) < len(clips):
			ci := clips[cc.Clips[k]]
			cj.Container, cj.File, cj.PathID, cj.ref = ci.Source.Container, ci.Source.File, ci.Source.PathID, ci.Ref
		case !c.Clips[k].IsNull():
			cj.Missing = fmt.Sprintf("not in the inputs (file %d, path id %d of the controller's file; see notes)", c.Clips[k].FileID, c.Clips[k].PathID)
		}
		v.Clips = append(v.Clips, cj)
	}
	for _, sm := range c.StateMachines {
		dest := func(d uint32) string {
			switch {
			case d == model.NoDestination:
				return "(none)"
			case d >= model.SelectorBase:
				return fmt.Sprintf("(selector %d)", d-model.SelectorBase)
			case int(d) < len(sm.States):
				return sm.States[d].Name
			}
			return fmt.Sprintf("#state%d", d)
		}
		conds := func(cs []model.Condition) []conditionJSON {
			out := []conditionJSON{}
			for _, k := range cs {
				name := param(k.Param)
				if name == "" {
					name = "#" + strconv.FormatUint(uint64(k.ParamHash), 10)
				}
				out = append(out, conditionJSON{k.Mode.String(), name, jsonFloat(k.Threshold)})
			}
			return out
		}
		trans := func(ts []model.Transition) []transitionJSON {
			out := []transitionJSON{}
			for _, t := range ts {
				tj := transitionJSON{Destination: dest(t.Destination), Conditions: conds(t.Conditions),
					Duration: jsonFloat(t.Duration), FixedDuration: t.HasFixedDuration, Offset: jsonFloat(t.Offset),
					Interruption: int32(t.Interruption), OrderedInterruption: t.OrderedInterruption,
					CanTransitionToSelf: t.CanTransitionToSelf}
				if t.HasExitTime {
					et := jsonFloat(t.ExitTime)
					tj.ExitTime = &et
				}
				out = append(out, tj)
			}
			return out
		}
		mj := machineJSON{DefaultState: dest(uint32(sm.DefaultState)), AnyState: trans(sm.AnyState), Entry: []transitionJSON{}, States: []stateJSON{}}
		if len(sm.States) == 0 {
			mj.DefaultState = "(none)" // an empty layer (shipped games have them) has no state to start in
		}
		for _, sel := range sm.Selectors {
			if !sel.IsEntry {
				continue
			}
			for _, t := range sel.Transitions {
				mj.Entry = append(mj.Entry, transitionJSON{Destination: dest(t.Destination), Conditions: conds(t.Conditions)})
			}
		}
		for _, s := range sm.States {
			sj := stateJSON{Motions: [][]blendNodeJSON{}, Name: s.Name, NameHash: s.NameHash, FullPathHash: s.FullPathHash, Speed: jsonFloat(s.Speed),
				SpeedParam: param(s.SpeedParam), CycleOffset: jsonFloat(s.CycleOffset), Mirror: s.Mirror,
				MirrorParam: param(s.MirrorParam), CycleParam: param(s.CycleOffsetParam), TimeParam: param(s.TimeParam),
				Loop: s.Loop, FootIK: s.IKOnFeet, WriteDefault: s.WriteDefaults, Transitions: trans(s.Transitions)}
			for _, bt := range s.Motions {
				nodes := []blendNodeJSON{}
				for _, n := range bt.Nodes {
					nj := blendNodeJSON{Clip: -1, Children: []int{}, Thresholds: []jsonFloat{}, Positions: [][2]jsonFloat{}, ChildParams: []string{}}
					if len(n.Children) == 0 {
						nj.Type = "clip"
						if n.Clip >= 0 && n.Clip < len(c.Clips) {
							nj.Clip = n.Clip
						}
					} else {
						nj.Type = n.Type.String()
						nj.Parameter = param(n.Param)
						nj.ParameterY = param(n.ParamY)
						nj.Children = append(nj.Children, n.Children...)
						for _, t := range n.Thresholds {
							nj.Thresholds = append(nj.Thresholds, jsonFloat(t))
						}
						for _, p := range n.Positions {
							nj.Positions = append(nj.Positions, [2]jsonFloat{jsonFloat(p[0]), jsonFloat(p[1])})
						}
						for _, p := range n.ChildParams {
							nj.ChildParams = append(nj.ChildParams, param(p))
						}
					}
					nodes = append(nodes, nj)
				}
				sj.Motions = append(sj.Motions, nodes)
			}
			mj.States = append(mj.States, sj)
		}
		v.StateMachines = append(v.StateMachines, mj)
	}
	return v
}

const controllerAbout = `
Shows every animator controller of the files (or the one --name names):
its parameters with their defaults, its layers (blending, the weight they
play at, the humanoid body mask), and each layer's state machine: the
default state, every state with its speed and clips, its transitions with
their conditions, the any-state and entry transitions, blend trees. The
clips are resolved across the files given (an override controller's
replacements applied); one in a file not given is named with where it is.
--json prints one object per controller, per line (schema
docs/schema/controller.json).`

func runController(e *env, args []string) error {
	return objectCommand{
		name: "controller", kind: bind.KindController,
		list: (*bind.Set).Controllers,
		find: func(set *bind.Set, sel string) (int, error) {
			id, err := set.FindController(sel)
			return int(id), err
		},
		view: func(set *bind.Set, i int, it bound.Item) (any, error) {
			cc, err := set.Controller(context.Background(), bound.ControllerID(i))
			if err != nil {
				return nil, err
			}
			clips := set.Clips()
			// The clips the controller plays must decode: a state whose
			// clip is damaged would otherwise show no clip, silently.
			var errs []error
			for _, ci := range cc.Clips {
				if ci < 0 {
					continue
				}
				if _, err := set.Clip(ci); err != nil {
					c := clips[ci]
					errs = append(errs, fmt.Errorf("controller %q: clip %q (%s): %w", it.Name, c.Name, c.Source, err))
				}
			}
			return controllerView(it.Source, cc, clips), errors.Join(errs...)
		},
		text: controllerText,
	}.run(e, args)
}

// controllerText writes a controller view (controllerJSON) for people.
func controllerText(w io.Writer, x any) {
	v := x.(controllerJSON)
	fmt.Fprintf(w, "controller %q in %s %s, path id %d\n", v.Name, v.Container, v.File, v.PathID)
	for _, n := range v.Notes {
		fmt.Fprintf(w, "  note: %s\n", n)
	}
	for _, p := range v.Parameters {
		fmt.Fprintf(w, "  parameter %-20s %-7s default %g\n", p.Name, p.Type, float32(p.Default))
	}
	for li, l := range v.Layers {
		stored := "" // the base layer plays at 1 whatever is stored
		if li == 0 && l.StoredWeight != 1 {
			stored = fmt.Sprintf(", stored %g", float32(l.StoredWeight))
		}
		fmt.Fprintf(w, "  layer %d %q (%s, weight %g%s) body mask: %s\n", li, l.Name, l.Blending, float32(l.Weight), stored, bodyMaskText(l))
		if l.StateMachine < 0 || l.StateMachine >= len(v.StateMachines) {
			continue
		}
		sm := v.StateMachines[l.StateMachine]
		labels := clipLabels(v.Clips)
		fmt.Fprintf(w, "    default state %s\n", sm.DefaultState)
		for _, s := range sm.States {
			var clips []string
			for _, m := range s.Motions {
				for _, n := range m {
					if n.Clip >= 0 && n.Clip < len(v.Clips) {
						clips = append(clips, labels[n.Clip])
					}
				}
			}
			fmt.Fprintf(w, "    state %-24q speed %g clips %v\n", s.Name, float32(s.Speed), clips)
			for _, t := range s.Transitions {
				fmt.Fprintf(w, "      -> %-22s %s\n", t.Destination, transitionText(t))
			}
		}
		for _, t := range sm.AnyState {
			fmt.Fprintf(w, "    any state -> %-18s %s\n", t.Destination, transitionText(t))
		}
	}
}

// clipLabels names each clip slot of a controller for people: by its
// name, with the reference that chooses it where different clips of the
// slots share the name.
func clipLabels(clips []controllerClipJSON) []string {
	refs := map[string]map[string]bool{}
	ref := func(c controllerClipJSON) string {
		if c.Missing != "" {
			return ""
		}
		return c.ref
	}
	for _, c := range clips {
		if refs[c.Name] == nil {
			refs[c.Name] = map[string]bool{}
		}
		refs[c.Name][ref(c)] = true
	}
	out := make([]string, len(clips))
	for i, c := range clips {
		out[i] = c.Name
		if r := ref(c); len(refs[c.Name]) > 1 && r != "" {
			out[i] = fmt.Sprintf("%s (%s)", c.Name, r)
		}
	}
	return out
}

// transitionText says when a transition is taken: its conditions, its
// exit time, its duration.
func transitionText(t transitionJSON) string {
	var parts []string
	for _, c := range t.Conditions {
		switch c.Mode {
		case "if", "if_not":
			parts = append(parts, c.Mode+" "+c.Parameter)
		default:
			parts = append(parts, fmt.Sprintf("%s %s %g", c.Parameter, c.Mode, float32(c.Threshold)))
		}
	}
	if t.ExitTime != nil {
		parts = append(parts, fmt.Sprintf("exit time %g", float32(*t.ExitTime)))
	}
	if len(parts) == 0 {
		parts = append(parts, "always")
	}
	unit := " (normalized)"
	if t.FixedDuration {
		unit = " s"
	}
	return strings.Join(parts, " and ") + fmt.Sprintf(", blend %g%s", float32(t.Duration), unit)
}
