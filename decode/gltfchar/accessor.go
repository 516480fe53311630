package gltfchar

import (
	"encoding/binary"
	"fmt"
	"math"

	qg "github.com/qmuntal/gltf"
)

// accKey names a decoded accessor in the cache: its index and whether it
// was read as floats or as integers.
type accKey struct {
	i    int
	ints bool
}

// compType is an accessor component type as the JSON states it.
type compType int

const (
	ctByte   compType = 5120
	ctUbyte  compType = 5121
	ctShort  compType = 5122
	ctUshort compType = 5123
	ctUint   compType = 5125
	ctFloat  compType = 5126
)

func (c compType) size() int {
	switch c {
	case ctByte, ctUbyte:
		return 1
	case ctShort, ctUshort:
		return 2
	case ctUint, ctFloat:
		return 4
	}
	return 0
}

// read returns component value i of p (at least size() bytes), normalised
// to [-1, 1] or [0, 1] when norm.
func (c compType) read(p []byte, norm bool) float32 {
	switch c {
	case ctByte:
		v := float32(int8(p[0]))
		if norm {
			return max(v/127, -1)
		}
		return v
	case ctUbyte:
		v := float32(p[0])
		if norm {
			return v / 255
		}
		return v
	case ctShort:
		v := float32(int16(binary.LittleEndian.Uint16(p)))
		if norm {
			return max(v/32767, -1)
		}
		return v
	case ctUshort:
		v := float32(binary.LittleEndian.Uint16(p))
		if norm {
			return v / 65535
		}
		return v
	case ctUint:
		return float32(binary.LittleEndian.Uint32(p))
	}
	return math.Float32frombits(binary.LittleEndian.Uint32(p))
}

func (c compType) readUint(p []byte) uint32 {
	switch c {
	case ctUbyte, ctByte:
		return uint32(p[0])
	case ctUshort, ctShort:
		return uint32(binary.LittleEndian.Uint16(p))
	}
	return binary.LittleEndian.Uint32(p)
}

// layout is where an accessor's elements lie.
type layout struct {
	ct       compType
	comps    int // components per element
	rows     int // rows per matrix column (comps for vectors)
	colBytes int // bytes from one column to the next (matrices pad columns to 4 bytes)
	elemSize int
}

func layoutOf(ct compType, t qg.AccessorType) layout {
	l := layout{ct: ct, comps: t.Components(), rows: t.Components()}
	cols := 1
	switch t {
	case qg.AccessorMat2:
		l.rows, cols = 2, 2
	case qg.AccessorMat3:
		l.rows, cols = 3, 3
	case qg.AccessorMat4:
		l.rows, cols = 4, 4
	}
	l.colBytes = l.rows * ct.size()
	if cols > 1 {
		l.colBytes = (l.colBytes + 3) &^ 3
	}
	l.elemSize = l.colBytes * cols
	return l
}

// at returns component k of the element at p.
func (l *layout) offset(k int) int {
	return (k/l.rows)*l.colBytes + (k%l.rows)*l.ct.size()
}

// floats decodes accessor i as float32 values, comps per element, checking
// that its type is one of types. Integer components become their values,
// normalised when the accessor says so.
func (d *decoder) floats(i int, types ...qg.AccessorType) ([]float32, int, error) {
	v, comps, err := d.accessor(i, false, types)
	if err != nil {
		return nil, 0, err
	}
	return v.([]float32), comps, nil
}

// uints decodes accessor i as unsigned integers (indices, joints); float
// components are refused.
func (d *decoder) uints(i int, types ...qg.AccessorType) ([]uint32, int, error) {
	v, comps, err := d.accessor(i, true, types)
	if err != nil {
		return nil, 0, err
	}
	return v.([]uint32), comps, nil
}

