package view

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
)

// faceLib is a library of one character: a 1 m quad on its head node
// (a joint above it, so that the page frames it whole), two
// sub-meshes (one textured with a tiled red-and-blue texture, one of a
// plain green material), a blend shape "Smile" the renderer leaves at 25,
// and a clip "SmileClip" that drives the smile from 0 to 100 over 1 s.
type faceLib struct {
	ch   *bound.Character
	clip *model.Clip
}

func newFaceLib(t *testing.T) *faceLib {
	t.Helper()
	rig := &model.Rig{Name: "Face", Nodes: []model.RigNode{
		{Name: "Face", Path: "", Parent: -1, Local: geom.Identity},
		{Name: "Head", Path: "Head", Parent: 0, Local: geom.Transform{T: geom.V3(0, 0.4, 0), R: geom.IdentityQuat, S: geom.V3(1, 1, 1)}},
		{Name: "Top", Path: "Top", Parent: 0, Local: geom.Transform{T: geom.V3(0, 1.8, 0), R: geom.IdentityQuat, S: geom.V3(1, 1, 1)}},
	}}
	img := image.NewNRGBA(image.Rect(0, 0, 2, 1))
	img.SetNRGBA(0, 0, color.NRGBA{255, 0, 0, 255})
	img.SetNRGBA(1, 0, color.NRGBA{0, 0, 255, 255})
	mesh := &model.Mesh{Name: "Quad", VertexCount: 4,
		Positions: [][3]float32{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}},
		Indices:   []uint32{0, 1, 2, 0, 2, 3},
		SubMeshes: []model.SubMesh{{FirstIndex: 0, IndexCount: 3}, {FirstIndex: 3, IndexCount: 3}},
		BlendShapes: []model.BlendShape{{Name: "Smile", NameHash: model.PathHash("Smile"), Frames: []model.BlendFrame{
			{Weight: 100, Vertices: []uint32{2, 3}, Position: [][3]float32{{0, 0.5, 0}, {0, 0.5, 0}}}}}},
	}
	mesh.UV[0] = [][2]float32{{0, 0}, {1, 0}, {1, 1}, {0, 1}}
	inst := model.MeshInstance{Node: 1, Mesh: mesh, BlendShapeWeights: []float32{25}, Materials: []model.Material{
		{Name: "Skin", HasFactors: true, BaseColor: [4]float32{1, 0.5, 0.25, 1}, BaseColorTexture: &model.Texture{Name: "SkinTex", Image: img},
			TextureScale: [2]float32{2, 1}, TextureOffset: [2]float32{0.5, 0}},
		{Name: "Eyes", HasFactors: true, BaseColor: [4]float32{0, 1, 0, 1}},
	}}
	ch, err := bound.NewCharacter(bound.CharacterInput{Name: "Face", Source: model.Source{Container: "/x/face.bundle", PathID: 1}, Rig: rig,
		Meshes: func() ([]model.MeshInstance, []error) { return []model.MeshInstance{inst}, nil }})
	if err != nil {
		t.Fatal(err)
	}
	smile := model.Curve{Target: model.Target{Path: "Head", PathHash: model.PathHash("Head"), PathKnown: true, ClassID: model.ClassSkinnedMeshRenderer,
		Attribute: model.PathHash("Smile"), Property: "blendShape.Smile"},
		Kind: model.CurveKeyframed, Keys: []model.Keyframe{{Time: 0, Value: 0, InSlope: 100, OutSlope: 100}, {Time: 1, Value: 100, InSlope: 100, OutSlope: 100}}}
	return &faceLib{ch: ch, clip: &model.Clip{Name: "SmileClip", SampleRate: 30, Stop: 1, Curves: []model.Curve{smile}}}
}

