package animator

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/humanoid"
	"github.com/mecanim/mecanim/internal/fuzzcount"
	"github.com/mecanim/mecanim/internal/synth"
	"github.com/mecanim/mecanim/model"
)

// posed is a controller with what poses it: a generic Poser or a
// HumanPoser (nil for a controller run by its timing only).
type posed struct {
	name string
	def  *Definition
	gp   *Poser
	hp   *HumanPoser
	n    int // joints
}

// line is a keyframed straight line from a to b over length seconds.
func line(t model.Target, length, a, b float32) model.Curve {
	s := (b - a) / length
	return model.Curve{Target: t, Kind: model.CurveKeyframed, PreInfinity: model.InfinityClamp, PostInfinity: model.InfinityClamp,
		Keys: []model.Keyframe{{Time: 0, Value: a, OutSlope: s}, {Time: length, Value: b, InSlope: s}}}
}

// genericPosed bakes every clip of b (same length, looping and events) on a
// three-joint skeleton: the hips travel (root motion) and the hand rises,
// by amounts that differ per clip.
func genericPosed(t testing.TB, name string, b *ctl) posed {
	t.Helper()
	rest := []geom.Transform{geom.Identity, {T: geom.V3(0, 1, 0), R: geom.IdentityQuat, S: geom.V3(1, 1, 1)},
		{T: geom.V3(0.5, 0.4, 0), R: geom.IdentityQuat, S: geom.V3(1, 1, 1)}}
	sk, err := anim.NewSkeleton([]string{"", "Hips", "Hips/Hand"}, []int{-1, 0, 1}, rest)
	if err != nil {
		t.Fatal(err)
	}
	pos := func(path string, comp int) model.Target {
		return model.Target{Path: path, PathHash: model.PathHash(path), PathKnown: true, ClassID: model.ClassTransform,
			Attribute: uint32(model.PropPosition), Transform: model.PropPosition, Component: comp}
	}
	for i, c := range b.clips {
		k := float32(i + 1)
		mc := &model.Clip{Name: fmt.Sprint("clip", i), SampleRate: 30, Stop: c.Length, Settings: model.LoopSettings{LoopTime: c.Loop},
			Curves: []model.Curve{
				{Target: pos("Hips", 1), Kind: model.CurveConstant, Value: 1},
				line(pos("Hips", 2), c.Length, 0, 0.7*k),
				line(pos("Hips/Hand", 1), c.Length, 0.4, 0.4+0.1*k),
				line(pos("Hips/Hand", 0), c.Length, 0.5, 0.5-0.05*k),
			},
			Events: c.Events}
		baked, err := anim.Bake(mc, sk)
		if err != nil {
			t.Fatal(err)
		}
		rooted, err := baked.WithRoot(1)
		if err != nil {
			t.Fatal(err)
		}
		b.clips[i] = GenericClip(rooted)
	}
	d, err := Compile(b.c, b.clips)
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewPoser(d, sk)
	if err != nil {
		t.Fatal(err)
	}
	return posed{name: name, def: d, gp: p, n: sk.Len()}
}

// humanPosed bakes every clip of b as a humanoid clip of the synthetic
// avatar: a few muscles sweep and the body travels, by amounts that differ
// per clip.
func humanPosed(t testing.TB, name string, b *ctl) posed {
	t.Helper()
	rig, err := humanoid.NewRig(synth.HumanAvatar())
	if err != nil {
		t.Fatal(err)
	}
	attr := func(a int) model.Target { return model.Target{ClassID: model.ClassAnimator, Attribute: uint32(a)} }
	for i, c := range b.clips {
		k := float32(i + 1)
		mc := &model.Clip{Name: fmt.Sprint("human", i), Humanoid: true, SampleRate: 30, Stop: c.Length,
			Settings: model.LoopSettings{LoopTime: c.Loop}, Events: c.Events}
		for m := 0; m < 12; m++ {
			mc.Curves = append(mc.Curves, line(attr(model.FirstMuscleAttribute+7*m+i), c.Length, -0.3*k/8, 0.5*k/8))
		}
		mc.Curves = append(mc.Curves, line(attr(model.FirstRootAttribute+2), c.Length, 0, 0.5*k),
			model.Curve{Target: attr(model.FirstRootAttribute + 1), Kind: model.CurveConstant, Value: 1},
			model.Curve{Target: attr(model.FirstRootAttribute + 6), Kind: model.CurveConstant, Value: 1})
		baked, err := humanoid.Bake(mc, rig)
		if err != nil {
			t.Fatal(err)
		}
		b.clips[i] = HumanClip(baked)
	}
	d, err := Compile(b.c, b.clips)
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewHumanPoser(d, rig)
	if err != nil {
		t.Fatal(err)
	}
	return posed{name: name, def: d, hp: p, n: rig.Len()}
}

