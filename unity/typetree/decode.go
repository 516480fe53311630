package typetree

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrShort is wrapped when an object's bytes end before its type tree does.
var ErrShort = errors.New("data ends early")

// ErrUnknownLayout is wrapped when a field has a variable size but no
// children and no known primitive type (for example managed-reference data),
// so its bytes cannot be read from the tree alone.
var ErrUnknownLayout = errors.New("field layout unknown")

// ErrPadding is wrapped when the bytes that align the stream to 4 are not
// zero. Unity writes them as zeros (every padding byte of the corpus, from
// Unity 5 to 2023, is), so other bytes there mean the fields before were
// misread: a length or a layout that does not fit the data.
var ErrPadding = errors.New("alignment padding is not zero")

// DecodeError says which field failed, where and why.
type DecodeError struct {
	Path   string // field path from the root, e.g. "m_MuscleClip.m_Clip.data[3].x"
	Type   string // the field's Unity type
	Offset int    // byte offset within the object
	Err    error
}

// Error describes the failure and where it happened.
func (e *DecodeError) Error() string {
	return fmt.Sprintf("field %s (%s) at byte %d: %v", e.Path, e.Type, e.Offset, e.Err)
}

// Unwrap returns the cause.
func (e *DecodeError) Unwrap() error { return e.Err }

// TrailingError reports that decoding consumed fewer bytes than the object
// holds. Decode returns it (with the decoded value) so callers can check
// "reads the object to exactly its byte size".
type TrailingError struct {
	Consumed, Size int
}

// Error describes the failure and where it happened.
func (e *TrailingError) Error() string {
	return fmt.Sprintf("type tree consumed %d of the object's %d bytes", e.Consumed, e.Size)
}

// RefResolver returns the compiled layout of the managed-reference type
// (SerializeReference) named by class, namespace and assembly, or nil when
// unknown. A serialized file's RefTypes supply these.
type RefResolver func(class, namespace, assembly string) *Layout

// Options adjust decoding.
type Options struct {
	// RefTypes resolves managed-reference types, whose data
	// (ReferencedObjectData in a ManagedReferencesRegistry) is laid out by a
	// tree outside the object's own. Without it such data fails with
	// ErrUnknownLayout unless the reference is null.
	RefTypes RefResolver
	// CheckFileIDs makes every PPtr's m_FileID a place in the file's
	// externals table: 0 (this file) up to Externals. Any other value
	// points into no file (damage), and the decode fails with ErrFileID
	// naming the field, rather than a reference that silently leads
	// nowhere.
	CheckFileIDs bool
	// Externals is the size of the file's externals table (CheckFileIDs).
	Externals int
}

// ErrFileID is wrapped when a PPtr's m_FileID is outside the file's
// externals table: the reference names no file at all.
var ErrFileID = errors.New("PPtr m_FileID outside the file's externals table")

// maxRefDepth bounds nested managed-reference decoding.
const maxRefDepth = 8

// Decode decodes data with tree t in the given byte order, requiring that the
// tree consumes data exactly. When only the trailing-bytes check fails, it
// returns the value together with a *TrailingError.
func Decode(t *Tree, data []byte, order binary.ByteOrder) (*Value, error) {
	l, err := Compile(t)
	if err != nil {
		return nil, err
	}
	return l.Decode(data, order)
}

// Decode decodes data (one object's bytes) in the given byte order. It
// returns a *TrailingError, together with the value, when bytes remain after
// the root; any other error comes with a nil value.
func (l *Layout) Decode(data []byte, order binary.ByteOrder) (*Value, error) {
	return l.DecodeWith(data, order, Options{})
}

// DecodeWith is Decode with options.
func (l *Layout) DecodeWith(data []byte, order binary.ByteOrder, opt Options) (*Value, error) {
	v, n, err := l.decodePrefix(data, order, opt)
	if err != nil {
		return nil, err
	}
	if n != len(data) {
		return v, &TrailingError{Consumed: n, Size: len(data)}
	}
	return v, nil
}

// DecodePrefix decodes the root from the start of data and returns the number
// of bytes consumed (alignment padding included).
func (l *Layout) DecodePrefix(data []byte, order binary.ByteOrder, opt Options) (*Value, int, error) {
	return l.decodePrefix(data, order, opt)
}

