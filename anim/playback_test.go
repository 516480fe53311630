package anim

import (
	"math"
	"math/rand"
	"testing"

	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
)

func TestAdvanceWrapModes(t *testing.T) {
	cases := []struct {
		name             string
		t, delta, length float32
		mode             model.WrapMode
		want             float32
		loops            int
	}{
		{"loop inside", 0.2, 0.3, 1, model.WrapLoop, 0.5, 0},
		{"loop past the end", 0.75, 0.5, 1, model.WrapLoop, 0.25, 1},
		{"loop several cycles", 0.5, 2.75, 1, model.WrapLoop, 0.25, 3},
		{"loop exactly to the end wraps to 0", 0.5, 0.5, 1, model.WrapLoop, 0, 1},
		{"loop backward past 0", 0.25, -0.5, 1, model.WrapLoop, 0.75, -1},
		{"loop backward several cycles", 0.25, -2.5, 1, model.WrapLoop, 0.75, -3},
		{"loop backward exactly to 0 stays", 0.5, -0.5, 1, model.WrapLoop, 0, 0},
		{"once clamps at the end", 0.75, 0.5, 1, model.WrapOnce, 1, 0},
		{"once clamps at 0 backward", 0.25, -0.5, 1, model.WrapOnce, 0, 0},
		{"default plays once", 0.75, 0.5, 1, model.WrapDefault, 1, 0},
		{"clamp forever holds the end", 0.75, 9, 1, model.WrapClampForever, 1, 0},
		{"ping-pong forward leg", 0.25, 0.5, 1, model.WrapPingPong, 0.75, 0},
		{"ping-pong into the backward leg", 0.75, 0.5, 1, model.WrapPingPong, 1.25, 0},
		{"ping-pong past a whole period", 1.75, 0.5, 1, model.WrapPingPong, 0.25, 1},
		{"ping-pong backward past 0", 0.25, -0.5, 1, model.WrapPingPong, 1.75, -1},
		{"zero length", 0.5, 1, 0, model.WrapLoop, 0, 0},
		{"NaN delta", 0.5, float32(math.NaN()), 1, model.WrapLoop, 0, 0},
	}
	for _, k := range cases {
		got, loops := Advance(k.t, k.delta, k.length, k.mode)
		if math.Abs(float64(got-k.want)) > 1e-6 || loops != k.loops {
			t.Errorf("%s: Advance(%g, %g, %g, %d) = %g, %d; want %g, %d", k.name, k.t, k.delta, k.length, k.mode, got, loops, k.want, k.loops)
		}
	}
}

func TestPingPongTimeFolds(t *testing.T) {
	for _, k := range []struct{ phase, want float32 }{{0, 0}, {0.25, 0.25}, {1, 1}, {1.25, 0.75}, {1.999, 0.001}} {
		if got := PingPongTime(k.phase, 1); math.Abs(float64(got-k.want)) > 1e-6 {
			t.Errorf("PingPongTime(%g) = %g want %g", k.phase, got, k.want)
		}
	}
}

func TestClipAdvanceDefaultFollowsTheClip(t *testing.T) {
	sk := chainSkeleton(2)
	loop, _ := Bake(&model.Clip{Stop: 1, Settings: model.LoopSettings{LoopTime: true}}, sk)
	once, _ := Bake(&model.Clip{Stop: 1}, sk)
	pp, _ := Bake(&model.Clip{Stop: 1, WrapMode: model.WrapPingPong}, sk)
	if got, n := loop.Advance(0.75, 0.5, model.WrapDefault); got != 0.25 || n != 1 {
		t.Errorf("LoopTime clip: %g %d", got, n)
	}
	if got, n := once.Advance(0.75, 0.5, model.WrapDefault); got != 1 || n != 0 {
		t.Errorf("plain clip: %g %d", got, n)
	}
	if got, n := pp.Advance(0.75, 0.5, model.WrapDefault); got != 1.25 || n != 0 {
		t.Errorf("ping-pong clip: %g %d", got, n)
	}
}

