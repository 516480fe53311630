// Package mesh decodes Unity meshes (class 43) and skinned mesh renderers
// (class 137) from their decoded type-tree values into plain Go slices:
// positions, normals, UVs, bone weights (all of them, also beyond four per
// vertex), sub-mesh index lists, bind poses and blend shapes, in Unity's
// left-handed frame, for exporters.
//
// Vertex data is read as Unity lays it out (m_VertexData: channels in up to
// four streams, each stream's vertices interleaved, streams 16-byte
// aligned), from the object itself or from a streamed resource (.resS).
// Meshes of every Unity version from 5.0 on are read: the channel list
// (8 channels up to 2017.4, 12 in 2018.1, 14 since; see ChannelOrder), the
// vertex format numbering (NumberingOf), the skin (m_Skin, one
// BoneInfluence per vertex, up to 2018.1; the vertex channels since) and
// the index format (16-bit only before 2017.3) follow the version's layout.
// Compressed meshes (m_MeshCompression != 0) are decoded from their
// bit-packed vectors and checked against the bounds Unity stored with them
// (no compressed mesh is in the test corpus: the decoder is proved on
// meshes packed by the tests, and the bounds check refuses, with
// ErrCompressed, what does not come out as Unity stored it).
package mesh

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/assets"
	"github.com/mecanim/mecanim/unity/serialized"
	"github.com/mecanim/mecanim/unity/typetree"
	"github.com/mecanim/mecanim/unity/unityversion"
)

// Class ids of the objects this package decodes.
const (
	ClassMesh                = 43
	ClassSkinnedMeshRenderer = 137
	ClassMeshFilter          = 33
	ClassMeshRenderer        = 23
)

// Errors wrapped by Decode.
var (
	// ErrCompressed: the mesh is stored with Unity's mesh compression
	// (bit-packed channels) and what they decode to does not fit the
	// bounds Unity stored with the mesh (a layout this package does not
	// know, or damaged data).
	ErrCompressed = errors.New("compressed mesh does not decode to its stored bounds")
	// ErrMalformed: a field is missing or inconsistent.
	ErrMalformed = errors.New("malformed mesh")
	// ErrNoStream: the vertex data is streamed from a resource file and no
	// reader was given or the read failed.
	ErrNoStream = errors.New("streamed vertex data not available")
	// ErrNoMesh: renderers of the rig name no mesh (m_Mesh is null, as
	// mods that reuse the game's meshes ship them): nothing to draw, and
	// nothing wrong with the file.
	ErrNoMesh = errors.New("renderers name no mesh (m_Mesh is null)")
	// ErrBuiltinMesh: a renderer's mesh is one of Unity's built-in
	// resources (a primitive such as the cube or the sphere), held by
	// Unity's own resource files, and none of the files opened holds it.
	ErrBuiltinMesh = errors.New("Unity's built-in mesh, in no file given")
	// ErrMeshMissing: a renderer's mesh is in a file that was not opened.
	ErrMeshMissing = errors.New("mesh in no file given")
)

// Error is a failure to decode one mesh: it names the mesh and the field.
type Error struct {
	Mesh  string
	Field string
	Err   error
}

