package mesh

import (
	"io/fs"
	"math"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/assets"
	"github.com/mecanim/mecanim/unity/serialized"
)

var (
	corpusOnce sync.Once
	corpusCts  []*assets.Container
)

// corpusContainers opens every Unity file of the corpus once per test binary
// (files that are not Unity containers are passed over).
func corpusContainers(tb testing.TB) []*assets.Container {
	tb.Helper()
	dir := corpustest.Dir(tb)
	corpusOnce.Do(func() {
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			if strings.Contains(p, "/source/") || strings.Contains(p, "/reference/") || strings.HasSuffix(p, ".resS") {
				return nil
			}
			ct, err := assets.Open(p, assets.Options{})
			if err != nil {
				return nil
			}
			corpusCts = append(corpusCts, ct)
			return nil
		})
	})
	return corpusCts
}

type corpusMesh struct {
	name string
	f    *assets.File
	o    *serialized.Object
}

func corpusMeshes(tb testing.TB, class int32) []corpusMesh {
	var out []corpusMesh
	dir := corpustest.Dir(tb)
	for _, ct := range corpusContainers(tb) {
		rel, _ := filepath.Rel(dir, ct.Path)
		for _, f := range ct.Files {
			for i := range f.Objects {
				if f.Objects[i].ClassID == class {
					out = append(out, corpusMesh{rel + "#" + f.Name, f, &f.Objects[i]})
				}
			}
		}
	}
	return out
}

// TestCorpusMeshesDecodeConsistently decodes every Mesh of the corpus and
// checks it against what Unity stored beside the vertices: the vertex and
// index counts, the mesh's and each sub-mesh's bounding boxes (Unity
// computes them from the positions, so decoding a channel wrongly moves
// them), unit-sum bone weights, and that the streams fill m_DataSize.
func TestCorpusMeshesDecodeConsistently(t *testing.T) {
	ms := corpusMeshes(t, ClassMesh)
	if len(ms) < 200 {
		t.Fatalf("only %d meshes in the corpus", len(ms))
	}
	skinned, variable, empty := 0, 0, 0
	for _, cm := range ms {
		v, err := cm.f.Decode(cm.o)
		if err != nil {
			t.Errorf("%s: %d: %v", cm.name, cm.o.PathID, err)
			continue
		}
		m, err := FromFile(cm.f, cm.o)
		if err != nil {
			t.Errorf("%s: %v", cm.name, err)
			continue
		}
		id := cm.name + ": " + m.Name
		if want := int(v.Path("m_VertexData", "m_VertexCount").Int()); m.VertexCount != want || len(m.Positions) != want {
			t.Errorf("%s: %d vertices, %d positions, stored %d", id, m.VertexCount, len(m.Positions), want)
		}
		if d := v.Path("m_VertexData", "m_DataSize").Bytes(); len(d) > 0 {
			vd, _ := vertexData(v, Options{Version: cm.f.Version})
			if _, n, err := vd.Streams(); err != nil || n != len(d) {
				t.Errorf("%s: streams need %d bytes of %d (%v)", id, n, len(d), err)
			}
		}
		total := 0
		for i, s := range m.SubMeshes {
			total += s.IndexCount
			if want := int(v.Field("m_SubMeshes").Index(i).Field("indexCount").Int()); s.IndexCount != want {
				t.Errorf("%s: sub-mesh %d: %d indices, stored %d", id, i, s.IndexCount, want)
			}
			idx := m.SubMeshIndices(i)
			checkBounds(t, id+": sub-mesh", m.Positions, idx, s.Bounds)
		}
		if total > len(m.Indices) {
			t.Errorf("%s: sub-meshes use %d of %d indices", id, total, len(m.Indices))
		}
		checkBounds(t, id, m.Positions, nil, m.Bounds)
		for i, n := range m.Normals {
			if l := math.Sqrt(float64(n[0]*n[0] + n[1]*n[1] + n[2]*n[2])); math.Abs(l-1) > 0.01 {
				t.Errorf("%s: normal %d has length %g", id, i, l)
				break
			}
		}
		if m.BoneWeights != nil {
			skinned++
			for i, w := range m.BoneWeights {
				if s := w[0] + w[1] + w[2] + w[3]; math.Abs(float64(s)-1) > 1e-3 {
					t.Errorf("%s: vertex %d weights sum to %g", id, i, s)
					break
				}
				for k, b := range m.BoneIndices[i] {
					if w[k] > 0 && int(b) >= len(m.BindPoses) {
						t.Errorf("%s: vertex %d bone %d past %d bind poses", id, i, b, len(m.BindPoses))
					}
				}
			}
		}
		if m.HasVariableSkin() {
			variable++
			checkVariableSkin(t, id, m)
		} else if v.Field("m_VariableBoneCountWeights") != nil {
			empty++
		}
	}
	t.Logf("%d meshes, %d skinned; %d with m_VariableBoneCountWeights data, %d with it empty", len(ms), skinned, variable, empty)
}

