package animator

import (
	"bytes"
	"testing"
)

func TestWorkersCoverEveryItemOnce(t *testing.T) {
	for _, n := range []int{1, 2, 3, 8} {
		w := NewWorkers(n)
		for _, items := range []int{0, 1, 2, 5, 7, 100, 1001} {
			seen := make([]int, items)
			f := func(worker, from, to int) {
				for i := from; i < to; i++ {
					seen[i]++
				}
			}
			w.Run(items, f)
			for i, c := range seen {
				if c != 1 {
					t.Fatalf("%d workers, %d items: item %d handled %d times", n, items, i, c)
				}
			}
		}
		w.Close()
	}
}

// TestWorkersTickAsOneLoopDoes: animators ticked and posed by four
// workers end in the states one sequential loop gives, bit for bit, and a
// step allocates nothing.
func TestWorkersTickAsOneLoopDoes(t *testing.T) {
	p := genericPosed(t, "loco", locomotion())
	const n = 200
	run := func(workers int) [][]byte {
		w := NewWorkers(workers)
		defer w.Close()
		as := make([]*Animator, n)
		for i := range as {
			as[i] = NewAnimator(p.def)
		}
		scratch := make([]*posedScratch, workers)
		for i := range scratch {
			scratch[i] = p.scratch()
		}
		tick := uint64(0)
		out := make([][]byte, n)
		step := func(worker, from, to int) {
			for i := from; i < to; i++ {
				as[i].Tick(float64(feed(as[i], uint64(i), tick)))
				out[i] = p.state(as[i], scratch[worker])
			}
		}
		for ; tick < 120; tick++ {
			w.Run(n, step)
		}
		return out
	}
	one, four := run(1), run(4)
	for i := range one {
		if !bytes.Equal(one[i], four[i]) {
			t.Fatalf("character %d differs with four workers", i)
		}
	}
	w := NewWorkers(2)
	defer w.Close()
	as := make([]*Animator, n)
	for i := range as {
		as[i] = NewAnimator(p.def)
	}
	step := func(worker, from, to int) {
		for i := from; i < to; i++ {
			as[i].Tick(1.0 / 60)
		}
	}
	for i := 0; i < 60; i++ {
		w.Run(n, step)
	}
	if a := testing.AllocsPerRun(50, func() { w.Run(n, step) }); a != 0 {
		t.Errorf("a parallel step allocates %v times", a)
	}
}