// Error describes the failure and where it happened.
func (e *Error) Error() string {
	if e.Field == "" {
		return fmt.Sprintf("mesh %q: %v", e.Mesh, e.Err)
	}
	return fmt.Sprintf("mesh %q: %s: %v", e.Mesh, e.Field, e.Err)
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Options tell Decode how to reach streamed data and how to read formats.
type Options struct {
	// ReadStream reads size bytes at offset of a streamed-resource file
	// (m_StreamData); nil when none is reachable.
	ReadStream func(path string, offset uint64, size uint32) ([]byte, error)
	// Version is the Unity version that wrote the mesh (the vertex format
	// numbering changed in 2019); the zero Version reads the current
	// numbering.
	Version unityversion.Version
}

// FromFile decodes mesh object o of file f, reading streamed vertex data
// from f's container.
func FromFile(f *assets.File, o *serialized.Object) (*model.Mesh, error) {
	v, err := f.Decode(o)
	if err != nil {
		return nil, f.In(fmt.Errorf("mesh object %d: %w", o.PathID, err))
	}
	opts := Options{Version: f.Version}
	if f.Container != nil {
		opts.ReadStream = f.Container.ReadStream
	}
	m, err := Decode(v, opts)
	if err != nil {
		return nil, f.In(fmt.Errorf("object %d: %w", o.PathID, err))
	}
	return m, nil
}

// Decode converts a decoded Mesh value.
func Decode(v *typetree.Value, opts Options) (*model.Mesh, error) {
	m := &model.Mesh{Name: v.Field("m_Name").Str()}
	fail := func(field string, err error) (*model.Mesh, error) {
		return nil, &Error{Mesh: m.Name, Field: field, Err: err}
	}
	if v.Kind() != typetree.KindStruct {
		return fail("", fmt.Errorf("%w: not a struct", ErrMalformed))
	}
	m.Bounds = aabb(v.Field("m_LocalAABB"))
	if c := v.Field("m_MeshCompression").Int(); c != 0 {
		if err := readCompressed(m, v); err != nil {
			return fail("m_CompressedMesh", err)
		}
		step := readPacked(v.Path("m_CompressedMesh", "m_Vertices")).step()
		if !fits(m.Positions, m.Bounds, step) {
			return fail("m_CompressedMesh", fmt.Errorf("%w (compression level %d)", ErrCompressed, c))
		}
	} else {
		vd, err := vertexData(v, opts)
		if err != nil {
			return fail("m_VertexData", err)
		}
		if err := readVertices(m, vd); err != nil {
			return fail("m_VertexData", err)
		}
		if err := readIndices(m, v); err != nil {
			return fail("m_IndexBuffer", err)
		}
	}
	if err := readBoneInfluences(m, v.Field("m_Skin")); err != nil {
		return fail("m_Skin", err)
	}
	if err := readSubMeshes(m, v.Field("m_SubMeshes"), indexSize(v)); err != nil {
		return fail("m_SubMeshes", err)
	}
	bp := v.Field("m_BindPose")
	m.BindPoses = make([]model.Mat4, 0, bp.Len())
	for i := 0; i < bp.Len(); i++ {
		m.BindPoses = append(m.BindPoses, mat4(bp.Index(i)))
	}
	if err := readVariableSkin(m, v.Field("m_VariableBoneCountWeights")); err != nil {
		return fail("m_VariableBoneCountWeights", err)
	}
	m.BoneNameHashes = uint32s(v.Field("m_BoneNameHashes"))
	m.RootBoneNameHash = uint32(v.Field("m_RootBoneNameHash").Uint())
	if err := readShapes(m, v.Field("m_Shapes")); err != nil {
		return fail("m_Shapes", err)
	}
	if field, err := checkMeaning(m); err != nil {
		return fail(field, err)
	}
	return m, nil
}

// vertexData reads m_VertexData's description and finds its bytes (inline
// or streamed).
func vertexData(v *typetree.Value, opts Options) (*VertexData, error) {
	d := v.Field("m_VertexData")
	if d == nil {
		return nil, fmt.Errorf("%w: missing", ErrMalformed)
	}
	if d.Has("m_Streams") {
		return nil, fmt.Errorf("%w: Unity 4 vertex streams (m_Streams) are not supported", ErrMalformed)
	}
	vd := &VertexData{VertexCount: int(d.Field("m_VertexCount").Uint())}
	chs := d.Field("m_Channels")
	vd.Channels = make([]Channel, NumChannels)
	if chs.Len() == 0 && vd.VertexCount == 0 {
		return vd, nil
	}
	order, ok := ChannelOrder(chs.Len())
	if !ok {
		return nil, fmt.Errorf("%w: %d vertex channels (Unity wrote 8 up to 2017.4, 12 in 2018.1, %d since)", ErrMalformed, chs.Len(), NumChannels)
	}
	num, ambiguous := numbering(opts.Version, chs.Len())
	// Unity 5.x–2017 flag the channels in use in m_CurrentChannels; a
	// channel whose bit is clear is absent whatever its entry says.
	mask, hasMask := uint32(0xffffffff), d.Has("m_CurrentChannels")
	if hasMask {
		mask = uint32(d.Field("m_CurrentChannels").Uint())
	}
	for i := 0; i < chs.Len(); i++ {
		c := chs.Index(i)
		stored := uint8(c.Field("format").Uint())
		// The high bits of the stored dimension are flags (set on
		// Float16 normals by the 2020+ importers); the count is the
		// low nibble.
		dim := int(c.Field("dimension").Uint() & 0x0f)
		if mask>>i&1 == 0 {
			dim = 0
		}
		if dim == 0 {
			continue
		}
		if ambiguous && stored > storedColor {
			return nil, fmt.Errorf("%w: channel %d: format %d means different things in Unity 5 and 2017 and the file's version is unknown", ErrMalformed, i, stored)
		}
		if num != Numbering2019 && stored == storedColor && dim == 1 {
			dim = 4 // one RGBA32 colour: four UNorm8
		}
		vd.Channels[order[i]] = Channel{
			Stream:    int(c.Field("stream").Uint()),
			Offset:    int(c.Field("offset").Uint()),
			Format:    num.Format(stored),
			Dimension: dim,
		}
	}
	vd.Data = d.Field("m_DataSize").Bytes()
	sd := v.Field("m_StreamData")
	if len(vd.Data) == 0 && sd.Field("size").Uint() > 0 {
		path := sd.Field("path").Str()
		if opts.ReadStream == nil {
			return nil, fmt.Errorf("%w: %s (no reader)", ErrNoStream, path)
		}
		size := sd.Field("size").Uint()
		if size > 1<<31 {
			return nil, fmt.Errorf("%w: stream size %d", ErrMalformed, size)
		}
		b, err := opts.ReadStream(path, sd.Field("offset").Uint(), uint32(size))
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrNoStream, err)
		}
		vd.Data = b
	}
	return vd, nil
}

