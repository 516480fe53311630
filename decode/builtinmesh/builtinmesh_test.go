package builtinmesh

import (
	"math"
	"testing"
)

// Each primitive has Unity's documented size and, where Unity's counts are
// known to match, its vertex and triangle counts; every normal is a unit
// vector, every UV within the texture, and every triangle wound as Unity's
// front faces are (clockwise seen from outside: (b−a)×(c−a) along the
// outward normal), none degenerate.
func TestPrimitivesHaveUnitysShapes(t *testing.T) {
	for _, c := range []struct {
		shape       Shape
		verts, tris int // 0: not checked
		extent      [3]float32
		onSurface   func(p [3]float32) bool
		pathID      int64
		name        string
	}{
		{Cube, 24, 12, [3]float32{0.5, 0.5, 0.5}, func(p [3]float32) bool {
			return max(abs(p[0]), abs(p[1]), abs(p[2])) > 0.4999
		}, 10202, "Cube"},
		{Sphere, 0, 0, [3]float32{0.5, 0.5, 0.5}, func(p [3]float32) bool {
			return near(math.Sqrt(float64(p[0]*p[0]+p[1]*p[1]+p[2]*p[2])), 0.5)
		}, 10207, "Sphere"},
		{Capsule, 0, 0, [3]float32{0.5, 1, 0.5}, func(p [3]float32) bool {
			y := max(-0.5, min(0.5, float64(p[1])))
			return near(math.Sqrt(float64(p[0]*p[0])+(float64(p[1])-y)*(float64(p[1])-y)+float64(p[2]*p[2])), 0.5)
		}, 10208, "Capsule"},
		{Cylinder, 0, 80, [3]float32{0.5, 1, 0.5}, func(p [3]float32) bool {
			return near(math.Hypot(float64(p[0]), float64(p[2])), 0.5) || abs(p[1]) > 0.9999
		}, 10206, "Cylinder"},
		{Plane, 121, 200, [3]float32{5, 0, 5}, func(p [3]float32) bool { return p[1] == 0 }, 10209, "Plane"},
		{Quad, 4, 2, [3]float32{0.5, 0.5, 0}, func(p [3]float32) bool { return p[2] == 0 }, 10210, "Quad"},
	} {
		if s, ok := Lookup(c.pathID); !ok || s != c.shape || s.String() != c.name {
			t.Errorf("path id %d: %v %v", c.pathID, s, ok)
		}
		m := c.shape.Mesh()
		if m.Name != c.name || m.VertexCount != len(m.Positions) || len(m.Normals) != m.VertexCount || len(m.UV[0]) != m.VertexCount {
			t.Fatalf("%v: name %q, %d vertices, %d normals, %d UVs", c.shape, m.Name, m.VertexCount, len(m.Normals), len(m.UV[0]))
		}
		tris := len(m.Indices) / 3
		if c.verts != 0 && m.VertexCount != c.verts || c.tris != 0 && tris != c.tris {
			t.Errorf("%v: %d vertices, %d triangles; want %d, %d", c.shape, m.VertexCount, tris, c.verts, c.tris)
		}
		t.Logf("%v: %d vertices, %d triangles", c.shape, m.VertexCount, tris)
		e := m.Bounds.Extent
		if !near(float64(e.X), float64(c.extent[0])) || !near(float64(e.Y), float64(c.extent[1])) || !near(float64(e.Z), float64(c.extent[2])) ||
			!near(float64(m.Bounds.Center.X), 0) || !near(float64(m.Bounds.Center.Y), 0) || !near(float64(m.Bounds.Center.Z), 0) {
			t.Errorf("%v: bounds %+v, want extent %v about 0", c.shape, m.Bounds, c.extent)
		}
		if len(m.SubMeshes) != 1 || m.SubMeshes[0].IndexCount != len(m.Indices) {
			t.Errorf("%v: sub-meshes %+v", c.shape, m.SubMeshes)
		}
		for i, p := range m.Positions {
			n := m.Normals[i]
			if !near(math.Sqrt(float64(n[0]*n[0]+n[1]*n[1]+n[2]*n[2])), 1) || !c.onSurface(p) {
				t.Fatalf("%v: vertex %d at %v, normal %v", c.shape, i, p, n)
			}
			if uv := m.UV[0][i]; uv[0] < 0 || uv[0] > 1 || uv[1] < 0 || uv[1] > 1 {
				t.Fatalf("%v: vertex %d UV %v", c.shape, i, uv)
			}
		}
		for k := 0; k+2 < len(m.Indices); k += 3 {
			a, b, d := m.Positions[m.Indices[k]], m.Positions[m.Indices[k+1]], m.Positions[m.Indices[k+2]]
			u := [3]float64{float64(b[0] - a[0]), float64(b[1] - a[1]), float64(b[2] - a[2])}
			w := [3]float64{float64(d[0] - a[0]), float64(d[1] - a[1]), float64(d[2] - a[2])}
			cr := [3]float64{u[1]*w[2] - u[2]*w[1], u[2]*w[0] - u[0]*w[2], u[0]*w[1] - u[1]*w[0]}
			var n [3]float64
			for _, v := range m.Indices[k : k+3] {
				for i := range 3 {
					n[i] += float64(m.Normals[v][i])
				}
			}
			l := math.Sqrt(cr[0]*cr[0] + cr[1]*cr[1] + cr[2]*cr[2])
			if l < 1e-9 || (cr[0]*n[0]+cr[1]*n[1]+cr[2]*n[2])/l < 0.5 {
				t.Fatalf("%v: triangle %d (%v %v %v) is degenerate or faces away from its normals %v", c.shape, k/3, a, b, d, n)
			}
		}
	}
	if _, ok := Lookup(10205); ok {
		t.Error("10205 is not a primitive")
	}
	if Shape(1).Mesh() != nil {
		t.Error("a mesh for an unknown shape")
	}
}

// Unity's quad: its four corners, UVs and triangles as Unity's Quad has
// them ((−½, −½) (½, −½) (−½, ½) (½, ½), facing −z, triangles 0 3 1 and
// 3 0 2).
func TestQuadIsUnitysQuad(t *testing.T) {
	m := Quad.Mesh()
	want := [][3]float32{{-0.5, -0.5, 0}, {0.5, -0.5, 0}, {-0.5, 0.5, 0}, {0.5, 0.5, 0}}
	uv := [][2]float32{{0, 0}, {1, 0}, {0, 1}, {1, 1}}
	for i := range want {
		if m.Positions[i] != want[i] || m.UV[0][i] != uv[i] || m.Normals[i] != [3]float32{0, 0, -1} {
			t.Fatalf("vertex %d: %v %v %v", i, m.Positions[i], m.UV[0][i], m.Normals[i])
		}
	}
	// The same two triangles, as rotations of Unity's.
	got := map[[3]uint32]bool{}
	for k := 0; k < 6; k += 3 {
		a, b, c := m.Indices[k], m.Indices[k+1], m.Indices[k+2]
		got[[3]uint32{a, b, c}], got[[3]uint32{b, c, a}], got[[3]uint32{c, a, b}] = true, true, true
	}
	if !got[[3]uint32{0, 3, 1}] || !got[[3]uint32{3, 0, 2}] {
		t.Errorf("triangles %v", m.Indices)
	}
}

func abs(x float32) float32 { return float32(math.Abs(float64(x))) }

func near(a, b float64) bool { return math.Abs(a-b) < 1e-5 }
