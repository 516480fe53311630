package animator

import (
	"runtime"
	"sync"
)

// Workers runs a server's per-character work (tick, pose, hitboxes) on
// several goroutines: Run splits the characters into one contiguous range
// per worker and waits for all. Each character is handled by one worker, so
// results are those of a sequential loop, bit for bit, whatever the number
// of workers; the worker index selects per-worker scratch (a Poser's
// scratch, pose buffers). It is used by one goroutine at a time; Close ends
// its goroutines.
type Workers struct {
	n    int
	jobs []chan job
	wg   sync.WaitGroup
}

type job struct {
	f        func(worker, from, to int)
	from, to int
}

// NewWorkers starts n worker goroutines (runtime.GOMAXPROCS(0) when n is
// not positive).
func NewWorkers(n int) *Workers {
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	w := &Workers{n: n, jobs: make([]chan job, n)}
	for i := 1; i < n; i++ { // worker 0 is the caller of Run
		w.jobs[i] = make(chan job, 1)
		go w.loop(i)
	}
	return w
}

func (w *Workers) loop(i int) {
	for j := range w.jobs[i] {
		j.f(i, j.from, j.to)
		w.wg.Done()
	}
}

// Len returns the number of workers.
func (w *Workers) Len() int { return w.n }

// Run calls f(worker, from, to) for contiguous ranges covering [0, items),
// one per worker (ranges differ in length by at most one), and returns when
// all have returned. Worker 0's range runs on the calling goroutine. With f
// made once (not a new closure per call) it does not allocate.
func (w *Workers) Run(items int, f func(worker, from, to int)) {
	if items <= 0 {
		return
	}
	n := min(w.n, items)
	per, extra := items/n, items%n
	from := 0
	bounds := func(i int) (int, int) {
		size := per
		if i < extra {
			size++
		}
		lo := from
		from += size
		return lo, from
	}
	lo0, hi0 := bounds(0)
	w.wg.Add(n - 1)
	for i := 1; i < n; i++ {
		lo, hi := bounds(i)
		w.jobs[i] <- job{f: f, from: lo, to: hi}
	}
	f(0, lo0, hi0)
	w.wg.Wait()
}

// Close ends the worker goroutines; the Workers must not be used after.
func (w *Workers) Close() {
	for _, c := range w.jobs[1:] {
		close(c)
	}
}