// numbering picks the vertex format numbering of a mesh: the one of the
// file's version, or, when the version is unknown (blanked), the one its
// channel list implies: 12 channels were written by 2018.1 only; 8 by
// Unity 5 or 2017, whose numberings agree on formats 0–2 only (ambiguous
// is then true: other formats cannot be read).
func numbering(v unityversion.Version, channels int) (n Numbering, ambiguous bool) {
	if v.Major != 0 {
		return NumberingOf(v.Major), false
	}
	switch channels {
	case len(order12):
		return Numbering2017, false
	case len(order8):
		return Numbering5, true
	}
	return Numbering2019, false
}

// readVertices decodes every channel the exporter uses.
func readVertices(m *model.Mesh, vd *VertexData) error {
	m.VertexCount = vd.VertexCount
	if _, _, err := vd.Streams(); err != nil {
		return err
	}
	if vd.VertexCount > 0 && vd.Channels[ChanPosition].Dimension == 0 {
		return fmt.Errorf("%w: %d vertices without positions", ErrMalformed, vd.VertexCount)
	}
	var buf []float32
	var err error
	read3 := func(ch int) ([][3]float32, error) {
		var dim int
		buf, dim, err = vd.Floats(ch, buf)
		if err != nil || dim == 0 {
			return nil, err
		}
		out := make([][3]float32, vd.VertexCount)
		for i := range out {
			copy(out[i][:], buf[i*dim:i*dim+min(dim, 3)])
		}
		return out, nil
	}
	read4 := func(ch int, fill float32) ([][4]float32, error) {
		var dim int
		buf, dim, err = vd.Floats(ch, buf)
		if err != nil || dim == 0 {
			return nil, err
		}
		out := make([][4]float32, vd.VertexCount)
		for i := range out {
			out[i] = [4]float32{0, 0, 0, fill}
			copy(out[i][:], buf[i*dim:i*dim+dim])
		}
		return out, nil
	}
	if m.Positions, err = read3(ChanPosition); err != nil {
		return fmt.Errorf("positions: %w", err)
	}
	if m.Normals, err = read3(ChanNormal); err != nil {
		return fmt.Errorf("normals: %w", err)
	}
	if m.Tangents, err = read4(ChanTangent, 1); err != nil {
		return fmt.Errorf("tangents: %w", err)
	}
	if m.Colors, err = read4(ChanColor, 1); err != nil {
		return fmt.Errorf("colors: %w", err)
	}
	for k := 0; k < 8; k++ {
		var dim int
		buf, dim, err = vd.Floats(ChanUV0+k, buf)
		if err != nil {
			return fmt.Errorf("uv%d: %w", k, err)
		}
		if dim == 0 {
			continue
		}
		uv := make([][2]float32, vd.VertexCount)
		for i := range uv {
			copy(uv[i][:], buf[i*dim:i*dim+min(dim, 2)])
		}
		m.UV[k] = uv
	}
	return readSkin(m, vd)
}

