package boundfile

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"
	"reflect"
	"slices"
	"unsafe"
)

// The payload encodes Go values by their types, field by field: booleans
// as a byte, integers as (zigzag) varints, floats as their bits (so NaN
// and -0 survive), strings and slices as a length then the elements (a
// slice's length is stored plus one, 0 standing for nil), pointers as a
// presence byte then the value, maps as a slice of entries in key order,
// structs as their fields in order. A slice of structs made only of 4-byte
// numbers (vectors, quaternions, transforms, keyframes) is stored as those
// numbers, little-endian, and read back in one pass.

// maxDepth bounds how deeply values nest while decoding.
const maxDepth = 64

// codec encodes and decodes values of one type.
type codec struct {
	t    reflect.Type
	kind reflect.Kind
	min  int // bytes the smallest encoding takes (at least 1 for slice elements)
	// flat is, for a struct or array of only 4-byte numbers, how many it
	// holds (0 otherwise).
	flat   int
	elem   *codec   // slice, array, pointer, map value
	key    *codec   // map key
	fields []*codec // struct
}

// words is how many 4-byte numbers a value of c's type is made of: 1 for
// a float32, int32 or uint32, flat for a flat struct or array, 0 for any
// other.
func (c *codec) words() int {
	switch c.kind {
	case reflect.Float32, reflect.Int32, reflect.Uint32:
		return 1
	}
	return c.flat
}

// codecs builds the codecs of a type graph once per call of Write or Read
// (no state outlives it).
type codecs map[reflect.Type]*codec

func (cs codecs) of(t reflect.Type) (*codec, error) {
	if c, ok := cs[t]; ok {
		return c, nil
	}
	c := &codec{t: t, kind: t.Kind()}
	cs[t] = c
	var err error
	switch c.kind {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.String:
		c.min = 1
	case reflect.Float32:
		c.min = 4
	case reflect.Float64:
		c.min = 8
	case reflect.Slice, reflect.Pointer, reflect.Map:
		c.min = 1
		if c.elem, err = cs.of(t.Elem()); err != nil {
			return nil, err
		}
		if c.kind == reflect.Map {
			if c.key, err = cs.of(t.Key()); err != nil {
				return nil, err
			}
			switch c.key.kind {
			case reflect.String, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
				reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			default:
				return nil, fmt.Errorf("boundfile: %v: map keys of kind %v", t, c.key.kind)
			}
		}
	case reflect.Array:
		if c.elem, err = cs.of(t.Elem()); err != nil {
			return nil, err
		}
		c.min = t.Len() * c.elem.min
		if w := c.elem.words(); w > 0 {
			c.flat = t.Len() * w
		}
	case reflect.Struct:
		flat := 0
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if !f.IsExported() {
				return nil, fmt.Errorf("boundfile: %v.%s is unexported", t, f.Name)
			}
			fc, err := cs.of(f.Type)
			if err != nil {
				return nil, err
			}
			c.fields = append(c.fields, fc)
			c.min += fc.min
			if w := fc.words(); w > 0 && flat >= 0 {
				flat += w
			} else {
				flat = -1
			}
		}
		if flat > 0 && uintptr(flat)*4 == t.Size() {
			c.flat = flat
		}
	default:
		return nil, fmt.Errorf("boundfile: %v: values of kind %v are not saved", t, c.kind)
	}
	return c, nil
}

// schema hashes the shape of a type graph: kinds, names and field names.
// A file records the hash of the types it was written from; a build whose
// types differ refuses it rather than misreading it.
func schema(t reflect.Type) uint64 {
	h := fnv.New64a()
	seen := map[reflect.Type]int{}
	var walk func(reflect.Type)
	walk = func(t reflect.Type) {
		if n, ok := seen[t]; ok {
			fmt.Fprintf(h, "@%d;", n)
			return
		}
		seen[t] = len(seen)
		fmt.Fprintf(h, "%s:%v", t.Name(), t.Kind())
		switch t.Kind() {
		case reflect.Slice, reflect.Pointer:
			walk(t.Elem())
		case reflect.Array:
			fmt.Fprintf(h, "[%d]", t.Len())
			walk(t.Elem())
		case reflect.Map:
			walk(t.Key())
			walk(t.Elem())
		case reflect.Struct:
			fmt.Fprintf(h, "{%d", t.NumField())
			for i := 0; i < t.NumField(); i++ {
				fmt.Fprintf(h, ",%s ", t.Field(i).Name)
				walk(t.Field(i).Type)
			}
			h.Write([]byte("}"))
		}
		h.Write([]byte(";"))
	}
	walk(t)
	return h.Sum64()
}

