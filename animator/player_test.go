package animator

import (
	"math"
	"testing"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
)

func linearKeys(v0, v1, length float32) []model.Keyframe {
	s := (v1 - v0) / length
	return []model.Keyframe{{Time: 0, Value: v0, InSlope: s, OutSlope: s}, {Time: length, Value: v1, InSlope: s, OutSlope: s}}
}

func testSkeleton(t testing.TB) *anim.Skeleton {
	s, err := anim.NewSkeleton([]string{"", "hips"}, []int{-1, 0},
		[]geom.Transform{geom.Identity, {T: geom.V3(0, 1, 0), R: geom.Quat{W: 1}, S: geom.V3(1, 1, 1)}})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// moveClip moves "hips" along x from 0 to dist and turns it about y from 0
// to turn degrees over length seconds, at 30 frames per second.
func moveClip(t testing.TB, s *anim.Skeleton, name string, length, dist, turn float32, loop bool, events ...model.Event) *anim.Clip {
	tgt := func(prop model.TransformProp, comp int, prefix string) model.Target {
		return model.Target{Path: "hips", PathHash: model.PathHash("hips"), PathKnown: true, ClassID: model.ClassTransform,
			Attribute: uint32(prop), Transform: prop, Component: comp, Property: prefix, RotationOrder: geom.OrderZXY}
	}
	c := &model.Clip{Name: name, SampleRate: 30, Start: 0, Stop: length, Settings: model.LoopSettings{LoopTime: loop}, Events: events,
		Curves: []model.Curve{
			{Target: tgt(model.PropPosition, 0, "m_LocalPosition.x"), Kind: model.CurveKeyframed, Keys: linearKeys(0, dist, length), PreInfinity: model.InfinityClamp, PostInfinity: model.InfinityClamp},
			{Target: tgt(model.PropPosition, 1, "m_LocalPosition.y"), Kind: model.CurveConstant, Value: 1},
			{Target: tgt(model.PropPosition, 2, "m_LocalPosition.z"), Kind: model.CurveConstant, Value: 0},
			{Target: tgt(model.PropEuler, 0, "localEulerAnglesRaw.x"), Kind: model.CurveConstant, Value: 0},
			{Target: tgt(model.PropEuler, 1, "localEulerAnglesRaw.y"), Kind: model.CurveKeyframed, Keys: linearKeys(0, turn, length), PreInfinity: model.InfinityClamp, PostInfinity: model.InfinityClamp},
			{Target: tgt(model.PropEuler, 2, "localEulerAnglesRaw.z"), Kind: model.CurveConstant, Value: 0},
		}}
	ac, err := anim.Bake(c, s)
	if err != nil {
		t.Fatal(err)
	}
	return ac
}

func yaw(q geom.Quat) float64 {
	v := q.Rotate(geom.V3(0, 0, 1))
	return math.Atan2(float64(v.X), float64(v.Z)) * 180 / math.Pi
}

func TestPlayerExtrapolation(t *testing.T) {
	s := testSkeleton(t)
	tests := []struct {
		name           string
		loop           bool
		mode           Extrapolation
		at             float32
		wantX, wantYaw float64
	}{
		{"inside the clip plays the clip", false, ExtrapolateContinuous, 0.5, 0.5, 15},
		{"none on a clamped clip holds the end", false, ExtrapolateNone, 1.5, 1, 30},
		{"none on a looping clip wraps", true, ExtrapolateNone, 1.25, 0.25, 7.5},
		{"hold on a looping clip holds the end", true, ExtrapolateHold, 1.25, 1, 30},
		{"continuous carries position and rotation on", false, ExtrapolateContinuous, 1.5, 1.5, 45},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pc := &PlayerClip{Clip: moveClip(t, s, "move", 1, 1, 30, tc.loop), Extrapolation: tc.mode}
			p := NewPlayer(s)
			p.Play(pc, 0)
			for i := 0; i < int(tc.at*8+0.5); i++ {
				p.Tick(0.125)
			}
			pose := make([]geom.Transform, s.Len())
			p.Pose(pose)
			if x := float64(pose[1].T.X); math.Abs(x-tc.wantX) > 1e-3 {
				t.Errorf("x %v, want %v", x, tc.wantX)
			}
			if y := yaw(pose[1].R); math.Abs(y-tc.wantYaw) > 1e-2 {
				t.Errorf("yaw %v°, want %v°", y, tc.wantYaw)
			}
		})
	}
}

