package animator

import (
	"fmt"
	"testing"

	"github.com/mecanim/mecanim/model"
)

// locomotion builds a 3-layer controller: a base layer with Idle, a
// cartesian Move blend tree (Speed, Direction) and an Attack state on a
// trigger; an additive layer with a 1D blend; an override layer with a bool.
func locomotion() *ctl {
	b := newCtl()
	speed := b.param("Speed", model.ParamFloat, 0)
	dir := b.param("Direction", model.ParamFloat, 0)
	attack := b.param("Attack", model.ParamTrigger, 0)
	grounded := b.param("Grounded", model.ParamBool, 1)
	lean := b.param("Lean", model.ParamFloat, 0)
	idle := b.clip(2, true, 0.5)
	var move []int
	for i := 0; i < 7; i++ {
		move = append(move, b.clip(0.8+0.1*float32(i), true, 0.1))
	}
	atk := b.clip(1.2, false, 0.4, 1.1)
	I, M, A := b.state(0, "Idle", idle), b.state(0, "Move", move[0]), b.state(0, "Attack", atk)
	tree := model.BlendTree{Nodes: []model.BlendNode{{Type: model.Blend2DFreeformCartesian, Param: dir, ParamY: speed,
		Positions: [][2]float32{{0, 0}, {0, 1}, {-1, 1}, {1, 1}, {0, 2}, {-1, 2}, {1, 2}}}}}
	for i, c := range move {
		tree.Nodes[0].Children = append(tree.Nodes[0].Children, i+1)
		tree.Nodes = append(tree.Nodes, model.BlendNode{Clip: c, Param: -1, ParamY: -1})
	}
	b.st(0, M).Motions[0] = tree
	b.trans(0, I, M, cond(model.CondGreater, speed, 0.1))
	b.trans(0, M, I, cond(model.CondLess, speed, 0.1))
	for _, s := range []int{I, M} {
		tr := b.trans(0, s, A, cond(model.CondIf, attack, 0), cond(model.CondIf, grounded, 0))
		tr.Interruption = model.InterruptSource
	}
	back := b.trans(0, A, I)
	back.HasExitTime, back.ExitTime, back.Duration, back.HasFixedDuration = true, 0.9, 0.1, false

	b.c.StateMachines = append(b.c.StateMachines, model.StateMachine{}, model.StateMachine{})
	b.c.Layers = append(b.c.Layers,
		model.Layer{Name: "Lean", StateMachine: 1, Blending: model.BlendAdditive, Weight: 1, SyncedLayer: -1},
		model.Layer{Name: "Air", StateMachine: 2, Weight: 0.7, SyncedLayer: -1})
	L := b.state(1, "Lean", idle)
	b.st(1, L).Motions[0] = model.BlendTree{Nodes: []model.BlendNode{
		{Type: model.Blend1D, Param: lean, ParamY: -1, Children: []int{1, 2}, Thresholds: []float32{-1, 1}},
		{Clip: move[1], Param: -1, ParamY: -1}, {Clip: move[2], Param: -1, ParamY: -1}}}
	G, F := b.state(2, "Grounded", idle), b.state(2, "Falling", move[3])
	b.trans(2, G, F, cond(model.CondIfNot, grounded, 0))
	b.trans(2, F, G, cond(model.CondIf, grounded, 0))
	return b
}

func TestDriverStepsFixedAndDeterministically(t *testing.T) {
	run := func(frames []float64) string {
		d := NewDriver(60)
		for i := 0; i < 3; i++ {
			d.Animators = append(d.Animators, locomotion().build(t))
		}
		d.Animators[1].SetFloat(0, 1.2)
		for _, f := range frames {
			d.Tick(f)
		}
		var out string
		for _, a := range d.Animators {
			out += fmt.Sprintf("%+v|", a.Layer(0))
		}
		return fmt.Sprint(d.Steps(), out)
	}
	even := make([]float64, 120)
	uneven := make([]float64, 0, 240)
	for i := range even {
		even[i] = 1.0 / 60
	}
	for i := 0; i < 60; i++ {
		uneven = append(uneven, 1.0/30)
	}
	if a, b := run(even), run(uneven); a != b {
		t.Errorf("frame times changed the result:\n%s\n%s", a, b)
	}
}

// BenchmarkCrowd ticks 1,000 animators of one 3-layer controller (a
// 7-clip cartesian blend tree, transitions, events) at 60 Hz on one core.
func BenchmarkCrowd(b *testing.B) {
	c := locomotion()
	d, err := Compile(c.c, c.clips)
	if err != nil {
		b.Fatal(err)
	}
	drv := NewDriver(60)
	for i := 0; i < 1000; i++ {
		a := NewAnimator(d)
		a.SetFloat(0, float32(i%20)/10)
		a.SetFloat(1, float32(i%7)/3-1)
		drv.Animators = append(drv.Animators, a)
	}
	for i := 0; i < 120; i++ { // warm up event buffers
		drv.StepOnce()
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%30 == 0 {
			for j, a := range drv.Animators {
				if (j+i)%3 == 0 {
					a.SetTrigger(2)
				}
			}
		}
		drv.StepOnce()
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1000, "ns/animator-tick")
	b.ReportMetric(float64(drv.Animators[0].StateBytes()), "B/animator")
}
