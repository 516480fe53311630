package compiled

import (
	"fmt"

	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/typetree"
)

// noneID is the u32 that compiled controllers use for "no parameter" and
// "no clip".
const noneID = 0xFFFFFFFF

// Controller converts a decoded AnimatorController (class 91) into a
// model.Controller. Names come from the controller's own name table (m_TOS);
// parameters are listed in m_Values order. The compiled blend trees name
// their parameters (m_BlendEventID, m_ChildBlendEventIDArray) by the
// parameter's hash, as shipped games' controllers show, or by an index into
// m_Values (a value that is no parameter's hash); conditions and the
// states' speed, mirror, cycle-offset and time parameters name theirs by
// hash (0 for none) and are looked up. A hash that names no parameter
// resolves to -1, as the engine finds no parameter either.
func Controller(v *typetree.Value, unityVersion string) (*model.Controller, error) {
	c := &model.Controller{Name: v.Field("m_Name").Str()}
	fail := func(field string, err error) (*model.Controller, error) {
		if unityVersion != "" {
			err = fmt.Errorf("%w (Unity %s)", err, unityVersion)
		}
		return nil, &Error{Class: "AnimatorController", Object: c.Name, Field: field, Err: err}
	}
	if v.Kind() != typetree.KindStruct {
		return fail("", errf(ErrMalformed, "not a struct"))
	}
	cc := v.Field("m_Controller")
	if cc == nil {
		return fail("m_Controller", ErrMissingField)
	}
	c.Names = TOS(v.Field("m_TOS"))
	for _, p := range v.Field("m_AnimationClips").Elems() {
		c.Clips = append(c.Clips, ref(&p))
	}
	if field, err := parameters(cc, c); err != nil {
		return fail("m_Controller."+field, err)
	}
	sms := cc.Field("m_StateMachineArray").Elems()
	for i := range sms {
		sm, field, err := stateMachine(sms[i].Field("data"), c)
		if err != nil {
			return fail(fmt.Sprintf("m_Controller.m_StateMachineArray[%d].data.%s", i, field), err)
		}
		c.StateMachines = append(c.StateMachines, sm)
	}
	layers := cc.Field("m_LayerArray").Elems()
	for i := range layers {
		l, err := layer(layers[i].Field("data"), c)
		if err != nil {
			return fail(fmt.Sprintf("m_Controller.m_LayerArray[%d].data", i), err)
		}
		c.Layers = append(c.Layers, l)
	}
	// A synced layer runs another layer's state machine with its own motion
	// set: it follows the first layer that runs that machine with set 0.
	for i := range c.Layers {
		l := &c.Layers[i]
		if l.MotionSet == 0 {
			continue
		}
		for j := range c.Layers {
			if j != i && c.Layers[j].StateMachine == l.StateMachine && c.Layers[j].MotionSet == 0 {
				l.SyncedLayer = j
				break
			}
		}
	}
	return c, nil
}

// parameters reads m_Values and m_DefaultValues.
func parameters(cc *typetree.Value, c *model.Controller) (string, error) {
	vals := cc.Path("m_Values", "data", "m_ValueArray").Elems()
	dv := cc.Path("m_DefaultValues", "data")
	fl := floats(dv.Field("m_FloatValues"))
	in := ints(dv.Field("m_IntValues"))
	bo := dv.Field("m_BoolValues")
	for i := range vals {
		p := &vals[i]
		h := uint32(p.Field("m_ID").Uint())
		par := model.Parameter{Hash: h, Type: model.ParamType(p.Field("m_Type").Int())}
		par.Name, _ = c.Names.Lookup(h)
		idx := int(p.Field("m_Index").Int())
		field := fmt.Sprintf("m_Values.data.m_ValueArray[%d].m_Index", i)
		bad := func(n int) error {
			return errf(ErrMalformed, "default value %d of %d", idx, n)
		}
		switch par.Type {
		case model.ParamFloat:
			if idx < 0 || idx >= len(fl) {
				return field, bad(len(fl))
			}
			par.Default = float64(fl[idx])
		case model.ParamInt:
			if idx < 0 || idx >= len(in) {
				return field, bad(len(in))
			}
			par.Default = float64(int32(in[idx]))
		case model.ParamBool, model.ParamTrigger:
			if idx < 0 || idx >= bo.Len() {
				return field, bad(bo.Len())
			}
			if bo.Index(idx).Bool() {
				par.Default = 1
			}
		}
		c.Parameters = append(c.Parameters, par)
	}
	return "", nil
}

