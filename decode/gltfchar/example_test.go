package gltfchar_test

import (
	"fmt"
	"strings"

	"github.com/mecanim/mecanim/decode/gltfchar"
)

// A glTF scene of two roots (an armature and a mesh node) reads as a rig
// under a synthetic root named after the file, in Unity's frame (x
// mirrored).
func ExampleRead() {
	const doc = `{
	  "asset": {"version": "2.0"},
	  "scene": 0,
	  "scenes": [{"nodes": [0, 2]}],
	  "nodes": [
	    {"name": "Armature", "children": [1]},
	    {"name": "Hips", "translation": [0.1, 1, 0.2], "rotation": [0, 0.7071068, 0, 0.7071068]},
	    {"name": "Body"}
	  ]
	}`
	c, err := gltfchar.Read(strings.NewReader(doc), int64(len(doc)), "character.gltf")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(c.Format, c.Mirror, c.HumanSource)
	for _, n := range c.Rig.Nodes {
		fmt.Printf("%q parent %d at %v turned %v\n", n.Path, n.Parent, n.Local.T, n.Local.R)
	}
	// Output:
	// glTF mirror-x none
	// "" parent -1 at {0 0 0} turned {0 0 0 1}
	// "Armature" parent 0 at {0 0 0} turned {0 0 0 1}
	// "Armature/Hips" parent 1 at {-0.1 1 0.2} turned {0 -0.70710677 0 0.70710677}
	// "Body" parent 0 at {0 0 0} turned {0 0 0 1}
}