// readSkin decodes blend weights and indices. A mesh with indices and no
// weights (one bone per vertex) gets weight 1 on its first bone.
func readSkin(m *model.Mesh, vd *VertexData) error {
	idx, idim, err := vd.Uints(ChanIndices)
	if err != nil {
		return fmt.Errorf("blend indices: %w", err)
	}
	if idim == 0 {
		return nil
	}
	w, wdim, err := vd.Floats(ChanWeights, nil)
	if err != nil {
		return fmt.Errorf("blend weights: %w", err)
	}
	m.BoneIndices = make([][4]uint16, vd.VertexCount)
	m.BoneWeights = make([][4]float32, vd.VertexCount)
	for i := 0; i < vd.VertexCount; i++ {
		for k := 0; k < min(idim, 4); k++ {
			b := idx[i*idim+k]
			if b > 0xffff {
				return fmt.Errorf("blend indices: vertex %d: bone %d out of range", i, b)
			}
			m.BoneIndices[i][k] = uint16(b)
		}
		switch {
		case wdim == 0:
			m.BoneWeights[i][0] = 1
		default:
			copy(m.BoneWeights[i][:], w[i*wdim:i*wdim+min(wdim, 4)])
		}
	}
	return nil
}

// readIndices decodes m_IndexBuffer by m_IndexFormat (0: 16-bit, 1: 32-bit).
func readIndices(m *model.Mesh, v *typetree.Value) error {
	b := v.Field("m_IndexBuffer").Bytes()
	le := binary.LittleEndian
	switch f := v.Field("m_IndexFormat").Int(); f {
	case 0:
		m.Indices = make([]uint32, len(b)/2)
		for i := range m.Indices {
			m.Indices[i] = uint32(le.Uint16(b[2*i:]))
		}
	case 1:
		m.Indices = make([]uint32, len(b)/4)
		for i := range m.Indices {
			m.Indices[i] = le.Uint32(b[4*i:])
		}
	default:
		return fmt.Errorf("%w: index format %d", ErrMalformed, f)
	}
	return nil
}

// indexSize returns the bytes per index of the mesh's index format.
func indexSize(v *typetree.Value) int {
	if v.Field("m_IndexFormat").Int() == 1 {
		return 4
	}
	return 2
}

