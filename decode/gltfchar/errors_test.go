package gltfchar

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	gltfexp "github.com/mecanim/mecanim/export/gltf"
	qg "github.com/qmuntal/gltf"
)

// skinnedGLB is a root with two bones and a skinned quad (ubyte joints,
// ushort indices, a sparse morph target, a triangle strip as a second
// primitive) animated by one LINEAR channel.
func skinnedGLB(t testing.TB) []byte {
	b := newBuilder()
	root := b.node("root", -1, [3]float64{}, [4]float64{0, 0, 0, 1})
	b1 := b.node("b1", root, [3]float64{0, 1, 0}, [4]float64{0, 0, 0, 1})
	b2 := b.node("b2", b1, [3]float64{0, 1, 0}, [4]float64{0, 0, 0, 1})
	mesh := b.node("mesh", root, [3]float64{}, [4]float64{0, 0, 0, 1})
	pos := b.floats([]float32{0, 0, 0, 1, 0, 0, 1, 2, 0, 0, 2, 0}, qg.AccessorVec3)
	joints := b.ints([]uint32{0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}, 1, qg.AccessorVec4)
	weights := b.floats([]float32{0.5, 0.5, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0.25, 0.75, 0, 0}, qg.AccessorVec4)
	idx := b.ints([]uint32{0, 1, 2, 0, 2, 3}, 2, qg.AccessorScalar)
	strip := b.ints([]uint32{0, 1, 3, 2}, 2, qg.AccessorScalar)
	// A sparse target: only vertex 2 moves.
	iv := b.view([]byte{2, 0}, qg.TargetNone)
	vv := b.view(func() []byte {
		var buf bytes.Buffer
		for _, x := range []float32{0.1, 0.2, 0.3} {
			_ = binary.Write(&buf, binary.LittleEndian, x)
		}
		return buf.Bytes()
	}(), qg.TargetNone)
	b.doc.Accessors = append(b.doc.Accessors, &qg.Accessor{ComponentType: qg.ComponentFloat, Type: qg.AccessorVec3, Count: 4,
		Sparse: &qg.Sparse{Count: 1, Indices: qg.SparseIndices{BufferView: iv, ComponentType: qg.ComponentUshort}, Values: qg.SparseValues{BufferView: vv}}})
	target := len(b.doc.Accessors) - 1
	ibm := b.floats([]float32{
		1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1,
		1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -2, 0, 1,
	}, qg.AccessorMat4)
	attrs := qg.PrimitiveAttributes{qg.POSITION: pos, "JOINTS_0": joints, "WEIGHTS_0": weights}
	b.doc.Meshes = []*qg.Mesh{{Name: "quad", Primitives: []*qg.Primitive{
		{Attributes: attrs, Indices: qg.Index(idx), Targets: []qg.PrimitiveAttributes{{qg.POSITION: target}}},
		{Attributes: attrs, Indices: qg.Index(strip), Mode: qg.PrimitiveTriangleStrip, Targets: []qg.PrimitiveAttributes{{qg.POSITION: target}}},
	}}}
	b.doc.Skins = []*qg.Skin{{Joints: []int{b1, b2}, InverseBindMatrices: qg.Index(ibm)}}
	b.doc.Nodes[mesh].Mesh, b.doc.Nodes[mesh].Skin = qg.Index(0), qg.Index(0)
	in := b.floats([]float32{0, 1}, qg.AccessorScalar)
	out := b.floats([]float32{0, 1, 0, 0, 1.5, 0}, qg.AccessorVec3)
	// Unused accessors the malformed cases point at: times going
	// backwards (9) with their values (10), an index past the vertices
	// (11).
	b.floats([]float32{0, 2, 1}, qg.AccessorScalar)
	b.floats(make([]float32, 9), qg.AccessorVec3)
	b.ints([]uint32{0, 1, 9}, 2, qg.AccessorScalar)
	b.doc.Animations = []*qg.Animation{{Name: "move", Samplers: []*qg.AnimationSampler{{Input: in, Output: out}},
		Channels: []*qg.AnimationChannel{{Sampler: 0, Target: qg.AnimationChannelTarget{Node: qg.Index(b1), Path: qg.TRSTranslation}}}}}
	return b.glb(t)
}

