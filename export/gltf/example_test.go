package gltf_test

import (
	"log"
	"os"

	"github.com/mecanim/mecanim/decode/catalog"
	"github.com/mecanim/mecanim/export/gltf"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/assets"
)

// Export a character with its meshes and every clip of its files to
// Blender: open the files together, pick the rig by its Animator's
// GameObject name, put the clips on it (generic clips keep their curves;
// humanoid ones are resampled at their own rate) and write a .glb.
func Example() {
	cat, errs := catalog.Open([]string{"character.bundle", "animations.bundle"}, assets.Options{})
	for _, err := range errs {
		log.Print(err)
	}
	defer cat.Close()
	rig, err := cat.Rig("ExampleEnemyModel")
	if err != nil {
		log.Fatal(err)
	}
	var clips []*model.Clip
	for _, o := range cat.ByClass(model.ClassAnimationClip) {
		if c, err := cat.Clip(o); err == nil {
			clips = append(clips, c)
		}
	}
	scene, errs := gltf.BuildScene(cat, rig, gltf.SceneOptions{Clips: clips})
	for _, err := range errs {
		log.Print(err) // a renderer or clip left out
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
