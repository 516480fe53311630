package render_test

import (
	"context"
	"fmt"
	"image/png"
	"log"
	"os"
	"path/filepath"

	"github.com/mecanim/mecanim/bind"
	"github.com/mecanim/mecanim/present/render"
)

// Draw a contact sheet of a clip (the skeleton posed at evenly spaced
// times, seen from the front and the right) and save it as PNG, as
// `mecanim render` does.
func ExampleSheet() {
	set, err := bind.Open(context.Background(), []string{"../../examples/hello.bundle"}, bind.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer set.Close()
	i, err := set.FindClip("Wave")
	if err != nil {
		log.Fatal(err)
	}
	m, err := set.Motion(context.Background(), i, nil) // the clip on the character bind chooses for it
	if err != nil {
		log.Fatal(err)
	}
	img, err := render.Sheet(render.FromMotion(m), render.Options{
		Frames: 4, Cell: 128, Views: []render.View{render.Front, render.Right}})
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
	fmt.Println("wrote", filepath.Base(f.Name()), "with", m.On().Skeleton().Len(), "joints in each of 8 cells")
	// Output:
	// wrote wave.png with 7 joints in each of 8 cells
}