// encoder appends values to a buffer.
type encoder struct {
	b []byte
}

func (e *encoder) uvarint(v uint64) { e.b = binary.AppendUvarint(e.b, v) }

func (e *encoder) value(c *codec, v reflect.Value) {
	switch c.kind {
	case reflect.Bool:
		if v.Bool() {
			e.b = append(e.b, 1)
		} else {
			e.b = append(e.b, 0)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		e.b = binary.AppendVarint(e.b, v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		e.uvarint(v.Uint())
	case reflect.Float32:
		e.b = binary.LittleEndian.AppendUint32(e.b, math.Float32bits(float32(v.Float())))
	case reflect.Float64:
		e.b = binary.LittleEndian.AppendUint64(e.b, math.Float64bits(v.Float()))
	case reflect.String:
		s := v.String()
		e.uvarint(uint64(len(s)))
		e.b = append(e.b, s...)
	case reflect.Pointer:
		if v.IsNil() {
			e.b = append(e.b, 0)
			return
		}
		e.b = append(e.b, 1)
		e.value(c.elem, v.Elem())
	case reflect.Slice:
		if v.IsNil() {
			e.b = append(e.b, 0)
			return
		}
		n := v.Len()
		e.uvarint(uint64(n) + 1)
		switch {
		case c.elem.words() > 0:
			e.words(v.UnsafePointer(), n*c.elem.words())
		case c.elem.kind == reflect.Uint8:
			e.b = append(e.b, v.Bytes()...)
		default:
			for i := 0; i < n; i++ {
				e.value(c.elem, v.Index(i))
			}
		}
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			e.value(c.elem, v.Index(i))
		}
	case reflect.Map:
		if v.IsNil() {
			e.b = append(e.b, 0)
			return
		}
		keys := v.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int { return compareKeys(c.key.kind, a, b) })
		e.uvarint(uint64(len(keys)) + 1)
		for _, k := range keys {
			e.value(c.key, k)
			e.value(c.elem, v.MapIndex(k))
		}
	case reflect.Struct:
		for i, f := range c.fields {
			e.value(f, v.Field(i))
		}
	}
}

// words appends n 4-byte numbers starting at p, little-endian.
func (e *encoder) words(p unsafe.Pointer, n int) {
	if n == 0 {
		return
	}
	for _, w := range unsafe.Slice((*uint32)(p), n) {
		e.b = binary.LittleEndian.AppendUint32(e.b, w)
	}
}

func compareKeys(k reflect.Kind, a, b reflect.Value) int {
	switch k {
	case reflect.String:
		return cmp.Compare(a.String(), b.String())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return cmp.Compare(a.Int(), b.Int())
	}
	return cmp.Compare(a.Uint(), b.Uint())
}

// decoder reads values from a payload, recording the first error with its
// offset (then reading nothing more).
type decoder struct {
	b     []byte
	off   int
	base  int // offset of b in the file, for errors
	err   error
	depth int
}

func (d *decoder) fail(format string, args ...any) {
	if d.err == nil {
		d.err = &FormatError{Offset: int64(d.base + d.off), Detail: fmt.Sprintf(format, args...)}
	}
}

func (d *decoder) left() int { return len(d.b) - d.off }

func (d *decoder) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b[d.off:])
	if n <= 0 {
		d.fail("bad unsigned integer")
		return 0
	}
	d.off += n
	return v
}

func (d *decoder) varint() int64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Varint(d.b[d.off:])
	if n <= 0 {
		d.fail("bad integer")
		return 0
	}
	d.off += n
	return v
}

func (d *decoder) take(n int) []byte {
	if d.err != nil {
		return nil
	}
	if d.left() < n {
		d.fail("cut short: %d bytes wanted, %d left", n, d.left())
		return nil
	}
	p := d.b[d.off : d.off+n]
	d.off += n
	return p
}

