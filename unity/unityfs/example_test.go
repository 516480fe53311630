package unityfs_test

import (
	"fmt"
	"log"

	"github.com/mecanim/mecanim/unity/unityfs"
)

// Open a bundle and list the files it stores; a node's bytes are read (and
// decompressed, as far as the read needs) through NodeReader.
func Example() {
	a, err := unityfs.OpenFile("../../examples/hello.bundle")
	if err != nil {
		log.Fatal(err)
	}
	defer a.Close()
	fmt.Println(a.EngineVersion, len(a.Blocks) > 0)
	for i, n := range a.Nodes {
		head := make([]byte, 4)
		if _, err := a.NodeReader(i).ReadAt(head, 0); err != nil {
			log.Fatal(err)
		}
		fmt.Println(n.Path, n.Size > 0)
	}
	// Output:
	// 2022.3.9f1 true
	// CAB-hello0000000000000000000000000 true
}
