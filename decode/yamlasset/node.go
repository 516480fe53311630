package yamlasset

import (
	"encoding/hex"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Kind is what a Node is.
type Kind uint8

// Node kinds.
const (
	// Scalar is a text value (plain or quoted); an absent value ("key:"
	// with nothing after it) is an empty plain Scalar.
	Scalar Kind = iota
	// Mapping is an ordered list of keys with their values.
	Mapping
	// Sequence is a list of items.
	Sequence
)

// String returns the name of the value, as messages print it.
func (k Kind) String() string {
	switch k {
	case Scalar:
		return "scalar"
	case Mapping:
		return "mapping"
	case Sequence:
		return "sequence"
	}
	return "unknown"
}

// Node is one node of a YAML document: a scalar, a mapping (keys in file
// order) or a sequence. Unity's YAML has no anchors, aliases or tags below
// the document header, so a document is a plain tree.
type Node struct {
	Kind Kind
	// Line is the 1-based line the node starts on.
	Line int
	// Value is a scalar's text, after unescaping and line folding.
	Value string
	// Quoted is true for a single- or double-quoted scalar.
	Quoted bool
	// Keys and Values are a mapping's entries, in file order.
	Keys   []string
	Values []*Node
	// Items are a sequence's items.
	Items []*Node
}

// Get returns the value of key in a mapping, or nil when n is nil, not a
// mapping, or lacks the key. When a key repeats, the first wins.
func (n *Node) Get(key string) *Node {
	if n == nil || n.Kind != Mapping {
		return nil
	}
	for i, k := range n.Keys {
		if k == key {
			return n.Values[i]
		}
	}
	return nil
}

// Path follows keys through nested mappings (nil when any step is missing).
func (n *Node) Path(keys ...string) *Node {
	for _, k := range keys {
		n = n.Get(k)
	}
	return n
}

// Len returns the number of items of a sequence or entries of a mapping (0
// for a scalar or nil).
func (n *Node) Len() int {
	if n == nil {
		return 0
	}
	switch n.Kind {
	case Sequence:
		return len(n.Items)
	case Mapping:
		return len(n.Keys)
	}
	return 0
}

// IsNull reports whether n is absent or an empty plain scalar.
func (n *Node) IsNull() bool {
	return n == nil || (n.Kind == Scalar && !n.Quoted && n.Value == "")
}

// Float parses a scalar as a float64 (Unity writes "Infinity", "-Infinity"
// and "NaN" for the non-finite values; YAML's ".inf" and ".nan" are accepted
// too).
func (n *Node) Float() (float64, error) {
	if n == nil || n.Kind != Scalar {
		return 0, fmt.Errorf("line %d: expected a number, found %s", n.line(), n.kindName())
	}
	return parseFloat(n.Value, 64)
}

// Float32 parses a scalar as a float32, rounding as Unity's reader does.
func (n *Node) Float32() (float32, error) {
	if n == nil || n.Kind != Scalar {
		return 0, fmt.Errorf("line %d: expected a number, found %s", n.line(), n.kindName())
	}
	f, err := parseFloat(n.Value, 32)
	if err != nil {
		return 0, fmt.Errorf("line %d: %w", n.Line, err)
	}
	return float32(f), nil
}

// Int parses a scalar as a signed 64-bit integer.
func (n *Node) Int() (int64, error) {
	if n == nil || n.Kind != Scalar {
		return 0, fmt.Errorf("line %d: expected an integer, found %s", n.line(), n.kindName())
	}
	v, err := strconv.ParseInt(strings.TrimSpace(n.Value), 10, 64)
	if err != nil {
		// Hashes are written unsigned; accept the full uint64 range too.
		u, uerr := strconv.ParseUint(strings.TrimSpace(n.Value), 10, 64)
		if uerr != nil {
			return 0, fmt.Errorf("line %d: %q is not an integer", n.Line, n.Value)
		}
		return int64(u), nil
	}
	return v, nil
}

// Hex decodes a scalar written as a hex string (Unity's form for arrays of
// numbers in some objects). An empty scalar is an empty array.
func (n *Node) Hex() ([]byte, error) {
	if n == nil || n.Kind != Scalar {
		return nil, fmt.Errorf("line %d: expected a hex string, found %s", n.line(), n.kindName())
	}
	s := strings.TrimSpace(n.Value)
	b, err := hex.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("line %d: bad hex string: %w", n.Line, err)
	}
	return b, nil
}

func (n *Node) line() int {
	if n == nil {
		return 0
	}
	return n.Line
}

func (n *Node) kindName() string {
	if n == nil {
		return "nothing"
	}
	return n.Kind.String()
}

func parseFloat(s string, bits int) (float64, error) {
	s = strings.TrimSpace(s)
	switch s {
	case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF":
		return math.Inf(1), nil
	case "-.inf", "-.Inf", "-.INF":
		return math.Inf(-1), nil
	case ".nan", ".NaN", ".NAN":
		return math.NaN(), nil
	}
	f, err := strconv.ParseFloat(s, bits)
	if err != nil {
		// A value past float32's range still parses as ±Inf with ErrRange.
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return f, nil
		}
		return 0, fmt.Errorf("%q is not a number", s)
	}
	return f, nil
}
