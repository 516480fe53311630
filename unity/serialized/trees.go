package serialized

import (
	"crypto/sha256"
	"encoding/binary"
	"sync"

	"github.com/mecanim/mecanim/unity/typetree"
)

// Trees is a set of type trees shared by the files opened with it. The
// bundles of one game embed the trees of the same classes again and again;
// files opened with one Trees hold each distinct tree, and its compiled
// layout, once for all of them, so what a game's open files hold grows with
// the number of distinct classes, not with the number of files. Safe for
// concurrent use. The zero value is not usable: call NewTrees.
type Trees struct {
	mu      sync.Mutex
	trees   map[[sha256.Size]byte]*typetree.Tree
	layouts map[*typetree.Tree]*typetree.Layout
}

// NewTrees returns an empty set of shared type trees.
func NewTrees() *Trees {
	return &Trees{trees: map[[sha256.Size]byte]*typetree.Tree{}, layouts: map[*typetree.Tree]*typetree.Layout{}}
}

// Len is the number of distinct trees held.
func (s *Trees) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.trees)
}

// treeKey identifies a flat type tree by everything its parse depends on:
// byte order, node size and the bytes of its nodes and strings (the common
// strings are the same for every file). A cryptographic hash, so that no
// crafted file can pass its tree off as another's.
func treeKey(order binary.ByteOrder, nodeSize int, nodes, strs []byte) [sha256.Size]byte {
	h := sha256.New()
	var head [13]byte
	if order == binary.BigEndian {
		head[0] = 1
	}
	binary.LittleEndian.PutUint32(head[1:], uint32(nodeSize))
	binary.LittleEndian.PutUint64(head[5:], uint64(len(nodes)))
	h.Write(head[:])
	h.Write(nodes)
	h.Write(strs)
	var k [sha256.Size]byte
	h.Sum(k[:0])
	return k
}

// tree returns the tree held for key, or nil.
func (s *Trees) tree(key [sha256.Size]byte) *typetree.Tree {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.trees[key]
}

// keep holds t for key, unless another file held one first, and returns
// the tree held.
func (s *Trees) keep(key [sha256.Size]byte, t *typetree.Tree) *typetree.Tree {
	s.mu.Lock()
	defer s.mu.Unlock()
	if held, ok := s.trees[key]; ok {
		return held
	}
	s.trees[key] = t
	return t
}

// layout compiles t once for every file that shares it.
func (s *Trees) layout(t *typetree.Tree) (*typetree.Layout, error) {
	s.mu.Lock()
	l, ok := s.layouts[t]
	s.mu.Unlock()
	if ok {
		return l, nil
	}
	l, err := typetree.Compile(t)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if held, ok := s.layouts[t]; ok {
		return held, nil
	}
	s.layouts[t] = l
	return l, nil
}
