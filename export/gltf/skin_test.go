package gltf

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
	qg "github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"
)

// sixBoneScene is a chain of six bones under a root and a mesh skinned to
// it with up to six influences per vertex, stored as Unity stores them:
// every influence in Skin, the four largest (renormalised) in the vertex
// channels. The bind poses are those of another pose of the chain, so
// that skinning at rest moves every vertex and each influence counts.
func sixBoneScene() *Scene {
	rig := &model.Rig{Name: "chain", Nodes: []model.RigNode{{Name: "root", Parent: -1, Local: geom.Transform{R: geom.IdentityQuat, S: geom.V3(1, 1, 1)}}}}
	bind := &model.Rig{Nodes: []model.RigNode{rig.Nodes[0]}}
	for k := range 6 {
		name := string(rune('a' + k))
		rest := geom.Transform{T: geom.V3(0, 0.4, 0.1*float32(k)), R: geom.AxisAngle(geom.V3(1, 0, 0.3*float32(k)).Normalize(), 0.2+0.1*float32(k)), S: geom.V3(1, 1, 1)}
		posed := geom.Transform{T: geom.V3(0.05*float32(k), 0.5, 0), R: geom.AxisAngle(geom.V3(0, 1, 0), -0.15*float32(k)), S: geom.V3(1, 1.1, 1)}
		rig.Nodes = append(rig.Nodes, model.RigNode{Name: name, Path: name, Parent: k, Local: rest})
		bind.Nodes = append(bind.Nodes, model.RigNode{Name: name, Parent: k, Local: posed})
	}
	bw := unityWorlds(bind)
	var binds []model.Mat4
	for k := 1; k <= 6; k++ {
		var w model.Mat4
		for r := range 4 {
			for c := range 4 {
				w[r][c] = float32(bw[k][r][c])
			}
		}
		inv, _ := invertAffine(w)
		binds = append(binds, inv)
	}
	per := [][]model.Influence{
		{{Bone: 2, Weight: 0.3}, {Bone: 0, Weight: 0.25}, {Bone: 5, Weight: 0.15}, {Bone: 1, Weight: 0.12}, {Bone: 3, Weight: 0.1}, {Bone: 4, Weight: 0.08}},
		{{Bone: 1, Weight: 0.4}, {Bone: 3, Weight: 0.2}, {Bone: 4, Weight: 0.2}, {Bone: 0, Weight: 0.1}, {Bone: 5, Weight: 0.1}},
		{{Bone: 4, Weight: 0.5}, {Bone: 5, Weight: 0.5}},
		{{Bone: 0, Weight: 1}},
	}
	m := &model.Mesh{
		Name:        "six",
		VertexCount: 4,
		Positions:   [][3]float32{{0.1, 0.5, 0}, {0.3, 1.2, 0.1}, {-0.2, 2, 0.2}, {0, 0.2, -0.1}},
		Indices:     []uint32{0, 1, 2, 0, 2, 3},
		SubMeshes:   []model.SubMesh{{IndexCount: 6}},
		BindPoses:   binds,
		BoneWeights: make([][4]float32, 4),
		BoneIndices: make([][4]uint16, 4),
		SkinOffsets: []int{0},
	}
	for i, infl := range per {
		m.Skin = append(m.Skin, infl...)
		m.SkinOffsets = append(m.SkinOffsets, len(m.Skin))
		var sum float32
		for k := 0; k < min(4, len(infl)); k++ {
			sum += infl[k].Weight
		}
		for k := 0; k < min(4, len(infl)); k++ {
			m.BoneIndices[i][k], m.BoneWeights[i][k] = infl[k].Bone, infl[k].Weight/sum
		}
	}
	return &Scene{Name: "six", Rig: rig, Meshes: []model.MeshInstance{{Node: 0, Mesh: m, Joints: []int{1, 2, 3, 4, 5, 6}}}}
}

