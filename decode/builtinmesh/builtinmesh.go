// Package builtinmesh makes Unity's built-in primitive meshes (Cube,
// Sphere, Capsule, Cylinder, Plane, Quad), which games reference from
// Unity's own resource file ("Library/unity default resources") and never
// ship: a renderer drawing one would otherwise have nothing to draw.
//
// The meshes are generated with the shapes, sizes, normals and UV layouts
// Unity documents for its primitives, in Unity's frame (left-handed, y up,
// front faces wound clockwise): a 1 m cube of 24 vertices; a sphere of
// radius 0.5 with spherical UVs; a capsule 2 m high of radius 0.5 and a
// cylinder 2 m high of radius 0.5, both along y; a 10×10 m plane of 11×11
// vertices facing +y; a 1×1 m quad facing −z. The cube, plane and quad
// have Unity's vertex and triangle counts, the cylinder Unity's 80
// triangles; the round shapes' tessellation and UV seams are this
// package's own (Unity's meshes are not published), close to Unity's.
// Tangents are left out.
package builtinmesh

import (
	"math"

	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
)

// Shape is one of Unity's built-in primitive meshes, numbered by its path
// id in Unity's default resources file.
type Shape int64

// The built-in meshes, by their path ids in "unity default resources".
const (
	Cube     Shape = 10202
	Cylinder Shape = 10206
	Sphere   Shape = 10207
	Capsule  Shape = 10208
	Plane    Shape = 10209
	Quad     Shape = 10210
)

var names = map[Shape]string{Cube: "Cube", Cylinder: "Cylinder", Sphere: "Sphere", Capsule: "Capsule", Plane: "Plane", Quad: "Quad"}

// String returns the mesh's name as Unity names it.
func (s Shape) String() string {
	if n, ok := names[s]; ok {
		return n
	}
	return "unknown built-in mesh"
}

// Lookup returns the shape of a path id in Unity's default resources file,
// and false when the id is not one of the primitives made here.
func Lookup(pathID int64) (Shape, bool) {
	_, ok := names[Shape(pathID)]
	return Shape(pathID), ok
}

// Mesh returns a new mesh of the shape (nil for an unknown shape).
func (s Shape) Mesh() *model.Mesh {
	b := &builder{}
	switch s {
	case Cube:
		b.cube()
	case Sphere:
		b.lathe(sphereProfile(), 24)
	case Capsule:
		b.lathe(capsuleProfile(), 24)
	case Cylinder:
		b.cylinder(20)
	case Plane:
		b.grid()
	case Quad:
		b.quad()
	default:
		return nil
	}
	return b.mesh(s.String())
}

type builder struct {
	pos, nrm [][3]float32
	uv       [][2]float32
	idx      []uint32
}

func (b *builder) vertex(p, n [3]float64, u, v float64) uint32 {
	b.pos = append(b.pos, [3]float32{float32(p[0]), float32(p[1]), float32(p[2])})
	b.nrm = append(b.nrm, [3]float32{float32(n[0]), float32(n[1]), float32(n[2])})
	b.uv = append(b.uv, [2]float32{float32(u), float32(v)})
	return uint32(len(b.pos) - 1)
}

// tri adds a triangle facing n, wound as Unity's front faces are
// (clockwise seen from the front: (b−a)×(c−a) points along n).
func (b *builder) tri(i, j, k uint32, n [3]float64) {
	p := func(x uint32) [3]float64 {
		q := b.pos[x]
		return [3]float64{float64(q[0]), float64(q[1]), float64(q[2])}
	}
	a, c1, c2 := p(i), p(j), p(k)
	u := [3]float64{c1[0] - a[0], c1[1] - a[1], c1[2] - a[2]}
	w := [3]float64{c2[0] - a[0], c2[1] - a[1], c2[2] - a[2]}
	cr := [3]float64{u[1]*w[2] - u[2]*w[1], u[2]*w[0] - u[0]*w[2], u[0]*w[1] - u[1]*w[0]}
	if cr[0]*n[0]+cr[1]*n[1]+cr[2]*n[2] < 0 {
		j, k = k, j
	}
	b.idx = append(b.idx, i, j, k)
}

