package gltfchar

import (
	"bytes"
	"math"
	"os"
	"slices"
	"testing"

	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/model"
	qg "github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"
)

const (
	vrm0File = "characters/cryptovoxels.vrm"
	vrm1File = "characters/VRMC_materials_mtoon_UV_Animation_Test.vrm"
)

// matOfTransform returns a transform's matrix in Unity's frame.
func matOfTransform(t geom.Transform) model.Mat4 {
	var m model.Mat4
	for c, axis := range []geom.Vec3{{X: 1}, {Y: 1}, {Z: 1}} {
		v := t.R.Rotate(axis.Mul(t.S))
		m[0][c], m[1][c], m[2][c] = v.X, v.Y, v.Z
	}
	m[0][3], m[1][3], m[2][3], m[3][3] = t.T.X, t.T.Y, t.T.Z, 1
	return m
}

func mulMat(a, b model.Mat4) model.Mat4 {
	var m model.Mat4
	for r := range 4 {
		for c := range 4 {
			var s float64
			for k := range 4 {
				s += float64(a[r][k]) * float64(b[k][c])
			}
			m[r][c] = float32(s)
		}
	}
	return m
}

func applyMat(m model.Mat4, p [3]float32) [3]float64 {
	var out [3]float64
	for r := range 3 {
		out[r] = float64(m[r][0])*float64(p[0]) + float64(m[r][1])*float64(p[1]) + float64(m[r][2])*float64(p[2]) + float64(m[r][3])
	}
	return out
}

// skinAtRest skins a mesh instance with the rig at rest (each joint's
// world matrix times its bind pose) in Unity's frame.
func skinAtRest(t *testing.T, c *Character, mi model.MeshInstance) [][3]float64 {
	t.Helper()
	m := mi.Mesh
	skin := make([]model.Mat4, len(mi.Joints))
	for k, j := range mi.Joints {
		if j < 0 {
			t.Fatalf("mesh %q bone %d is not in the rig", m.Name, k)
		}
		skin[k] = mulMat(matOfTransform(worldOf(c.Rig, j)), m.BindPoses[k])
	}
	out := make([][3]float64, m.VertexCount)
	var buf []model.Influence
	for i, p := range m.Positions {
		buf = m.Influences(i, buf[:0])
		for _, x := range buf {
			q := applyMat(skin[x.Bone], p)
			for k := range 3 {
				out[i][k] += float64(x.Weight) * q[k]
			}
		}
	}
	return out
}

// gltfSkinAtRest skins the first skinned mesh of a glTF file at rest in
// glTF's frame, from the file as qmuntal/gltf's modeler reads it (four
// influences a vertex): the reference the reader's conversion must match.
func gltfSkinAtRest(t *testing.T, path string) [][3]float64 {
	t.Helper()
	doc, err := qg.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	par := map[int]int{}
	for i, n := range doc.Nodes {
		for _, c := range n.Children {
			par[c] = i
		}
	}
	world := func(i int) mat4 {
		loc := func(i int) mat4 {
			n := doc.Nodes[i]
			return trs{t: n.Translation, r: n.RotationOrDefault(), s: n.ScaleOrDefault()}.matrix()
		}
		m := loc(i)
		for p, ok := par[i]; ok; p, ok = par[p] {
			m = loc(p).mul(m)
		}
		return m
	}
	for _, n := range doc.Nodes {
		if n.Skin == nil || n.Mesh == nil {
			continue
		}
		sk := doc.Skins[*n.Skin]
		ibm, err := modeler.ReadAccessor(doc, doc.Accessors[*sk.InverseBindMatrices], nil)
		if err != nil {
			t.Fatal(err)
		}
		skin := make([]mat4, len(sk.Joints))
		for k, j := range sk.Joints {
			b := ibm.([][4][4]float32)[k] // b[column][row]
			var bm mat4
			for r := range 4 {
				for c := range 4 {
					bm[r][c] = float64(b[r][c])
				}
			}
			skin[k] = world(j).mul(bm)
		}
		pr := doc.Meshes[*n.Mesh].Primitives[0]
		pos, err := modeler.ReadPosition(doc, doc.Accessors[pr.Attributes[qg.POSITION]], nil)
		if err != nil {
			t.Fatal(err)
		}
		js, err := modeler.ReadJoints(doc, doc.Accessors[pr.Attributes[qg.JOINTS_0]], nil)
		if err != nil {
			t.Fatal(err)
		}
		ws, err := modeler.ReadWeights(doc, doc.Accessors[pr.Attributes[qg.WEIGHTS_0]], nil)
		if err != nil {
			t.Fatal(err)
		}
		out := make([][3]float64, len(pos))
		for i, p := range pos {
			var sum float64
			for k := range 4 {
				sum += float64(ws[i][k])
			}
			for k := range 4 {
				m := skin[js[i][k]]
				for r := range 3 {
					out[i][r] += float64(ws[i][k]) / sum * (m[r][0]*float64(p[0]) + m[r][1]*float64(p[1]) + m[r][2]*float64(p[2]) + m[r][3])
				}
			}
		}
		return out
	}
	t.Fatal("no skinned mesh")
	return nil
}

