package animator

import (
	"math"
	"testing"

	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
)

// A Player restored from a snapshot taken mid-crossfade (three clips, one
// fading back in) ticks and poses to the bit as the Player it was taken
// from, events included, over 300 ticks; the snapshot allocates nothing
// once sized.
func TestPlayerRestoredFromASnapshotPlaysOnBitForBit(t *testing.T) {
	s := testSkeleton(t)
	walk := &PlayerClip{Clip: moveClip(t, s, "walk", 1, 1, 0, true, model.Event{Time: 0.5, Function: "step"})}
	turn := &PlayerClip{Clip: moveClip(t, s, "turn", 0.8, 0, 90, true), Speed: 1.3}
	hit := &PlayerClip{Clip: moveClip(t, s, "hit", 0.5, 0.2, 10, false, model.Event{Time: 0.25, Function: "hit"}), Extrapolation: ExtrapolateContinuous}
	script := func(p *Player, tick int) {
		switch tick % 90 {
		case 0:
			p.Play(walk, 0.3)
		case 20:
			p.Play(turn, 0.25)
		case 30:
			p.Restart(hit, 0.1)
		case 33:
			p.Play(walk, 0.4) // still fading out: fades back in from its weight
		}
	}
	live := NewPlayer(s)
	for tick := 0; tick < 35; tick++ {
		script(live, tick)
		live.Tick(1.0 / 60)
	}
	if len(live.States()) < 3 {
		t.Fatalf("%d states playing: the snapshot is not mid-crossfade", len(live.States()))
	}
	var snap PlayerSnapshot
	live.Snapshot(&snap)
	ghost := NewPlayer(s)
	if err := ghost.Restore(&snap); err != nil {
		t.Fatal(err)
	}
	a, b := make([]geom.Transform, s.Len()), make([]geom.Transform, s.Len())
	events := 0
	for tick := 35; tick < 335; tick++ {
		script(live, tick)
		script(ghost, tick)
		live.Tick(1.0 / 60)
		ghost.Tick(1.0 / 60)
		live.Pose(a)
		ghost.Pose(b)
		if !sameTransformBits(a, b) {
			t.Fatalf("tick %d: the restored player poses %v, the live one %v", tick, b, a)
		}
		if len(live.Events()) != len(ghost.Events()) {
			t.Fatalf("tick %d: %d events against %d", tick, len(ghost.Events()), len(live.Events()))
		}
		for i, e := range live.Events() {
			if g := ghost.Events()[i]; g.Clip != e.Clip || g.Event != e.Event || math.Float32bits(g.Weight) != math.Float32bits(e.Weight) {
				t.Fatalf("tick %d: event %d is %+v, want %+v", tick, i, g, e)
			}
		}
		events += len(live.Events())
	}
	if events == 0 {
		t.Fatal("no events crossed: the test compares none")
	}
	if n := testing.AllocsPerRun(100, func() { live.Snapshot(&snap); _ = ghost.Restore(&snap) }); n != 0 {
		t.Errorf("a snapshot and restore allocate %v times", n)
	}
}

// A snapshot of clips baked on another skeleton is refused, the player
// left as it was.
func TestPlayerRestoreRefusesAnotherSkeletonsClips(t *testing.T) {
	s, other := testSkeleton(t), testSkeleton(t)
	p := NewPlayer(other)
	p.Play(&PlayerClip{Clip: moveClip(t, other, "own", 1, 1, 0, true)}, 0)
	before := p.States()[0]
	q := NewPlayer(s)
	q.Play(&PlayerClip{Clip: moveClip(t, s, "theirs", 1, 1, 0, true)}, 0)
	var snap PlayerSnapshot
	q.Snapshot(&snap)
	if err := p.Restore(&snap); err == nil {
		t.Fatal("a snapshot of another skeleton's clips was restored")
	}
	if len(p.States()) != 1 || p.States()[0] != before {
		t.Fatal("a refused restore changed the player")
	}
}

func sameTransformBits(a, b []geom.Transform) bool {
	for i := range a {
		x, y := a[i], b[i]
		for _, d := range [][2]float32{{x.T.X, y.T.X}, {x.T.Y, y.T.Y}, {x.T.Z, y.T.Z}, {x.R.X, y.R.X}, {x.R.Y, y.R.Y}, {x.R.Z, y.R.Z}, {x.R.W, y.R.W}, {x.S.X, y.S.X}, {x.S.Y, y.S.Y}, {x.S.Z, y.S.Z}} {
			if math.Float32bits(d[0]) != math.Float32bits(d[1]) {
				return false
			}
		}
	}
	return true
}
