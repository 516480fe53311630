package bind_test

import (
	"fmt"
	"log"
	"path/filepath"
	"runtime"

	"github.com/mecanim/mecanim/bind"
	"github.com/mecanim/mecanim/geom"
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
	set, errs := bind.Open([]string{hello}, bind.Options{})
	for _, err := range errs {
		log.Print(err)
	}
	defer set.Close()
	i, err := set.Find(bind.KindClip, "Wave") // or "CAB-...#PATHID" when names repeat
	if err != nil {
		log.Fatal(err)
	}
	m, err := set.MotionOn(i, bind.On{}) // or bind.On{Character: "Hello"}
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
	set, errs := bind.Open([]string{"modassets"}, bind.Options{})
	for _, err := range errs {
		log.Print(err)
	}
	ci, err := set.Find(bind.KindCharacter, "ExampleEnemyModel")
	if err != nil {
		log.Fatal(err)
	}
	enemy, err := set.BindController(set.CharacterController(ci), ci)
	if err != nil {
		log.Fatal(err)
	}
	for _, n := range enemy.Notes() {
		log.Print(n) // a clip the files lack
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