// feed gives animator a the inputs of tick i of run seed: parameters set at
// random (triggers often, so transitions interrupt one another), now and
// then a Play or a CrossFade, and a step of 1/60 s or, sometimes, another.
func feed(a *Animator, seed, i uint64) float64 {
	r := rand.New(rand.NewPCG(seed, i))
	ps := a.def.c.Parameters
	for p := range ps {
		if r.IntN(4) != 0 {
			continue
		}
		switch ps[p].Type {
		case model.ParamFloat:
			a.SetFloat(p, float32(r.IntN(50))/16-0.5)
		case model.ParamInt:
			a.SetInt(p, int32(r.IntN(5)-1))
		case model.ParamBool:
			a.SetBool(p, r.IntN(2) == 0)
		case model.ParamTrigger:
			if r.IntN(3) == 0 {
				a.SetTrigger(p)
			}
		}
	}
	if r.IntN(97) == 0 && a.Layers() > 0 {
		li := r.IntN(a.Layers())
		if r.IntN(2) == 0 {
			a.Play(li, r.IntN(5), r.Float32())
		} else {
			a.CrossFade(li, r.IntN(5), r.Float32(), r.Float32())
		}
	}
	if r.IntN(11) == 0 {
		a.SetLayerWeight(1+r.IntN(3), r.Float32())
	}
	if r.IntN(13) == 0 {
		return float64(r.IntN(40)) / 600
	}
	return 1.0 / 60
}

// state is everything observable after a tick, as bits: the whole state
// (the encoding holds layers, clocks, events, root motion), each layer's
// contributions and the pose.
func (p *posed) state(a *Animator, sc *posedScratch) []byte {
	b, err := a.MarshalBinary()
	if err != nil {
		panic(err)
	}
	for li := 0; li < a.Layers(); li++ {
		sc.contrib = a.Contributions(li, sc.contrib)
		for _, c := range sc.contrib {
			b = binary.LittleEndian.AppendUint32(b, uint32(c.Clip))
			b = appendF32(appendF32(b, c.Time), c.Weight)
		}
	}
	switch {
	case p.gp != nil:
		p.gp.Pose(a, sc.gs, sc.local)
	case p.hp != nil:
		p.hp.Apply(a, sc.hs, sc.local)
	default:
		return b
	}
	for _, x := range sc.local {
		b = appendQuat(appendVec(appendVec(b, x.T), x.S), x.R)
	}
	return b
}

type posedScratch struct {
	contrib []Contribution
	local   []geom.Transform
	gs      *PoseScratch
	hs      *HumanScratch
}

func (p *posed) scratch() *posedScratch {
	sc := &posedScratch{local: make([]geom.Transform, p.n)}
	if p.gp != nil {
		sc.gs = p.gp.NewScratch()
	}
	if p.hp != nil {
		sc.hs = p.hp.NewScratch()
	}
	return sc
}

