package typetree

import (
	"encoding/binary"
	"errors"
	"testing"
)

// refTypeNodes is a ReferencedManagedType "type" at level.
func refTypeNodes(level int) []Node {
	ns := []Node{nd(level, "ReferencedManagedType", "type", -1, 0)}
	ns = append(ns, strNodes(level+1, "class")...)
	ns = append(ns, strNodes(level+1, "ns")...)
	return append(ns, strNodes(level+1, "asm")...)
}

func appleLayout(t *testing.T) *Layout {
	l, err := Compile(tree(one(nd(0, "Apple", "Base", -1, 0)), one(nd(1, "int", "m_Data", 4, 0))))
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestManagedReferencesDecodeWithTheFilesRefTypes(t *testing.T) {
	v2 := tree(
		one(nd(0, "MonoBehaviour", "Base", -1, 0)),
		one(nd(1, "ManagedReferencesRegistry", "references", -1, 0)),
		one(nd(2, "int", "version", 4, 0)),
		vecNodes(2, "RefIds", 0, nd(4, "ReferencedObject", "data", -1, 0), nd(5, "SInt64", "rid", 8, 0)),
		refTypeNodes(5),
		one(nd(5, "ReferencedObjectData", "data", 0, 0)),
	)
	v1 := tree(
		one(nd(0, "MonoBehaviour", "Base", -1, 0)),
		one(nd(1, "ManagedReferencesRegistry", "references", -1, 0)),
		one(nd(2, "int", "version", 4, 0)),
		one(nd(2, "ReferencedObject", "00000000", -1, 0)),
		refTypeNodes(3),
		one(nd(3, "ReferencedObjectData", "data", 0, 0)),
	)
	apple := appleLayout(t)
	resolve := func(class, ns, asm string) *Layout {
		if class == "Apple" && ns == "" && asm == "A" {
			return apple
		}
		return nil
	}
	tests := []struct {
		name    string
		tree    *Tree
		data    []byte
		resolve RefResolver
		want    []int64 // m_Data of each non-null reference
		wantErr error
	}{
		{"version 2", v2, le(int32(2), int32(2), int64(7), "Apple", []byte{0, 0, 0}, "", "A", []byte{0, 0, 0}, int32(11),
			int64(-2), "", "", ""), resolve, []int64{11}, nil},
		{"version 1 ends at the terminator", v1, le(int32(1), "Apple", []byte{0, 0, 0}, "", "A", []byte{0, 0, 0}, int32(12),
			"Terminus", "UnityEngine.DMAT", "FAKE_ASM"), resolve, []int64{12}, nil},
		{"unknown type", v2, le(int32(2), int32(1), int64(7), "Pear", "", "A", []byte{0, 0, 0}), resolve, nil, ErrUnknownLayout},
		{"no resolver", v2, le(int32(2), int32(1), int64(7), "Apple", []byte{0, 0, 0}, "", "A", []byte{0, 0, 0}, int32(11)), nil, nil, ErrUnknownLayout},
		{"version 1 without terminator", v1, le(int32(1), "Apple", []byte{0, 0, 0}, "", "A", []byte{0, 0, 0}, int32(12)), resolve, nil, ErrShort},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l, err := Compile(tc.tree)
			if err != nil {
				t.Fatal(err)
			}
			v, err := l.DecodeWith(tc.data, binary.LittleEndian, Options{RefTypes: tc.resolve})
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("err = %v, want %v", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			ids := v.Path("references", "RefIds")
			var got []int64
			for i := 0; i < ids.Len(); i++ {
				if d := ids.Index(i).Path("data", "m_Data"); d != nil {
					got = append(got, d.Int())
				}
			}
			if !equal(got, tc.want) {
				t.Errorf("m_Data values %v, want %v", got, tc.want)
			}
		})
	}
}
