package animator

import (
	"fmt"

	"github.com/mecanim/mecanim/model"
)

// MaxLeaves bounds the leaf visits of one blend tree that Compile accepts,
// so per-instance buffers stay small and a hostile tree cannot blow up.
const MaxLeaves = 4096

// maxSelectorDepth bounds how many selector nodes one destination may pass.
const maxSelectorDepth = 16

// Definition is a controller checked and prepared for running: shared by
// every Animator that plays it and never written after Compile, so it is
// safe to use from many goroutines.
type Definition struct {
	c     *model.Controller
	clips []Clip
	none  Clip // what clip gives for an index out of range (never written)
	// rootW is per layer, per clip, the share of the clip's root motion the
	// layer takes: 0 for a clip that does not move the root, its skeleton
	// mask's weight of the root motion joint (nil: every clip at 1).
	rootW      [][]float32
	maxLeaves  int
	paramIndex map[string]int
	// machine is the state machine each layer runs: its own, or its synced
	// source layer's. syncOrder lists the synced layers after the others.
	machine []int
	order   []int
	entry   []int // per machine: its entry selector, -1 for none
	// timing lists per layer the layers synced to it with SyncedTiming;
	// synced all the layers synced to it.
	timing   [][]int
	synced   [][]int
	numTrig  int
	defaults []float64
	// shape hashes what an Animator's state refers to (see shapeOf), so
	// that a snapshot restores only onto its own kind of controller.
	shape uint64
}

// Controller returns the controller the definition was compiled from.
func (d *Definition) Controller() *model.Controller { return d.c }

// Compile checks c for indexes that would make a run go wrong (layers naming
// missing machines, transitions to missing states or selectors, conditions
// on missing parameters, blend trees nested too deep) and prepares what every
// instance shares. clips, parallel to c.Clips (a shorter slice leaves the
// rest unknown), give the clips' lengths, looping and events, and their
// root motion: each layer takes root motion only from the clips that move
// the root (Clip.Root), weighed by its skeleton mask or body mask.
func Compile(c *model.Controller, clips []Clip) (*Definition, error) {
	if c == nil {
		return nil, fmt.Errorf("animator: nil controller")
	}
	d := &Definition{c: c, clips: make([]Clip, len(c.Clips)), paramIndex: make(map[string]int, len(c.Parameters))}
	copy(d.clips, clips)
	np := len(c.Parameters)
	d.defaults = make([]float64, np)
	for i, p := range c.Parameters {
		d.defaults[i] = p.Default
		if p.Type == model.ParamTrigger {
			d.defaults[i] = 0
			d.numTrig++
		}
		if p.Name != "" {
			if _, dup := d.paramIndex[p.Name]; !dup {
				d.paramIndex[p.Name] = i
			}
		}
	}
	checkParam := func(where string, i int) error {
		if i < -1 || i >= np {
			return fmt.Errorf("animator: controller %q: %s: parameter index %d out of range (%d parameters)", c.Name, where, i, np)
		}
		return nil
	}
	d.entry = make([]int, len(c.StateMachines))
	for mi := range c.StateMachines {
		m := &c.StateMachines[mi]
		ns := len(m.States)
		d.entry[mi] = -1
		for si := range m.Selectors {
			if m.Selectors[si].IsEntry {
				d.entry[mi] = si
				break
			}
		}
		if ns > 0 && (m.DefaultState < 0 || m.DefaultState >= ns) {
			return nil, fmt.Errorf("animator: controller %q: machine %d: default state %d out of range (%d states)", c.Name, mi, m.DefaultState, ns)
		}
		checkDest := func(where string, dst uint32, selector bool) error {
			switch {
			case dst == model.NoDestination:
				if !selector {
					return fmt.Errorf("animator: controller %q: machine %d: %s: no destination", c.Name, mi, where)
				}
			case dst < model.SelectorBase:
				if int(dst) >= ns {
					return fmt.Errorf("animator: controller %q: machine %d: %s: destination state %d out of range (%d states)", c.Name, mi, where, dst, ns)
				}
			default:
				if int(dst-model.SelectorBase) >= len(m.Selectors) {
					return fmt.Errorf("animator: controller %q: machine %d: %s: destination selector %d out of range (%d selectors)", c.Name, mi, where, dst-model.SelectorBase, len(m.Selectors))
				}
			}
			return nil
		}
		checkTrans := func(where string, ts []model.Transition) error {
			for ti := range ts {
				w := fmt.Sprintf("%s transition %d", where, ti)
				if err := checkDest(w, ts[ti].Destination, false); err != nil {
					return err
				}
				for ci := range ts[ti].Conditions {
					if err := checkParam(w, ts[ti].Conditions[ci].Param); err != nil {
						return err
					}
				}
			}
			return nil
		}
		if err := checkTrans("any-state", m.AnyState); err != nil {
			return nil, err
		}
		for si := range m.Selectors {
			for ti, t := range m.Selectors[si].Transitions {
				w := fmt.Sprintf("selector %d transition %d", si, ti)
				if err := checkDest(w, t.Destination, true); err != nil {
					return nil, err
				}
				for ci := range t.Conditions {
					if err := checkParam(w, t.Conditions[ci].Param); err != nil {
						return nil, err
					}
				}
			}
		}
		for si := range m.States {
			s := &m.States[si]
			w := fmt.Sprintf("state %d", si)
			if err := checkTrans(w, s.Transitions); err != nil {
				return nil, err
			}
			for _, p := range []int{s.SpeedParam, s.MirrorParam, s.CycleOffsetParam, s.TimeParam} {
				if err := checkParam(w, p); err != nil {
					return nil, err
				}
			}
			for mi2 := range s.Motions {
				n := LeafCount(&s.Motions[mi2], MaxLeaves)
				if n < 0 {
					return nil, fmt.Errorf("animator: controller %q: machine %d state %d motion %d: blend tree deeper than %d or over %d leaves", c.Name, mi, si, mi2, MaxBlendDepth, MaxLeaves)
				}
				if n > d.maxLeaves {
					d.maxLeaves = n
				}
			}
		}
	}
	d.machine = make([]int, len(c.Layers))
	var synced []int
	for li := range c.Layers {
		l := &c.Layers[li]
		src := li
		if l.SyncedLayer >= 0 {
			if l.SyncedLayer >= len(c.Layers) || c.Layers[l.SyncedLayer].SyncedLayer >= 0 {
				return nil, fmt.Errorf("animator: controller %q: layer %d: synced layer %d is missing or itself synced", c.Name, li, l.SyncedLayer)
			}
			src = l.SyncedLayer
			synced = append(synced, li)
		} else {
			d.order = append(d.order, li)
		}
		mi := c.Layers[src].StateMachine
		if mi < 0 || mi >= len(c.StateMachines) {
			return nil, fmt.Errorf("animator: controller %q: layer %d: state machine %d out of range (%d machines)", c.Name, li, mi, len(c.StateMachines))
		}
		if l.MotionSet < 0 {
			return nil, fmt.Errorf("animator: controller %q: layer %d: negative motion set %d", c.Name, li, l.MotionSet)
		}
		d.machine[li] = mi
	}
	d.order = append(d.order, synced...)
	d.rootW = rootWeights(c, d.clips)
	d.shape = shapeOf(c, d.clips)
	d.timing = make([][]int, len(c.Layers))
	d.synced = make([][]int, len(c.Layers))
	for _, li := range synced {
		l := &c.Layers[li]
		d.synced[l.SyncedLayer] = append(d.synced[l.SyncedLayer], li)
		if l.SyncedTiming {
			d.timing[l.SyncedLayer] = append(d.timing[l.SyncedLayer], li)
		}
	}
	return d, nil
}

