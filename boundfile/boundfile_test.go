package boundfile_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/mecanim/mecanim/bind"
	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/boundfile"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/internal/fuzzcount"
	"github.com/mecanim/mecanim/internal/synth"
	"github.com/mecanim/mecanim/model"
)

// hello is the project's example bundle: a rig "Hello" and a clip "Wave".
var hello = func() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "examples", "hello.bundle")
}()

// synthAssets binds everything the example bundle and a synthetic scene
// (a character with GameObjects, a humanoid avatar, a controller, clips)
// hold: every controller on its character, every clip on the character the
// binding chooses, and a character with -0 and NaN in its values.
func synthAssets(t testing.TB) boundfile.Assets {
	t.Helper()
	scene := synth.NewScene(t, synth.Options{Full: true, Extended: true}).Write("scene.assets")
	set, err := bind.Open(t.Context(), []string{hello, scene}, bind.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	var a boundfile.Assets
	for i := range set.Controllers() {
		c, err := set.BindController(t.Context(), bound.ControllerID(i), nil)
		if err != nil {
			t.Fatal(err)
		}
		a.Controllers = append(a.Controllers, c)
	}
	for i := range set.Clips() {
		m, err := set.Motion(t.Context(), bound.ClipID(i), nil)
		if err != nil {
			continue // a clip no character of the inputs plays
		}
		a.Motions = append(a.Motions, m)
	}
	negZero := float32(math.Copysign(0, -1))
	rig := &model.Rig{Name: "Odd", Nodes: []model.RigNode{
		{Name: "Odd", Parent: -1, Local: geom.Transform{T: geom.V3(negZero, 0, negZero), R: geom.IdentityQuat, S: geom.V3(1, 1, 1)}},
		{Name: "Tail", Path: "Tail", Parent: 0, Local: geom.Transform{T: geom.V3(0, negZero, 1), R: geom.IdentityQuat, S: geom.V3(1, 1, 1)}},
	}}
	odd, err := bound.NewCharacter(bound.CharacterInput{Name: "Odd", Rig: rig, AvatarMissing: "not in the inputs"})
	if err != nil {
		t.Fatal(err)
	}
	wag := &model.Clip{Name: "Wag", SampleRate: 30, Stop: 1, Events: []model.Event{{Time: 0.5, Function: "wag", Float: float32(math.NaN())}},
		Curves: []model.Curve{{Target: model.Target{Path: "Tail", PathHash: model.PathHash("Tail"), PathKnown: true, ClassID: model.ClassTransform,
			Attribute: uint32(model.PropPosition), Transform: model.PropPosition, Component: 0}, Kind: model.CurveDense, DenseRate: 30,
			Samples: []float32{negZero, 0.1, 0.2}}}}
	m, err := bound.Bind(wag, model.Source{Container: "code"}, odd)
	if err != nil {
		t.Fatal(err)
	}
	a.Characters = append(a.Characters, odd)
	a.Motions = append(a.Motions, m)
	if len(a.Controllers) == 0 || len(a.Motions) < 2 {
		t.Fatalf("%d controllers, %d motions", len(a.Controllers), len(a.Motions))
	}
	return a
}

// samePoses checks that a loaded copy poses as the original: every
// controller's animator ticked and posed, every motion sampled, bit for bit.
func samePoses(t *testing.T, want, got boundfile.Assets) {
	t.Helper()
	if len(want.Controllers) != len(got.Controllers) || len(want.Motions) != len(got.Motions) {
		t.Fatalf("%d controllers and %d motions loaded, %d and %d saved", len(got.Controllers), len(got.Motions),
			len(want.Controllers), len(want.Motions))
	}
	for i, wc := range want.Controllers {
		gc := got.Controllers[i]
		if wc.On() == nil {
			continue
		}
		wp, err := wc.NewPoseWorker()
		if err != nil {
			t.Fatal(err)
		}
		gp, err := gc.NewPoseWorker()
		if err != nil {
			t.Fatal(err)
		}
		wa, ga := wc.NewAnimator(), gc.NewAnimator()
		n := wc.On().Skeleton().Len()
		x, y := make([]geom.Transform, n), make([]geom.Transform, n)
		for tick := 0; tick < 240; tick++ {
			for p := range wc.Model().Parameters {
				if tick%50 == p*7 {
					wa.SetTrigger(p)
					ga.SetTrigger(p)
					wa.SetFloat(p, float32(tick)/100)
					ga.SetFloat(p, float32(tick)/100)
				}
			}
			wa.Tick(1.0 / 60)
			ga.Tick(1.0 / 60)
			wp.Pose(wa, x)
			gp.Pose(ga, y)
			if !sameTransforms(x, y) || wa.RootMotion() != ga.RootMotion() {
				t.Fatalf("controller %q: tick %d poses differently after loading", wc.Model().Name, tick)
			}
		}
	}
	for i, wm := range want.Motions {
		gm := got.Motions[i]
		n := wm.On().Skeleton().Len()
		x, y := make([]geom.Transform, n), make([]geom.Transform, n)
		for _, tm := range []float32{0, 0.1, 0.37, 1, 2.5} {
			wm.Sample(tm, x)
			gm.Sample(tm, y)
			if !sameTransforms(x, y) {
				t.Fatalf("motion %q: t=%v samples differently after loading", wm.Clip().Name, tm)
			}
		}
	}
}

func sameTransforms(a, b []geom.Transform) bool {
	for i := range a {
		for k, f := range []float32{a[i].T.X, a[i].T.Y, a[i].T.Z, a[i].R.X, a[i].R.Y, a[i].R.Z, a[i].R.W, a[i].S.X, a[i].S.Y, a[i].S.Z} {
			g := []float32{b[i].T.X, b[i].T.Y, b[i].T.Z, b[i].R.X, b[i].R.Y, b[i].R.Z, b[i].R.W, b[i].S.X, b[i].S.Y, b[i].S.Z}[k]
			if math.Float32bits(f) != math.Float32bits(g) {
				return false
			}
		}
	}
	return true
}

// TestSavedAssetsLoadToTheBit: what is loaded saves to the same bytes (so
// every model value came back to the bit, -0 and NaN included) and poses
// as what was saved.
func TestSavedAssetsLoadToTheBit(t *testing.T) {
	a := synthAssets(t)
	b, err := boundfile.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	got, err := boundfile.Unmarshal(context.Background(), b)
	if err != nil {
		t.Fatal(err)
	}
	again, err := boundfile.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b, again) {
		t.Fatal("a loaded file saves to other bytes")
	}
	samePoses(t, a, got)
	odd := got.Motions[len(got.Motions)-1]
	if r := odd.On().Rig(); !math.Signbit(float64(r.Nodes[0].Local.T.X)) || !math.Signbit(float64(r.Nodes[1].Local.T.Y)) {
		t.Error("-0 came back as +0")
	}
	if f := odd.Clip().Events[0].Float; !math.IsNaN(float64(f)) {
		t.Errorf("NaN came back as %v", f)
	}
	if odd.On().AvatarMissing() != "not in the inputs" {
		t.Errorf("AvatarMissing came back as %q", odd.On().AvatarMissing())
	}
	// Controllers and motions on one character share it after loading.
	chars := map[*bound.Character]bool{}
	for _, c := range got.Characters {
		chars[c] = true
	}
	for _, c := range got.Controllers {
		if c.On() != nil && !chars[c.On()] {
			t.Error("a controller's character is not among the characters")
		}
	}
}

