package gltfchar

import (
	"bytes"
	"hash/crc32"
	"math"
	"testing"

	"github.com/mecanim/mecanim/anim"
	gltfexp "github.com/mecanim/mecanim/export/gltf"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
)

func xf(t geom.Vec3, axis geom.Vec3, angle float32, s geom.Vec3) geom.Transform {
	return geom.Transform{T: t, R: geom.AxisAngle(axis.Normalize(), angle), S: s}
}

// rtScene is a rig of five nodes (a moved root, non-uniform scale on one
// bone), a mesh skinned to three of them with up to six influences a
// vertex, two sub-meshes and a blend shape, and a generic clip of every
// curve form export/gltf keeps exactly.
func rtScene(t *testing.T) (*gltfexp.Scene, *model.Clip) {
	one := geom.V3(1, 1, 1)
	rig := &model.Rig{Name: "rt", Nodes: []model.RigNode{
		{Name: "root", Path: "", Parent: -1, Local: xf(geom.V3(0.5, 0, -0.25), geom.V3(0, 1, 0), 0.3, one)},
		{Name: "hips", Path: "hips", Parent: 0, Local: xf(geom.V3(0, 1, 0.1), geom.V3(1, 0.2, 0), 0.4, one)},
		{Name: "spine", Path: "hips/spine", Parent: 1, Local: xf(geom.V3(0, 0.3, 0), geom.V3(0, 0, 1), -0.7, geom.V3(1, 1.2, 0.9))},
		{Name: "arm", Path: "hips/spine/arm", Parent: 2, Local: xf(geom.V3(0.2, 0.1, 0), geom.V3(1, 1, 1), 1.1, one)},
		{Name: "Body", Path: "Body", Parent: 0, Local: geom.Identity},
		{Name: "hand", Path: "hips/spine/arm/hand", Parent: 3, Local: xf(geom.V3(0.25, 0, 0), geom.V3(0, 1, 0), 0.1, one)},
		{Name: "leg", Path: "hips/leg", Parent: 1, Local: xf(geom.V3(0.1, -0.1, 0), geom.V3(1, 0, 0), 0.05, one)},
		{Name: "head", Path: "hips/spine/head", Parent: 2, Local: xf(geom.V3(0, 0.4, 0), geom.V3(0, 0, 1), 0.02, one)},
	}}
	// Bind poses: the inverse of each joint's world matrix in another pose.
	posed := []geom.Transform{
		rig.Nodes[0].Local,
		xf(geom.V3(0, 0.9, 0), geom.V3(0, 1, 0), 0.2, one),
		xf(geom.V3(0.1, 0.3, 0), geom.V3(1, 0, 0), 0.5, one),
		xf(geom.V3(0.2, 0, 0.1), geom.V3(0, 0, 1), -0.4, one),
	}
	var binds []model.Mat4
	w := posed[0]
	for k := 1; k < 4; k++ {
		w = w.Mul(posed[k])
		binds = append(binds, matOfTransform(w.Inverse()))
	}
	n := 6
	m := &model.Mesh{
		Name:        "body",
		VertexCount: n,
		Positions:   [][3]float32{{0, 1, 0}, {0.2, 1.1, 0.1}, {0.1, 1.4, -0.1}, {-0.2, 1.2, 0}, {0.3, 1.6, 0.2}, {0, 1.8, 0}},
		UV:          [8][][2]float32{{{0, 0}, {1, 0}, {1, 1}, {0, 1}, {0.5, 0.25}, {0.75, 0.5}}, {{0.1, 0.2}, {0.3, 0.4}, {0.5, 0.6}, {0.7, 0.8}, {0.9, 0.1}, {0.2, 0.3}}},
		Colors:      [][4]float32{{1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 0.5}, {1, 1, 0, 1}, {0.2, 0.4, 0.6, 0.8}, {1, 1, 1, 1}},
		Indices:     []uint32{0, 1, 2, 0, 2, 3, 2, 4, 5},
		SubMeshes:   []model.SubMesh{{IndexCount: 6}, {FirstIndex: 6, IndexCount: 3}},
		BindPoses:   binds,
		BlendShapes: []model.BlendShape{{Name: "smile", NameHash: crc32.ChecksumIEEE([]byte("smile")), Frames: []model.BlendFrame{{
			Weight: 100, Vertices: []uint32{1, 4}, Position: [][3]float32{{0.01, 0.02, -0.03}, {0, 0.05, 0}}, Normal: [][3]float32{{0.1, 0, 0}, {0, 0, 0.2}},
		}}}},
	}
	for i := range n {
		nv := geom.V3(float32(i)-2, 1, 0.5*float32(i)).Normalize()
		tv := nv.Cross(geom.V3(0, 0, 1)).Normalize()
		sign := float32(1)
		if i%2 == 1 {
			sign = -1
		}
		m.Normals = append(m.Normals, [3]float32{nv.X, nv.Y, nv.Z})
		m.Tangents = append(m.Tangents, [4]float32{tv.X, tv.Y, tv.Z, sign})
	}
	// Influences: vertex 4 has six (Unity keeps them all in Skin and the
	// four largest, renormalised, in the vertex channels).
	per := [][]model.Influence{
		{{Bone: 0, Weight: 1}},
		{{Bone: 0, Weight: 0.5}, {Bone: 1, Weight: 0.5}},
		{{Bone: 1, Weight: 0.7}, {Bone: 2, Weight: 0.3}},
		{{Bone: 2, Weight: 0.4}, {Bone: 0, Weight: 0.35}, {Bone: 1, Weight: 0.25}},
		{{Bone: 5, Weight: 0.3}, {Bone: 0, Weight: 0.25}, {Bone: 3, Weight: 0.15}, {Bone: 1, Weight: 0.12}, {Bone: 4, Weight: 0.1}, {Bone: 2, Weight: 0.08}},
		{{Bone: 2, Weight: 1}},
	}
	m.SkinOffsets = []int{0}
	for _, infl := range per {
		m.Skin = append(m.Skin, infl...)
		m.SkinOffsets = append(m.SkinOffsets, len(m.Skin))
		var wv [4]float32
		var iv [4]uint16
		var s float32
		for k := 0; k < min(4, len(infl)); k++ {
			s += infl[k].Weight
		}
		for k := 0; k < min(4, len(infl)); k++ {
			wv[k], iv[k] = infl[k].Weight/s, infl[k].Bone
		}
		m.BoneWeights = append(m.BoneWeights, wv)
		m.BoneIndices = append(m.BoneIndices, iv)
	}
	// Bones 3..5 are the hand, the leg and the head, bound where they
	// rest.
	for _, j := range []int{5, 6, 7} {
		m.BindPoses = append(m.BindPoses, matOfTransform(worldOf(rig, j).Inverse()))
	}
	meshes := []model.MeshInstance{{
		Node: 4, Mesh: m, Joints: []int{1, 2, 3, 5, 6, 7}, BlendShapeWeights: []float32{25},
		Materials: []model.Material{{Name: "skin"}, {Name: "cloth"}},
	}}

	tgt := func(path string, p model.TransformProp, c int) model.Target {
		return model.Target{Path: path, PathHash: model.PathHash(path), PathKnown: true, ClassID: model.ClassTransform, Attribute: uint32(p), Transform: p, Component: c, Property: model.TransformPropertyName(p, c)}
	}
	streamed := func(tg model.Target, keys ...[3]float32) model.Curve {
		c := model.Curve{Target: tg, Kind: model.CurveStreamed}
		c.Segments = append(c.Segments, model.Segment{Time: -math.MaxFloat32, C: [4]float32{0, 0, 0, keys[0][1]}})
		for i := 0; i+1 < len(keys); i++ {
			k0, k1 := keys[i], keys[i+1]
			dt, d := float64(k1[0]-k0[0]), float64(k1[1]-k0[1])
			m0, m1 := float64(k0[2]), float64(k1[2])
			c.Segments = append(c.Segments, model.Segment{Time: k0[0], C: [4]float32{
				float32((dt*(m0+m1) - 2*d) / (dt * dt * dt)), float32((3*d - dt*(2*m0+m1)) / (dt * dt)), k0[2], k0[1]}})
		}
		last := keys[len(keys)-1]
		c.Segments = append(c.Segments, model.Segment{Time: last[0], C: [4]float32{0, 0, 0, last[1]}})
		return c
	}
	clip := &model.Clip{Name: "dance", SampleRate: 30, Stop: 2}
	clip.Curves = append(clip.Curves,
		streamed(tgt("hips", model.PropPosition, 0), [3]float32{0, 0, 0.5}, [3]float32{0.7, 0.3, -1}, [3]float32{2, -0.1, 0}),
		streamed(tgt("hips", model.PropPosition, 1), [3]float32{0, 1, 0}, [3]float32{1.2, 1.2, 0.4}, [3]float32{2, 0.95, 0}),
		model.Curve{Target: tgt("hips", model.PropPosition, 2), Kind: model.CurveConstant, Value: 0.1},
	)
	qs := []geom.Quat{geom.AxisAngle(geom.V3(1, 0.2, 0).Normalize(), 0.4), geom.AxisAngle(geom.V3(0, 1, 0), 1.3), geom.AxisAngle(geom.V3(1, 1, 1).Normalize(), -0.9)}
	qc := func(q geom.Quat, i int) float32 { return [4]float32{q.X, q.Y, q.Z, q.W}[i] }
	for i := range 4 {
		clip.Curves = append(clip.Curves, streamed(tgt("hips", model.PropRotation, i),
			[3]float32{0, qc(qs[0], i), 0.2}, [3]float32{0.9, qc(qs[1], i), -0.1}, [3]float32{2, qc(qs[2], i), 0}))
	}
	for i := range 4 {
		var v []float32
		for k := range 9 {
			v = append(v, qc(geom.AxisAngle(geom.V3(0.3, 0, 1).Normalize(), -0.7+0.25*float32(k)), i))
		}
		clip.Curves = append(clip.Curves, model.Curve{Target: tgt("hips/spine", model.PropRotation, i), Kind: model.CurveDense, Samples: v, DenseRate: 4})
	}
	clip.Curves = append(clip.Curves,
		model.Curve{Target: tgt("hips/spine/arm", model.PropScale, 1), Kind: model.CurveStreamed, Segments: []model.Segment{
			{Time: 0, C: [4]float32{0, 0, 0, 1}}, {Time: 0.5, C: [4]float32{0, 0, 0, 1.5}}, {Time: 1.25, C: [4]float32{0, 0, 0, 0.8}}}},
		model.Curve{Target: tgt("hips/spine/arm", model.PropPosition, 2), Kind: model.CurveKeyframed, Keys: []model.Keyframe{
			{Time: 0, Value: 0, OutSlope: 1}, {Time: 0.8, Value: 0.4, InSlope: -0.5, OutSlope: 0.2}, {Time: 2, Value: -0.1, InSlope: 0}},
			PreInfinity: model.InfinityClamp, PostInfinity: model.InfinityClamp},
		model.Curve{Target: model.Target{Path: "Body", PathHash: model.PathHash("Body"), PathKnown: true, ClassID: model.ClassSkinnedMeshRenderer,
			Attribute: crc32.ChecksumIEEE([]byte("smile")), Property: "blendShape.smile"}, Kind: model.CurveKeyframed, Keys: []model.Keyframe{
			{Time: 0, Value: 0, OutSlope: 50}, {Time: 1, Value: 100, InSlope: 0, OutSlope: 0}, {Time: 2, Value: 20, InSlope: -30}},
			PreInfinity: model.InfinityClamp, PostInfinity: model.InfinityClamp},
	)
	sk, err := anim.SkeletonFromRig(rig)
	if err != nil {
		t.Fatal(err)
	}
	bc, err := anim.Bake(clip, sk)
	if err != nil {
		t.Fatal(err)
	}
	a, st := gltfexp.Generic(clip, bc, gltfexp.JointMap(sk.Paths, rig), 0)
	if st.Resampled != 0 || st.Step == 0 || st.Cubic == 0 {
		t.Fatalf("export stats %+v: the clip should export exactly with steps and cubics", st)
	}
	bs, rest := gltfexp.BlendShapes(clip, rig, meshes)
	if len(bs) != 1 || len(rest) != 0 {
		t.Fatalf("%d exact blend-shape tracks, %d resampled", len(bs), len(rest))
	}
	a.Tracks = append(a.Tracks, bs...)
	return &gltfexp.Scene{Name: "rt", Rig: rig, Meshes: meshes, Animations: []gltfexp.Animation{a}}, clip
}

