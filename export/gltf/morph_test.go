package gltf

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/decode/catalog"
	"github.com/mecanim/mecanim/decode/mesh"
	"github.com/mecanim/mecanim/internal/synth"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/assets"
	"github.com/mecanim/mecanim/unity/unitywrite"
)

// Path ids of the objects the morph scene adds to synth's rig.
const (
	morphMeshID = 700
	morphSMRID  = 701
	morphClipID = 702
	morphBone   = 11 // the Head: the renderer's GameObject
)

// morphShapes are the face's blend shapes: the clip drives "blink"
// (streamed: cubic segments) and "smile" (dense: linear between frames);
// "frown" is not driven and keeps the renderer's weight.
var morphShapes = []string{"smile", "blink", "frown"}

// morphFile writes a Unity 2022.3 file as a game would have it: synth's
// rig, a face mesh with three blend shapes on a SkinnedMeshRenderer on
// the Head, and a generic clip animating two of the shapes
// (SkinnedMeshRenderer bindings, attribute the CRC-32 of the shape's
// name), and opens it.
func morphFile(t *testing.T) *catalog.Catalog {
	t.Helper()
	vals := synth.SceneValues(synth.Options{Bones: morphBone + 1})
	pptr := func(id int64) synth.F { return synth.F{"m_FileID": int32(0), "m_PathID": id} }
	v3 := func(x, y, z float32) synth.F { return synth.F{"x": x, "y": y, "z": z} }
	for i := range vals {
		if vals[i].PathID == synth.GameObjectBase+morphBone {
			comps := vals[i].Fields["m_Component"].([]any)
			vals[i].Fields["m_Component"] = append(comps, synth.F{"component": pptr(morphSMRID)})
		}
	}
	le := binary.LittleEndian
	var data []byte
	for _, p := range [][3]float32{{0, 0, 0}, {0.2, 0, 0}, {0.2, 0.2, 0}, {0, 0.2, 0}} {
		for _, x := range p {
			data = le.AppendUint32(data, math.Float32bits(x))
		}
	}
	chans := make([]synth.F, 14)
	for i := range chans {
		chans[i] = synth.F{}
	}
	chans[0] = synth.F{"stream": uint8(0), "offset": uint8(0), "format": uint8(0), "dimension": uint8(3)}
	var idx []byte
	for _, i := range []uint16{0, 1, 2, 0, 2, 3} {
		idx = le.AppendUint16(idx, i)
	}
	var verts, shapes, channels []synth.F
	var weights []float32
	for i, name := range morphShapes {
		verts = append(verts, synth.F{"vertex": v3(0, 0, 0.1*float32(i+1)), "normal": v3(0, 0, 0), "tangent": v3(0, 0, 0), "index": uint32(2)})
		shapes = append(shapes, synth.F{"firstVertex": uint32(i), "vertexCount": uint32(1)})
		channels = append(channels, synth.F{"name": name, "nameHash": model.PathHash(name), "frameIndex": int32(i), "frameCount": int32(1)})
		weights = append(weights, 100)
	}
	box := synth.F{"m_Center": v3(0.1, 0.1, 0), "m_Extent": v3(0.1, 0.1, 0)}
	vals = append(vals, synth.Values{PathID: morphMeshID, ClassID: mesh.ClassMesh, Fields: synth.F{
		"m_Name":        "face",
		"m_SubMeshes":   []synth.F{{"firstByte": uint32(0), "indexCount": uint32(6), "vertexCount": uint32(4), "localAABB": box}},
		"m_Shapes":      synth.F{"vertices": verts, "shapes": shapes, "channels": channels, "fullWeights": weights},
		"m_IndexFormat": int32(0),
		"m_IndexBuffer": idx,
		"m_VertexData":  synth.F{"m_VertexCount": uint32(4), "m_Channels": chans, "m_DataSize": data},
		"m_LocalAABB":   box,
	}})
	vals = append(vals, synth.Values{PathID: morphSMRID, ClassID: mesh.ClassSkinnedMeshRenderer, Fields: synth.F{
		"m_GameObject": pptr(synth.GameObjectBase + morphBone), "m_Enabled": true,
		"m_Mesh": pptr(morphMeshID), "m_BlendShapeWeights": []float32{0, 0, 10},
	}})
	// Curves: the streamed block holds blink (curve 0), the dense block
	// smile (curve 1), at 10 frames a second.
	var streamed []uint32
	f := func(x float32) { streamed = append(streamed, math.Float32bits(x)) }
	key := func(tm float32, c [4]float32) {
		f(tm)
		streamed = append(streamed, 1, 0)
		for _, x := range c {
			f(x)
		}
	}
	// blink: a cubic from 0 rising to 14 at 0.2 s, then easing to 50 at
	// 0.4 s; the coefficients are (c0·dt + c1)·dt + c2)·dt + c3.
	key(0, [4]float32{-500, 200, 50, 0})
	key(0.2, [4]float32{0, -400, 340, 14})
	f(float32(math.Inf(1)))
	streamed = append(streamed, 0)
	smile := []float32{0, 40, 100, 60, 20}
	binding := func(shape string) synth.F {
		return synth.F{"path": model.PathHash(synth.BonePath(morphBone)), "attribute": model.PathHash(shape), "script": pptr(0),
			"typeID": model.ClassSkinnedMeshRenderer, "classID": model.ClassSkinnedMeshRenderer}
	}
	vals = append(vals, synth.Values{PathID: morphClipID, ClassID: model.ClassAnimationClip, Fields: synth.F{
		"m_Name":       "Smile",
		"m_SampleRate": float32(10),
		"m_MuscleClip": synth.F{
			"m_Clip": synth.F{"data": synth.F{
				"m_StreamedClip": synth.F{"data": streamed, "curveCount": 1},
				"m_DenseClip":    synth.F{"m_FrameCount": len(smile), "m_CurveCount": 1, "m_SampleRate": float32(10), "m_SampleArray": smile},
			}},
			"m_StopTime": float32(0.4),
		},
		"m_ClipBindingConstant": synth.F{"genericBindings": []any{binding("blink"), binding("smile")}},
	}})
	var objs []unitywrite.Object
	for _, v := range vals {
		tree, err := synth.Tree(v.ClassID)
		if err != nil {
			t.Fatal(err)
		}
		b, err := unitywrite.Encode(tree, v.Fields)
		if err != nil {
			t.Fatal(err)
		}
		objs = append(objs, unitywrite.Object{PathID: v.PathID, ClassID: v.ClassID, Tree: tree, Data: b})
	}
	file, err := unitywrite.SerializedFile(synth.UnityVersion, 19, objs, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	ct, err := assets.OpenReader(bytes.NewReader(file), int64(len(file)), "morph", assets.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return catalog.New(ct)
}

// morphScene is the morph file's rig and face mesh with its clip's
// weights exported twice: kept exactly ("Smile exact", CUBICSPLINE) and
// sampled at 30 per second ("Smile sampled"), with the baked clip.
func morphScene(t *testing.T) (*Scene, *anim.Clip, *anim.Skeleton) {
	t.Helper()
	cat := morphFile(t)
	rigs, errs := cat.Rigs(t.Context())
	if len(rigs) != 1 || len(errs) != 0 {
		t.Fatalf("rigs %d, errs %v", len(rigs), errs)
	}
	r := rigs[0]
	meshes, errs := mesh.Attach(r.File, r.Rig, cat.Resolver())
	if len(meshes) != 1 || len(errs) != 0 || len(meshes[0].Mesh.BlendShapes) != 3 {
		t.Fatalf("meshes %+v, errs %v", meshes, errs)
	}
	clips := cat.ByClass(model.ClassAnimationClip)
	clip, err := cat.Clip(clips[len(clips)-1])
	if err != nil {
		t.Fatal(err)
	}
	sk, err := anim.SkeletonFromRig(r.Rig)
	if err != nil {
		t.Fatal(err)
	}
	bc, err := anim.Bake(clip, sk)
	if err != nil {
		t.Fatal(err)
	}
	exact, rest := BlendShapes(clip, r.Rig, meshes)
	if len(exact) != 1 || len(rest) != 0 {
		t.Fatalf("%d exact tracks, %d meshes to resample", len(exact), len(rest))
	}
	sampled := SampleBlendShapes(bc, r.Rig, meshes, 30)
	if len(sampled) != 1 {
		t.Fatalf("%d sampled tracks", len(sampled))
	}
	s := &Scene{Name: "morph", Rig: r.Rig, Meshes: meshes, Animations: []Animation{
		{Name: "Smile exact", Tracks: exact},
		{Name: "Smile sampled", Tracks: sampled},
	}}
	return s, bc, sk
}

// A clip animating a mesh's shape keys exports as a weights track on the
// mesh's node that glTF's interpolation turns into the runtime's weights
// between keys too (kept exactly, and resampled), passing the validator;
// the undriven shape keeps the renderer's weight.
func TestMorphWeightAnimationExports(t *testing.T) {
	s, bc, _ := morphScene(t)
	var buf bytes.Buffer
	if err := WriteGLB(&buf, s); err != nil {
		t.Fatal(err)
	}
	if mods := validatorPathOrEmpty(t); mods != "" {
		p := filepath.Join(t.TempDir(), "morph.glb")
		if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		checkValid(t, "morph", validate(t, mods, p))
	}
	doc := readGLB(t, buf.Bytes())
	if len(doc.Meshes) != 1 || len(doc.Meshes[0].Primitives[0].Targets) != 3 {
		t.Fatalf("meshes %d", len(doc.Meshes))
	}
	// The runtime's weights, per shape (smile, blink, frown), 0..100.
	targets := bc.FloatTargets()
	vals := make([]float32, len(targets))
	runtime := func(tm float32) [3]float64 {
		bc.SampleFloats(tm, vals)
		out := [3]float64{0, 0, 10}
		for i, tg := range targets {
			for si, name := range morphShapes {
				if tg.ClassID == model.ClassSkinnedMeshRenderer && tg.Attribute == model.PathHash(name) {
					out[si] = float64(vals[i])
				}
			}
		}
		return out
	}
	if w := runtime(0.1); math.Abs(w[0]-40) > 1e-4 || math.Abs(w[1]-((-500*0.1+200)*0.1+50)*0.1) > 1e-3 {
		t.Fatalf("runtime weights at 0.1 s: %v (the clip is not what the test wrote)", w)
	}
	node := -1
	for i, n := range doc.Nodes {
		if n.Mesh != nil {
			node = i
		}
	}
	for ai, chs := range readChannels(t, doc) {
		if len(chs) != 1 || chs[0].path != "weights" || chs[0].node != node {
			t.Fatalf("animation %d: channels %+v (mesh node %d)", ai, chs, node)
		}
		ch := weightsChannel(chs[0], 3)
		tol := 1e-3 // exact: between keys too
		if ai == 1 {
			tol = 2.5 // sampled at 30 per second: the cubic between samples
		}
		for k := 0; k <= 80; k++ {
			tm := float32(k) * 0.4 / 80
			got, want := ch.at(float64(tm)), runtime(tm)
			for si := range 3 {
				if math.Abs(got[si]*100-want[si]) > tol {
					t.Errorf("%s: %s at %.3f s: %.4f, runtime %.4f", doc.Animations[ai].Name, morphShapes[si], tm, got[si]*100, want[si])
				}
			}
		}
		if ai == 0 && chs[0].interp != "CUBICSPLINE" {
			t.Errorf("exact track interpolation %s", chs[0].interp)
		}
	}
}

// weightsChannel regroups a weights channel read back by readChannels (one
// scalar per output element) into one element of n weights per key (three
// per key for CUBICSPLINE: in-tangents, values, out-tangents).
func weightsChannel(c channel, n int) channel {
	out := c
	out.values = nil
	for i := 0; i+n <= len(c.values); i += n {
		e := make([]float64, n)
		for k := range n {
			e[k] = c.values[i+k][0]
		}
		out.values = append(out.values, e)
	}
	return out
}
