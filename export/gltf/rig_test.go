package gltf

import (
	"bytes"
	"math"
	"os"
	"slices"
	"testing"

	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
	qg "github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"
)

// namesScene is a rig whose GameObjects repeat names (two "Bone" and a
// "Bone (1)" of its own, an empty name), with a skinned mesh drawn by a
// GameObject named like a bone ("head"), a rigid mesh on "Bone", and two
// clips named "Scene" beside a "Scene (1)".
func namesScene() *Scene {
	s := twoBoneScene()
	s.Rig.Nodes = []model.RigNode{
		{Name: "root", Parent: -1, Local: geom.Identity},
		{Name: "head", Path: "head", Parent: 0, Local: geom.Transform{T: geom.V3(0.5, 0, 0), R: geom.IdentityQuat, S: geom.V3(1, 1, 1)}},
		{Name: "Bone", Path: "head/Bone", Parent: 1, Local: geom.Identity},
		{Name: "Bone", Path: "Bone", Parent: 0, Local: geom.Identity},
		{Name: "Bone (1)", Path: "Bone (1)", Parent: 0, Local: geom.Identity},
		{Name: "", Path: "", Parent: 0, Local: geom.Identity},
	}
	s.Meshes[0].Node = 1 // drawn by "head", skinned to root and head
	rigid := *s.Meshes[0].Mesh
	rigid.BoneWeights, rigid.BoneIndices, rigid.BindPoses, rigid.BlendShapes = nil, nil, nil, nil
	s.Meshes = append(s.Meshes, model.MeshInstance{Node: 3, Mesh: &rigid})
	wave := s.Animations[0]
	wave.Tracks = wave.Tracks[:2]
	s.Animations = []Animation{
		{Name: "Scene", Tracks: wave.Tracks},
		{Name: "Scene", Tracks: wave.Tracks},
		{Name: "empty"},
		{Name: "Scene (1)", Tracks: wave.Tracks},
	}
	return s
}

// TestNamesAreUniqueAndStable writes a scene whose names clash and checks
// every node and animation gets the documented name: the first keeps its
// own, later ones the first free " (k)" suffix, mesh nodes "NAME (mesh)";
// writing it again gives the same names.
func TestNamesAreUniqueAndStable(t *testing.T) {
	wantNodes := []string{"root", "head", "Bone", "Bone (1)", "Bone (1) (1)", "node_5", "head (mesh)", "Bone (1) (mesh)"}
	wantAnims := []string{"Scene", "Scene (1)", "Scene (1) (1)"}
	var first []string
	for range 2 {
		var buf bytes.Buffer
		if err := WriteGLB(&buf, namesScene()); err != nil {
			t.Fatal(err)
		}
		doc := readGLB(t, buf.Bytes())
		var got, anims []string
		for _, n := range doc.Nodes {
			got = append(got, n.Name)
		}
		for _, a := range doc.Animations {
			anims = append(anims, a.Name)
		}
		if !slices.Equal(got, wantNodes) {
			t.Errorf("nodes named %q, want %q", got, wantNodes)
		}
		if !slices.Equal(anims, wantAnims) {
			t.Errorf("animations named %q, want %q", anims, wantAnims)
		}
		if first != nil && !slices.Equal(got, first) {
			t.Errorf("written again: %q, then %q", first, got)
		}
		first = got
		// The skinned mesh's node is a scene root; the rigid mesh's a
		// child of the node that draws it.
		if !slices.Contains(doc.Scenes[0].Nodes, 6) || !slices.Contains(doc.Nodes[3].Children, 7) || doc.Nodes[3].Mesh != nil {
			t.Errorf("scene roots %v, node 3's children %v, mesh %v", doc.Scenes[0].Nodes, doc.Nodes[3].Children, doc.Nodes[3].Mesh)
		}
	}
}

