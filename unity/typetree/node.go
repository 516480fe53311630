// Package typetree holds Unity's type trees (the self-description of a class's
// serialized layout) and the generic decoder that turns an object's bytes into
// an ordered tree of named values using one.
package typetree

// Meta flag bits of a node (Unity's m_MetaFlag).
const (
	// FlagAlign means the stream is aligned to 4 bytes after this node's value.
	FlagAlign = 0x4000
)

// Node is one field of a type tree. A tree is a pre-order list of nodes in
// which a node's children follow it with Level one greater.
type Node struct {
	Level     int    // depth; the root is 0
	Type      string // Unity type name: "int", "float", "string", "vector", "PPtr<Transform>", ...
	Name      string // field name: "m_Name", "Array", "data", ...
	ByteSize  int32  // fixed size in bytes, or -1 when variable
	Index     int32  // Unity's m_Index (position in the pre-order list)
	Flags     uint32 // Unity's m_MetaFlag; see FlagAlign
	Version   int32  // Unity's m_Version of the field's type
	TypeFlags uint8  // 1 = this node is an array
	// RefTypeHash is the m_RefTypeHash of serialized-file format 19+ (0 otherwise).
	RefTypeHash uint64
}

// Aligned reports whether the stream is aligned to 4 bytes after this node.
func (n *Node) Aligned() bool { return n.Flags&FlagAlign != 0 }

// IsArray reports whether the node is an array node.
func (n *Node) IsArray() bool { return n.TypeFlags&1 != 0 }

// Tree is the type tree of one class (or script type): its nodes in pre-order.
type Tree struct {
	Nodes []Node
}
