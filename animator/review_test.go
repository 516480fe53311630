package animator

import (
	"fmt"
	"testing"

	"github.com/mecanim/mecanim/model"
)

// countEvents ticks a n times at dt and counts the events of state s.
func countEvents(a *Animator, dt float32, n, s int) int {
	got := 0
	for i := 0; i < n; i++ {
		a.Tick(dt)
		for _, e := range a.Events() {
			if e.State == s && e.Layer == 0 {
				got++
			}
		}
	}
	return got
}

func TestEventsAtTheStartOfADestinationFadingInFire(t *testing.T) {
	for _, dur := range []float32{0, 0.25} {
		t.Run(fmt.Sprintf("duration %v", dur), func(t *testing.T) {
			b := newCtl()
			go_ := b.param("go", model.ParamTrigger, 0)
			A, B := b.state(0, "A", b.clip(1, true)), b.state(0, "B", b.clip(1, true, 0, 0.05))
			b.trans(0, A, B, cond(model.CondIf, go_, 0)).Duration = dur
			a := b.build(t)
			a.SetTrigger(go_)
			if got := countEvents(a, 0.1, 5, B); got != 2 {
				t.Errorf("%d events of B in its first 0.5 s, want 2 (at 0 and 0.05)", got)
			}
		})
	}
}

func TestCrossFadeDestinationFiresItsFirstTickEvents(t *testing.T) {
	b := newCtl()
	b.state(0, "A", b.clip(1, true))
	B := b.state(0, "B", b.clip(1, true, 0, 0.05))
	a := b.build(t)
	a.Tick(0.1)
	a.CrossFade(0, B, 0.25, 0)
	if got := countEvents(a, 0.1, 5, B); got != 2 {
		t.Errorf("%d events of B in its first 0.5 s, want 2", got)
	}
}

func TestPlayerFadeInFiresTheEventsOfItsFirstTick(t *testing.T) {
	s := testSkeleton(t)
	idle := &PlayerClip{Clip: moveClip(t, s, "idle", 1, 0, 0, true)}
	atk := &PlayerClip{Clip: moveClip(t, s, "atk", 1, 1, 0, false,
		model.Event{Time: 0, Function: "start"}, model.Event{Time: 0.01, Function: "early"})}
	for _, fade := range []float32{0, 0.1} {
		t.Run(fmt.Sprintf("fade %v", fade), func(t *testing.T) {
			p := NewPlayer(s)
			p.Play(idle, 0)
			p.Tick(1.0 / 60)
			p.Play(atk, fade)
			n := 0
			for i := 0; i < 30; i++ {
				p.Tick(1.0 / 60)
				for _, e := range p.Events() {
					if e.Clip == atk {
						n++
						if !(e.Weight > 0) {
							t.Errorf("event %s at weight %v", e.Event.Function, e.Weight)
						}
					}
				}
			}
			if n != 2 {
				t.Errorf("%d events, want 2", n)
			}
		})
	}
}

func TestExitTimeAtTheStartOfAJustEnteredStateFires(t *testing.T) {
	t.Run("exit time 0 from the entry state", func(t *testing.T) {
		b := newCtl()
		c := b.clip(1, true)
		A, B := b.state(0, "A", c), b.state(0, "B", c)
		tr := b.trans(0, A, B)
		tr.HasExitTime, tr.ExitTime, tr.Duration = true, 0, 0
		a := b.build(t)
		if got := tickUntil(a, 0.1, 30, func() bool { return a.Layer(0).State == B }); got != 1 {
			t.Errorf("fired at tick %d, want 1", got)
		}
	})
	t.Run("exit time equal to the offset the state was entered at", func(t *testing.T) {
		b := newCtl()
		c := b.clip(1, true)
		A, B, C := b.state(0, "A", c), b.state(0, "B", c), b.state(0, "C", c)
		tr := b.trans(0, A, B)
		tr.HasExitTime, tr.ExitTime, tr.Duration, tr.Offset = true, 0.05, 0, 0.5
		tr2 := b.trans(0, B, C)
		tr2.HasExitTime, tr2.ExitTime, tr2.Duration = true, 0.5, 0
		a := b.build(t)
		if got := tickUntil(a, 0.1, 30, func() bool { return a.Layer(0).State == C }); got != 2 {
			t.Errorf("C reached at tick %d, want 2", got)
		}
	})
}
