package bind

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/decode/catalog"
	"github.com/mecanim/mecanim/inputs"
	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/internal/synth"
	"github.com/mecanim/mecanim/unity/assets"
	"github.com/mecanim/mecanim/unity/unitywrite"
)

// countdown is a context that ends itself after its Err has been asked n
// times: a load cancelled at its n-th check, wherever that falls, with no
// timing.
type countdown struct {
	context.Context
	cancel context.CancelFunc
	mu     sync.Mutex
	n      int
}

func newCountdown(t *testing.T, n int) *countdown {
	ctx, cancel := context.WithCancel(t.Context())
	return &countdown{Context: ctx, cancel: cancel, n: n}
}

func (c *countdown) Err() error {
	c.mu.Lock()
	if c.n--; c.n < 0 {
		c.cancel()
	}
	c.mu.Unlock()
	return c.Context.Err()
}

// checks counts how often a load asks ctx whether it ended.
func checks(t *testing.T, load func(ctx context.Context) error) int {
	c := newCountdown(t, 1<<30)
	if err := load(c); err != nil {
		t.Fatal(err)
	}
	return 1<<30 - c.n
}

// A context cancelled before Open, or at any of its checks while it opens
// several bundles (between inputs, between the objects listed), stops it:
// a nil set and an error wrapping context.Canceled.
func TestOpenStopsWhenItsContextEnds(t *testing.T) {
	files := []string{
		corpustest.Path(t, "lethal-emotes/customemotespackage"),
		corpustest.Path(t, "lethal-emotes/scavbody"),
		corpustest.Path(t, "lc-example-enemy/modassets"),
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if set, err := Open(ctx, files, Options{}); set != nil || !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled before: set %v, error %v", set != nil, err)
	}
	n := checks(t, func(ctx context.Context) error {
		set, err := Open(ctx, files, Options{})
		if set != nil {
			set.Close()
		}
		return err
	})
	if n < len(files) {
		t.Fatalf("Open checked its context %d times for %d inputs", n, len(files))
	}
	for _, at := range []int{0, 1, 2, n / 2, n - 1} {
		set, err := Open(newCountdown(t, at), files, Options{})
		if set != nil || !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled at check %d of %d: set %v, error %v", at, n, set != nil, err)
		}
	}
}

