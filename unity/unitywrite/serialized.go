package unitywrite

import (
	"encoding/binary"
	"fmt"

	"github.com/mecanim/mecanim/unity/typetree"
)

// Object is one object to write: its path id, class and encoded bytes, and
// the type tree written for its class.
type Object struct {
	PathID  int64
	ClassID int32
	Tree    *typetree.Tree
	Data    []byte
}

// External names another serialized file the objects' PPtrs may point into.
type External struct {
	Path string
	GUID [16]byte
	Type int32
}

// SerializedFile writes a serialized file of format 22 (little-endian data,
// type trees embedded unless stripTrees) holding objs.
func SerializedFile(unityVersion string, platform int32, objs []Object, externals []External, stripTrees bool) ([]byte, error) {
	const version = 22
	const headerSize = 48
	// Types: one per class, in first-use order.
	var types []*Object
	typeIndex := map[int32]int{}
	for i := range objs {
		if _, ok := typeIndex[objs[i].ClassID]; !ok {
			typeIndex[objs[i].ClassID] = len(types)
			types = append(types, &objs[i])
		}
	}
	var m []byte
	le := binary.LittleEndian
	cstr := func(s string) { m = append(m, s...); m = append(m, 0) }
	cstr(unityVersion)
	m = le.AppendUint32(m, uint32(platform))
	if stripTrees {
		m = append(m, 0)
	} else {
		m = append(m, 1)
	}
	m = le.AppendUint32(m, uint32(len(types)))
	for _, t := range types {
		m = le.AppendUint32(m, uint32(t.ClassID))
		m = append(m, 0)               // isStrippedType
		m = le.AppendUint16(m, 0xFFFF) // scriptTypeIndex -1
		if t.ClassID == 114 {
			m = append(m, make([]byte, 16)...) // script id
		}
		m = append(m, make([]byte, 16)...) // old type hash
		if !stripTrees {
			if t.Tree == nil {
				return nil, fmt.Errorf("class %d has no type tree to embed", t.ClassID)
			}
			m = appendTreeVersion(m, t.Tree, 22, false)
			m = le.AppendUint32(m, 0) // type dependencies
		}
	}
	m = le.AppendUint32(m, uint32(len(objs)))
	// Object data layout: each object aligned to 8 after the data offset.
	offsets := make([]int64, len(objs))
	var dataLen int64
	for i := range objs {
		dataLen = (dataLen + 7) &^ 7
		offsets[i] = dataLen
		dataLen += int64(len(objs[i].Data))
	}
	for i := range objs {
		for (headerSize+len(m))%4 != 0 {
			m = append(m, 0)
		}
		m = le.AppendUint64(m, uint64(objs[i].PathID))
		m = le.AppendUint64(m, uint64(offsets[i]))
		m = le.AppendUint32(m, uint32(len(objs[i].Data)))
		m = le.AppendUint32(m, uint32(typeIndex[objs[i].ClassID]))
	}
	m = le.AppendUint32(m, 0) // script types
	m = le.AppendUint32(m, uint32(len(externals)))
	for _, x := range externals {
		cstr("")
		m = append(m, x.GUID[:]...)
		m = le.AppendUint32(m, uint32(x.Type))
		cstr(x.Path)
	}
	m = le.AppendUint32(m, 0) // ref types
	cstr("")                  // user information

	dataOffset := int64(headerSize + len(m))
	dataOffset = (dataOffset + 15) &^ 15
	fileSize := dataOffset + dataLen
	be := binary.BigEndian
	out := make([]byte, 0, fileSize)
	out = be.AppendUint32(out, 0)
	out = be.AppendUint32(out, 0)
	out = be.AppendUint32(out, version)
	out = be.AppendUint32(out, 0)
	out = append(out, 0, 0, 0, 0) // little-endian data, reserved
	out = be.AppendUint32(out, uint32(len(m)))
	out = be.AppendUint64(out, uint64(fileSize))
	out = be.AppendUint64(out, uint64(dataOffset))
	out = be.AppendUint64(out, 0)
	out = append(out, m...)
	for int64(len(out)) < dataOffset {
		out = append(out, 0)
	}
	for i := range objs {
		for int64(len(out)) < dataOffset+offsets[i] {
			out = append(out, 0)
		}
		out = append(out, objs[i].Data...)
	}
	return out, nil
}