// quadFace adds the quad a-b-c-d (in order around it) facing n as two
// triangles.
func (b *builder) quadFace(a, c1, c2, d uint32, n [3]float64) {
	b.tri(a, c1, c2, n)
	b.tri(a, c2, d, n)
}

func (b *builder) cube() {
	// Each face: its normal and two axes spanning it (u to the right, v
	// up, seen from outside).
	faces := []struct{ n, u, v [3]float64 }{
		{[3]float64{0, 0, -1}, [3]float64{1, 0, 0}, [3]float64{0, 1, 0}},
		{[3]float64{0, 0, 1}, [3]float64{-1, 0, 0}, [3]float64{0, 1, 0}},
		{[3]float64{1, 0, 0}, [3]float64{0, 0, 1}, [3]float64{0, 1, 0}},
		{[3]float64{-1, 0, 0}, [3]float64{0, 0, -1}, [3]float64{0, 1, 0}},
		{[3]float64{0, 1, 0}, [3]float64{1, 0, 0}, [3]float64{0, 0, 1}},
		{[3]float64{0, -1, 0}, [3]float64{1, 0, 0}, [3]float64{0, 0, -1}},
	}
	for _, f := range faces {
		var v [4]uint32
		for k, c := range [4][2]float64{{0, 0}, {1, 0}, {1, 1}, {0, 1}} {
			var p [3]float64
			for i := range 3 {
				p[i] = 0.5*f.n[i] + (c[0]-0.5)*f.u[i] + (c[1]-0.5)*f.v[i]
			}
			v[k] = b.vertex(p, f.n, c[0], c[1])
		}
		b.quadFace(v[0], v[1], v[2], v[3], f.n)
	}
}

func (b *builder) quad() {
	n := [3]float64{0, 0, -1}
	v0 := b.vertex([3]float64{-0.5, -0.5, 0}, n, 0, 0)
	v1 := b.vertex([3]float64{0.5, -0.5, 0}, n, 1, 0)
	v2 := b.vertex([3]float64{-0.5, 0.5, 0}, n, 0, 1)
	v3 := b.vertex([3]float64{0.5, 0.5, 0}, n, 1, 1)
	b.quadFace(v0, v1, v3, v2, n)
}

// grid makes the plane: 10×10 m in x and z, 10×10 squares, facing +y.
func (b *builder) grid() {
	n := [3]float64{0, 1, 0}
	const cells = 10
	for j := 0; j <= cells; j++ {
		for i := 0; i <= cells; i++ {
			u, v := float64(i)/cells, float64(j)/cells
			b.vertex([3]float64{5 - 10*u, 0, 5 - 10*v}, n, u, v)
		}
	}
	for j := uint32(0); j < cells; j++ {
		for i := uint32(0); i < cells; i++ {
			a := j*(cells+1) + i
			b.quadFace(a, a+1, a+cells+2, a+cells+1, n)
		}
	}
}

// ring is one circle of a surface of revolution about y: its radius,
// height, the normal's radial and vertical parts, and its v.
type ring struct{ r, y, nr, ny, v float64 }

func sphereProfile() []ring {
	const stacks = 16
	var out []ring
	for k := 0; k <= stacks; k++ {
		a := math.Pi * (float64(k)/stacks - 0.5) // −90° … 90°
		s, c := math.Sincos(a)
		out = append(out, ring{0.5 * c, 0.5 * s, c, s, float64(k) / stacks})
	}
	return out
}

