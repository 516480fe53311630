package yamlasset

import (
	"fmt"

	"github.com/mecanim/mecanim/model"
)

// Class ids of the editor's controller objects.
const (
	classAnimatorStateTransition = 1101
	classAnimatorState           = 1102
	classAnimatorStateMachine    = 1107
	classAnimatorTransition      = 1109
	classBlendTree               = 206
)

// Controller converts the file's AnimatorController (a .controller asset)
// and flattens it the way Unity compiles it. What was checked against the
// compiled ExampleEnemyAnimator of lc-example-enemy is marked (observed):
//
//   - one state machine per layer that is not synced (observed); a synced
//     layer runs the machine of the layer it syncs to with its own motion set
//     (its m_Motions overrides; states without one play nothing);
//   - a machine's states are the default state first, then the others in
//     m_ChildStates order (observed), then those of each child state
//     machine, depth first; a state's NameHash is the CRC-32 of its name,
//     its FullPathHash and PathHash the CRC-32 of "<layer>.<state>"
//     (observed), "<layer>.<sub-machine>...<state>" below sub-machines;
//   - a transition's ID is the CRC-32 of "<source> -> <destination>" and its
//     FullPathHash that of "<source path> -> <destination path>"; any-state
//     transitions are named "AnyState -> <state>" and "Entry -> <path>"
//     (observed);
//   - each machine (the root, then sub-machines depth first) has an entry
//     selector (node 2i) and an exit selector (node 2i+1); an entry selector
//     holds the entry transitions then one to the default state, the root's
//     exit leads to its entry (observed); a sub-machine's exit leads by its
//     parent's state-machine transitions for it, then to the parent's entry;
//   - any-state transitions of every machine of a layer are the layer's;
//     muted transitions are left out, and when any transition of a list is
//     solo only the solo ones are kept;
//   - Clips lists each distinct motion clip in the order states and blend
//     trees first name it, layer by layer (observed); ClipKeys holds each
//     one's "guid:fileID" and, since the YAML does not know the clips'
//     names, ClipNames holds the same keys (ResolveClips can name them);
//   - a state without a motion has an empty blend tree and loops (observed);
//     a state's Loop otherwise depends on its clips, so it is false until
//     ResolveClips sets it; a clip leaf's Duration is 1 (observed), divided
//     by a blend child's time scale;
//   - Unity 4's form (StateMachine objects listing m_States, transitions
//     kept by the machine in m_OrderedTransitions, a state's clips per
//     motion set in m_Motions) is read into the same model: an exit-time
//     condition becomes the transition's exit time, a transition that is not
//     m_Atomic may be interrupted by its destination's (inferred);
//   - a layer without an avatar mask gets the full body mask (observed); a
//     layer whose AvatarMask is in the same file gets its body mask and
//     skeleton mask (see AvatarMask.Compile); one in another asset is named
//     by MaskKey and left without a mask until ResolveMasks reads it.
func (f *File) Controller() (*model.Controller, error) {
	for _, d := range f.Docs {
		if d.ClassID == model.ClassAnimatorController || d.Type == "AnimatorController" {
			return f.ControllerOf(d)
		}
	}
	return nil, fmt.Errorf("%s: AnimatorController: %w", f.Name, ErrNoObject)
}

// ctlBuild holds the state of one controller conversion.
type ctlBuild struct {
	f      *File
	d      *dec
	c      *model.Controller
	clipIx map[string]int
	params map[string]int
	inTree map[int64]bool // blend trees being expanded (to refuse cycles)
}

// maxBlendNodes bounds one state's expanded blend tree: trees that share
// subtrees expand each use, so a small file could otherwise ask for an
// exponential number of nodes.
const maxBlendNodes = 1 << 16

// flatMachine is a layer's state machine with its sub-machines flattened.
type flatMachine struct {
	states    []*Document
	paths     []string
	stateIx   map[int64]int
	owner     []int // per state, the machine holding it
	machines  []*machineInfo
	machineIx map[int64]int
}

