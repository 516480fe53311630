package animator

import (
	"fmt"
	"math"
	"testing"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
)

// ctl builds synthetic controllers for tests.
type ctl struct {
	c     *model.Controller
	clips []Clip
}

func newCtl() *ctl {
	return &ctl{c: &model.Controller{Name: "test", StateMachines: []model.StateMachine{{}},
		Layers: []model.Layer{{Name: "Base", Weight: 1, SyncedLayer: -1}}}}
}

func (b *ctl) param(name string, t model.ParamType, def float64) int {
	b.c.Parameters = append(b.c.Parameters, model.Parameter{Name: name, Hash: model.PathHash(name), Type: t, Default: def})
	return len(b.c.Parameters) - 1
}

// clip adds a clip of the given length and returns its index.
func (b *ctl) clip(length float32, loop bool, events ...float32) int {
	var ev []model.Event
	for _, t := range events {
		ev = append(ev, model.Event{Time: t, Function: "ev"})
	}
	b.clips = append(b.clips, Clip{Length: length, Loop: loop, Events: ev})
	b.c.Clips = append(b.c.Clips, model.Ref{PathID: int64(len(b.c.Clips) + 1)})
	return len(b.c.Clips) - 1
}

// state adds a state to machine m playing clip (NoClip for none).
func (b *ctl) state(m int, name string, clip int) int {
	sm := &b.c.StateMachines[m]
	sm.States = append(sm.States, model.State{Name: name, NameHash: model.PathHash(name), Speed: 1,
		SpeedParam: -1, MirrorParam: -1, CycleOffsetParam: -1, TimeParam: -1,
		Motions: []model.BlendTree{{Nodes: []model.BlendNode{{Clip: clip, Param: -1, ParamY: -1}}}}})
	return len(sm.States) - 1
}

func (b *ctl) st(m, s int) *model.State { return &b.c.StateMachines[m].States[s] }

// trans adds a transition from state s (or any-state when s < 0).
func (b *ctl) trans(m, s, dst int, conds ...model.Condition) *model.Transition {
	t := model.Transition{Destination: uint32(dst), Conditions: conds, Duration: 0.25, HasFixedDuration: true,
		CanTransitionToSelf: true, OrderedInterruption: true}
	sm := &b.c.StateMachines[m]
	if s < 0 {
		sm.AnyState = append(sm.AnyState, t)
		return &sm.AnyState[len(sm.AnyState)-1]
	}
	sm.States[s].Transitions = append(sm.States[s].Transitions, t)
	return &sm.States[s].Transitions[len(sm.States[s].Transitions)-1]
}

func cond(mode model.ConditionMode, p int, th float32) model.Condition {
	return model.Condition{Mode: mode, Param: p, Threshold: th}
}

func (b *ctl) build(t testing.TB) *Animator {
	t.Helper()
	a, err := New(b.c, b.clips)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// tickUntil ticks at dt until f holds, returning the ticks taken (-1 if not
// within max).
func tickUntil(a *Animator, dt float32, max int, f func() bool) int {
	for i := 1; i <= max; i++ {
		a.Tick(float64(dt))
		if f() {
			return i
		}
	}
	return -1
}

func TestConditionModes(t *testing.T) {
	tests := []struct {
		name string
		typ  model.ParamType
		mode model.ConditionMode
		th   float32
		val  any
		want bool
	}{
		{"if on a true bool fires", model.ParamBool, model.CondIf, 0, true, true},
		{"if on a false bool waits", model.ParamBool, model.CondIf, 0, false, false},
		{"if-not on a false bool fires", model.ParamBool, model.CondIfNot, 0, false, true},
		{"if-not on a true bool waits", model.ParamBool, model.CondIfNot, 0, true, false},
		{"if on a set trigger fires", model.ParamTrigger, model.CondIf, 0, true, true},
		{"greater than threshold fires", model.ParamFloat, model.CondGreater, 0.5, 0.6, true},
		{"greater at threshold waits", model.ParamFloat, model.CondGreater, 0.5, 0.5, false},
		{"less than threshold fires", model.ParamFloat, model.CondLess, 0.5, 0.4, true},
		{"less at threshold waits", model.ParamFloat, model.CondLess, 0.5, 0.5, false},
		{"int greater fires", model.ParamInt, model.CondGreater, 2, 3.0, true},
		{"int less waits", model.ParamInt, model.CondLess, 2, 2.0, false},
		{"int equals fires", model.ParamInt, model.CondEquals, 3, 3.0, true},
		{"int equals waits", model.ParamInt, model.CondEquals, 3, 4.0, false},
		{"int not-equal fires", model.ParamInt, model.CondNotEqual, 3, 4.0, true},
		{"int not-equal waits", model.ParamInt, model.CondNotEqual, 3, 3.0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := newCtl()
			p := b.param("p", tc.typ, 0)
			c := b.clip(1, true)
			s0, s1 := b.state(0, "A", c), b.state(0, "B", c)
			b.trans(0, s0, s1, cond(tc.mode, p, tc.th)).Duration = 0
			a := b.build(t)
			if err := a.Set("p", tc.val); err != nil {
				t.Fatal(err)
			}
			a.Tick(0.01)
			if got := a.Layer(0).State == s1; got != tc.want {
				t.Errorf("fired %v, want %v", got, tc.want)
			}
		})
	}
}