func TestPlayerCrossfadeAndSpeed(t *testing.T) {
	s := testSkeleton(t)
	a := &PlayerClip{Clip: moveClip(t, s, "a", 1, 0, 0, true)}
	b := &PlayerClip{Clip: moveClip(t, s, "b", 1, 2, 0, false), Speed: SpeedForTicks(30, 60)}
	p := NewPlayer(s)
	p.Play(a, 0)
	p.Tick(0.25)
	p.Play(b, 0.5)
	p.Tick(0.25)
	st := p.States()
	if len(st) != 2 || st[0].Weight != 0.5 || st[1].Weight != 0.5 {
		t.Fatalf("half way through the fade: %+v", st)
	}
	if st[1].Time != 0.125 {
		t.Errorf("speed 30/60 played %v s of b in 0.25 s", st[1].Time)
	}
	pose := make([]geom.Transform, s.Len())
	p.Pose(pose)
	if x := pose[1].T.X; math.Abs(float64(x)-0.5*0.25) > 1e-5 { // b at 0.125 s is 0.25 m
		t.Errorf("blended x %v", x)
	}
	p.Tick(0.25)
	if st := p.States(); len(st) != 1 || st[0].Clip != b || st[0].Weight != 1 {
		t.Errorf("after the fade: %+v", st)
	}
	// Frame-rate override: 60 fps frames of a 30 fps clip play twice as fast.
	fr := &PlayerClip{Clip: moveClip(t, s, "fr", 1, 1, 0, false), FrameRate: 60}
	p.Play(fr, 0)
	p.Tick(0.25)
	if st := p.States(); st[0].Time != 0.5 {
		t.Errorf("frame-rate override: time %v", st[0].Time)
	}
}

func TestPlayerEventsAndNoAllocation(t *testing.T) {
	s := testSkeleton(t)
	pc := &PlayerClip{Clip: moveClip(t, s, "ev", 1, 1, 0, true, model.Event{Time: 0.5, Function: "step"})}
	p := NewPlayer(s)
	p.Play(pc, 0)
	n := 0
	for i := 0; i < 40; i++ { // 2.5 s of a 1 s loop: 0.5, 1.5, 2.5
		p.Tick(1.0 / 16)
		n += len(p.Events())
	}
	if n != 3 {
		t.Errorf("%d events, want 3", n)
	}
	pose := make([]geom.Transform, s.Len())
	other := &PlayerClip{Clip: moveClip(t, s, "o", 1, 1, 10, false), Extrapolation: ExtrapolateContinuous}
	i := 0
	if allocs := testing.AllocsPerRun(100, func() {
		if i%20 == 0 {
			p.Play([]*PlayerClip{pc, other}[i/20%2], 0.1)
		}
		p.Tick(1.0 / 60)
		p.Pose(pose)
		i++
	}); allocs != 0 {
		t.Errorf("%v allocs per tick", allocs)
	}
}

func TestPlayerPlayResumesAndRestartRestarts(t *testing.T) {
	s := testSkeleton(t)
	idle := &PlayerClip{Clip: moveClip(t, s, "idle", 1, 0, 0, true)}
	run := &PlayerClip{Clip: moveClip(t, s, "run", 1, 1, 0, true)}
	p := NewPlayer(s)
	p.Play(run, 0)
	p.Tick(0.25)
	p.Play(idle, 0.5)
	p.Tick(0.25) // run at 0.5 s, weight 0.5
	p.Play(run, 0.5)
	st := p.States()
	if len(st) != 2 || st[1].Clip != run || st[1].Time != 0.5 || st[1].Weight != 0.5 {
		t.Fatalf("Play of a clip fading out should resume it: %+v", st)
	}
	p.Tick(0.25) // run fades back in from 0.5 over 0.5 s at speed 1/0.5·0.5
	if st := p.States(); st[1].Weight != 0.75 || st[0].Weight != 0.25 {
		t.Errorf("resumed fade: %+v", st)
	}
	p.Restart(run, 0.2)
	st = p.States()
	if last := st[len(st)-1]; last.Clip != run || last.Time != 0 || last.Weight != 0 {
		t.Errorf("Restart should start a fresh copy: %+v", st)
	}
	if n := len(st); n != 3 {
		t.Errorf("%d states after a restart, want the old copy fading out too", n)
	}
	p.Play(idle, 0)
	if st := p.States(); len(st) != 1 || st[0].Clip != idle || st[0].Weight != 1 {
		t.Errorf("a cut keeps only the played clip: %+v", st)
	}
}
