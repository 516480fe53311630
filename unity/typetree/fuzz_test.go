package typetree_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/unity/serialized"
	"github.com/mecanim/mecanim/unity/typetree"
	"github.com/mecanim/mecanim/unity/unityfs"
)

// fuzzTree is a corpus type tree with the options to decode with it.
type fuzzTree struct {
	layout *typetree.Layout
	opts   typetree.Options
}

// corpusSeeds opens a few corpus files with varied trees (a player level, a
// bundle with managed references, a bundle of animation clips) and returns
// their compiled trees and each object's bytes with its tree index.
func corpusSeeds(tb testing.TB) (trees []fuzzTree, objects [][]byte, treeOf []int) {
	dir, ok := corpustest.Lookup()
	if !ok {
		return nil, nil, nil
	}
	open := func(rel, member string) *serialized.File {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
		if err != nil {
			tb.Fatal(err)
		}
		var r io.ReaderAt = bytes.NewReader(b)
		size := int64(len(b))
		if member != "" {
			a, err := unityfs.Open(r, size)
			if err != nil {
				tb.Fatal(err)
			}
			i, ok := a.Node(member)
			if !ok {
				tb.Fatalf("%s has no %s", rel, member)
			}
			sr := a.NodeReader(i)
			r, size = sr, sr.Size()
		}
		f, err := serialized.Open(r, size, rel)
		if err != nil {
			tb.Fatal(err)
		}
		return f
	}
	files := []*serialized.File{
		open("unitydatatools/player-2022.1.20f1/level0", ""),
		open("unitydatatools/2020.3.0f1/assetbundle", "CAB-5d40f7cad7c871cf2ad2af19ac542994"),
		open("unitydatatools/2022.1.20f1/assetbundle", "CAB-5d40f7cad7c871cf2ad2af19ac542994"),
		open("lc-example-enemy/modassets", "CAB-56bc170c0adfb9e6046db070549a08a9"),
	}
	for _, f := range files {
		index := map[*typetree.Tree]int{}
		for k := range f.Objects {
			o := &f.Objects[k]
			t := f.TypeOf(o)
			l, err := f.Layout(t)
			if err != nil {
				continue
			}
			ti, ok := index[t.Tree]
			if !ok {
				ti = len(trees)
				index[t.Tree] = ti
				trees = append(trees, fuzzTree{l, f.DecodeOptions()})
			}
			if o.Size > 64<<10 {
				continue // large objects make slow seeds
			}
			b, err := f.ReadObject(o)
			if err != nil {
				tb.Fatal(err)
			}
			objects = append(objects, b)
			treeOf = append(treeOf, ti)
		}
	}
	return trees, objects, treeOf
}

// FuzzDecode decodes arbitrary bytes with every corpus type tree: decoding
// must fail cleanly or give a value that writes as valid JSON.
func FuzzDecode(f *testing.F) {
	trees, objects, treeOf := corpusSeeds(f)
	if len(trees) == 0 {
		f.Skip("corpus not found")
	}
	for i, b := range objects {
		f.Add(uint16(treeOf[i]), b)
	}
	f.Fuzz(func(t *testing.T, ti uint16, data []byte) {
		tr := trees[int(ti)%len(trees)]
		for _, order := range []binary.ByteOrder{binary.LittleEndian, binary.BigEndian} {
			v, err := tr.layout.DecodeWith(data, order, tr.opts)
			var te *typetree.TrailingError
			if err != nil && !errors.As(err, &te) {
				var de *typetree.DecodeError
				if !errors.As(err, &de) {
					t.Fatalf("error %v is not a *DecodeError", err)
				}
				continue
			}
			var buf bytes.Buffer
			if err := typetree.WriteJSON(&buf, v); err != nil {
				t.Fatal(err)
			}
			if !json.Valid(buf.Bytes()) {
				t.Fatalf("invalid JSON: %.300s", buf.String())
			}
		}
	})
}