// paramByHash maps a parameter hash to its index (-1 for 0 or unknown).
func paramByHash(c *model.Controller, h uint32) int {
	if h == 0 {
		return -1
	}
	return c.ParamIndex(h)
}

// blendParam finds the parameter a blend tree names (noneID for none): by
// its hash when a parameter has it, else by its index into m_Values.
func blendParam(c *model.Controller, id uint32) (int, error) {
	if id == noneID {
		return -1, nil
	}
	if p := c.ParamIndex(id); p >= 0 {
		return p, nil
	}
	if int64(id) >= int64(len(c.Parameters)) {
		return -1, errf(ErrMalformed, "blend parameter %d is neither the hash of one of the %d parameters nor an index among them", id, len(c.Parameters))
	}
	return int(id), nil
}

// layer reads one LayerConstant.
func layer(l *typetree.Value, c *model.Controller) (model.Layer, error) {
	if l == nil {
		return model.Layer{}, ErrMissingField
	}
	out := model.Layer{
		Hash:         uint32(l.Field("m_Binding").Uint()),
		StateMachine: int(l.Field("m_StateMachineIndex").Int()),
		MotionSet:    int(firstField(l, "m_StateMachineSynchronizedLayerIndex", "m_StateMachineMotionSetIndex").Int()),
		Weight:       l.Field("m_DefaultWeight").Float32(),
		IKPass:       l.Field("m_IKPass").Bool(),
		SyncedTiming: l.Field("m_SyncedLayerAffectsTiming").Bool(),
		SyncedLayer:  -1,
	}
	out.Name, _ = c.Names.Lookup(out.Hash)
	if m := l.Field("(int&)m_LayerBlendingMode"); m != nil {
		out.Blending = model.LayerBlending(m.Int())
	} else {
		out.Blending = model.LayerBlending(l.Field("m_LayerBlendingMode").Int())
	}
	for _, w := range l.Field("m_BodyMask").Fields() {
		out.BodyMask = append(out.BodyMask, uint32(w.Uint()))
	}
	for _, e := range l.Path("m_SkeletonMask", "data", "m_Data").Elems() {
		out.SkeletonMask = append(out.SkeletonMask, model.MaskElement{
			PathHash: uint32(e.Field("m_PathHash").Uint()),
			Weight:   e.Field("m_Weight").Float32(),
		})
	}
	if out.StateMachine < 0 || out.StateMachine >= len(c.StateMachines) {
		return out, errf(ErrMalformed, "state machine %d of %d", out.StateMachine, len(c.StateMachines))
	}
	if sets := c.StateMachines[out.StateMachine].MotionSets; out.MotionSet < 0 || (out.MotionSet >= sets && sets > 0) {
		return out, errf(ErrMalformed, "motion set %d of %d", out.MotionSet, sets)
	}
	return out, nil
}

// stateMachine reads one StateMachineConstant.
func stateMachine(sm *typetree.Value, c *model.Controller) (model.StateMachine, string, error) {
	var out model.StateMachine
	if sm == nil {
		return out, "", ErrMissingField
	}
	out.DefaultState = int(sm.Field("m_DefaultState").Int())
	out.MotionSets = int(firstField(sm, "m_SynchronizedLayerCount", "m_MotionSetCount").Int()) // renamed in 2018.2
	states := sm.Field("m_StateConstantArray").Elems()
	sels := sm.Field("m_SelectorStateConstantArray").Elems()
	nStates, nSel := len(states), len(sels)
	checkDest := func(d uint32) error {
		switch {
		case d < model.SelectorBase && int(d) < nStates:
		case d >= model.SelectorBase && int64(d-model.SelectorBase) < int64(nSel):
		case d == model.NoDestination:
		default:
			return errf(ErrMalformed, "destination %d: %d states, %d selector nodes", d, nStates, nSel)
		}
		return nil
	}
	for i := range states {
		st, field, err := state(states[i].Field("data"), c, checkDest)
		if err != nil {
			return out, fmt.Sprintf("m_StateConstantArray[%d].data.%s", i, field), err
		}
		out.States = append(out.States, st)
	}
	for i, tv := range sm.Field("m_AnyStateTransitionConstantArray").Elems() {
		tr, err := transition(tv.Field("data"), c, checkDest)
		if err != nil {
			return out, fmt.Sprintf("m_AnyStateTransitionConstantArray[%d].data", i), err
		}
		out.AnyState = append(out.AnyState, tr)
	}
	for i := range sels {
		s := sels[i].Field("data")
		sel := model.Selector{
			ID:           uint32(i),
			FullPathHash: uint32(s.Field("m_FullPathID").Uint()),
			IsEntry:      s.Field("m_IsEntry").Bool(),
		}
		for j, tv := range s.Field("m_TransitionConstantArray").Elems() {
			t := tv.Field("data")
			st := model.SelectorTransition{Destination: uint32(t.Field("m_Destination").Uint())}
			field := fmt.Sprintf("m_SelectorStateConstantArray[%d].data.m_TransitionConstantArray[%d].data", i, j)
			if err := checkDest(st.Destination); err != nil {
				return out, field + ".m_Destination", err
			}
			st.Conditions = conditions(t.Field("m_ConditionConstantArray"), c)
			sel.Transitions = append(sel.Transitions, st)
		}
		out.Selectors = append(out.Selectors, sel)
	}
	if field, err := checkSelectorGraph(out.Selectors); err != nil {
		return out, field, err
	}
	if nStates > 0 && (out.DefaultState < 0 || out.DefaultState >= nStates) {
		return out, "m_DefaultState", errf(ErrMalformed, "%d of %d states", out.DefaultState, nStates)
	}
	return out, "", nil
}

