package robustness

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/bind"
	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/decode/catalog"
	"github.com/mecanim/mecanim/decode/mesh"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/humanoid"
	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/assets"
	"github.com/mecanim/mecanim/unity/typetree"
)

// Limits of one case. A case is one damaged input run through every
// command's library path.
const (
	caseTimeout = 20 * time.Second
	// allocCap bounds what one case may allocate in total: generous for the
	// decompression of a damaged 13 MB bundle, far below what an unchecked
	// count would ask for.
	allocCap = 1 << 30
)

// exercise runs what the commands do with a file: open it, list and name
// every object, decode every object (dump), decode clips, avatars,
// controllers and meshes, build rigs, bake and sample clips, pose humanoid
// clips, and tick controllers. It returns how many steps failed with an
// error (errors are expected on damaged input; panics are not).
func exercise(data []byte, name string) (errs int) {
	ct, err := assets.OpenReader(bytes.NewReader(data), int64(len(data)), name, assets.Options{})
	if err != nil {
		return 1
	}
	defer ct.Close()
	fail := func(err error) {
		if err != nil {
			errs++
		}
	}
	for _, f := range ct.Files {
		for i := range f.Objects {
			o := &f.Objects[i]
			_, err := f.ObjectName(o)
			fail(err)
			v, err := f.Decode(o)
			var te *typetree.TrailingError
			if err != nil && !errors.As(err, &te) {
				errs++
				continue
			}
			if v != nil {
				fail(typetree.WriteJSON(io.Discard, v))
			}
			if o.ClassID == mesh.ClassMesh {
				_, err := mesh.FromFile(f, o)
				fail(err)
			}
		}
	}
	cat := catalog.New(ct)
	rigs, rerrs := cat.Rigs(context.Background())
	errs += len(rerrs)
	for _, o := range cat.ByClass(model.ClassAvatar) {
		a, err := cat.Avatar(o)
		if err != nil {
			errs++
			continue
		}
		if a.IsHuman() {
			if r, err := humanoid.NewRig(a); err == nil {
				r.Check()
			} else {
				errs++
			}
		}
	}
	set, _ := bind.NewWith(context.Background(), cat, nil, bind.Options{})
	for i := range set.Clips() {
		clip, err := set.Clip(bound.ClipID(i))
		if err != nil {
			errs++
			continue
		}
		for _, t := range []float32{-1, 0, clip.Start, clip.Stop, 0.37, 1e9} {
			for i := range clip.Curves {
				clip.Curves[i].Eval(t)
			}
		}
		m, err := set.Motion(context.Background(), bound.ClipID(i), nil)
		if err != nil {
			errs++
			continue
		}
		n := m.On().Skeleton().Len()
		local, world := make([]geom.Transform, n), make([]geom.Transform, n)
		for _, t := range []float32{0, 0.5, m.Duration(), -3, 1e9} {
			m.Pose(t, local, world)
		}
	}
	for _, r := range rigs {
		if s, err := anim.SkeletonFromRig(r.Rig); err == nil {
			_ = s.Len()
		} else {
			errs++
		}
	}
	for i := range set.Controllers() {
		bc, err := set.BindController(context.Background(), bound.ControllerID(i), nil)
		if err != nil {
			errs++
			continue
		}
		errs += len(bc.Notes())
		a := bc.NewAnimator()
		for _, p := range bc.Model().Parameters {
			a.Set(p.Name, 1.0)
		}
		var pose []geom.Transform
		p, perr := bc.NewPoseWorker()
		if perr == nil {
			pose = make([]geom.Transform, bc.On().Skeleton().Len())
		}
		for i := 0; i < 30; i++ {
			a.Tick(1.0 / 30)
			if perr == nil {
				p.Pose(a, pose)
			}
		}
	}
	return errs
}

// runBounded runs fn (one case) with a time bound, turning a panic into a
// test failure that names the case, and measures what it allocated,
// failing past allocCap; size is the input's length, for the message.
func runBounded(t *testing.T, what string, size int, fn func()) (allocated uint64) {
	t.Helper()
	type result struct {
		panic any
		stack []byte
	}
	done := make(chan result, 1)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- result{p, debug.Stack()}
				return
			}
			done <- result{}
		}()
		fn()
	}()
	select {
	case r := <-done:
		if r.panic != nil {
			t.Fatalf("%s: panic: %v\n%s", what, r.panic, r.stack)
		}
	case <-time.After(caseTimeout):
		t.Fatalf("%s: no answer within %v (hang)", what, caseTimeout)
	}
	runtime.ReadMemStats(&after)
	allocated = after.TotalAlloc - before.TotalAlloc
	if allocated > allocCap {
		t.Fatalf("%s: allocated %d MiB for a %d-byte input (cap %d MiB)", what, allocated>>20, size, allocCap>>20)
	}
	return allocated
}

