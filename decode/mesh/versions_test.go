package mesh

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/internal/fuzzcount"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/assets"
	"github.com/mecanim/mecanim/unity/layouts"
	"github.com/mecanim/mecanim/unity/typetree"
	"github.com/mecanim/mecanim/unity/unityversion"
	"github.com/mecanim/mecanim/unity/unitywrite"
)

// meshLayout is one distinct Mesh layout of the built-in table and a
// version that has it.
type meshLayout struct {
	version unityversion.Version
	first   unityversion.Version
	tree    *typetree.Tree
}

// layoutsBefore returns every distinct Mesh layout of the built-in table
// used by a version from 5.0 up to (not including) end, each with the last
// such version.
func layoutsBefore(t *testing.T, end string) []meshLayout {
	t.Helper()
	stop := unityversion.MustParse(end)
	var out []meshLayout
	for i, tree := range layouts.Candidates(ClassMesh) {
		var l meshLayout
		for _, v := range layouts.VersionsOfLayout(ClassMesh, i) {
			if v.Less(stop) {
				if l.tree == nil {
					l.first = v
				}
				l.version, l.tree = v, tree
			}
		}
		if l.tree != nil {
			out = append(out, l)
		}
	}
	return out
}

// The layouts the table holds before 2018.2 (when the skin moved into the
// vertex channels): 5.0–5.5, 5.6, 2017.1–2017.2, 2017.3–2017.4, 2018.1.
// A change to the table that adds one must add it here, and be tested.
var wantOldLayouts = []string{"5.5.6f1", "5.6.7f1", "2017.2.5f1", "2017.4.40f1", "2018.1.9f2"}

func TestEveryMeshLayoutBefore2018_2IsListed(t *testing.T) {
	got := layoutsBefore(t, "2018.2.0a1")
	var names []string
	for _, l := range got {
		names = append(names, l.first.String()+"…"+l.version.String())
	}
	t.Logf("Mesh layouts 5.0–2018.1: %s", strings.Join(names, ", "))
	if len(got) != len(wantOldLayouts) {
		t.Fatalf("%d layouts (%v), want %d", len(got), names, len(wantOldLayouts))
	}
	for i, l := range got {
		if l.version.String() != wantOldLayouts[i] {
			t.Errorf("layout %d: last version %v, want %s", i, l.version, wantOldLayouts[i])
		}
	}
}

// The known mesh every layout test writes: a square and an apex over it,
// five vertices.
var (
	oldPos = [][3]float32{{0, 0, 0}, {1, 0, 0}, {1, 2, 0}, {0, 2, 0}, {0.5, 1, -1}}
	oldNrm = [][3]float32{{0, 0, -1}, {0, 0, -1}, {0, 1, 0}, {0, -1, 0}, {1, 0, 0}}
	oldTan = [][4]float32{{1, 0, 0, 1}, {1, 0, 0, -1}, {0, 0, 1, 1}, {0, 0, 1, 1}, {0, 1, 0, -1}}
	oldCol = [][4]byte{{255, 0, 0, 255}, {0, 255, 0, 255}, {0, 0, 255, 128}, {51, 102, 153, 0}, {255, 255, 255, 255}}
	oldUV0 = [][2]float32{{0, 0}, {1, 0}, {1, 1}, {0, 1}, {0.5, 0.5}}
	oldUV1 = [][2]float32{{0.25, 0.5}, {0.75, 0.5}, {1, 0.125}, {0, 2}, {-1, 0.5}} // Float16: exact
	oldW   = [][4]float32{{1}, {0.5, 0.5}, {0.25, 0.25, 0.25, 0.25}, {0.75, 0.25}, {1}}
	oldB   = [][4]uint16{{0}, {0, 1}, {0, 1, 2, 3}, {3, 2}, {1}}
	// Sub-mesh 0: the square's two triangles; sub-mesh 1: a side
	// triangle, stored from base vertex 1 where the layout has one.
	oldTris0 = []uint32{0, 1, 2, 0, 2, 3}
	oldTris1 = []uint32{1, 2, 4}
	oldBox   = model.AABB{Center: v3g(0.5, 1, -0.5), Extent: v3g(0.5, 1, 0.5)}
)