// checkWeights checks that every vertex's influences sum to 1.
func checkWeights(t *testing.T, m *model.Mesh) {
	t.Helper()
	var buf []model.Influence
	for i := range m.VertexCount {
		buf = m.Influences(i, buf[:0])
		var s float64
		for _, x := range buf {
			s += float64(x.Weight)
		}
		if math.Abs(s-1) > 1e-6 {
			t.Fatalf("mesh %q vertex %d: weights sum to %g", m.Name, i, s)
		}
	}
}

func TestCorpusVRM0(t *testing.T) {
	c, err := Open(corpustest.Path(t, vrm0File))
	if err != nil {
		t.Fatal(err)
	}
	if c.Format != FormatVRM0 || c.HumanSource != HumanVRM0 || c.Mirror != MirrorZ {
		t.Errorf("format %s, map %s, mirror %s", c.Format, c.HumanSource, c.Mirror)
	}
	if len(c.Rig.Nodes) != 75 || c.Rig.Nodes[0].Name != "cryptovoxels" || c.Nodes[0] != -1 {
		t.Errorf("%d rig nodes (74 and a synthetic root), root %q", len(c.Rig.Nodes), c.Rig.Nodes[0].Name)
	}
	if len(c.Human.Human) != 43 {
		t.Errorf("%d human bones, want 43", len(c.Human.Human))
	}
	for bone, node := range map[string]string{"Hips": "Hips", "LeftUpperLeg": "Left leg", "RightHand": "Right wrist", "Chest": "Chest", "Left Little Distal": "LittleFinger3_L"} {
		if got, _ := mappedNode(c, bone); got != node {
			t.Errorf("%s is %q, want %q", bone, got, node)
		}
	}
	if _, ok := mappedNode(c, "UpperChest"); ok {
		t.Error("cryptovoxels has no upper chest")
	}
	if c.Human.ArmTwist != 0.5 || c.Human.ArmStretch != 0.05 || c.Human.GlobalScale != 1 {
		t.Errorf("settings %+v", c.Human)
	}
	checkStanding(t, c, 1.1, 1.5)
	if c.ArmsRaised != [2]float32{} {
		t.Errorf("arms raised %v: cryptovoxels stands in a T-pose", c.ArmsRaised)
	}
	if len(c.Meshes) != 1 {
		t.Fatalf("%d meshes", len(c.Meshes))
	}
	mi := c.Meshes[0]
	if mi.Mesh.Name != "Body.baked.baked" || c.Rig.Nodes[mi.Node].Path != "Body" || len(mi.Joints) != 57 || mi.Mesh.VertexCount != 2727 {
		t.Errorf("mesh %q on %q, %d joints, %d vertices", mi.Mesh.Name, c.Rig.Nodes[mi.Node].Path, len(mi.Joints), mi.Mesh.VertexCount)
	}
	checkWeights(t, mi.Mesh)
	// Skinned at rest, the mesh is where glTF puts it, z mirrored: the
	// rig, the bind poses, the weights and the positions agree. (The
	// file's rest pose is not quite its bind pose: limbs move by up to
	// 0.2 m, fingers most.)
	got := skinAtRest(t, c, mi)
	want := gltfSkinAtRest(t, corpustest.Path(t, vrm0File))
	worst, moved := 0.0, 0.0
	for i := range got {
		w := [3]float64{want[i][0], want[i][1], -want[i][2]}
		worst = max(worst, math.Hypot(math.Hypot(got[i][0]-w[0], got[i][1]-w[1]), got[i][2]-w[2]))
		p := mi.Mesh.Positions[i]
		moved = max(moved, math.Hypot(math.Hypot(got[i][0]-float64(p[0]), got[i][1]-float64(p[1])), got[i][2]-float64(p[2])))
	}
	if worst > 2e-6 {
		t.Errorf("skinned at rest, vertices are up to %g m from where glTF puts them", worst)
	}
	t.Logf("%d vertices, %d triangles; skinned at rest within %.2g m of glTF (the rest pose moves them up to %.3g m from the bind pose)", mi.Mesh.VertexCount, len(mi.Mesh.Indices)/3, worst, moved)
}