// readSubMeshes reads m_SubMeshes and checks each range against the index
// buffer and each index against the vertex count.
func readSubMeshes(m *model.Mesh, sv *typetree.Value, is int) error {
	n := sv.Len()
	if n > len(m.Indices)+1 {
		return fmt.Errorf("%w: %d sub-meshes for %d indices", ErrMalformed, n, len(m.Indices))
	}
	m.SubMeshes = make([]model.SubMesh, 0, n)
	// Sub-meshes may share indices, but not without bound: a small object
	// must not make the checks below (and every reader) quadratic.
	budget := 4*uint64(len(m.Indices)) + 1024
	for i := 0; i < n; i++ {
		e := sv.Index(i)
		fb := e.Field("firstByte").Uint()
		s := model.SubMesh{
			FirstIndex:  int(fb / uint64(is)),
			IndexCount:  int(e.Field("indexCount").Uint()),
			Topology:    model.Topology(e.Field("topology").Int()),
			BaseVertex:  int(e.Field("baseVertex").Uint()),
			FirstVertex: int(e.Field("firstVertex").Uint()),
			VertexCount: int(e.Field("vertexCount").Uint()),
			Bounds:      aabb(e.Field("localAABB")),
		}
		if fb%uint64(is) != 0 || fb/uint64(is) > uint64(len(m.Indices)) || uint64(s.IndexCount) > uint64(len(m.Indices))-fb/uint64(is) {
			return fmt.Errorf("%w: sub-mesh %d: %d indices at byte %d outside the %d-index buffer", ErrMalformed, i, s.IndexCount, fb, len(m.Indices))
		}
		if uint64(s.IndexCount) > budget {
			return fmt.Errorf("%w: sub-mesh %d: the sub-meshes use %d indices over and over", ErrMalformed, i, len(m.Indices))
		}
		budget -= uint64(s.IndexCount)
		if s.Topology < model.Triangles || s.Topology > model.Points {
			return fmt.Errorf("%w: sub-mesh %d: topology %d", ErrMalformed, i, s.Topology)
		}
		for _, x := range m.Indices[s.FirstIndex : s.FirstIndex+s.IndexCount] {
			if uint64(x)+uint64(s.BaseVertex) >= uint64(m.VertexCount) {
				return fmt.Errorf("%w: sub-mesh %d: index %d + base %d past %d vertices", ErrMalformed, i, x, s.BaseVertex, m.VertexCount)
			}
		}
		m.SubMeshes = append(m.SubMeshes, s)
	}
	return nil
}

// readShapes reads m_Shapes: channels name frames, frames name ranges of
// the shared vertex list. Unity gives each channel its own frames and each
// frame its own vertices, so the frames the channels use, and the vertices
// the frames use, add up to at most the lists' lengths; more is refused
// (it would let a small object make the decoder do quadratic work).
func readShapes(m *model.Mesh, v *typetree.Value) error {
	verts, shapes, chans := v.Field("vertices"), v.Field("shapes"), v.Field("channels")
	weights := floats(v.Field("fullWeights"))
	nv, ns := verts.Len(), shapes.Len()
	usedFrames, usedVerts := 0, 0
	for ci := 0; ci < chans.Len(); ci++ {
		c := chans.Index(ci)
		bs := model.BlendShape{Name: c.Field("name").Str(), NameHash: uint32(c.Field("nameHash").Uint())}
		fi, fc := int(c.Field("frameIndex").Int()), int(c.Field("frameCount").Int())
		if fi < 0 || fc < 0 || fi > ns || fc > ns-fi || fi+fc > len(weights) || fc > ns-usedFrames {
			return fmt.Errorf("%w: channel %q: frames %d+%d of %d shapes (%d used), %d weights", ErrMalformed, bs.Name, fi, fc, ns, usedFrames, len(weights))
		}
		usedFrames += fc
		for f := fi; f < fi+fc; f++ {
			s := shapes.Index(f)
			first, count := int(s.Field("firstVertex").Uint()), int(s.Field("vertexCount").Uint())
			if first > nv || count > nv-first || count > nv-usedVerts {
				return fmt.Errorf("%w: channel %q frame %d: vertices %d+%d of %d (%d used)", ErrMalformed, bs.Name, f-fi, first, count, nv, usedVerts)
			}
			usedVerts += count
			fr := model.BlendFrame{Weight: weights[f], Vertices: make([]uint32, count), Position: make([][3]float32, count)}
			hasN, hasT := s.Field("hasNormals").Bool(), s.Field("hasTangents").Bool()
			if hasN {
				fr.Normal = make([][3]float32, count)
			}
			if hasT {
				fr.Tangent = make([][3]float32, count)
			}
			for k := 0; k < count; k++ {
				x := verts.Index(first + k)
				idx := uint32(x.Field("index").Uint())
				if int(idx) >= m.VertexCount {
					return fmt.Errorf("%w: channel %q: vertex index %d past %d vertices", ErrMalformed, bs.Name, idx, m.VertexCount)
				}
				fr.Vertices[k] = idx
				fr.Position[k] = vec3a(x.Field("vertex"))
				if hasN {
					fr.Normal[k] = vec3a(x.Field("normal"))
				}
				if hasT {
					fr.Tangent[k] = vec3a(x.Field("tangent"))
				}
			}
			bs.Frames = append(bs.Frames, fr)
		}
		m.BlendShapes = append(m.BlendShapes, bs)
	}
	return nil
}