// half encodes a float16 exactly representable value.
func half(x float32) uint16 {
	if x == 0 {
		return 0
	}
	b := math.Float32bits(x)
	return uint16(b>>16&0x8000) | uint16((b>>23&0xff)-112)<<10 | uint16(b>>13&0x3ff)
}

// storedChannel is one m_Channels entry: stream, offset, stored format
// number, dimension.
type storedChannel [4]int

// oldMeshFields writes the known mesh as a Unity of the layout would: the
// channel list of its version (8 entries up to 2017.4, 12 in 2018.1, 14
// from 2018.2), its format numbering, the skin in m_Skin (up to 2018.1) or
// in a third stream, 16-bit indices (32-bit where m_IndexFormat exists),
// the channel mask where m_CurrentChannels exists (with a decoy entry its
// mask leaves out), two sub-meshes, four bind poses and a blend shape.
func oldMeshFields(tree *typetree.Tree, ver unityversion.Version) unitywrite.Fields {
	le := binary.LittleEndian
	has := func(name string) bool {
		for _, n := range tree.Nodes {
			if n.Name == name {
				return true
			}
		}
		return false
	}
	// Formats as stored: Float, Float16 and Color are 0, 1, 2 in every
	// numbering before 2019; UInt32 is 4 in Unity 5's, 11 in 2017's.
	const fFloat, fHalf, fColor = 0, 1, 2
	fUInt32 := 11
	if ver.Major < 2017 {
		fUInt32 = 4
	}
	pos := storedChannel{0, 0, fFloat, 3}
	nrm := storedChannel{0, 12, fFloat, 3}
	tan := storedChannel{0, 24, fFloat, 4}
	col := storedChannel{1, 0, fColor, 4}
	uv0 := storedChannel{1, 4, fFloat, 2}
	uv1 := storedChannel{1, 12, fHalf, 2}
	none := storedChannel{}
	decoy := storedChannel{3, 0, fFloat, 2} // in a stream the data lacks
	var chs []storedChannel
	mask := uint32(0)
	switch {
	case has("m_CurrentChannels"):
		// 5.0–2017.4: position, normal, colour, UV0–UV3, tangent.
		chs = []storedChannel{pos, nrm, col, uv0, uv1, none, decoy, tan}
		mask = 1<<0 | 1<<1 | 1<<2 | 1<<3 | 1<<4 | 1<<7
	case has("m_Skin"):
		// 2018.1: position, normal, tangent, colour, UV0–UV7.
		chs = []storedChannel{pos, nrm, tan, col, uv0, uv1, none, none, none, none, none, none}
	default:
		// 2018.2 on: and blend weights and indices.
		chs = []storedChannel{pos, nrm, tan, col, uv0, uv1, none, none, none, none, none, none,
			{2, 0, fFloat, 4}, {2, 16, fUInt32, 4}}
	}
	var data []byte
	f32 := func(xs ...float32) {
		for _, x := range xs {
			data = le.AppendUint32(data, math.Float32bits(x))
		}
	}
	align := func() {
		for len(data)%16 != 0 {
			data = append(data, 0)
		}
	}
	for i := range oldPos {
		f32(oldPos[i][:]...)
		f32(oldNrm[i][:]...)
		f32(oldTan[i][:]...)
	}
	align()
	for i := range oldPos {
		data = append(data, oldCol[i][:]...)
		f32(oldUV0[i][:]...)
		data = le.AppendUint16(data, half(oldUV1[i][0]))
		data = le.AppendUint16(data, half(oldUV1[i][1]))
	}
	skinInChannels := len(chs) == NumChannels
	if skinInChannels {
		align()
		for i := range oldPos {
			f32(oldW[i][:]...)
			for _, b := range oldB[i] {
				data = le.AppendUint32(data, uint32(b))
			}
		}
	}
	channels := make([]unitywrite.Fields, len(chs))
	for i, c := range chs {
		channels[i] = unitywrite.Fields{"stream": uint8(c[0]), "offset": uint8(c[1]), "format": uint8(c[2]), "dimension": uint8(c[3])}
	}
	var skin []unitywrite.Fields
	if !skinInChannels {
		for i := range oldPos {
			e := unitywrite.Fields{}
			for k := range 4 {
				e[weightFields[k]] = oldW[i][k]
				e[boneIndexFields[k]] = int32(oldB[i][k])
			}
			skin = append(skin, e)
		}
	}
	// Indices: 32-bit where the layout can say so, else 16-bit; sub-mesh 1
	// from base vertex 1 where the layout has base vertices.
	wide := has("m_IndexFormat")
	base := uint32(0)
	if has("baseVertex") {
		base = 1
	}
	var idx []byte
	put := func(x uint32) {
		if wide {
			idx = le.AppendUint32(idx, x)
		} else {
			idx = le.AppendUint16(idx, uint16(x))
		}
	}
	for _, x := range oldTris0 {
		put(x)
	}
	second := len(idx)
	for _, x := range oldTris1 {
		put(x - base)
	}
	indexFormat := int32(0)
	if wide {
		indexFormat = 1
	}
	var binds []unitywrite.Fields
	for b := range 4 {
		binds = append(binds, unitywrite.Fields{"e00": float32(1), "e11": float32(1), "e22": float32(1), "e33": float32(1), "e13": float32(-b)})
	}
	return unitywrite.Fields{
		"m_Name": "apex",
		"m_SubMeshes": []unitywrite.Fields{
			{"firstByte": uint32(0), "indexCount": uint32(6), "vertexCount": uint32(4), "localAABB": box([3]float32{0.5, 1, 0}, [3]float32{0.5, 1, 0})},
			{"firstByte": uint32(second), "indexCount": uint32(3), "baseVertex": base, "firstVertex": uint32(1), "vertexCount": uint32(4),
				"localAABB": box([3]float32{0.75, 1, -0.5}, [3]float32{0.25, 1, 0.5})},
		},
		"m_Shapes": unitywrite.Fields{
			"vertices":    []unitywrite.Fields{{"vertex": v3(0, 0, -1), "normal": v3(0, 0, 0), "tangent": v3(0, 0, 0), "index": uint32(4)}},
			"shapes":      []unitywrite.Fields{{"firstVertex": uint32(0), "vertexCount": uint32(1)}},
			"channels":    []unitywrite.Fields{{"name": "blendShape1.pull", "nameHash": uint32(77), "frameIndex": int32(0), "frameCount": int32(1)}},
			"fullWeights": []float32{100},
		},
		"m_BindPose":         binds,
		"m_BoneNameHashes":   []uint32{10, 11, 12, 13},
		"m_RootBoneNameHash": uint32(10),
		"m_IndexFormat":      indexFormat,
		"m_IndexBuffer":      idx,
		"m_Skin":             skin,
		"m_VertexData": unitywrite.Fields{
			"m_CurrentChannels": mask,
			"m_VertexCount":     uint32(len(oldPos)),
			"m_Channels":        channels,
			"m_DataSize":        data,
		},
		"m_LocalAABB": box([3]float32{0.5, 1, -0.5}, [3]float32{0.5, 1, 0.5}),
	}
}

