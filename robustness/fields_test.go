package robustness

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/mecanim/mecanim/unity/typetree"
)

// fieldKind says what a field of a file holds, and so how the sweep
// damages it.
type fieldKind int

const (
	// kindCount is an integer that says how many of something follow or
	// how big something is: set to ±1, 0, the largest positive and all ones.
	kindCount fieldKind = iota
	// kindHeader is any other integer of a container's header or
	// directory: damaged as kindCount.
	kindHeader
	// kindFloat is a float32 value: set to NaN, +Inf and -Inf.
	kindFloat
	// kindFileID is a PPtr's m_FileID, kindPathID its m_PathID: the
	// sweep points them elsewhere (see refCases).
	kindFileID
	kindPathID
	// kindIndex is an integer that indexes or identifies something (a
	// node, a bone, an axes entry, a class, a path hash): damaged as
	// kindCount, the results split by whether the new value may be
	// another valid one (±1, 0) or lies outside any range.
	kindIndex
	// kindHash is an integer that names something by a hash (a path, a
	// property, a state, a parameter): any value may be the hash of
	// some name, so no check can tell a changed one.
	kindHash
)

// field is one place of a file the sweep damages: its offset, width (1,
// 2, 4 or 8 bytes), byte order and kind, and a description for messages.
type field struct {
	off   int64
	width int
	big   bool
	kind  fieldKind
	group string // the damage kind it belongs to, for counting results
	what  string
	obj   *damagedObject // the object the field lies in, if any
	// pptr is, for kindPathID, the offset of the same PPtr's m_FileID.
	pptr int64
}

// get reads the field's value from b.
func (f field) get(b []byte) uint64 {
	p := b[f.off:]
	switch f.width {
	case 1:
		return uint64(p[0])
	case 2:
		if f.big {
			return uint64(binary.BigEndian.Uint16(p))
		}
		return uint64(binary.LittleEndian.Uint16(p))
	case 4:
		if f.big {
			return uint64(binary.BigEndian.Uint32(p))
		}
		return uint64(binary.LittleEndian.Uint32(p))
	default:
		if f.big {
			return binary.BigEndian.Uint64(p)
		}
		return binary.LittleEndian.Uint64(p)
	}
}

// set writes v (truncated to the field's width) into b.
func (f field) set(b []byte, v uint64) {
	p := b[f.off:]
	switch f.width {
	case 1:
		p[0] = byte(v)
	case 2:
		if f.big {
			binary.BigEndian.PutUint16(p, uint16(v))
		} else {
			binary.LittleEndian.PutUint16(p, uint16(v))
		}
	case 4:
		if f.big {
			binary.BigEndian.PutUint32(p, uint32(v))
		} else {
			binary.LittleEndian.PutUint32(p, uint32(v))
		}
	default:
		if f.big {
			binary.BigEndian.PutUint64(p, v)
		} else {
			binary.LittleEndian.PutUint64(p, v)
		}
	}
}

// damages returns the values the field is set to, each with its name: for
// integers one more, one less, zero, the largest positive and all ones
// (the values equal to the field's own left out); for floats NaN and the
// two infinities.
func (f field) damages(b []byte) (vals []uint64, names []string) {
	if f.kind == kindFloat {
		return []uint64{uint64(math.Float32bits(float32(math.NaN()))), uint64(math.Float32bits(float32(math.Inf(1)))), uint64(math.Float32bits(float32(math.Inf(-1))))},
			[]string{"NaN", "+Inf", "-Inf"}
	}
	v := f.get(b)
	mask := uint64(1)<<(8*f.width) - 1
	if f.width == 8 {
		mask = math.MaxUint64
	}
	cands := []struct {
		v    uint64
		name string
	}{
		{(v + 1) & mask, "+1"}, {(v - 1) & mask, "-1"}, {0, "0"}, {mask >> 1, "max"}, {mask, "all ones"},
	}
	for _, c := range cands {
		if c.v != v {
			vals = append(vals, c.v)
			names = append(names, fmt.Sprintf("%s (%d)", c.name, c.v))
		}
	}
	return vals, names
}

