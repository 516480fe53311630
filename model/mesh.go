package model

import (
	"cmp"
	"image"
	"slices"

	"github.com/mecanim/mecanim/geom"
)

// Mat4 is a 4×4 matrix indexed [row][column] (Unity's Matrix4x4f eRC),
// acting on column vectors: the translation is column 3.
type Mat4 [4][4]float32

// AABB is an axis-aligned box as Unity stores it: centre and half extent.
type AABB struct {
	Center, Extent geom.Vec3
}

// Min returns the lower corner.
func (b AABB) Min() geom.Vec3 { return b.Center.Sub(b.Extent) }

// Max returns the upper corner.
func (b AABB) Max() geom.Vec3 { return b.Center.Add(b.Extent) }

// Topology is how a sub-mesh's indices form primitives (Unity's
// MeshTopology).
type Topology int

// Unity's mesh topologies.
const (
	Triangles     Topology = 0
	TriangleStrip Topology = 1 // deprecated by Unity, still readable
	Quads         Topology = 2
	Lines         Topology = 3
	LineStrip     Topology = 4
	Points        Topology = 5
)

// SubMesh is a range of the index buffer drawn with one material.
type SubMesh struct {
	FirstIndex  int // index into Mesh.Indices (m_SubMeshes.firstByte / index size)
	IndexCount  int
	Topology    Topology
	BaseVertex  int // added to every index of the range
	FirstVertex int // the vertex range the indices use (informational)
	VertexCount int
	Bounds      AABB
}

// BlendShape is one blend-shape channel (a morph target): a name and one
// or more frames, each reached at its weight (Unity's 0..100 scale).
type BlendShape struct {
	Name     string
	NameHash uint32
	Frames   []BlendFrame
}

// BlendFrame is the offsets one frame of a blend shape applies to the
// vertices it moves (sparse: Vertices lists the vertex indices).
type BlendFrame struct {
	Weight   float32
	Vertices []uint32
	Position [][3]float32
	Normal   [][3]float32 // nil when the frame has no normal deltas
	Tangent  [][3]float32 // nil when the frame has no tangent deltas
}

// Mesh is a decoded Unity mesh in Unity's frame (left-handed, y up).
// Per-vertex slices are VertexCount long or nil when the channel is absent.
type Mesh struct {
	Name        string
	VertexCount int
	Positions   [][3]float32
	Normals     [][3]float32
	Tangents    [][4]float32 // w is the bitangent sign
	Colors      [][4]float32
	UV          [8][][2]float32 // UV[k] is channel uvk (first two components)
	// BoneWeights and BoneIndices are the skin influences of the vertex
	// channels, up to four per vertex (unused slots have weight 0).
	// Indices point into BindPoses and the renderer's m_Bones. A mesh
	// that has more per vertex keeps its four largest here and all of them
	// in Skin.
	BoneWeights [][4]float32
	BoneIndices [][4]uint16
	// Skin and SkinOffsets are every influence of every vertex when the
	// mesh stores them apart from the vertex channels
	// (m_VariableBoneCountWeights, Unity 2019.1+, written for meshes with
	// more than four bones per vertex): vertex i's are
	// Skin[SkinOffsets[i]:SkinOffsets[i+1]], by weight, largest first.
	// Both nil when the mesh has no such store. Influences reads either.
	Skin        []Influence
	SkinOffsets []int
	// Indices is the whole index buffer; SubMeshes slice it.
	Indices          []uint32
	SubMeshes        []SubMesh
	BindPoses        []Mat4
	BoneNameHashes   []uint32
	RootBoneNameHash uint32
	BlendShapes      []BlendShape
	Bounds           AABB
}

// SubMeshIndices returns sub-mesh i's indices with its base vertex added.
func (m *Mesh) SubMeshIndices(i int) []uint32 {
	s := m.SubMeshes[i]
	src := m.Indices[s.FirstIndex : s.FirstIndex+s.IndexCount]
	out := make([]uint32, len(src))
	for k, x := range src {
		out[k] = x + uint32(s.BaseVertex)
	}
	return out
}

// Influence is one bone's share of a vertex's skinning. Bone indexes
// BindPoses and the renderer's m_Bones.
type Influence struct {
	Bone   uint16
	Weight float32
}

// SortInfluences orders influences by weight, largest first, keeping the
// stored order among equal weights.
func SortInfluences(s []Influence) {
	slices.SortStableFunc(s, func(a, b Influence) int { return cmp.Compare(b.Weight, a.Weight) })
}

