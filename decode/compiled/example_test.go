package compiled_test

import (
	"fmt"
	"os"

	"github.com/mecanim/mecanim/decode/compiled"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/serialized"
	"github.com/mecanim/mecanim/unity/unityfs"
)

// Example decodes every clip of a bundle and names its channels with the
// bundle's rigs.
func Example() {
	fh, err := os.Open("customemotespackage")
	if err != nil {
		return
	}
	defer fh.Close()
	st, _ := fh.Stat()
	a, err := unityfs.Open(fh, st.Size())
	if err != nil {
		return
	}
	for i := range a.Nodes {
		r := a.NodeReader(i)
		f, err := serialized.Open(r, r.Size(), a.Nodes[i].Path)
		if err != nil {
			continue
		}
		rigs, _ := compiled.Rigs(f)
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
				continue
			}
			c, err := compiled.Clip(v, f.UnityVersion)
			if err != nil {
				fmt.Println(err)
				continue
			}
			compiled.ResolveNames(c, names...)
			fmt.Printf("%s: %d curves, %.2f s, %d paths unresolved\n", c.Name, len(c.Curves), c.Length(), c.Stats.UnresolvedPaths)
		}
	}
}