// treeWalker finds the fields of one object by walking its type tree over
// its bytes, as the type-tree decoder reads them, independently of it:
// array and string lengths, integer fields named as counts, sizes or
// offsets, and every float.
type treeWalker struct {
	nodes []typetree.Node
	data  []byte
	big   bool
	pos   int
	base  int64 // the object's offset in its file
	out   []field
	// streamed holds the offsets of a clip's StreamedClip words, whose
	// floats only the stream's own structure tells apart.
	streamed []int64
	// zeroPad makes a non-zero byte of alignment padding an error
	// (errPadding).
	zeroPad bool
	// pptr is set while the walk is inside a PPtr; fileID is the offset
	// of its m_FileID.
	pptr   bool
	fileID int64
}

// errPadding is a walk's error for alignment padding that is not zero.
var errPadding = errors.New("tree walk: non-zero alignment padding")

// paddingIsNonZero reports whether walking data by tree meets a non-zero
// byte of alignment padding (Unity writes zeros: all 128,174 padding bytes
// of the corpus's 8,727 walked objects are).
func paddingIsNonZero(tree *typetree.Tree, data []byte, big bool) bool {
	w := &treeWalker{nodes: tree.Nodes, data: data, big: big, zeroPad: true}
	_, err := w.node(0, "")
	return errors.Is(err, errPadding)
}

var errWalk = errors.New("tree walk: layout not followed")

// walkObject returns the fields of an object (data, at offset base of its
// file) laid out by tree; an error when the walk does not read the object
// to exactly its size (managed references, unknown layouts).
func walkObject(tree *typetree.Tree, data []byte, big bool, base int64) ([]field, error) {
	if tree == nil || len(tree.Nodes) == 0 {
		return nil, errWalk
	}
	w := &treeWalker{nodes: tree.Nodes, data: data, big: big, base: base}
	if _, err := w.node(0, tree.Nodes[0].Name); err != nil {
		return nil, err
	}
	if w.pos != len(data) {
		return nil, fmt.Errorf("%w: read %d of %d bytes", errWalk, w.pos, len(data))
	}
	return append(w.out, w.streamedFloats()...), nil
}

// streamedFloats returns the key values and coefficients of a streamed
// clip's words as float fields: each frame is a time, a key count, then
// per key a curve index, three coefficients and the value.
func (w *treeWalker) streamedFloats() []field {
	word := func(k int) uint32 {
		p := w.data[w.streamed[k]-w.base:]
		if w.big {
			return binary.BigEndian.Uint32(p)
		}
		return binary.LittleEndian.Uint32(p)
	}
	var out []field
	for k, frame := 0, 0; k+2 <= len(w.streamed); frame++ {
		n := int(word(k + 1))
		if n < 0 || k+2+5*n > len(w.streamed) {
			break
		}
		for j := 0; j < n; j++ {
			key := k + 2 + 5*j
			for c, what := range []string{"coefficient 0", "coefficient 1", "coefficient 2", "value"} {
				out = append(out, field{off: w.streamed[key+1+c], width: 4, big: w.big, kind: kindFloat,
					what: fmt.Sprintf("m_StreamedClip frame %d key %d (curve %d) %s", frame, j, word(key), what)})
			}
		}
		k += 2 + 5*n
	}
	return out
}

// children returns the indexes of node i's direct children.
func (w *treeWalker) children(i int) []int {
	lvl := w.nodes[i].Level
	var out []int
	for j := i + 1; j < len(w.nodes) && w.nodes[j].Level > lvl; j++ {
		if w.nodes[j].Level == lvl+1 {
			out = append(out, j)
		}
	}
	return out
}

func (w *treeWalker) align(a bool) error {
	if !a {
		return nil
	}
	p := (w.pos + 3) &^ 3
	if p > len(w.data) {
		return errWalk
	}
	for k := w.pos; w.zeroPad && k < p; k++ {
		if w.data[k] != 0 {
			return errPadding
		}
	}
	w.pos = p
	return nil
}

func (w *treeWalker) u32() (uint32, error) {
	if len(w.data)-w.pos < 4 {
		return 0, errWalk
	}
	var v uint32
	if w.big {
		v = binary.BigEndian.Uint32(w.data[w.pos:])
	} else {
		v = binary.LittleEndian.Uint32(w.data[w.pos:])
	}
	return v, nil
}

// isArray reports whether node i (with children kids) is an array: a size
// then elements.
func (w *treeWalker) isArray(i int, kids []int) bool {
	n := &w.nodes[i]
	return len(kids) == 2 && (n.IsArray() || n.Type == "TypelessData" || (n.Type == "Array" && n.Name == "Array"))
}

