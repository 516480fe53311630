package bind_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"log/slog"
	"path/filepath"
	"runtime"
	"time"

	"github.com/mecanim/mecanim/bind"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/inputs"
)

// hello is the project's example bundle: a rig "Hello" and a clip "Wave".
var hello = func() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "examples", "hello.bundle")
}()

// Pose a clip: open the inputs together, choose the clip by name, and let
// the binding put it on the character whose GameObjects it animates; the
// pose is every joint of the character, its scene transforms where the
// clip writes nothing.
func Example() {
	set, err := bind.Open(context.Background(), []string{hello}, bind.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer set.Close()
	wave, err := set.FindClip("Wave") // or "CAB-...#PATHID" when names repeat
	if err != nil {
		log.Fatal(err)
	}
	// The one rule every command follows: what the clip plays on. Several
	// characters that fit alike are a *bind.ChoiceError listing each.
	ch, err := set.CharacterFor(context.Background(), bind.On{}, wave) // or bind.On{Character: "Hello"}
	if err != nil {
		log.Fatal(err)
	}
	m, err := set.Motion(context.Background(), wave, ch)
	if err != nil {
		log.Fatal(err)
	}
	sk := m.On().Skeleton()
	local := make([]geom.Transform, sk.Len())
	world := make([]geom.Transform, sk.Len())
	hips, _ := sk.Index("Armature/Hips")
	for _, t := range []float32{0, 0.5, 1} {
		m.Pose(t, local, world)
		fmt.Printf("t=%.1f %s: hips y %.3f\n", t, m.On().Describe(), world[hips].T.Y)
	}
	// Output:
	// t=0.0 rig "Hello": hips y 1.000
	// t=0.5 rig "Hello": hips y 1.050
	// t=1.0 rig "Hello": hips y 1.000
}

// Load a character at server startup: its controller, the clips it plays
// (found across the files) bound to its GameObjects, compiled once; then
// any number of Animators play it, each with its own small state, and one
// Poser per goroutine poses them. After loading, the files can be closed:
// nothing at run time reads them.
func Example_serverStartup() {
	// Startup's budget: loading stops between files and between clips
	// when it is spent. Notes (a clip the files lack, a clip that drives
	// nothing) go to the server's log, with the input, the object and
	// its kind as attributes.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	opts := bind.Options{Logger: slog.Default()}
	set, err := bind.Open(ctx, []string{"modassets"}, opts)
	if set == nil {
		log.Fatal(err) // the context ended: nothing is left open
	}
	for _, err := range bind.Errors(err) {
		log.Print(err) // an input left out, named; the set holds the others
	}
	ci, err := set.FindCharacter("ExampleEnemyModel")
	if err != nil {
		log.Fatal(err)
	}
	ch, err := set.Character(ctx, ci)
	if err != nil {
		log.Fatal(err)
	}
	ctl, ok := set.CharacterController(ci)
	if !ok {
		log.Fatal("its Animator plays no controller of the inputs")
	}
	enemy, err := set.BindController(ctx, ctl, ch) // its Notes went to opts.Logger
	if err != nil {
		log.Fatal(err)
	}
	set.Close()

	poser, err := enemy.NewPoseWorker() // one per goroutine
	if err != nil {
		log.Fatal(err)
	}
	a := enemy.NewAnimator() // one per character instance
	sk := enemy.On().Skeleton()
	local := make([]geom.Transform, sk.Len())
	a.Tick(1.0 / 60)
	poser.Pose(a, local)
	fmt.Println(a.StateName(0, a.Layer(0).State), a.RootMotion().T)
}

// Ask for what plays by name, and read a refusal: a choice the inputs do
// not settle is a *bind.ChoiceError whose candidates each carry a
// reference that chooses it (the same option takes it back).
func ExampleSet_CharacterFor() {
	set, err := bind.Open(context.Background(), []string{hello}, bind.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer set.Close()
	ch, err := set.CharacterFor(context.Background(), bind.On{}) // no clip: the only character
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(ch.Describe(), "has", ch.Skeleton().Len(), "joints")
	for _, it := range set.Characters() {
		byRef, err := set.CharacterFor(context.Background(), bind.On{Character: it.Ref})
		fmt.Println(it.Ref, "chooses the same:", byRef == ch, err)
	}
	_, err = set.CharacterFor(context.Background(), bind.On{Character: "Nobody"})
	fmt.Println(errors.Is(err, bind.ErrNotFound))
	var ce *bind.ChoiceError
	if errors.As(err, &ce) {
		for _, c := range ce.Candidates {
			fmt.Println("choose with", c.Ref)
		}
	}
	// Output:
	// rig "Hello" has 7 joints
	// CAB-hello0000000000000000000000000#300 chooses the same: true <nil>
	// true
}

// List the clips: each listing carries a reference that chooses it alone
// (FindClip takes it back to a typed handle), and the handle decodes it.
func ExampleSet_Clips() {
	set, err := bind.Open(context.Background(), []string{hello}, bind.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer set.Close()
	for _, it := range set.Clips() {
		id, err := set.FindClip(it.Ref)
		if err != nil {
			log.Fatal(err)
		}
		c, err := set.Clip(id)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s %q: %d curves, %.2f s\n", it.Ref, c.Name, len(c.Curves), c.Duration())
	}
	// Output:
	// CAB-hello0000000000000000000000000#400 "Wave": 10 curves, 2.00 s
}

// Report each input that could not be opened: Open's error joins one per
// input, each naming it; the set holds the others.
func ExampleErrors() {
	set, err := bind.Open(context.Background(), []string{hello, "absent.bundle", "notes.txt"}, bind.Options{})
	if set == nil {
		log.Fatal(err) // the context ended
	}
	defer set.Close()
	for _, err := range bind.Errors(err) {
		var in *inputs.Error
		if errors.As(err, &in) {
			fmt.Println("left out:", in.Input)
		}
	}
	fmt.Println(len(set.Clips()), "clip")
	// Output:
	// left out: absent.bundle
	// left out: notes.txt
	// 1 clip
}

// Stop a load: a context that ends (a deadline, a shutdown) stops Open
// between inputs, and binding between clips; what was opened is closed,
// and the error wraps the context's.
func ExampleOpen_cancelled() {
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // a shutdown during startup
	set, err := bind.Open(ctx, []string{hello}, bind.Options{})
	fmt.Println(set == nil, errors.Is(err, context.Canceled))
	// Output:
	// true true
}
