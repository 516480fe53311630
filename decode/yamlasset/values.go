package yamlasset

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"

	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
)

// FieldError is a value of a document that does not convert to what the
// model needs.
type FieldError struct {
	File   string
	Line   int
	Object string // the document's class name and file id
	Field  string
	Err    error
}

// Error describes the failure and where it happened.
func (e *FieldError) Error() string {
	return fmt.Sprintf("%s:%d: %s: %s: %v", e.File, e.Line, e.Object, e.Field, e.Err)
}

// Unwrap returns the underlying cause.
func (e *FieldError) Unwrap() error { return e.Err }

// PPtr is a YAML object reference: {fileID: n} names an object of the same
// file, {fileID: n, guid: g, type: t} one of another asset.
type PPtr struct {
	FileID int64
	GUID   string
	Type   int32
}

// IsNull reports whether p points at nothing.
func (p PPtr) IsNull() bool { return p.FileID == 0 && p.GUID == "" }

// Key is a stable text form of p: "fileID" or "guid:fileID".
func (p PPtr) Key() string {
	if p.GUID == "" {
		return strconv.FormatInt(p.FileID, 10)
	}
	return p.GUID + ":" + strconv.FormatInt(p.FileID, 10)
}

// dec converts one document's nodes, keeping the first error.
type dec struct {
	f   *File
	doc *Document
	err error
}

func (f *File) dec(d *Document) *dec { return &dec{f: f, doc: d} }

func (d *dec) fail(n *Node, field string, err error) {
	if d.err != nil {
		return
	}
	obj := "document"
	line := 0
	if d.doc != nil {
		obj = fmt.Sprintf("%s &%d", d.doc.Type, d.doc.FileID)
		line = d.doc.Line
	}
	if n != nil {
		line = n.Line
	}
	d.err = &FieldError{File: d.f.Name, Line: line, Object: obj, Field: field, Err: err}
}

// f32 reads n[key] as a float32; absent is 0.
func (d *dec) f32(n *Node, key string) float32 {
	v := n.Get(key)
	if v == nil {
		return 0
	}
	x, err := v.Float32()
	if err != nil {
		d.fail(v, key, err)
	}
	return x
}

// i64 reads n[key] as an integer; absent is 0.
func (d *dec) i64(n *Node, key string) int64 {
	v := n.Get(key)
	if v == nil || v.IsNull() {
		return 0
	}
	x, err := v.Int()
	if err != nil {
		d.fail(v, key, err)
	}
	return x
}

func (d *dec) i32(n *Node, key string) int32 { return int32(d.i64(n, key)) }

func (d *dec) bool(n *Node, key string) bool { return d.i64(n, key) != 0 }

// str reads n[key] as text; absent is "".
func (d *dec) str(n *Node, key string) string {
	v := n.Get(key)
	if v == nil {
		return ""
	}
	if v.Kind != Scalar {
		d.fail(v, key, fmt.Errorf("expected text, found a %s", v.Kind))
		return ""
	}
	return v.Value
}

// vec3 reads a {x, y, z} mapping.
func (d *dec) vec3(n *Node, key string) geom.Vec3 {
	v := n.Get(key)
	if v == nil {
		return geom.Vec3{}
	}
	if v.Kind != Mapping {
		d.fail(v, key, fmt.Errorf("expected {x, y, z}, found a %s", v.Kind))
		return geom.Vec3{}
	}
	return geom.Vec3{X: d.f32(v, "x"), Y: d.f32(v, "y"), Z: d.f32(v, "z")}
}

// quat reads a {x, y, z, w} mapping (absent is the identity).
func (d *dec) quat(n *Node, key string) geom.Quat {
	v := n.Get(key)
	if v == nil {
		return geom.Quat{W: 1}
	}
	if v.Kind != Mapping {
		d.fail(v, key, fmt.Errorf("expected {x, y, z, w}, found a %s", v.Kind))
		return geom.Quat{W: 1}
	}
	return geom.Quat{X: d.f32(v, "x"), Y: d.f32(v, "y"), Z: d.f32(v, "z"), W: d.f32(v, "w")}
}

// vec4 reads a {x, y, z, w} mapping as four floats (absent is zero).
func (d *dec) vec4(n *Node, key string) [4]float32 {
	v := n.Get(key)
	if v == nil {
		return [4]float32{}
	}
	if v.Kind != Mapping {
		d.fail(v, key, fmt.Errorf("expected {x, y, z, w}, found a %s", v.Kind))
		return [4]float32{}
	}
	return [4]float32{d.f32(v, "x"), d.f32(v, "y"), d.f32(v, "z"), d.f32(v, "w")}
}