// HasVariableSkin reports whether the mesh stores every influence of its
// vertices beyond the four vertex channels (Skin and SkinOffsets).
func (m *Mesh) HasVariableSkin() bool {
	return len(m.SkinOffsets) == m.VertexCount+1 && m.VertexCount > 0
}

// Influences appends vertex i's influences to dst, by weight, largest first
// (zero weights left out) and returns it: all of them from Skin when the
// mesh has them there, else those of the four vertex channels. A vertex
// of a mesh with blend indices and no weights (one bone per vertex) has its
// first bone at weight 1. It returns dst unchanged when the mesh has no
// skin or i is out of range.
func (m *Mesh) Influences(i int, dst []Influence) []Influence {
	if i < 0 || i >= m.VertexCount {
		return dst
	}
	if m.HasVariableSkin() {
		lo, hi := m.SkinOffsets[i], m.SkinOffsets[i+1]
		if lo < 0 || hi < lo || hi > len(m.Skin) {
			return dst
		}
		return append(dst, m.Skin[lo:hi]...)
	}
	if i >= len(m.BoneWeights) || i >= len(m.BoneIndices) {
		return dst
	}
	start := len(dst)
	for k := range 4 {
		if w := m.BoneWeights[i][k]; w > 0 {
			dst = append(dst, Influence{Bone: m.BoneIndices[i][k], Weight: w})
		}
	}
	SortInfluences(dst[start:])
	return dst
}

// MaxInfluences returns the largest number of influences of one vertex (0
// for a mesh without skin).
func (m *Mesh) MaxInfluences() int {
	most := 0
	if m.HasVariableSkin() {
		for i := 0; i < m.VertexCount; i++ {
			most = max(most, m.SkinOffsets[i+1]-m.SkinOffsets[i])
		}
		return most
	}
	for i := range m.BoneWeights {
		k := 0
		for _, w := range m.BoneWeights[i] {
			if w > 0 {
				k++
			}
		}
		most = max(most, k)
	}
	return most
}

// MaxBonesPerVertex is the most influences Unity gives one vertex: its
// Mesh.GetBonesPerVertex counts them in a byte (and the importer's
// maxBonesPerVertex ranges 1–255). Readers refuse more.
const MaxBonesPerVertex = 255

// Material is what a sub-mesh is drawn with, as far as exporters and
// viewers use it: a name and metallic-roughness factors with a base
// colour texture.
type Material struct {
	// Name is the material's name ("" when the material was not found).
	Name string
	// HasFactors reports whether the factors below were read from the
	// material; when false, exporters use their format's defaults.
	HasFactors bool
	// BaseColor is the base colour factor, linear RGBA (readers convert
	// colours stored sRGB-encoded, as Unity stores a material's colours;
	// white when the material sets none).
	BaseColor [4]float32
	// Metallic and Roughness are the metallic-roughness factors in [0, 1]
	// (Unity's _Metallic, and 1 − its smoothness).
	Metallic, Roughness float32
	// BaseColorTexture is the base colour texture, nil when the material
	// has none or it could not be decoded. Materials that use the same
	// texture share the value.
	BaseColorTexture *Texture
	// TextureScale and TextureOffset map a vertex's first UV to the
	// texture's: uv·Scale + Offset (Unity's tiling and offset, in Unity's
	// UV frame: v up). A zero TextureScale means (1, 1).
	TextureScale, TextureOffset [2]float32
}

// Texture is a decoded texture image: 8-bit RGBA, top row first, its
// colours as stored (a colour texture sRGB-encoded).
type Texture struct {
	Name  string
	Image *image.NRGBA
}

// MeshInstance is a mesh drawn on a node of a rig: a skinned mesh with the
// rig nodes its bones are, or a rigid mesh moving with its node. It is
// what a reader found drawn on a rig, whatever the file format.
type MeshInstance struct {
	// Node is the rig node of the renderer's GameObject.
	Node int
	Mesh *Mesh
	// Joints maps the mesh's bone indices to rig nodes (-1: the bone is
	// not in the rig). Nil draws the mesh rigidly at Node.
	Joints []int
	// BlendShapeWeights are the renderer's weights (0..100) per blend
	// shape; missing entries are 0.
	BlendShapeWeights []float32
	// Materials is the material of each sub-mesh (missing entries: none).
	Materials []Material
}