// restoreRuns checks, for snapshots taken at ticks chosen mid-transition,
// mid-interruption and at rest, that an Animator restored from each (after
// being driven elsewhere first) and fed the same inputs as the original
// gives the same bits on every one of the following ticks; both through
// the encoding and through an in-memory Snapshot. It returns how many
// snapshots were taken in transition and interrupted.
func restoreRuns(t *testing.T, p posed, seed uint64, ticks, after int) (inTrans, interrupted int) {
	t.Helper()
	// Choose the ticks: up to three in transition, three interrupted, one
	// not.
	var chosen []int
	a := NewAnimator(p.def)
	var nt, ni, nr int
	for i := 0; i < ticks; i++ {
		a.Tick(feed(a, seed, uint64(i)))
		tr, in := false, false
		for li := 0; li < a.Layers(); li++ {
			l := a.Layer(li)
			tr = tr || l.InTransition
			in = in || l.Interrupted
		}
		switch {
		case in && ni < 3 && i%7 == 0:
			ni++
			chosen = append(chosen, i)
		case tr && !in && nt < 3 && i%5 == 0:
			nt++
			chosen = append(chosen, i)
		case !tr && nr < 1 && i > 20:
			nr++
			chosen = append(chosen, i)
		}
	}
	sc, sc2 := p.scratch(), p.scratch()
	for _, at := range chosen {
		a := NewAnimator(p.def)
		for i := 0; i <= at; i++ {
			a.Tick(feed(a, seed, uint64(i)))
		}
		snap, err := a.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var mem Snapshot
		a.Snapshot(&mem)
		for _, viaBytes := range []bool{true, false} {
			b := NewAnimator(p.def)
			for i := 0; i < 37; i++ { // somewhere else entirely
				b.Tick(feed(b, seed+1, uint64(i)))
			}
			if viaBytes {
				err = b.UnmarshalBinary(snap)
			} else {
				err = b.Restore(&mem)
			}
			if err != nil {
				t.Fatalf("%s seed %d tick %d: restore: %v", p.name, seed, at, err)
			}
			if again, _ := b.MarshalBinary(); !bytes.Equal(again, snap) {
				t.Fatalf("%s seed %d tick %d: the restored animator encodes differently", p.name, seed, at)
			}
			x := a.clone(t)
			for i := at + 1; i <= at+after; i++ {
				dt := feed(x, seed+2, uint64(i))
				if feed(b, seed+2, uint64(i)) != dt {
					t.Fatal("inputs differ")
				}
				x.Tick(dt)
				b.Tick(dt)
				if sa, sb := p.state(x, sc), p.state(b, sc2); !bytes.Equal(sa, sb) {
					t.Fatalf("%s seed %d: restored at tick %d (bytes %v): tick %d differs from the original", p.name, seed, at, viaBytes, i)
				}
			}
		}
		l := a.Layer(0)
		for li := 0; li < a.Layers(); li++ {
			if a.Layer(li).Interrupted {
				l = a.Layer(li)
			} else if a.Layer(li).InTransition && !l.InTransition {
				l = a.Layer(li)
			}
		}
		if l.Interrupted {
			interrupted++
		} else if l.InTransition {
			inTrans++
		}
	}
	return inTrans, interrupted
}

// clone copies a deeply (the original then goes on as the reference run).
func (a *Animator) clone(t *testing.T) *Animator {
	c := NewAnimator(a.def)
	var s Snapshot
	a.Snapshot(&s)
	if err := c.Restore(&s); err != nil {
		t.Fatal(err)
	}
	return c
}

func TestRestoredSnapshotsTickBitIdentically(t *testing.T) {
	interrupting := func() *ctl {
		b, _ := interruptCtl(model.InterruptSourceThenDestination, false)
		return b
	}
	withEvents := func(f func() *ctl) func() *ctl {
		return func() *ctl {
			b := f()
			for i := range b.clips {
				b.clips[i].Events = []model.Event{{Time: 0, Function: "start"}, {Time: b.clips[i].Length / 2, Function: "mid"}}
			}
			return b
		}
	}
	tests := []struct {
		name  string
		build func(testing.TB, string, *ctl) posed
		ctl   func() *ctl
	}{
		{"generic 3-layer locomotion", genericPosed, locomotion},
		{"generic interruptions", genericPosed, withEvents(interrupting)},
		{"humanoid 3-layer locomotion", humanPosed, locomotion},
		{"humanoid interruptions", humanPosed, withEvents(interrupting)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := tc.build(t, tc.name, tc.ctl())
			var tr, in int
			for seed := uint64(1); seed <= 3; seed++ {
				a, b := restoreRuns(t, p, seed, 600, 300)
				tr, in = tr+a, in+b
			}
			if tr == 0 || in == 0 {
				t.Errorf("%d snapshots mid-transition and %d mid-interruption: the test did not cover both", tr, in)
			}
		})
	}
}