// TestEveryRigGetsASkinOfItsNodes checks the rig's own skin, with and
// without skinned meshes: the last skin, every rig node (and stand-in
// joint) a joint, node 0 its skeleton, and inverse bind matrices that undo
// the rest transforms without scale (what Blender takes as the bones'
// rest); the validator must accept it.
func TestEveryRigGetsASkinOfItsNodes(t *testing.T) {
	scaled := twoBoneScene()
	scaled.Rig.Nodes[1].Local.S = geom.V3(2, 3, 0) // a hidden, stretched bone
	scaled.Rig.Nodes = append(scaled.Rig.Nodes, model.RigNode{Name: "tip", Path: "bone/tip", Parent: 1,
		Local: geom.Transform{T: geom.V3(0, 1, 0), R: geom.AxisAngle(geom.V3(1, 0, 0), 0.4), S: geom.V3(1, 1, 1)}})
	missing := twoBoneScene()
	missing.Meshes[0].Joints = []int{0, -1}
	noMesh := twoBoneScene()
	noMesh.Meshes = nil
	noMesh.Animations[0].Tracks = noMesh.Animations[0].Tracks[:2]
	one := twoBoneScene()
	one.Rig.Nodes, one.Meshes, one.Animations = one.Rig.Nodes[:1], nil, nil
	for name, c := range map[string]struct {
		s      *Scene
		skins  int
		joints int
	}{
		"skinned":       {twoBoneScene(), 2, 2},
		"without mesh":  {noMesh, 1, 2},
		"missing bone":  {missing, 2, 3},
		"scaled":        {scaled, 2, 3},
		"a single node": {one, 1, 1},
	} {
		var buf bytes.Buffer
		if err := WriteGLB(&buf, c.s); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		doc := readGLB(t, buf.Bytes())
		if len(doc.Skins) != c.skins {
			t.Errorf("%s: %d skins, want %d", name, len(doc.Skins), c.skins)
			continue
		}
		sk := doc.Skins[len(doc.Skins)-1]
		want := make([]int, c.joints)
		for i := range want {
			want[i] = i
		}
		if name == "missing bone" {
			want[2] = slices.IndexFunc(doc.Nodes, func(n *qg.Node) bool { return n.Name == "quad missing bone 1" })
		}
		if !slices.Equal(sk.Joints, want) || sk.Skeleton == nil || *sk.Skeleton != 0 || sk.Name != doc.Nodes[0].Name {
			t.Errorf("%s: rig skin %q joints %v skeleton %v, want joints %v from node 0", name, sk.Name, sk.Joints, sk.Skeleton, want)
		}
		for _, n := range doc.Nodes {
			if n.Skin != nil && *n.Skin == len(doc.Skins)-1 {
				t.Errorf("%s: node %q draws with the rig's skin", name, n.Name)
			}
		}
		ibm, err := modeler.ReadInverseBindMatrices(doc, doc.Accessors[*sk.InverseBindMatrices], nil)
		if err != nil {
			t.Fatal(err)
		}
		rigid := rigidWorlds(doc)
		for k, j := range sk.Joints {
			var ib mat
			for r := range 4 {
				for col := range 4 {
					ib[r][col] = float64(ibm[k][r][col])
				}
			}
			p := rigid[j].mul(ib)
			for r := range 4 {
				for col := range 4 {
					if want := float64(btoi(r == col)); math.Abs(p[r][col]-want) > 1e-5 {
						t.Errorf("%s: joint %d: world without scale × inverse bind matrix = %v, want identity", name, j, p)
						r, col = 4, 4
					}
				}
			}
		}
		if mods := validatorPathOrEmpty(t); mods != "" {
			p := t.TempDir() + "/rig.glb"
			if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			checkValid(t, name, validate(t, mods, p))
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// rigidWorlds returns every node's world matrix with scales left out.
func rigidWorlds(doc *qg.Document) []mat {
	rigid := &qg.Document{}
	for _, n := range doc.Nodes {
		c := *n
		c.Scale = [3]float64{1, 1, 1}
		rigid.Nodes = append(rigid.Nodes, &c)
	}
	return worlds(rigid)
}