func (l *faceLib) item(name string, pid int64) bound.Item {
	return bound.Item{Name: name, Source: model.Source{Container: "/x/face.bundle", PathID: pid}, Label: name, Ref: fmt.Sprintf("face.bundle#%d", pid)}
}
func (l *faceLib) Characters() []bound.Item  { return []bound.Item{l.item("Face", 1)} }
func (l *faceLib) Clips() []bound.Item       { return []bound.Item{l.item("SmileClip", 2)} }
func (l *faceLib) Controllers() []bound.Item { return nil }
func (l *faceLib) Character(ctx context.Context, i bound.CharacterID) (*bound.Character, error) {
	return l.ch, nil
}
func (l *faceLib) CharacterController(i bound.CharacterID) (bound.ControllerID, bool) {
	return -1, false
}
func (l *faceLib) Motion(ctx context.Context, clip bound.ClipID, on *bound.Character) (*bound.Motion, error) {
	return bound.Bind(l.clip, l.item("SmileClip", 2).Source, l.ch)
}
func (l *faceLib) Controller(ctx context.Context, i bound.ControllerID) (*bound.ControllerClips, error) {
	return nil, fmt.Errorf("none")
}
func (l *faceLib) BindController(ctx context.Context, ctl bound.ControllerID, on *bound.Character) (*bound.Controller, error) {
	return nil, fmt.Errorf("none")
}

// The viewer draws what export writes: each sub-mesh with its material's
// base colour and base colour texture (tiling and offset, the texture
// served as PNG), and the blend shapes at the weights the clip gives them
// frame by frame (the renderer's weight where no clip drives one).
func TestViewerSendsMaterialsTexturesAndBlendShapes(t *testing.T) {
	s, err := New(newFaceLib(t), Options{Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	f, err := s.ClipFrames(0, 0, 10, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Meshes) != 1 {
		t.Fatalf("%d meshes", len(f.Meshes))
	}
	m := f.Meshes[0]
	want := []MeshGroup{
		{Start: 0, Count: 3, Material: Material{Name: "Skin", Color: [4]float32{1, 0.5, 0.25, 1}, Found: true, Texture: 0, Scale: [2]float32{2, 1}, Offset: [2]float32{0.5, 0}}},
		{Start: 3, Count: 3, Material: Material{Name: "Eyes", Color: [4]float32{0, 1, 0, 1}, Found: true, Texture: -1, Scale: [2]float32{1, 1}}},
	}
	if fmt.Sprint(m.Groups) != fmt.Sprint(want) {
		t.Errorf("groups %+v, want %+v", m.Groups, want)
	}
	if fmt.Sprint(m.UVs) != fmt.Sprint([]float32{0, 0, 1, 0, 1, 1, 0, 1}) {
		t.Errorf("uvs %v", m.UVs)
	}
	if len(m.Morphs) != 1 || m.Morphs[0].Name != "Smile" || m.Morphs[0].Full != 100 || m.Morphs[0].Weight != 25 ||
		fmt.Sprint(m.Morphs[0].Vertices) != "[2 3]" || fmt.Sprint(m.Morphs[0].Deltas) != "[0 0.5 0 0 0.5 0]" {
		t.Errorf("morphs %+v", m.Morphs)
	}
	if len(f.MorphWeights) != f.Frames || f.Frames != 11 {
		t.Fatalf("%d morph weights for %d frames", len(f.MorphWeights), f.Frames)
	}
	for k, w := range f.MorphWeights {
		if d := w - float32(k)*10; d > 1e-3 || d < -1e-3 {
			t.Errorf("frame %d: smile %g, want %d", k, w, k*10)
		}
	}

	// The texture, as the page fetches it.
	ts := httptest.NewServer(s)
	defer ts.Close()
	req, _ := http.NewRequest("GET", ts.URL+"/api/texture/0", nil)
	req.Header.Set("X-Mecanim-Token", s.Token())
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	img, err := png.Decode(bytes.NewReader(body))
	if resp.StatusCode != 200 || err != nil {
		t.Fatalf("texture: %d %v", resp.StatusCode, err)
	}
	if r, _, b, _ := img.At(0, 0).RGBA(); r != 0xffff || b != 0 {
		t.Errorf("texture's first texel %v, want red", img.At(0, 0))
	}
	req, _ = http.NewRequest("GET", ts.URL+"/api/texture/1", nil)
	req.Header.Set("X-Mecanim-Token", s.Token())
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusNotFound {
		t.Errorf("a texture never sent: %v %v, want 404", resp.StatusCode, err)
	}
}
