package gltf

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
	qg "github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"
)

// twoBoneScene is a rig of a root and one child bone with a skinned quad
// (two triangles, one blend shape) and an animation of the bone.
func twoBoneScene() *Scene {
	rot := geom.AxisAngle(geom.V3(0, 1, 0), 0.5)
	rig := &model.Rig{Name: "rig", Nodes: []model.RigNode{
		{Name: "root", Parent: -1, Local: geom.Transform{T: geom.V3(1, 2, 3), R: geom.IdentityQuat, S: geom.V3(1, 1, 1)}},
		{Name: "bone", Path: "bone", Parent: 0, Local: geom.Transform{T: geom.V3(0.5, 0, 0), R: rot, S: geom.V3(1, 1, 1)}},
	}}
	id := model.Mat4{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}}
	bone := matOf(rig.Nodes[1].Local.Inverse()) // the bone's bind pose: the inverse of its place
	m := &model.Mesh{
		Name:        "quad",
		VertexCount: 4,
		Positions:   [][3]float32{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}},
		Normals:     [][3]float32{{0, 0, -1}, {0, 0, -1}, {0, 0, -1}, {0, 0, -1}},
		Tangents:    [][4]float32{{1, 0, 0, -1}, {1, 0, 0, -1}, {1, 0, 0, -1}, {1, 0, 0, -1}},
		UV:          [8][][2]float32{{{0, 0}, {1, 0}, {1, 1}, {0, 1}}},
		BoneWeights: [][4]float32{{1}, {0.5, 0.5}, {0.25, 0.75}, {1}},
		BoneIndices: [][4]uint16{{0}, {0, 1}, {0, 1}, {1, 1}},
		Indices:     []uint32{0, 1, 2, 0, 2, 3},
		SubMeshes:   []model.SubMesh{{IndexCount: 6}},
		BindPoses:   []model.Mat4{id, bone},
		BlendShapes: []model.BlendShape{{Name: "up", Frames: []model.BlendFrame{{Weight: 100, Vertices: []uint32{2}, Position: [][3]float32{{0.1, 0.2, 0}}}}}},
	}
	times := []float32{0, 0.5, 1}
	return &Scene{
		Name:   "test",
		Rig:    rig,
		Meshes: []model.MeshInstance{{Node: 0, Mesh: m, Joints: []int{0, 1}, BlendShapeWeights: []float32{50}}},
		Animations: []Animation{{Name: "wave", Tracks: []Track{
			{Node: 1, Path: PathRotation, Times: times, Values: []float32{0, 0, 0, 1, 0, 0.7071068, 0, 0.7071068, 0, 1, 0, 0}},
			{Node: 1, Path: PathTranslation, Times: times, Values: []float32{0.5, 0, 0, 0.6, 0, 0, 0.7, 0, 0}},
			{Node: 0, Path: PathWeights, Times: times, Values: []float32{0, 100, 0}, Interpolation: Step},
			{Node: 0, Path: PathRotation, Times: times, Interpolation: CubicSpline, Values: []float32{
				0, 0, 0, 0, 0, 0, 0, 1, 0, 0.1, 0, 0, // in-tangent, value, out-tangent
				0, 0.1, 0, 0, 0, 0.7071068, 0, 0.7071068, 0, 0.1, 0, 0,
				0, 0.1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0,
			}},
		}}},
	}
}

// matOf returns a transform's matrix (Unity's frame, column vectors).
func matOf(t geom.Transform) model.Mat4 {
	var m model.Mat4
	for c, axis := range []geom.Vec3{{X: 1}, {Y: 1}, {Z: 1}} {
		v := t.R.Rotate(axis.Mul(t.S))
		m[0][c], m[1][c], m[2][c] = v.X, v.Y, v.Z
	}
	m[0][3], m[1][3], m[2][3], m[3][3] = t.T.X, t.T.Y, t.T.Z, 1
	return m
}

