// gobench: the Go side of the ozz-animation comparison.
//
//	gobench bench [--quick] [--only LABEL]   timings (RESULT/INFO lines, the same format as ozzbench)
//	gobench compare LABEL OZZDUMP.csv        accuracy of an ozzbench --dump against mecanim
//	gobench info                             sizes, joint lists
//
// Clips (read from the original Unity files, baked once):
//
//	enemy_walk   lc-example-enemy/modassets "walkCycle" on the Animator's rig (anim.Clip)
//	dab          lethal-emotes "Dab" on FinalBeta2Avatar (humanoid.Clip: muscles -> bones)
//	dab_dense30  Go's anim.Clip baked from Dab's bone poses sampled at 30 Hz (what the glTF holds)
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"unsafe"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/bind"
	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/humanoid"
	"github.com/mecanim/mecanim/model"
)

var corpus = os.Getenv("CORPUS") // shared/corpus

type sampler interface {
	Sample(t float32, dst []geom.Transform)
	Duration() float32
}

type bcase struct {
	label    string
	sk       *anim.Skeleton
	s        sampler
	duration float32
	names    []string // last path component per joint (glTF node names)
	info     string
}

func threadCPU() float64 {
	var ts syscall.Timespec
	const clockThreadCPUTimeID = 3
	syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0)
	return float64(ts.Nano())
}

func wall() float64 {
	var ts syscall.Timespec
	const clockMonotonic = 1
	syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockMonotonic, uintptr(unsafe.Pointer(&ts)), 0)
	return float64(ts.Nano())
}

// rng is xorshift32, the same generator as ozzbench: floats in [0, 1).
type rng struct{ s uint32 }

func (r *rng) next() float32 {
	r.s ^= r.s << 13
	r.s ^= r.s >> 17
	r.s ^= r.s << 5
	return float32(r.s>>8) * (1.0 / 16777216.0)
}

func heap() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// retained measures the heap a value made by mk keeps alive: 16 copies are
// made and kept, the heap growth is divided by 16.
func retained(mk func() any) int64 {
	keep := make([]any, 16)
	h0 := heap()
	for i := range keep {
		keep[i] = mk()
	}
	h1 := heap()
	runtime.KeepAlive(keep)
	return (int64(h1) - int64(h0)) / int64(len(keep))
}

func lastName(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}

func names(sk *anim.Skeleton) []string {
	out := make([]string, sk.Len())
	for i, p := range sk.Paths {
		out[i] = lastName(p)
	}
	return out
}

func open(paths ...string) *bind.Set {
	set, err := bind.Open(context.Background(), paths, bind.Options{})
	for _, e := range bind.Errors(err) {
		fmt.Fprintln(os.Stderr, "open:", e)
	}
	return set
}