func TestExitTime(t *testing.T) {
	tests := []struct {
		name     string
		exit     float32
		loop     bool
		setAt    int // tick at which the bool is set (0: no condition)
		wantTick int
	}{
		{"exit time alone fires when crossed", 0.75, true, 0, 8},
		{"exit time above 1 fires once when crossed", 2.05, true, 0, 21},
		{"exit time below 1 waits for the next loop when the condition comes late", 0.75, true, 9, 18},
		{"exit time below 1 on a clamped clip still counts loops", 0.75, false, 9, 18},
		{"condition already true fires at the exit time", 0.75, true, 1, 8},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := newCtl()
			go_ := b.param("go", model.ParamBool, 0)
			c := b.clip(1, tc.loop)
			s0, s1 := b.state(0, "A", c), b.state(0, "B", c)
			var conds []model.Condition
			if tc.setAt > 0 {
				conds = append(conds, cond(model.CondIf, go_, 0))
			}
			tr := b.trans(0, s0, s1, conds...)
			tr.HasExitTime, tr.ExitTime, tr.Duration = true, tc.exit, 0
			a := b.build(t)
			got := -1
			for i := 1; i <= 40 && got < 0; i++ {
				if i == tc.setAt {
					a.SetBool(go_, true)
				}
				a.Tick(0.1)
				if a.Layer(0).State == s1 {
					got = i
				}
			}
			if got != tc.wantTick {
				t.Errorf("fired at tick %d, want %d", got, tc.wantTick)
			}
		})
	}
}

func TestTransitionDurationAndOffset(t *testing.T) {
	b := newCtl()
	go_ := b.param("go", model.ParamTrigger, 0)
	c1, c2 := b.clip(2, true), b.clip(4, true)
	s0, s1 := b.state(0, "A", c1), b.state(0, "B", c2)
	fixed := b.trans(0, s0, s1, cond(model.CondIf, go_, 0))
	fixed.Duration, fixed.Offset = 0.5, 0.25
	a := b.build(t)
	a.SetTrigger(go_)
	a.Tick(0.1)
	li := a.Layer(0)
	if !li.InTransition || li.Next != s1 || li.NextNormalizedTime != 0.25 || li.Transition != 0 {
		t.Fatalf("after the trigger: %+v", li)
	}
	n := tickUntil(a, 0.1, 20, func() bool { return !a.Layer(0).InTransition })
	if n != 5 {
		t.Errorf("a 0.5 s fixed transition took %d ticks of 0.1 s", n)
	}
	// Destination advanced 0.5 s of a 4 s clip from 0.25.
	if got := a.Layer(0).NormalizedTime; math.Abs(float64(got)-(0.25+0.5/4)) > 1e-5 {
		t.Errorf("destination time %v", got)
	}

	// Normalised duration: 0.5 of the 2 s source = 1 s.
	fixed.HasFixedDuration, fixed.Offset = false, 0
	a = b.build(t)
	a.SetTrigger(go_)
	a.Tick(0.1)
	n = tickUntil(a, 0.1, 40, func() bool { return !a.Layer(0).InTransition })
	if n != 10 {
		t.Errorf("a 0.5 normalised transition of a 2 s state took %d ticks of 0.1 s", n)
	}
}

