package gltf

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
)

// stageClip is a camera clip of a stage whose GameObjects no character
// holds: "Stage/Cam" moves along x (0, 1, 2 at 0, 0.5, 1 s) and turns,
// with a field of view of 35° and a far plane at 500; a path no table
// names (hash 4242) rises along y.
func stageClip() *model.Clip {
	cam := func(p model.TransformProp, comp int) model.Target {
		return model.Target{Path: "Stage/Cam", PathHash: model.PathHash("Stage/Cam"), PathKnown: true, ClassID: model.ClassTransform,
			Attribute: uint32(p), Transform: p, Component: comp, Property: model.TransformPropertyName(p, comp)}
	}
	dense := func(t model.Target, v ...float32) model.Curve {
		return model.Curve{Target: t, Kind: model.CurveDense, Samples: v, DenseRate: 2}
	}
	q := geom.AxisAngle(geom.V3(0, 1, 0), 0.5)
	hidden := model.Target{PathHash: 4242, ClassID: model.ClassTransform, Attribute: uint32(model.PropPosition), Transform: model.PropPosition, Component: 1}
	return &model.Clip{Name: "StageCut", SampleRate: 2, Stop: 1, Curves: []model.Curve{
		dense(cam(model.PropPosition, 0), 0, 1, 2),
		{Target: cam(model.PropRotation, 0), Kind: model.CurveConstant, Value: q.X},
		{Target: cam(model.PropRotation, 1), Kind: model.CurveConstant, Value: q.Y},
		{Target: cam(model.PropRotation, 2), Kind: model.CurveConstant, Value: q.Z},
		{Target: cam(model.PropRotation, 3), Kind: model.CurveConstant, Value: q.W},
		{Target: model.Target{Path: "Stage/Cam", PathKnown: true, ClassID: ClassCamera, Attribute: model.PathHash("field of view"), Property: "field of view"}, Kind: model.CurveConstant, Value: 35},
		{Target: model.Target{Path: "Stage/Cam", PathKnown: true, ClassID: ClassCamera, Attribute: model.PathHash("far clip plane"), Property: "far clip plane"}, Kind: model.CurveConstant, Value: 500},
		dense(hidden, 0, 3, 6),
	}}
}

// ownPathsScene builds the scene export writes for a clip on its own
// paths.
func ownPathsScene(t *testing.T, c *model.Clip) *Scene {
	t.Helper()
	ch, err := bound.NewCharacter(bound.CharacterInput{Name: c.Name, Rig: model.RigOfPaths(c.Name, c), OwnPaths: true})
	if err != nil {
		t.Fatal(err)
	}
	m, err := bound.Bind(c, model.Source{}, ch)
	if err != nil {
		t.Fatal(err)
	}
	s, errs := BuildScene(ch, []*bound.Motion{m}, SceneOptions{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return s
}

// A clip on its own paths exports as nodes with their motion and its
// Camera as a glTF camera looking where the Unity camera looks.
func TestOwnPathsExportNodesMotionAndCamera(t *testing.T) {
	s := ownPathsScene(t, stageClip())
	if len(s.Cameras) != 1 || s.Cameras[0].FieldOfView != 35 || s.Cameras[0].Far != 500 || s.Cameras[0].Near != 0.3 {
		t.Fatalf("cameras %+v: want one of 35°, planes 0.3 and 500", s.Cameras)
	}
	doc, err := Document(s)
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Cameras) != 1 || math.Abs(doc.Cameras[0].Perspective.Yfov-35*math.Pi/180) > 1e-6 || *doc.Cameras[0].Perspective.Zfar != 500 {
		t.Errorf("glTF cameras %+v", doc.Cameras)
	}
	// root, #4242, Stage, Stage/Cam, and the camera's node.
	if len(doc.Nodes) != 5 || doc.Nodes[1].Name != "#4242" || doc.Nodes[3].Name != "Cam" || doc.Nodes[4].Camera == nil {
		t.Fatalf("nodes: %d", len(doc.Nodes))
	}
	if len(doc.Animations) != 1 || len(doc.Animations[0].Channels) != 3 {
		t.Errorf("animation channels: want Cam's translation and rotation and #4242's translation")
	}
}

// Blender imports a clip exported on its own paths: its nodes as bones
// that move as the runtime moves them, and its camera.
func TestBlenderImportsAClipOnItsOwnPaths(t *testing.T) {
	blender := blenderPath(t)
	c := stageClip()
	s := ownPathsScene(t, c)
	path := filepath.Join(t.TempDir(), "stage.glb")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteGLB(f, s); err != nil {
		t.Fatal(err)
	}
	f.Close()
	times := []float32{0, 0.5, 1}
	got := runBlender(t, blender, []blenderJob{{Path: path, Animations: []blenderTimes{{Name: "StageCut", Times: times}}}})[0]
	camObj := false
	for _, n := range got.ObjectNames {
		camObj = camObj || n == "Cam (camera)"
	}
	if got.Armatures != 1 || got.Bones != 4 || !camObj {
		t.Fatalf("Blender made %d armatures, %d bones, objects %q: want the 4 nodes as bones and the camera", got.Armatures, got.Bones, got.ObjectNames)
	}
	if len(got.Animations) != 1 || len(got.Animations[0].Poses) != len(times) {
		t.Fatalf("animations %+v", got.Animations)
	}
	for k, tm := range times {
		pose := got.Animations[0].Poses[k]
		want := map[string][3]float64{
			"Cam":   {-2 * float64(tm), 0, 0}, // glTF mirrors x
			"#4242": {0, 6 * float64(tm), 0},
		}
		for bone, w := range want {
			g, ok := pose[bone]
			if !ok {
				t.Fatalf("no bone %q in %v", bone, pose)
			}
			for i := range 3 {
				if math.Abs(g[i]-w[i]) > 1e-4 {
					t.Errorf("at %g s bone %q is at %v, want %v", tm, bone, g, w)
					break
				}
			}
		}
	}
}