func loadCases(withDense bool) []*bcase {
	var cases []*bcase

	// Generic: the enemy's walk cycle on its Animator's rig.
	{
		set := open(corpus + "/lc-example-enemy/modassets")
		i, err := set.FindClip("walkCycle")
		check(err)
		m, err := set.Motion(context.Background(), i, nil)
		check(err)
		set.Close()
		mc, sk := m.Clip(), m.On().Skeleton()
		// Bake again, measuring what the baked clip retains on the heap.
		c, err := anim.Bake(mc, sk)
		check(err)
		bh := retained(func() any { c, _ := anim.Bake(mc, sk); return c })
		st := c.Stats()
		info := fmt.Sprintf("on=%q joints=%d tracks=%d unresolved=%d duration=%.6f stats_bytes=%d bake_heap_bytes=%d cubic=%d timelines=%d grid=%d indexed=%d dense=%d",
			m.On().Describe(), sk.Len(), c.TrackCount(), c.UnresolvedChannels(), c.Duration(), st.Bytes, bh,
			st.CubicChannels, st.Timelines, st.GridChannels, st.IndexedLines, st.DenseChannels)
		runtime.KeepAlive(mc)
		cases = append(cases, &bcase{"enemy_walk", sk, c, c.Duration(), names(sk), info})
	}

	// Humanoid: Dab on FinalBeta2Avatar (the avatar alone: its own
	// 120-node skeleton at its default pose).
	{
		set := open(corpus+"/lethal-emotes/customemotespackage", corpus+"/lethal-emotes/scavbody")
		i, err := set.FindClip("Dab")
		check(err)
		mc, err := set.Clip(i)
		check(err)
		ai, err := set.FindAvatar("FinalBeta2Avatar")
		check(err)
		av, err := set.Avatar(ai)
		check(err)
		ch, err := bound.NewCharacter(bound.CharacterInput{Name: av.Name, Avatar: av})
		check(err)
		m, err := bound.Bind(mc, model.Source{}, ch)
		check(err)
		var rsk *anim.Skeleton
		if withDense {
			// The scavEmoteSkeleton the glTF export wrote (94 nodes).
			ci, err := set.FindCharacter("CAB-6cac020821b9c8c2a103f5e0c44b78fc#-2529895578980821914")
			check(err)
			ch, err := set.Character(context.Background(), ci)
			check(err)
			rsk = ch.Skeleton()
		}
		set.Close()
		hc := m.HumanClip()
		rig := hc.Rig()
		sk := ch.Skeleton()
		c, err := humanoid.Bake(mc, rig)
		check(err)
		bh := retained(func() any { c, _ := humanoid.Bake(mc, rig); return c })
		st := c.Base().Stats()
		info := fmt.Sprintf("on=%q joints=%d rig_len=%d duration=%.6f base_stats_bytes=%d bake_heap_bytes=%d float_tracks=%d dense=%d cubic=%d",
			ch.Describe(), sk.Len(), rig.Len(), c.Duration(), st.Bytes, bh, st.FloatTracks, st.DenseChannels, st.CubicChannels)
		runtime.KeepAlive(mc)
		cases = append(cases, &bcase{"dab", sk, c, c.Duration(), names(sk), info})
		for _, ex := range extraHumanCases(mc, rig, sk) {
			cases = append(cases, ex)
		}

		if withDense {
			// The same bone poses the glTF export writes: the humanoid clip
			// sampled at its 30 Hz frames, put on the Animator's rig
			// (scavEmoteSkeleton, the glTF's 94 nodes) by path, as dense
			// curves baked by anim.
			dc := denseFromSampler(c, sk, rsk, 30)
			b, err := anim.Bake(dc, rsk)
			check(err)
			bh := retained(func() any { b, _ := anim.Bake(dc, rsk); return b })
			st := b.Stats()
			info := fmt.Sprintf("joints=%d tracks=%d duration=%.6f stats_bytes=%d bake_heap_bytes=%d dense=%d curves=%d unresolved=%d",
				rsk.Len(), b.TrackCount(), b.Duration(), st.Bytes, bh, st.DenseChannels, len(dc.Curves), b.UnresolvedChannels())
			runtime.KeepAlive(dc)
			cases = append(cases, &bcase{"dab_dense30", rsk, b, b.Duration(), names(rsk), info})
		}
	}
	return cases
}