func TestSixInfluencesExportAsTwoSets(t *testing.T) {
	s := sixBoneScene()
	var buf bytes.Buffer
	if err := WriteGLB(&buf, s); err != nil {
		t.Fatal(err)
	}
	doc := readGLB(t, buf.Bytes())
	var pr *qg.Primitive
	for _, n := range doc.Nodes {
		if n.Skin != nil {
			pr = doc.Meshes[*n.Mesh].Primitives[0]
		}
	}
	if pr == nil {
		t.Fatal("no skinned node")
	}
	for _, a := range []string{"JOINTS_0", "WEIGHTS_0", "JOINTS_1", "WEIGHTS_1"} {
		if _, ok := pr.Attributes[a]; !ok {
			t.Errorf("no %s", a)
		}
	}
	if _, ok := pr.Attributes["JOINTS_2"]; ok {
		t.Error("a third set for six influences")
	}
	jn, wt := readSkinSets(t, doc, pr) // also checks that every vertex's weights sum to 1
	m := s.Meshes[0].Mesh
	for v := range jn {
		infl := m.Influences(v, nil)
		used := 0
		for k, w := range wt[v] {
			if w == 0 {
				continue
			}
			used++
			if k >= len(infl) {
				t.Errorf("vertex %d: weight in slot %d of %d influences", v, k, len(infl))
				continue
			}
			// Joint j is rig node j+1 is bone j: the order and the
			// weights are Unity's, largest first.
			if int(jn[v][k]) != int(infl[k].Bone) || math.Abs(float64(w-infl[k].Weight)) > 1e-6 {
				t.Errorf("vertex %d slot %d: joint %d weight %g, want bone %d weight %g", v, k, jn[v][k], w, infl[k].Bone, infl[k].Weight)
			}
		}
		if used != len(infl) {
			t.Errorf("vertex %d: %d weights for %d influences", v, used, len(infl))
		}
	}
	if off := checkSkinAtRest(t, doc, s, 2e-6); off < 0.05 {
		t.Errorf("skinning at rest moves vertices by only %g: the test proves nothing", off)
	}
	// The influences past the fourth matter: skinning with the vertex
	// channels' four alone lands elsewhere.
	four := *m
	four.Skin, four.SkinOffsets = nil, nil
	s4 := *s
	s4.Meshes = []model.MeshInstance{{Node: 0, Mesh: &four, Joints: s.Meshes[0].Joints}}
	var buf4 bytes.Buffer
	if err := WriteGLB(&buf4, &s4); err != nil {
		t.Fatal(err)
	}
	doc4 := readGLB(t, buf4.Bytes())
	if d := skinnedDistance(t, doc, doc4); d < 1e-3 {
		t.Errorf("six influences skin within %g of their four largest", d)
	}
}

// skinnedDistance skins the first skinned mesh of two exports of one scene
// at rest and returns the largest distance between their vertices.
func skinnedDistance(t *testing.T, a, b *qg.Document) float64 {
	t.Helper()
	skinned := func(doc *qg.Document) [][3]float64 {
		wm := worlds(doc)
		for _, n := range doc.Nodes {
			if n.Skin == nil {
				continue
			}
			sk := doc.Skins[*n.Skin]
			pr := doc.Meshes[*n.Mesh].Primitives[0]
			pos, _ := modeler.ReadPosition(doc, doc.Accessors[pr.Attributes[qg.POSITION]], nil)
			jn, wt := readSkinSets(t, doc, pr)
			ibm32, _ := modeler.ReadInverseBindMatrices(doc, doc.Accessors[*sk.InverseBindMatrices], nil)
			ibm := make([]mat, len(ibm32))
			for k := range ibm32 {
				for r := range 4 {
					for c := range 4 {
						ibm[k][r][c] = float64(ibm32[k][r][c])
					}
				}
			}
			var out [][3]float64
			for v := range pos {
				var p [3]float64
				for k := range jn[v] {
					q := wm[sk.Joints[jn[v][k]]].mul(ibm[jn[v][k]]).point(pos[v])
					for c := range 3 {
						p[c] += float64(wt[v][k]) * q[c]
					}
				}
				out = append(out, p)
			}
			return out
		}
		t.Fatal("no skinned node")
		return nil
	}
	pa, pb := skinned(a), skinned(b)
	worst := 0.0
	for v := range pa {
		worst = max(worst, dist(pa[v], pb[v]))
	}
	return worst
}

func TestFourInfluencesExportOneSet(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteGLB(&buf, twoBoneScene()); err != nil {
		t.Fatal(err)
	}
	doc := readGLB(t, buf.Bytes())
	for _, m := range doc.Meshes {
		for _, pr := range m.Primitives {
			if _, ok := pr.Attributes["JOINTS_1"]; ok {
				t.Error("a second set for two influences per vertex")
			}
		}
	}
}

