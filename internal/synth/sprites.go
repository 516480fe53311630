package synth

import (
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"

	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/typetree"
	"github.com/mecanim/mecanim/unity/unitywrite"
)

// Outline builds a type tree from an outline: one node a line, indented
// two spaces a level, "TYPE NAME [SIZE] [align] [array]", "~" standing for
// a space in a type or a name. For classes the built-in layouts lack.
func Outline(outline string) *typetree.Tree {
	tr := &typetree.Tree{}
	for _, line := range strings.Split(strings.Trim(outline, "\n"), "\n") {
		trimmed := strings.TrimLeft(line, " ")
		f := strings.Fields(trimmed)
		n := typetree.Node{Level: (len(line) - len(trimmed)) / 2, Type: strings.ReplaceAll(f[0], "~", " "),
			Name: strings.ReplaceAll(f[1], "~", " "), ByteSize: -1, Index: int32(len(tr.Nodes))}
		for _, opt := range f[2:] {
			switch opt {
			case "align":
				n.Flags |= typetree.FlagAlign
			case "array":
				n.TypeFlags = 1
			default:
				var sz int32
				for _, c := range opt {
					sz = sz*10 + int32(c-'0')
				}
				n.ByteSize = sz
			}
		}
		tr.Nodes = append(tr.Nodes, n)
	}
	return tr
}

func indent(s string, n int) string { return strings.ReplaceAll(s, "\n", "\n"+strings.Repeat("  ", n)) }

const (
	outlineStr = `
  Array Array array align
    int size 4
    char data 1`
	outlinePPtr = `
  int m_FileID 4
  SInt64 m_PathID 8`
	outlineRect = `
  float x 4
  float y 4
  float width 4
  float height 4`
	outlineVec2 = `
  float x 4
  float y 4`
)

// TextureTree is the part of Texture2D's layout (class 28) decode/texture
// reads.
func TextureTree() *typetree.Tree {
	return Outline(`
Texture2D Base
  string m_Name` + indent(outlineStr, 1) + `
  int m_Width 4
  int m_Height 4
  int m_CompleteImageSize 4
  int m_TextureFormat 4
  int m_MipCount 4
  TypelessData image~data array align
    int size 4
    UInt8 data 1
  StreamingInfo m_StreamData
    UInt64 offset 8
    unsigned~int size 4
    string path` + indent(outlineStr, 2))
}

// SpriteTree is the part of Sprite's layout (class 213) decode/sprite
// reads.
func SpriteTree() *typetree.Tree {
	return Outline(`
Sprite Base
  string m_Name` + indent(outlineStr, 1) + `
  Rectf m_Rect` + indent(outlineRect, 1) + `
  Vector2f m_Pivot` + indent(outlineVec2, 1) + `
  float m_PixelsToUnits 4
  PPtr<SpriteAtlas> m_SpriteAtlas` + indent(outlinePPtr, 1) + `
  SpriteRenderData m_RD
    PPtr<Texture2D> texture` + indent(outlinePPtr, 2) + `
    Rectf textureRect` + indent(outlineRect, 2) + `
    Vector2f textureRectOffset` + indent(outlineVec2, 2) + `
    unsigned~int settingsRaw 4`)
}

// Path ids of SpriteClipFile's objects.
const (
	SpriteTextureID = 700
	SpriteBaseID    = 710 // + frame
	SpriteClipID    = 720
)

// SpriteClipFile writes a serialized file of a 2D animation: an 8×2
// RGBA32 texture of four 2×2 sprites (frame k is texels 2k…2k+1, coloured
// red 60·k+20), the four Sprites (pivot at their bottom centre), and a
// clip "Run" switching the m_Sprite of the SpriteRenderer on "Body"
// through frames 0 1 2 3 at 10 samples a second. It returns its path.
func SpriteClipFile(t TB) string {
	t.Helper()
	enc := func(tr *typetree.Tree, v F) []byte {
		b, err := unitywrite.Encode(tr, v)
		if err != nil {
			t.Fatalf("%v", err)
		}
		return b
	}
	var px []byte
	for range 2 {
		for x := range 8 {
			px = append(px, uint8(60*(x/2)+20), 0, 0, 255)
		}
	}
	tt, st := TextureTree(), SpriteTree()
	objs := []unitywrite.Object{{PathID: SpriteTextureID, ClassID: 28, Tree: tt, Data: enc(tt, F{"m_Name": "runner", "m_Width": int32(8), "m_Height": int32(2),
		"m_TextureFormat": int32(4), "m_MipCount": int32(1), "image data": px})}}
	rect := func(x, y, w, h float32) F { return F{"x": x, "y": y, "width": w, "height": h} }
	var mapping []any
	for k := range 4 {
		id := int64(SpriteBaseID + k)
		objs = append(objs, unitywrite.Object{PathID: id, ClassID: 213, Tree: st, Data: enc(st, F{
			"m_Name": "run_" + string(rune('0'+k)), "m_Rect": rect(float32(2*k), 0, 2, 2), "m_Pivot": F{"x": float32(0.5), "y": float32(0)},
			"m_PixelsToUnits": float32(100),
			"m_RD":            F{"texture": pptr(SpriteTextureID), "textureRect": rect(float32(2*k), 0, 2, 2), "textureRectOffset": F{"x": float32(0), "y": float32(0)}},
		})})
		mapping = append(mapping, pptr(id))
	}
	ct, err := Tree(model.ClassAnimationClip)
	if err != nil {
		t.Fatalf("%v", err)
	}
	binding := F{"path": model.PathHash("Body"), "attribute": crc32.ChecksumIEEE([]byte("m_Sprite")), "script": pptr(0),
		"typeID": 212, "classID": 212, "isPPtrCurve": 1}
	objs = append(objs, unitywrite.Object{PathID: SpriteClipID, ClassID: model.ClassAnimationClip, Tree: ct, Data: enc(ct, F{
		"m_Name": "Run", "m_SampleRate": float32(10),
		"m_MuscleClip": F{
			"m_Clip": F{"data": F{
				"m_DenseClip": F{"m_FrameCount": 4, "m_CurveCount": 1, "m_SampleRate": float32(10), "m_SampleArray": []float32{0, 1, 2, 3}},
			}},
			"m_StopTime": float32(0.4), "m_LoopTime": true,
		},
		"m_ClipBindingConstant": F{"genericBindings": []any{binding}, "pptrCurveMapping": mapping},
	})})
	data, err := unitywrite.SerializedFile(UnityVersion, 22, objs, nil, false)
	if err != nil {
		t.Fatalf("%v", err)
	}
	p := filepath.Join(t.TempDir(), "runner.assets")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatalf("%v", err)
	}
	return p
}