// denseFromSampler samples s at rate Hz (frames 0..round(d*rate)) and makes
// a clip of dense curves for every joint property that changes.
func denseFromSampler(s sampler, src, sk *anim.Skeleton, rate float32) *model.Clip {
	d := s.Duration()
	n := int(math.Round(float64(d*rate))) + 1
	frames := make([][]geom.Transform, n)
	tmp := make([]geom.Transform, src.Len())
	for k := range frames {
		frames[k] = make([]geom.Transform, sk.Len())
		t := float32(k) / rate
		if t > d {
			t = d
		}
		s.Sample(t, tmp)
		for j := range frames[k] {
			frames[k][j] = sk.Rest[j]
			if i, ok := src.Index(sk.Paths[j]); ok {
				frames[k][j] = tmp[i]
			}
		}
	}
	// Quaternion hemisphere continuity.
	for k := 1; k < n; k++ {
		for j := range frames[k] {
			if frames[k][j].R.Dot(frames[k-1][j].R) < 0 {
				frames[k][j].R = frames[k][j].R.Neg()
			}
		}
	}
	c := &model.Clip{Name: "dense", SampleRate: rate, Start: 0, Stop: d, WrapMode: model.WrapLoop}
	tgt := func(j int, prop model.TransformProp, comp int) model.Target {
		return model.Target{Path: sk.Paths[j], PathHash: model.PathHash(sk.Paths[j]), PathKnown: true,
			ClassID: model.ClassTransform, Transform: prop, Component: comp}
	}
	get := func(tr *geom.Transform, prop model.TransformProp, comp int) float32 {
		switch prop {
		case model.PropPosition:
			return [3]float32{tr.T.X, tr.T.Y, tr.T.Z}[comp]
		case model.PropRotation:
			return [4]float32{tr.R.X, tr.R.Y, tr.R.Z, tr.R.W}[comp]
		}
		return [3]float32{tr.S.X, tr.S.Y, tr.S.Z}[comp]
	}
	for j := 0; j < sk.Len(); j++ {
		for _, pc := range []struct {
			prop  model.TransformProp
			comps int
		}{{model.PropPosition, 3}, {model.PropRotation, 4}, {model.PropScale, 3}} {
			varies := false
			for k := 1; k < n && !varies; k++ {
				for cc := 0; cc < pc.comps; cc++ {
					if get(&frames[k][j], pc.prop, cc) != get(&frames[0][j], pc.prop, cc) {
						varies = true
					}
				}
			}
			for cc := 0; cc < pc.comps; cc++ {
				if !varies {
					c.Curves = append(c.Curves, model.Curve{Target: tgt(j, pc.prop, cc), Kind: model.CurveConstant, Value: get(&frames[0][j], pc.prop, cc)})
					continue
				}
				smp := make([]float32, n)
				for k := range smp {
					smp[k] = get(&frames[k][j], pc.prop, cc)
				}
				c.Curves = append(c.Curves, model.Curve{Target: tgt(j, pc.prop, cc), Kind: model.CurveDense, Samples: smp, DenseBegin: 0, DenseRate: rate})
			}
		}
	}
	return c
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

var quick bool

// measure mirrors ozzbench's: calibrate to ~20 ms, then 5 repetitions of
// ~100 ms of thread CPU time; prints median, min, max CPU ns per op and the
// median wall ns per op.
func measure(impl, label, kase, space string, chars, joints int, body func(n int)) {
	const target = 100e6
	const reps = 5
	iters := 1
	for {
		c0 := threadCPU()
		body(iters)
		c := threadCPU() - c0
		if c > 20e6 {
			iters = int(float64(iters) * target / c)
			if iters < 1 {
				iters = 1
			}
			break
		}
		iters *= 4
	}
	cpu := make([]float64, reps)
	wl := make([]float64, reps)
	for r := 0; r < reps; r++ {
		c0, w0 := threadCPU(), wall()
		body(iters)
		c1, w1 := threadCPU(), wall()
		cpu[r] = (c1 - c0) / float64(iters)
		wl[r] = (w1 - w0) / float64(iters)
	}
	sort.Float64s(cpu)
	sort.Float64s(wl)
	fmt.Printf("RESULT impl=%s clip=%s case=%s space=%s chars=%d joints=%d iters=%d cpu_ns_op=%.1f cpu_min=%.1f cpu_max=%.1f wall_ns_op=%.1f\n",
		impl, label, kase, space, chars, joints, iters, cpu[reps/2], cpu[0], cpu[reps-1], wl[reps/2])
}

var sinkF float32

// implName labels the RESULT lines (--impl).
var implName = "mecanim"

// countLoop runs body n times; callgrind counts instructions inside it
// (--toggle-collect='main.countLoop*').
//
//go:noinline
func countLoop(n int, body func()) {
	for i := 0; i < n; i++ {
		body()
	}
}

// count runs n forward ticks of sampling ("local") or of local-to-model
// alone ("model") on case c, for callgrind.
func count(c *bcase, what string, n int) {
	J := c.sk.Len()
	local := make([]geom.Transform, J)
	world := make([]geom.Transform, J)
	t := float32(0)
	c.s.Sample(c.duration/2, local)
	if what == "model" {
		countLoop(n, func() { anim.LocalToModel(c.sk, local, world) })
	} else {
		countLoop(n, func() {
			c.s.Sample(t, local)
			if t += 1.0 / 60; t >= c.duration {
				t = float32(math.Mod(float64(t), float64(c.duration)))
			}
		})
	}
	fmt.Println(local[J-1].T.X + world[J-1].T.X)
}

func bench(c *bcase) {
	impl := implName
	sk, s, d := c.sk, c.s, c.duration
	J := sk.Len()
	local := make([]geom.Transform, J)
	world := make([]geom.Transform, J)
	const dt = float32(1.0 / 60)
	var sink float32

	for model := 0; model < 2; model++ {
		t := float32(0)
		sp := map[int]string{0: "local", 1: "local+model"}[model]
		measure(impl, c.label, "forward", sp, 1, J, func(n int) {
			for i := 0; i < n; i++ {
				s.Sample(t, local)
				if model == 1 {
					anim.LocalToModel(sk, local, world)
				}
				t += dt
				if t >= d {
					t = float32(math.Mod(float64(t), float64(d)))
				}
			}
			sink += local[0].T.X
		})
	}

	times := make([]float32, 4096)
	r := rng{1}
	for i := range times {
		times[i] = r.next() * d
	}
	for model := 0; model < 2; model++ {
		k := 0
		sp := map[int]string{0: "local", 1: "local+model"}[model]
		measure(impl, c.label, "seek", sp, 1, J, func(n int) {
			for i := 0; i < n; i++ {
				s.Sample(times[k&4095], local)
				k++
				if model == 1 {
					anim.LocalToModel(sk, local, world)
				}
			}
			sink += local[0].T.X
		})
	}

	for _, N := range []int{100, 1000, 4000} {
		if quick && N > 100 {
			break
		}
		ts := make([]float32, N) // the whole per-character state: its time
		r := rng{2}
		for i := range ts {
			ts[i] = r.next() * d
		}
		fmt.Printf("INFO impl=%s clip=%s crowd=%d state_bytes_per_char=%d\n", impl, c.label, N, unsafe.Sizeof(ts[0]))
		for model := 0; model < 2; model++ {
			sp := map[int]string{0: "local", 1: "local+model"}[model]
			measure(impl, c.label, "crowd", sp, N, J, func(n int) {
				for i := 0; i < n; i++ {
					for ci := range ts {
						s.Sample(ts[ci], local)
						if model == 1 {
							anim.LocalToModel(sk, local, world)
						}
						t := ts[ci] + dt
						if t >= d {
							t = float32(math.Mod(float64(t), float64(d)))
						}
						ts[ci] = t
					}
				}
				sink += local[0].T.X
			})
		}
	}
	sinkF = sink
}

// --- accuracy ---------------------------------------------------------------

type ozzRow struct {
	kind  string
	t     float32
	joint int
	tr    geom.Transform // converted to Unity's frame
}

func readDump(path string) (dur float32, jnames []string, parents []int, rows []ozzRow) {
	f, err := os.Open(path)
	check(err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	pf := func(s string) float32 { v, err := strconv.ParseFloat(s, 32); check(err); return float32(v) }
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "# duration ") {
			dur = pf(strings.Fields(line)[2])
			continue
		}
		fs := strings.Split(line, ",")
		switch fs[0] {
		case "joint":
			p, _ := strconv.Atoi(fs[2])
			jnames = append(jnames, strings.Join(fs[3:], ","))
			parents = append(parents, p)
		case "u", "f":
			j, _ := strconv.Atoi(fs[2])
			v := make([]float32, 10)
			for i := range v {
				v[i] = pf(fs[3+i])
			}
			// glTF -> Unity: x mirrored. T (-x, y, z), R (x, -y, -z, w), S unchanged.
			tr := geom.Transform{T: geom.Vec3{X: -v[0], Y: v[1], Z: v[2]}, R: geom.Quat{X: v[3], Y: -v[4], Z: -v[5], W: v[6]}, S: geom.Vec3{X: v[7], Y: v[8], Z: v[9]}}
			rows = append(rows, ozzRow{fs[0], pf(fs[1]), j, tr})
		}
	}
	return
}