func (l *Layout) decodePrefix(data []byte, order binary.ByteOrder, opt Options) (*Value, int, error) {
	d := decoder{l: l, data: data, big: order == binary.BigEndian, refs: opt.RefTypes,
		budget: valueBudget(len(data)), fileIDs: -1}
	if opt.CheckFileIDs {
		d.fileIDs = int64(opt.Externals)
	}
	v := new(Value)
	if err := d.value(0, v); err != nil {
		return nil, 0, err
	}
	return v, d.pos, nil
}

type decoder struct {
	l        *Layout
	data     []byte
	pos      int
	big      bool
	refs     RefResolver
	refDepth int
	budget   int // Values that may still be allocated
	slab     []Value
	fileIDs  int64 // largest valid m_FileID; -1: not checked
}

// valueBudget bounds the Values one decode may allocate: real objects hold
// below one Value per byte (packed arrays count once), so four per byte
// leaves room while keeping hostile trees (deep single-field chains, arrays
// of empty structs) from amplifying small inputs into huge allocations.
func valueBudget(dataLen int) int { return 4*dataLen + 4096 }

// alloc returns n zeroed Values carved from a slab, so that a decode makes
// a few large allocations instead of one per struct and array.
func (d *decoder) alloc(n int) []Value {
	if n > len(d.slab) {
		if n >= slabMax/2 {
			return make([]Value, n)
		}
		// Size the slab for what the remaining bytes are likely to hold
		// (real objects average well under one Value per byte).
		size := min(max((len(d.data)-d.pos)/slabBytesPerValue, slabMin), slabMax)
		d.slab = make([]Value, max(size, n))
	}
	s := d.slab[:n:n]
	d.slab = d.slab[n:]
	return s
}

// Slab sizes (in Values) for alloc.
const (
	slabMin           = 8
	slabMax           = 4096
	slabBytesPerValue = 4
)

// spend reserves n Values of the budget.
func (d *decoder) spend(n int) error {
	if n > d.budget {
		return fmt.Errorf("decoded value would exceed %d values for a %d-byte object", valueBudget(len(d.data)), len(d.data))
	}
	d.budget -= n
	return nil
}

// fail builds the error for node i; callers up the stack prefix their names.
func (d *decoder) fail(i int32, err error) error {
	n := d.l.nodes[i].node
	return &DecodeError{Path: n.Name, Type: n.Type, Offset: d.pos, Err: err}
}

// failIn is fail for an error inside array node i whose path the caller
// prefixes with the array's name: it leaves the path empty.
func (d *decoder) failIn(i int32, err error) error {
	n := d.l.nodes[i].node
	return &DecodeError{Path: "", Type: n.Type, Offset: d.pos, Err: err}
}

// within prefixes a child's error path with the parent's name (or an index).
func within(err error, prefix string) error {
	var de *DecodeError
	if errors.As(err, &de) {
		if de.Path == "" {
			de.Path = prefix
		} else if strings.HasPrefix(de.Path, "[") {
			de.Path = prefix + de.Path
		} else {
			de.Path = prefix + "." + de.Path
		}
	}
	return err
}

func (d *decoder) align(a bool) error {
	if !a {
		return nil
	}
	p := (d.pos + 3) &^ 3
	if p > len(d.data) {
		return ErrShort
	}
	for k := d.pos; k < p; k++ {
		if d.data[k] != 0 {
			return fmt.Errorf("%w: byte %d is 0x%02x", ErrPadding, k, d.data[k])
		}
	}
	d.pos = p
	return nil
}

func (d *decoder) count() (int, error) {
	if len(d.data)-d.pos < 4 {
		return 0, fmt.Errorf("%w: array size needs 4 bytes, %d remain", ErrShort, len(d.data)-d.pos)
	}
	var u uint32
	if d.big {
		u = binary.BigEndian.Uint32(d.data[d.pos:])
	} else {
		u = binary.LittleEndian.Uint32(d.data[d.pos:])
	}
	d.pos += 4
	n := int32(u)
	if n < 0 {
		return 0, fmt.Errorf("negative size %d", n)
	}
	return int(n), nil
}