func readGLB(t *testing.T, b []byte) *qg.Document {
	t.Helper()
	var doc qg.Document
	if err := qg.NewDecoder(bytes.NewReader(b)).Decode(&doc); err != nil {
		t.Fatal(err)
	}
	return &doc
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func TestExportMirrorsTheFrame(t *testing.T) {
	s := twoBoneScene()
	var buf bytes.Buffer
	if err := WriteGLB(&buf, s); err != nil {
		t.Fatal(err)
	}
	doc := readGLB(t, buf.Bytes())
	checkRigNodes(t, doc, s.Rig)

	// Winding reversed, positions mirrored, v flipped, tangent sign negated.
	pr := doc.Meshes[0].Primitives[0]
	idx, _ := modeler.ReadIndices(doc, doc.Accessors[*pr.Indices], nil)
	if want := []uint32{0, 2, 1, 0, 3, 2}; !equalU32(idx, want) {
		t.Errorf("indices %v, want %v", idx, want)
	}
	pos, _ := modeler.ReadPosition(doc, doc.Accessors[pr.Attributes[qg.POSITION]], nil)
	if pos[1] != [3]float32{-1, 0, 0} {
		t.Errorf("position 1 = %v", pos[1])
	}
	uv, _ := modeler.ReadTextureCoord(doc, doc.Accessors[pr.Attributes[qg.TEXCOORD_0]], nil)
	if uv[3] != [2]float32{0, 0} || uv[0] != [2]float32{0, 1} {
		t.Errorf("uv %v", uv)
	}
	tan, _ := modeler.ReadTangent(doc, doc.Accessors[pr.Attributes[qg.TANGENT]], nil)
	if tan[0] != [4]float32{-1, 0, 0, 1} {
		t.Errorf("tangent %v", tan[0])
	}
	w, _ := modeler.ReadWeights(doc, doc.Accessors[pr.Attributes[qg.WEIGHTS_0]], nil)
	j, _ := modeler.ReadJoints(doc, doc.Accessors[pr.Attributes[qg.JOINTS_0]], nil)
	if w[3] != [4]float32{1, 0, 0, 0} || j[3] != [4]uint16{1, 0, 0, 0} || j[1] != [4]uint16{0, 1, 0, 0} {
		t.Errorf("vertex 3 joints %v weights %v; vertex 1 joints %v", j[3], w[3], j[1])
	}
	ibm, _ := modeler.ReadInverseBindMatrices(doc, doc.Accessors[*doc.Skins[0].InverseBindMatrices], nil)
	bp := s.Meshes[0].Mesh.BindPoses[1]
	if ibm[1][0][3] != -bp[0][3] || ibm[1][0][2] != -bp[0][2] || ibm[1][1][2] != bp[1][2] { // modeler reads [row][column]
		t.Errorf("inverse bind matrix %v from %v", ibm[1], bp)
	}
	if doc.Meshes[0].Weights[0] != 0.5 {
		t.Errorf("morph weights %v", doc.Meshes[0].Weights)
	}
	if off := checkSkinAtRest(t, doc, s, 1e-6); off > 1e-6 {
		t.Errorf("the rig rests in its bind pose, yet skinning moves vertices by %g", off)
	}

	// Rotation key 1: 90° about y becomes 90° about -y.
	a := doc.Animations[0]
	for _, ch := range a.Channels {
		sm := a.Samplers[ch.Sampler]
		out, _ := modeler.ReadAccessor(doc, doc.Accessors[sm.Output], nil)
		switch ch.Target.Path {
		case qg.TRSRotation:
			q := out.([][4]float32)
			if sm.Interpolation == qg.InterpolationCubicSpline {
				// Key 1's value is the fifth element; tangents mirror too.
				if len(q) != 9 || q[4] != [4]float32{0, -0.7071068, 0, 0.7071068} || q[3] != [4]float32{0, -0.1, 0, 0} {
					t.Errorf("cubic rotation %v", q)
				}
				continue
			}
			if !near(float64(q[1][1]), -0.7071068, 1e-6) || !near(float64(q[1][3]), 0.7071068, 1e-6) {
				t.Errorf("rotation key 1 = %v", q[1])
			}
		case qg.TRSTranslation:
			if v := out.([][3]float32); v[2] != [3]float32{-0.7, 0, 0} {
				t.Errorf("translation key 2 = %v", v[2])
			}
		case qg.TRSWeights:
			if v := out.([]float32); v[1] != 1 {
				t.Errorf("weights %v", v)
			}
		}
	}
}

// uniqueNameOf reports whether got is name, or name with a " (k)" suffix
// (k > 0) as the exporter makes duplicated names unique.
func uniqueNameOf(got, name string) bool {
	if name == "" {
		return strings.HasPrefix(got, "node_")
	}
	if got == name {
		return true
	}
	rest, ok := strings.CutPrefix(got, name+" (")
	rest, ok2 := strings.CutSuffix(rest, ")")
	k, err := strconv.Atoi(rest)
	return ok && ok2 && err == nil && k > 0
}

func equalU32(a, b []uint32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// checkRigNodes reads the rig's nodes back and checks each transform is
// the Unity one mirrored, each name the GameObject's (with a " (k)" suffix
// when an earlier node has it) and no two nodes named alike.
func checkRigNodes(t *testing.T, doc *qg.Document, rig *model.Rig) {
	t.Helper()
	if len(doc.Nodes) < len(rig.Nodes) {
		t.Fatalf("%d nodes for %d rig nodes", len(doc.Nodes), len(rig.Nodes))
	}
	seen := map[string]int{}
	for i, n := range doc.Nodes {
		if j, dup := seen[n.Name]; dup {
			t.Errorf("nodes %d and %d are both named %q", j, i, n.Name)
		}
		seen[n.Name] = i
	}
	bad := 0
	for i, n := range rig.Nodes {
		g := doc.Nodes[i]
		tr, rot, sc := g.TranslationOrDefault(), g.RotationOrDefault(), g.ScaleOrDefault()
		q := n.Local.R.Normalize()
		ok := near(tr[0], -float64(n.Local.T.X), 1e-6) && near(tr[1], float64(n.Local.T.Y), 1e-6) && near(tr[2], float64(n.Local.T.Z), 1e-6) &&
			near(rot[0], float64(q.X), 1e-6) && near(rot[1], -float64(q.Y), 1e-6) && near(rot[2], -float64(q.Z), 1e-6) && near(rot[3], float64(q.W), 1e-6) &&
			near(sc[0], float64(n.Local.S.X), 1e-6) && near(sc[1], float64(n.Local.S.Y), 1e-6) && near(sc[2], float64(n.Local.S.Z), 1e-6)
		if !ok || !uniqueNameOf(g.Name, n.Name) {
			if bad++; bad <= 3 {
				t.Errorf("node %d %q: glTF %q T%v R%v S%v, Unity %+v", i, n.Path, g.Name, tr, rot, sc, n.Local)
			}
		}
		if i > 0 {
			found := false
			for _, c := range doc.Nodes[n.Parent].Children {
				found = found || c == i
			}
			if !found {
				t.Errorf("node %d is not a child of %d", i, n.Parent)
			}
		}
	}
}

type mat [4][4]float64

func (a mat) mul(b mat) mat {
	var c mat
	for r := range 4 {
		for k := range 4 {
			for x := range 4 {
				c[r][k] += a[r][x] * b[x][k]
			}
		}
	}
	return c
}

func (a mat) point(p [3]float32) [3]float64 {
	var out [3]float64
	for r := range 3 {
		out[r] = a[r][0]*float64(p[0]) + a[r][1]*float64(p[1]) + a[r][2]*float64(p[2]) + a[r][3]
	}
	return out
}

func trsMat(n *qg.Node) mat {
	t, q, s := n.TranslationOrDefault(), n.RotationOrDefault(), n.ScaleOrDefault()
	x, y, z, w := q[0], q[1], q[2], q[3]
	r := [3][3]float64{
		{1 - 2*(y*y+z*z), 2 * (x*y - z*w), 2 * (x*z + y*w)},
		{2 * (x*y + z*w), 1 - 2*(x*x+z*z), 2 * (y*z - x*w)},
		{2 * (x*z - y*w), 2 * (y*z + x*w), 1 - 2*(x*x+y*y)},
	}
	var m mat
	for i := range 3 {
		for k := range 3 {
			m[i][k] = r[i][k] * s[k]
		}
		m[i][3] = t[i]
	}
	m[3][3] = 1
	return m
}

// worlds returns every node's world matrix.
func worlds(doc *qg.Document) []mat {
	parent := make([]int, len(doc.Nodes))
	for i := range parent {
		parent[i] = -1
	}
	for i, n := range doc.Nodes {
		for _, c := range n.Children {
			parent[c] = i
		}
	}
	out := make([]mat, len(doc.Nodes))
	done := make([]bool, len(doc.Nodes))
	var world func(i int) mat
	world = func(i int) mat {
		if done[i] {
			return out[i]
		}
		m := trsMat(doc.Nodes[i])
		if parent[i] >= 0 {
			m = world(parent[i]).mul(m)
		}
		out[i], done[i] = m, true
		return m
	}
	for i := range doc.Nodes {
		world(i)
	}
	return out
}

// unityWorlds returns the rig's world matrices in Unity's frame, composed
// as matrices (exact for non-uniform scale, as glTF composes them).
func unityWorlds(rig *model.Rig) []mat {
	out := make([]mat, len(rig.Nodes))
	for i, n := range rig.Nodes {
		m := toMat(matOf(n.Local))
		if n.Parent >= 0 {
			m = out[n.Parent].mul(m)
		}
		out[i] = m
	}
	return out
}

func toMat(m model.Mat4) mat {
	var o mat
	for r := range 4 {
		for c := range 4 {
			o[r][c] = float64(m[r][c])
		}
	}
	return o
}

// checkSkinAtRest skins every skinned mesh at the rig's rest pose twice:
// in glTF from the exported file (joint worlds × inverse bind matrices,
// the exported weights) and in Unity's frame from the decoded rig and mesh
// (bone worlds × bind poses), and checks that every vertex of the first is
// the mirror of the second, within tol relative to the vertex's distance
// from the origin. It returns the largest distance between a skinned vertex
// and the unskinned mesh placed by its renderer's node (0 when the rig rests
// in its bind pose; prefabs saved in another pose give more).
func checkSkinAtRest(t *testing.T, doc *qg.Document, s *Scene, tol float64) float64 {
	t.Helper()
	wm := worlds(doc)
	uw := unityWorlds(s.Rig)
	offBind := 0.0
	si := 0
	for _, mi := range s.Meshes {
		m := mi.Mesh
		if mi.Joints == nil || (m.BoneWeights == nil && !m.HasVariableSkin()) || m.VertexCount == 0 {
			continue
		}
		var node *qg.Node
		for _, n := range doc.Nodes {
			if n.Skin != nil && *n.Skin == si {
				node = n
			}
		}
		si++
		if node == nil {
			t.Errorf("%s: no node with skin %d", m.Name, si-1)
			continue
		}
		sk := doc.Skins[*node.Skin]
		pr := doc.Meshes[*node.Mesh].Primitives[0]
		pos, _ := modeler.ReadPosition(doc, doc.Accessors[pr.Attributes[qg.POSITION]], nil)
		jn, wt := readSkinSets(t, doc, pr)
		ibm, _ := modeler.ReadInverseBindMatrices(doc, doc.Accessors[*sk.InverseBindMatrices], nil)
		jm := make([]mat, len(sk.Joints))
		for k, j := range sk.Joints {
			var ib mat
			for r := range 4 {
				for c := range 4 {
					ib[r][c] = float64(ibm[k][r][c])
				}
			}
			jm[k] = wm[j].mul(ib)
		}
		bm := make([]mat, len(m.BindPoses))
		for k := range bm {
			if k < len(mi.Joints) && mi.Joints[k] >= 0 {
				bm[k] = uw[mi.Joints[k]].mul(toMat(m.BindPoses[k]))
			}
		}
		meshWorld := wm[mi.Node]
		worst, bad := 0.0, 0
		var infl []model.Influence
		for v := range pos {
			var p, u [3]float64
			for k := range jn[v] {
				q := jm[jn[v][k]].point(pos[v])
				for c := range 3 {
					p[c] += float64(wt[v][k]) * q[c]
				}
			}
			var sum float64
			infl = m.Influences(v, infl[:0])
			for _, x := range infl {
				w := float64(x.Weight)
				if b := int(x.Bone); w > 0 && b < len(bm) {
					q := bm[b].point(m.Positions[v])
					for c := range 3 {
						u[c] += w * q[c]
					}
					sum += w
				}
			}
			want := [3]float64{-u[0] / sum, u[1] / sum, u[2] / sum}
			d := dist(p, want) / max(1, math.Sqrt(want[0]*want[0]+want[1]*want[1]+want[2]*want[2]))
			if d > tol || math.IsNaN(d) {
				bad++
			}
			worst = max(worst, d)
			offBind = max(offBind, dist(p, meshWorld.point(pos[v])))
		}
		if bad > 0 {
			t.Errorf("%s: %d of %d vertices skin away from Unity's skinning (worst relative %g)", m.Name, bad, len(pos), worst)
		}
	}
	return offBind
}

// readSkinSets reads every JOINTS_n/WEIGHTS_n set of a primitive: per
// vertex, the joints and weights of all sets, set after set. It fails the
// test when the sets do not pair up or a weight is negative, and when a
// vertex's weights over all sets do not sum to 1 (within float32 rounding).
func readSkinSets(t *testing.T, doc *qg.Document, pr *qg.Primitive) ([][]uint16, [][]float32) {
	t.Helper()
	var jn [][]uint16
	var wt [][]float32
	for set := 0; ; set++ {
		ja, okJ := pr.Attributes[fmt.Sprintf("JOINTS_%d", set)]
		wa, okW := pr.Attributes[fmt.Sprintf("WEIGHTS_%d", set)]
		if okJ != okW {
			t.Fatalf("set %d: JOINTS present %v, WEIGHTS present %v", set, okJ, okW)
		}
		if !okJ {
			break
		}
		j, err := modeler.ReadJoints(doc, doc.Accessors[ja], nil)
		if err != nil {
			t.Fatal(err)
		}
		w, err := modeler.ReadWeights(doc, doc.Accessors[wa], nil)
		if err != nil {
			t.Fatal(err)
		}
		if jn == nil {
			jn, wt = make([][]uint16, len(j)), make([][]float32, len(w))
		}
		if len(j) != len(jn) || len(w) != len(wt) {
			t.Fatalf("set %d: %d joints, %d weights for %d vertices", set, len(j), len(w), len(jn))
		}
		for v := range j {
			jn[v] = append(jn[v], j[v][:]...)
			wt[v] = append(wt[v], w[v][:]...)
		}
	}
	for v, ws := range wt {
		var sum float64
		for _, x := range ws {
			if x < 0 {
				t.Fatalf("vertex %d: negative weight %g", v, x)
			}
			sum += float64(x)
		}
		if math.Abs(sum-1) > 1e-6 {
			t.Errorf("vertex %d: weights of all sets sum to %g", v, sum)
		}
	}
	return jn, wt
}

func dist(a, b [3]float64) float64 {
	return math.Sqrt((a[0]-b[0])*(a[0]-b[0]) + (a[1]-b[1])*(a[1]-b[1]) + (a[2]-b[2])*(a[2]-b[2]))
}

func TestExportPassesTheValidator(t *testing.T) {
	mods := validatorPath(t)
	dir := t.TempDir()
	s := twoBoneScene()
	glb := filepath.Join(dir, "t.glb")
	f, err := os.Create(glb)
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteGLB(f, s); err != nil {
		t.Fatal(err)
	}
	f.Close()
	checkValid(t, "glb", validate(t, mods, glb))
	gl := filepath.Join(dir, "t.gltf")
	if err := WriteGLTF(gl, s); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "t.bin")); err != nil {
		t.Fatal(err)
	}
	checkValid(t, "gltf", validate(t, mods, gl))
}