func angleDeg(a, b geom.Quat) float64 {
	// angle of a^-1 b, in float64
	ax, ay, az, aw := float64(a.X), float64(a.Y), float64(a.Z), float64(a.W)
	bx, by, bz, bw := float64(b.X), float64(b.Y), float64(b.Z), float64(b.W)
	na := math.Sqrt(ax*ax + ay*ay + az*az + aw*aw)
	nb := math.Sqrt(bx*bx + by*by + bz*bz + bw*bw)
	ax, ay, az, aw = ax/na, ay/na, az/na, aw/na
	bx, by, bz, bw = bx/nb, by/nb, bz/nb, bw/nb
	// conj(a) * b
	w := aw*bw + ax*bx + ay*by + az*bz
	x := aw*bx - ax*bw - ay*bz + az*by
	y := aw*by + ax*bz - ay*bw - az*bx
	z := aw*bz - ax*by + ay*bx - az*bw
	v := math.Sqrt(x*x + y*y + z*z)
	return 2 * math.Atan2(v, math.Abs(w)) * 180 / math.Pi
}

func dist(a, b geom.Vec3) float64 {
	dx, dy, dz := float64(a.X-b.X), float64(a.Y-b.Y), float64(a.Z-b.Z)
	return math.Sqrt(dx*dx + dy*dy + dz*dz)
}