// interruptCtl: A has transitions [A→C on t2, A→B on t1, A→D on t3], B has
// B→E on t4; A→B lasts 1 s with the given interruption settings.
func interruptCtl(src model.InterruptionSource, ordered bool) (*ctl, [4]int) {
	b := newCtl()
	var p [4]int
	for i, n := range []string{"t1", "t2", "t3", "t4"} {
		p[i] = b.param(n, model.ParamTrigger, 0)
	}
	c := b.clip(1, true)
	A, B, C, D, E := b.state(0, "A", c), b.state(0, "B", c), b.state(0, "C", c), b.state(0, "D", c), b.state(0, "E", c)
	b.trans(0, A, C, cond(model.CondIf, p[1], 0))
	ab := b.trans(0, A, B, cond(model.CondIf, p[0], 0))
	ab.Duration, ab.Interruption, ab.OrderedInterruption = 1, src, ordered
	b.trans(0, A, D, cond(model.CondIf, p[2], 0))
	b.trans(0, B, E, cond(model.CondIf, p[3], 0))
	return b, p
}

func TestInterruption(t *testing.T) {
	const A, B, C, D, E = 0, 1, 2, 3, 4
	tests := []struct {
		name    string
		src     model.InterruptionSource
		ordered bool
		trigger int // index into t1..t4
		next    int // destination after the interrupting tick
		cur     int
	}{
		{"none ignores the source", model.InterruptNone, false, 1, B, A},
		{"none ignores the destination", model.InterruptNone, false, 3, B, A},
		{"source interrupts with an earlier transition", model.InterruptSource, true, 1, C, A},
		{"ordered source ignores a later transition", model.InterruptSource, true, 2, B, A},
		{"unordered source takes a later transition", model.InterruptSource, false, 2, D, A},
		{"source ignores the destination", model.InterruptSource, false, 3, B, A},
		{"destination interrupts from the destination", model.InterruptDestination, false, 3, E, B},
		{"destination ignores the source", model.InterruptDestination, false, 1, B, A},
		{"source then destination takes either", model.InterruptSourceThenDestination, false, 3, E, B},
		{"destination then source takes either", model.InterruptDestinationThenSource, false, 1, C, A},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, p := interruptCtl(tc.src, tc.ordered)
			a := b.build(t)
			a.SetTrigger(p[0])
			a.Tick(0.1)
			a.Tick(0.1)
			if li := a.Layer(0); li.Next != B || li.Interrupted {
				t.Fatalf("A→B not running: %+v", li)
			}
			a.SetTrigger(p[tc.trigger])
			a.Tick(0.1)
			li := a.Layer(0)
			if li.Next != tc.next || li.State != tc.cur {
				t.Errorf("after interruption: state %d next %d, want %d and %d", li.State, li.Next, tc.cur, tc.next)
			}
			if interrupted := tc.next != B; li.Interrupted != interrupted {
				t.Errorf("interrupted %v, want %v", li.Interrupted, interrupted)
			}
			if li.Interrupted {
				var sum float32
				for _, c := range a.Contributions(0, nil) {
					sum += c.Weight
				}
				if math.Abs(float64(sum-1)) > 1e-5 {
					t.Errorf("frozen blend weighs %v", sum)
				}
			}
		})
	}
}

func TestAnyStateAndTransitionToSelf(t *testing.T) {
	b := newCtl()
	hit := b.param("hit", model.ParamTrigger, 0)
	c := b.clip(1, true)
	A, X := b.state(0, "A", c), b.state(0, "X", c)
	any := b.trans(0, -1, X, cond(model.CondIf, hit, 0))
	any.Duration, any.CanTransitionToSelf = 0, false
	a := b.build(t)
	if a.Layer(0).State != A {
		t.Fatal("not in A")
	}
	a.SetTrigger(hit)
	a.Tick(0.1)
	if a.Layer(0).State != X {
		t.Fatalf("any-state did not fire: %+v", a.Layer(0))
	}
	a.Tick(0.1)
	before := a.Layer(0).NormalizedTime
	a.SetTrigger(hit)
	a.Tick(0.1)
	if li := a.Layer(0); li.NormalizedTime <= before {
		t.Errorf("any-state restarted X though it may not transition to self: %+v", li)
	}
	if a.Value(hit) != 1 {
		t.Error("a trigger no transition used should stay set")
	}
	any.CanTransitionToSelf = true
	a = b.build(t)
	a.SetTrigger(hit)
	a.Tick(0.1)
	a.Tick(0.1)
	a.SetTrigger(hit)
	a.Tick(0.1)
	if li := a.Layer(0); li.State != X || li.NormalizedTime != 0 {
		t.Errorf("any-state to self should restart X: %+v", li)
	}
}

