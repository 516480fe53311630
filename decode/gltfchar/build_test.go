package gltfchar

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math"
	"testing"

	qg "github.com/qmuntal/gltf"
)

// gltfBuilder writes small glTF documents for tests with qmuntal/gltf.
type gltfBuilder struct {
	doc *qg.Document
	buf []byte
}

func newBuilder() *gltfBuilder {
	return &gltfBuilder{doc: &qg.Document{Asset: qg.Asset{Version: "2.0", Generator: "gltfchar test"}}}
}

func (b *gltfBuilder) view(data []byte, target qg.Target) int {
	for len(b.buf)%4 != 0 {
		b.buf = append(b.buf, 0)
	}
	off := len(b.buf)
	b.buf = append(b.buf, data...)
	b.doc.BufferViews = append(b.doc.BufferViews, &qg.BufferView{Buffer: 0, ByteOffset: off, ByteLength: len(data), Target: target})
	return len(b.doc.BufferViews) - 1
}

// floats adds a float accessor of the given type.
func (b *gltfBuilder) floats(v []float32, typ qg.AccessorType) int {
	data := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(data[4*i:], math.Float32bits(x))
	}
	acc := &qg.Accessor{BufferView: qg.Index(b.view(data, qg.TargetNone)), ComponentType: qg.ComponentFloat, Type: typ, Count: len(v) / typ.Components()}
	if typ == qg.AccessorScalar || typ == qg.AccessorVec3 {
		// Animation inputs and positions need min and max.
		c := typ.Components()
		acc.Min, acc.Max = make([]float64, c), make([]float64, c)
		for k := range c {
			acc.Min[k], acc.Max[k] = math.Inf(1), math.Inf(-1)
		}
		for i, x := range v {
			acc.Min[i%c] = min(acc.Min[i%c], float64(x))
			acc.Max[i%c] = max(acc.Max[i%c], float64(x))
		}
	}
	b.doc.Accessors = append(b.doc.Accessors, acc)
	return len(b.doc.Accessors) - 1
}

// ints adds an unsigned integer accessor (1, 2 or 4 bytes a component).
func (b *gltfBuilder) ints(v []uint32, size int, typ qg.AccessorType) int {
	data := make([]byte, size*len(v))
	ct := qg.ComponentUint
	for i, x := range v {
		switch size {
		case 1:
			data[i], ct = byte(x), qg.ComponentUbyte
		case 2:
			binary.LittleEndian.PutUint16(data[2*i:], uint16(x))
			ct = qg.ComponentUshort
		default:
			binary.LittleEndian.PutUint32(data[4*i:], x)
		}
	}
	b.doc.Accessors = append(b.doc.Accessors, &qg.Accessor{BufferView: qg.Index(b.view(data, qg.TargetNone)), ComponentType: ct, Type: typ, Count: len(v) / typ.Components()})
	return len(b.doc.Accessors) - 1
}

// node adds a node under parent (-1: a scene root) and returns its index.
func (b *gltfBuilder) node(name string, parent int, t [3]float64, r [4]float64) int {
	n := &qg.Node{Name: name, Translation: t, Rotation: r, Scale: qg.DefaultScale, Matrix: qg.DefaultMatrix}
	b.doc.Nodes = append(b.doc.Nodes, n)
	i := len(b.doc.Nodes) - 1
	if parent >= 0 {
		b.doc.Nodes[parent].Children = append(b.doc.Nodes[parent].Children, i)
	} else {
		if len(b.doc.Scenes) == 0 {
			b.doc.Scenes = []*qg.Scene{{}}
			b.doc.Scene = qg.Index(0)
		}
		b.doc.Scenes[0].Nodes = append(b.doc.Scenes[0].Nodes, i)
	}
	return i
}

// glb encodes the document as a GLB.
func (b *gltfBuilder) glb(t testing.TB) []byte {
	t.Helper()
	if len(b.buf) > 0 {
		b.doc.Buffers = []*qg.Buffer{{ByteLength: len(b.buf), Data: b.buf}}
	}
	var out bytes.Buffer
	enc := qg.NewEncoder(&out)
	enc.AsBinary = true
	if err := enc.Encode(b.doc); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// read reads GLB bytes with the package's reader.
func read(t testing.TB, data []byte, cfg Config) *Character {
	t.Helper()
	c, err := cfg.Read(bytes.NewReader(data), int64(len(data)), "test.glb")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// editGLB rewrites the JSON chunk of a GLB through edit.
func editGLB(t testing.TB, data []byte, edit func(map[string]any)) []byte {
	t.Helper()
	jl := binary.LittleEndian.Uint32(data[12:])
	var doc map[string]any
	if err := json.Unmarshal(data[20:20+jl], &doc); err != nil {
		t.Fatal(err)
	}
	edit(doc)
	js, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	for len(js)%4 != 0 {
		js = append(js, ' ')
	}
	rest := data[20+jl:]
	out := make([]byte, 20, 20+len(js)+len(rest))
	copy(out, data[:12])
	binary.LittleEndian.PutUint32(out[12:], uint32(len(js)))
	binary.LittleEndian.PutUint32(out[16:], 0x4E4F534A)
	out = append(out, js...)
	out = append(out, rest...)
	binary.LittleEndian.PutUint32(out[8:], uint32(len(out)))
	return out
}