// value decodes node i into v.
func (d *decoder) value(i int32, v *Value) error {
	c := &d.l.nodes[i]
	v.node = c.node
	switch c.op {
	case opPrim:
		sz := c.prim.Size()
		if len(d.data)-d.pos < sz {
			return d.fail(i, fmt.Errorf("%w: need %d bytes, %d remain", ErrShort, sz, len(d.data)-d.pos))
		}
		v.setPrim(c.prim, d.data[d.pos:], d.big)
		d.pos += sz
	case opString:
		n, err := d.count()
		if err != nil {
			return d.fail(i, fmt.Errorf("string length: %w", err))
		}
		if n > len(d.data)-d.pos {
			return d.fail(i, fmt.Errorf("%w: string of %d bytes, %d remain", ErrShort, n, len(d.data)-d.pos))
		}
		v.kind = KindString
		v.str = string(d.data[d.pos : d.pos+n])
		d.pos += n
	case opArray:
		if err := d.array(i, c, v); err != nil {
			return within(err, c.node.Name)
		}
	case opWrap:
		a := &d.l.nodes[c.elem]
		if err := d.array(c.elem, a, v); err != nil {
			return within(err, c.node.Name)
		}
		v.node = c.node
		if err := d.align(a.align); err != nil {
			return d.fail(i, err)
		}
	case opStruct:
		v.kind = KindStruct
		if len(c.children) > 0 {
			if err := d.spend(len(c.children)); err != nil {
				return d.fail(i, err)
			}
			v.elems = d.alloc(len(c.children))
			for k, ch := range c.children {
				var err error
				if d.l.nodes[ch].op == opRefData {
					err = d.refData(ch, &v.elems[k], v.elems[:k])
				} else {
					err = d.value(ch, &v.elems[k])
				}
				if err != nil {
					return within(err, c.node.Name)
				}
			}
			if c.pptr && d.fileIDs >= 0 {
				if id := v.elems[0].Int(); id < 0 || id > d.fileIDs {
					return d.fail(i, fmt.Errorf("%w: m_FileID %d (m_PathID %d), the file has %d externals", ErrFileID, id, v.elems[1].Int(), d.fileIDs))
				}
			}
		}
	case opRefData:
		// Outside a ReferencedObject (no sibling "type"): nothing to go by.
		if err := d.refData(i, v, nil); err != nil {
			return err
		}
	case opRegistryV1:
		if err := d.registryV1(i, c, v); err != nil {
			return within(err, c.node.Name)
		}
	case opBlob:
		n := int(c.node.ByteSize)
		if n > len(d.data)-d.pos {
			return d.fail(i, fmt.Errorf("%w: need %d bytes, %d remain", ErrShort, n, len(d.data)-d.pos))
		}
		v.kind = KindBlob
		v.raw = d.data[d.pos : d.pos+n : d.pos+n]
		d.pos += n
	default:
		return d.fail(i, fmt.Errorf("%w: type %q has variable size and no children", ErrUnknownLayout, c.node.Type))
	}
	if err := d.align(c.align); err != nil {
		return d.fail(i, err)
	}
	return nil
}

// array decodes array node i (children: size, data) into v.
func (d *decoder) array(i int32, c *cnode, v *Value) error {
	n, err := d.count()
	if err != nil {
		return d.failIn(i, err)
	}
	e := &d.l.nodes[c.elem]
	v.kind = KindArray
	v.elem = e.node
	rem := len(d.data) - d.pos
	if c.packed {
		sz := c.prim.Size()
		if int64(n)*int64(sz) > int64(rem) {
			return d.failIn(i, fmt.Errorf("%w: %d elements of %d bytes, %d bytes remain", ErrShort, n, sz, rem))
		}
		v.prim, v.big = c.prim, d.big
		v.raw = d.data[d.pos : d.pos+n*sz : d.pos+n*sz]
		d.pos += n * sz
		return nil
	}
	min := e.minSize
	if min < 1 {
		min = 1
	}
	if int64(n)*min > int64(rem) {
		return d.failIn(i, fmt.Errorf("%w: %d elements of at least %d bytes, %d bytes remain", ErrShort, n, min, rem))
	}
	if n > 0 {
		if err := d.spend(n); err != nil {
			return d.failIn(i, err)
		}
		v.elems = d.alloc(n)
		for k := range v.elems {
			if err := d.value(c.elem, &v.elems[k]); err != nil {
				return elemErr(err, k)
			}
		}
	}
	return nil
}