// quatAngle is the angle in radians between two rotations, in float64
// (geom.AngleBetween's float32 dot product cannot resolve angles below
// about 1e-3).
func quatAngle(a, b geom.Quat) float64 {
	la := math.Sqrt(float64(a.X)*float64(a.X) + float64(a.Y)*float64(a.Y) + float64(a.Z)*float64(a.Z) + float64(a.W)*float64(a.W))
	lb := math.Sqrt(float64(b.X)*float64(b.X) + float64(b.Y)*float64(b.Y) + float64(b.Z)*float64(b.Z) + float64(b.W)*float64(b.W))
	ax, ay, az, aw := float64(a.X)/la, float64(a.Y)/la, float64(a.Z)/la, float64(a.W)/la
	bx, by, bz, bw := float64(b.X)/lb, float64(b.Y)/lb, float64(b.Z)/lb, float64(b.W)/lb
	// conj(a)·b
	w := aw*bw + ax*bx + ay*by + az*bz
	x := aw*bx - ax*bw - ay*bz + az*by
	y := aw*by + ax*bz - ay*bw - az*bx
	z := aw*bz - ax*by + ay*bx - az*bw
	return 2 * math.Atan2(math.Sqrt(x*x+y*y+z*z), math.Abs(w))
}

// TestExportReadsBack writes a rig, a skinned mesh and a clip with
// export/gltf and reads the file back: the same rig transforms, mesh data
// and, sampled through anim.Bake at 401 times, the same clip values.
func TestExportReadsBack(t *testing.T) {
	s, clip := rtScene(t)
	var buf bytes.Buffer
	if err := gltfexp.WriteGLB(&buf, s); err != nil {
		t.Fatal(err)
	}
	c, err := Read(bytes.NewReader(buf.Bytes()), int64(buf.Len()), "rt.glb")
	if err != nil {
		t.Fatal(err)
	}
	if c.Mirror != MirrorX || c.Human != nil || len(c.Clips) != 1 {
		t.Fatalf("mirror %s, human %v, %d clips", c.Mirror, c.Human != nil, len(c.Clips))
	}
	// The export's scene has two roots (the rig and the skinned mesh's
	// node), so the reader adds a synthetic root: original path p is
	// "root/p".
	byPath := map[string]int{}
	for i, n := range c.Rig.Nodes {
		byPath[n.Path] = i
	}
	readNode := func(orig int) int {
		p := "root"
		if q := s.Rig.Nodes[orig].Path; q != "" {
			p += "/" + q
		}
		i, ok := byPath[p]
		if !ok {
			t.Fatalf("no node %q read back (%v)", p, byPath)
		}
		return i
	}
	worstT, worstR := 0.0, 0.0
	for i, n := range s.Rig.Nodes {
		got := c.Rig.Nodes[readNode(i)].Local
		worstT = max(worstT, float64(got.T.Sub(n.Local.T).Len()), float64(got.S.Sub(n.Local.S).Len()))
		worstR = max(worstR, quatAngle(got.R, n.Local.R))
	}
	if worstT > 1e-6 || worstR > 1e-6 {
		t.Errorf("rig transforms differ by %g (translation, scale), %g rad", worstT, worstR)
	}

	// The mesh.
	if len(c.Meshes) != 1 {
		t.Fatalf("%d meshes", len(c.Meshes))
	}
	want, got := s.Meshes[0], c.Meshes[0]
	wm, gm := want.Mesh, got.Mesh
	if gm.VertexCount != wm.VertexCount || len(gm.SubMeshes) != 2 || len(got.Materials) != 2 || got.Materials[1].Name != "cloth" {
		t.Fatalf("%d vertices, %d sub-meshes, materials %v", gm.VertexCount, len(gm.SubMeshes), got.Materials)
	}
	near3 := func(what string, a, b [3]float32, tol float64) {
		for k := range 3 {
			if math.Abs(float64(a[k]-b[k])) > tol {
				t.Errorf("%s: %v, want %v", what, a, b)
				return
			}
		}
	}
	for i := range wm.VertexCount {
		near3("position", gm.Positions[i], wm.Positions[i], 1e-7)
		near3("normal", gm.Normals[i], wm.Normals[i], 1e-6)
		near3("tangent", [3]float32(gm.Tangents[i][:3]), [3]float32(wm.Tangents[i][:3]), 1e-6)
		if gm.Tangents[i][3] != wm.Tangents[i][3] {
			t.Errorf("vertex %d tangent sign %g, want %g", i, gm.Tangents[i][3], wm.Tangents[i][3])
		}
		for k := range 2 {
			near3("uv", [3]float32{gm.UV[k][i][0], gm.UV[k][i][1]}, [3]float32{wm.UV[k][i][0], wm.UV[k][i][1]}, 1e-7)
		}
		near3("colour", [3]float32(gm.Colors[i][:3]), [3]float32(wm.Colors[i][:3]), 0)
		// Influences by node: the export merges bones on one node.
		sum := func(m *model.Mesh, joints []int, rig *model.Rig) map[string]float64 {
			out := map[string]float64{}
			for _, x := range m.Influences(i, nil) {
				out[rig.Nodes[joints[x.Bone]].Path] += float64(x.Weight)
			}
			return out
		}
		gw, ww := sum(gm, got.Joints, c.Rig), sum(wm, want.Joints, s.Rig)
		for p, x := range ww {
			if math.Abs(gw["root/"+p]-x) > 1e-6 {
				t.Errorf("vertex %d: weight %g on %q, want %g", i, gw["root/"+p], p, x)
			}
		}
	}
	if !gm.HasVariableSkin() || gm.MaxInfluences() != 6 {
		t.Errorf("variable skin %v, %d influences at most, want 6", gm.HasVariableSkin(), gm.MaxInfluences())
	}
	checkWeights(t, gm)
	for si := range 2 {
		gi, wi := gm.SubMeshIndices(si), wm.SubMeshIndices(si)
		if len(gi) != len(wi) {
			t.Fatalf("sub-mesh %d: %d indices, want %d", si, len(gi), len(wi))
		}
		for k := range gi {
			if gi[k] != wi[k] {
				t.Errorf("sub-mesh %d indices %v, want %v", si, gi, wi)
				break
			}
		}
	}
	for k, j := range got.Joints {
		var wb model.Mat4
		found := false
		for wk, wj := range want.Joints {
			if "root/"+s.Rig.Nodes[wj].Path == c.Rig.Nodes[j].Path {
				wb, found = wm.BindPoses[wk], true
			}
		}
		if !found {
			t.Fatalf("joint %d (%q) is no joint of the original", k, c.Rig.Nodes[j].Path)
		}
		for r := range 3 { // glTF forces the last row to (0, 0, 0, 1)
			for cc := range 4 {
				if math.Abs(float64(gm.BindPoses[k][r][cc]-wb[r][cc])) > 1e-6 {
					t.Fatalf("joint %d bind pose\n%v\nwant\n%v", k, gm.BindPoses[k], wb)
				}
			}
		}
	}
	if len(gm.BlendShapes) != 1 || gm.BlendShapes[0].Name != "smile" || len(got.BlendShapeWeights) != 1 || math.Abs(float64(got.BlendShapeWeights[0]-25)) > 1e-5 {
		t.Fatalf("blend shapes %v, weights %v", gm.BlendShapes, got.BlendShapeWeights)
	}
	gf, wf := gm.BlendShapes[0].Frames[0], wm.BlendShapes[0].Frames[0]
	if gf.Weight != 100 || len(gf.Vertices) != len(wf.Vertices) {
		t.Fatalf("frame %+v, want %+v", gf, wf)
	}
	for k := range gf.Vertices {
		if gf.Vertices[k] != wf.Vertices[k] {
			t.Fatalf("frame vertices %v, want %v", gf.Vertices, wf.Vertices)
		}
		near3("blend position", gf.Position[k], wf.Position[k], 1e-7)
		near3("blend normal", gf.Normal[k], wf.Normal[k], 1e-7)
	}

	// The clip, sampled through the runtime on both rigs.
	osk, _ := anim.SkeletonFromRig(s.Rig)
	obc, err := anim.Bake(clip, osk)
	if err != nil {
		t.Fatal(err)
	}
	rsk, _ := anim.SkeletonFromRig(c.Rig)
	rbc, err := anim.Bake(c.Clips[0], rsk)
	if err != nil {
		t.Fatal(err)
	}
	if rbc.UnresolvedChannels() != 0 || math.Abs(float64(rbc.Duration()-obc.Duration())) > 1e-6 {
		t.Fatalf("%d unresolved channels, duration %g, want %g", rbc.UnresolvedChannels(), rbc.Duration(), obc.Duration())
	}
	op, rp := make([]geom.Transform, osk.Len()), make([]geom.Transform, rsk.Len())
	of, rf := make([]float32, len(obc.FloatTargets())), make([]float32, len(rbc.FloatTargets()))
	shape := func(ts []model.Target) int {
		for i, tg := range ts {
			if tg.ClassID == model.ClassSkinnedMeshRenderer && tg.Attribute == crc32.ChecksumIEEE([]byte("smile")) {
				return i
			}
		}
		t.Fatal("no blend-shape channel")
		return -1
	}
	os, rs := shape(obc.FloatTargets()), shape(rbc.FloatTargets())
	worstT, worstR, worstW := 0.0, 0.0, 0.0
	for k := 0; k <= 400; k++ {
		tm := float32(k) / 400 * obc.Duration()
		obc.Sample(tm, op)
		rbc.Sample(tm, rp)
		for j := range osk.Len() {
			g, w := rp[readNode(j)], op[j]
			worstT = max(worstT, float64(g.T.Sub(w.T).Len()), float64(g.S.Sub(w.S).Len()))
			worstR = max(worstR, quatAngle(g.R, w.R))
		}
		obc.SampleFloats(tm, of)
		rbc.SampleFloats(tm, rf)
		worstW = max(worstW, math.Abs(float64(rf[rs]-of[os])))
	}
	t.Logf("clip read back within %.2g (translation, scale), %.2g rad, %.2g (blend weight 0..100)", worstT, worstR, worstW)
	if worstT > 1e-6 || worstR > 1e-6 || worstW > 1e-4 {
		t.Errorf("clip differs by %g (translation, scale), %g rad, %g (weight)", worstT, worstR, worstW)
	}
}