// rootWeights returns per layer, per clip, the share of the clip's root
// motion the layer takes (see Definition.rootW), from each clip's source.
func rootWeights(c *model.Controller, clips []Clip) [][]float32 {
	out := make([][]float32, len(c.Layers))
	for li := range c.Layers {
		mask := c.Layers[li].SkeletonMask
		bodyRoot := c.Layers[li].HumanMask().Root()
		w := make([]float32, len(c.Clips))
		for i := range clips {
			src := clips[i].Root
			switch {
			case !src.Moves:
			case src.Body:
				if bodyRoot {
					w[i] = 1
				}
			case !src.Masked || len(mask) == 0:
				w[i] = 1
			default:
				for _, e := range mask {
					if e.PathHash == src.PathHash {
						w[i] = clamp01(e.Weight)
						break
					}
				}
			}
		}
		out[li] = w
	}
	return out
}

// clip returns clip i (the zero Clip out of range).
func (d *Definition) clip(i int) *Clip {
	if i < 0 || i >= len(d.clips) {
		return &d.none
	}
	return &d.clips[i]
}

// rootWeight is the share of clip i's root motion layer li takes.
func (d *Definition) rootWeight(li, i int) float32 {
	if w := d.rootW[li]; i >= 0 && i < len(w) {
		return w[i]
	}
	return 0
}

// Param returns the index of the parameter called name (or whose hash is
// the CRC-32 of name), or -1.
func (d *Definition) Param(name string) int {
	if i, ok := d.paramIndex[name]; ok {
		return i
	}
	return d.c.ParamIndex(model.PathHash(name))
}

// StateName returns a readable name for state s of layer l: the state's
// name, its name from the controller's name table, or its hash in hex.
func (d *Definition) StateName(l, s int) string {
	if l < 0 || l >= len(d.machine) {
		return ""
	}
	m := &d.c.StateMachines[d.machine[l]]
	if s < 0 || s >= len(m.States) {
		return ""
	}
	st := &m.States[s]
	if st.Name != "" {
		return st.Name
	}
	for _, h := range []uint32{st.NameHash, st.FullPathHash, st.PathHash} {
		if n, ok := d.c.Names.Lookup(h); ok && h != 0 {
			return n
		}
	}
	return fmt.Sprintf("0x%08x", st.NameHash)
}

// StateIndex returns the index in layer l's machine of the state called
// name (matching its name, its full path "Layer.State", or the hash of
// either), or -1.
func (d *Definition) StateIndex(l int, name string) int {
	if l < 0 || l >= len(d.machine) {
		return -1
	}
	h := model.PathHash(name)
	m := &d.c.StateMachines[d.machine[l]]
	for i := range m.States {
		s := &m.States[i]
		if s.Name == name || s.NameHash == h || s.FullPathHash == h || d.StateName(l, i) == name {
			return i
		}
	}
	return -1
}

// motion returns the blend tree state s plays on layer l (nil for none).
func (d *Definition) motion(l int, s *model.State) *model.BlendTree {
	ms := d.c.Layers[l].MotionSet
	if ms < len(s.Motions) {
		return &s.Motions[ms]
	}
	return nil
}

// nodes returns the nodes of the blend tree state s plays on layer l (nil
// for none).
func (d *Definition) nodes(l int, s *model.State) []model.BlendNode {
	if t := d.motion(l, s); t != nil {
		return t.Nodes
	}
	return nil
}