// checkVariableSkin checks a mesh's m_VariableBoneCountWeights against its
// vertex channels: each vertex's weights sum to 1, its bones have bind
// poses, and the channels hold its largest influences' bones.
func checkVariableSkin(t *testing.T, id string, m *model.Mesh) {
	t.Helper()
	var buf []model.Influence
	for i := 0; i < m.VertexCount; i++ {
		buf = m.Influences(i, buf[:0])
		var sum float64
		for _, x := range buf {
			sum += float64(x.Weight)
			if int(x.Bone) >= len(m.BindPoses) {
				t.Errorf("%s: vertex %d: bone %d past %d bind poses", id, i, x.Bone, len(m.BindPoses))
				return
			}
		}
		if len(buf) > 0 && math.Abs(sum-1) > 1e-3 {
			t.Errorf("%s: vertex %d: variable weights sum to %g", id, i, sum)
			return
		}
		if len(buf) > 0 && i < len(m.BoneIndices) && m.BoneWeights[i][0] > 0 && !slicesContains(m.BoneIndices[i], buf[0].Bone) {
			t.Errorf("%s: vertex %d: largest influence bone %d not in the channels' %v", id, i, buf[0].Bone, m.BoneIndices[i])
			return
		}
	}
}

func slicesContains(s [4]uint16, x uint16) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

// checkBounds compares the box of the positions (those indexed, or all) with
// Unity's stored box.
func checkBounds(t *testing.T, id string, pos [][3]float32, idx []uint32, want model.AABB) {
	t.Helper()
	if len(pos) == 0 {
		return
	}
	lo := [3]float32{float32(math.Inf(1)), float32(math.Inf(1)), float32(math.Inf(1))}
	hi := [3]float32{float32(math.Inf(-1)), float32(math.Inf(-1)), float32(math.Inf(-1))}
	add := func(p [3]float32) {
		for k := range 3 {
			lo[k] = min(lo[k], p[k])
			hi[k] = max(hi[k], p[k])
		}
	}
	if idx == nil {
		for _, p := range pos {
			add(p)
		}
	} else {
		if len(idx) == 0 {
			return
		}
		for _, i := range idx {
			add(pos[i])
		}
	}
	wl, wh := want.Min(), want.Max()
	w0 := [3]float32{wl.X, wl.Y, wl.Z}
	w1 := [3]float32{wh.X, wh.Y, wh.Z}
	for k := range 3 {
		tol := 1e-5 * max(1, float64(abs32(w0[k])+abs32(w1[k])))
		if math.Abs(float64(lo[k]-w0[k])) > tol || math.Abs(float64(hi[k]-w1[k])) > tol {
			t.Errorf("%s: axis %d: positions span [%g, %g], stored box [%g, %g]", id, k, lo[k], hi[k], w0[k], w1[k])
			return
		}
	}
}

func abs32(x float32) float32 { return float32(math.Abs(float64(x))) }

// TestCorpusSkinnedRenderers decodes every SkinnedMeshRenderer and checks
// its mesh resolves and has one bind pose per bone.
func TestCorpusSkinnedRenderers(t *testing.T) {
	rs := corpusMeshes(t, ClassSkinnedMeshRenderer)
	if len(rs) < 60 {
		t.Fatalf("only %d renderers", len(rs))
	}
	perFile := map[string]int{}
	resolved := map[string]int{}
	defer func() {
		// The manifest's counts: ror2-skeletons holds 51 renderers, and
		// every one's mesh is in its own file.
		for f, n := range perFile {
			if strings.HasPrefix(f, "ror2-skeletons/") && (n != 51 || resolved[f] != 51) {
				t.Errorf("%s: %d renderers, %d with their mesh decoded; the manifest says 51", f, n, resolved[f])
			}
		}
	}()
	for _, cr := range rs {
		perFile[cr.name]++
		v, err := cr.f.Decode(cr.o)
		if err != nil {
			t.Errorf("%s: %v", cr.name, err)
			continue
		}
		r, err := DecodeSkinnedRenderer(v)
		if err != nil {
			t.Errorf("%s: %v", cr.name, err)
			continue
		}
		if r.Mesh.IsNull() || r.Mesh.FileID != 0 {
			continue // the mesh lives in another file
		}
		mo, ok := cr.f.Object(r.Mesh.PathID)
		if !ok {
			t.Errorf("%s: renderer %d: mesh %d not in file", cr.name, cr.o.PathID, r.Mesh.PathID)
			continue
		}
		m, err := FromFile(cr.f, mo)
		if err != nil {
			t.Errorf("%s: %v", cr.name, err)
			continue
		}
		resolved[cr.name]++
		if len(m.BindPoses) > 0 && len(r.Bones) != len(m.BindPoses) {
			t.Errorf("%s: %s: %d bones, %d bind poses", cr.name, m.Name, len(r.Bones), len(m.BindPoses))
		}
	}
}

// corpusLookup reports whether the corpus is present (for fuzz seeding).
func corpusLookup() (string, bool) { return corpustest.Lookup() }