// node walks node i (its field path given) and returns whether its last
// step aligned.
func (w *treeWalker) node(i int, path string) (bool, error) {
	n := &w.nodes[i]
	kids := w.children(i)
	switch {
	case n.Type == "ReferencedObjectData" || n.Type == "ManagedReferencesRegistry":
		return false, errWalk
	case len(kids) == 0:
		sz := int(n.ByteSize)
		if sz != 1 && sz != 2 && sz != 4 && sz != 8 || len(w.data)-w.pos < sz {
			return false, errWalk
		}
		f := field{off: w.base + int64(w.pos), width: sz, big: w.big, what: path}
		switch {
		case sz == 4 && strings.Contains(path, "m_StreamedClip.data["):
			w.streamed = append(w.streamed, f.off)
		case n.Type == "float":
			f.kind = kindFloat
			w.out = append(w.out, f)
		case n.Name == "m_FileID" && w.pptr:
			f.kind = kindFileID
			w.fileID = f.off
			w.out = append(w.out, f)
		case n.Name == "m_PathID" && w.pptr:
			f.kind, f.pptr = kindPathID, w.fileID
			w.out = append(w.out, f)
		case n.Type != "double" && countName(n.Name):
			f.kind = kindCount
			w.out = append(w.out, f)
		case n.Type != "double" && n.Type != "bool" && hashName(path):
			f.kind = kindHash
			w.out = append(w.out, f)
		case n.Type != "double" && n.Type != "bool" && indexName(path):
			f.kind = kindIndex
			w.out = append(w.out, f)
		}
		w.pos += sz
	case w.isArray(i, kids):
		if err := w.array(i, kids, path, "length"); err != nil {
			return false, err
		}
	case len(kids) == 1 && w.isArray(kids[0], w.children(kids[0])):
		// string, vector, map, set: a wrapper around one array.
		what := "length"
		if n.Type == "string" {
			what = "string length"
		}
		if err := w.array(kids[0], w.children(kids[0]), path, what); err != nil {
			return false, err
		}
		if err := w.align(w.nodes[kids[0]].Aligned()); err != nil {
			return false, err
		}
	default:
		outer := w.pptr
		w.pptr = strings.HasPrefix(n.Type, "PPtr<") && len(kids) == 2
		for _, k := range kids {
			if _, err := w.node(k, path+"."+w.nodes[k].Name); err != nil {
				return false, err
			}
		}
		w.pptr = outer
	}
	return n.Aligned(), w.align(n.Aligned())
}

// array walks array node i: its length (a count field, described as
// what) and its elements.
func (w *treeWalker) array(i int, kids []int, path, what string) error {
	n, err := w.u32()
	if err != nil {
		return err
	}
	w.out = append(w.out, field{off: w.base + int64(w.pos), width: 4, big: w.big, kind: kindCount, what: path + " (" + what + ")"})
	w.pos += 4
	if int64(n) > int64(len(w.data)-w.pos) {
		return errWalk
	}
	elem := kids[1]
	for k := 0; k < int(n); k++ {
		if _, err := w.node(elem, fmt.Sprintf("%s[%d]", path, k)); err != nil {
			return err
		}
	}
	return nil
}

// indexName reports whether an integer field at path (an element of an
// array named so, or a field) indexes or identifies something: its name
// holds "index" or "ID", or names a class, a binding's attribute or path,
// a parent, axes or bone.
func indexName(path string) bool {
	name := path
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	if i := strings.IndexByte(name, '['); i >= 0 {
		name = name[:i]
	}
	l := strings.ToLower(name)
	if strings.Contains(l, "index") || strings.HasSuffix(name, "ID") || strings.HasSuffix(name, "Id") {
		return true
	}
	switch name {
	case "typeID", "classID", "attribute", "path", "m_ParentId", "m_AxesId", "boneIndex", "m_Destination", "m_DestinationState":
		return true
	}
	return false
}

