package animator_test

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/mecanim/mecanim/animator"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
)

// corpusInputs sets parameters of a at random for tick i of run seed
// (triggers often, and cross-fades now and then, so transitions interrupt
// one another).
func corpusInputs(a *animator.Animator, seed, i uint64) {
	r := rand.New(rand.NewPCG(seed, i))
	c := a.Definition().Controller()
	if r.IntN(50) == 0 { // a script's cross-fade; two close together interrupt
		a.CrossFade(0, r.IntN(len(c.StateMachines[c.Layers[0].StateMachine].States)), 0.3, 0)
	}
	for p, par := range c.Parameters {
		if r.IntN(5) != 0 {
			continue
		}
		switch par.Type {
		case model.ParamFloat:
			a.SetFloat(p, float32(r.IntN(40))/16)
		case model.ParamInt:
			a.SetInt(p, int32(r.IntN(4)))
		case model.ParamBool:
			a.SetBool(p, r.IntN(2) == 0)
		case model.ParamTrigger:
			if r.IntN(4) == 0 {
				a.SetTrigger(p)
			}
		}
	}
}

// TestCorpusSnapshotsRestoreBitIdentically: the enemy (generic, three
// layers) and the dance controller (humanoid) restored from snapshots
// taken during transitions tick and pose as the originals, bit for bit,
// for 300 ticks.
func TestCorpusSnapshotsRestoreBitIdentically(t *testing.T) {
	type run struct {
		name string
		def  *animator.Definition
		pose func(*animator.Animator, []geom.Transform)
		n    int
	}
	var runs []run
	{
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
		sc := p.NewScratch()
		runs = append(runs, run{"enemy", d, func(a *animator.Animator, dst []geom.Transform) { p.Pose(a, sc, dst) }, skel.Len()})
	}
	{
		cc := loadController(t, "lethal-emotes/customemotespackage", "dancecontroller")
		hr, hc := danceRig(t, cc)
		d, err := animator.Compile(cc.c, hc)
		if err != nil {
			t.Fatal(err)
		}
		p, err := animator.NewHumanPoser(d, hr)
		if err != nil {
			t.Fatal(err)
		}
		sc := p.NewScratch()
		runs = append(runs, run{"dance", d, func(a *animator.Animator, dst []geom.Transform) { p.Apply(a, sc, dst) }, hr.Len()})
	}
	for _, r := range runs {
		bits := func(a *animator.Animator, pose []geom.Transform) []byte {
			b, err := a.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			r.pose(a, pose)
			for _, x := range pose {
				for _, f := range []float32{x.T.X, x.T.Y, x.T.Z, x.R.X, x.R.Y, x.R.Z, x.R.W, x.S.X, x.S.Y, x.S.Z} {
					b = binary.LittleEndian.AppendUint32(b, math.Float32bits(f))
				}
			}
			return b
		}
		pa, pb := make([]geom.Transform, r.n), make([]geom.Transform, r.n)
		taken := 0
		for seed := uint64(1); seed <= 4; seed++ {
			a := animator.NewAnimator(r.def)
			i := uint64(0)
			for ; i < 900; i++ {
				corpusInputs(a, seed, i)
				a.Tick(1.0 / 60)
				inTrans := false
				for l := 0; l < a.Layers(); l++ {
					inTrans = inTrans || a.Layer(l).InTransition
				}
				if inTrans && i > 20*seed {
					break
				}
			}
			if i == 900 {
				continue
			}
			taken++
			snap, err := a.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			y := animator.NewAnimator(r.def)
			y.Tick(0.37)
			if err := y.UnmarshalBinary(snap); err != nil {
				t.Fatal(err)
			}
			for k := i + 1; k < i+300; k++ {
				corpusInputs(a, seed+10, k)
				corpusInputs(y, seed+10, k)
				a.Tick(1.0 / 60)
				y.Tick(1.0 / 60)
				if !bytes.Equal(bits(a, pa), bits(y, pb)) {
					t.Fatalf("%s: restored at tick %d, tick %d differs", r.name, i, k)
				}
			}
		}
		if taken == 0 {
			t.Errorf("%s: no tick was in transition", r.name)
		}
	}
}
