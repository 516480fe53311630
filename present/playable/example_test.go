package playable_test

import (
	"fmt"
	"log"

	"github.com/mecanim/mecanim/decode/catalog"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/present/playable"
	"github.com/mecanim/mecanim/unity/assets"
)

// Put a clip on what it plays on without choosing by hand: a generic clip
// goes to the rig whose paths it animates (a humanoid one to a humanoid
// avatar, through its muscles). Pose then gives local and model-space
// transforms at any time; this is how `mecanim pose` works.
func Example() {
	cat, errs := catalog.Open([]string{"../../examples/hello.bundle"}, assets.Options{})
	for _, err := range errs {
		log.Print(err)
	}
	defer cat.Close()
	o, err := cat.One(model.ClassAnimationClip, "AnimationClip", "Wave")
	if err != nil {
		log.Fatal(err)
	}
	p, err := playable.Load(cat, o, playable.Options{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s on %s (humanoid %v), %d joints\n", p.Clip.Name, p.On, p.Humanoid, p.Skeleton.Len())
	local := make([]geom.Transform, p.Skeleton.Len())
	world := make([]geom.Transform, p.Skeleton.Len())
	arm, _ := p.Skeleton.Index("Armature/Hips/Spine/RightArm")
	for _, t := range []float32{0, 0.5, 1} {
		p.Pose(t, local, world)
		r := world[arm].R
		fmt.Printf("t=%.1f right arm rotation (%.4f, %.4f, %.4f, %.4f)\n", t, r.X, r.Y, r.Z, r.W)
	}
	// Output:
	// Wave on rig "Hello" (humanoid false), 7 joints
	// t=0.0 right arm rotation (0.0000, 0.0000, 0.0000, 1.0000)
	// t=0.5 right arm rotation (0.0000, 0.0000, 0.5272, 0.8497)
	// t=1.0 right arm rotation (0.0000, 0.0000, 0.7071, 0.7071)
}