// accessor decodes accessor i (cached), bounds-checked against its buffer
// view and buffer, its sparse substitutions applied.
func (d *decoder) accessor(i int, ints bool, types []qg.AccessorType) (any, int, error) {
	elem := fmt.Sprintf("accessor %d", i)
	if i < 0 || i >= len(d.doc.Accessors) {
		return nil, 0, d.malformed(elem, "no such accessor (%d accessors)", len(d.doc.Accessors))
	}
	acc := d.doc.Accessors[i]
	if acc == nil {
		return nil, 0, d.malformed(elem, "null")
	}
	typeOK := len(types) == 0
	for _, t := range types {
		typeOK = typeOK || acc.Type == t
	}
	if !typeOK {
		return nil, 0, d.malformed(elem, "type %s where %v is expected", acc.Type, types)
	}
	ct := compType(d.raw.Accessors[i].ComponentType)
	if ct.size() == 0 {
		return nil, 0, d.malformed(elem, "componentType %d", int(ct))
	}
	if ints && ct == ctFloat {
		return nil, 0, d.malformed(elem, "float components where integers (indices or joints) are expected")
	}
	l := layoutOf(ct, acc.Type)
	if key := (accKey{i, ints}); d.accCache[key] != nil {
		return d.accCache[key], l.comps, nil
	}
	count := acc.Count
	if count < 0 {
		return nil, 0, d.malformed(elem, "count %d", count)
	}
	// Every value costs 4 bytes decoded; refuse what the file cannot hold.
	need := int64(count) * int64(l.comps) * 4
	if count > math.MaxInt32 || need > d.budget {
		return nil, 0, d.malformed(elem, "count %d × %d components is more than a file of this size can describe", count, l.comps)
	}
	d.budget -= need
	n := count * l.comps
	var fv []float32
	var uv []uint32
	if ints {
		uv = make([]uint32, n)
	} else {
		fv = make([]float32, n)
	}
	put := func(e int, p []byte) {
		for k := range l.comps {
			q := p[l.offset(k):]
			if ints {
				uv[e*l.comps+k] = ct.readUint(q)
			} else {
				fv[e*l.comps+k] = ct.read(q, acc.Normalized)
			}
		}
	}
	if acc.BufferView != nil {
		data, stride, err := d.view(elem, *acc.BufferView, acc.ByteOffset, count, l.elemSize, true)
		if err != nil {
			return nil, 0, err
		}
		for e := range count {
			put(e, data[e*stride:])
		}
	}
	if sp := acc.Sparse; sp != nil {
		if err := d.sparse(i, sp, count, l, put); err != nil {
			return nil, 0, err
		}
	}
	var out any = fv
	if ints {
		out = uv
	}
	d.accCache[accKey{i, ints}] = out
	return out, l.comps, nil
}

// view returns the bytes of count elements of elemSize bytes starting off
// bytes into buffer view v, and the stride between them; strided says
// whether the view's byteStride applies (sparse data is always packed).
func (d *decoder) view(elem string, v, off, count, elemSize int, strided bool) ([]byte, int, error) {
	if v < 0 || v >= len(d.doc.BufferViews) || d.doc.BufferViews[v] == nil {
		return nil, 0, d.malformed(elem, "buffer view %d does not exist (%d views)", v, len(d.doc.BufferViews))
	}
	bv := d.doc.BufferViews[v]
	velem := fmt.Sprintf("buffer view %d", v)
	buf, err := d.buffer(bv.Buffer)
	if err != nil {
		return nil, 0, within(velem, err)
	}
	if bv.ByteOffset < 0 || bv.ByteLength < 0 || int64(bv.ByteOffset)+int64(bv.ByteLength) > int64(len(buf)) {
		return nil, 0, d.malformed(velem, "bytes %d+%d past the end of buffer %d (%d bytes)", bv.ByteOffset, bv.ByteLength, bv.Buffer, len(buf))
	}
	data := buf[bv.ByteOffset : bv.ByteOffset+bv.ByteLength]
	stride := elemSize
	if strided && bv.ByteStride != 0 {
		if bv.ByteStride < elemSize {
			return nil, 0, d.malformed(velem, "byteStride %d is less than the %d-byte elements of %s", bv.ByteStride, elemSize, elem)
		}
		stride = bv.ByteStride
	}
	if off < 0 || off > len(data) {
		return nil, 0, d.malformed(elem, "byteOffset %d outside buffer view %d (%d bytes)", off, v, len(data))
	}
	data = data[off:]
	if count > 0 {
		// (count-1)·stride + elemSize ≤ len(data), without overflow.
		room := int64(len(data)) - int64(elemSize)
		if room < 0 || int64(count-1) > room/int64(stride) {
			return nil, 0, d.malformed(elem, "%d elements of %d bytes every %d bytes run past the end of buffer view %d (%d bytes from offset %d)",
				count, elemSize, stride, v, len(data), off)
		}
	}
	return data, stride, nil
}

// sparse applies an accessor's sparse substitutions through put.
func (d *decoder) sparse(i int, sp *qg.Sparse, count int, l layout, put func(int, []byte)) error {
	elem := fmt.Sprintf("accessor %d sparse", i)
	if sp.Count < 1 || sp.Count > count {
		return d.malformed(elem, "count %d for an accessor of %d elements", sp.Count, count)
	}
	ict := compType(d.raw.Accessors[i].Sparse.Indices.ComponentType)
	if ict != ctUbyte && ict != ctUshort && ict != ctUint {
		return d.malformed(elem, "indices componentType %d", int(ict))
	}
	idx, _, err := d.view(elem+" indices", sp.Indices.BufferView, sp.Indices.ByteOffset, sp.Count, ict.size(), false)
	if err != nil {
		return err
	}
	vals, _, err := d.view(elem+" values", sp.Values.BufferView, sp.Values.ByteOffset, sp.Count, l.elemSize, false)
	if err != nil {
		return err
	}
	prev := int64(-1)
	for k := range sp.Count {
		e := int64(ict.readUint(idx[k*ict.size():]))
		if e <= prev || e >= int64(count) {
			return d.malformed(elem, "index %d is %d (indices increase and stay below %d)", k, e, count)
		}
		prev = e
		put(int(e), vals[k*l.elemSize:])
	}
	return nil
}