func TestExportRejectsBadTracks(t *testing.T) {
	for name, tr := range map[string]Track{
		"node":       {Node: 9, Path: PathRotation, Times: []float32{0}, Values: []float32{0, 0, 0, 1}},
		"count":      {Node: 1, Path: PathRotation, Times: []float32{0}, Values: []float32{0, 0, 1}},
		"order":      {Node: 1, Path: PathScale, Times: []float32{1, 0}, Values: make([]float32, 6)},
		"path":       {Node: 1, Path: "color", Times: []float32{0}, Values: []float32{0}},
		"weights":    {Node: 1, Path: PathWeights, Times: []float32{0}, Values: []float32{0}},
		"interp":     {Node: 1, Path: PathScale, Times: []float32{0}, Values: make([]float32, 3), Interpolation: "EASE"},
		"cubicCount": {Node: 1, Path: PathScale, Times: []float32{0}, Values: make([]float32, 3), Interpolation: CubicSpline},
	} {
		s := twoBoneScene()
		s.Animations = []Animation{{Name: name, Tracks: []Track{tr}}}
		if _, err := Document(s); err == nil {
			t.Errorf("%s: accepted %+v", name, tr)
		}
	}
}

func TestSkeletonWithoutMeshesExports(t *testing.T) {
	s := twoBoneScene()
	s.Meshes = nil
	s.Animations[0].Tracks = s.Animations[0].Tracks[:2]
	var buf bytes.Buffer
	if err := WriteGLB(&buf, s); err != nil {
		t.Fatal(err)
	}
	doc := readGLB(t, buf.Bytes())
	checkRigNodes(t, doc, s.Rig)
	if len(doc.Nodes) != 2 || len(doc.Meshes) != 0 {
		t.Errorf("%d nodes, %d meshes", len(doc.Nodes), len(doc.Meshes))
	}
}

