package gltf

import (
	"math"
	"sort"

	"github.com/mecanim/mecanim/model"
	qg "github.com/qmuntal/gltf"
)

// ClassCamera is Unity's Camera component.
const ClassCamera = 20

// Camera is a Unity Camera on a rig node, as a clip's Camera curves (class
// 20) give it at the clip's start: the vertical field of view in degrees
// and the near and far clip planes, Unity's defaults (60°, 0.3, 1000) for
// what no curve gives. glTF 2.0 keeps them fixed: their motion is in the
// clip's curve table (export/curves), since KHR_animation_pointer cannot
// be written through the glTF library this project uses.
type Camera struct {
	Node                   int
	FieldOfView, Near, Far float32
}

// Unity's Camera property names, as clips bind them.
var cameraProps = map[uint32]int{
	model.PathHash("field of view"):   0,
	model.PathHash("near clip plane"): 1,
	model.PathHash("far clip plane"):  2,
}

// CamerasOf returns the cameras a clip's Camera curves put on the rig's
// nodes (by path), one per node, in node order.
func CamerasOf(c *model.Clip, rig *model.Rig) []Camera {
	byPath := map[string]int{}
	for i, n := range rig.Nodes {
		byPath[n.Path] = i
	}
	cams := map[int]*Camera{}
	for i := range c.Curves {
		cv := &c.Curves[i]
		t := &cv.Target
		if t.ClassID != ClassCamera {
			continue
		}
		node, ok := byPath[t.PathName()]
		if !ok {
			continue
		}
		cam := cams[node]
		if cam == nil {
			cam = &Camera{Node: node, FieldOfView: 60, Near: 0.3, Far: 1000}
			cams[node] = cam
		}
		k, ok := cameraProps[t.Attribute]
		if !ok {
			continue
		}
		held, ok := cv.Finite()
		if !ok {
			continue
		}
		v := held.Eval(c.Start)
		switch k {
		case 0:
			cam.FieldOfView = v
		case 1:
			cam.Near = v
		case 2:
			cam.Far = v
		}
	}
	out := make([]Camera, 0, len(cams))
	for _, cam := range cams {
		out = append(out, *cam)
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Node < out[b].Node })
	return out
}

// cameras adds the scene's cameras: each a perspective camera on a child
// of its node turned half round y (a Unity camera looks along its +z, a
// glTF one along -z). Values glTF cannot take (a field of view outside
// (0°, 180°), planes not 0 < near < far) are replaced by Unity's defaults.
func (b *builder) cameras() {
	for _, c := range b.s.Cameras {
		if c.Node < 0 || c.Node >= len(b.s.Rig.Nodes) {
			continue
		}
		fov, near, far := float64(c.FieldOfView), float64(c.Near), float64(c.Far)
		if !(fov > 0 && fov < 180) {
			fov = 60
		}
		if !(near > 0 && far > near) || math.IsInf(far, 0) {
			near, far = 0.3, 1000
		}
		ci := len(b.doc.Cameras)
		b.doc.Cameras = append(b.doc.Cameras, &qg.Camera{Name: b.doc.Nodes[c.Node].Name,
			Perspective: &qg.Perspective{Yfov: fov * math.Pi / 180, Znear: near, Zfar: &far}})
		n := len(b.doc.Nodes)
		b.doc.Nodes = append(b.doc.Nodes, &qg.Node{Name: b.names.Unique(b.doc.Nodes[c.Node].Name + " (camera)"),
			Matrix: qg.DefaultMatrix, Rotation: [4]float64{0, 1, 0, 0}, Scale: [3]float64{1, 1, 1}, Camera: qg.Index(ci)})
		b.doc.Nodes[c.Node].Children = append(b.doc.Nodes[c.Node].Children, n)
	}
}
