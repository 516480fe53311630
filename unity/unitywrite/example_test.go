package unitywrite_test

import (
	"fmt"
	"log"

	"bytes"
	"github.com/mecanim/mecanim/unity/layouts"
	"github.com/mecanim/mecanim/unity/serialized"
	"github.com/mecanim/mecanim/unity/unityfs"
	"github.com/mecanim/mecanim/unity/unityversion"
	"github.com/mecanim/mecanim/unity/unitywrite"
)

// Write a GameObject into a serialized file by Unity's own layout for the
// version, pack it into a UnityFS bundle, and read it back: how the project
// makes its example bundle and its test inputs.
func Example() {
	const version = "2022.3.9f1"
	tree, _, err := layouts.Lookup(unityversion.MustParse(version), 1) // GameObject
	if err != nil {
		log.Fatal(err)
	}
	data, err := unitywrite.Encode(tree, unitywrite.Fields{"m_Name": "Hero", "m_IsActive": true})
	if err != nil {
		log.Fatal(err)
	}
	file, err := unitywrite.SerializedFile(version, 19, []unitywrite.Object{{PathID: 1, ClassID: 1, Tree: tree, Data: data}}, nil, false)
	if err != nil {
		log.Fatal(err)
	}
	bundle, err := unitywrite.Bundle(version, []unitywrite.Entry{{Path: "CAB-example", Data: file, Flags: 4}}, 128<<10)
	if err != nil {
		log.Fatal(err)
	}

	a, err := unityfs.Open(bytes.NewReader(bundle), int64(len(bundle)))
	if err != nil {
		log.Fatal(err)
	}
	f, err := serialized.Open(a.NodeReader(0), a.Nodes[0].Size, a.Nodes[0].Path)
	if err != nil {
		log.Fatal(err)
	}
	v, err := f.Decode(&f.Objects[0])
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(a.Nodes[0].Path, v.Field("m_Name").Str(), v.Field("m_IsActive").Bool())
	// Output: CAB-example Hero true
}
