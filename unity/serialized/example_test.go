package serialized_test

import (
	"fmt"
	"log"

	"github.com/mecanim/mecanim/unity/serialized"
	"github.com/mecanim/mecanim/unity/unityfs"
)

// Open the serialized file a bundle stores and decode one of its objects by
// the file's own type tree.
func Example() {
	a, err := unityfs.OpenFile("../../examples/hello.bundle")
	if err != nil {
		log.Fatal(err)
	}
	defer a.Close()
	f, err := serialized.Open(a.NodeReader(0), a.Nodes[0].Size, a.Nodes[0].Path)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(f.UnityVersion, len(f.Objects), "objects")
	clips := f.ObjectsOfClass(74) // AnimationClip
	v, err := f.Decode(clips[0])
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(v.Field("m_Name").Str())
	// Output:
	// 2022.3.9f1 16 objects
	// Wave
}
