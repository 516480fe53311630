package gltf_test

import (
	"log"
	"os"

	"github.com/mecanim/mecanim/bind"
	"github.com/mecanim/mecanim/export/gltf"
)

// Export a character with its meshes and every clip of its files to
// Blender: open the files together, pick the character by its Animator's
// GameObject name, bind the clips that play on it (generic clips keep
// their curves; humanoid ones are resampled at their own rate) and write a
// .glb.
func Example() {
	set, errs := bind.Open([]string{"character.bundle", "animations.bundle"}, bind.Options{})
	for _, err := range errs {
		log.Print(err)
	}
	defer set.Close()
	i, err := set.FindCharacter("ExampleEnemyModel")
	if err != nil {
		log.Fatal(err)
	}
	ch, err := set.Character(i)
	if err != nil {
		log.Fatal(err)
	}
	motions, notes, err := set.Motions(ch)
	if err != nil {
		log.Fatal(err)
	}
	for _, n := range notes {
		log.Print(n) // a clip left out
	}
	scene, errs := gltf.BuildScene(ch, motions, gltf.SceneOptions{})
	for _, err := range errs {
		log.Print(err) // a renderer left out
	}
	f, err := os.Create("enemy.glb")
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	if err := gltf.WriteGLB(f, scene); err != nil {
		log.Fatal(err)
	}
}
