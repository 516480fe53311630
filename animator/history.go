package animator

// History keeps an Animator's snapshots of its last ticks, for lag
// compensation and rollback: pose a character as it was when a client saw
// it, by restoring the tick's snapshot into another Animator of the same
// controller (one per worker, never the live one) and posing that. It is
// owned by one goroutine at a time, as the Animator it records.
type History struct {
	ring  []Snapshot
	ticks []uint64
	next  int // where the next record goes
	n     int // records held
}

// NewHistory returns a history keeping the last ticks records (at least 1):
// 200 ms at 60 Hz is 12.
func NewHistory(ticks int) *History {
	ticks = max(ticks, 1)
	return &History{ring: make([]Snapshot, ticks), ticks: make([]uint64, ticks)}
}

// Record snapshots a as it is at server tick tick (after the tick's Tick),
// replacing the oldest record when the history is full. The first record
// sizes every slot for a (its parameters, layers and as many events as
// its event buffer holds); after it, Record allocates only when a tick
// crosses more events than any before.
func (h *History) Record(a *Animator, tick uint64) {
	if h.ring[h.next].layers == nil {
		h.reserve(a)
	}
	a.Snapshot(&h.ring[h.next])
	h.ticks[h.next] = tick
	h.next = (h.next + 1) % len(h.ring)
	h.n = min(h.n+1, len(h.ring))
}

// Len returns the number of ticks held.
func (h *History) Len() int { return h.n }

// At returns the snapshot recorded at tick, and false when the history
// does not hold it (too old, or never recorded). The snapshot is the
// history's own: it is overwritten when its slot is recorded again.
func (h *History) At(tick uint64) (*Snapshot, bool) {
	if h.n == 0 {
		return nil, false
	}
	last := (h.next - 1 + len(h.ring)) % len(h.ring)
	if d := h.ticks[last] - tick; d < uint64(h.n) { // ticks recorded one after another
		if i := (last - int(d) + len(h.ring)) % len(h.ring); h.ticks[i] == tick {
			return &h.ring[i], true
		}
	}
	for k := 0; k < h.n; k++ {
		if i := (last - k + len(h.ring)) % len(h.ring); h.ticks[i] == tick {
			return &h.ring[i], true
		}
	}
	return nil, false
}

// Latest returns the last snapshot recorded and its tick (false when none).
func (h *History) Latest() (*Snapshot, uint64, bool) {
	if h.n == 0 {
		return nil, 0, false
	}
	last := (h.next - 1 + len(h.ring)) % len(h.ring)
	return &h.ring[last], h.ticks[last], true
}

// reserve gives every slot not yet used buffers the size of a's state,
// cut from one array per kind.
func (h *History) reserve(a *Animator) {
	n := len(h.ring)
	np, nc, nl, ne := len(a.params), len(a.consumed), len(a.layers), max(cap(a.events), 4)
	params, consumed := make([]float64, n*np), make([]bool, n*nc)
	layers, events := make([]layerState, n*nl), make([]snapEvent, n*ne)
	for i := range h.ring {
		s := &h.ring[i]
		if s.layers != nil {
			continue
		}
		s.params = params[i*np : i*np : (i+1)*np]
		s.consumed = consumed[i*nc : i*nc : (i+1)*nc]
		s.layers = layers[i*nl : i*nl : (i+1)*nl]
		s.events = events[i*ne : i*ne : (i+1)*ne]
	}
}