// TestRestoredSnapshotsOfAnyControllerTickBitIdentically restores
// snapshots of controllers of random shapes (selectors, synced layers,
// speed and time parameters, self transitions, cross-fades).
func TestRestoredSnapshotsOfAnyControllerTickBitIdentically(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	ran, tr, in := 0, 0, 0
	for k := 0; k < 300 && ran < 60; k++ {
		data := make([]byte, 200)
		for i := range data {
			data[i] = byte(rng.UintN(uint(2 + k%6)))
		}
		c, clips := fuzzController(&byteReader{b: data})
		repair(c)
		c.Clips = make([]model.Ref, len(clips))
		d, err := Compile(c, clips)
		if err != nil {
			continue
		}
		ran++
		a, b := restoreRuns(t, posed{name: fmt.Sprint("random controller ", k), def: d}, uint64(k), 200, 120)
		tr, in = tr+a, in+b
	}
	if ran < 20 || tr == 0 || in == 0 {
		t.Fatalf("%d random controllers compiled, %d snapshots mid-transition, %d mid-interruption", ran, tr, in)
	}
}

// repair points a random controller's out-of-range indexes at things it
// has, so that most random shapes compile.
func repair(c *model.Controller) {
	np := len(c.Parameters)
	param := func(p *int) {
		if *p >= np {
			*p = -1
		}
	}
	for mi := range c.StateMachines {
		m := &c.StateMachines[mi]
		ns, nsel := uint32(len(m.States)), uint32(len(m.Selectors))
		if int(ns) <= m.DefaultState {
			m.DefaultState = 0
		}
		dest := func(d *uint32) {
			switch {
			case *d == model.NoDestination:
			case *d >= model.SelectorBase && nsel > 0:
				*d = model.SelectorBase + (*d-model.SelectorBase)%nsel
			case ns > 0:
				*d %= ns
			default:
				*d = model.NoDestination
			}
		}
		trans := func(ts []model.Transition) []model.Transition {
			out := ts[:0]
			for _, t := range ts {
				if dest(&t.Destination); t.Destination == model.NoDestination {
					continue
				}
				for ci := range t.Conditions {
					param(&t.Conditions[ci].Param)
				}
				out = append(out, t)
			}
			return out
		}
		m.AnyState = trans(m.AnyState)
		for si := range m.States {
			st := &m.States[si]
			st.Transitions = trans(st.Transitions)
			for _, p := range []*int{&st.SpeedParam, &st.MirrorParam, &st.CycleOffsetParam, &st.TimeParam} {
				param(p)
			}
		}
		for si := range m.Selectors {
			for ti := range m.Selectors[si].Transitions {
				t := &m.Selectors[si].Transitions[ti]
				dest(&t.Destination)
				for ci := range t.Conditions {
					param(&t.Conditions[ci].Param)
				}
			}
		}
	}
	for li := range c.Layers {
		l := &c.Layers[li]
		l.StateMachine %= len(c.StateMachines)
		if l.SyncedLayer >= len(c.Layers) || l.SyncedLayer == li || (l.SyncedLayer >= 0 && c.Layers[l.SyncedLayer].SyncedLayer >= 0) {
			l.SyncedLayer = -1
		}
	}
}