type machineInfo struct {
	doc    *Document
	path   string
	parent int // index in machines, -1 for the root
}

// ControllerOf converts one AnimatorController document (see Controller).
func (f *File) ControllerOf(doc *Document) (*model.Controller, error) {
	b := &ctlBuild{f: f, d: f.dec(doc), c: &model.Controller{Names: model.Names{}},
		clipIx: map[string]int{}, params: map[string]int{}, inTree: map[int64]bool{}}
	d, body, c := b.d, doc.Body, b.c
	c.Name = d.str(body, "m_Name")
	c.Names.Add("")
	c.Names.Add("GravityWeight") // every compiled controller's name table has it
	for _, p := range d.seq(body, "m_AnimatorParameters") {
		name := d.str(p, "m_Name")
		prm := model.Parameter{Name: name, Hash: c.Names.Add(name), Type: model.ParamType(d.i32(p, "m_Type"))}
		switch prm.Type {
		case model.ParamFloat:
			prm.Default = float64(d.f32(p, "m_DefaultFloat"))
		case model.ParamInt:
			prm.Default = float64(d.i32(p, "m_DefaultInt"))
		default:
			if d.bool(p, "m_DefaultBool") {
				prm.Default = 1
			}
		}
		if _, dup := b.params[name]; !dup {
			b.params[name] = len(c.Parameters)
		}
		c.Parameters = append(c.Parameters, prm)
	}
	layers := d.seq(body, "m_AnimatorLayers")
	flats := make([]*flatMachine, len(layers))
	machineOf := make([]int, len(layers))
	for i, l := range layers {
		name := d.str(l, "m_Name")
		layer := model.Layer{
			Name: name, Hash: c.Names.Add(name),
			Blending:     model.LayerBlending(d.i32(l, "m_BlendingMode")),
			Weight:       d.f32(l, "m_DefaultWeight"),
			SyncedLayer:  int(d.i32(l, "m_SyncedLayerIndex")),
			SyncedTiming: d.bool(l, "m_SyncedLayerAffectsTiming"),
			IKPass:       d.bool(l, "m_IKPass"),
		}
		if mp := d.pptr(l, "m_Mask"); mp.IsNull() {
			full := model.FullHumanMask()
			layer.BodyMask = full[:]
		} else {
			layer.MaskKey = mp.Key()
			if doc := f.Object(mp.FileID); mp.GUID == "" && doc != nil && isAvatarMask(doc) {
				m, err := f.AvatarMaskOf(doc)
				if err != nil {
					return nil, fmt.Errorf("layer %q: %w", name, err)
				}
				m.Compile(&layer)
			}
		}
		c.Layers = append(c.Layers, layer)
		if layer.SyncedLayer >= 0 {
			machineOf[i] = -1
			continue
		}
		layer.SyncedLayer = -1
		c.Layers[i].SyncedLayer = -1
		fm, err := b.flatten(d.pptr(l, "m_StateMachine"), name)
		if err != nil {
			return nil, err
		}
		flats[i] = fm
		machineOf[i] = len(c.StateMachines)
		c.Layers[i].StateMachine = len(c.StateMachines)
		c.StateMachines = append(c.StateMachines, b.machine(fm))
	}
	// Motions: each machine's own motion set first, then synced layers' sets.
	for i := range layers {
		if machineOf[i] < 0 {
			continue
		}
		sm := &c.StateMachines[machineOf[i]]
		set := int(d.i32(layers[i], "m_StateMachineMotionSetIndex"))
		for si, st := range flats[i].states {
			sm.States[si].Motions = append(sm.States[si].Motions, b.motionTree(stateMotion(d, st, set)))
		}
		sm.MotionSets = 1
	}
	for i, l := range layers {
		if machineOf[i] >= 0 {
			continue
		}
		src := c.Layers[i].SyncedLayer
		if src >= len(layers) || machineOf[src] < 0 {
			return nil, &FieldError{File: f.Name, Line: l.Line, Object: "AnimatorController " + c.Name,
				Field: "m_SyncedLayerIndex", Err: fmt.Errorf("layer %d syncs to layer %d, which is not a layer with its own state machine", i, src)}
		}
		fm, sm := flats[src], &c.StateMachines[machineOf[src]]
		c.Layers[i].StateMachine = machineOf[src]
		c.Layers[i].MotionSet = sm.MotionSets
		sm.MotionSets++
		over := map[int64]PPtr{}
		for _, m := range d.seq(l, "m_Motions") {
			over[d.pptr(m, "m_State").FileID] = d.pptr(m, "m_Motion")
		}
		set := int(d.i32(l, "m_StateMachineMotionSetIndex"))
		for si, st := range fm.states {
			m := over[st.FileID]
			if st.Body.Get("m_Motions") != nil {
				m = stateMotion(d, st, set) // Unity 4: the layer's motion set of the shared machine
			}
			sm.States[si].Motions = append(sm.States[si].Motions, b.motionTree(m))
		}
	}
	for mi := range c.StateMachines {
		for si := range c.StateMachines[mi].States {
			st := &c.StateMachines[mi].States[si]
			st.Loop = len(leafClips(c, st)) == 0
		}
	}
	if d.err != nil {
		return nil, d.err
	}
	return c, nil
}