func v3g(x, y, z float32) geom.Vec3 { return geom.Vec3{X: x, Y: y, Z: z} }

// strippedMeshFile writes a serialized file of Unity version ver without
// type trees holding the mesh, opens it and returns its object, so the
// mesh is read as a game's file is: by the built-in layout of ver.
func strippedMeshFile(t *testing.T, ver unityversion.Version, tree *typetree.Tree, f unitywrite.Fields) (*assets.File, *typetree.Value) {
	t.Helper()
	b, err := unitywrite.Encode(tree, f)
	if err != nil {
		t.Fatal(err)
	}
	file, err := unitywrite.SerializedFile(ver.String(), 19, []unitywrite.Object{{PathID: 1, ClassID: ClassMesh, Tree: tree, Data: b}}, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	ct, err := assets.OpenReader(bytes.NewReader(file), int64(len(file)), "synthetic-"+ver.String(), assets.Options{})
	if err != nil {
		t.Fatal(err)
	}
	af := ct.Files[0]
	v, err := af.Decode(&af.Objects[0])
	if err != nil {
		t.Fatal(err)
	}
	return af, v
}

// checkOldMesh compares a decoded mesh with the known one.
func checkOldMesh(t *testing.T, m *model.Mesh) {
	t.Helper()
	if m.Name != "apex" || m.VertexCount != len(oldPos) || len(m.Positions) != len(oldPos) {
		t.Fatalf("%q: %d vertices, %d positions", m.Name, m.VertexCount, len(m.Positions))
	}
	for i := range oldPos {
		if m.Positions[i] != oldPos[i] || m.Normals[i] != oldNrm[i] || m.Tangents[i] != oldTan[i] {
			t.Errorf("vertex %d: %v %v %v", i, m.Positions[i], m.Normals[i], m.Tangents[i])
		}
		var col [4]float32
		for k := range 4 {
			col[k] = float32(oldCol[i][k]) / 255
		}
		if m.Colors[i] != col {
			t.Errorf("vertex %d: colour %v, want %v", i, m.Colors[i], col)
		}
		if m.UV[0][i] != oldUV0[i] || m.UV[1][i] != oldUV1[i] {
			t.Errorf("vertex %d: uv %v %v", i, m.UV[0][i], m.UV[1][i])
		}
		if m.BoneWeights[i] != oldW[i] || m.BoneIndices[i] != oldB[i] {
			t.Errorf("vertex %d: weights %v bones %v, want %v %v", i, m.BoneWeights[i], m.BoneIndices[i], oldW[i], oldB[i])
		}
	}
	for k := 2; k < 8; k++ {
		if m.UV[k] != nil {
			t.Errorf("uv%d read from an absent channel", k)
		}
	}
	if m.Bounds != oldBox {
		t.Errorf("bounds %+v, want %+v", m.Bounds, oldBox)
	}
	checkBounds(t, "mesh", m.Positions, nil, m.Bounds)
	if len(m.SubMeshes) != 2 {
		t.Fatalf("%d sub-meshes", len(m.SubMeshes))
	}
	for i, want := range [][]uint32{oldTris0, oldTris1} {
		got := m.SubMeshIndices(i)
		if len(got) != len(want) {
			t.Fatalf("sub-mesh %d: indices %v, want %v", i, got, want)
		}
		for k := range got {
			if got[k] != want[k] {
				t.Errorf("sub-mesh %d: indices %v, want %v", i, got, want)
				break
			}
		}
		checkBounds(t, "sub-mesh", m.Positions, got, m.SubMeshes[i].Bounds)
	}
	if len(m.BindPoses) != 4 || m.BindPoses[3][1][3] != -3 || m.RootBoneNameHash != 10 || len(m.BoneNameHashes) != 4 {
		t.Errorf("bind poses %v, bone hashes %v root %d", m.BindPoses, m.BoneNameHashes, m.RootBoneNameHash)
	}
	if len(m.BlendShapes) != 1 || m.BlendShapes[0].Name != "blendShape1.pull" || m.BlendShapes[0].Frames[0].Vertices[0] != 4 ||
		m.BlendShapes[0].Frames[0].Position[0] != [3]float32{0, 0, -1} {
		t.Errorf("blend shapes %+v", m.BlendShapes)
	}
}

// Every distinct Mesh layout from 5.0 to 2018.4, written as a game's file
// (no type trees) of a version that has it, reads back to the known mesh:
// vertex count, every channel, skin weights (from m_Skin up to 2018.1),
// indices of both widths, base vertices, bind poses, blend shapes and
// bounds.
func TestMeshesOfEveryLayoutFrom5_0To2018Read(t *testing.T) {
	ls := layoutsBefore(t, "2019.1.0a1")
	if len(ls) < len(wantOldLayouts)+2 {
		t.Fatalf("%d layouts before 2019.1", len(ls))
	}
	for _, l := range ls {
		t.Run(l.version.String(), func(t *testing.T) {
			f, v := strippedMeshFile(t, l.version, l.tree, oldMeshFields(l.tree, l.version))
			if want := l.version.Less(unityversion.MustParse("2018.2.0a1")); v.Has("m_Skin") != want {
				t.Fatalf("layout has m_Skin: %v", v.Has("m_Skin"))
			}
			m, err := FromFile(f, &f.Objects[0])
			if err != nil {
				t.Fatal(err)
			}
			checkOldMesh(t, m)
		})
	}
}

// Compressed meshes (the same m_CompressedMesh in every layout) read from
// each old layout as from 2022.3's.
func TestCompressedMeshesOfEveryOldLayoutRead(t *testing.T) {
	want, err := decodeFields(t, compressedQuad(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range layoutsBefore(t, "2018.2.0a1") {
		t.Run(l.version.String(), func(t *testing.T) {
			f := compressedQuad()
			f["m_VertexData"] = unitywrite.Fields{"m_Channels": []unitywrite.Fields{}}
			af, _ := strippedMeshFile(t, l.version, l.tree, f)
			m, err := FromFile(af, &af.Objects[0])
			if err != nil {
				t.Fatal(err)
			}
			if m.VertexCount != 4 || len(m.BoneWeights) != 4 {
				t.Fatalf("%d vertices, %d weights", m.VertexCount, len(m.BoneWeights))
			}
			for i := range m.Positions {
				if m.Positions[i] != want.Positions[i] || m.BoneWeights[i] != want.BoneWeights[i] || m.BoneIndices[i] != want.BoneIndices[i] {
					t.Errorf("vertex %d: %v %v %v, want %v %v %v", i, m.Positions[i], m.BoneWeights[i], m.BoneIndices[i],
						want.Positions[i], want.BoneWeights[i], want.BoneIndices[i])
				}
			}
			if m.Bounds != want.Bounds || len(m.Indices) != 6 {
				t.Errorf("bounds %v, %d indices", m.Bounds, len(m.Indices))
			}
		})
	}
}

// The old format numberings map to the right formats, and a colour stored
// with dimension 1 (one RGBA32) reads as four UNorm8.
func TestOldNumberingsAndColourDimension(t *testing.T) {
	for _, c := range []struct {
		n      Numbering
		stored uint8
		want   VertexFormat
	}{
		{Numbering5, 0, FormatFloat}, {Numbering5, 1, FormatFloat16}, {Numbering5, 2, FormatUNorm8},
		{Numbering5, 3, FormatUInt8}, {Numbering5, 4, FormatUInt32}, {Numbering5, 5, FormatUnknown},
		{Numbering2017, 2, FormatUNorm8}, {Numbering2017, 3, FormatUNorm8}, {Numbering2017, 11, FormatUInt32},
		{Numbering2017, 12, FormatSInt32}, {Numbering2017, 13, FormatUnknown},
		{Numbering2019, 11, FormatSInt32}, {Numbering2019, 12, FormatUnknown},
	} {
		if got := c.n.Format(c.stored); got != c.want {
			t.Errorf("%v: format %d = %v, want %v", c.n, c.stored, got, c.want)
		}
	}
	for _, c := range []struct {
		major int
		want  Numbering
	}{{5, Numbering5}, {2017, Numbering2017}, {2018, Numbering2017}, {2019, Numbering2019}, {0, Numbering2019}} {
		if got := NumberingOf(c.major); got != c.want {
			t.Errorf("NumberingOf(%d) = %v", c.major, got)
		}
	}
	ver := unityversion.MustParse("5.6.7f1")
	tree, _, err := layouts.Lookup(ver, ClassMesh)
	if err != nil {
		t.Fatal(err)
	}
	f := oldMeshFields(tree, ver)
	f["m_VertexData"].(unitywrite.Fields)["m_Channels"].([]unitywrite.Fields)[2]["dimension"] = uint8(1)
	af, _ := strippedMeshFile(t, ver, tree, f)
	m, err := FromFile(af, &af.Objects[0])
	if err != nil {
		t.Fatal(err)
	}
	checkOldMesh(t, m)
}

// Meshes whose version is blanked are read by their channel list: 12
// channels with 2017's numbering, 8 with the formats Unity 5 and 2017
// agree on (and refused when a format means different things in them).
func TestOldMeshesOfUnknownVersion(t *testing.T) {
	for _, name := range []string{"5.6.7f1", "2017.4.40f1", "2018.1.9f2"} {
		ver := unityversion.MustParse(name)
		tree, _, err := layouts.Lookup(ver, ClassMesh)
		if err != nil {
			t.Fatal(err)
		}
		decode := func(f unitywrite.Fields) (*model.Mesh, error) {
			b, err := unitywrite.Encode(tree, f)
			if err != nil {
				t.Fatal(err)
			}
			v, err := typetree.Decode(tree, b, binary.LittleEndian)
			if err != nil {
				t.Fatal(err)
			}
			return Decode(v, Options{})
		}
		m, err := decode(oldMeshFields(tree, ver))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		checkOldMesh(t, m)
		f := oldMeshFields(tree, ver)
		chs := f["m_VertexData"].(unitywrite.Fields)["m_Channels"].([]unitywrite.Fields)
		if len(chs) != 8 {
			continue
		}
		chs[4]["format"] = uint8(3) // a byte: UInt8 in Unity 5, UNorm8 in 2017
		chs[4]["dimension"] = uint8(4)
		if _, err := decode(f); !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), "version is unknown") {
			t.Errorf("%s: ambiguous format: err %v", name, err)
		}
	}
}

// The channel mask of 5.x–2017 decides which channels exist; a skin whose
// length is not the vertex count is refused; channel lists of lengths no
// Unity wrote are refused.
func TestOldMeshesRefuseWhatTheirLayoutCannotHold(t *testing.T) {
	ver := unityversion.MustParse("2017.2.5f1")
	tree, _, err := layouts.Lookup(ver, ClassMesh)
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct {
		edit func(f unitywrite.Fields)
		want string
	}{
		"decoy channel in the mask": {func(f unitywrite.Fields) {
			f["m_VertexData"].(unitywrite.Fields)["m_CurrentChannels"] = uint32(0xff)
		}, "runs past"},
		"short skin": {func(f unitywrite.Fields) { f["m_Skin"] = f["m_Skin"].([]unitywrite.Fields)[:4] }, "4 bone influences for 5 vertices"},
		"negative bone": {func(f unitywrite.Fields) {
			f["m_Skin"].([]unitywrite.Fields)[2]["boneIndex[1]"] = int32(-2)
		}, "bone -2"},
		"nine channels": {func(f unitywrite.Fields) {
			vd := f["m_VertexData"].(unitywrite.Fields)
			vd["m_Channels"] = append(vd["m_Channels"].([]unitywrite.Fields), unitywrite.Fields{})
		}, "9 vertex channels"},
	} {
		f := oldMeshFields(tree, ver)
		c.edit(f)
		af, _ := strippedMeshFile(t, ver, tree, f)
		_, err := FromFile(af, &af.Objects[0])
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want %q", name, err, c.want)
		}
	}
}