type stat struct {
	max  float64
	at   string
	sum  float64
	n    int
	vals []float64
}

func (s *stat) add(v float64, at string) {
	if v > s.max || s.n == 0 {
		if v > s.max {
			s.max, s.at = v, at
		}
	}
	s.sum += v
	s.n++
	s.vals = append(s.vals, v)
}

func (s *stat) p99() float64 {
	if len(s.vals) == 0 {
		return 0
	}
	v := append([]float64(nil), s.vals...)
	sort.Float64s(v)
	return v[int(0.99*float64(len(v)-1))]
}

func compare(cases []*bcase, label, dump string) {
	var c *bcase
	for _, x := range cases {
		if x.label == label {
			c = x
		}
	}
	if c == nil {
		check(fmt.Errorf("no case %s", label))
	}
	dur, jn, jp, rows := readDump(dump)
	J := c.sk.Len()
	// Map ozz joints to mecanim joints by path (names joined from the ozz
	// root's children down; the ozz root is the Animator's GameObject, "").
	opath := make([]string, len(jn))
	ozz2go := make([]int, len(jn))
	dups := 0
	for i, n := range jn {
		// The exporter makes duplicate node names unique with "_<node index>".
		if k := strings.LastIndexByte(n, '_'); k > 0 {
			if idx, err := strconv.Atoi(n[k+1:]); err == nil && idx < J && c.names[idx] == n[:k] {
				n = n[:k]
			}
		}
		join := func(n string) string {
			switch {
			case jp[i] < 0:
				return ""
			case jp[jp[i]] < 0:
				return n
			}
			return opath[jp[i]] + "/" + n
		}
		opath[i] = join(n)
		// Newer exports make them unique with " (<k>)", as Unity names copies.
		if _, ok := c.sk.Index(opath[i]); !ok && strings.HasSuffix(n, ")") {
			if k := strings.LastIndex(n, " ("); k > 0 {
				if _, err := strconv.Atoi(n[k+2 : len(n)-1]); err == nil {
					if _, ok := c.sk.Index(join(n[:k])); ok {
						opath[i] = join(n[:k])
					}
				}
			}
		}
		g, ok := c.sk.Index(opath[i])
		if !ok {
			fmt.Printf("ACC clip=%s unmatched ozz joint %d path %q\n", label, i, opath[i])
			dups++
			ozz2go[i] = -1
			continue
		}
		ozz2go[i] = g
	}
	nameCount := map[string]int{}
	for _, n := range jn {
		nameCount[n]++
	}
	for n, k := range nameCount {
		if k > 1 {
			fmt.Printf("ACC clip=%s duplicate_joint_name=%q count=%d (gltf2ozz maps channels by node name)\n", label, n, k)
		}
	}
	mism := 0
	for i := range jn {
		if ozz2go[i] < 0 {
			continue
		}
		gp := c.sk.Parents[ozz2go[i]]
		op := -1
		if jp[i] >= 0 {
			op = ozz2go[jp[i]]
		}
		if gp != op {
			mism++
		}
	}
	fmt.Printf("ACC clip=%s ozz_joints=%d go_joints=%d unmatched_paths=%d parent_mismatches=%d ozz_duration=%.6f go_duration=%.6f\n",
		label, len(jn), J, dups, mism, dur, c.duration)

	local := make([]geom.Transform, J)
	world := make([]geom.Transform, J)
	olocal := make([]geom.Transform, J)
	oworld := make([]geom.Transform, J)
	for _, kind := range []string{"u", "f"} {
		var rot, tra, scl, mpos stat
		var i int
		for i < len(rows) {
			if rows[i].kind != kind {
				i++
				continue
			}
			t := rows[i].t
			c.s.Sample(t, local)
			copy(olocal, local) // unmatched joints keep mecanim's value
			for ; i < len(rows) && rows[i].kind == kind && rows[i].t == t; i++ {
				g := ozz2go[rows[i].joint]
				if g < 0 {
					continue
				}
				olocal[g] = rows[i].tr
				at := fmt.Sprintf("t=%.4f joint=%s", t, jn[rows[i].joint])
				rot.add(angleDeg(local[g].R, rows[i].tr.R), at)
				tra.add(dist(local[g].T, rows[i].tr.T), at)
				scl.add(dist(local[g].S, rows[i].tr.S), at)
			}
			anim.LocalToModel(c.sk, local, world)
			anim.LocalToModel(c.sk, olocal, oworld)
			for _, j := range ozz2go {
				if j < 0 {
					continue
				}
				mpos.add(dist(world[j].T, oworld[j].T), fmt.Sprintf("t=%.4f joint=%s", t, c.names[j]))
			}
		}
		which := map[string]string{"u": "1001 uniform times", "f": "the 1/30 s frames"}[kind]
		fmt.Printf("ACC clip=%s times=%q samples=%d\n", label, which, rot.n)
		fmt.Printf("ACC   local rotation angle deg: max %.4g (%s) mean %.3g p99 %.3g\n", rot.max, rot.at, rot.sum/float64(rot.n), rot.p99())
		fmt.Printf("ACC   local translation m:      max %.4g (%s) mean %.3g p99 %.3g\n", tra.max, tra.at, tra.sum/float64(tra.n), tra.p99())
		fmt.Printf("ACC   local scale abs:          max %.4g (%s) mean %.3g\n", scl.max, scl.at, scl.sum/float64(scl.n))
		fmt.Printf("ACC   model-space position m:   max %.4g (%s) mean %.3g p99 %.3g\n", mpos.max, mpos.at, mpos.sum/float64(mpos.n), mpos.p99())
	}
}