// leafClips returns the clip indexes a state's motions play.
func leafClips(c *model.Controller, st *model.State) []int {
	var out []int
	for _, t := range st.Motions {
		for _, n := range t.Nodes {
			if len(n.Children) == 0 && n.Clip >= 0 && n.Clip < len(c.Clips) {
				out = append(out, n.Clip)
			}
		}
	}
	return out
}

// ResolveClips completes a controller converted from YAML with what only
// its clips know: clip(key) returns the clip of a ClipKeys entry (nil when
// unknown). Known clips give ClipNames their names, and a state whose clips
// are all known loops (Loop) when every one of them loops (LoopTime), as
// Unity compiles it.
func ResolveClips(c *model.Controller, clip func(key string) *model.Clip) {
	known := make([]*model.Clip, len(c.ClipKeys))
	for i, k := range c.ClipKeys {
		if known[i] = clip(k); known[i] != nil && i < len(c.ClipNames) {
			c.ClipNames[i] = known[i].Name
		}
	}
	for mi := range c.StateMachines {
		for si := range c.StateMachines[mi].States {
			st := &c.StateMachines[mi].States[si]
			loop, all := true, true
			for _, ci := range leafClips(c, st) {
				if ci >= len(known) || known[ci] == nil {
					all = false
					break
				}
				loop = loop && known[ci].Settings.LoopTime
			}
			if all {
				st.Loop = loop
			}
		}
	}
}

// ResolveMasks completes a controller converted from YAML with the
// AvatarMasks its layers name in other assets: mask(key) returns the mask
// of a Layer.MaskKey (nil when unknown: the layer is left without one).
func ResolveMasks(c *model.Controller, mask func(key string) *AvatarMask) {
	for i := range c.Layers {
		l := &c.Layers[i]
		if l.MaskKey == "" || l.BodyMask != nil {
			continue
		}
		if m := mask(l.MaskKey); m != nil {
			m.Compile(l)
		}
	}
}

