package animator

import (
	"testing"

	"github.com/mecanim/mecanim/model"
)

// byteReader hands out fuzz bytes, then zeros.
type byteReader struct {
	b []byte
	i int
}

func (r *byteReader) u() int {
	if r.i >= len(r.b) {
		return 0
	}
	r.i++
	return int(r.b[r.i-1])
}

func (r *byteReader) s() int     { return int(int8(r.u())) }
func (r *byteReader) f() float32 { return float32(r.s()) / 16 }

// fuzzController builds a controller of arbitrary shape and indexes.
func fuzzController(r *byteReader) (*model.Controller, []Clip) {
	c := &model.Controller{Name: "fuzz"}
	for i, n := 0, r.u()%6; i < n; i++ {
		c.Parameters = append(c.Parameters, model.Parameter{Name: string(rune('a' + i)),
			Type: []model.ParamType{1, 3, 4, 9}[r.u()%4], Default: float64(r.f())})
	}
	conds := func() []model.Condition {
		var cs []model.Condition
		for i, n := 0, r.u()%3; i < n; i++ {
			cs = append(cs, model.Condition{Mode: model.ConditionMode(r.u() % 9), Param: r.s() % 7, Threshold: r.f(), ExitTime: r.f()})
		}
		return cs
	}
	dest := func() uint32 {
		switch r.u() % 4 {
		case 0:
			return model.SelectorBase + uint32(r.u()%3)
		case 1:
			return model.NoDestination
		}
		return uint32(r.u() % 6)
	}
	trans := func() []model.Transition {
		var ts []model.Transition
		for i, n := 0, r.u()%3; i < n; i++ {
			ts = append(ts, model.Transition{Destination: dest(), Conditions: conds(), Duration: r.f(), Offset: r.f(),
				ExitTime: r.f(), HasExitTime: r.u()%2 == 0, HasFixedDuration: r.u()%2 == 0, CanTransitionToSelf: r.u()%2 == 0,
				OrderedInterruption: r.u()%2 == 0, Interruption: model.InterruptionSource(r.u() % 6)})
		}
		return ts
	}
	for m, nm := 0, 1+r.u()%3; m < nm; m++ {
		sm := model.StateMachine{DefaultState: r.u() % 4}
		for i, n := 0, r.u()%5; i < n; i++ {
			st := model.State{Speed: r.f(), CycleOffset: r.f(), SpeedParam: r.s() % 7, MirrorParam: r.s() % 7,
				CycleOffsetParam: r.s() % 7, TimeParam: r.s() % 7, Transitions: trans()}
			var tree model.BlendTree
			for k, nk := 0, r.u()%5; k < nk; k++ {
				nd := model.BlendNode{Type: model.BlendType(r.u() % 6), Param: r.s() % 7, ParamY: r.s() % 7, Clip: r.s() % 5, Normalize: r.u()%2 == 0}
				for j, nc := 0, r.u()%4; j < nc; j++ {
					nd.Children = append(nd.Children, r.s()%6)
					nd.Thresholds = append(nd.Thresholds, r.f())
					nd.Positions = append(nd.Positions, [2]float32{r.f(), r.f()})
					nd.ChildParams = append(nd.ChildParams, r.s()%7)
				}
				tree.Nodes = append(tree.Nodes, nd)
			}
			st.Motions = []model.BlendTree{tree}
			sm.States = append(sm.States, st)
		}
		sm.AnyState = trans()
		for i, n := 0, r.u()%3; i < n; i++ {
			sel := model.Selector{IsEntry: r.u()%2 == 0}
			for j, nt := 0, r.u()%3; j < nt; j++ {
				sel.Transitions = append(sel.Transitions, model.SelectorTransition{Destination: dest(), Conditions: conds()})
			}
			sm.Selectors = append(sm.Selectors, sel)
		}
		c.StateMachines = append(c.StateMachines, sm)
	}
	for i, n := 0, 1+r.u()%3; i < n; i++ {
		c.Layers = append(c.Layers, model.Layer{StateMachine: r.u() % 4, SyncedLayer: r.s() % 3, Blending: model.LayerBlending(r.u() % 2),
			Weight: r.f(), MotionSet: r.u() % 2})
	}
	var clips []Clip
	for i := 0; i < 5; i++ {
		clips = append(clips, Clip{Length: r.f(), Loop: r.u()%2 == 0, Events: []model.Event{{Time: r.f()}}})
	}
	return c, clips
}

// FuzzCompileAndTick drives controllers of any shape: Compile either
// rejects one or the Animator runs it, whatever the parameters and steps,
// without panicking.
func FuzzCompileAndTick(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{2, 0, 2, 1, 3, 0, 2, 10, 16, 0, 0, 0, 0, 2, 1, 1, 0, 4, 1, 1, 0, 0, 9, 9, 1})
	f.Add([]byte("\x05\x01\x03\x02\x00\x01\x03\x04\x02\x07\x00\x10\x20\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := &byteReader{b: data}
		c, clips := fuzzController(r)
		d, err := Compile(c, clips)
		if err != nil {
			return
		}
		a := NewAnimator(d)
		var buf []Contribution
		for i := 0; i < 64; i++ {
			p := r.u() % 7
			switch r.u() % 8 {
			case 0:
				a.SetFloat(p, r.f())
			case 1:
				a.SetInt(p, int32(r.s()))
			case 2:
				a.SetBool(p, r.u()%2 == 0)
			case 3:
				a.SetTrigger(p)
			case 4:
				a.Play(r.u()%4, r.u()%5, r.f())
			case 5:
				a.CrossFade(r.u()%4, r.u()%5, r.f(), r.f())
			}
			a.Tick(float64(float32(r.u()) / 64))
			for l := 0; l < a.Layers(); l++ {
				buf = a.Contributions(l, buf)
				_ = a.Layer(l)
			}
		}
	})
}