// hashName reports whether an integer field at path holds a hash that
// names something outside the file's checks: a binding's path or
// property, a state's, a transition's or a parameter's name.
func hashName(path string) bool {
	name := path
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	if i := strings.IndexByte(name, '['); i >= 0 {
		name = name[:i]
	}
	switch name {
	case "path", "attribute", "m_NameID", "m_FullPathID", "m_EventID", "m_TagID", "m_SpeedParamID", "m_MirrorParamID",
		"m_CycleOffsetParamID", "m_TimeParamID", "m_BlendEventID", "m_BlendEventYID", "m_Binding", "m_UserID":
		return true
	case "m_PathID", "m_ID":
		// Outside a PPtr (handled before), a controller's state path
		// or parameter hash; an avatar skeleton's m_ID is checked
		// against its m_TOS.
		return !strings.Contains(path, "Skeleton")
	}
	return false
}

// countName reports whether an integer field's name says it counts or
// sizes something.
func countName(name string) bool {
	l := strings.ToLower(name)
	for _, s := range []string{"count", "size", "offset", "length", "num"} {
		if strings.Contains(l, s) {
			return true
		}
	}
	return false
}

// metaWalker finds the count and size fields of a serialized file's header
// and metadata (format 14 and later, as the corpus's 21 and 22), reading
// it independently of unity/serialized.
type metaWalker struct {
	b   []byte
	pos int
	big bool // metadata byte order
	v   uint32
	out []field
}

func (m *metaWalker) need(n int) error {
	if n < 0 || len(m.b)-m.pos < n {
		return errWalk
	}
	return nil
}

func (m *metaWalker) u(width int, kind fieldKind, what string) (uint64, error) {
	if err := m.need(width); err != nil {
		return 0, err
	}
	f := field{off: int64(m.pos), width: width, big: m.big, kind: kind, group: "metadata", what: what}
	v := f.get(m.b)
	if what != "" {
		m.out = append(m.out, f)
	}
	m.pos += width
	return v, nil
}

func (m *metaWalker) skip(n int) error {
	if err := m.need(n); err != nil {
		return err
	}
	m.pos += n
	return nil
}

func (m *metaWalker) cstr() error {
	for m.pos < len(m.b) {
		m.pos++
		if m.b[m.pos-1] == 0 {
			return nil
		}
	}
	return errWalk
}

func (m *metaWalker) align4(base int) { m.pos += (4 - (m.pos-base)%4) % 4 }