// constClip is a PoseSampler for tests: joint 1 turns about y at 1 rad/s.
type constClip struct{ d float32 }

func (c constClip) Duration() float32 { return c.d }
func (c constClip) Animates(int) anim.Props {
	return anim.PropT | anim.PropR | anim.PropS
}
func (c constClip) Sample(t float32, dst []geom.Transform) {
	for i := range dst {
		dst[i] = geom.Identity
	}
	dst[1].R = geom.AxisAngle(geom.V3(0, 1, 0), t)
}

func TestSampleKeysEveryFrameAndTheEnd(t *testing.T) {
	rest := []geom.Transform{geom.Identity, geom.Identity}
	a := Sample("turn", constClip{1.01}, []int{0, 1}, rest, 10)
	if len(a.Tracks) != 1 || a.Tracks[0].Node != 1 || a.Tracks[0].Path != PathRotation {
		t.Fatalf("tracks %+v", a.Tracks)
	}
	tm := a.Tracks[0].Times
	if len(tm) != 12 || tm[0] != 0 || tm[10] != 1 || tm[11] != 1.01 {
		t.Errorf("times %v", tm)
	}
	v := a.Tracks[0].Values
	if q := (geom.Quat{X: v[44], Y: v[45], Z: v[46], W: v[47]}); geom.AngleBetween(q, geom.AxisAngle(geom.V3(0, 1, 0), 1.01)) > 1e-6 {
		t.Errorf("last key %v", q)
	}
	if z := Sample("still", constClip{0}, []int{0, 1}, rest, 30); len(z.Tracks) != 0 {
		t.Errorf("zero-length clip: %d tracks", len(z.Tracks))
	}
}

