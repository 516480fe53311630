package mesh

import (
	"fmt"
	"math"

	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/typetree"
)

// packed is a PackedBitVector: NumItems values of BitSize bits each, least
// significant bit first; float vectors map the integer i to
// Start + i·Range/(2^BitSize − 1).
type packed struct {
	n     int
	rng   float32
	start float32
	data  []byte
	bits  int
}

func readPacked(v *typetree.Value) packed {
	return packed{
		n:     int(v.Field("m_NumItems").Uint()),
		rng:   v.Field("m_Range").Float32(),
		start: v.Field("m_Start").Float32(),
		data:  v.Field("m_Data").Bytes(),
		bits:  int(v.Field("m_BitSize").Uint()),
	}
}

// check bounds the item count by the data it is packed in.
func (p packed) check(what string) error {
	if p.bits > 32 || p.n < 0 || uint64(p.n)*uint64(max(p.bits, 1)) > 8*uint64(len(p.data)) {
		return fmt.Errorf("%w: %s: %d items of %d bits in %d bytes", ErrMalformed, what, p.n, p.bits, len(p.data))
	}
	return nil
}

// ints unpacks count items from item first on.
func (p packed) ints(first, count int) []uint32 {
	out := make([]uint32, count)
	bit := first * p.bits
	for i := range out {
		var v uint64
		for got := 0; got < p.bits; {
			b := uint64(p.data[bit/8]) >> (bit % 8)
			take := min(8-bit%8, p.bits-got)
			v |= (b & (1<<take - 1)) << got
			got += take
			bit += take
		}
		out[i] = uint32(v)
	}
	return out
}

// floats unpacks count float items from item first on.
func (p packed) floats(first, count int) []float32 {
	ints := p.ints(first, count)
	out := make([]float32, count)
	scale := float32(0)
	if p.bits > 0 {
		scale = p.rng / float32(uint64(1)<<p.bits-1)
	}
	for i, x := range ints {
		out[i] = p.start + float32(x)*scale
	}
	return out
}

// step is the quantisation step of a float vector.
func (p packed) step() float32 {
	if p.bits <= 0 || p.bits > 32 {
		return 0
	}
	return p.rng / float32(uint64(1)<<p.bits-1)
}

// Compressed-mesh UV layout (m_UVInfo): four bits per UV channel, the
// low two the dimension minus one, bit 2 set when the channel exists.
const (
	uvInfoBits   = 4
	uvDimMask    = 3
	uvExistsFlag = 4
)

// readCompressed decodes m_CompressedMesh (Unity's "Mesh Compression"
// import setting): positions, UVs, normals and tangents (two components
// quantised, the third rebuilt from a sign), colours, skin weights (5-bit,
// a vertex's weights summing to 31) and the index buffer. Each vector's
// count is checked against its bytes before anything is allocated.
func readCompressed(m *model.Mesh, v *typetree.Value) error {
	cm := v.Field("m_CompressedMesh")
	verts := readPacked(cm.Field("m_Vertices"))
	if err := verts.check("m_Vertices"); err != nil {
		return err
	}
	if verts.n%3 != 0 {
		return fmt.Errorf("%w: m_Vertices: %d items is not whole positions", ErrMalformed, verts.n)
	}
	n := verts.n / 3
	m.VertexCount = n
	pos := verts.floats(0, verts.n)
	m.Positions = make([][3]float32, n)
	for i := range m.Positions {
		copy(m.Positions[i][:], pos[3*i:])
	}

	uv := readPacked(cm.Field("m_UV"))
	if err := uv.check("m_UV"); err != nil {
		return err
	}
	if info := uint32(cm.Field("m_UVInfo").Uint()); info != 0 {
		off := 0
		for k := 0; k < 8; k++ {
			bits := info >> (k * uvInfoBits) & (1<<uvInfoBits - 1)
			if bits&uvExistsFlag == 0 {
				continue
			}
			dim := int(bits&uvDimMask) + 1
			if off+dim*n > uv.n {
				return fmt.Errorf("%w: m_UV: channel %d needs %d items past %d of %d", ErrMalformed, k, dim*n, off, uv.n)
			}
			f := uv.floats(off, dim*n)
			m.UV[k] = make([][2]float32, n)
			for i := range n {
				copy(m.UV[k][i][:], f[i*dim:i*dim+min(dim, 2)])
			}
			off += dim * n
		}
	} else if uv.n >= 2*n && n > 0 {
		for k := 0; k < 2 && uv.n >= 2*n*(k+1); k++ {
			f := uv.floats(2*n*k, 2*n)
			m.UV[k] = make([][2]float32, n)
			for i := range n {
				m.UV[k][i] = [2]float32{f[2*i], f[2*i+1]}
			}
		}
	}

	nrm, nsign := readPacked(cm.Field("m_Normals")), readPacked(cm.Field("m_NormalSigns"))
	if err := nrm.check("m_Normals"); err != nil {
		return err
	}
	if err := nsign.check("m_NormalSigns"); err != nil {
		return err
	}
	if nrm.n > 0 {
		if nrm.n != 2*n || nsign.n != n {
			return fmt.Errorf("%w: %d normal items and %d signs for %d vertices", ErrMalformed, nrm.n, nsign.n, n)
		}
		f, s := nrm.floats(0, nrm.n), nsign.ints(0, n)
		m.Normals = make([][3]float32, n)
		for i := range n {
			m.Normals[i] = unpackUnit(f[2*i], f[2*i+1], s[i])
		}
	}

	tan, tsign := readPacked(cm.Field("m_Tangents")), readPacked(cm.Field("m_TangentSigns"))
	if err := tan.check("m_Tangents"); err != nil {
		return err
	}
	if err := tsign.check("m_TangentSigns"); err != nil {
		return err
	}
	if tan.n > 0 {
		if tan.n != 2*n || tsign.n != 2*n {
			return fmt.Errorf("%w: %d tangent items and %d signs for %d vertices", ErrMalformed, tan.n, tsign.n, n)
		}
		f, s := tan.floats(0, tan.n), tsign.ints(0, 2*n)
		m.Tangents = make([][4]float32, n)
		for i := range n {
			t := unpackUnit(f[2*i], f[2*i+1], s[2*i])
			w := float32(1)
			if s[2*i+1] == 0 {
				w = -1
			}
			m.Tangents[i] = [4]float32{t[0], t[1], t[2], w}
		}
	}

	col := readPacked(cm.Field("m_FloatColors"))
	if err := col.check("m_FloatColors"); err != nil {
		return err
	}
	if col.n > 0 {
		if col.n != 4*n {
			return fmt.Errorf("%w: %d colour items for %d vertices", ErrMalformed, col.n, n)
		}
		f := col.floats(0, col.n)
		m.Colors = make([][4]float32, n)
		for i := range n {
			copy(m.Colors[i][:], f[4*i:])
		}
	}

	if err := readCompressedSkin(m, cm); err != nil {
		return err
	}

	tri := readPacked(cm.Field("m_Triangles"))
	if err := tri.check("m_Triangles"); err != nil {
		return err
	}
	m.Indices = tri.ints(0, tri.n)
	return nil
}

