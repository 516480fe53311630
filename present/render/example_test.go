package render_test

import (
	"fmt"
	"image/png"
	"log"
	"os"
	"path/filepath"

	"github.com/mecanim/mecanim/decode/catalog"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/present/playable"
	"github.com/mecanim/mecanim/present/render"
	"github.com/mecanim/mecanim/unity/assets"
)

// Draw a contact sheet of a clip (the skeleton posed at evenly spaced
// times, seen from the front and the side) and save it as PNG, as
// `mecanim render` does.
func ExampleSheet() {
	cat, _ := catalog.Open([]string{"../../examples/hello.bundle"}, assets.Options{})
	defer cat.Close()
	o, err := cat.One(model.ClassAnimationClip, "AnimationClip", "Wave")
	if err != nil {
		log.Fatal(err)
	}
	p, err := playable.Load(cat, o, playable.Options{})
	if err != nil {
		log.Fatal(err)
	}
	img, err := render.Sheet(render.FromPlayable(p), render.Options{
		Frames: 4, Cell: 128, Views: []render.View{render.Front, render.Side}})
	if err != nil {
		log.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "sheet")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	f, err := os.Create(filepath.Join(dir, "wave.png"))
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, img); err != nil {
		log.Fatal(err)
	}
	fmt.Println("wrote", filepath.Base(f.Name()), "with", len(p.Skeleton.Paths), "joints in each of 8 cells")
	// Output:
	// wrote wave.png with 7 joints in each of 8 cells
}