func TestReadFileNamesThePathOfADamagedFile(t *testing.T) {
	b, err := boundfile.Marshal(synthAssets(t))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "server.bound")
	b[len(b)/2] ^= 1
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = boundfile.ReadFile(context.Background(), path)
	var fe *boundfile.FormatError
	if !errors.As(err, &fe) || fe.Path != path || !errors.Is(err, boundfile.ErrMalformed) {
		t.Fatalf("a damaged file: %v, want a FormatError naming %s", err, path)
	}
}

// TestDamagedFilesAreErrors cuts a file at many lengths and changes bytes
// all over it: each is an error, never a panic; a newer version and a file
// of other model types are unsupported.
func TestDamagedFilesAreErrors(t *testing.T) {
	b, err := boundfile.Marshal(synthAssets(t))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	step := max(1, len(b)/500)
	for n := 0; n < len(b); n += step {
		if _, err := boundfile.Unmarshal(ctx, b[:n]); !errors.Is(err, boundfile.ErrMalformed) {
			t.Fatalf("cut to %d bytes: %v", n, err)
		}
	}
	for i := 0; i < len(b); i += step {
		bad := bytes.Clone(b)
		bad[i] ^= 0x20
		if _, err := boundfile.Unmarshal(ctx, bad); err == nil {
			t.Fatalf("byte %d changed: no error", i)
		}
	}
	newer := bytes.Clone(b)
	binary.LittleEndian.PutUint32(newer[len(boundfile.Magic):], boundfile.Version+1)
	if _, err := boundfile.Unmarshal(ctx, newer); !errors.Is(err, boundfile.ErrUnsupported) {
		t.Errorf("a newer version: %v", err)
	}
	other := bytes.Clone(b)
	other[len(boundfile.Magic)+4] ^= 1
	fixCRC(other)
	if _, err := boundfile.Unmarshal(ctx, other); !errors.Is(err, boundfile.ErrUnsupported) {
		t.Errorf("other model types: %v", err)
	}
}

