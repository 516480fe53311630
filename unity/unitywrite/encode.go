// Package unitywrite writes Unity files: objects encoded by a type tree,
// serialized files (format 22) and UnityFS bundles. The project uses it to
// generate its own example files and small test and fuzz inputs, so that
// nothing it ships is a copy of someone else's file. It writes what the
// readers in this module read; it is not a general asset-building tool.
package unitywrite

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/mecanim/mecanim/unity/typetree"
)

// Fields is a struct value: field name -> value. Missing fields encode as
// zero values, so a caller states only what matters.
type Fields map[string]any

// Encode serialises value by the type tree t in little-endian order.
//
// Values: Fields for structs; []any or typed slices ([]float32, []uint32,
// []int32, []byte, []Fields) for arrays; map pairs as [][2]any; numbers as
// any Go integer or float type; bool; string. A nil value is the zero value
// of its field.
func Encode(t *typetree.Tree, value any) ([]byte, error) {
	e := encoder{nodes: t.Nodes}
	if len(t.Nodes) == 0 {
		return nil, fmt.Errorf("empty type tree")
	}
	if _, err := e.node(0, value); err != nil {
		return nil, err
	}
	return e.buf, nil
}

type encoder struct {
	nodes []typetree.Node
	buf   []byte
}

// children returns the indexes of node i's direct children and the index
// after its subtree.
func (e *encoder) children(i int) ([]int, int) {
	lvl := e.nodes[i].Level
	var out []int
	j := i + 1
	for ; j < len(e.nodes) && e.nodes[j].Level > lvl; j++ {
		if e.nodes[j].Level == lvl+1 {
			out = append(out, j)
		}
	}
	return out, j
}

func (e *encoder) align() {
	for len(e.buf)%4 != 0 {
		e.buf = append(e.buf, 0)
	}
}

// node encodes value by node i and returns the index after its subtree.
func (e *encoder) node(i int, value any) (int, error) {
	n := &e.nodes[i]
	kids, end := e.children(i)
	var err error
	switch {
	case n.Type == "string" && len(kids) > 0:
		s, _ := value.(string)
		e.u32(uint32(len(s)))
		e.buf = append(e.buf, s...)
		// The Array child carries the alignment flag in most trees.
		if len(kids) == 1 && e.nodes[kids[0]].Aligned() {
			e.align()
		}
	case n.IsArray() || (len(kids) == 1 && e.nodes[kids[0]].IsArray() && isContainer(n.Type)):
		arr := i
		if !n.IsArray() {
			arr = kids[0]
		}
		err = e.array(arr, value)
		if arr != i && e.nodes[arr].Aligned() {
			e.align()
		}
	case n.Type == "TypelessData":
		b, _ := value.([]byte)
		e.u32(uint32(len(b)))
		e.buf = append(e.buf, b...)
	case len(kids) == 0:
		err = e.prim(n, value)
	default:
		f, _ := value.(Fields)
		for _, k := range kids {
			if _, err = e.node(k, f[e.nodes[k].Name]); err != nil {
				break
			}
		}
	}
	if err != nil {
		return end, fmt.Errorf("%s: %w", n.Name, err)
	}
	if n.Aligned() {
		e.align()
	}
	return end, nil
}

func isContainer(typ string) bool {
	switch typ {
	case "vector", "staticvector", "set", "map":
		return true
	}
	return false
}

// array encodes an Array node: its size then its elements.
func (e *encoder) array(i int, value any) error {
	kids, _ := e.children(i)
	if len(kids) != 2 {
		return fmt.Errorf("array node %q has %d children", e.nodes[i].Name, len(kids))
	}
	elem := kids[1]
	items := toSlice(value)
	e.u32(uint32(len(items)))
	for _, it := range items {
		if _, err := e.node(elem, it); err != nil {
			return err
		}
	}
	return nil
}

func toSlice(v any) []any {
	switch s := v.(type) {
	case nil:
		return nil
	case []any:
		return s
	case []Fields:
		out := make([]any, len(s))
		for i := range s {
			out[i] = s[i]
		}
		return out
	case []float32:
		out := make([]any, len(s))
		for i := range s {
			out[i] = s[i]
		}
		return out
	case []uint32:
		out := make([]any, len(s))
		for i := range s {
			out[i] = s[i]
		}
		return out
	case []int32:
		out := make([]any, len(s))
		for i := range s {
			out[i] = s[i]
		}
		return out
	case []byte:
		out := make([]any, len(s))
		for i := range s {
			out[i] = s[i]
		}
		return out
	case [][2]any:
		out := make([]any, len(s))
		for i := range s {
			out[i] = Fields{"first": s[i][0], "second": s[i][1]}
		}
		return out
	}
	return nil
}

func (e *encoder) u32(x uint32) { e.buf = binary.LittleEndian.AppendUint32(e.buf, x) }

func num(v any) (float64, int64, bool) {
	switch x := v.(type) {
	case nil:
		return 0, 0, true
	case bool:
		if x {
			return 1, 1, true
		}
		return 0, 0, true
	case int:
		return float64(x), int64(x), true
	case int8:
		return float64(x), int64(x), true
	case int16:
		return float64(x), int64(x), true
	case int32:
		return float64(x), int64(x), true
	case int64:
		return float64(x), x, true
	case uint8:
		return float64(x), int64(x), true
	case uint16:
		return float64(x), int64(x), true
	case uint32:
		return float64(x), int64(x), true
	case uint64:
		return float64(x), int64(x), true
	case float32:
		return float64(x), int64(x), true
	case float64:
		return x, int64(x), true
	}
	return 0, 0, false
}

func (e *encoder) prim(n *typetree.Node, v any) error {
	f, i, ok := num(v)
	if !ok {
		return fmt.Errorf("value %T for %s field", v, n.Type)
	}
	switch n.Type {
	case "float":
		e.u32(math.Float32bits(float32(f)))
	case "double":
		e.buf = binary.LittleEndian.AppendUint64(e.buf, math.Float64bits(f))
	default:
		switch n.ByteSize {
		case 1:
			e.buf = append(e.buf, byte(i))
		case 2:
			e.buf = binary.LittleEndian.AppendUint16(e.buf, uint16(i))
		case 4:
			e.u32(uint32(i))
		case 8:
			e.buf = binary.LittleEndian.AppendUint64(e.buf, uint64(i))
		default:
			return fmt.Errorf("primitive %s of %d bytes", n.Type, n.ByteSize)
		}
	}
	return nil
}