// MaxSelectorDepth bounds how many selector nodes (the entry and exit
// nodes of nested state machines) one transition may pass through before
// it reaches a state; Unity nests state machines a few levels deep.
const MaxSelectorDepth = 64

// checkSelectorGraph proves that following selector transitions always
// ends at a state: no selector leads back to itself (a cycle would make
// resolving a destination loop) and no chain is deeper than
// MaxSelectorDepth. Destinations are already in range.
func checkSelectorGraph(sels []model.Selector) (string, error) {
	const (
		unseen = iota
		open
		closed
	)
	state := make([]uint8, len(sels))
	depth := make([]int, len(sels)) // longest chain of selectors from here
	type frame struct{ sel, next int }
	for root := range sels {
		if state[root] != unseen {
			continue
		}
		stack := []frame{{root, 0}}
		state[root] = open
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			ts := sels[f.sel].Transitions
			if f.next == len(ts) {
				state[f.sel] = closed
				stack = stack[:len(stack)-1]
				if len(stack) > 0 {
					p := stack[len(stack)-1].sel
					depth[p] = max(depth[p], depth[f.sel]+1)
				}
				continue
			}
			j := f.next
			f.next++
			d := ts[j].Destination
			if d < model.SelectorBase || d == model.NoDestination {
				continue
			}
			c := int(d - model.SelectorBase)
			field := fmt.Sprintf("m_SelectorStateConstantArray[%d].data.m_TransitionConstantArray[%d].data.m_Destination", f.sel, j)
			switch state[c] {
			case open:
				return field, errf(ErrMalformed, "selector %d leads back to selector %d (a cycle)", f.sel, c)
			case closed:
				depth[f.sel] = max(depth[f.sel], depth[c]+1)
			default:
				if len(stack) >= MaxSelectorDepth {
					return field, errf(ErrMalformed, "selectors nest more than %d deep", MaxSelectorDepth)
				}
				state[c] = open
				stack = append(stack, frame{c, 0})
			}
			if depth[f.sel] >= MaxSelectorDepth {
				return field, errf(ErrMalformed, "selectors nest more than %d deep", MaxSelectorDepth)
			}
		}
	}
	return "", nil
}

// conditions reads a ConditionConstant array.
func conditions(v *typetree.Value, c *model.Controller) []model.Condition {
	var out []model.Condition
	for _, cv := range v.Elems() {
		d := cv.Field("data")
		h := uint32(d.Field("m_EventID").Uint())
		out = append(out, model.Condition{
			Mode:      model.ConditionMode(d.Field("m_ConditionMode").Int()),
			Param:     paramByHash(c, h),
			ParamHash: h,
			Threshold: d.Field("m_EventThreshold").Float32(),
			ExitTime:  d.Field("m_ExitTime").Float32(),
		})
	}
	return out
}

