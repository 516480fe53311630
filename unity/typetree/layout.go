package typetree

import (
	"errors"
	"fmt"
	"strings"
)

// MaxDepth bounds the nesting depth of a type tree (and so the recursion of
// the decoder).
const MaxDepth = 128

// ErrBadTree is wrapped by errors about a malformed type tree.
var ErrBadTree = errors.New("malformed type tree")

// op says how a node's value is read.
type op uint8

const (
	opStruct     op = iota // children in order
	opPrim                 // a primitive scalar
	opString               // int32 length + bytes (a "string" node over an Array of char)
	opArray                // int32 count + elements (an array node: children size, data)
	opWrap                 // a node whose single child is an array (vector, map, set, staticvector…): the array, named for this node
	opBlob                 // unknown leaf of fixed size: raw bytes
	opUnknown              // unknown leaf of variable size: cannot be read without outside knowledge
	opRefData              // ReferencedObjectData: laid out by the managed-reference type named in its sibling "type"
	opRegistryV1           // ManagedReferencesRegistry version 1: objects repeat until a terminator type
)

// Prim is the kind of a primitive value.
type Prim uint8

// Primitive kinds, named for the Go type that holds them.
const (
	PrimNone Prim = iota
	PrimBool
	PrimInt8
	PrimUint8
	PrimInt16
	PrimUint16
	PrimInt32
	PrimUint32
	PrimInt64
	PrimUint64
	PrimFloat32
	PrimFloat64
)

// Size returns the encoded size of a primitive in bytes.
func (p Prim) Size() int {
	switch p {
	case PrimBool, PrimInt8, PrimUint8:
		return 1
	case PrimInt16, PrimUint16:
		return 2
	case PrimInt32, PrimUint32, PrimFloat32:
		return 4
	case PrimInt64, PrimUint64, PrimFloat64:
		return 8
	}
	return 0
}

// String returns the name of the value, as messages print it.
func (p Prim) String() string {
	return [...]string{"none", "bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float32", "float64"}[p]
}

// primOf maps Unity's primitive type names to kinds. byteSize disambiguates
// types whose width changed between versions.
func primOf(typ string, byteSize int32) Prim {
	switch typ {
	case "bool":
		return PrimBool
	case "SInt8":
		return PrimInt8
	case "UInt8", "char":
		return PrimUint8
	case "SInt16", "short":
		return PrimInt16
	case "UInt16", "unsigned short":
		return PrimUint16
	case "int", "SInt32":
		return PrimInt32
	case "unsigned int", "UInt32", "Type*":
		return PrimUint32
	case "SInt64", "long long":
		return PrimInt64
	case "UInt64", "unsigned long long":
		return PrimUint64
	case "float":
		return PrimFloat32
	case "double":
		return PrimFloat64
	case "FileSize":
		if byteSize == 4 {
			return PrimUint32
		}
		return PrimUint64
	case "EntityId":
		if byteSize == 8 {
			return PrimInt64
		}
		return PrimInt32
	}
	return PrimNone
}

// cnode is a node compiled for decoding.
type cnode struct {
	node     *Node
	op       op
	prim     Prim    // opPrim; for opArray/opWrap: the element primitive when packed
	align    bool    // align the stream to 4 after this node's value
	packed   bool    // opArray/opWrap: elements are unaligned primitives stored packed
	children []int32 // indices into Layout.nodes
	elem     int32   // opArray: the data child; opWrap: the array child
	minSize  int64   // smallest number of bytes the value can occupy
	synth    *Node   // opRegistryV1: the node of the synthesized RefIds array
	pptr     bool    // opStruct: a PPtr (m_FileID, m_PathID integers)
}

// Layout is a type tree compiled for decoding: built once per tree and
// reused for every object of that type. It is immutable and safe for
// concurrent use.
type Layout struct {
	tree  *Tree
	nodes []cnode
}

// Tree returns the tree the layout was compiled from.
func (l *Layout) Tree() *Tree { return l.tree }

