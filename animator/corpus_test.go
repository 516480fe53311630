package animator_test

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/animator"
	"github.com/mecanim/mecanim/decode/compiled"
	"github.com/mecanim/mecanim/decode/yamlasset"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/humanoid"
	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/present/playscript"
	"github.com/mecanim/mecanim/unity/assets"
)

// corpusController is a compiled controller of the corpus with its clips
// (parallel to Controller.Clips; nil where a clip is in another file).
type corpusController struct {
	c     *model.Controller
	clips []*model.Clip
	file  *assets.File
	id    int64 // the controller's path id
}

// loadController decodes the controller called name in the corpus file rel,
// and the clips it names from the same file.
func loadController(t testing.TB, rel, name string) *corpusController {
	t.Helper()
	ct, err := assets.Open(corpustest.Path(t, rel), assets.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ct.Close() })
	for _, f := range ct.Files {
		objs := f.Find(name, model.ClassAnimatorController)
		if len(objs) == 0 {
			continue
		}
		v, err := f.Decode(objs[0])
		if err != nil {
			t.Fatal(err)
		}
		c, err := compiled.Controller(v, f.UnityVersion)
		if err != nil {
			t.Fatal(err)
		}
		out := &corpusController{c: c, clips: make([]*model.Clip, len(c.Clips)), file: f, id: objs[0].PathID}
		for i, r := range c.Clips {
			if r.IsNull() || r.FileID != 0 {
				continue
			}
			for j := range f.Objects {
				o := &f.Objects[j]
				if o.PathID != r.PathID {
					continue
				}
				cv, err := f.Decode(o)
				if err != nil {
					t.Fatal(err)
				}
				if out.clips[i], err = compiled.Clip(cv, f.UnityVersion); err != nil {
					t.Fatal(err)
				}
			}
		}
		return out
	}
	t.Fatalf("%s: no controller %q", rel, name)
	return nil
}

// yamlController converts the YAML source of a controller and gives each
// of its clips the compiled clip that the compiled controller's state of
// the same name plays (the YAML names clips only by GUID).
func yamlController(t *testing.T, rel string, cc *corpusController) *corpusController {
	t.Helper()
	f, err := yamlasset.ParseFile(corpustest.Path(t, rel))
	if err != nil {
		t.Fatal(err)
	}
	c, err := f.Controller()
	if err != nil {
		t.Fatal(err)
	}
	byState := map[string]*model.Clip{}
	for _, m := range cc.c.StateMachines {
		for _, st := range m.States {
			for _, tr := range st.Motions {
				for _, n := range tr.Nodes {
					if len(n.Children) == 0 && n.Clip >= 0 && n.Clip < len(cc.clips) {
						byState[st.Name] = cc.clips[n.Clip]
					}
				}
			}
		}
	}
	out := &corpusController{c: c, clips: make([]*model.Clip, len(c.Clips))}
	for _, m := range c.StateMachines {
		for _, st := range m.States {
			for _, tr := range st.Motions {
				for _, n := range tr.Nodes {
					if len(n.Children) == 0 && n.Clip >= 0 && n.Clip < len(out.clips) && byState[st.Name] != nil {
						out.clips[n.Clip] = byState[st.Name]
					}
				}
			}
		}
	}
	return out
}

func (cc *corpusController) run(t *testing.T, script string, rate float64) []playscript.Record {
	t.Helper()
	a, err := animator.New(cc.c, animator.TimingClips(cc.clips))
	if err != nil {
		t.Fatal(err)
	}
	s, err := playscript.Parse([]byte(script))
	if err != nil {
		t.Fatal(err)
	}
	recs, err := playscript.Run(a, s, rate)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// clipLength is the length of the clip state plays in cc (first leaf).
func (cc *corpusController) clipLength(t *testing.T, layer int, state string) float64 {
	m := &cc.c.StateMachines[cc.c.Layers[layer].StateMachine]
	for _, st := range m.States {
		if st.Name == state {
			for _, n := range st.Motions[0].Nodes {
				if n.Clip >= 0 && cc.clips[n.Clip] != nil {
					return float64(cc.clips[n.Clip].Length())
				}
			}
		}
	}
	t.Fatalf("no clip for state %q", state)
	return 0
}

// change is a layer entering a state: by a transition starting (to is the
// destination) or at once.
type change struct {
	t        float64
	layer    int
	from, to string
}

// changes lists when each layer's destination (or, for instant changes,
// its state) changed.
func changes(recs []playscript.Record) []change {
	var out []change
	prev := map[int][2]string{}
	for _, r := range recs {
		for _, l := range r.Layers {
			p, seen := prev[l.Layer]
			cur := [2]string{l.State, l.Next}
			if seen && cur != p {
				switch {
				case l.Next != "" && l.Next != p[1]:
					out = append(out, change{r.T, l.Layer, l.State, l.Next})
				case l.Next == "" && p[1] == "" && l.State != p[0]:
					out = append(out, change{r.T, l.Layer, p[0], l.State})
				}
			}
			prev[l.Layer] = cur
		}
	}
	return out
}

// checkChanges compares the changes with those expected, each within one
// tick of its time.
func checkChanges(t *testing.T, got, want []change, tick float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%d changes, want %d:\n got %v\nwant %v", len(got), len(want), got, want)
		return
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.layer != w.layer || g.from != w.from || g.to != w.to || math.Abs(g.t-w.t) > tick*1.01 {
			t.Errorf("change %d: got %+v, want %+v", i, g, w)
		}
	}
}

