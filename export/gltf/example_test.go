package gltf_test

import (
	"context"
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
	set, err := bind.Open(context.Background(), []string{"character.bundle", "animations.bundle"}, bind.Options{})
	if set == nil {
		log.Fatal(err) // the context ended
	}
	for _, err := range bind.Errors(err) {
		log.Print(err) // an input left out: the set holds the others
	}
	defer set.Close()
	i, err := set.FindCharacter("ExampleEnemyModel")
	if err != nil {
		log.Fatal(err)
	}
	ch, err := set.Character(context.Background(), i)
	if err != nil {
		log.Fatal(err)
	}
	motions, notes, err := set.Motions(context.Background(), ch)
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
