package compiled_test

import (
	"fmt"
	"log"
	"os"

	"github.com/mecanim/mecanim/decode/compiled"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/serialized"
	"github.com/mecanim/mecanim/unity/unityfs"
)

// Example decodes every clip of a bundle and names its channels with the
// bundle's rigs. Every failure is reported: a file that does not open is
// fatal, a clip that does not decode is printed and the others go on.
func Example() {
	fh, err := os.Open("../../examples/hello.bundle")
	if err != nil {
		log.Fatal(err)
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		log.Fatal(err)
	}
	a, err := unityfs.Open(fh, st.Size())
	if err != nil {
		log.Fatal(err)
	}
	for i := range a.Nodes {
		r := a.NodeReader(i)
		f, err := serialized.Open(r, r.Size(), a.Nodes[i].Path)
		if err != nil {
			log.Fatal(err)
		}
		rigs, err := compiled.Rigs(f)
		if err != nil {
			log.Fatal(err)
		}
		var names []model.Names
		for _, rig := range rigs {
			names = append(names, rig.Names())
		}
		for j := range f.Objects {
			o := &f.Objects[j]
			if o.ClassID != model.ClassAnimationClip {
				continue
			}
			v, err := f.Decode(o)
			if err != nil {
				fmt.Printf("clip %d: %v\n", o.PathID, err)
				continue
			}
			c, err := compiled.Clip(v, f.UnityVersion)
			if err != nil {
				fmt.Printf("clip %d: %v\n", o.PathID, err)
				continue
			}
			compiled.ResolveNames(c, names...)
			fmt.Printf("%s: %d curves, %.2f s, %d paths unresolved\n", c.Name, len(c.Curves), c.Length(), c.Stats.UnresolvedPaths)
		}
	}
	// Output:
	// Wave: 10 curves, 2.00 s, 0 paths unresolved
}
