package gltf

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"

	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/internal/atomicfile"
	"github.com/mecanim/mecanim/model"
	qg "github.com/qmuntal/gltf"
)

// ErrInvalid is wrapped when a scene cannot be exported as given (a track
// naming a node that does not exist, values that do not fit the times...).
var ErrInvalid = errors.New("invalid scene")

// builder accumulates one document and its single binary buffer.
type builder struct {
	s    *Scene
	doc  *qg.Document
	buf  []byte
	root int // glTF node of rig node 0
	// morphNode maps a rig node to the glTF node that holds the morphing
	// mesh drawn on it, and its target count.
	morphNode  map[int]int
	morphCount map[int]int
	timesCache map[timesKey]int
	materials  map[model.Material]int
	textures   map[*model.Texture]int
	// names makes the nodes' names unique (see the package comment).
	names model.NameSet
	// extraJoints are the joints added for bones outside the rig (see
	// skin), part of the rig's skin too.
	extraJoints []extraJoint
}

// extraJoint is a joint added for a bone outside the rig, and its parent.
type extraJoint struct{ node, parent int }

type timesKey struct {
	p *float32
	n int
}

// Document builds the glTF document of a scene (one binary buffer, not
// yet given a URI).
func Document(s *Scene) (*qg.Document, error) {
	if s.Rig == nil || len(s.Rig.Nodes) == 0 {
		return nil, fmt.Errorf("%w: no rig nodes", ErrInvalid)
	}
	gen := s.Generator
	if gen == "" {
		gen = "mecanim"
	}
	b := &builder{
		s:          s,
		doc:        &qg.Document{Asset: qg.Asset{Version: "2.0", Generator: gen}},
		morphNode:  map[int]int{},
		morphCount: map[int]int{},
		timesCache: map[timesKey]int{},
		materials:  map[model.Material]int{},
		textures:   map[*model.Texture]int{},
	}
	b.buf = make([]byte, 0, estimateSize(s))
	if err := b.nodes(); err != nil {
		return nil, err
	}
	sceneNodes := []int{b.root}
	for i := range s.Meshes {
		n, err := b.mesh(&s.Meshes[i])
		if err != nil {
			return nil, fmt.Errorf("mesh %d (%q): %w", i, s.Meshes[i].Mesh.Name, err)
		}
		if n >= 0 {
			sceneNodes = append(sceneNodes, n)
		}
	}
	b.rigSkin()
	var animNames model.NameSet
	for i := range s.Animations {
		if err := b.animation(&s.Animations[i], &animNames); err != nil {
			return nil, fmt.Errorf("animation %d (%q): %w", i, s.Animations[i].Name, err)
		}
	}
	b.cameras()
	b.doc.Scene = qg.Index(0)
	b.doc.Scenes = []*qg.Scene{{Name: s.Name, Nodes: sceneNodes}}
	if len(b.buf) > 0 {
		b.doc.Buffers = []*qg.Buffer{{ByteLength: len(b.buf), Data: b.buf}}
	}
	return b.doc, nil
}

// WriteGLB writes the scene as one binary glTF (.glb) to w.
func WriteGLB(w io.Writer, s *Scene) error {
	doc, err := Document(s)
	if err != nil {
		return err
	}
	enc := qg.NewEncoder(w)
	enc.AsBinary = true
	return enc.Encode(doc)
}

// WriteGLTF writes the scene as path (JSON glTF) and its binary buffer
// beside it, named as path with the extension .bin; each file appears
// complete or not at all (written to a temporary name, then renamed).
func WriteGLTF(path string, s *Scene) error {
	doc, err := Document(s)
	if err != nil {
		return err
	}
	base := filepath.Base(path)
	bin := base[:len(base)-len(filepath.Ext(base))] + ".bin"
	if len(doc.Buffers) > 0 {
		doc.Buffers[0].URI = bin
		data := doc.Buffers[0].Data
		if err := atomicfile.Write(filepath.Join(filepath.Dir(path), bin), func(w io.Writer) error {
			_, err := w.Write(data)
			return err
		}); err != nil {
			return err
		}
	}
	return atomicfile.Write(path, func(w io.Writer) error {
		enc := qg.NewEncoder(w) // no Fsys: the buffer was written above
		enc.AsBinary = false
		enc.SetJSONIndent("", " ")
		return enc.Encode(doc)
	})
}

// nodes adds the rig's nodes with their rest transforms.
func (b *builder) nodes() error {
	r := b.s.Rig
	for i, n := range r.Nodes {
		if i > 0 && (n.Parent < 0 || n.Parent >= i) {
			return fmt.Errorf("%w: rig node %d (%q): parent %d is not an earlier node", ErrInvalid, i, n.Path, n.Parent)
		}
		name := n.Name
		if name == "" {
			name = fmt.Sprintf("node_%d", i)
		}
		nd := &qg.Node{Name: b.names.Unique(name)}
		setTRS(nd, n.Local)
		if n.Path != "" {
			nd.Extras = map[string]any{"unityPath": n.Path}
		}
		b.doc.Nodes = append(b.doc.Nodes, nd)
		if i > 0 {
			p := b.doc.Nodes[n.Parent]
			p.Children = append(p.Children, i)
		}
	}
	b.root = 0
	return nil
}