// elemErr replaces the element node's name ("data") at the start of a
// failed element's path with its index.
func elemErr(err error, k int) error {
	var de *DecodeError
	if errors.As(err, &de) {
		rest := de.Path
		if j := strings.IndexAny(rest, ".["); j >= 0 {
			rest = rest[j:]
		} else {
			rest = ""
		}
		de.Path = "[" + strconv.Itoa(k) + "]" + rest
	}
	return err
}

// Terminator of a version 1 ManagedReferencesRegistry.
const (
	terminusClass = "Terminus"
	terminusNS    = "UnityEngine.DMAT"
	terminusAsm   = "FAKE_ASM"
)

// refTypeName reads class, namespace and assembly from a decoded
// ReferencedManagedType among the given siblings.
func refTypeName(siblings []Value) (class, ns, asm string) {
	for k := range siblings {
		if siblings[k].node.Name == "type" {
			t := &siblings[k]
			return t.Field("class").Str(), t.Field("ns").Str(), t.Field("asm").Str()
		}
	}
	return "", "", ""
}

// isTerminus reports whether a managed type name is the version 1 terminator.
func isTerminus(class, ns, asm string) bool {
	return class == terminusClass && ns == terminusNS && asm == terminusAsm
}

// refData decodes ReferencedObjectData node i with the managed-reference
// type named by the sibling "type" field. The value is a struct holding the
// referenced type's fields.
func (d *decoder) refData(i int32, v *Value, siblings []Value) error {
	c := &d.l.nodes[i]
	v.node = c.node
	v.kind = KindStruct
	class, ns, asm := refTypeName(siblings)
	if class == "" || isTerminus(class, ns, asm) {
		return nil // null reference or terminator: no data
	}
	var rl *Layout
	if d.refs != nil {
		rl = d.refs(class, ns, asm)
	}
	if rl == nil {
		return d.fail(i, fmt.Errorf("%w: managed reference type %s (namespace %q, assembly %s) is not among the file's ref types", ErrUnknownLayout, class, ns, asm))
	}
	if d.refDepth >= maxRefDepth {
		return d.fail(i, fmt.Errorf("managed references nested deeper than %d", maxRefDepth))
	}
	sub := decoder{l: rl, data: d.data, pos: d.pos, big: d.big, refs: d.refs, refDepth: d.refDepth + 1, budget: d.budget}
	var inner Value
	if err := sub.value(0, &inner); err != nil {
		return within(err, c.node.Name)
	}
	d.pos, d.budget = sub.pos, sub.budget
	if inner.kind == KindStruct {
		v.elems = inner.elems
	} else {
		// A root that is not a struct: keep it as the only field.
		v.elems = []Value{inner}
	}
	return nil
}

// registryV1 decodes a version 1 ManagedReferencesRegistry: the version,
// then ReferencedObjects (type, data) repeated until the terminator type.
// The value is a struct {version, RefIds: [ReferencedObject ...]} like the
// version 2 layout (the terminator included as the last element).
func (d *decoder) registryV1(i int32, c *cnode, v *Value) error {
	v.kind = KindStruct
	if err := d.spend(2); err != nil {
		return d.fail(i, err)
	}
	v.elems = d.alloc(2)
	if err := d.value(c.children[0], &v.elems[0]); err != nil {
		return err
	}
	objNode := c.children[1]
	arr := &v.elems[1]
	arr.node, arr.kind, arr.elem = c.synth, KindArray, d.l.nodes[objNode].node
	start := d.pos
	for {
		if err := d.spend(1); err != nil {
			return d.fail(i, err)
		}
		var o Value
		if err := d.value(objNode, &o); err != nil {
			return elemErr(err, len(arr.elems))
		}
		arr.elems = append(arr.elems, o)
		if class, ns, asm := refTypeName(o.elems); isTerminus(class, ns, asm) {
			return nil
		}
		if d.pos == start {
			// No progress (a degenerate tree): stop rather than loop forever.
			return d.fail(i, fmt.Errorf("managed reference registry entry reads no bytes"))
		}
		start = d.pos
	}
}