// smileClip is a FloatSampler driving the quad's "up" shape from 0 to 100
// over one second, and an unrelated channel.
type smileClip struct{}

func (smileClip) Duration() float32 { return 1 }
func (smileClip) FloatTargets() []model.Target {
	return []model.Target{
		{ClassID: model.ClassSkinnedMeshRenderer, PathHash: model.PathHash("other"), Attribute: model.PathHash("up")},
		{ClassID: model.ClassSkinnedMeshRenderer, PathHash: model.PathHash(""), PathKnown: true, Attribute: model.PathHash("up")},
	}
}
func (smileClip) SampleFloats(t float32, dst []float32) { dst[0], dst[1] = -1, 100*t }

func TestSampleBlendShapesDrivesMorphWeights(t *testing.T) {
	s := twoBoneScene()
	tr := SampleBlendShapes(smileClip{}, s.Rig, s.Meshes, 4)
	if len(tr) != 1 || tr[0].Node != 0 || tr[0].Path != PathWeights || len(tr[0].Times) != 5 {
		t.Fatalf("tracks %+v", tr)
	}
	if v := tr[0].Values; v[0] != 0 || v[2] != 50 || v[4] != 100 {
		t.Errorf("weights %v", v)
	}
	s.Animations = []Animation{{Name: "smile", Tracks: tr}}
	var buf bytes.Buffer
	if err := WriteGLB(&buf, s); err != nil {
		t.Fatal(err)
	}
	doc := readGLB(t, buf.Bytes())
	out, _ := modeler.ReadAccessor(doc, doc.Accessors[doc.Animations[0].Samplers[0].Output], nil)
	if w := out.([]float32); len(w) != 5 || w[4] != 1 || w[2] != 0.5 {
		t.Errorf("glTF weights %v", w)
	}
	mods := validatorPath(t)
	p := filepath.Join(t.TempDir(), "smile.glb")
	os.WriteFile(p, buf.Bytes(), 0o644)
	checkValid(t, "smile", validate(t, mods, p))
}