func TestTriggersAreConsumedOnceButSeenByEveryLayer(t *testing.T) {
	b := newCtl()
	go_ := b.param("go", model.ParamTrigger, 0)
	c := b.clip(1, true)
	A, B := b.state(0, "A", c), b.state(0, "B", c)
	b.trans(0, A, B, cond(model.CondIf, go_, 0)).Duration = 0
	b.trans(0, B, A, cond(model.CondIf, go_, 0)).Duration = 0
	// A second layer with its own machine reacting to the same trigger.
	b.c.StateMachines = append(b.c.StateMachines, model.StateMachine{})
	b.c.Layers = append(b.c.Layers, model.Layer{Name: "Second", StateMachine: 1, Weight: 1, SyncedLayer: -1})
	A2, B2 := b.state(1, "A2", c), b.state(1, "B2", c)
	b.trans(1, A2, B2, cond(model.CondIf, go_, 0)).Duration = 0
	a := b.build(t)
	a.SetTrigger(go_)
	a.Tick(0.1)
	if a.Layer(0).State != B || a.Layer(1).State != B2 {
		t.Fatalf("both layers should react: %+v %+v", a.Layer(0), a.Layer(1))
	}
	if a.Value(go_) != 0 {
		t.Error("trigger not consumed")
	}
	a.Tick(0.1)
	if a.Layer(0).State != B {
		t.Error("a consumed trigger fired again")
	}
}

func TestSelectors(t *testing.T) {
	b := newCtl()
	mode := b.param("mode", model.ParamInt, 2)
	c := b.clip(1, true)
	A, B, C := b.state(0, "A", c), b.state(0, "B", c), b.state(0, "C", c)
	m := &b.c.StateMachines[0]
	m.DefaultState = A
	m.Selectors = []model.Selector{
		{IsEntry: true, Transitions: []model.SelectorTransition{
			{Destination: uint32(B), Conditions: []model.Condition{cond(model.CondEquals, mode, 2)}},
			{Destination: uint32(A)},
		}},
		{IsEntry: false, Transitions: []model.SelectorTransition{{Destination: model.SelectorBase}}},
	}
	b.trans(0, B, int(model.SelectorBase+1), cond(model.CondEquals, mode, 3)).Duration = 0
	b.trans(0, A, C, cond(model.CondEquals, mode, 4)).Duration = 0
	a := b.build(t)
	if a.Layer(0).State != B {
		t.Fatalf("entry with mode 2 should enter B, in %d", a.Layer(0).State)
	}
	a.SetInt(mode, 3)
	a.Tick(0.1)
	if a.Layer(0).State != A {
		t.Fatalf("B→exit→entry with mode 3 should reach A, in %d", a.Layer(0).State)
	}

	// An empty machine whose entry leads nowhere plays nothing.
	e := newCtl()
	e.c.StateMachines[0].Selectors = []model.Selector{{IsEntry: true, Transitions: []model.SelectorTransition{{Destination: model.NoDestination}}}}
	ea := e.build(t)
	ea.Tick(0.1)
	if li := ea.Layer(0); li.State != -1 {
		t.Errorf("empty machine: %+v", li)
	}
}