// setTRS sets a node's transform from a Unity local transform.
func setTRS(nd *qg.Node, t geom.Transform) {
	nd.Matrix = qg.DefaultMatrix
	p := ConvertVec(t.T)
	q := ConvertQuat(t.R)
	nd.Translation = [3]float64{float64(p.X), float64(p.Y), float64(p.Z)}
	nd.Rotation = [4]float64{float64(q.X), float64(q.Y), float64(q.Z), float64(q.W)}
	nd.Scale = [3]float64{float64(t.S.X), float64(t.S.Y), float64(t.S.Z)}
	if nd.Scale == [3]float64{} {
		// qmuntal/gltf writes an all-zero scale as no scale (1, 1, 1);
		// a hidden object (Unity's scale 0) keeps a scale that is zero to
		// float32 precision.
		nd.Scale[2] = minNormal32
	}
}

// minNormal32 is the smallest normal float32.
const minNormal32 = 1.1754943508222875e-38

// ConvertVec mirrors a Unity position or direction into glTF's frame.
func ConvertVec(v geom.Vec3) geom.Vec3 { return geom.Vec3{X: -v.X, Y: v.Y, Z: v.Z} }

// ConvertQuat mirrors a Unity rotation into glTF's frame (and normalises it).
func ConvertQuat(q geom.Quat) geom.Quat {
	return geom.Quat{X: q.X, Y: -q.Y, Z: -q.Z, W: q.W}.Normalize()
}

// ConvertMat mirrors a Unity matrix (C·M·C) and returns it column-major,
// as glTF stores matrices.
func ConvertMat(m model.Mat4) [16]float32 {
	var out [16]float32
	for r := range 4 {
		for c := range 4 {
			v := m[r][c]
			if (r == 0) != (c == 0) {
				v = -v
			}
			out[c*4+r] = v
		}
	}
	return out
}

// align pads the buffer to a multiple of 4 bytes.
func (b *builder) align() {
	for len(b.buf)%4 != 0 {
		b.buf = append(b.buf, 0)
	}
}

// grow aligns the buffer and extends it by n bytes, returning the new
// bytes' offset (for writing a view in place).
func (b *builder) grow(n int) int {
	b.align()
	off := len(b.buf)
	b.buf = append(b.buf, make([]byte, n)...)
	return off
}

// addView records the buffer's bytes from off to its end as a view.
func (b *builder) addView(off int, target qg.Target) int {
	b.doc.BufferViews = append(b.doc.BufferViews, &qg.BufferView{Buffer: 0, ByteOffset: off, ByteLength: len(b.buf) - off, Target: target})
	return len(b.doc.BufferViews) - 1
}

// floats adds an accessor of float32 values, comps per element, with
// min/max when asked (positions and animation inputs require them).
func (b *builder) floats(v []float32, typ qg.AccessorType, target qg.Target, minmax bool) int {
	comps := typ.Components()
	off := b.grow(4 * len(v))
	data := b.buf[off:]
	for i, x := range v {
		binary.LittleEndian.PutUint32(data[4*i:], math.Float32bits(x))
	}
	acc := &qg.Accessor{
		BufferView:    qg.Index(b.addView(off, target)),
		ComponentType: qg.ComponentFloat,
		Type:          typ,
		Count:         len(v) / comps,
	}
	if minmax && len(v) > 0 {
		acc.Min = make([]float64, comps)
		acc.Max = make([]float64, comps)
		for k := range comps {
			acc.Min[k], acc.Max[k] = math.Inf(1), math.Inf(-1)
		}
		for i, x := range v {
			k := i % comps
			acc.Min[k] = min(acc.Min[k], float64(x))
			acc.Max[k] = max(acc.Max[k], float64(x))
		}
	}
	b.doc.Accessors = append(b.doc.Accessors, acc)
	return len(b.doc.Accessors) - 1
}

// uints adds an accessor of unsigned integers stored in size bytes each.
func (b *builder) uints(v []uint32, size int, typ qg.AccessorType, target qg.Target) int {
	off := b.grow(size * len(v))
	data := b.buf[off:]
	ct := qg.ComponentUint
	for i, x := range v {
		switch size {
		case 1:
			data[i] = byte(x)
		case 2:
			binary.LittleEndian.PutUint16(data[2*i:], uint16(x))
		default:
			binary.LittleEndian.PutUint32(data[4*i:], x)
		}
	}
	switch size {
	case 1:
		ct = qg.ComponentUbyte
	case 2:
		ct = qg.ComponentUshort
	}
	b.doc.Accessors = append(b.doc.Accessors, &qg.Accessor{
		BufferView:    qg.Index(b.addView(off, target)),
		ComponentType: ct,
		Type:          typ,
		Count:         len(v) / typ.Components(),
	})
	return len(b.doc.Accessors) - 1
}

// estimateSize guesses the binary buffer's size, so that it is allocated
// once for typical scenes.
func estimateSize(s *Scene) int {
	n := 0
	for _, mi := range s.Meshes {
		m := mi.Mesh
		if m == nil {
			continue
		}
		per := 12 + 12 + 16 + 16 + 16 + 20
		for k := range m.UV {
			if m.UV[k] != nil {
				per += 8
			}
		}
		n += m.VertexCount*per + 4*len(m.Indices) + 64*len(m.BindPoses) + 12*m.VertexCount*len(m.BlendShapes)
	}
	for _, a := range s.Animations {
		for _, t := range a.Tracks {
			n += 4*len(t.Values) + 4*len(t.Times)/8
		}
	}
	return n + n/8
}