// The scripted session walks every transition of ExampleEnemyAnimator as
// its YAML source defines them: HeadBop→swingAttack on the swingAttack
// trigger and back at exit time 1; Empty⇄walkCycle on startWalk/stopWalk;
// KillEnemy sends all three layers to their die states by any-state
// transitions in the same tick.
func TestExampleEnemyAnimatorFollowsItsSource(t *testing.T) {
	cc := loadController(t, "lc-example-enemy/modassets", "ExampleEnemyAnimator")
	const script = `{"duration": 7, "events": [
		{"at": 0.5, "trigger": "startWalk"}, {"at": 1.0, "trigger": "swingAttack"},
		{"at": 2.5, "trigger": "stopWalk"}, {"at": 3.0, "trigger": "startWalk"},
		{"at": 3.5, "trigger": "swingAttack"}, {"at": 5.0, "trigger": "KillEnemy"}]}`
	const rate = 60
	recs := cc.run(t, script, rate)
	swing := cc.clipLength(t, 0, "swingAttack")
	tick := 1.0 / rate
	want := []change{
		{0.5 + tick, 1, "Empty", "walkCycle"},
		{1.0 + tick, 0, "HeadBop", "swingAttack"},
		{1.0 + tick + swing, 0, "swingAttack", "HeadBop"},
		{2.5 + tick, 1, "walkCycle", "Empty"},
		{3.0 + tick, 1, "Empty", "walkCycle"},
		{3.5 + tick, 0, "HeadBop", "swingAttack"},
		{3.5 + tick + swing, 0, "swingAttack", "HeadBop"},
		{5.0 + tick, 0, "HeadBop", "die-Head"},
		{5.0 + tick, 1, "walkCycle", "die-Legs"},
		{5.0 + tick, 2, "Empty", "die-Toilet"},
	}
	checkChanges(t, changes(recs), want, tick)
	// Every transition of the source lasts 0.25 s (fixed duration).
	for _, c := range changes(recs) {
		k := int(math.Round((c.t+0.25)*rate)) - 1
		if l := recs[k].Layers[c.layer]; l.State != c.to || l.Next != "" {
			t.Errorf("0.25 s after %+v: %+v", c, l)
		}
		if l := recs[k-1].Layers[c.layer]; l.Next != c.to || math.Abs(float64(l.Transition)-(0.25-tick)/0.25) > 1e-4 {
			t.Errorf("a tick before the end of %+v: %+v", c, l)
		}
	}
	last := recs[len(recs)-1]
	for i, s := range []string{"die-Head", "die-Legs", "die-Toilet"} {
		if l := last.Layers[i]; l.State != s || l.Next != "" {
			t.Errorf("layer %d ends in %+v, want %s", i, l, s)
		}
	}
	if w := last.Layers[0].Weight; w != 1 {
		t.Errorf("the base layer plays at weight %v (its stored weight is 0; Unity ignores it)", w)
	}

	// The controller converted from its YAML source runs identically.
	yc := yamlController(t, "lc-example-enemy/source/ExampleEnemyAnimator.controller", cc)
	a, _ := json.Marshal(recs)
	b, _ := json.Marshal(yc.run(t, script, rate))
	if !bytes.Equal(a, b) {
		t.Error("the YAML source's controller runs differently from the compiled one")
	}
}

// dancecontroller has no parameters; the emote code plays its states.
// Poop returns to "none" at exit time 1 with no fade; PoopToLoop goes on
// to LoopFromPoop with a 0.25 s fade at its exit time (1 in the compiled
// controller; the YAML source now says 0.918); Loop and none stay.
func TestDanceControllerFollowsItsSource(t *testing.T) {
	cc := loadController(t, "lethal-emotes/customemotespackage", "dancecontroller")
	const script = `{"duration": 20, "events": [
		{"at": 0.5, "play": "Poop"}, {"at": 8, "play": "PoopToLoop", "fade": 0.2},
		{"at": 14, "play": "Loop"}]}`
	const rate = 60
	recs := cc.run(t, script, rate)
	tick := 1.0 / rate
	poop, p2l := cc.clipLength(t, 0, "Poop"), cc.clipLength(t, 0, "PoopToLoop")
	if 0.5+poop > 8 || 8+0.2+p2l > 14 {
		t.Fatalf("script does not fit the clips (Poop %v s, PoopToLoop %v s)", poop, p2l)
	}
	want := []change{
		{0.5 + tick, 0, "none", "Poop"},
		{0.5 + tick + poop, 0, "Poop", "none"},
		{8 + tick, 0, "none", "PoopToLoop"},
		{8 + tick + p2l, 0, "PoopToLoop", "LoopFromPoop"},
		{14 + tick, 0, "LoopFromPoop", "Loop"},
	}
	checkChanges(t, changes(recs), want, tick)
	if r := recs[int(7.5*rate)]; r.Layers[0].State != "none" || r.Layers[0].NormalizedTime != 0 {
		t.Errorf("none has speed 0 and should stand still: %+v", r.Layers[0])
	}

	// The YAML source differs only in PoopToLoop's exit time.
	yc := yamlController(t, "lethal-emotes/source/dancecontroller.controller", cc)
	yrecs := yc.run(t, script, rate)
	yw := append([]change(nil), want...)
	yw[3].t = 8 + tick + 0.91847825*p2l
	checkChanges(t, changes(yrecs), yw, tick)
}