func TestSkinnedFileReads(t *testing.T) {
	c := read(t, skinnedGLB(t), Config{})
	if len(c.Meshes) != 1 || len(c.Clips) != 1 || c.Rig.Nodes[0].Name != "root" {
		t.Fatalf("%d meshes, %d clips, root %q", len(c.Meshes), len(c.Clips), c.Rig.Nodes[0].Name)
	}
	m := c.Meshes[0].Mesh
	// Both primitives share the vertex accessors: one vertex list.
	if m.VertexCount != 4 || len(m.SubMeshes) != 2 {
		t.Fatalf("%d vertices, %d sub-meshes", m.VertexCount, len(m.SubMeshes))
	}
	// The strip 0 1 3 2 is triangles (0 1 3) and (1 2 3), reversed.
	if got := m.SubMeshIndices(1); len(got) != 6 || got[0] != 0 || got[1] != 3 || got[2] != 1 || got[3] != 1 || got[4] != 3 || got[5] != 2 {
		t.Errorf("strip as triangles %v", got)
	}
	bs := m.BlendShapes
	if len(bs) != 1 || bs[0].Name != "target_0" || len(bs[0].Frames[0].Vertices) != 1 || bs[0].Frames[0].Vertices[0] != 2 ||
		bs[0].Frames[0].Position[0] != [3]float32{-0.1, 0.2, 0.3} {
		t.Errorf("sparse target read as %+v", bs)
	}
	if w := m.BoneWeights[3]; w != [4]float32{0.75, 0.25, 0, 0} || m.BoneIndices[3] != [4]uint16{0, 1, 0, 0} {
		t.Errorf("vertex 3 skin %v %v, want largest first", w, m.BoneIndices[3])
	}
	checkWeights(t, m)
	if c.Meshes[0].Joints[0] != 1 || c.Meshes[0].Joints[1] != 2 || m.BindPoses[1][1][3] != -2 {
		t.Errorf("joints %v, bind pose %v", c.Meshes[0].Joints, m.BindPoses[1])
	}
}

// TestMalformedFilesSayWhere edits a valid file into malformed ones: each
// read fails with an error of the right kind naming the element.
func TestMalformedFilesSayWhere(t *testing.T) {
	base := skinnedGLB(t)
	set := func(path string, v any) func(map[string]any) {
		return func(doc map[string]any) {
			parts := strings.Split(path, ".")
			var cur any = doc
			for i, p := range parts {
				last := i == len(parts)-1
				switch c := cur.(type) {
				case map[string]any:
					if last {
						c[p] = v
						return
					}
					cur = c[p]
				case []any:
					k := 0
					for _, r := range p {
						k = 10*k + int(r-'0')
					}
					if last {
						c[k] = v
						return
					}
					cur = c[k]
				}
			}
		}
	}
	cases := []struct {
		name  string
		edit  func(map[string]any)
		unsup bool
		want  string
	}{
		{"huge count", set("accessors.0.count", 1e9), false, "accessor 0"},
		{"count past the view", set("accessors.0.count", 5), false, "run past the end of buffer view 0"},
		{"view past the buffer", set("bufferViews.0.byteLength", 1e7), false, "buffer view 0"},
		{"stride below element", set("bufferViews.0.byteStride", 4), false, "byteStride 4"},
		{"component type", set("accessors.0.componentType", 5124), false, "accessor 0: componentType 5124"},
		{"child out of range", set("nodes.0.children", []any{1, 99}), false, "node 0: child 99"},
		{"two parents", set("nodes.3.children", []any{2}), false, "node 2: child of both node 1 and node 3"},
		{"root is a child", set("scenes.0.nodes", []any{0, 1}), false, "scene 0: root node 1 is a child of node 0"},
		{"no such scene", set("scene", 4), false, "scene 4 does not exist"},
		{"interpolation", set("animations.0.samplers.0.interpolation", "SMOOTH"), false, `animation 0 sampler 0: interpolation "SMOOTH"`},
		{"times backwards", func(doc map[string]any) {
			set("animations.0.samplers.0.input", 9)(doc)
			set("animations.0.samplers.0.output", 10)(doc)
		}, false, "animation 0 sampler 0: key 2 at time 1 is not after the previous key"},
		{"output count", set("animations.0.samplers.0.output", 10), false, "animation 0 channel 0: 9 output values for 2 keys of 3"},
		{"attribute type", set("meshes.0.primitives.0.attributes.POSITION", 2), false, "mesh 0 primitive 0: POSITION: accessor 2: type VEC4"},
		{"index past vertices", set("meshes.0.primitives.0.indices", 11), false, "mesh 0 primitive 0: index 2 is 9, past the 4 vertices"},
		{"joint past the skin", set("skins.0.joints", []any{1}), false, "names joint 1 of skin 0"},
		{"skin joint node", set("skins.0.joints", []any{1, 77}), false, "skin 0: joint 1 is node 77"},
		{"sparse index", set("accessors.5.sparse.count", 7), false, "accessor 5 sparse: count 7"},
		{"mode", set("meshes.0.primitives.0.mode", 9), false, "mesh 0 primitive 0: mode 9"},
		{"mesh", set("nodes.3.mesh", 5), false, "node 3: mesh 5 does not exist"},
		{"draco", set("extensionsRequired", []any{"KHR_draco_mesh_compression"}), true, "extension KHR_draco_mesh_compression"},
		{"version", set("asset.version", "1.0"), true, `glTF version "1.0"`},
		{"matrix", set("nodes.1.matrix", []any{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, "x"}), false, "JSON"},
		{"buffer uri", set("buffers.0.uri", "../../etc/passwd"), true, "buffer 0"},
	}
	for _, c := range cases {
		data := editGLB(t, base, c.edit)
		_, err := Read(bytes.NewReader(data), int64(len(data)), "bad.glb")
		var fe *FormatError
		var ue *UnsupportedError
		switch {
		case err == nil:
			t.Errorf("%s: read without error", c.name)
			continue
		case c.unsup && !errors.As(err, &ue), !c.unsup && !errors.As(err, &fe):
			t.Errorf("%s: %T %v", c.name, err, err)
		}
		if !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "gltfchar: ") || !strings.Contains(err.Error(), "bad.glb: ") {
			t.Errorf("%s: %q does not say %q", c.name, err, c.want)
		}
	}
}