// Compile checks t's structure (levels form a tree rooted at node 0, depth at
// most MaxDepth) and prepares it for decoding.
func Compile(t *Tree) (*Layout, error) {
	if t == nil || len(t.Nodes) == 0 {
		return nil, fmt.Errorf("%w: no nodes", ErrBadTree)
	}
	ns := t.Nodes
	if ns[0].Level != 0 {
		return nil, fmt.Errorf("%w: root node has level %d", ErrBadTree, ns[0].Level)
	}
	l := &Layout{tree: t, nodes: make([]cnode, len(ns))}
	// Children: a stack of open parents.
	stack := make([]int32, 0, 16)
	kids := make([]int32, len(ns)) // child counts
	for i := range ns {
		lv := ns[i].Level
		if lv > MaxDepth {
			return nil, fmt.Errorf("%w: node %d (%s) nested %d deep, limit %d", ErrBadTree, i, ns[i].Name, lv, MaxDepth)
		}
		if i > 0 && lv == 0 {
			return nil, fmt.Errorf("%w: node %d (%s) is a second root", ErrBadTree, i, ns[i].Name)
		}
		if lv > len(stack) {
			return nil, fmt.Errorf("%w: node %d (%s) at level %d skips a level", ErrBadTree, i, ns[i].Name, lv)
		}
		stack = stack[:lv]
		if lv > 0 {
			kids[stack[lv-1]]++
		}
		stack = append(stack, int32(i))
	}
	// Allocate all child lists from one backing array.
	all := make([]int32, 0, len(ns))
	for i := range ns {
		l.nodes[i].children = all[len(all) : len(all) : len(all)+int(kids[i])]
		all = all[:len(all)+int(kids[i])]
	}
	stack = stack[:0]
	for i := range ns {
		lv := ns[i].Level
		stack = stack[:lv]
		if lv > 0 {
			p := &l.nodes[stack[lv-1]]
			p.children = append(p.children, int32(i))
		}
		stack = append(stack, int32(i))
	}
	// Classify bottom-up (children have larger indices).
	for i := len(ns) - 1; i >= 0; i-- {
		l.classify(int32(i))
	}
	return l, nil
}

func (l *Layout) classify(i int32) {
	c := &l.nodes[i]
	n := &l.tree.Nodes[i]
	c.node = n
	c.align = n.Aligned()
	switch {
	case len(c.children) == 0 && n.Type == "ReferencedObjectData":
		c.op = opRefData
	case n.Type == "ManagedReferencesRegistry" && len(c.children) == 2 && l.tree.Nodes[c.children[1]].Type == "ReferencedObject":
		c.op, c.minSize = opRegistryV1, 4
		c.synth = &Node{Level: n.Level + 1, Type: "vector", Name: "RefIds", ByteSize: -1, Index: -1}
	case len(c.children) == 0 && n.Level == 0 && primOf(n.Type, n.ByteSize) == PrimNone:
		// An object whose class has no serialized fields (managers in
		// globalgamemanagers): an empty struct, not a blob.
		c.op = opStruct
	case len(c.children) == 0:
		if p := primOf(n.Type, n.ByteSize); p != PrimNone {
			c.op, c.prim, c.minSize = opPrim, p, int64(p.Size())
		} else if n.ByteSize >= 0 {
			c.op, c.minSize = opBlob, int64(n.ByteSize)
		} else {
			c.op = opUnknown
		}
	case (n.IsArray() || n.Type == "TypelessData" || (n.Type == "Array" && n.Name == "Array")) && len(c.children) == 2:
		c.op, c.elem, c.minSize = opArray, c.children[1], 4
		e := &l.nodes[c.elem]
		if e.op == opPrim && (!e.align || e.prim.Size()%4 == 0) {
			c.packed, c.prim = true, e.prim
		}
	case n.Type == "string" && len(c.children) == 1 && l.nodes[c.children[0]].op == opArray &&
		l.nodes[c.children[0]].packed && l.nodes[c.children[0]].prim.Size() == 1:
		c.op, c.minSize = opString, 4
		c.align = c.align || l.nodes[c.children[0]].align
	case len(c.children) == 1 && l.nodes[c.children[0]].op == opArray:
		a := &l.nodes[c.children[0]]
		c.op, c.elem, c.minSize = opWrap, c.children[0], 4
		c.packed, c.prim = a.packed, a.prim
	default:
		c.op = opStruct
		for _, k := range c.children {
			c.minSize += l.nodes[k].minSize
		}
		c.pptr = strings.HasPrefix(n.Type, "PPtr<") && len(c.children) == 2 &&
			l.tree.Nodes[c.children[0]].Name == "m_FileID" && l.nodes[c.children[0]].op == opPrim &&
			l.nodes[c.children[1]].op == opPrim
	}
}