// piece_odin_statue is one looping 5 s state and nothing else.
func TestOdinStatueLoops(t *testing.T) {
	cc := loadController(t, "jotunn/kitbash", "piece_odin_statue")
	recs := cc.run(t, `{"duration": 12}`, 30)
	if ch := changes(recs); len(ch) != 0 {
		t.Errorf("changes %v", ch)
	}
	l := recs[len(recs)-1].Layers[0]
	if l.State != "piece_odin_statue" || math.Abs(float64(l.NormalizedTime)-12.0/5) > 1e-4 {
		t.Errorf("after 12 s: %+v", l)
	}
}

// The enemy's rig posed through a session: every clip binds to the rig,
// poses stay finite, the additive walk layer moves the pose, and the die
// states end somewhere else than the start.
func TestExampleEnemyPosesItsRig(t *testing.T) {
	cc := loadController(t, "lc-example-enemy/modassets", "ExampleEnemyAnimator")
	skel, clips, _ := enemyRig(t, cc)
	d, err := animator.Compile(cc.c, clips)
	if err != nil {
		t.Fatal(err)
	}
	p, err := animator.NewPoser(d, skel)
	if err != nil {
		t.Fatal(err)
	}
	a := animator.NewAnimator(d)
	sc := p.NewScratch()
	pose := func() []geom.Transform {
		out := make([]geom.Transform, skel.Len())
		p.Pose(a, sc, out)
		for j, x := range out {
			for _, v := range []float32{x.T.X, x.T.Y, x.T.Z, x.R.X, x.R.Y, x.R.Z, x.R.W, x.S.X, x.S.Y, x.S.Z} {
				if v != v || math.IsInf(float64(v), 0) {
					t.Fatalf("joint %s not finite: %+v", skel.Paths[j], x)
				}
			}
		}
		return out
	}
	differ := func(x, y []geom.Transform) float64 {
		var m float64
		for j := range x {
			m = math.Max(m, float64(x[j].T.Sub(y[j].T).Len()))
			m = math.Max(m, geom.AngleBetween(x[j].R, y[j].R))
		}
		return m
	}
	tick := func(sec float64) {
		for i := 0; i < int(sec*60+0.5); i++ {
			a.Tick(1.0 / 60)
		}
	}
	start := pose()
	a.SetTrigger(d.Param("startWalk"))
	tick(1.3)
	walking := pose()
	a.SetLayerWeight(1, 0)
	still := pose()
	if differ(walking, still) < 1e-3 {
		t.Error("the additive walk layer does not move the pose")
	}
	a.SetLayerWeight(1, 1)
	a.SetTrigger(d.Param("KillEnemy"))
	tick(4.5)
	if li := a.Layer(1); li.State != d.StateIndex(1, "die-Legs") {
		t.Fatalf("walk layer not dead: %+v", li)
	}
	if differ(pose(), start) < 1e-3 {
		t.Error("the die states end where the enemy started")
	}
}