// NewWith stops too when its context ends, and leaves the catalog its
// caller opened open: its caller closes it.
func TestNewWithStopsAndLeavesTheCatalogOpen(t *testing.T) {
	cat, err := catalog.Open(t.Context(), []string{synth.NewScene(t, synth.Options{Full: true}).Write("main.assets")}, assets.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer cat.Close()
	ended, cancel := context.WithCancel(t.Context())
	cancel()
	if set, err := NewWith(ended, cat, nil, Options{}); set != nil || !errors.Is(err, context.Canceled) {
		t.Fatalf("set %v, error %v", set != nil, err)
	}
	set, err := NewWith(t.Context(), cat, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := set.Clip(0); err != nil {
		t.Errorf("the catalog after a cancelled NewWith: %v", err)
	}
}

// Binding stops when its context ends: BindController between the clips
// it decodes and binds, Motions between clips, CharacterFor and Character
// before they decode; each error wraps the context's.
func TestBindingStopsWhenItsContextEnds(t *testing.T) {
	set := openSet(t, synth.NewScene(t, synth.Options{Full: true}).Write("main.assets"))
	ch, err := set.Character(t.Context(), 0)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	calls := map[string]func(ctx context.Context) error{
		"BindController": func(ctx context.Context) error { _, err := set.BindController(ctx, 0, nil); return err },
		"BindController on": func(ctx context.Context) error {
			_, err := set.BindController(ctx, 0, ch)
			return err
		},
		"Motions":      func(ctx context.Context) error { _, _, err := set.Motions(ctx, ch); return err },
		"Motion":       func(ctx context.Context) error { _, err := set.Motion(ctx, 0, nil); return err },
		"Motion on":    func(ctx context.Context) error { _, err := set.Motion(ctx, 0, ch); return err },
		"CharacterFor": func(ctx context.Context) error { _, err := set.CharacterFor(ctx, On{}, 0); return err },
		"Character":    func(ctx context.Context) error { _, err := set.Character(ctx, 0); return err },
		"Controller":   func(ctx context.Context) error { _, err := set.Controller(ctx, 0); return err },
	}
	for name, call := range calls {
		if err := call(ctx); !errors.Is(err, context.Canceled) {
			t.Errorf("%s cancelled before: %v", name, err)
		}
		n := checks(t, call)
		for at := range n {
			if err := call(newCountdown(t, at)); !errors.Is(err, context.Canceled) {
				t.Errorf("%s cancelled at check %d of %d: %v", name, at, n, err)
			}
		}
		// A cancelled call leaves nothing behind: the next one binds.
		if err := call(t.Context()); err != nil {
			t.Errorf("%s after a cancelled call: %v", name, err)
		}
	}
}

// Open's error joins one error per input that could not be opened, each
// naming its input (an *inputs.Error, or an *assets.Error for a Unity
// file), and the set holds the others.
func TestOpensErrorNamesEachFailingInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := synth.NewScene(t, synth.Options{Full: true}).Write("good.assets")
	hello, err := os.ReadFile(filepath.Join("..", "examples", "hello.bundle"))
	if err != nil {
		t.Fatal(err)
	}
	cut := write("cut.bundle", hello[:len(hello)/2])
	text := write("notes.txt", []byte("just some notes"))
	anim := write("Broken.anim", []byte("%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!74 &7400000\nAnimationClip:\n  m_Name: [\n"))
	glb := write("broken.glb", []byte("glTF not really"))
	absent := filepath.Join(dir, "absent.bundle")
	for _, tc := range []struct {
		name   string
		inputs []string
		failed []string
	}{
		{"all open", []string{good}, nil},
		{"a missing file", []string{good, absent}, []string{absent}},
		{"no Unity file", []string{text, good}, []string{text}},
		{"a cut bundle", []string{good, cut}, []string{cut}},
		{"a broken YAML asset", []string{anim}, []string{anim}},
		{"a broken glTF", []string{glb, good}, []string{glb}},
		{"several", []string{absent, good, text, cut, anim, glb}, []string{absent, text, anim, glb, cut}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			set, err := Open(t.Context(), tc.inputs, Options{})
			if set == nil {
				t.Fatalf("no set: %v", err)
			}
			defer set.Close()
			if len(set.Characters()) == 0 && strings.Contains(strings.Join(tc.inputs, ","), good) {
				t.Error("the good input was left out")
			}
			errs := Errors(err)
			var named []string
			for _, err := range errs {
				var ie *inputs.Error
				var ae *assets.Error
				switch {
				case errors.As(err, &ie):
					named = append(named, ie.Input)
				case errors.As(err, &ae):
					named = append(named, ae.Container)
				default:
					t.Errorf("untyped error %T: %v", err, err)
					continue
				}
				if in := named[len(named)-1]; !strings.Contains(err.Error(), filepath.Base(in)) {
					t.Errorf("error %q does not name %s", err, in)
				}
			}
			slices.Sort(named)
			slices.Sort(tc.failed)
			if !slices.Equal(named, tc.failed) {
				t.Errorf("errors name %q, want %q", named, tc.failed)
			}
		})
	}
}

// recorder is a slog handler that keeps every record.
type recorder struct {
	mu      sync.Mutex
	records []slog.Record
}

func (r *recorder) Enabled(context.Context, slog.Level) bool { return true }
func (r *recorder) Handle(_ context.Context, rec slog.Record) error {
	r.mu.Lock()
	r.records = append(r.records, rec.Clone())
	r.mu.Unlock()
	return nil
}
func (r *recorder) WithAttrs([]slog.Attr) slog.Handler { return r }
func (r *recorder) WithGroup(string) slog.Handler      { return r }

// attrs are a record's attributes by key.
func attrs(rec slog.Record) map[string]string {
	m := map[string]string{}
	rec.Attrs(func(a slog.Attr) bool {
		m[a.Key] = a.Value.String()
		return true
	})
	return m
}