// transition reads a TransitionConstant.
func transition(t *typetree.Value, c *model.Controller, checkDest func(uint32) error) (model.Transition, error) {
	if t == nil {
		return model.Transition{}, ErrMissingField
	}
	tr := model.Transition{
		FullPathHash:        uint32(t.Field("m_FullPathID").Uint()),
		ID:                  uint32(t.Field("m_ID").Uint()),
		UserID:              uint32(t.Field("m_UserID").Uint()),
		Destination:         uint32(t.Field("m_DestinationState").Uint()),
		Conditions:          conditions(t.Field("m_ConditionConstantArray"), c),
		Duration:            t.Field("m_TransitionDuration").Float32(),
		Offset:              t.Field("m_TransitionOffset").Float32(),
		ExitTime:            t.Field("m_ExitTime").Float32(),
		HasExitTime:         t.Field("m_HasExitTime").Bool(),
		HasFixedDuration:    t.Field("m_HasFixedDuration").Bool(),
		CanTransitionToSelf: t.Field("m_CanTransitionToSelf").Bool(),
		OrderedInterruption: t.Field("m_OrderedInterruption").Bool(),
		Interruption:        model.InterruptionSource(t.Field("m_InterruptionSource").Int()),
	}
	tr.Name, _ = c.Names.Lookup(tr.ID)
	if err := checkDest(tr.Destination); err != nil {
		return tr, fmt.Errorf("m_DestinationState: %w", err)
	}
	return tr, nil
}

// state reads a StateConstant.
func state(s *typetree.Value, c *model.Controller, checkDest func(uint32) error) (model.State, string, error) {
	if s == nil {
		return model.State{}, "", ErrMissingField
	}
	st := model.State{
		NameHash:         uint32(s.Field("m_NameID").Uint()),
		PathHash:         uint32(s.Field("m_PathID").Uint()),
		FullPathHash:     uint32(s.Field("m_FullPathID").Uint()),
		TagHash:          uint32(s.Field("m_TagID").Uint()),
		Speed:            s.Field("m_Speed").Float32(),
		CycleOffset:      s.Field("m_CycleOffset").Float32(),
		Mirror:           s.Field("m_Mirror").Bool(),
		Loop:             s.Field("m_Loop").Bool(),
		WriteDefaults:    s.Field("m_WriteDefaultValues").Bool(),
		IKOnFeet:         s.Field("m_IKOnFeet").Bool(),
		SpeedParam:       paramByHash(c, uint32(s.Field("m_SpeedParamID").Uint())),
		MirrorParam:      paramByHash(c, uint32(s.Field("m_MirrorParamID").Uint())),
		CycleOffsetParam: paramByHash(c, uint32(s.Field("m_CycleOffsetParamID").Uint())),
		TimeParam:        paramByHash(c, uint32(s.Field("m_TimeParamID").Uint())),
	}
	st.Name, _ = c.Names.Lookup(st.NameHash)
	for i, tv := range s.Field("m_TransitionConstantArray").Elems() {
		tr, err := transition(tv.Field("data"), c, checkDest)
		if err != nil {
			return st, fmt.Sprintf("m_TransitionConstantArray[%d].data", i), err
		}
		st.Transitions = append(st.Transitions, tr)
	}
	trees := s.Field("m_BlendTreeConstantArray").Elems()
	// Motion sets may share a tree; each is converted once, so that a long
	// index array naming one big tree cannot multiply the tree's size.
	done := map[int]model.BlendTree{}
	for i, ti := range ints(s.Field("m_BlendTreeConstantIndexArray")) {
		if ti == -1 || int64(ti) == noneID {
			st.Motions = append(st.Motions, model.BlendTree{})
			continue
		}
		if ti < 0 || ti >= len(trees) {
			return st, fmt.Sprintf("m_BlendTreeConstantIndexArray[%d]", i), errf(ErrMalformed, "tree %d of %d", ti, len(trees))
		}
		if bt, ok := done[ti]; ok {
			st.Motions = append(st.Motions, bt)
			continue
		}
		bt, field, err := blendTree(trees[ti].Field("data"), c)
		done[ti] = bt
		if err != nil {
			return st, fmt.Sprintf("m_BlendTreeConstantArray[%d].data.%s", ti, field), err
		}
		st.Motions = append(st.Motions, bt)
	}
	return st, "", nil
}

// MaxBlendTreeDepth bounds how deeply blend trees nest (Unity projects
// rarely nest more than a few levels), so that whatever walks a tree
// recursively stays shallow.
const MaxBlendTreeDepth = 256