func capsuleProfile() []ring {
	const half = 8 // rings from a pole to the equator
	var out []ring
	for k := 0; k <= half; k++ { // bottom hemisphere, pole to equator
		a := math.Pi / 2 * (float64(k)/half - 1)
		s, c := math.Sincos(a)
		out = append(out, ring{0.5 * c, -0.5 + 0.5*s, c, s, 0})
	}
	for k := 0; k <= half; k++ { // top hemisphere, equator to pole
		a := math.Pi / 2 * float64(k) / half
		s, c := math.Sincos(a)
		out = append(out, ring{0.5 * c, 0.5 + 0.5*s, c, s, 0})
	}
	for i := range out {
		out[i].v = (out[i].y + 1) / 2
	}
	return out
}

// lathe makes a surface of revolution from its rings, bottom to top, with
// segments columns around (the seam's column repeated for the UVs).
func (b *builder) lathe(rings []ring, segments int) {
	first := uint32(len(b.pos))
	cols := uint32(segments + 1)
	for _, r := range rings {
		for i := 0; i <= segments; i++ {
			u := float64(i) / float64(segments)
			s, c := math.Sincos(2 * math.Pi * u)
			b.vertex([3]float64{-r.r * c, r.y, -r.r * s}, [3]float64{-r.nr * c, r.ny, -r.nr * s}, u, r.v)
		}
	}
	for k := uint32(0); k+1 < uint32(len(rings)); k++ {
		for i := uint32(0); i < uint32(segments); i++ {
			a := first + k*cols + i
			// The quad faces along its corners' mean normal; at a pole
			// (a ring of radius 0) only its one proper triangle is drawn.
			var n [3]float64
			for _, v := range []uint32{a, a + 1, a + cols, a + cols + 1} {
				for c := range 3 {
					n[c] += float64(b.nrm[v][c])
				}
			}
			switch {
			case rings[k].r < 1e-9:
				b.tri(a, a+cols+1, a+cols, n)
			case rings[k+1].r < 1e-9:
				b.tri(a, a+1, a+cols+1, n)
			default:
				b.quadFace(a, a+1, a+cols+1, a+cols, n)
			}
		}
	}
}

// cylinder makes the cylinder: the side (the image once around, v up) and
// two caps (the image on each, seen from outside).
func (b *builder) cylinder(segments int) {
	side := sideRings()
	b.lathe(side, segments)
	for _, top := range []bool{false, true} {
		y, ny := -1.0, -1.0
		if top {
			y, ny = 1, 1
		}
		n := [3]float64{0, ny, 0}
		centre := b.vertex([3]float64{0, y, 0}, n, 0.5, 0.5)
		var rim []uint32
		for i := 0; i < segments; i++ {
			s, c := math.Sincos(2 * math.Pi * float64(i) / float64(segments))
			x, z := -0.5*c, -0.5*s
			u, v := x+0.5, z+0.5
			if !top {
				v = 0.5 - z
			}
			rim = append(rim, b.vertex([3]float64{x, y, z}, n, u, v))
		}
		for i := range rim {
			b.tri(centre, rim[i], rim[(i+1)%len(rim)], n)
		}
	}
}

func sideRings() []ring {
	return []ring{{0.5, -1, 1, 0, 0}, {0.5, 1, 1, 0, 1}}
}

func (b *builder) mesh(name string) *model.Mesh {
	m := &model.Mesh{Name: name, VertexCount: len(b.pos), Positions: b.pos, Normals: b.nrm, Indices: b.idx}
	m.UV[0] = b.uv
	lo, hi := b.pos[0], b.pos[0]
	for _, p := range b.pos {
		for i := range 3 {
			lo[i], hi[i] = min(lo[i], p[i]), max(hi[i], p[i])
		}
	}
	box := model.AABB{
		Center: geom.Vec3{X: (lo[0] + hi[0]) / 2, Y: (lo[1] + hi[1]) / 2, Z: (lo[2] + hi[2]) / 2},
		Extent: geom.Vec3{X: (hi[0] - lo[0]) / 2, Y: (hi[1] - lo[1]) / 2, Z: (hi[2] - lo[2]) / 2},
	}
	m.Bounds = box
	m.SubMeshes = []model.SubMesh{{IndexCount: len(b.idx), Topology: model.Triangles, VertexCount: len(b.pos), Bounds: box}}
	return m
}