func TestPrimitiveIndicesKeepFacesFacing(t *testing.T) {
	for _, c := range []struct {
		topo model.Topology
		in   []uint32
		want []uint32
		mode qg.PrimitiveMode
	}{
		{model.Triangles, []uint32{0, 1, 2, 2, 1, 3}, []uint32{0, 2, 1, 2, 3, 1}, qg.PrimitiveTriangles},
		{model.Quads, []uint32{0, 1, 2, 3}, []uint32{0, 2, 1, 0, 3, 2}, qg.PrimitiveTriangles},
		{model.TriangleStrip, []uint32{0, 1, 2, 3, 3, 4}, []uint32{0, 2, 1, 2, 3, 1}, qg.PrimitiveTriangles},
		{model.Lines, []uint32{0, 1, 2}, []uint32{0, 1}, qg.PrimitiveLines},
		{model.LineStrip, []uint32{0, 1, 2}, []uint32{0, 1, 2}, qg.PrimitiveLineStrip},
		{model.Points, []uint32{4, 1}, []uint32{4, 1}, qg.PrimitivePoints},
	} {
		m := &model.Mesh{VertexCount: 5, Indices: c.in, SubMeshes: []model.SubMesh{{IndexCount: len(c.in), Topology: c.topo}}}
		got, mode := primitiveIndices(m, 0)
		if !equalU32(got, c.want) || mode != c.mode {
			t.Errorf("topology %d: %v mode %v, want %v mode %v", c.topo, got, mode, c.want, c.mode)
		}
	}
}

