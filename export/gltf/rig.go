package gltf

import (
	"github.com/mecanim/mecanim/geom"
	qg "github.com/qmuntal/gltf"
)

// rigSkin adds the rig's skin: every rig node (and every joint added for a
// bone outside the rig) as a joint, node 0 its skeleton root, drawn by no
// mesh. It is what makes an importer build one armature of the whole rig
// (Blender makes a skin's joints bones; nodes outside every skin become
// loose empties with an action each), whether or not a skinned mesh is
// drawn on it. Its inverse bind matrices are those of the rig's rest
// transforms without scale: Blender takes the bones' rest (edit bones,
// which have no scale) from the last skin's inverse bind matrices, so the
// rest it shows is the scene's.
func (b *builder) rigSkin() {
	n := len(b.s.Rig.Nodes)
	joints := make([]int, 0, n+len(b.extraJoints))
	for i := range n {
		joints = append(joints, i)
	}
	parent := map[int]int{}
	for _, e := range b.extraJoints {
		joints = append(joints, e.node)
		parent[e.node] = e.parent
	}
	// World transforms without scale, parents first (rig nodes are
	// ordered parents first; extra joints come after them, children of
	// rig nodes).
	world := make(map[int]geom.Transform, len(joints))
	ibm := make([]float32, 0, 16*len(joints))
	for _, j := range joints {
		nd := b.doc.Nodes[j]
		local := geom.Transform{
			T: geom.Vec3{X: float32(nd.Translation[0]), Y: float32(nd.Translation[1]), Z: float32(nd.Translation[2])},
			R: geom.Quat{X: float32(nd.Rotation[0]), Y: float32(nd.Rotation[1]), Z: float32(nd.Rotation[2]), W: float32(nd.Rotation[3])}.Normalize(),
			S: geom.Vec3{X: 1, Y: 1, Z: 1},
		}
		w := local
		if p, ok := parent[j]; ok {
			w = world[p].Mul(local)
		} else if p := b.s.Rig.Nodes[j].Parent; j > 0 && p >= 0 {
			w = world[p].Mul(local)
		}
		world[j] = w
		inv := w.Inverse()
		m := rigidMatrix(inv)
		ibm = append(ibm, m[:]...)
	}
	b.doc.Skins = append(b.doc.Skins, &qg.Skin{
		Name:                b.doc.Nodes[b.root].Name,
		Joints:              joints,
		Skeleton:            qg.Index(b.root),
		InverseBindMatrices: qg.Index(b.floats(ibm, qg.AccessorMat4, qg.TargetNone, false)),
	})
}

// rigidMatrix returns the column-major matrix of a transform without
// scale.
func rigidMatrix(t geom.Transform) [16]float32 {
	var m [16]float32
	for c, axis := range []geom.Vec3{{X: 1}, {Y: 1}, {Z: 1}} {
		v := t.R.Rotate(axis)
		m[4*c], m[4*c+1], m[4*c+2] = v.X, v.Y, v.Z
	}
	m[12], m[13], m[14], m[15] = t.T.X, t.T.Y, t.T.Z, 1
	return m
}