// flatten collects a layer's machine and its sub-machines.
func (b *ctlBuild) flatten(root PPtr, layerName string) (*flatMachine, error) {
	fm := &flatMachine{stateIx: map[int64]int{}, machineIx: map[int64]int{}}
	var visit func(id int64, path string, parent, depth int) error
	visit = func(id int64, path string, parent, depth int) error {
		doc := b.f.Object(id)
		if doc == nil {
			return fmt.Errorf("%s: state machine &%d is not in the file", b.f.Name, id)
		}
		if _, seen := fm.machineIx[id]; seen || depth > maxDepth {
			return fmt.Errorf("%s:%d: state machine &%d is nested in itself", b.f.Name, doc.Line, id)
		}
		mi := len(fm.machines)
		fm.machineIx[id] = mi
		fm.machines = append(fm.machines, &machineInfo{doc: doc, path: path, parent: parent})
		b.c.Names.Add(path)
		children := b.d.seq(doc.Body, "m_ChildStates")
		stateOf := func(cs *Node) int64 { return b.d.pptr(cs, "m_State").FileID }
		if legacyMachine(doc) {
			children = b.d.seq(doc.Body, "m_States")
			stateOf = func(cs *Node) int64 { return b.d.ptr(cs).FileID }
		}
		for _, cs := range children {
			sid := stateOf(cs)
			st := b.f.Object(sid)
			if st == nil {
				return fmt.Errorf("%s:%d: state &%d is not in the file", b.f.Name, cs.Line, sid)
			}
			if _, dup := fm.stateIx[sid]; dup {
				continue
			}
			fm.stateIx[sid] = len(fm.states)
			fm.states = append(fm.states, st)
			fm.paths = append(fm.paths, path+"."+st.Name())
			fm.owner = append(fm.owner, mi)
		}
		subs := b.d.seq(doc.Body, "m_ChildStateMachines")
		subOf := func(csm *Node) int64 { return b.d.pptr(csm, "m_StateMachine").FileID }
		if legacyMachine(doc) {
			subs = b.d.seq(doc.Body, "m_ChildStateMachine")
			subOf = func(csm *Node) int64 { return b.d.ptr(csm).FileID }
		}
		for _, csm := range subs {
			sub := subOf(csm)
			sd := b.f.Object(sub)
			if sd == nil {
				return fmt.Errorf("%s:%d: state machine &%d is not in the file", b.f.Name, csm.Line, sub)
			}
			if err := visit(sub, path+"."+sd.Name(), mi, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	if root.IsNull() {
		return fm, nil
	}
	if err := visit(root.FileID, layerName, -1, 0); err != nil {
		return nil, err
	}
	// Unity compiles the default state first, the others in order.
	if def := b.d.pptr(fm.machines[0].doc.Body, "m_DefaultState"); !def.IsNull() {
		if i, ok := fm.stateIx[def.FileID]; ok && i > 0 {
			move := func(s []*Document) { d := s[i]; copy(s[1:i+1], s[:i]); s[0] = d }
			move(fm.states)
			p, o := fm.paths[i], fm.owner[i]
			copy(fm.paths[1:i+1], fm.paths[:i])
			copy(fm.owner[1:i+1], fm.owner[:i])
			fm.paths[0], fm.owner[0] = p, o
			for k, st := range fm.states {
				fm.stateIx[st.FileID] = k
			}
		}
	}
	return fm, nil
}

// machine builds the compiled state machine (without motions).
func (b *ctlBuild) machine(fm *flatMachine) model.StateMachine {
	d, c := b.d, b.c
	sm := model.StateMachine{DefaultState: 0}
	for i, st := range fm.states {
		s := st.Body
		name := d.str(s, "m_Name")
		full := c.Names.Add(fm.paths[i])
		state := model.State{
			Name: name, NameHash: c.Names.Add(name), PathHash: full, FullPathHash: full,
			TagHash:       c.Names.Add(d.str(s, "m_Tag")),
			Speed:         d.f32(s, "m_Speed"),
			CycleOffset:   d.f32(s, "m_CycleOffset"),
			Mirror:        d.bool(s, "m_Mirror"),
			IKOnFeet:      d.bool(s, "m_IKOnFeet"),
			WriteDefaults: d.bool(s, "m_WriteDefaultValues"),
			SpeedParam:    b.paramIf(s, "m_SpeedParameterActive", "m_SpeedParameter"),
			MirrorParam:   b.paramIf(s, "m_MirrorParameterActive", "m_MirrorParameter"),
			CycleOffsetParam: b.paramIf(s, "m_CycleOffsetParameterActive",
				"m_CycleOffsetParameter"),
			TimeParam: b.paramIf(s, "m_TimeParameterActive", "m_TimeParameter"),
		}
		src := fm.owner[i]
		refs := d.seq(s, "m_Transitions")
		if m := fm.machines[src].doc; legacyMachine(m) {
			// Unity 4 writes no m_WriteDefaultValues: its states always
			// wrote their defaults.
			state.WriteDefaults = s.Get("m_WriteDefaultValues") == nil || state.WriteDefaults
			refs = b.orderedTransitions(m, st.FileID)
		}
		for _, t := range b.transitions(refs) {
			state.Transitions = append(state.Transitions, b.transition(t, fm, src, name, fm.paths[i]))
		}
		sm.States = append(sm.States, state)
	}
	for mi, m := range fm.machines {
		refs := d.seq(m.doc.Body, "m_AnyStateTransitions")
		if legacyMachine(m.doc) {
			refs = b.orderedTransitions(m.doc, 0)
		}
		for _, t := range b.transitions(refs) {
			sm.AnyState = append(sm.AnyState, b.transition(t, fm, mi, "AnyState", "Entry"))
		}
	}
	for mi, m := range fm.machines {
		full := c.Names.Add(m.path)
		entry := model.Selector{FullPathHash: full, IsEntry: true}
		for _, t := range b.transitions(d.seq(m.doc.Body, "m_EntryTransitions")) {
			entry.Transitions = append(entry.Transitions, b.selectorTransition(t, fm, mi))
		}
		def := model.NoDestination
		if p := d.pptr(m.doc.Body, "m_DefaultState"); !p.IsNull() {
			if i, ok := fm.stateIx[p.FileID]; ok {
				def = uint32(i)
			}
		}
		if mi == 0 && def != model.NoDestination {
			sm.DefaultState = int(def)
		}
		entry.Transitions = append(entry.Transitions, model.SelectorTransition{Destination: def})
		exit := model.Selector{FullPathHash: full}
		if m.parent < 0 {
			exit.Transitions = []model.SelectorTransition{{Destination: model.SelectorBase}}
		} else {
			for _, t := range b.transitions(fm.machineTransitions(b, m.parent, m.doc.FileID)) {
				exit.Transitions = append(exit.Transitions, b.selectorTransition(t, fm, m.parent))
			}
			exit.Transitions = append(exit.Transitions, model.SelectorTransition{Destination: model.SelectorBase + uint32(2*m.parent)})
		}
		sm.Selectors = append(sm.Selectors, entry, exit)
	}
	return sm
}

func (n *Node) itemsOrNil() []*Node {
	if n == nil || n.Kind != Sequence {
		return nil
	}
	return n.Items
}

// machineTransitions returns the parent machine's state-machine transitions
// out of the sub-machine sub (Unity writes the map as first/second pairs).
func (fm *flatMachine) machineTransitions(b *ctlBuild, parent int, sub int64) []*Node {
	m := fm.machines[parent].doc.Body.Get("m_StateMachineTransitions")
	for _, pair := range m.itemsOrNil() {
		if b.d.pptr(pair, "first").FileID == sub {
			return pair.Get("second").itemsOrNil()
		}
	}
	return nil
}

// transitions resolves a list of transition references to their documents,
// leaving out muted ones and, when any is solo, those that are not.
func (b *ctlBuild) transitions(refs []*Node) []*Document {
	var all []*Document
	solo := false
	for _, r := range refs {
		id, err := r.Get("fileID").Int()
		if err != nil {
			b.d.fail(r, "transition", err)
			continue
		}
		t := b.f.Object(id)
		if t == nil {
			b.d.fail(r, "transition", fmt.Errorf("transition &%d is not in the file", id))
			continue
		}
		if b.d.bool(t.Body, "m_Mute") {
			continue
		}
		solo = solo || b.d.bool(t.Body, "m_Solo")
		all = append(all, t)
	}
	if !solo {
		return all
	}
	var out []*Document
	for _, t := range all {
		if b.d.bool(t.Body, "m_Solo") {
			out = append(out, t)
		}
	}
	return out
}

// destination resolves where a transition leads; from is the machine the
// transition leaves (for exits).
func (b *ctlBuild) destination(t *Document, fm *flatMachine, from int) uint32 {
	d := b.d
	if p := d.pptr(t.Body, "m_DstState"); !p.IsNull() {
		if i, ok := fm.stateIx[p.FileID]; ok {
			return uint32(i)
		}
		d.fail(t.Body.Get("m_DstState"), "m_DstState", fmt.Errorf("state &%d is not in this layer", p.FileID))
		return model.NoDestination
	}
	if p := d.pptr(t.Body, "m_DstStateMachine"); !p.IsNull() {
		if i, ok := fm.machineIx[p.FileID]; ok {
			return model.SelectorBase + uint32(2*i)
		}
		d.fail(t.Body.Get("m_DstStateMachine"), "m_DstStateMachine", fmt.Errorf("state machine &%d is not in this layer", p.FileID))
		return model.NoDestination
	}
	if d.bool(t.Body, "m_IsExit") {
		return model.SelectorBase + uint32(2*from+1)
	}
	return model.NoDestination
}

func (b *ctlBuild) conditions(t *Document) []model.Condition {
	var out []model.Condition
	for _, cn := range b.d.seq(t.Body, "m_Conditions") {
		name := b.d.str(cn, "m_ConditionEvent")
		pi, ok := b.params[name]
		if !ok {
			pi = -1
		}
		out = append(out, model.Condition{
			Mode:      model.ConditionMode(b.d.i32(cn, "m_ConditionMode")),
			Param:     pi,
			ParamHash: model.PathHash(name),
			Threshold: b.d.f32(cn, "m_EventTreshold"),
			ExitTime:  b.d.f32(cn, "m_ExitTime"),
		})
	}
	return out
}

// transition converts a state or any-state transition; srcName and
// srcPath name its source in the hashed names ("AnyState" and "Entry" for
// any-state transitions, as Unity names them).
func (b *ctlBuild) transition(t *Document, fm *flatMachine, from int, srcName, srcPath string) model.Transition {
	d, s := b.d, t.Body
	tr := model.Transition{
		Name:                d.str(s, "m_Name"),
		Destination:         b.destination(t, fm, from),
		Conditions:          b.conditions(t),
		Duration:            d.f32(s, "m_TransitionDuration"),
		Offset:              d.f32(s, "m_TransitionOffset"),
		ExitTime:            d.f32(s, "m_ExitTime"),
		HasExitTime:         d.bool(s, "m_HasExitTime"),
		HasFixedDuration:    d.bool(s, "m_HasFixedDuration"),
		CanTransitionToSelf: d.bool(s, "m_CanTransitionToSelf"),
		OrderedInterruption: d.bool(s, "m_OrderedInterruption"),
		Interruption:        model.InterruptionSource(d.i32(s, "m_InterruptionSource")),
	}
	if s.Get("m_Atomic") != nil && s.Get("m_InterruptionSource") == nil {
		// Unity 4: a transition that is not atomic may be interrupted by
		// the destination state's transitions (inferred from the editor's
		// upgrade of such controllers, not observed in a compiled one);
		// any-state transitions could always lead to their own source.
		if !d.bool(s, "m_Atomic") {
			tr.Interruption = model.InterruptDestination
		}
		if srcName == "AnyState" {
			tr.CanTransitionToSelf = true
		}
		// Unity 4 had exit time as a condition (mode ExitTime, its time in
		// m_ExitTime); since Unity 5 it is the transition's own.
		kept := tr.Conditions[:0]
		for _, cn := range tr.Conditions {
			if cn.Mode == model.CondExitTime {
				tr.HasExitTime, tr.ExitTime = true, cn.ExitTime
				continue
			}
			kept = append(kept, cn)
		}
		tr.Conditions = kept
	}
	dstName, dstPath := b.destinationName(tr.Destination, fm)
	tr.ID = b.c.Names.Add(srcName + " -> " + dstName)
	tr.FullPathHash = b.c.Names.Add(srcPath + " -> " + dstPath)
	return tr
}

// destinationName returns the short and full names of a destination as
// transition hashes use them: a state's name and path; for a selector the
// machine's name and path, plus ".Exit" for an exit (inferred, not
// observed).
func (b *ctlBuild) destinationName(dst uint32, fm *flatMachine) (string, string) {
	switch {
	case dst < uint32(len(fm.states)):
		st := fm.states[dst]
		return st.Name(), fm.paths[dst]
	case dst >= model.SelectorBase && dst != model.NoDestination && int(dst-model.SelectorBase)/2 < len(fm.machines):
		m := fm.machines[(dst-model.SelectorBase)/2]
		name := m.doc.Name()
		if (dst-model.SelectorBase)%2 == 1 {
			return "Exit", m.path + ".Exit"
		}
		return name, m.path
	}
	return "", ""
}

func (b *ctlBuild) selectorTransition(t *Document, fm *flatMachine, from int) model.SelectorTransition {
	return model.SelectorTransition{Destination: b.destination(t, fm, from), Conditions: b.conditions(t)}
}

// paramIf returns the index of the parameter a state names when its
// "active" flag is set, else -1.
func (b *ctlBuild) paramIf(s *Node, active, key string) int {
	if !b.d.bool(s, active) {
		return -1
	}
	return b.param(b.d.str(s, key))
}

func (b *ctlBuild) param(name string) int {
	if i, ok := b.params[name]; ok {
		return i
	}
	return -1
}

// clip returns the index of a motion clip in Controller.Clips, adding it.
func (b *ctlBuild) clip(p PPtr) int {
	k := p.Key()
	if i, ok := b.clipIx[k]; ok {
		return i
	}
	i := len(b.c.Clips)
	b.clipIx[k] = i
	b.c.Clips = append(b.c.Clips, b.d.ref(p))
	b.c.ClipKeys = append(b.c.ClipKeys, k)
	b.c.ClipNames = append(b.c.ClipNames, k)
	return i
}

// motionTree builds a state's blend tree for a motion: none for a null
// motion, one leaf for a clip, the tree's nodes for a BlendTree of this
// file (children of a node get consecutive indexes, then each child's
// subtree follows, depth first).
func (b *ctlBuild) motionTree(m PPtr) model.BlendTree {
	if m.IsNull() {
		return model.BlendTree{}
	}
	var t model.BlendTree
	t.Nodes = append(t.Nodes, model.BlendNode{})
	b.fillNode(&t, 0, m, 0, 1, 0, false)
	return t
}

// fillNode makes node i of t the motion m.
func (b *ctlBuild) fillNode(t *model.BlendTree, i int, m PPtr, depth int, timeScale, cycle float32, mirror bool) {
	// A state's clip compiles with duration 1 (observed); a blend child's
	// time scale is taken to divide it (inferred).
	dur := float32(1)
	if timeScale > 0 {
		dur = 1 / timeScale
	}
	leaf := model.BlendNode{Param: -1, ParamY: -1, Clip: model.NoClip, Duration: dur, CycleOffset: cycle, Mirror: mirror}
	doc := (*Document)(nil)
	if m.GUID == "" && !m.IsNull() {
		doc = b.f.Object(m.FileID)
	}
	if doc == nil || (doc.ClassID != classBlendTree && doc.Type != "BlendTree") {
		if !m.IsNull() {
			leaf.Clip = b.clip(m)
		}
		t.Nodes[i] = leaf
		return
	}
	if depth > maxDepth || b.inTree[doc.FileID] {
		b.d.fail(doc.Body, "m_Childs", fmt.Errorf("blend tree &%d contains itself", doc.FileID))
		t.Nodes[i] = leaf
		return
	}
	if len(t.Nodes) > maxBlendNodes {
		b.d.fail(doc.Body, "m_Childs", fmt.Errorf("blend tree of more than %d nodes", maxBlendNodes))
		t.Nodes[i] = leaf
		return
	}
	b.inTree[doc.FileID] = true
	defer delete(b.inTree, doc.FileID)
	d, s := b.d, doc.Body
	n := model.BlendNode{
		Type:      model.BlendType(d.i32(s, "m_BlendType")),
		Param:     b.param(d.str(s, "m_BlendParameter")),
		ParamY:    -1,
		Normalize: d.bool(s, "m_NormalizedBlendValues"),
		Clip:      model.NoClip,
	}
	if n.Type != model.Blend1D && n.Type != model.BlendDirect {
		n.ParamY = b.param(d.str(s, "m_BlendParameterY"))
	}
	if n.Type == model.BlendDirect {
		n.Param = -1
	}
	kids := d.seq(s, "m_Childs")
	first := len(t.Nodes)
	for range kids {
		t.Nodes = append(t.Nodes, model.BlendNode{})
	}
	for k, ch := range kids {
		n.Children = append(n.Children, first+k)
		switch n.Type {
		case model.Blend1D:
			n.Thresholds = append(n.Thresholds, d.f32(ch, "m_Threshold"))
		case model.BlendDirect:
			n.ChildParams = append(n.ChildParams, b.param(d.str(ch, "m_DirectBlendParameter")))
		default:
			p := ch.Get("m_Position")
			n.Positions = append(n.Positions, [2]float32{d.f32(p, "x"), d.f32(p, "y")})
		}
	}
	t.Nodes[i] = n
	for k, ch := range kids {
		ts := float32(1)
		if ch.Get("m_TimeScale") != nil {
			ts = d.f32(ch, "m_TimeScale")
		}
		b.fillNode(t, first+k, d.pptr(ch, "m_Motion"), depth+1, ts, d.f32(ch, "m_CycleOffset"), d.bool(ch, "m_Mirror"))
	}
}

// legacyMachine reports a state machine in Unity 4's form (class
// StateMachine): its states listed in m_States, its sub-machines in
// m_ChildStateMachine, and its transitions kept by the machine in
// m_OrderedTransitions, keyed by source state (null for any-state
// transitions). Unity 4 controllers are still found in projects and
// packages (Unity-chan's, for one).
func legacyMachine(doc *Document) bool {
	return doc.Body.Get("m_ChildStates") == nil && doc.Body.Get("m_States") != nil
}

// orderedTransitions returns a Unity 4 machine's transitions out of the
// state of file id src (0: its any-state transitions), in their order. The
// map is written as repeated "data" keys, each a first/second pair.
func (b *ctlBuild) orderedTransitions(machine *Document, src int64) []*Node {
	m := machine.Body.Get("m_OrderedTransitions")
	if m == nil || m.Kind != Mapping {
		return nil
	}
	for i, k := range m.Keys {
		if k != "data" {
			continue
		}
		if pair := m.Values[i]; b.d.pptr(pair, "first").FileID == src {
			return pair.Get("second").itemsOrNil()
		}
	}
	return nil
}

// stateMotion is a state's motion: m_Motion, or in Unity 4's form motion
// set set of m_Motions (null when the state has none for it).
func stateMotion(d *dec, st *Document, set int) PPtr {
	ms := st.Body.Get("m_Motions")
	if ms == nil {
		return d.pptr(st.Body, "m_Motion")
	}
	items := ms.itemsOrNil()
	if set < 0 || set >= len(items) {
		return PPtr{}
	}
	return d.ptr(items[set])
}