// serializedFields returns the header fields and the metadata's count and
// size fields of a serialized file of format 14 or later.
func serializedFields(b []byte) ([]field, error) {
	if len(b) < 48 {
		return nil, errWalk
	}
	be := binary.BigEndian
	v := be.Uint32(b[8:])
	var out []field
	hdr := func(off int64, width int, what string) {
		out = append(out, field{off: off, width: width, big: true, kind: kindHeader, group: "serialized header", what: what})
	}
	hs := 20
	hdr(8, 4, "header format version")
	hdr(16, 1, "header endianness")
	if v >= 22 {
		hs = 48
		hdr(20, 4, "header metadata size")
		hdr(24, 8, "header file size")
		hdr(32, 8, "header data offset")
	} else {
		hdr(0, 4, "header metadata size")
		hdr(4, 4, "header file size")
		hdr(12, 4, "header data offset")
	}
	if v < 14 {
		return nil, errWalk
	}
	m := &metaWalker{b: b, pos: hs, big: b[16] != 0, v: v}
	if err := m.cstr(); err != nil {
		return nil, err
	}
	m.u(4, kindHeader, "")
	tt, _ := m.u(1, kindHeader, "")
	readType := func(i int, ref bool) error {
		what := fmt.Sprintf("type %d", i)
		if ref {
			what = fmt.Sprintf("ref type %d", i)
		}
		class, err := m.u(4, kindHeader, "")
		if err != nil {
			return err
		}
		script := uint64(0xffff)
		if v >= 16 {
			m.u(1, kindHeader, "")
		}
		if v >= 17 {
			script, _ = m.u(2, kindHeader, "")
		}
		if (ref && int16(script) >= 0) || (v >= 16 && int32(class) == 114) {
			m.skip(16)
		}
		if err := m.skip(16); err != nil {
			return err
		}
		if tt != 0 {
			n, _ := m.u(4, kindCount, what+" type tree node count")
			s, err := m.u(4, kindCount, what+" type tree string buffer size")
			if err != nil {
				return err
			}
			nodeSize := 24
			if v >= 19 {
				nodeSize = 32
			}
			for k := 0; k < int(n); k++ {
				start := m.pos
				if err := m.skip(12); err != nil {
					return err
				}
				if k < 3 {
					m.u(4, kindCount, fmt.Sprintf("%s type tree node %d byte size", what, k))
				}
				m.pos = start + nodeSize
			}
			if err := m.skip(int(s)); err != nil {
				return err
			}
			if v >= 21 {
				if ref {
					for k := 0; k < 3; k++ {
						if err := m.cstr(); err != nil {
							return err
						}
					}
				} else {
					d, err := m.u(4, kindCount, what+" dependency count")
					if err != nil {
						return err
					}
					if err := m.skip(4 * int(d)); err != nil {
						return err
					}
				}
			}
		}
		return nil
	}
	nt, err := m.u(4, kindCount, "type count")
	if err != nil {
		return nil, err
	}
	for i := 0; i < int(nt); i++ {
		if err := readType(i, false); err != nil {
			return nil, err
		}
	}
	no, err := m.u(4, kindCount, "object count")
	if err != nil {
		return nil, err
	}
	for i := 0; i < int(no); i++ {
		m.align4(hs)
		m.u(8, kindHeader, "")
		what := fmt.Sprintf("object %d", i)
		if v >= 22 {
			m.u(8, kindCount, what+" offset")
		} else {
			m.u(4, kindCount, what+" offset")
		}
		m.u(4, kindCount, what+" size")
		// The type index is not damaged: another type that reads the
		// object's bytes makes a well-formed file of other content, told
		// apart only by decoding every object (as ls does).
		if _, err := m.u(4, kindHeader, ""); err != nil {
			return nil, err
		}
		if v < 17 {
			m.skip(2)
		}
		if v == 15 || v == 16 {
			m.skip(1)
		}
	}
	ns, err := m.u(4, kindCount, "script type count")
	if err != nil {
		return nil, err
	}
	for i := 0; i < int(ns); i++ {
		m.u(4, kindHeader, "")
		m.align4(hs)
		if err := m.skip(8); err != nil {
			return nil, err
		}
	}
	ne, err := m.u(4, kindCount, "external count")
	if err != nil {
		return nil, err
	}
	for i := 0; i < int(ne); i++ {
		m.cstr()
		m.skip(16)
		m.u(4, kindHeader, "")
		if err := m.cstr(); err != nil {
			return nil, err
		}
	}
	if v >= 20 {
		nr, err := m.u(4, kindCount, "ref type count")
		if err != nil {
			return nil, err
		}
		for i := 0; i < int(nr); i++ {
			if err := readType(i, true); err != nil {
				return nil, err
			}
		}
	}
	if err := m.cstr(); err != nil {
		return nil, err
	}
	for i := range m.out {
		m.out[i].what = "metadata: " + m.out[i].what
	}
	return append(out, m.out...), nil
}

// bundleEntry is one node of a bundle the sweep writes.
type bundleEntry struct {
	path  string
	data  []byte
	flags uint32
}