// dancecontroller's humanoid emotes played on the avatar of the Animator
// that uses it: the Poser poses the avatar skeleton from humanoid clips,
// root motion comes from the body, and both stay finite.
func TestDanceControllerPosesItsAvatar(t *testing.T) {
	cc := loadController(t, "lethal-emotes/customemotespackage", "dancecontroller")
	hr, hc := danceRig(t, cc)
	d, err := animator.Compile(cc.c, hc)
	if err != nil {
		t.Fatal(err)
	}
	skel := hr.Skeleton()
	p, err := animator.NewPoser(d, skel)
	if err != nil {
		t.Fatal(err)
	}
	a := animator.NewAnimator(d)
	if !a.Play(0, d.StateIndex(0, "Loop"), 0) {
		t.Fatal("no Loop state")
	}
	sc := p.NewScratch()
	var prev []geom.Transform
	var moved float64
	for i := 0; i < 120; i++ {
		a.Tick(1.0 / 30)
		rm := a.RootMotion()
		dt, dq := rm.T, rm.R
		for _, v := range []float32{dt.X, dt.Y, dt.Z, dq.X, dq.Y, dq.Z, dq.W} {
			if v != v || math.IsInf(float64(v), 0) {
				t.Fatalf("root motion not finite: %v %v", dt, dq)
			}
		}
		pose := make([]geom.Transform, skel.Len())
		p.Pose(a, sc, pose)
		for j, x := range pose {
			if q := x.R; q.X != q.X || math.Abs(float64(q.Dot(q))-1) > 1e-3 {
				t.Fatalf("tick %d joint %d: rotation %v", i, j, q)
			}
			if prev != nil {
				moved = math.Max(moved, geom.AngleBetween(x.R, prev[j].R))
			}
		}
		prev = pose
	}
	if moved < 1e-3 {
		t.Error("the dance does not move the avatar")
	}
	pose := make([]geom.Transform, skel.Len())
	if n := testing.AllocsPerRun(50, func() { a.Tick(1.0 / 30); p.Pose(a, sc, pose) }); n != 0 {
		t.Errorf("%v allocs per humanoid tick and pose", n)
	}
}

// BenchmarkCrowdExampleEnemy ticks 1,000 ExampleEnemyAnimator instances (3
// layers, any-state transitions on a shared trigger) at 60 Hz, each walking,
// attacking and stopping on its own schedule.
func BenchmarkCrowdExampleEnemy(b *testing.B) {
	cc := loadController(b, "lc-example-enemy/modassets", "ExampleEnemyAnimator")
	d, err := animator.Compile(cc.c, animator.TimingClips(cc.clips))
	if err != nil {
		b.Fatal(err)
	}
	drv := animator.NewDriver(60)
	for i := 0; i < 1000; i++ {
		drv.Animators = append(drv.Animators, animator.NewAnimator(d))
	}
	trig := []int{d.Param("startWalk"), d.Param("swingAttack"), d.Param("stopWalk")}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j, a := range drv.Animators {
			if (i+j)%90 == 0 {
				a.SetTrigger(trig[(i+j)/90%3])
			}
		}
		drv.StepOnce()
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1000, "ns/animator-tick")
	b.ReportMetric(float64(drv.Animators[0].StateBytes()), "B/animator")
}

// enemyRig bakes the enemy controller's clips onto the rig of the Animator
// that plays it.
func enemyRig(t testing.TB, cc *corpusController) (*anim.Skeleton, []animator.Clip, []*anim.Clip) {
	rigs, err := compiled.RigsWith(cc.file.File, cc.file.Decode)
	if err != nil {
		t.Fatal(err)
	}
	var rig *model.Rig
	for _, r := range rigs {
		if r.Animator != nil && r.Animator.Controller.PathID == cc.id {
			rig = r
		}
	}
	if rig == nil {
		t.Fatal("no rig plays the controller")
	}
	skel, err := anim.SkeletonFromRig(rig)
	if err != nil {
		t.Fatal(err)
	}
	baked := make([]*anim.Clip, len(cc.clips))
	clips := make([]animator.Clip, len(cc.clips))
	for i, c := range cc.clips {
		if c == nil {
			continue
		}
		if baked[i], err = anim.Bake(c, skel); err != nil {
			t.Fatal(err)
		}
		// Each clip also animates one object that is not in the rig (a path
		// hash no node has: 10 channels), which is left out.
		if n := baked[i].UnresolvedChannels(); n > 10 || baked[i].TrackCount() == 0 {
			t.Errorf("clip %q: %d channels miss the rig, %d tracks bind", c.Name, n, baked[i].TrackCount())
		}
		clips[i] = animator.GenericClip(baked[i])
	}
	return skel, clips, baked
}

// BenchmarkPoseExampleEnemy ticks and poses 100 enemies (32 joints, three
// layers: base override plus two additive) per iteration.
func BenchmarkPoseExampleEnemy(b *testing.B) {
	cc := loadController(b, "lc-example-enemy/modassets", "ExampleEnemyAnimator")
	skel, clips, _ := enemyRig(b, cc)
	d, err := animator.Compile(cc.c, clips)
	if err != nil {
		b.Fatal(err)
	}
	p, err := animator.NewPoser(d, skel)
	if err != nil {
		b.Fatal(err)
	}
	sc := p.NewScratch()
	pose := make([]geom.Transform, skel.Len())
	benchPosedCrowd(b, d, func(a *animator.Animator) { a.SetTrigger(d.Param("startWalk")) },
		func(a *animator.Animator) { p.Pose(a, sc, pose) })
}