func TestCorpusVRM1(t *testing.T) {
	c, err := Open(corpustest.Path(t, vrm1File))
	if err != nil {
		t.Fatal(err)
	}
	if c.Format != FormatVRM1 || c.HumanSource != HumanVRM1 || c.Mirror != MirrorX {
		t.Errorf("format %s, map %s, mirror %s", c.Format, c.HumanSource, c.Mirror)
	}
	if len(c.Rig.Nodes) != 58 || c.Rig.Nodes[0].Name != "Armature" {
		t.Errorf("%d rig nodes, root %q (the scene's one root, without a transform)", len(c.Rig.Nodes), c.Rig.Nodes[0].Name)
	}
	if len(c.Human.Human) != 53 {
		t.Errorf("%d human bones, want 53", len(c.Human.Human))
	}
	// VRM 1.0's thumb metacarpal is Unity's thumb proximal.
	for bone, node := range map[string]string{"Left Thumb Proximal": "thumb.proximal.L", "Left Thumb Intermediate": "thumb.intermediate.L", "Right Thumb Distal": "thumb.distal.R", "LeftEye": "eye.L"} {
		if got, _ := mappedNode(c, bone); got != node {
			t.Errorf("%s is %q, want %q", bone, got, node)
		}
	}
	checkStanding(t, c, 1.4, 1.7)
	if len(c.Meshes) != 3 {
		t.Fatalf("%d meshes", len(c.Meshes))
	}
	for _, mi := range c.Meshes {
		if mi.Joints != nil || c.Rig.Nodes[mi.Node].Name != mi.Mesh.Name || len(mi.Materials) != 1 || mi.Materials[0].Name != mi.Mesh.Name {
			t.Errorf("mesh %q on %q: joints %v, materials %v", mi.Mesh.Name, c.Rig.Nodes[mi.Node].Name, mi.Joints, mi.Materials)
		}
	}
}

// TestCorpusVRM1ByNames strips the VRM extension from the VRM 1.0 file:
// its Blender-style names map the same 53 bones.
func TestCorpusVRM1ByNames(t *testing.T) {
	data, err := os.ReadFile(corpustest.Path(t, vrm1File))
	if err != nil {
		t.Fatal(err)
	}
	withVRM := read(t, data, Config{})
	plain := read(t, editGLB(t, data, func(doc map[string]any) {
		delete(doc["extensions"].(map[string]any), "VRMC_vrm")
		doc["extensionsUsed"] = slices.DeleteFunc(doc["extensionsUsed"].([]any), func(x any) bool { return x == "VRMC_vrm" })
	}), Config{})
	if plain.Format != FormatGLTF || plain.HumanSource != HumanBlender || plain.Mirror != MirrorX {
		t.Fatalf("format %s, map %s, mirror %s (%s)", plain.Format, plain.HumanSource, plain.Mirror, plain.Facing)
	}
	if !slices.Equal(plain.Human.Human, withVRM.Human.Human) {
		t.Errorf("names map\n%v\nVRM maps\n%v", plain.Human.Human, withVRM.Human.Human)
	}
}

// BenchmarkReadVRM0 reads the VRM 0.x corpus character (a 2,727-vertex
// skinned mesh, 74 nodes, its textures) from memory.
func BenchmarkReadVRM0(b *testing.B) {
	data, err := os.ReadFile(corpustest.Path(b, vrm0File))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Read(bytes.NewReader(data), int64(len(data)), "cryptovoxels.vrm"); err != nil {
			b.Fatal(err)
		}
	}
}
