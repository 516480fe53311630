package typetree_test

import (
	"encoding/binary"
	"fmt"
	"log"
	"os"

	"github.com/mecanim/mecanim/unity/typetree"
)

func Example() {
	// The type tree of a class { string m_Name; vector<float> m_Times; }.
	tree := &typetree.Tree{Nodes: []typetree.Node{
		{Level: 0, Type: "Clip", Name: "Base", ByteSize: -1},
		{Level: 1, Type: "string", Name: "m_Name", ByteSize: -1},
		{Level: 2, Type: "Array", Name: "Array", ByteSize: -1, Flags: typetree.FlagAlign, TypeFlags: 1},
		{Level: 3, Type: "int", Name: "size", ByteSize: 4},
		{Level: 3, Type: "char", Name: "data", ByteSize: 1},
		{Level: 1, Type: "vector", Name: "m_Times", ByteSize: -1},
		{Level: 2, Type: "Array", Name: "Array", ByteSize: -1, TypeFlags: 1},
		{Level: 3, Type: "int", Name: "size", ByteSize: 4},
		{Level: 3, Type: "float", Name: "data", ByteSize: 4},
	}}
	data := []byte{
		3, 0, 0, 0, 'D', 'a', 'b', 0, // "Dab", padded to 4
		2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80, 0x3f, // [0, 1]
	}
	v, err := typetree.Decode(tree, data, binary.LittleEndian)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(v.Field("m_Name").Str(), v.Field("m_Times").Float32s())
	if err := typetree.WriteJSON(os.Stdout, v); err != nil {
		log.Fatal(err)
	}
	// Output:
	// Dab [0 1]
	// {"m_Name":"Dab","m_Times":[0,1]}
}