// unpackUnit rebuilds a unit vector from its x and y and the sign of z
// (sign 0: negative).
func unpackUnit(x, y float32, sign uint32) [3]float32 {
	zz := 1 - x*x - y*y
	var z float32
	if zz > 0 {
		z = float32(math.Sqrt(float64(zz)))
	} else {
		l := float32(math.Sqrt(float64(x*x + y*y)))
		if l > 0 {
			x, y = x/l, y/l
		}
	}
	if sign == 0 {
		z = -z
	}
	return [3]float32{x, y, z}
}

// readCompressedSkin decodes m_Weights and m_BoneIndices: per vertex, up
// to three weights in 31sts, each with a bone index; a vertex ends when its
// weights reach 31, or after the third, whose remainder goes to a fourth
// bone.
func readCompressedSkin(m *model.Mesh, cm *typetree.Value) error {
	wp, bp := readPacked(cm.Field("m_Weights")), readPacked(cm.Field("m_BoneIndices"))
	if err := wp.check("m_Weights"); err != nil {
		return err
	}
	if err := bp.check("m_BoneIndices"); err != nil {
		return err
	}
	if wp.n == 0 {
		return nil
	}
	w, b := wp.ints(0, wp.n), bp.ints(0, bp.n)
	n := m.VertexCount
	m.BoneWeights = make([][4]float32, n)
	m.BoneIndices = make([][4]uint16, n)
	vert, j, sum, bi := 0, 0, uint32(0), 0
	nextBone := func() (uint16, error) {
		if bi >= len(b) {
			return 0, fmt.Errorf("%w: m_BoneIndices: %d indices run out", ErrMalformed, len(b))
		}
		x := b[bi]
		bi++
		if x > 0xffff {
			return 0, fmt.Errorf("%w: m_BoneIndices: bone %d", ErrMalformed, x)
		}
		return uint16(x), nil
	}
	for _, x := range w {
		if vert >= n {
			return fmt.Errorf("%w: m_Weights: weights for more than %d vertices", ErrMalformed, n)
		}
		bone, err := nextBone()
		if err != nil {
			return err
		}
		m.BoneWeights[vert][j] = float32(x) / 31
		m.BoneIndices[vert][j] = bone
		j++
		sum += x
		switch {
		case sum >= 31:
			vert, j, sum = vert+1, 0, 0
		case j == 3:
			bone, err := nextBone()
			if err != nil {
				return err
			}
			m.BoneWeights[vert][3] = float32(31-sum) / 31
			m.BoneIndices[vert][3] = bone
			vert, j, sum = vert+1, 0, 0
		}
	}
	if vert != n || j != 0 {
		return fmt.Errorf("%w: m_Weights: weights for %d of %d vertices", ErrMalformed, vert, n)
	}
	return nil
}
