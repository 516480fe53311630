package animator

import "math"

// Driver ticks many animators and players at a fixed step, so a simulation
// advances identically whatever the frame times it is fed: the same
// sequence of steps gives bit-identical states, and frame times adding up
// to a whole number of steps run exactly that many (30 frames of 1/30 s
// at 60 Hz run 60 steps).
type Driver struct {
	// Step is the fixed step in seconds. Time is counted against it in
	// float64, as every Tick takes seconds.
	Step      float64
	Animators []*Animator
	Players   []*Player
	acc       float64 // time accumulated and not yet stepped, in steps
	steps     uint64
}

// NewDriver returns a driver stepping at rate Hz (60 if rate is not
// positive).
func NewDriver(rate float64) *Driver {
	if !(rate > 0) || math.IsInf(rate, 0) {
		rate = 60
	}
	return &Driver{Step: 1 / rate}
}

// MaxStepsPerTick bounds the fixed steps one Tick runs, so a long stall
// cannot make a tick take unbounded time; the rest of the time is dropped.
const MaxStepsPerTick = 16

// stepSlack is how far short of a whole step (in steps) accumulated time
// may fall and still run it. Frame times are float64 approximations of
// their values (0.1 s is not a binary fraction, ten of them add up to
// 0.9999999999999999 s), so without it frame times adding up to a whole
// number of steps could run one step too few. 1e-9 of a step (17 ps at
// 60 Hz) is far below any clock's resolution, and far above the rounding
// of a long run of frame times.
const stepSlack = 1e-9

// Tick adds dt seconds of wall time and runs as many fixed steps as fit
// (at most MaxStepsPerTick), returning how many ran. It does not allocate.
func (d *Driver) Tick(dt float64) int {
	if !(dt > 0) || !(d.Step > 0) {
		return 0
	}
	d.acc += dt / d.Step
	n := 0
	for d.acc >= 1-stepSlack && n < MaxStepsPerTick {
		d.acc--
		d.StepOnce()
		n++
	}
	if n == MaxStepsPerTick && d.acc >= 1-stepSlack {
		d.acc = math.Mod(d.acc, 1) // the whole steps beyond the cap are dropped
	}
	if !(d.acc < 1) { // infinite or NaN time (dt or Step out of range)
		d.acc = 0
	}
	return n
}

// StepOnce advances every animator and player by one fixed step.
func (d *Driver) StepOnce() {
	step := d.Step
	for _, a := range d.Animators {
		a.Tick(step)
	}
	for _, p := range d.Players {
		p.Tick(step)
	}
	d.steps++
}

// Steps returns the fixed steps run so far.
func (d *Driver) Steps() uint64 { return d.steps }

// Alpha is the fraction of a step accumulated but not yet run, in [0, 1),
// for interpolating poses between the last two steps.
func (d *Driver) Alpha() float32 {
	if !(d.acc > 0) {
		return 0
	}
	return min(float32(d.acc), alphaMax)
}

// alphaMax is the largest float32 below 1 (a fraction just short of a
// whole step would round up to 1 in float32).
const alphaMax = 1 - 1.0/(1<<24)