// sweepInputs returns the files the sweep damages: the generated example and
// every corpus Unity file, plus (for big bundles) their serialized files
// taken out of the bundle, so that damage reaches the object decoders
// without paying for LZMA in every case.
func sweepInputs(t *testing.T) map[string][]byte {
	dir := corpustest.Dir(t)
	in := map[string][]byte{}
	if b, err := os.ReadFile("../examples/hello.bundle"); err == nil {
		in["examples/hello.bundle"] = b
	}
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() || info.Size() == 0 || info.Size() > 16<<20 {
			return nil
		}
		ct, err := assets.Open(p, assets.Options{})
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		data, _ := os.ReadFile(p)
		if ct.Kind == assets.KindSerialized || len(data) < 400<<10 {
			in[rel] = data
		} else {
			// Keep the container's head (header and block info) for damage
			// to the container reader...
			in[rel+"#head"] = data
			// ...and each serialized file, decompressed, for damage to the
			// rest.
			for _, f := range ct.Files {
				if f.FileSize > 8<<20 {
					continue
				}
				raw := make([]byte, f.FileSize)
				if sr, ok := serializedReader(ct, f.Name); ok {
					if _, err := sr.ReadAt(raw, 0); err == nil || err == io.EOF {
						in[rel+"#"+f.Name] = raw
					}
				}
			}
		}
		ct.Close()
		return nil
	})
	return in
}

// serializedReader finds the bytes of a serialized file inside a container.
func serializedReader(ct *assets.Container, name string) (io.ReaderAt, bool) {
	for _, a := range ct.Bundles {
		if i, ok := a.Node(name); ok {
			return a.NodeReader(i), true
		}
	}
	return nil, false
}

// TestCorruptionSweep damages every input deterministically — truncations
// at many lengths and single-byte changes at many offsets — and runs each
// damaged copy through every command's library path. MECANIM_SWEEP=long
// tries ten times as many cases.
func TestCorruptionSweep(t *testing.T) {
	if testing.Short() {
		t.Skip("sweep skipped in -short mode")
	}
	inputs := sweepInputs(t)
	if len(inputs) < 10 {
		t.Fatalf("only %d inputs", len(inputs))
	}
	cases, peak, peakWhat := sweep(t, inputs, 24, 0x6d6563616e696d, damageBinary, func(buf []byte, what string) { exercise(buf, what) })
	t.Logf("%d cases over %d inputs: no panic, no hang; largest allocation of one case %d MiB (%s)", cases, len(inputs), peak>>20, peakWhat)
}

// damageBinary returns copy k of a Unity file: even k cut at a random
// length, odd k with one byte changed. Inputs named "...#head" (the
// container of a big bundle) are damaged only in their first 4 KiB, the
// header and block info, not the LZMA stream, and are always copied.
func damageBinary(rng *rand.Rand, name string, data []byte, k int) ([]byte, string) {
	head := strings.HasSuffix(name, "#head")
	limit := len(data)
	if head && limit > 4096 {
		limit = 4096
	}
	if k%2 == 0 {
		n := rng.IntN(limit)
		if head {
			return append([]byte(nil), data[:n]...), fmt.Sprintf("%s cut at %d", name, n)
		}
		return data[:n], fmt.Sprintf("%s cut at %d", name, n)
	}
	buf := append([]byte(nil), data...)
	off := rng.IntN(limit)
	val := byte(rng.IntN(256))
	if val == buf[off] {
		val ^= 0xFF
	}
	buf[off] = val
	return buf, fmt.Sprintf("%s byte %d = %#x", name, off, val)
}

// sweep runs the cases of a corruption sweep: perInput damaged copies of
// each input (ten times as many with MECANIM_SWEEP=long), inputs in name
// order, each input's copies drawn from a generator seeded by its length
// and seed, so that every run tries the same cases. damage makes copy k and
// names the case; run runs it under runBounded's bounds. It returns how many
// cases ran and the largest allocation of one case, with the case's name.
func sweep(t *testing.T, inputs map[string][]byte, perInput int, seed uint64,
	damage func(rng *rand.Rand, name string, data []byte, k int) ([]byte, string),
	run func(buf []byte, what string)) (cases int, peak uint64, peakWhat string) {
	t.Helper()
	if os.Getenv("MECANIM_SWEEP") == "long" {
		perInput *= 10
	}
	for _, name := range slices.Sorted(maps.Keys(inputs)) {
		data := inputs[name]
		rng := rand.New(rand.NewPCG(uint64(len(data)), seed))
		for k := 0; k < perInput; k++ {
			buf, what := damage(rng, name, data, k)
			if a := runBounded(t, what, len(buf), func() { run(buf, what) }); a > peak {
				peak, peakWhat = a, what
			}
			cases++
		}
	}
	return cases, peak, peakWhat
}