// xform reads Unity's compiled transform {t, q, s}.
func (d *dec) xform(n *Node) geom.Transform {
	return geom.Transform{T: d.vec3(n, "t"), R: d.quat(n, "q"), S: d.vec3(n, "s")}
}

// pptr reads an object reference.
func (d *dec) pptr(n *Node, key string) PPtr {
	v := n.Get(key)
	if v == nil || v.IsNull() {
		return PPtr{}
	}
	if v.Kind != Mapping {
		d.fail(v, key, fmt.Errorf("expected {fileID: ...}, found a %s", v.Kind))
		return PPtr{}
	}
	return PPtr{FileID: d.i64(v, "fileID"), GUID: d.str(v, "guid"), Type: d.i32(v, "type")}
}

// ptr reads an object reference that is itself the node (a list item).
func (d *dec) ptr(v *Node) PPtr {
	if v == nil || v.IsNull() {
		return PPtr{}
	}
	if v.Kind != Mapping {
		d.fail(v, "", fmt.Errorf("expected {fileID: ...}, found a %s", v.Kind))
		return PPtr{}
	}
	return PPtr{FileID: d.i64(v, "fileID"), GUID: d.str(v, "guid"), Type: d.i32(v, "type")}
}

// ref converts a reference to a model.Ref: a reference into another asset
// gets that asset's 1-based place in File.GUIDs as its FileID.
func (d *dec) ref(p PPtr) model.Ref {
	if p.IsNull() {
		return model.Ref{}
	}
	r := model.Ref{PathID: p.FileID}
	if p.GUID != "" {
		r.FileID = int32(d.f.guidIx[p.GUID])
	}
	return r
}

// seq returns n[key]'s items; absent or empty ("[]") is none.
func (d *dec) seq(n *Node, key string) []*Node {
	v := n.Get(key)
	if v == nil || v.IsNull() {
		return nil
	}
	if v.Kind != Sequence {
		d.fail(v, key, fmt.Errorf("expected a list, found a %s", v.Kind))
		return nil
	}
	return v.Items
}

// hex32 reads an array of 32-bit little-endian words written as a hex
// string (Unity's YAML form of vector<int>/vector<unsigned> in compiled
// objects); a sequence of numbers is accepted as well.
func (d *dec) hex32(n *Node, key string) []uint32 {
	v := n.Get(key)
	if v == nil || v.IsNull() {
		return nil
	}
	if v.Kind == Sequence {
		out := make([]uint32, 0, len(v.Items))
		for _, it := range v.Items {
			x, err := it.Int()
			if err != nil {
				d.fail(it, key, err)
				return nil
			}
			out = append(out, uint32(x))
		}
		return out
	}
	b, err := v.Hex()
	if err != nil {
		d.fail(v, key, err)
		return nil
	}
	if len(b)%4 != 0 {
		d.fail(v, key, fmt.Errorf("hex array of %d bytes is not whole 32-bit words", len(b)))
		return nil
	}
	out := make([]uint32, len(b)/4)
	for i := range out {
		out[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return out
}

// ints reads a hex or list array of int32 as ints.
func (d *dec) ints(n *Node, key string) []int {
	w := d.hex32(n, key)
	if w == nil {
		return nil
	}
	out := make([]int, len(w))
	for i, x := range w {
		out[i] = int(int32(x))
	}
	return out
}

// floats reads a list of numbers (or a hex string of little-endian
// float32s, the compact form some versions write).
func (d *dec) floats(n *Node, key string) []float32 {
	if v := n.Get(key); v != nil && v.Kind == Scalar && !v.IsNull() {
		w := d.hex32(n, key)
		out := make([]float32, len(w))
		for i, x := range w {
			out[i] = math.Float32frombits(x)
		}
		return out
	}
	items := d.seq(n, key)
	out := make([]float32, 0, len(items))
	for _, it := range items {
		x, err := it.Float32()
		if err != nil {
			d.fail(it, key, err)
			return nil
		}
		out = append(out, x)
	}
	return out
}

// data unwraps Unity's OffsetPtr form ("data:") when present.
func data(n *Node) *Node {
	if v := n.Get("data"); v != nil {
		return v
	}
	return n
}