// FuzzDecodeOld decodes arbitrary bytes as a Mesh of one of the layouts
// before 2019 (which picks it) and converts what decodes: never a panic,
// never an allocation beyond the input's reach.
func FuzzDecodeOld(f *testing.F) {
	var trees []*typetree.Tree
	var vers []unityversion.Version
	for i, tree := range layouts.Candidates(ClassMesh) {
		vs := layouts.VersionsOfLayout(ClassMesh, i)
		if len(vs) > 0 && vs[0].Less(unityversion.MustParse("2019.1.0a1")) {
			trees, vers = append(trees, tree), append(vers, vs[len(vs)-1])
		}
	}
	for i, tree := range trees {
		for _, m := range []unitywrite.Fields{oldMeshFields(tree, vers[i]), compressedQuad()} {
			if b, err := unitywrite.Encode(tree, m); err == nil {
				f.Add(uint8(i), false, b)
				f.Add(uint8(i), true, b)
			}
		}
	}
	count := fuzzcount.Counter("FuzzDecodeOld")
	f.Fuzz(func(t *testing.T, which uint8, blank bool, b []byte) {
		count()
		if len(trees) == 0 {
			return
		}
		i := int(which) % len(trees)
		v, err := typetree.Decode(trees[i], b, binary.LittleEndian)
		if err != nil {
			return
		}
		opts := Options{Version: vers[i]}
		if blank {
			opts.Version = unityversion.Version{}
		}
		m, err := Decode(v, opts)
		if err != nil {
			return
		}
		for i := range m.SubMeshes {
			m.SubMeshIndices(i)
		}
		var buf []model.Influence
		for i := 0; i < m.VertexCount; i++ {
			buf = m.Influences(i, buf[:0])
		}
	})
}