// TestTruncatedFilesFail reads every prefix of a file: errors, never a
// panic.
func TestTruncatedFilesFail(t *testing.T) {
	data := skinnedGLB(t)
	for n := 0; n < len(data); n++ {
		if _, err := Read(bytes.NewReader(data[:n]), int64(n), "cut.glb"); err == nil {
			t.Fatalf("%d of %d bytes read without error", n, len(data))
		}
	}
	// A header that claims more than the file.
	bad := append([]byte(nil), data...)
	binary.LittleEndian.PutUint32(bad[8:], uint32(len(bad)+100))
	if _, err := Read(bytes.NewReader(bad), int64(len(bad)), "long.glb"); err == nil || !strings.Contains(err.Error(), "GLB header") {
		t.Errorf("long header: %v", err)
	}
	binary.LittleEndian.PutUint32(bad[8:], uint32(len(bad)))
	binary.LittleEndian.PutUint32(bad[12:], 1<<30)
	if _, err := Read(bytes.NewReader(bad), int64(len(bad)), "long.glb"); err == nil || !strings.Contains(err.Error(), "GLB chunk 0") {
		t.Errorf("long chunk: %v", err)
	}
}

// TestJSONWithExternalBuffer writes a .gltf and its .bin with
// export/gltf: Open reads it as the .glb reads; Read, with no directory,
// says to use Open.
func TestJSONWithExternalBuffer(t *testing.T) {
	s, _ := rtScene(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "rt.gltf")
	if err := gltfexp.WriteGLTF(path, s); err != nil {
		t.Fatal(err)
	}
	c, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := gltfexp.WriteGLB(&buf, s); err != nil {
		t.Fatal(err)
	}
	g := read(t, buf.Bytes(), Config{})
	if len(c.Rig.Nodes) != len(g.Rig.Nodes) || len(c.Meshes) != 1 || c.Meshes[0].Mesh.VertexCount != g.Meshes[0].Mesh.VertexCount || len(c.Clips[0].Curves) != len(g.Clips[0].Curves) {
		t.Errorf(".gltf and .glb read differently")
	}
	for i := range c.Rig.Nodes {
		if c.Rig.Nodes[i].Local != g.Rig.Nodes[i].Local || c.Rig.Nodes[i].Path != g.Rig.Nodes[i].Path {
			t.Errorf("node %d: %+v vs %+v", i, c.Rig.Nodes[i], g.Rig.Nodes[i])
		}
	}
	js, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Read(bytes.NewReader(js), int64(len(js)), "rt.gltf")
	var ue *UnsupportedError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "Open") {
		t.Errorf("Read of a .gltf with an external buffer: %v", err)
	}
	// A buffer outside the file's directory is refused.
	up := strings.Replace(string(js), `"uri": "rt.bin"`, `"uri": "../rt.bin"`, 1)
	if up == string(js) {
		t.Fatal("no buffer uri to edit")
	}
	if err := os.WriteFile(filepath.Join(dir, "up.gltf"), []byte(up), 0o644); err != nil {
		t.Fatal(err)
	}
	var fe *FormatError
	if _, err := Open(filepath.Join(dir, "up.gltf")); !errors.As(err, &fe) || !strings.Contains(err.Error(), "leaves the file's directory") {
		t.Errorf("buffer above the directory: %v", err)
	}
	// A missing .bin names the buffer.
	if err := os.Remove(filepath.Join(dir, "rt.bin")); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(path); err == nil || !strings.Contains(err.Error(), "buffer 0") {
		t.Errorf("missing .bin: %v", err)
	}
}