func TestLoadingStopsWhenTheContextIsDone(t *testing.T) {
	b, err := boundfile.Marshal(synthAssets(t))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := boundfile.Unmarshal(ctx, b); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled load: %v", err)
	}
}

// fixCRC makes a file's checksum match its bytes, so that damage reaches
// the decoder.
func fixCRC(b []byte) {
	if len(b) >= 4 {
		body := b[:len(b)-4]
		binary.LittleEndian.PutUint32(b[len(body):], crc32.ChecksumIEEE(body))
	}
}

// FuzzUnmarshal feeds damaged files (and damaged ones with their checksum
// made right, to reach the values and the building) to Unmarshal: each is
// an error or values that pose (and bones that sample) without panicking.
func FuzzUnmarshal(f *testing.F) {
	b, err := boundfile.Marshal(synthAssets(f))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	c := humanCharacter(f, "Human", 1)
	walk := humanClip("Walk", 1)
	m, err := bound.Bind(walk, model.Source{Container: "code"}, c)
	if err != nil {
		f.Fatal(err)
	}
	if b, err = boundfile.Marshal(boundfile.Assets{Motions: []*bound.Motion{m}, Bones: []boundfile.Bones{{On: c, Bones: bake(f, walk, c)}}}); err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	for _, s := range corpusSeeds(f) {
		f.Add(s)
	}
	count := fuzzcount.Counter("FuzzUnmarshal")
	f.Fuzz(func(t *testing.T, data []byte) {
		count()
		fixed := bytes.Clone(data)
		fixCRC(fixed)
		for _, d := range [][]byte{data, fixed} {
			a, err := boundfile.Unmarshal(context.Background(), d)
			if err != nil {
				continue
			}
			for _, c := range a.Controllers {
				if c.On() == nil {
					continue
				}
				p, err := c.NewPoseWorker()
				if err != nil {
					continue
				}
				x := c.NewAnimator()
				pose := make([]geom.Transform, c.On().Skeleton().Len())
				for i := 0; i < 4; i++ {
					x.Tick(0.1)
					p.Pose(x, pose)
				}
			}
			for _, m := range a.Motions {
				m.Sample(0.3, make([]geom.Transform, m.On().Skeleton().Len()))
			}
			for _, b := range a.Bones {
				pose := make([]geom.Transform, b.Bones.Rig().Len())
				for _, tm := range []float32{0, 0.3, b.Bones.Duration()} {
					b.Bones.Sample(tm, pose)
				}
				b.Bones.ExtractRootMotion(0, 0.3, 1)
			}
		}
	})
}