// writeBundle lays entries out as a UnityFS bundle of format 8 whose block
// info is stored uncompressed and whose data is stored in raw blocks of
// blockSize bytes, so that every field of its header and directory (and
// every byte of its entries) lies at a known offset of the file. It
// returns the bundle and those fields; the entries' offsets in the file are
// in starts.
func writeBundle(entries []bundleEntry, blockSize int) (out []byte, fields []field, starts []int64) {
	be := binary.BigEndian
	var stream []byte
	type node struct{ off, size int64 }
	var nodes []node
	for _, e := range entries {
		nodes = append(nodes, node{int64(len(stream)), int64(len(e.data))})
		stream = append(stream, e.data...)
	}
	nb := (len(stream) + blockSize - 1) / blockSize
	hdr := func(off int64, width int, group, what string) {
		fields = append(fields, field{off: off, width: width, big: true, kind: kindHeader, group: group, what: what})
	}
	out = append(out, "UnityFS\x00"...)
	hdr(int64(len(out)), 4, "bundle header", "bundle format version")
	out = be.AppendUint32(out, 8)
	out = append(out, "5.x.x\x00"...)
	out = append(out, "2022.3.9f1\x00"...)
	hdr(int64(len(out)), 8, "bundle header", "bundle total size")
	sizeAt := len(out)
	out = be.AppendUint64(out, 0)
	infoSize := 16 + 4 + nb*10 + 4
	for _, e := range entries {
		infoSize += 8 + 8 + 4 + len(e.path) + 1
	}
	hdr(int64(len(out)), 4, "bundle header", "bundle compressed block info size")
	out = be.AppendUint32(out, uint32(infoSize))
	hdr(int64(len(out)), 4, "bundle header", "bundle uncompressed block info size")
	out = be.AppendUint32(out, uint32(infoSize))
	hdr(int64(len(out)), 4, "bundle header", "bundle flags")
	out = be.AppendUint32(out, 0x40) // block info uncompressed, blocks and directory combined
	for len(out)%16 != 0 {
		out = append(out, 0)
	}
	out = append(out, make([]byte, 16)...)
	hdr(int64(len(out)), 4, "bundle directory", "bundle block count")
	out = be.AppendUint32(out, uint32(nb))
	for i := 0; i < nb; i++ {
		n := min(blockSize, len(stream)-i*blockSize)
		if i < 2 || i == nb-1 {
			hdr(int64(len(out)), 4, "bundle directory", fmt.Sprintf("bundle block %d uncompressed size", i))
			hdr(int64(len(out))+4, 4, "bundle directory", fmt.Sprintf("bundle block %d compressed size", i))
			hdr(int64(len(out))+8, 2, "bundle directory", fmt.Sprintf("bundle block %d flags", i))
		}
		out = be.AppendUint32(out, uint32(n))
		out = be.AppendUint32(out, uint32(n))
		out = be.AppendUint16(out, 0)
	}
	hdr(int64(len(out)), 4, "bundle directory", "bundle node count")
	out = be.AppendUint32(out, uint32(len(entries)))
	for i, e := range entries {
		hdr(int64(len(out)), 8, "bundle directory", fmt.Sprintf("bundle node %d (%s) offset", i, e.path))
		out = be.AppendUint64(out, uint64(nodes[i].off))
		hdr(int64(len(out)), 8, "bundle directory", fmt.Sprintf("bundle node %d (%s) size", i, e.path))
		out = be.AppendUint64(out, uint64(nodes[i].size))
		hdr(int64(len(out)), 4, "bundle directory", fmt.Sprintf("bundle node %d (%s) flags", i, e.path))
		out = be.AppendUint32(out, e.flags)
		out = append(out, e.path...)
		out = append(out, 0)
	}
	data := int64(len(out))
	out = append(out, stream...)
	be.PutUint64(out[sizeAt:], uint64(len(out)))
	for _, n := range nodes {
		starts = append(starts, data+n.off)
	}
	return out, fields, starts
}

// bundleHeaderFields returns the header fields of a UnityFS bundle as
// Unity writes it (before the block info, which is compressed).
func bundleHeaderFields(b []byte) []field {
	var out []field
	add := func(off, width int, what string) {
		out = append(out, field{off: int64(off), width: width, big: true, kind: kindHeader, group: "bundle header (LZMA)", what: what})
	}
	add(8, 4, "bundle format version")
	p := 12
	for k := 0; k < 2; k++ {
		for p < len(b) && b[p] != 0 {
			p++
		}
		p++
	}
	add(p, 8, "bundle total size")
	add(p+8, 4, "bundle compressed block info size")
	add(p+12, 4, "bundle uncompressed block info size")
	add(p+16, 4, "bundle flags")
	return out
}

// webDataFields returns the directory fields of a UnityWebData container
// and the offset and size of each entry by name.
func webDataFields(b []byte) (fields []field, entries map[string][2]int64) {
	le := binary.LittleEndian
	add := func(off, width int, what string) {
		fields = append(fields, field{off: int64(off), width: width, kind: kindHeader, group: "webdata directory", what: what})
	}
	entries = map[string][2]int64{}
	add(16, 4, "webdata header size")
	end := int(le.Uint32(b[16:]))
	for p := 20; p+12 <= end && p+12 <= len(b); {
		off, size, n := le.Uint32(b[p:]), le.Uint32(b[p+4:]), int(le.Uint32(b[p+8:]))
		name := string(b[p+12 : min(p+12+n, len(b))])
		add(p, 4, "webdata entry "+name+" offset")
		add(p+4, 4, "webdata entry "+name+" size")
		add(p+8, 4, "webdata entry "+name+" name length")
		entries[name] = [2]int64{int64(off), int64(size)}
		p += 12 + n
	}
	return fields, entries
}