// Every note a binding returns reaches Options.Logger as it is made, its
// message the note's text, with the input, object, kind and reference as
// attributes (and the character bound to).
func TestNotesArriveAtTheLoggerWithTheirAttributes(t *testing.T) {
	sc := synth.NewScene(t, synth.Options{Full: true})
	sc.Obj(synth.ControllerID)["m_AnimationClips"] = []any{synth.PPtr(synth.ClipID), synth.F{"m_FileID": 1, "m_PathID": 4242}}
	p := sc.WriteWith("main.assets", []unitywrite.External{{Path: "archive:/CAB-elsewhere/CAB-elsewhere"}})
	rec := &recorder{}
	set, err := Open(t.Context(), []string{p}, Options{Logger: slog.New(rec)})
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	bc, err := set.BindController(t.Context(), 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(bc.Notes()) == 0 {
		t.Fatal("no notes: the test needs a clip the inputs lack")
	}
	ctl := set.Controllers()[0]
	if len(rec.records) != len(bc.Notes()) {
		t.Fatalf("%d records for the notes %q", len(rec.records), bc.Notes())
	}
	for i, r := range rec.records {
		if r.Message != bc.Notes()[i] || r.Level != slog.LevelInfo {
			t.Errorf("record %d: %v %q, want the note %q", i, r.Level, r.Message, bc.Notes()[i])
		}
		a := attrs(r)
		for k, want := range map[string]string{AttrInput: p, AttrObject: ctl.Name, AttrKind: "controller", AttrRef: ctl.Ref} {
			if a[k] != want {
				t.Errorf("record %d: %s=%q, want %q", i, k, a[k], want)
			}
		}
		if ch := a[AttrCharacter]; ch == "" {
			t.Errorf("record %d: no %s attribute (%v)", i, AttrCharacter, a)
		}
	}
	// Motions: a clip left out is noted with the clip's attributes.
	rec.records = nil
	ch := bc.On()
	_, notes, err := set.Motions(t.Context(), ch)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.records) != len(notes) {
		t.Fatalf("%d records for Motions' notes %q", len(rec.records), notes)
	}
	for i, r := range rec.records {
		if a := attrs(r); r.Message != notes[i] || a[AttrKind] != "clip" || a[AttrCharacter] != ch.Describe() {
			t.Errorf("record %q %v for the note %q", r.Message, a, notes[i])
		}
	}
}

// A set without a Logger returns its notes all the same.
func TestNotesWithoutALoggerAreReturned(t *testing.T) {
	sc := synth.NewScene(t, synth.Options{Full: true})
	sc.Obj(synth.ControllerID)["m_AnimationClips"] = []any{synth.PPtr(synth.ClipID), synth.F{"m_FileID": 1, "m_PathID": 4242}}
	set := openSet(t, sc.WriteWith("main.assets", []unitywrite.External{{Path: "archive:/CAB-elsewhere/CAB-elsewhere"}}))
	bc, err := set.BindController(t.Context(), bound.ControllerID(0), nil)
	if err != nil || len(bc.Notes()) == 0 {
		t.Fatalf("notes %q, error %v", bc.Notes(), err)
	}
}

// A note about a controller's clip (one that plays by its timing only) is
// logged with the clip's attributes and the controller's reference.
func TestAControllersClipNoteIsLoggedAsTheClips(t *testing.T) {
	rec := &recorder{}
	set, err := Open(t.Context(), []string{sprite2DProject(t)}, Options{Logger: slog.New(rec)})
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	ci, err := set.FindController("Walker")
	if err != nil {
		t.Fatal(err)
	}
	chi, err := set.FindCharacter("Body")
	if err != nil {
		t.Fatal(err)
	}
	ch, err := set.Character(t.Context(), chi)
	if err != nil {
		t.Fatal(err)
	}
	bc, err := set.BindController(t.Context(), ci, ch)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.records) != len(bc.Notes()) || len(rec.records) == 0 {
		t.Fatalf("%d records for the notes %q", len(rec.records), bc.Notes())
	}
	walk := set.Clips()[0]
	for i, r := range rec.records {
		a := attrs(r)
		if r.Message != bc.Notes()[i] || a[AttrKind] != "clip" || a[AttrObject] != walk.Name || a[AttrRef] != walk.Ref ||
			a[AttrController] != set.Controllers()[ci].Ref || a[AttrCharacter] != ch.Describe() {
			t.Errorf("record %q %v for the note %q", r.Message, a, bc.Notes()[i])
		}
	}
}