// benchPosedCrowd ticks and poses 100 Animators of d per iteration at 60 Hz,
// each started by start and spread over the first 100 ticks, and reports
// ns per Animator per tick and pose.
func benchPosedCrowd(b *testing.B, d *animator.Definition, start, pose func(*animator.Animator)) {
	var as []*animator.Animator
	for i := 0; i < 100; i++ {
		a := animator.NewAnimator(d)
		start(a)
		a.Tick(float64(float32(i) / 60))
		as = append(as, a)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, a := range as {
			a.Tick(1.0 / 60)
			pose(a)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/100, "ns/animator-tick+pose")
}

// BenchmarkPlayerExampleEnemy ticks and poses 100 Players crossfading
// between the enemy's clips with continuous extrapolation.
func BenchmarkPlayerExampleEnemy(b *testing.B) {
	cc := loadController(b, "lc-example-enemy/modassets", "ExampleEnemyAnimator")
	skel, _, baked := enemyRig(b, cc)
	var clips []*animator.PlayerClip
	for _, c := range baked {
		if c != nil {
			clips = append(clips, &animator.PlayerClip{Clip: c, Extrapolation: animator.ExtrapolateContinuous})
		}
	}
	var ps []*animator.Player
	for i := 0; i < 100; i++ {
		p := animator.NewPlayer(skel)
		p.Play(clips[i%len(clips)], 0)
		ps = append(ps, p)
	}
	pose := make([]geom.Transform, skel.Len())
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j, p := range ps {
			if (i+j)%30 == 0 {
				p.Play(clips[(i+j)/30%len(clips)], 0.1)
			}
			p.Tick(1.0 / 60)
			p.Pose(pose)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/100, "ns/player-tick+pose")
}

// danceRig bakes dancecontroller's humanoid clips onto the avatar of the
// Animator that plays it.
func danceRig(t testing.TB, cc *corpusController) (*humanoid.Rig, []animator.Clip) {
	rigs, err := compiled.RigsWith(cc.file.File, cc.file.Decode)
	if err != nil {
		t.Fatal(err)
	}
	var av *model.Avatar
	for _, r := range rigs {
		if r.Animator == nil || r.Animator.Controller.PathID != cc.id || r.Animator.Avatar.IsNull() {
			continue
		}
		for j := range cc.file.Objects {
			o := &cc.file.Objects[j]
			if o.PathID == r.Animator.Avatar.PathID {
				v, err := cc.file.Decode(o)
				if err != nil {
					t.Fatal(err)
				}
				if av, err = compiled.Avatar(v, cc.file.UnityVersion); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if av == nil {
		t.Fatal("no Animator with an avatar plays the controller")
	}
	hr, err := humanoid.NewRig(av)
	if err != nil {
		t.Fatal(err)
	}
	clips := make([]animator.Clip, len(cc.clips))
	for i, c := range cc.clips {
		if c == nil || !c.Humanoid {
			continue
		}
		h, err := humanoid.Bake(c, hr)
		if err != nil {
			t.Fatal(err)
		}
		clips[i] = animator.HumanClip(h)
	}
	return hr, clips
}

// HumanPoser blends dancecontroller's emotes in muscle space: one clip at
// full weight gives exactly its own pose; during a cross-fade the muscles
// are the weighted mean of the two clips'.
func TestHumanPoserBlendsInMuscleSpace(t *testing.T) {
	cc := loadController(t, "lethal-emotes/customemotespackage", "dancecontroller")
	hr, hc := danceRig(t, cc)
	d, err := animator.Compile(cc.c, hc)
	if err != nil {
		t.Fatal(err)
	}
	hp, err := animator.NewHumanPoser(d, hr)
	if err != nil {
		t.Fatal(err)
	}
	a := animator.NewAnimator(d)
	sc := hp.NewScratch()
	loop, poop := d.StateIndex(0, "Loop"), d.StateIndex(0, "Poop")
	a.Play(0, loop, 0)
	a.Tick(0.4)
	var got, want, other humanoid.Pose
	hp.Pose(a, sc, &got)
	cs := a.Contributions(0, nil)
	if len(cs) != 1 {
		t.Fatalf("contributions %+v", cs)
	}
	hc[cs[0].Clip].Human.SamplePose(cs[0].Time, &want)
	for m := range got.Muscles {
		if math.Abs(float64(got.Muscles[m]-want.Muscles[m])) > 1e-5 {
			t.Fatalf("muscle %d: %v, the clip says %v", m, got.Muscles[m], want.Muscles[m])
		}
	}
	a.CrossFade(0, poop, 1, 0)
	a.Tick(0.25)
	hp.Pose(a, sc, &got)
	cs = a.Contributions(0, cs)
	if len(cs) != 2 {
		t.Fatalf("cross-fade contributions %+v", cs)
	}
	hc[cs[0].Clip].Human.SamplePose(cs[0].Time, &want)
	hc[cs[1].Clip].Human.SamplePose(cs[1].Time, &other)
	for m := range got.Muscles {
		mix := want.Muscles[m]*cs[0].Weight + other.Muscles[m]*cs[1].Weight
		if math.Abs(float64(got.Muscles[m]-mix)) > 1e-5 {
			t.Fatalf("muscle %d: %v, the weighted mean is %v", m, got.Muscles[m], mix)
		}
	}
	// A mirrored state plays its clip left for right.
	cc.c.StateMachines[0].States[loop].Mirror = true
	defer func() { cc.c.StateMachines[0].States[loop].Mirror = false }()
	a.Play(0, loop, 0)
	a.Tick(0.4)
	hp.Pose(a, sc, &got)
	cs = a.Contributions(0, cs)
	hc[cs[0].Clip].Human.SamplePose(cs[0].Time, &want)
	la, ra := muscleIndex(t, "Left Arm Down-Up"), muscleIndex(t, "Right Arm Down-Up")
	sp := muscleIndex(t, "Spine Left-Right")
	if !cs[0].Mirror || got.Muscles[la] != want.Muscles[ra] || got.Muscles[ra] != want.Muscles[la] || got.Muscles[sp] != -want.Muscles[sp] {
		t.Errorf("mirrored: arms %v %v spine %v; clip arms %v %v spine %v", got.Muscles[la], got.Muscles[ra], got.Muscles[sp],
			want.Muscles[la], want.Muscles[ra], want.Muscles[sp])
	}
	if got.RootT.X != -want.RootT.X {
		t.Errorf("mirrored body x %v, clip %v", got.RootT.X, want.RootT.X)
	}

	dst := make([]geom.Transform, hr.Len())
	if n := testing.AllocsPerRun(20, func() { a.Tick(1.0 / 30); hp.Apply(a, sc, dst) }); n != 0 {
		t.Errorf("%v allocs per tick and pose", n)
	}
	for j, x := range dst {
		if q := x.R; q.X != q.X || math.Abs(float64(q.Dot(q))-1) > 1e-3 {
			t.Fatalf("joint %d: rotation %v", j, q)
		}
	}
}

func muscleIndex(t *testing.T, name string) int {
	a, ok := model.HumanAttributeByName(name)
	if !ok || a < model.FirstMuscleAttribute {
		t.Fatalf("no muscle %q", name)
	}
	return int(a - model.FirstMuscleAttribute)
}

// withTopLayer returns a copy of c with a layer "Top" over its layers: a
// copy of the base layer (its machine, full weight) changed by mod.
func withTopLayer(c *model.Controller, mod func(*model.Layer)) *model.Controller {
	out := *c
	out.Layers = append([]model.Layer(nil), c.Layers...)
	top := c.Layers[0]
	top.Name, top.Hash, top.Weight = "Top", 1, 1
	mod(&top)
	out.Layers = append(out.Layers, top)
	return &out
}

// humanPoser compiles c with clips hc and prepares posing rig hr.
func humanPoser(t testing.TB, c *model.Controller, hr *humanoid.Rig, hc []animator.Clip) (*animator.Definition, *animator.HumanPoser) {
	t.Helper()
	d, err := animator.Compile(c, hc)
	if err != nil {
		t.Fatal(err)
	}
	hp, err := animator.NewHumanPoser(d, hr)
	if err != nil {
		t.Fatal(err)
	}
	return d, hp
}

// loopUnderPoop plays dancecontroller's "Loop" on the base layer and
// "Poop" on the Top layer (see withTopLayer).
func loopUnderPoop(d *animator.Definition) func(*animator.Animator) {
	return func(a *animator.Animator) {
		a.Play(0, d.StateIndex(0, "Loop"), 0)
		a.Play(1, d.StateIndex(1, "Poop"), 0)
	}
}

// danceOverDance prepares c (dancecontroller with a Top layer) on hr with
// clips hc and plays loopUnderPoop for 0.4 s.
func danceOverDance(t testing.TB, c *model.Controller, hr *humanoid.Rig, hc []animator.Clip) (*animator.Animator, *animator.HumanPoser) {
	t.Helper()
	d, hp := humanPoser(t, c, hr, hc)
	a := animator.NewAnimator(d)
	loopUnderPoop(d)(a)
	a.Tick(0.4)
	return a, hp
}

// maskedDance poses dancecontroller with a Top layer of body mask m and
// blending b (and the base layer's mask replaced by baseMask when given),
// and returns the pose with what each layer's clip gives alone (and the
// top clip's first frame).
func maskedDance(t *testing.T, m model.HumanMask, b model.LayerBlending, baseMask *model.HumanMask) (got, below, above, aboveRef humanoid.Pose) {
	t.Helper()
	cc := loadController(t, "lethal-emotes/customemotespackage", "dancecontroller")
	hr, hc := danceRig(t, cc)
	c := withTopLayer(cc.c, func(top *model.Layer) { top.Blending, top.BodyMask = b, m[:] })
	if baseMask != nil {
		c.Layers[0].BodyMask = baseMask[:]
	}
	a, hp := danceOverDance(t, c, hr, hc)
	hp.Pose(a, hp.NewScratch(), &got)
	lo, hi := a.Contributions(0, nil), a.Contributions(1, nil)
	if len(lo) != 1 || len(hi) != 1 || lo[0].Clip == hi[0].Clip {
		t.Fatalf("contributions %+v / %+v", lo, hi)
	}
	hc[lo[0].Clip].Human.SamplePose(lo[0].Time, &below)
	hc[hi[0].Clip].Human.SamplePose(hi[0].Time, &above)
	hc[hi[0].Clip].Human.SamplePose(0, &aboveRef)
	return got, below, above, aboveRef
}

func near(a, b float32) bool { return math.Abs(float64(a-b)) <= 1e-5 }

// armsOnly is the body mask of an AvatarMask with both arms on only.
var armsOnly = model.HumanMaskFromParts([]uint32{0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0})

// A layer's body mask limits it to its body parts: over the base layer an
// override layer masked to the arms gives the arms' muscles its clip's
// values and leaves every other muscle, the body's position and the goals
// to the base layer; an additive one adds its change to the arms only;
// a masked base layer leaves out parts at the zero pose.
func TestHumanPoserAppliesBodyMasks(t *testing.T) {
	inArms := func(m int) bool { return m >= 37 && m < 55 }
	t.Run("override", func(t *testing.T) {
		got, below, above, _ := maskedDance(t, armsOnly, model.BlendOverride, nil)
		moved := 0
		for m := range got.Muscles {
			want := below.Muscles[m]
			if inArms(m) {
				want = above.Muscles[m]
			}
			if !near(got.Muscles[m], want) {
				t.Errorf("muscle %s: %v, want %v", model.MuscleNames[m], got.Muscles[m], want)
			}
			if inArms(m) && !near(below.Muscles[m], above.Muscles[m]) {
				moved++
			}
		}
		if moved == 0 {
			t.Fatal("the two clips agree on the arms: the test proves nothing")
		}
		if q := below.RootQ.Normalize(); got.RootT != below.RootT || !near(got.RootQ.Dot(q), 1) {
			t.Errorf("body %v %v, want the base layer's %v %v", got.RootT, got.RootQ, below.RootT, q)
		}
	})
	t.Run("additive", func(t *testing.T) {
		got, below, above, ref := maskedDance(t, armsOnly, model.BlendAdditive, nil)
		for m := range got.Muscles {
			want := below.Muscles[m]
			if inArms(m) {
				want += above.Muscles[m] - ref.Muscles[m]
			}
			if !near(got.Muscles[m], want) {
				t.Errorf("muscle %s: %v, want %v", model.MuscleNames[m], got.Muscles[m], want)
			}
		}
		if got.RootT != below.RootT {
			t.Errorf("body %v, want the base layer's %v", got.RootT, below.RootT)
		}
	})
	t.Run("full mask is no mask", func(t *testing.T) {
		got, _, above, _ := maskedDance(t, model.FullHumanMask(), model.BlendOverride, nil)
		for m := range got.Muscles {
			if !near(got.Muscles[m], above.Muscles[m]) {
				t.Fatalf("muscle %s: %v, want the top layer's %v", model.MuscleNames[m], got.Muscles[m], above.Muscles[m])
			}
		}
	})
	t.Run("masked base layer", func(t *testing.T) {
		noHead := model.HumanMaskFromParts([]uint32{0, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1})
		got, below, _, _ := maskedDance(t, model.HumanMask{}, model.BlendOverride, &noHead)
		for m := range got.Muscles {
			want := below.Muscles[m]
			if m >= 9 && m < 21 { // head: neck, head, eyes, jaw
				want = 0
			}
			if !near(got.Muscles[m], want) {
				t.Errorf("muscle %s: %v, want %v", model.MuscleNames[m], got.Muscles[m], want)
			}
		}
		if got.RootT != (geom.Vec3{}) || got.RootQ != (geom.Quat{W: 1}) {
			t.Errorf("body %v %v, want the origin, unrotated (root left out of the base mask)", got.RootT, got.RootQ)
		}
	})
}

// Apply lays the blended humanoid pose over the clips' Transform curves of
// non-human bones, which blend as Poser blends them, skeleton masks
// included.
func TestHumanPoserApplyKeepsNonHumanCurves(t *testing.T) {
	cc := loadController(t, "lethal-emotes/customemotespackage", "dancecontroller")
	hr, hc := danceRig(t, cc)
	skel := hr.Skeleton()
	node := -1
	for j := 1; j < skel.Len(); j++ {
		if !hr.IsHumanNode(j) && skel.Paths[j] != "" {
			node = j
			break
		}
	}
	if node < 0 {
		t.Skip("the dance avatar has no non-human bone")
	}
	// Poop also moves the node 0.5 along x.
	a0, _ := danceOverDance(t, withTopLayer(cc.c, func(*model.Layer) {}), hr, hc)
	poop := a0.Contributions(1, nil)[0].Clip
	moved := *cc.clips[poop]
	x := skel.Rest[node].T.X + 0.5
	moved.Curves = append(append([]model.Curve(nil), moved.Curves...), model.Curve{Kind: model.CurveConstant, Value: x,
		Target: model.Target{Path: skel.Paths[node], PathHash: model.PathHash(skel.Paths[node]), PathKnown: true,
			ClassID: model.ClassTransform, Attribute: uint32(model.PropPosition), Transform: model.PropPosition, Component: 0}})
	hc2 := append([]animator.Clip(nil), hc...)
	h, err := humanoid.Bake(&moved, hr)
	if err != nil {
		t.Fatal(err)
	}
	hc2[poop] = animator.HumanClip(h)
	other := model.MaskElement{PathHash: model.PathHash("no/such/bone"), Weight: 1}
	tests := []struct {
		name string
		mask []model.MaskElement
		want float32
	}{
		{"no skeleton mask", nil, x},
		{"skeleton mask without the bone", []model.MaskElement{other}, skel.Rest[node].T.X},
		{"skeleton mask with the bone at 0.5", []model.MaskElement{{PathHash: model.PathHash(skel.Paths[node]), Weight: 0.5}},
			skel.Rest[node].T.X + 0.25},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := withTopLayer(cc.c, func(top *model.Layer) { top.SkeletonMask = tc.mask })
			a, hp := danceOverDance(t, c, hr, hc2)
			sc := hp.NewScratch()
			dst := make([]geom.Transform, hr.Len())
			hp.Apply(a, sc, dst)
			if !near(dst[node].T.X, tc.want) {
				t.Errorf("non-human bone x %v, want %v", dst[node].T.X, tc.want)
			}
			var p humanoid.Pose
			hp.Pose(a, sc, &p)
			ref := make([]geom.Transform, hr.Len())
			hr.Apply(&p, ref)
			for j := range dst {
				if hr.IsHumanNode(j) && dst[j] != ref[j] {
					t.Fatalf("human bone %s: %v, the humanoid pose gives %v", skel.Paths[j], dst[j], ref[j])
				}
			}
			if n := testing.AllocsPerRun(10, func() { a.Tick(1.0 / 30); hp.Apply(a, sc, dst) }); n != 0 {
				t.Errorf("%v allocs per tick and pose", n)
			}
		})
	}
}

// BenchmarkHumanPoseDance ticks and poses 100 humanoid Animators of
// dancecontroller with a second, arms-only override layer at weight 0.7:
// muscle-space blending under a body mask, then muscles to bones on the
// dance avatar.
func BenchmarkHumanPoseDance(b *testing.B) {
	cc := loadController(b, "lethal-emotes/customemotespackage", "dancecontroller")
	hr, hc := danceRig(b, cc)
	c := withTopLayer(cc.c, func(top *model.Layer) { top.Weight, top.BodyMask = 0.7, armsOnly[:] })
	d, hp := humanPoser(b, c, hr, hc)
	sc := hp.NewScratch()
	pose := make([]geom.Transform, hr.Len())
	benchPosedCrowd(b, d, loopUnderPoop(d), func(a *animator.Animator) { hp.Apply(a, sc, pose) })
}

// FootIK follows the base layer's states' Foot IK setting, blended across
// a transition (dancecontroller: on in Loop, off in "none").
func TestHumanPoserFootIKFollowsTheStates(t *testing.T) {
	cc := loadController(t, "lethal-emotes/customemotespackage", "dancecontroller")
	hr, hc := danceRig(t, cc)
	d, hp := humanPoser(t, cc.c, hr, hc)
	a := animator.NewAnimator(d)
	none, loop := d.StateIndex(0, "none"), d.StateIndex(0, "Loop")
	a.Play(0, none, 0)
	a.Tick(0.1)
	if w := hp.FootIK(a); w != 0 {
		t.Errorf("in \"none\": %v, want 0", w)
	}
	a.CrossFade(0, loop, 1, 0)
	a.Tick(0.25)
	info := a.Layer(0)
	if w := hp.FootIK(a); !info.InTransition || !near(w, info.Transition) {
		t.Errorf("fading into Loop at %v: %v, want the progress", info.Transition, w)
	}
	a.Tick(1)
	if w := hp.FootIK(a); w != 1 {
		t.Errorf("in Loop: %v, want 1", w)
	}
	// The weight drives humanoid.Rig.SolveFeet: the feet then come nearer
	// the pose's foot goals (a goal past the leg's reach on this avatar is
	// approached, not met).
	var p humanoid.Pose
	hp.Pose(a, hp.NewScratch(), &p)
	var before, after [4]humanoid.Goal
	hr.Goals(&p, &before)
	goals := p.Goals
	hr.SolveFeet(&p, hp.FootIK(a))
	hr.Goals(&p, &after)
	for f := 0; f < 2; f++ {
		d0, d1 := before[f].T.Sub(goals[f].T), after[f].T.Sub(p.Goals[f].T)
		if d1.Dot(d1) > d0.Dot(d0) || d1.Dot(d1) > 4e-4 {
			t.Errorf("foot %d: %.4f from its goal after SolveFeet, %.4f before", f, math.Sqrt(float64(d1.Dot(d1))), math.Sqrt(float64(d0.Dot(d0))))
		}
	}
}