func TestStateTimeSpeedCycleOffsetAndTimeParameter(t *testing.T) {
	b := newCtl()
	sp := b.param("speed", model.ParamFloat, 2)
	co := b.param("offset", model.ParamFloat, 0.25)
	tm := b.param("time", model.ParamFloat, 0.4)
	c := b.clip(2, true)
	A := b.state(0, "A", c)
	st := b.st(0, A)
	st.Speed, st.SpeedParam, st.CycleOffsetParam = 1.5, sp, co
	a := b.build(t)
	a.Tick(0.5)
	// 0.5 s × 1.5 × 2 over a 2 s clip = 0.75.
	if li := a.Layer(0); math.Abs(float64(li.NormalizedTime)-0.75) > 1e-6 {
		t.Errorf("normalised time %v, want 0.75", li.NormalizedTime)
	}
	// Clip at (0.75 + 0.25) wrapped = 0 s.
	if cs := a.Contributions(0, nil); len(cs) != 1 || cs[0].Time != 0 {
		t.Errorf("contributions %+v", cs)
	}
	st.TimeParam = tm
	a = b.build(t)
	a.Tick(0.5)
	if li := a.Layer(0); li.NormalizedTime != 0.4 {
		t.Errorf("time parameter: normalised time %v", li.NormalizedTime)
	}
}

func TestBlendTreeStateLengthIsTheWeightedLength(t *testing.T) {
	b := newCtl()
	p := b.param("blend", model.ParamFloat, 0.5)
	c1, c2 := b.clip(1, true), b.clip(3, true)
	A := b.state(0, "A", c1)
	b.st(0, A).Motions[0] = model.BlendTree{Nodes: []model.BlendNode{
		{Type: model.Blend1D, Param: p, ParamY: -1, Children: []int{1, 2}, Thresholds: []float32{0, 1}},
		{Clip: c1, Param: -1, ParamY: -1}, {Clip: c2, Param: -1, ParamY: -1},
	}}
	a := b.build(t)
	if n := a.StateLength(0, A); n != 2 {
		t.Errorf("length %v, want 2", n)
	}
	a.Tick(0.5)
	if li := a.Layer(0); li.NormalizedTime != 0.25 {
		t.Errorf("normalised time %v, want 0.25", li.NormalizedTime)
	}
}

func TestEventsFireOncePerLoopWithWeights(t *testing.T) {
	b := newCtl()
	go_ := b.param("go", model.ParamTrigger, 0)
	c1 := b.clip(1, true, 0, 0.5)
	c2 := b.clip(1, false, 0.2, 1)
	A, B := b.state(0, "A", c1), b.state(0, "B", c2)
	tr := b.trans(0, A, B, cond(model.CondIf, go_, 0))
	tr.Duration = 1
	a := b.build(t)
	var got []Event
	for i := 0; i < 20; i++ { // 2.5 s: events at 0, 0.5, 1, 1.5, 2, 2.5
		a.Tick(0.125)
		got = append(got, a.Events()...)
	}
	if len(got) != 6 {
		t.Fatalf("%d events in 2.5 s of a 1 s loop with events at 0 and 0.5: %+v", len(got), got)
	}
	a.SetTrigger(go_)
	a.Tick(0.125) // the transition starts at 2.625
	got = got[:0]
	for i := 0; i < 2; i++ { // A 2.625→2.875 (no event); B 0→0.25 (event at 0.2)
		a.Tick(0.125)
		got = append(got, a.Events()...)
	}
	if len(got) != 1 || got[0].State != B || got[0].Event.Time != 0.2 {
		t.Fatalf("during the transition: %+v", got)
	}
	if w := got[0].Weight; w != 0.25 {
		t.Errorf("event weight %v, want the destination's 0.25 share at the end of the tick", w)
	}
	got = got[:0]
	for i := 0; i < 12; i++ {
		a.Tick(0.125)
		got = append(got, a.Events()...)
	}
	var ends int
	for _, e := range got {
		if e.State == B && e.Event.Time == 1 {
			ends++
		}
	}
	if ends != 1 {
		t.Errorf("an event at the end of a clamped clip fired %d times", ends)
	}
}