// count reads a length of items of at least min bytes each; lengths the
// remaining bytes cannot hold are damage, so no length allocates more than
// the file describes. plusOne says 0 stands for nil.
func (d *decoder) count(min int, plusOne bool, what string) (n int, isNil bool) {
	v := d.uvarint()
	if d.err != nil {
		return 0, true
	}
	if plusOne {
		if v == 0 {
			return 0, true
		}
		v--
	}
	if v > uint64(d.left()/max(min, 1)) {
		d.fail("%d %s in %d bytes", v, what, d.left())
		return 0, true
	}
	return int(v), false
}

func (d *decoder) value(c *codec, v reflect.Value) {
	if d.err != nil {
		return
	}
	switch c.kind {
	case reflect.Bool:
		switch b := d.take(1); {
		case b == nil:
		case b[0] > 1:
			d.off--
			d.fail("bool %d", b[0])
		default:
			v.SetBool(b[0] == 1)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		x := d.varint()
		if v.OverflowInt(x) {
			d.fail("%d overflows %v", x, c.t)
			return
		}
		v.SetInt(x)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		x := d.uvarint()
		if v.OverflowUint(x) {
			d.fail("%d overflows %v", x, c.t)
			return
		}
		v.SetUint(x)
	case reflect.Float32:
		if b := d.take(4); b != nil {
			v.SetFloat(float64(math.Float32frombits(binary.LittleEndian.Uint32(b))))
		}
	case reflect.Float64:
		if b := d.take(8); b != nil {
			v.SetFloat(math.Float64frombits(binary.LittleEndian.Uint64(b)))
		}
	case reflect.String:
		n, _ := d.count(1, false, "string bytes")
		if b := d.take(n); b != nil {
			v.SetString(string(b))
		}
	case reflect.Pointer:
		switch b := d.take(1); {
		case b == nil:
		case b[0] == 0:
		case b[0] == 1:
			if d.enter() {
				p := reflect.New(c.elem.t)
				d.value(c.elem, p.Elem())
				v.Set(p)
				d.depth--
			}
		default:
			d.off--
			d.fail("pointer flag %d", b[0])
		}
	case reflect.Slice:
		n, isNil := d.count(c.elem.min, true, "elements")
		if isNil || !d.enter() {
			return
		}
		defer func() { d.depth-- }()
		s := reflect.MakeSlice(c.t, n, n)
		switch {
		case n == 0:
		case c.elem.words() > 0:
			d.words(s.UnsafePointer(), n*c.elem.words())
		case c.elem.kind == reflect.Uint8:
			if b := d.take(n); b != nil {
				copy(s.Bytes(), b)
			}
		default:
			for i := 0; i < n && d.err == nil; i++ {
				d.value(c.elem, s.Index(i))
			}
		}
		v.Set(s)
	case reflect.Array:
		for i := 0; i < v.Len() && d.err == nil; i++ {
			d.value(c.elem, v.Index(i))
		}
	case reflect.Map:
		n, isNil := d.count(c.key.min+c.elem.min, true, "map entries")
		if isNil || !d.enter() {
			return
		}
		defer func() { d.depth-- }()
		m := reflect.MakeMapWithSize(c.t, n)
		var prev reflect.Value
		for i := 0; i < n && d.err == nil; i++ {
			start := d.off
			k := reflect.New(c.key.t).Elem()
			d.value(c.key, k)
			if d.err == nil && i > 0 && compareKeys(c.key.kind, prev, k) >= 0 {
				d.off = start
				d.fail("map keys out of order")
				return
			}
			e := reflect.New(c.elem.t).Elem()
			d.value(c.elem, e)
			m.SetMapIndex(k, e)
			prev = k
		}
		v.Set(m)
	case reflect.Struct:
		for i, f := range c.fields {
			d.value(f, v.Field(i))
		}
	}
}

func (d *decoder) enter() bool {
	if d.depth >= maxDepth {
		d.fail("values nested deeper than %d", maxDepth)
		return false
	}
	d.depth++
	return true
}

// words reads n 4-byte numbers into memory at p (a slice the decoder just
// made of elements made only of 4-byte numbers).
func (d *decoder) words(p unsafe.Pointer, n int) {
	b := d.take(4 * n)
	if b == nil {
		return
	}
	w := unsafe.Slice((*uint32)(p), n)
	for i := range w {
		w[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
}