func main() {
	runtime.LockOSThread()
	debug.SetGCPercent(100)
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: gobench bench|compare|info")
		os.Exit(2)
	}
	switch os.Args[1] {
	case "bench":
		fl := flag.NewFlagSet("bench", flag.ExitOnError)
		only := fl.String("only", "", "only this clip label")
		fl.BoolVar(&quick, "quick", false, "crowd of 100 only")
		prof := fl.String("cpuprofile", "", "write a CPU profile")
		fl.StringVar(&implName, "impl", "mecanim", "implementation label")
		fl.Parse(os.Args[2:])
		if *prof != "" {
			f, err := os.Create(*prof)
			check(err)
			pprof.StartCPUProfile(f)
			defer pprof.StopCPUProfile()
		}
		cases := loadCases(true)
		for _, c := range cases {
			fmt.Printf("INFO impl=%s clip=%s %s transform_bytes=%d\n", implName, c.label, c.info, unsafe.Sizeof(geom.Transform{}))
		}
		for _, c := range cases {
			if *only != "" && c.label != *only {
				continue
			}
			bench(c)
		}
	case "count-all": // count-all N: every case, local then model, in order
		n, err := strconv.Atoi(os.Args[2])
		check(err)
		for _, c := range loadCases(true) {
			for _, w := range []string{"local", "model"} {
				fmt.Printf("COUNT clip=%s what=%s n=%d\n", c.label, w, n)
				count(c, w, n)
			}
		}
	case "count": // count CLIP local|model N
		n, err := strconv.Atoi(os.Args[4])
		check(err)
		for _, c := range loadCases(true) {
			if c.label == os.Args[2] {
				count(c, os.Args[3], n)
			}
		}
	case "compare":
		cases := loadCases(true)
		compare(cases, os.Args[2], os.Args[3])
	case "info":
		cases := loadCases(true)
		for _, c := range cases {
			fmt.Printf("INFO clip=%s %s\n", c.label, c.info)
			for j := 0; j < c.sk.Len(); j++ {
				fmt.Printf("  %d parent=%d %q\n", j, c.sk.Parents[j], c.sk.Paths[j])
			}
		}
	}
}