func TestMissingBonesRestWhereTheyWereBound(t *testing.T) {
	s := twoBoneScene()
	s.Meshes[0].Joints = []int{0, -1}
	var buf bytes.Buffer
	if err := WriteGLB(&buf, s); err != nil {
		t.Fatal(err)
	}
	doc := readGLB(t, buf.Bytes())
	if len(doc.Skins[0].Joints) != 2 || doc.Skins[0].Joints[1] < 2 {
		t.Fatalf("joints %v", doc.Skins[0].Joints)
	}
	// The rig rests in its bind pose, so the skinned mesh must lie exactly
	// on the unskinned one with the stand-in joint too.
	s.Meshes[0].Joints = []int{0, 1} // Unity's side of the comparison
	if off := checkSkinAtRest(t, doc, s, 1e-5); off > 1e-5 {
		t.Errorf("the stand-in joint moves vertices by %g", off)
	}
}

func TestDecomposeInvertsTheMatrixOfATransform(t *testing.T) {
	for _, tr := range []geom.Transform{
		geom.Identity,
		{T: geom.V3(1, -2, 3), R: geom.AxisAngle(geom.V3(0, 0.6, 0.8), 2.5), S: geom.V3(2, 2, 2)},
		{T: geom.V3(0, 0, 0), R: geom.AxisAngle(geom.V3(1, 0, 0), math.Pi), S: geom.V3(1, 3, 0.5)},
		{T: geom.V3(5, 0, 0), R: geom.AxisAngle(geom.V3(0, 1, 0), -3), S: geom.V3(-1, 1, 1)},
	} {
		got := decompose(matOf(tr))
		back := matOf(got)
		want := matOf(tr)
		for r := range 4 {
			for c := range 4 {
				if !near(float64(back[r][c]), float64(want[r][c]), 1e-5) {
					t.Fatalf("%+v decomposes to %+v", tr, got)
				}
			}
		}
		inv, ok := invertAffine(want)
		if !ok {
			t.Fatal("not invertible")
		}
		id := toMat(want).mul(toMat(inv))
		for r := range 4 {
			for c := range 4 {
				if want := map[bool]float64{true: 1, false: 0}[r == c]; !near(id[r][c], want, 1e-5) {
					t.Fatalf("M·M⁻¹ = %v", id)
				}
			}
		}
	}
}