func TestSyncedLayerFollowsItsSource(t *testing.T) {
	b := newCtl()
	go_ := b.param("go", model.ParamTrigger, 0)
	c1, c2, c3, c4 := b.clip(1, true), b.clip(1, true), b.clip(2, true), b.clip(2, true)
	A, B := b.state(0, "A", c1), b.state(0, "B", c2)
	b.st(0, A).Motions = append(b.st(0, A).Motions, model.BlendTree{Nodes: []model.BlendNode{{Clip: c3, Param: -1, ParamY: -1}}})
	b.st(0, B).Motions = append(b.st(0, B).Motions, model.BlendTree{Nodes: []model.BlendNode{{Clip: c4, Param: -1, ParamY: -1}}})
	b.trans(0, A, B, cond(model.CondIf, go_, 0))
	b.c.Layers = append(b.c.Layers, model.Layer{Name: "Synced", StateMachine: 0, MotionSet: 1, Weight: 0.5, SyncedLayer: 0})
	a := b.build(t)
	a.SetTrigger(go_)
	a.Tick(0.1)
	a.Tick(0.1)
	l0, l1 := a.Layer(0), a.Layer(1)
	if l1.State != l0.State || l1.Next != l0.Next || l1.Transition != l0.Transition || l1.Weight != 0.5 {
		t.Errorf("synced layer %+v, source %+v", l1, l0)
	}
	cs := a.Contributions(1, nil)
	if len(cs) != 2 || cs[0].Clip != c3 || cs[1].Clip != c4 {
		t.Errorf("synced layer plays its own motions: %+v", cs)
	}
}

// linear is a root mover that moves forward at 1 m/s through a clip of
// the given length.
type linear float32

func (l linear) ExtractRootMotion(from, to float32, loops int) anim.RootMotion {
	d := to - from + float32(loops)*float32(l)
	return anim.RootMotion{T: geom.Vec3{Z: d}, R: geom.Quat{W: 1}}
}

// linearRoot gives every clip the root motion of linear.
func linearRoot(clips []Clip) []Clip {
	out := append([]Clip(nil), clips...)
	for i := range out {
		out[i].Root, out[i].Motion = RootSource{Moves: true}, linear(out[i].Length)
	}
	return out
}

// travel ticks a n times by dt and returns the root's translations summed.
func travel(a *Animator, n int, dt float32) geom.Vec3 {
	var sum geom.Vec3
	for i := 0; i < n; i++ {
		a.Tick(float64(dt))
		sum = sum.Add(a.RootMotion().T)
	}
	return sum
}

func TestRootMotionAccumulatesThroughLoopsAndLayers(t *testing.T) {
	b := newCtl()
	c := b.clip(0.7, true)
	b.state(0, "A", c)
	d, err := Compile(b.c, linearRoot(b.clips))
	if err != nil {
		t.Fatal(err)
	}
	a := NewAnimator(d)
	if z := travel(a, 60, 1.0/60).Z; math.Abs(float64(z)-1) > 1e-4 {
		t.Errorf("moved %v m in 1 s at 1 m/s", z)
	}
}

func TestCompileRejectsBadIndexes(t *testing.T) {
	tests := []struct {
		name string
		mut  func(b *ctl)
	}{
		{"destination state out of range", func(b *ctl) { b.trans(0, 0, 9) }},
		{"destination selector out of range", func(b *ctl) { b.trans(0, 0, int(model.SelectorBase+3)) }},
		{"state transition to nowhere", func(b *ctl) { b.trans(0, 0, int(noDestination)) }},
		{"condition parameter out of range", func(b *ctl) { b.trans(0, 0, 0, cond(model.CondIf, 5, 0)) }},
		{"layer machine out of range", func(b *ctl) { b.c.Layers[0].StateMachine = 4 }},
		{"default state out of range", func(b *ctl) { b.c.StateMachines[0].DefaultState = 7 }},
		{"synced layer chain", func(b *ctl) {
			b.c.Layers = append(b.c.Layers, model.Layer{SyncedLayer: 2}, model.Layer{SyncedLayer: 1})
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := newCtl()
			b.state(0, "A", b.clip(1, true))
			tc.mut(b)
			if _, err := Compile(b.c, b.clips); err == nil {
				t.Error("accepted")
			}
		})
	}
}

func TestTickDoesNotAllocate(t *testing.T) {
	b, p := interruptCtl(model.InterruptSource, false)
	b.clips[0].Events = []model.Event{{Time: 0.5}}
	a := b.build(t)
	a.Tick(0.5)
	a.Tick(0.5) // grow the event buffer
	i := 0
	n := testing.AllocsPerRun(200, func() {
		if i%30 == 0 {
			a.SetTrigger(p[i/30%3])
		}
		a.Tick(1.0 / 60)
		i++
	})
	if n != 0 {
		t.Errorf("%v allocs per tick", n)
	}
}

