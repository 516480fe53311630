package typetree

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"testing"
)

var (
	shapeTypes = []string{"Base", "int", "float", "UInt8", "bool", "string", "Array", "vector", "map", "pair",
		"TypelessData", "ManagedReferencesRegistry", "ReferencedObject", "ReferencedObjectData",
		"ReferencedManagedType", "SInt64", "Mystery", "char", "double", "UInt16"}
	shapeNames = []string{"Base", "Array", "size", "data", "first", "second", "type", "class", "ns", "asm", "rid", "version", "x"}
)

// shapeTree builds a tree from fuzz bytes: 3 bytes per node (level step,
// type, name with flags), up to n nodes; it returns the rest as data.
func shapeTree(b []byte) (*Tree, []byte) {
	if len(b) == 0 {
		return &Tree{}, nil
	}
	n := int(b[0]%24) + 1
	b = b[1:]
	t := &Tree{}
	level := 0
	for i := 0; i < n && len(b) >= 3; i++ {
		step, ty, nm := b[0], b[1], b[2]
		b = b[3:]
		if i > 0 {
			switch step % 4 {
			case 0:
				level++
			case 1:
				// same level
			default:
				level -= int(step%4) - 1
			}
			if level < 1 {
				level = 1
			}
		}
		node := Node{Level: level, Type: shapeTypes[int(ty)%len(shapeTypes)], Name: shapeNames[int(nm)%len(shapeNames)], ByteSize: -1}
		if nm&0x40 != 0 {
			node.Flags |= FlagAlign
		}
		if nm&0x80 != 0 {
			node.TypeFlags = 1
		}
		if p := primOf(node.Type, 4); p != PrimNone {
			node.ByteSize = int32(p.Size())
		} else if ty&0x80 != 0 {
			node.ByteSize = int32(step >> 4)
		}
		t.Nodes = append(t.Nodes, node)
	}
	return t, b
}

// FuzzTreeShapes decodes arbitrary data with arbitrary (small) trees built
// from Unity's structural types: vectors, maps, strings, TypelessData,
// managed-reference registries. Nothing may panic; successes write valid JSON.
func FuzzTreeShapes(f *testing.F) {
	f.Add([]byte{3, 0, 0, 0, 0, 1, 12, 1, 2, 1}, []byte{1, 0, 0, 0, 2, 0, 0, 0})
	f.Add([]byte{4, 0, 0, 0, 0, 7, 0, 0, 6, 1, 1, 1, 2, 1, 2, 3}, []byte{2, 0, 0, 0, 0, 0, 0x80, 0x3f, 0, 0, 0, 0})
	f.Add([]byte{6, 0, 0, 0, 0, 11, 0, 0, 1, 11, 1, 12, 5, 0, 14, 6, 0, 5, 7}, []byte{1, 0, 0, 0, 1, 0, 0, 0, 'A', 0, 0, 0})
	ref, err := Compile(&Tree{Nodes: []Node{{Level: 0, Type: "R", Name: "Base", ByteSize: -1}, {Level: 1, Type: "int", Name: "x", ByteSize: 4}}})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, shape, data []byte) {
		tr, _ := shapeTree(shape)
		l, err := Compile(tr)
		if err != nil {
			if !errors.Is(err, ErrBadTree) {
				t.Fatalf("Compile error %v does not wrap ErrBadTree", err)
			}
			return
		}
		opts := Options{RefTypes: func(class, ns, asm string) *Layout { return ref }}
		v, err := l.DecodeWith(data, binary.LittleEndian, opts)
		var te *TrailingError
		if err != nil && !errors.As(err, &te) {
			var de *DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("error %v is not a *DecodeError", err)
			}
			return
		}
		var buf bytes.Buffer
		if err := WriteJSON(&buf, v); err != nil {
			t.Fatal(err)
		}
		if !json.Valid(buf.Bytes()) {
			t.Fatalf("invalid JSON %q", buf.String())
		}
	})
}
