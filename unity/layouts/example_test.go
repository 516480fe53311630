package layouts_test

import (
	"fmt"
	"log"

	"github.com/mecanim/mecanim/unity/layouts"
	"github.com/mecanim/mecanim/unity/unityversion"
)

// Find the layout of AnimationClip (class 74) for a game built with a Unity
// version the table may not list exactly: the highest known version at or
// below it answers, which is how stripped game files are decoded.
func ExampleLookup() {
	v := unityversion.MustParse("2022.3.9f1")
	tree, matched, err := layouts.Lookup(v, 74)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(tree.Nodes[0].Type, unityversion.Compare(matched, v) <= 0)
	// Output: AnimationClip true
}