func TestPlayAndCrossFade(t *testing.T) {
	b := newCtl()
	c := b.clip(1, true)
	A, B, C := b.state(0, "A", c), b.state(0, "B", c), b.state(0, "C", c)
	a := b.build(t)
	if !a.Play(0, B, 0.5) || a.Layer(0).State != B || a.Layer(0).NormalizedTime != 0.5 {
		t.Fatalf("Play: %+v", a.Layer(0))
	}
	a.Tick(0.25)
	if !a.CrossFade(0, C, 0.5, 0.1) {
		t.Fatal("CrossFade refused")
	}
	a.Tick(0.25)
	if li := a.Layer(0); li.State != B || li.Next != C || li.Transition != 0.5 || math.Abs(float64(li.NextNormalizedTime)-0.35) > 1e-6 {
		t.Errorf("half way: %+v", li)
	}
	a.CrossFade(0, A, 1, 0) // interrupts: the B/C blend freezes
	a.Tick(0.25)
	if li := a.Layer(0); li.State != B || li.Next != A || !li.Interrupted {
		t.Errorf("after a second cross-fade: %+v", li)
	}
	a.Tick(1)
	if li := a.Layer(0); li.State != A || li.InTransition {
		t.Errorf("at the end: %+v", li)
	}
	if a.Play(0, 9, 0) || a.Play(3, 0, 0) {
		t.Error("Play accepted a missing state or layer")
	}
}

func TestHostileParametersStayFinite(t *testing.T) {
	b := newCtl()
	w := b.param("w", model.ParamFloat, 0)
	sp := b.param("speed", model.ParamFloat, 1)
	c1, c2 := b.clip(1, true, 0.5), b.clip(2, true, 0.5)
	A := b.state(0, "A", c1)
	st := b.st(0, A)
	st.SpeedParam = sp
	st.Motions[0] = *treeDirect(false, 2)
	st.Motions[0].Nodes[0].ChildParams = []int{w, w}
	st.Motions[0].Nodes[1].Clip, st.Motions[0].Nodes[2].Clip = c1, c2
	s := testSkeleton(t)
	b.clips[c1].Pose, b.clips[c2].Pose = moveClip(t, s, "one", 1, 1, 90, true), moveClip(t, s, "two", 2, 1, 90, true)
	d, err := Compile(b.c, b.clips)
	if err != nil {
		t.Fatal(err)
	}
	a := NewAnimator(d)
	p, err := NewPoser(d, s)
	if err != nil {
		t.Fatal(err)
	}
	sc, pose := p.NewScratch(), make([]geom.Transform, s.Len())
	check := func(step string) {
		t.Helper()
		li := a.Layer(0)
		if !geom.Finite(li.NormalizedTime) || !geom.Finite(li.NextNormalizedTime) || !geom.Finite(li.Weight) || !geom.Finite(li.Transition) {
			t.Errorf("%s: layer %+v", step, li)
		}
		for _, c := range a.Contributions(0, nil) {
			if !geom.Finite(c.Time) || !geom.Finite(c.Weight) {
				t.Errorf("%s: contribution %+v", step, c)
			}
		}
		p.Pose(a, sc, pose)
		for j, x := range pose {
			if !x.T.Finite() || !x.R.Finite() || !x.S.Finite() {
				t.Errorf("%s: joint %d posed at %+v", step, j, x)
			}
		}
	}
	for _, v := range []float32{1e-30, -1, float32(math.Inf(1)), float32(math.NaN())} {
		a.SetFloat(w, v)
		a.SetFloat(sp, 1e30)
		a.Tick(1)
		check(fmt.Sprintf("w=%v after a tick", v))
		a.Tick(float64(float32(math.NaN())))
		check(fmt.Sprintf("w=%v after a NaN tick", v))
	}
}