// manyInfluencesScene is sixBoneScene's chain with 300 vertices of 1 to
// 12 influences each, with pseudo-random weights that do not sum to 1 and
// bones that share a Transform (bone k+6 is bone k's node), for the
// validator's checks of every set.
func manyInfluencesScene() *Scene {
	s := sixBoneScene()
	m := s.Meshes[0].Mesh
	const n = 300
	x := uint32(12345)
	rnd := func() float32 {
		x = x*1664525 + 1013904223
		return float32(x>>8) / (1 << 24)
	}
	m2 := &model.Mesh{Name: "many", VertexCount: n, SkinOffsets: []int{0}, BindPoses: append(append([]model.Mat4{}, m.BindPoses...), m.BindPoses...)}
	for i := range n {
		m2.Positions = append(m2.Positions, [3]float32{rnd() - 0.5, 3 * rnd(), rnd() - 0.5})
		k := 1 + i%12
		for b := range k {
			m2.Skin = append(m2.Skin, model.Influence{Bone: uint16((b*5 + i) % 12), Weight: 0.01 + rnd()})
		}
		sortByWeight(m2.Skin[m2.SkinOffsets[i]:])
		m2.SkinOffsets = append(m2.SkinOffsets, len(m2.Skin))
	}
	for i := 0; i+2 < n; i += 3 {
		m2.Indices = append(m2.Indices, uint32(i), uint32(i+1), uint32(i+2))
	}
	m2.SubMeshes = []model.SubMesh{{IndexCount: len(m2.Indices)}}
	joints := append(append([]int{}, s.Meshes[0].Joints...), s.Meshes[0].Joints...)
	s.Meshes = []model.MeshInstance{{Node: 0, Mesh: m2, Joints: joints}}
	return s
}

func sortByWeight(s []model.Influence) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j].Weight > s[j-1].Weight; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

func TestManyInfluencesSkinAsUnity(t *testing.T) {
	s := manyInfluencesScene()
	var buf bytes.Buffer
	if err := WriteGLB(&buf, s); err != nil {
		t.Fatal(err)
	}
	doc := readGLB(t, buf.Bytes())
	for _, n := range doc.Nodes {
		if n.Skin != nil {
			pr := doc.Meshes[*n.Mesh].Primitives[0]
			// Up to 12 bones, on 6 joints: merged, 6 influences, 2 sets.
			_, one := pr.Attributes["JOINTS_1"]
			_, two := pr.Attributes["JOINTS_2"]
			if !one || two {
				t.Errorf("sets JOINTS_1 %v, JOINTS_2 %v: want the 12 bones merged onto their 6 joints, two sets", one, two)
			}
		}
	}
	checkSkinAtRest(t, doc, s, 1e-5)
}

func TestSixInfluencesPassTheValidator(t *testing.T) {
	mods := validatorPath(t)
	dir := t.TempDir()
	for name, s := range map[string]*Scene{"six": sixBoneScene(), "many": manyInfluencesScene()} {
		glb := filepath.Join(dir, name+".glb")
		f, err := os.Create(glb)
		if err != nil {
			t.Fatal(err)
		}
		if err := WriteGLB(f, s); err != nil {
			t.Fatal(err)
		}
		f.Close()
		is := validate(t, mods, glb)
		checkValid(t, name, is)
		for _, m := range is.Messages {
			if m.Severity <= 1 {
				t.Errorf("%s: validator %s at %s: %s", name, m.Code, m.Pointer, m.Message)
			}
		}
	}
}

func TestExportRefusesBadVariableSkins(t *testing.T) {
	for name, edit := range map[string]func(m *model.Mesh){
		"offsets length": func(m *model.Mesh) { m.SkinOffsets = m.SkinOffsets[:3] },
		"offset past":    func(m *model.Mesh) { m.SkinOffsets[4] = len(m.Skin) + 1 },
		"offsets back":   func(m *model.Mesh) { m.SkinOffsets[2] = 0 },
		"too many": func(m *model.Mesh) {
			m.Skin = make([]model.Influence, 256)
			m.SkinOffsets = []int{0, 256, 256, 256, 256}
		},
	} {
		s := sixBoneScene()
		edit(s.Meshes[0].Mesh)
		if err := WriteGLB(&bytes.Buffer{}, s); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
