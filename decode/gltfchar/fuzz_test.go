package gltfchar

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/mecanim/mecanim/anim"
	gltfexp "github.com/mecanim/mecanim/export/gltf"
	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/internal/fuzzcount"
	"github.com/mecanim/mecanim/model"
	qg "github.com/qmuntal/gltf"
)

// FuzzRead feeds the reader arbitrary files, seeded at run time with the
// corpus characters and small generated ones (every naming scheme, an
// A-pose, animations of every interpolation, a skinned mesh with a
// sparse target, an export of export/gltf, a JSON glTF): none may panic,
// hang or allocate without bound, and what reads must hold together —
// parents before children, unique paths, indices inside the vertices,
// weights summing to 1, clips the runtime bakes, meshes export/gltf
// writes.
func FuzzRead(f *testing.F) {
	if dir, ok := corpustest.Lookup(); ok {
		for _, p := range []string{vrm0File, vrm1File} {
			if b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p))); err == nil {
				f.Add(b)
			}
		}
	}
	f.Add(humanGLB(f, namers[HumanMixamo], 40, false))
	f.Add(humanGLB(f, namers[HumanBlender], 0, true))
	f.Add(humanGLB(f, namers[HumanUnreal], 0, false))
	data, _ := animatedGLB(f, 1, false)
	f.Add(data)
	data, _ = animatedGLB(f, 2, true)
	f.Add(data)
	f.Add(skinnedGLB(f))
	b := newBuilder()
	b.node("r", -1, [3]float64{1, 2, 3}, [4]float64{0, 0, 0, 1})
	b.floats([]float32{0, 0, 0}, qg.AccessorVec3)
	b.doc.Buffers = []*qg.Buffer{{ByteLength: len(b.buf), Data: b.buf}}
	b.doc.Buffers[0].EmbeddedResource()
	var js bytes.Buffer
	if err := qg.NewEncoder(&js).Encode(b.doc); err == nil {
		f.Add(js.Bytes())
	}
	f.Add([]byte(`{"asset":{"version":"2.0"},"nodes":[{"children":[1]},{"children":[0]}]}`))
	f.Add([]byte("glTF\x02\x00\x00\x00\x14\x00\x00\x00\x00\x00\x00\x00JSON"))
	count := fuzzcount.Counter("FuzzRead")
	f.Fuzz(func(t *testing.T, data []byte) {
		count()
		c, err := Read(bytes.NewReader(data), int64(len(data)), "fuzz.glb")
		if err != nil {
			return
		}
		checkCharacter(t, c)
	})
}

// checkCharacter checks what a successful read promises.
func checkCharacter(t *testing.T, c *Character) {
	r := c.Rig
	if len(r.Nodes) == 0 || r.Nodes[0].Parent != -1 || len(c.Nodes) != len(r.Nodes) {
		t.Fatalf("rig of %d nodes, root parent %d", len(r.Nodes), r.Nodes[0].Parent)
	}
	paths, names := map[string]bool{}, map[string]bool{}
	for i, n := range r.Nodes {
		if i > 0 && (n.Parent < 0 || n.Parent >= i) {
			t.Fatalf("node %d's parent %d does not come before it", i, n.Parent)
		}
		if paths[n.Path] || names[n.Name] {
			t.Fatalf("node %d: path %q or name %q repeated", i, n.Path, n.Name)
		}
		paths[n.Path], names[n.Name] = true, true
	}
	for _, mi := range c.Meshes {
		m := mi.Mesh
		if mi.Node < 0 || mi.Node >= len(r.Nodes) || m.VertexCount <= 0 || len(m.Positions) != m.VertexCount {
			t.Fatalf("mesh %q on node %d, %d vertices", m.Name, mi.Node, m.VertexCount)
		}
		for si := range m.SubMeshes {
			for _, x := range m.SubMeshIndices(si) {
				if int(x) >= m.VertexCount {
					t.Fatalf("mesh %q sub-mesh %d: index %d of %d vertices", m.Name, si, x, m.VertexCount)
				}
			}
		}
		for _, j := range mi.Joints {
			if j < -1 || j >= len(r.Nodes) {
				t.Fatalf("mesh %q joint node %d", m.Name, j)
			}
		}
		if mi.Joints != nil {
			if len(m.BindPoses) != len(mi.Joints) {
				t.Fatalf("mesh %q: %d bind poses for %d joints", m.Name, len(m.BindPoses), len(mi.Joints))
			}
			var buf []model.Influence
			for i := range m.VertexCount {
				buf = m.Influences(i, buf[:0])
				var s float64
				for _, x := range buf {
					if int(x.Bone) >= len(mi.Joints) || !(x.Weight >= 0) || math.IsInf(float64(x.Weight), 0) {
						t.Fatalf("mesh %q vertex %d: influence %+v", m.Name, i, x)
					}
					s += float64(x.Weight)
				}
				if math.Abs(s-1) > 1e-5 {
					t.Fatalf("mesh %q vertex %d: weights sum to %g", m.Name, i, s)
				}
			}
		}
	}
	if _, err := gltfexp.Document(&gltfexp.Scene{Rig: r, Meshes: c.Meshes}); err != nil {
		t.Fatalf("export of what was read: %v", err)
	}
	sk, err := anim.SkeletonFromRig(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, cl := range c.Clips {
		if _, err := anim.Bake(cl, sk); err != nil {
			t.Fatalf("clip %q: %v", cl.Name, err)
		}
	}
	if h := c.Human; h != nil {
		for _, b := range h.Human {
			if !names[b.BoneName] {
				t.Fatalf("%s is %q, no rig node", b.HumanName, b.BoneName)
			}
		}
		if len(h.Skeleton) != len(r.Nodes) {
			t.Fatalf("skeleton of %d bones for %d nodes", len(h.Skeleton), len(r.Nodes))
		}
	}
}
