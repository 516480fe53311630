package animator

import "math"

// Driver ticks many animators and players at a fixed step, so a simulation
// advances identically whatever the frame times it is fed: the same
// sequence of steps gives bit-identical states.
type Driver struct {
	// Step is the fixed step in seconds.
	Step      float32
	Animators []*Animator
	Players   []*Player
	acc       float64
	steps     uint64
}

// NewDriver returns a driver stepping at rate Hz (60 if rate is not
// positive).
func NewDriver(rate float64) *Driver {
	if !(rate > 0) || math.IsInf(rate, 0) {
		rate = 60
	}
	return &Driver{Step: float32(1 / rate)}
}

// MaxStepsPerTick bounds the fixed steps one Tick runs, so a long stall
// cannot make a tick take unbounded time; the rest of the time is dropped.
const MaxStepsPerTick = 16

// Tick adds dt seconds of wall time and runs as many fixed steps as fit
// (at most MaxStepsPerTick), returning how many ran. It does not allocate.
func (d *Driver) Tick(dt float64) int {
	if !(dt > 0) || !(d.Step > 0) {
		return 0
	}
	d.acc += dt
	step := float64(d.Step)
	n := 0
	for d.acc >= step && n < MaxStepsPerTick {
		d.acc -= step
		d.StepOnce()
		n++
	}
	if n == MaxStepsPerTick && d.acc >= step {
		d.acc = math.Mod(d.acc, step)
	}
	return n
}

// StepOnce advances every animator and player by one fixed step.
func (d *Driver) StepOnce() {
	for _, a := range d.Animators {
		a.Tick(d.Step)
	}
	for _, p := range d.Players {
		p.Tick(d.Step)
	}
	d.steps++
}

// Steps returns the fixed steps run so far.
func (d *Driver) Steps() uint64 { return d.steps }

// Alpha is the fraction of a step accumulated but not yet run, for
// interpolating poses between the last two steps.
func (d *Driver) Alpha() float32 {
	if !(d.Step > 0) {
		return 0
	}
	return float32(d.acc / float64(d.Step))
}