func eventClip(t *testing.T) *Clip {
	sk := chainSkeleton(2)
	c, err := Bake(&model.Clip{Stop: 1, Events: []model.Event{
		{Time: 1, Function: "end"}, {Time: 0.25, Function: "q"}, {Time: 0, Function: "start"}, {Time: 0.5, Function: "half"}}}, sk)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestCollectEventsHalfOpenAcrossLoops(t *testing.T) {
	c := eventClip(t)
	cases := []struct {
		name     string
		from, to float32
		loops    int
		want     string
	}{
		{"forward inside excludes the end of the step", 0.1, 0.5, 0, "q "},
		{"forward includes the start of the step", 0.25, 0.3, 0, "q "},
		{"forward from 0", 0, 0.3, 0, "start q "},
		{"forward reaching the clip end reports it", 0.6, 1, 0, "end "},
		{"empty step at the end reports nothing", 1, 1, 0, ""},
		{"empty step reports nothing", 0.25, 0.25, 0, ""},
		{"wrap reports end then start", 0.6, 0.3, 1, "end start q "},
		{"two wraps", 0.6, 0.1, 2, "end start q half end start "},
		{"backward inside excludes the end of the step", 0.6, 0.25, 0, "half "},
		{"backward reaching 0 reports it", 0.3, 0, 0, "q start "},
		{"backward wrap reports start then end", 0.3, 0.6, -1, "q start end "},
		{"backward two wraps", 0.3, 0.9, -2, "q start end half q start end "},
	}
	for _, k := range cases {
		var got string
		c.CollectEvents(k.from, k.to, k.loops, func(e model.Event) { got += e.Function + " " })
		if got != k.want {
			t.Errorf("%s: CollectEvents(%g, %g, %d) = %q want %q", k.name, k.from, k.to, k.loops, got, k.want)
		}
	}
}

func TestEventsFireOncePerCycleWhateverTheSteps(t *testing.T) {
	c := eventClip(t)
	rng := rand.New(rand.NewSource(3))
	for _, dir := range []float32{1, -1} {
		count := map[string]int{}
		tm, cycles := float32(0), 0
		if dir < 0 {
			tm = 0.999
		}
		for cycles*int(dir) < 50 && -cycles*int(dir) < 50 {
			// Steps of every size, some landing exactly on events.
			d := float32(rng.Intn(8)) * 0.125
			if rng.Intn(3) == 0 {
				d = rng.Float32() * 1.7
			}
			nt, loops := c.Advance(tm, dir*d, model.WrapLoop)
			c.CollectEvents(tm, nt, loops, func(e model.Event) { count[e.Function]++ })
			tm, cycles = nt, cycles+loops
		}
		for _, name := range []string{"start", "q", "half", "end"} {
			if n := count[name]; n < 49 || n > 51 {
				t.Errorf("direction %g: %s fired %d times over 50 cycles", dir, name, n)
			}
		}
	}
}

// rootClip moves its root joint 2 units per second along x while turning
// 90° per second about y.
func rootClip(t *testing.T) *Clip {
	sk := chainSkeleton(3)
	p := sk.Paths[1]
	c := &model.Clip{Stop: 1, SampleRate: 30}
	c.Curves = append(c.Curves, model.Curve{Target: tgt(p, model.PropPosition, 0), Kind: model.CurveKeyframed,
		Keys: keys(0, 0, 2, 2, 1, 2, 2, 2)})
	c.Curves = append(c.Curves, rotCurves(p, model.CurveStreamed, spin(geom.V3(0, 1, 0), math.Pi/2), 60, 1)...)
	cl, err := Bake(c, sk)
	if err != nil {
		t.Fatal(err)
	}
	if cl.RootJoint() != 1 {
		t.Fatalf("root joint %d want 1", cl.RootJoint())
	}
	return cl
}

func motionNear(a, b RootMotion, tol float64) bool {
	return a.T.Sub(b.T).Len() < float32(tol) && angleDeg(a.R, b.R) < tol*100
}

func TestExtractRootMotionAcrossLoops(t *testing.T) {
	c := rootClip(t)
	// Pure translation check on a clip without rotation.
	sk := chainSkeleton(2)
	lin, _ := Bake(&model.Clip{Stop: 1, Curves: []model.Curve{{Target: tgt(sk.Paths[1], model.PropPosition, 0),
		Kind: model.CurveKeyframed, Keys: keys(0, 0, 2, 2, 1, 2, 2, 2)}}}, sk)
	cases := []struct {
		name     string
		from, to float32
		loops    int
		wantX    float32
	}{
		{"inside", 0.25, 0.75, 0, 1},
		{"backward inside", 0.75, 0.25, 0, -1},
		{"one wrap", 0.5, 0.25, 1, 1.5},
		{"three wraps", 0.5, 0.25, 3, 5.5},
		{"one wrap backward", 0.25, 0.5, -1, -1.5},
		{"three wraps backward", 0.25, 0.5, -3, -5.5},
	}
	for _, k := range cases {
		m := lin.ExtractRootMotion(k.from, k.to, k.loops)
		if math.Abs(float64(m.T.X-k.wantX)) > 1e-5 || m.T.Y != 0 || angleDeg(m.R, geom.IdentityQuat) > 1e-4 {
			t.Errorf("%s: moved %+v want x %g", k.name, m, k.wantX)
		}
	}
	// With rotation: a whole loop turns 90°, so four loops come back to
	// the start orientation, and the motion of many small steps composes
	// to the motion of the whole span.
	if m := c.ExtractRootMotion(0, 0, 4); angleDeg(m.R, geom.IdentityQuat) > 1e-3 || m.T.Len() > 1e-4 {
		t.Errorf("four 90° loops should close the circle: %+v", m)
	}
	rng := rand.New(rand.NewSource(5))
	for _, dir := range []float32{1, -1} {
		acc := noMotion
		tm, total := float32(0.3), 0
		for i := 0; i < 200; i++ {
			nt, loops := c.Advance(tm, dir*rng.Float32()*0.4, model.WrapLoop)
			acc = acc.Then(c.ExtractRootMotion(tm, nt, loops))
			tm, total = nt, total+loops
		}
		whole := c.ExtractRootMotion(0.3, tm, total)
		if !motionNear(acc, whole, 1e-3) {
			t.Errorf("direction %g: steps compose to %+v, the whole span is %+v", dir, acc, whole)
		}
	}
}

func TestRootMotionInverse(t *testing.T) {
	m := RootMotion{T: geom.V3(1, 2, 3), R: geom.AxisAngle(geom.V3(0, 1, 0), 0.7)}
	if got := m.Then(m.Inverse()); !motionNear(got, noMotion, 1e-6) {
		t.Fatalf("m·m⁻¹ = %+v", got)
	}
}

func TestStepReportsEventsInEveryMode(t *testing.T) {
	c := eventClip(t)
	cases := []struct {
		name     string
		t, delta float32
		mode     model.WrapMode
		want     string
		newT     float32
		loops    int
	}{
		{"loop wrap is CollectEvents", 0.6, 0.7, model.WrapLoop, "end start q ", 0.3, 1},
		{"once stops at the end and reports it", 0.6, 0.9, model.WrapOnce, "end ", 1, 0},
		{"once at the end reports nothing more", 1, 0.5, model.WrapOnce, "", 1, 0},
		{"clamp backward to 0", 0.3, -0.9, model.WrapClampForever, "q start ", 0, 0},
		{"ping-pong starts with the event at 0", 0, 0.3, model.WrapPingPong, "start q ", 0.3, 0},
		{"ping-pong turn: the leg leaving the end reports it", 0.75, 0.5, model.WrapPingPong, "end ", 1.25, 0},
		{"ping-pong backward leg", 1.25, 0.5, model.WrapPingPong, "half ", 1.75, 0},
		{"ping-pong turn at 0", 1.75, 0.5, model.WrapPingPong, "q start ", 0.25, 1},
		{"ping-pong played backward", 0.25, -0.5, model.WrapPingPong, "q start ", 1.75, -1},
		{"ping-pong a whole period", 0.1, 2, model.WrapPingPong, "q half end half q start ", 0.1, 1},
	}
	for _, k := range cases {
		var got string
		nt, loops := c.Step(k.t, k.delta, k.mode, func(e model.Event) { got += e.Function + " " })
		if got != k.want || math.Abs(float64(nt-k.newT)) > 1e-6 || loops != k.loops {
			t.Errorf("%s: Step(%g, %g) = %g, %d, events %q; want %g, %d, %q", k.name, k.t, k.delta, nt, loops, got, k.newT, k.loops, k.want)
		}
	}
}

func TestPingPongEventsOncePerPass(t *testing.T) {
	c := eventClip(t)
	rng := rand.New(rand.NewSource(9))
	for _, dir := range []float32{1, -1} {
		count := map[string]int{}
		tm, periods := float32(0), 0
		for periods < 40 && periods > -40 {
			d := float32(rng.Intn(8)) * 0.125
			if rng.Intn(3) == 0 {
				d = rng.Float32() * 2.5
			}
			nt, loops := c.Step(tm, dir*d, model.WrapPingPong, func(e model.Event) { count[e.Function]++ })
			tm, periods = nt, periods+loops
		}
		// 40 periods: events inside the clip are passed twice a period,
		// the turning points once.
		for name, want := range map[string]int{"q": 80, "half": 80, "end": 40, "start": 40} {
			if n := count[name]; n < want-2 || n > want+2 {
				t.Errorf("direction %g: %s reported %d times, want about %d", dir, name, n, want)
			}
		}
	}
}

func TestStepRootMotion(t *testing.T) {
	c := rootClip(t)
	if m := c.StepRootMotion(0, 2, model.WrapPingPong); !motionNear(m, noMotion, 1e-4) {
		t.Errorf("a ping-pong period goes there and back: %+v", m)
	}
	if m, w := c.StepRootMotion(0.2, 0.5, model.WrapPingPong), c.ExtractRootMotion(0.2, 0.7, 0); !motionNear(m, w, 1e-5) {
		t.Errorf("ping-pong forward leg %+v want %+v", m, w)
	}
	if m, w := c.StepRootMotion(1.25, 0.5, model.WrapPingPong), c.ExtractRootMotion(0.75, 0.25, 0); !motionNear(m, w, 1e-5) {
		t.Errorf("ping-pong backward leg %+v want %+v", m, w)
	}
	if m, w := c.StepRootMotion(0.5, 2.75, model.WrapLoop), c.ExtractRootMotion(0.5, 0.25, 3); !motionNear(m, w, 1e-5) {
		t.Errorf("loop %+v want %+v", m, w)
	}
	if m, w := c.StepRootMotion(0.5, 2.75, model.WrapOnce), c.ExtractRootMotion(0.5, 1, 0); !motionNear(m, w, 1e-5) {
		t.Errorf("once %+v want %+v", m, w)
	}
	if got := c.SampleTime(1.25, model.WrapPingPong); got != 0.75 {
		t.Errorf("SampleTime of phase 1.25 = %g", got)
	}
}