// TestEmbeddedBuffer reads a .gltf whose buffer is a data URI.
func TestEmbeddedBuffer(t *testing.T) {
	b := newBuilder()
	r := b.node("r", -1, [3]float64{}, [4]float64{0, 0, 0, 1})
	m := b.node("m", r, [3]float64{1, 0, 0}, [4]float64{0, 0, 0, 1})
	pos := b.floats([]float32{0, 0, 0, 1, 0, 0, 0, 1, 0}, qg.AccessorVec3)
	b.doc.Meshes = []*qg.Mesh{{Primitives: []*qg.Primitive{{Attributes: qg.PrimitiveAttributes{qg.POSITION: pos}}}}}
	b.doc.Nodes[m].Mesh = qg.Index(0)
	b.doc.Buffers = []*qg.Buffer{{ByteLength: len(b.buf), Data: b.buf}}
	b.doc.Buffers[0].EmbeddedResource()
	var out bytes.Buffer
	if err := qg.NewEncoder(&out).Encode(b.doc); err != nil {
		t.Fatal(err)
	}
	c, err := Read(bytes.NewReader(out.Bytes()), int64(out.Len()), "e.gltf")
	if err != nil {
		t.Fatal(err)
	}
	mm := c.Meshes[0].Mesh
	if mm.VertexCount != 3 || mm.Positions[1] != [3]float32{-1, 0, 0} || len(mm.Indices) != 3 || mm.Name != "mesh_0" {
		t.Errorf("mesh %+v", mm)
	}
	if c.Rig.Nodes[1].Local.T.X != -1 {
		t.Errorf("node m at %v", c.Rig.Nodes[1].Local.T)
	}
}

// TestRepetitionIsBounded names one large accessor from many morph
// targets and many animation channels: the work is charged to the
// file's budget and refused, not done. Many nodes of one name read, each
// renamed once.
func TestRepetitionIsBounded(t *testing.T) {
	b := newBuilder()
	r := b.node("r", -1, [3]float64{}, [4]float64{0, 0, 0, 1})
	m := b.node("m", r, [3]float64{}, [4]float64{0, 0, 0, 1})
	pos := b.floats(make([]float32, 3*50000), qg.AccessorVec3)
	targets := make([]qg.PrimitiveAttributes, 20000)
	for i := range targets {
		targets[i] = qg.PrimitiveAttributes{qg.POSITION: pos}
	}
	b.doc.Meshes = []*qg.Mesh{{Primitives: []*qg.Primitive{{Attributes: qg.PrimitiveAttributes{qg.POSITION: pos}, Targets: targets}}}}
	b.doc.Nodes[m].Mesh = qg.Index(0)
	_, err := Read(bytes.NewReader(b.glb(t)), int64(len(b.glb(t))), "targets.glb")
	var fe *FormatError
	if !errors.As(err, &fe) || !strings.Contains(err.Error(), "more data than a file of this size") {
		t.Errorf("20000 targets of 50000 vertices: %v", err)
	}

	b = newBuilder()
	r = b.node("r", -1, [3]float64{}, [4]float64{0, 0, 0, 1})
	times := make([]float32, 200000)
	for i := range times {
		times[i] = float32(i) / 30
	}
	in := b.floats(times, qg.AccessorScalar)
	out := b.floats(make([]float32, 3*200000), qg.AccessorVec3)
	a := &qg.Animation{Samplers: []*qg.AnimationSampler{{Input: in, Output: out}}}
	for range 5000 {
		a.Channels = append(a.Channels, &qg.AnimationChannel{Sampler: 0, Target: qg.AnimationChannelTarget{Node: qg.Index(r), Path: qg.TRSTranslation}})
	}
	b.doc.Animations = []*qg.Animation{a}
	data := b.glb(t)
	if _, err := Read(bytes.NewReader(data), int64(len(data)), "channels.glb"); !errors.As(err, &fe) || !strings.Contains(err.Error(), "animation 0 channel") {
		t.Errorf("5000 channels of one 200000-key sampler: %v", err)
	}

	b = newBuilder()
	r = b.node("a", -1, [3]float64{}, [4]float64{0, 0, 0, 1})
	for range 30000 {
		b.node("a", r, [3]float64{}, [4]float64{0, 0, 0, 1})
	}
	c := read(t, b.glb(t), Config{})
	if n := c.Rig.Nodes[len(c.Rig.Nodes)-1].Name; n != "a (30000)" {
		t.Errorf("last node named %q", n)
	}
}