func TestRestoreRefusesAnotherControllersSnapshot(t *testing.T) {
	loco := locomotion()
	a := loco.build(t)
	a.Tick(0.1)
	snap, _ := a.MarshalBinary()
	other, _ := interruptCtl(model.InterruptSource, false)
	b := other.build(t)
	before, _ := b.MarshalBinary()
	if err := b.UnmarshalBinary(snap); !errors.Is(err, ErrOtherController) {
		t.Fatalf("restoring another controller's snapshot: %v, want ErrOtherController", err)
	}
	if after, _ := b.MarshalBinary(); !bytes.Equal(before, after) {
		t.Error("a refused restore changed the animator")
	}
	// The same controller compiled again (another Definition, as on
	// another server) takes it.
	c := locomotion().build(t)
	if err := c.UnmarshalBinary(snap); err != nil {
		t.Fatalf("the same controller compiled again: %v", err)
	}
}

// TestDamagedSnapshotsAreErrors cuts a snapshot at every length and
// changes every byte: each is an error naming its offset, never a panic.
func TestDamagedSnapshotsAreErrors(t *testing.T) {
	a := locomotion().build(t)
	a.SetTrigger(2)
	for i := 0; i < 40; i++ {
		a.Tick(1.0 / 60)
	}
	snap, _ := a.MarshalBinary()
	var s Snapshot
	for n := 0; n < len(snap); n++ {
		var fe *FormatError
		if err := s.UnmarshalBinary(snap[:n]); !errors.As(err, &fe) {
			t.Fatalf("cut to %d bytes: %v, want a FormatError", n, err)
		}
	}
	for i := range snap {
		bad := bytes.Clone(snap)
		bad[i] ^= 0x41
		if err := s.UnmarshalBinary(bad); err == nil {
			t.Fatalf("byte %d changed: no error", i)
		}
	}
	newer := bytes.Clone(snap)
	newer[len(snapshotMagic)] = SnapshotVersion + 1
	if err := s.UnmarshalBinary(newer); !errors.Is(err, ErrSnapshotVersion) {
		t.Errorf("a newer version: %v, want ErrSnapshotVersion", err)
	}
}

// TestSnapshotKeepsNaNAndNegativeZero: parameter values travel as their
// bits.
func TestSnapshotKeepsNaNAndNegativeZero(t *testing.T) {
	b := locomotion()
	a := b.build(t)
	negZero := float32(math.Copysign(0, -1))
	a.SetFloat(0, negZero)
	a.SetFloat(1, float32(math.NaN()))
	snap, _ := a.MarshalBinary()
	c := b.build(t)
	if err := c.UnmarshalBinary(snap); err != nil {
		t.Fatal(err)
	}
	if v := c.Value(0); v != 0 || !math.Signbit(v) {
		t.Errorf("-0 came back as %v", v)
	}
	if v := c.Value(1); !math.IsNaN(v) {
		t.Errorf("NaN came back as %v", v)
	}
}

func TestSnapshotRecordAndRestoreDoNotAllocate(t *testing.T) {
	p := genericPosed(t, "loco", locomotion())
	a := NewAnimator(p.def)
	h := NewHistory(12)
	var s Snapshot
	buf := make([]byte, 0, 1024)
	tick := uint64(0)
	step := func() {
		if tick%40 == 0 {
			a.SetTrigger(2) // attack: a transition now and then
			a.SetFloat(0, float32(tick%120)/60)
		}
		a.Tick(1.0 / 60)
		h.Record(a, tick)
		a.Snapshot(&s)
		buf, _ = s.AppendBinary(buf[:0])
		tick++
	}
	for i := 0; i < 600; i++ {
		step()
	}
	if n := testing.AllocsPerRun(200, step); n != 0 {
		t.Errorf("a tick recorded and snapshotted allocates %v times", n)
	}
	ghost := NewAnimator(p.def)
	rewind := func() {
		if err := ghost.Restore(&s); err != nil {
			t.Fatal(err)
		}
	}
	rewind()
	if n := testing.AllocsPerRun(200, rewind); n != 0 {
		t.Errorf("a restore allocates %v times", n)
	}
}