func TestSyncedTimingBalancesLengths(t *testing.T) {
	b := newCtl()
	c1, c2 := b.clip(1, true), b.clip(3, true)
	A := b.state(0, "A", c1)
	b.st(0, A).Motions = append(b.st(0, A).Motions, model.BlendTree{Nodes: []model.BlendNode{{Clip: c2, Param: -1, ParamY: -1}}})
	b.c.Layers = append(b.c.Layers, model.Layer{Name: "Synced", MotionSet: 1, Weight: 0.5, SyncedLayer: 0, SyncedTiming: true})
	a := b.build(t)
	a.Tick(0.5)
	// Length 0.5·1 + 0.5·3 = 2 s: 0.5 s is a quarter.
	if li := a.Layer(0); li.NormalizedTime != 0.25 || a.Layer(1).NormalizedTime != 0.25 {
		t.Errorf("normalised times %v and %v, want 0.25", li.NormalizedTime, a.Layer(1).NormalizedTime)
	}
	b.c.Layers[1].SyncedTiming = false
	a = b.build(t)
	a.Tick(0.5)
	if li := a.Layer(0); li.NormalizedTime != 0.5 {
		t.Errorf("without timing: %v, want 0.5", li.NormalizedTime)
	}
}

func TestExitCrossed(t *testing.T) {
	tests := []struct {
		name      string
		prev, now float32
		first     bool
		exit      float32
		want      bool
	}{
		{"crossed in this step", 0.7, 0.8, false, 0.75, true},
		{"reached exactly", 0.7, 0.75, false, 0.75, true},
		{"left exactly is not crossed again", 0.75, 0.8, false, 0.75, false},
		{"a state just entered at the exit time does not cross it (Unity's documented limitation)", 0.75, 0.8, true, 0.75, false},
		{"below 1 recurs on later loops", 2.7, 2.8, false, 0.75, true},
		{"from 1 does not recur", 2.9, 3.1, false, 2.95, true},
		{"from 1 only once", 3.9, 4.1, false, 2.95, false},
		{"not yet", 0.1, 0.2, false, 0.75, false},
		{"backwards never crosses", 0.8, 0.7, false, 0.75, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := slot{prev: float64(tc.prev), nt: float64(tc.now), first: tc.first}
			if got := exitCrossed(&s, tc.exit); got != tc.want {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestEventCrossings(t *testing.T) {
	ev := []model.Event{{Time: 0}, {Time: 0.5}, {Time: 1}}
	tests := []struct {
		name   string
		loop   bool
		u0, u1 float64
		fresh  bool
		want   []float32
	}{
		{"a step reports events after its start up to its end", false, 0.25, 0.5, false, []float32{0.5}},
		{"a state just entered reports its start", false, 0, 0.25, true, []float32{0}},
		{"a clamped clip reports its end once", false, 0.9, 1.3, false, []float32{1}},
		{"past the end of a clamped clip nothing more", false, 1.3, 1.6, false, nil},
		{"a loop wraps onto its start (its end first)", true, 0.9, 1.1, false, []float32{1, 0}},
		{"two loops in one step in time order", true, 0.4, 2.4, false, []float32{0.5, 1, 0, 0.5, 1, 0}},
		{"backwards reports the span too", false, 0.6, 0.4, false, []float32{0.5}},
		{"non-finite times report nothing", true, math.Inf(-1), 1, false, nil},
		{"a looping state just entered reports its start, not its end", true, 0, 0.25, true, []float32{0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []float32
			crossings(ev, 1, tc.loop, tc.u0, tc.u1, tc.fresh, func(e *model.Event) { got = append(got, e.Time) })
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

// TestDefinitionIsSharedSafely runs animators of one Definition on several
// goroutines (meaningful under -race).
func TestDefinitionIsSharedSafely(t *testing.T) {
	b := locomotion()
	d, err := Compile(b.c, b.clips)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan string)
	for g := 0; g < 4; g++ {
		go func() {
			a := NewAnimator(d)
			a.SetFloat(0, 1.5)
			for i := 0; i < 300; i++ {
				if i%50 == 0 {
					a.SetTrigger(2)
				}
				a.Tick(1.0 / 60)
			}
			done <- fmt.Sprintf("%+v", a.Layer(0))
		}()
	}
	first := <-done
	for g := 1; g < 4; g++ {
		if got := <-done; got != first {
			t.Errorf("goroutines disagree: %s vs %s", got, first)
		}
	}
}

// generic is GenericClip of each clip.
func generic(cs ...*anim.Clip) []Clip {
	out := make([]Clip, len(cs))
	for i, c := range cs {
		out[i] = GenericClip(c)
	}
	return out
}

// noDestination is model.NoDestination as a variable, so that int() of it
// wraps on 32-bit processors as trans's uint32() unwraps it.
var noDestination = uint32(model.NoDestination)