func TestExportRefusesInconsistentMeshes(t *testing.T) {
	for name, edit := range map[string]func(m *model.Mesh){
		"normals":    func(m *model.Mesh) { m.Normals = m.Normals[:2] },
		"uv":         func(m *model.Mesh) { m.UV[1] = make([][2]float32, 7) },
		"bones":      func(m *model.Mesh) { m.BoneIndices = m.BoneIndices[:1] },
		"index":      func(m *model.Mesh) { m.Indices[4] = 4 },
		"range":      func(m *model.Mesh) { m.SubMeshes[0].IndexCount = 9 },
		"base":       func(m *model.Mesh) { m.SubMeshes[0].BaseVertex = 2 },
		"shape":      func(m *model.Mesh) { m.BlendShapes[0].Frames[0].Vertices[0] = 4 },
		"shape size": func(m *model.Mesh) { m.BlendShapes[0].Frames[0].Position = nil },
		"positions":  func(m *model.Mesh) { m.VertexCount = 5 },
	} {
		s := twoBoneScene()
		edit(s.Meshes[0].Mesh)
		if _, err := Document(s); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: err %v", name, err)
		}
	}
}

// FuzzExport exports meshes made from arbitrary bytes through arbitrary
// joint maps: every mesh either exports or is refused, never a panic.
func FuzzExport(f *testing.F) {
	f.Add([]byte{0, 1, 2, 0, 2, 3}, []byte{0, 1, 255}, uint8(4))
	f.Fuzz(func(t *testing.T, idx, bones []byte, nv uint8) {
		s := twoBoneScene()
		m := s.Meshes[0].Mesh
		n := int(nv % 8)
		m.VertexCount = n
		m.Positions = make([][3]float32, n)
		m.Normals, m.Tangents, m.UV = nil, nil, [8][][2]float32{}
		m.BoneWeights = make([][4]float32, n)
		m.BoneIndices = make([][4]uint16, n)
		for i := range n {
			m.Positions[i] = [3]float32{float32(i), float32(i * i), 1}
			if i < len(bones) {
				m.BoneIndices[i] = [4]uint16{uint16(bones[i] % 4), uint16(bones[i] / 64)}
				m.BoneWeights[i] = [4]float32{float32(bones[i]%3) / 2, 0.5}
			}
		}
		m.Indices = make([]uint32, len(idx))
		for i, x := range idx {
			m.Indices[i] = uint32(x % 9)
		}
		m.SubMeshes = []model.SubMesh{{IndexCount: len(idx), Topology: model.Topology(len(idx) % 6)}}
		s.Meshes[0].Joints = nil
		for _, b := range bones {
			s.Meshes[0].Joints = append(s.Meshes[0].Joints, int(int8(b))%3)
		}
		if len(m.BlendShapes[0].Frames[0].Vertices) > 0 && int(m.BlendShapes[0].Frames[0].Vertices[0]) >= n {
			m.BlendShapes = nil
		}
		var buf bytes.Buffer
		WriteGLB(&buf, s)
	})
}