// blendTree reads a BlendTreeConstant (m_NodeArray; node 0 is the root).
func blendTree(t *typetree.Value, c *model.Controller) (model.BlendTree, string, error) {
	var bt model.BlendTree
	if t == nil {
		return bt, "", ErrMissingField
	}
	nodes := t.Field("m_NodeArray").Elems()
	for i := range nodes {
		n := nodes[i].Field("data")
		if n == nil {
			n = &nodes[i] // older layouts store the node inline
		}
		field := fmt.Sprintf("m_NodeArray[%d].data", i)
		bn := model.BlendNode{
			Type:        model.BlendType(n.Field("m_BlendType").Int()),
			Children:    ints(n.Field("m_ChildIndices")),
			Duration:    n.Field("m_Duration").Float32(),
			CycleOffset: n.Field("m_CycleOffset").Float32(),
			Mirror:      n.Field("m_Mirror").Bool(),
			Clip:        model.NoClip,
		}
		var err error
		if bn.Param, err = blendParam(c, uint32(n.Field("m_BlendEventID").Uint())); err != nil {
			return bt, field + ".m_BlendEventID", err
		}
		bn.ParamY = -1
		if y := n.Field("m_BlendEventYID"); y != nil {
			if bn.ParamY, err = blendParam(c, uint32(y.Uint())); err != nil {
				return bt, field + ".m_BlendEventYID", err
			}
		}
		for _, ch := range bn.Children {
			if ch < 0 || ch >= len(nodes) {
				return bt, field + ".m_ChildIndices", errf(ErrMalformed, "child %d of %d nodes", ch, len(nodes))
			}
		}
		d1 := n.Path("m_Blend1dData", "data")
		if d1 == nil {
			d1 = n
		}
		bn.Thresholds = floats(d1.Field("m_ChildThresholdArray"))
		d2 := n.Path("m_Blend2dData", "data")
		if d2 == nil {
			d2 = n
		}
		for _, p := range d2.Field("m_ChildPositionArray").Elems() {
			bn.Positions = append(bn.Positions, [2]float32{p.Field("x").Float32(), p.Field("y").Float32()})
		}
		if dd := n.Path("m_BlendDirectData", "data"); dd != nil {
			for j, id := range uint32s(dd.Field("m_ChildBlendEventIDArray")) {
				p, err := blendParam(c, id)
				if err != nil {
					return bt, fmt.Sprintf("%s.m_BlendDirectData.data.m_ChildBlendEventIDArray[%d]", field, j), err
				}
				bn.ChildParams = append(bn.ChildParams, p)
			}
			bn.Normalize = dd.Field("m_NormalizedBlendValues").Bool()
		}
		nc := len(bn.Children)
		if nc > 0 {
			switch {
			case bn.Type == model.Blend1D && len(bn.Thresholds) != nc:
				return bt, field, errf(ErrMalformed, "%d thresholds for %d children", len(bn.Thresholds), nc)
			case bn.Type >= model.Blend2DSimpleDirectional && bn.Type <= model.Blend2DFreeformCartesian && len(bn.Positions) != nc:
				return bt, field, errf(ErrMalformed, "%d positions for %d children", len(bn.Positions), nc)
			case bn.Type == model.BlendDirect && len(bn.ChildParams) != nc:
				return bt, field, errf(ErrMalformed, "%d blend parameters for %d children", len(bn.ChildParams), nc)
			}
		} else if id := uint32(n.Field("m_ClipID").Uint()); id != noneID {
			if int64(id) >= int64(len(c.Clips)) {
				return bt, field + ".m_ClipID", errf(ErrMalformed, "clip %d of %d", id, len(c.Clips))
			}
			bn.Clip = int(id)
		}
		bt.Nodes = append(bt.Nodes, bn)
	}
	// The nodes must form a tree below node 0 (no node reached twice), so
	// that weight evaluation terminates.
	if len(bt.Nodes) > 0 {
		seen := make([]bool, len(bt.Nodes))
		depth := make([]int, len(bt.Nodes))
		stack := []int{0}
		seen[0] = true
		for len(stack) > 0 {
			i := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, ch := range bt.Nodes[i].Children {
				field := fmt.Sprintf("m_NodeArray[%d].data.m_ChildIndices", i)
				if seen[ch] {
					return bt, field, errf(ErrMalformed, "node %d reached twice (not a tree)", ch)
				}
				if depth[ch] = depth[i] + 1; depth[ch] > MaxBlendTreeDepth {
					return bt, field, errf(ErrMalformed, "node %d is more than %d levels deep", ch, MaxBlendTreeDepth)
				}
				seen[ch] = true
				stack = append(stack, ch)
			}
		}
	}
	return bt, "", nil
}