// floats reads a float array, packed or not.
func floats(v *typetree.Value) []float32 {
	if v.Packed() {
		return v.Float32s()
	}
	out := make([]float32, v.Len())
	for i := range out {
		out[i] = v.Index(i).Float32()
	}
	return out
}

func aabb(v *typetree.Value) model.AABB {
	return model.AABB{Center: vec3(v.Field("m_Center")), Extent: vec3(v.Field("m_Extent"))}
}

func vec3(v *typetree.Value) geom.Vec3 {
	return geom.Vec3{X: v.Field("x").Float32(), Y: v.Field("y").Float32(), Z: v.Field("z").Float32()}
}

func vec3a(v *typetree.Value) [3]float32 {
	return [3]float32{v.Field("x").Float32(), v.Field("y").Float32(), v.Field("z").Float32()}
}

var matFields = [4][4]string{
	{"e00", "e01", "e02", "e03"},
	{"e10", "e11", "e12", "e13"},
	{"e20", "e21", "e22", "e23"},
	{"e30", "e31", "e32", "e33"},
}

func mat4(v *typetree.Value) model.Mat4 {
	var m model.Mat4
	for r := range 4 {
		for c := range 4 {
			m[r][c] = v.Field(matFields[r][c]).Float32()
		}
	}
	return m
}

// uint32s reads an integer array, packed or not.
func uint32s(v *typetree.Value) []uint32 {
	if v.Kind() != typetree.KindArray {
		return nil
	}
	if v.Packed() {
		if u := v.Uint32s(); u != nil {
			return u
		}
	}
	out := make([]uint32, v.Len())
	for i := range out {
		out[i] = uint32(v.Index(i).Uint())
	}
	return out
}

// fits reports whether the positions' box is the stored box within tol
// (plus float rounding).
func fits(pos [][3]float32, b model.AABB, tol float32) bool {
	if len(pos) == 0 {
		return true
	}
	lo, hi := pos[0], pos[0]
	for _, p := range pos {
		for k := range 3 {
			lo[k], hi[k] = min(lo[k], p[k]), max(hi[k], p[k])
		}
	}
	wl, wh := b.Min(), b.Max()
	want0, want1 := [3]float32{wl.X, wl.Y, wl.Z}, [3]float32{wh.X, wh.Y, wh.Z}
	for k := range 3 {
		t := tol + 1e-5*max(1, abs(want0[k])+abs(want1[k]))
		if !(abs(lo[k]-want0[k]) <= t && abs(hi[k]-want1[k]) <= t) {
			return false
		}
	}
	return true
}

func abs(x float32) float32 { return float32(math.Abs(float64(x))) }