// A history sized by its first record allocates nothing after it, whatever
// slot the events of a tick land in: a server of 10,000 characters does
// not wait for 10,000 × 12 slots to warm up.
func TestHistoryAllocatesOnlyAtItsFirstRecord(t *testing.T) {
	p := genericPosed(t, "loco", locomotion())
	a := NewAnimator(p.def)
	h := NewHistory(12)
	tick := uint64(0)
	step := func() {
		if tick%40 == 0 {
			a.SetTrigger(2)
			a.SetFloat(0, float32(tick%120)/60)
		}
		a.Tick(1.0 / 60)
		h.Record(a, tick)
		tick++
	}
	step()
	events := 0
	// One run of 300 ticks: AllocsPerRun rounds an average down.
	if n := testing.AllocsPerRun(1, func() {
		for i := 0; i < 300; i++ {
			step()
			events += len(a.Events())
		}
	}); n != 0 {
		t.Errorf("300 ticks recorded after the first allocate %v times", n)
	}
	if events == 0 {
		t.Fatal("no tick crossed an event: the test does not fill slots with events")
	}
}

// TestHistoryPosesPastTicksWithoutTouchingTheLiveAnimator: the lag
// compensation recipe. A ghost Animator restored from the history poses
// the character as it was k ticks ago, bit for bit, and the live Animator
// is unchanged.
func TestHistoryPosesPastTicksWithoutTouchingTheLiveAnimator(t *testing.T) {
	for _, p := range []posed{genericPosed(t, "generic", locomotion()), humanPosed(t, "humanoid", locomotion())} {
		a := NewAnimator(p.def)
		ghost := NewAnimator(p.def)
		h := NewHistory(12)
		sc := p.scratch()
		var poses [][]byte
		for i := uint64(0); i < 300; i++ {
			a.Tick(feed(a, 5, i))
			h.Record(a, i)
			poses = append(poses, p.state(a, sc))
			if i < 20 {
				continue
			}
			live, _ := a.MarshalBinary()
			for k := uint64(0); k < 12; k += 5 {
				s, ok := h.At(i - k)
				if !ok {
					t.Fatalf("%s: tick %d not held at tick %d", p.name, i-k, i)
				}
				if err := ghost.Restore(s); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(p.state(ghost, sc), poses[i-k]) {
					t.Fatalf("%s: the ghost of tick %d does not pose as the character did", p.name, i-k)
				}
			}
			if now, _ := a.MarshalBinary(); !bytes.Equal(live, now) {
				t.Fatalf("%s: rewinding changed the live animator", p.name)
			}
			if _, ok := h.At(i - 12); ok {
				t.Fatalf("%s: a history of 12 ticks holds a 13th", p.name)
			}
		}
	}
}

// FuzzSnapshotUnmarshal feeds damaged snapshots (and damaged ones with
// their checksum made right, to reach the fields) to UnmarshalBinary and
// Restore: each is an error or a state that ticks and poses without
// panicking.
func FuzzSnapshotUnmarshal(f *testing.F) {
	p := genericPosed(f, "loco", locomotion())
	a := NewAnimator(p.def)
	for i := uint64(0); i < 200; i++ {
		a.Tick(feed(a, 3, i))
		if i%25 == 0 {
			s, _ := a.MarshalBinary()
			f.Add(s)
		}
	}
	sc := p.scratch()
	count := fuzzcount.Counter("FuzzSnapshotUnmarshal")
	f.Fuzz(func(t *testing.T, data []byte) {
		count()
		fixed := bytes.Clone(data)
		if len(fixed) >= 4 {
			body := fixed[:len(fixed)-4]
			binary.LittleEndian.PutUint32(fixed[len(body):], crc32.ChecksumIEEE(body))
		}
		for _, b := range [][]byte{data, fixed} {
			x := NewAnimator(p.def)
			if err := x.UnmarshalBinary(b); err != nil {
				continue
			}
			for i := uint64(0); i < 8; i++ {
				x.Tick(feed(x, 9, i))
				p.state(x, sc)
			}
		}
	})
}
