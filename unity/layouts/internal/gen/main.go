// Command gen turns the shared release-layout dump (layouts-dedup.json.gz, see
// ../shared/typetrees/README.md) into layouts.bin, the compact table that
// package layouts embeds. It is run by go generate in unity/layouts.
//
// Format (all integers unsigned LEB128 varints unless noted; "s" marks signed
// zig-zag varints), the whole stream then compressed with compress/flate at
// best compression:
//
//	magic "MLAYOUT1"
//	nStrings, then per string: len, bytes (type and field names, class names, versions)
//	nClasses, then per class (sorted by class id):
//	    id, nameString, nLayouts,
//	    per layout: nNodes, nBytes (of the node records that follow), node records
//	nVersions, then per version (sorted by unityversion.Compare):
//	    versionString, then per class (in the order above): layoutIndex+1, 0 when absent
//
// A node record is: level, typeString, nameString, s byteSize, flags,
// s version, typeFlags. A node's Index is its position in the layout, so it is
// not stored.
package main

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"slices"
	"strconv"

	"github.com/mecanim/mecanim/unity/unityversion"
)

type node struct {
	Level     uint64 `json:"level"`
	Type      string `json:"type"`
	Name      string `json:"name"`
	ByteSize  int64  `json:"byteSize"`
	Flags     uint64 `json:"flags"`
	Version   int64  `json:"version"`
	TypeFlags uint64 `json:"typeFlags"`
}

type dump struct {
	Classes  map[string]string         `json:"classes"`
	Layouts  map[string][][]node       `json:"layouts"`
	Versions map[string]map[string]int `json:"versions"`
	Source   map[string]any            `json:"source"`
}

func main() {
	in := flag.String("in", "../../../shared/typetrees/layouts-dedup.json.gz", "the layout dump")
	out := flag.String("out", "layouts.bin", "the table to write")
	flag.Parse()
	if err := run(*in, *out); err != nil {
		log.Fatal(err)
	}
}

// readDump reads and decodes the gzipped JSON dump.
func readDump(in string) (*dump, error) {
	f, err := os.Open(in)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", in, err)
	}
	var d dump
	if err := json.NewDecoder(zr).Decode(&d); err != nil {
		return nil, fmt.Errorf("%s: %w", in, err)
	}
	return &d, nil
}

func run(in, out string) error {
	d, err := readDump(in)
	if err != nil {
		return err
	}
	raw, err := encode(d)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	fw, err := flate.NewWriter(&buf, flate.BestCompression)
	if err != nil {
		return err
	}
	if _, err := fw.Write(raw); err != nil {
		return err
	}
	if err := fw.Close(); err != nil {
		return err
	}
	log.Printf("%d classes, %d versions: %d bytes raw, %d compressed", len(d.Layouts), len(d.Versions), len(raw), buf.Len())
	return os.WriteFile(out, buf.Bytes(), 0o644)
}

type encoder struct {
	strs  []string
	index map[string]int
}

func (e *encoder) str(s string) uint64 {
	if i, ok := e.index[s]; ok {
		return uint64(i)
	}
	e.index[s] = len(e.strs)
	e.strs = append(e.strs, s)
	return uint64(len(e.strs) - 1)
}

func encode(d *dump) ([]byte, error) {
	e := &encoder{index: map[string]int{}}
	// Class ids: those with layouts (93 is abstract and has none).
	var ids []int
	for k := range d.Layouts {
		id, err := strconv.Atoi(k)
		if err != nil {
			return nil, fmt.Errorf("class id %q: %w", k, err)
		}
		ids = append(ids, id)
	}
	slices.Sort(ids)
	type ver struct {
		v unityversion.Version
		s string
	}
	var vers []ver
	for s := range d.Versions {
		v, err := unityversion.Parse(s)
		if err != nil {
			return nil, err
		}
		if v.String() != s {
			return nil, fmt.Errorf("version %q formats back as %q", s, v)
		}
		vers = append(vers, ver{v, s})
	}
	slices.SortFunc(vers, func(a, b ver) int { return unityversion.Compare(a.v, b.v) })
	for i := 1; i < len(vers); i++ {
		if unityversion.Compare(vers[i-1].v, vers[i].v) == 0 {
			return nil, fmt.Errorf("versions %q and %q compare equal", vers[i-1].s, vers[i].s)
		}
	}

	var body []byte
	u := func(x uint64) { body = binary.AppendUvarint(body, x) }
	u(uint64(len(ids)))
	for _, id := range ids {
		k := strconv.Itoa(id)
		// The class name is its layouts' root type (the dump's names carry
		// notes such as "AvatarMask(pre-5.6.0b3 ID)").
		if _, ok := d.Classes[k]; !ok {
			return nil, fmt.Errorf("class %d has layouts but no name", id)
		}
		name := ""
		for li, l := range d.Layouts[k] {
			if len(l) == 0 {
				return nil, fmt.Errorf("class %d layout %d is empty", id, li)
			}
			if li > 0 && l[0].Type != name {
				return nil, fmt.Errorf("class %d: root types %q and %q differ", id, name, l[0].Type)
			}
			name = l[0].Type
		}
		u(uint64(id))
		u(e.str(name))
		u(uint64(len(d.Layouts[k])))
		for li, l := range d.Layouts[k] {
			var rec []byte
			for ni, n := range l {
				if ni == 0 && n.Level != 0 || ni > 0 && (n.Level == 0 || n.Level > l[ni-1].Level+1) {
					return nil, fmt.Errorf("class %d layout %d node %d: level %d out of pre-order", id, li, ni, n.Level)
				}
				rec = binary.AppendUvarint(rec, n.Level)
				rec = binary.AppendUvarint(rec, e.str(n.Type))
				rec = binary.AppendUvarint(rec, e.str(n.Name))
				rec = binary.AppendVarint(rec, n.ByteSize)
				rec = binary.AppendUvarint(rec, n.Flags)
				rec = binary.AppendVarint(rec, n.Version)
				rec = binary.AppendUvarint(rec, n.TypeFlags)
			}
			u(uint64(len(l)))
			u(uint64(len(rec)))
			body = append(body, rec...)
		}
	}
	u(uint64(len(vers)))
	for _, v := range vers {
		u(e.str(v.s))
		m := d.Versions[v.s]
		for k := range m {
			if _, ok := d.Layouts[k]; !ok {
				return nil, fmt.Errorf("version %s names class %s without layouts", v.s, k)
			}
		}
		for _, id := range ids {
			k := strconv.Itoa(id)
			li, ok := m[k]
			if !ok {
				u(0)
				continue
			}
			if li < 0 || li >= len(d.Layouts[k]) {
				return nil, fmt.Errorf("version %s class %d: layout %d out of range", v.s, id, li)
			}
			u(uint64(li) + 1)
		}
	}

	out := []byte("MLAYOUT1")
	out = binary.AppendUvarint(out, uint64(len(e.strs)))
	for _, x := range e.strs {
		out = binary.AppendUvarint(out, uint64(len(x)))
		out = append(out, x...)
	}
	return append(out, body...), nil
}
