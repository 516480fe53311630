// Package yamlasset reads the YAML text assets the Unity editor writes
// (.anim, .controller, .prefab, .asset, .meta) into the format-free model:
// clips, controllers, rigs, avatars and human descriptions.
//
// It has its own small parser for the subset of YAML 1.1 Unity writes
// (documents headed "--- !u!<classID> &<fileID>", block and flow
// collections, plain and quoted scalars); Parse gives a tree of Nodes per
// document, and the File methods convert the documents to the model. The
// editor form differs from the compiled (bundle) form: clips are keyframed
// curves by kind with text paths, controllers are graphs of objects that
// Controller flattens the way Unity compiles them.
package yamlasset

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// maxInput bounds what Parse reads (the largest editor assets are tens of
// megabytes).
const maxInput = 512 << 20

// Document is one YAML document of a Unity asset: usually one object.
type Document struct {
	// ClassID and FileID come from the "--- !u!<classID> &<fileID>" header
	// (both 0 for a document without one, such as a .meta file).
	ClassID  int32
	FileID   int64
	Stripped bool // the header ends in "stripped" (a prefab instance's stub)
	// Type is the object's class name (the root mapping's one key, such as
	// "AnimationClip"); empty for a document without a header.
	Type string
	// Root is the whole document; Body is the value under Type (Root for a
	// document without a header).
	Root, Body *Node
	Line       int // the header's line
}

// Name returns the object's m_Name ("" when it has none).
func (d *Document) Name() string {
	if n := d.Body.Get("m_Name"); n != nil && n.Kind == Scalar {
		return n.Value
	}
	return ""
}

// File is a parsed Unity YAML asset.
type File struct {
	Name string // as given to Parse (used in errors)
	Docs []*Document
	// Tags holds the %TAG directives: handle -> prefix.
	Tags map[string]string

	byID map[int64]*Document
	// guids lists the distinct asset GUIDs that references name, in order
	// of first appearance: the "externals" a Ref's FileID counts (1-based).
	guids  []string
	guidIx map[string]int
}

// ParseFile reads and parses the YAML asset at path.
func ParseFile(path string) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Parse(f, path)
}

// Parse reads a Unity YAML asset from r; name is used in error messages.
func Parse(r io.Reader, name string) (*File, error) {
	src, err := io.ReadAll(io.LimitReader(r, maxInput+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(src) > maxInput {
		return nil, fmt.Errorf("%s: larger than %d bytes", name, maxInput)
	}
	return parseBytes(src, name)
}

func parseBytes(src []byte, name string) (*File, error) {
	src = bytes.TrimPrefix(src, []byte("\xef\xbb\xbf"))
	p := &parser{src: src, s: string(src), name: name, lnNum: 1}
	f := &File{Name: name, Tags: map[string]string{}, byID: map[int64]*Document{}}
	for p.pos < len(src) {
		// At a line start, between documents.
		i := p.pos
		for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\r') {
			i++
		}
		if i >= len(src) {
			break
		}
		switch {
		case src[i] == '\n' || src[i] == '#':
			p.pos = p.skipLine(i)
			continue
		case i == p.pos && src[i] == '%':
			line := string(bytes.TrimRight(src[i:p.skipLine(i)], "\r\n"))
			if fs := strings.Fields(line); len(fs) == 3 && fs[0] == "%TAG" {
				f.Tags[fs[1]] = fs[2]
			}
			p.pos = p.skipLine(i)
			continue
		case i == p.pos && bytes.HasPrefix(src[i:], []byte("...")) && p.blankAt(i+3):
			p.pos = p.skipLine(i)
			continue
		}
		d := &Document{Line: p.lineAt(i)}
		if i == p.pos && bytes.HasPrefix(src[i:], []byte("---")) && p.blankAt(i+3) {
			if err := p.header(d, i+3); err != nil {
				return nil, err
			}
		}
		p.eod = false
		if _, err := p.nextContent(); err != nil {
			return nil, err
		}
		if p.eod {
			d.Root = &Node{Kind: Scalar, Line: d.Line}
		} else {
			n, err := p.blockNode(-1)
			if err != nil {
				return nil, err
			}
			if !p.eod {
				return nil, p.errf(p.pos, "unexpected text %q", clip(src[p.pos:]))
			}
			d.Root = n
		}
		d.Body = d.Root
		if d.Type != "" {
			d.Type = ""
			if d.Root.Kind == Mapping && len(d.Root.Keys) == 1 {
				d.Type, d.Body = d.Root.Keys[0], d.Root.Values[0]
			}
		}
		f.Docs = append(f.Docs, d)
		if d.ClassID != 0 || d.FileID != 0 {
			if _, dup := f.byID[d.FileID]; !dup {
				f.byID[d.FileID] = d
			}
		}
	}
	f.collectGUIDs()
	return f, nil
}

// header reads "--- !u!<classID> &<fileID> [stripped]" from i (after the
// dashes) and leaves pos at the next line.
func (p *parser) header(d *Document, i int) error {
	end := p.skipLine(i)
	fields := strings.Fields(string(p.src[i:end]))
	for _, fl := range fields {
		switch {
		case strings.HasPrefix(fl, "!u!") || strings.HasPrefix(fl, "!"):
			s := fl[strings.LastIndexByte(fl, '!')+1:]
			v, err := strconv.ParseInt(s, 10, 32)
			if err != nil {
				return p.errf(i, "bad class id in document header %q", fl)
			}
			d.ClassID = int32(v)
		case strings.HasPrefix(fl, "&"):
			v, err := strconv.ParseInt(fl[1:], 10, 64)
			if err != nil {
				return p.errf(i, "bad file id in document header %q", fl)
			}
			d.FileID = v
		case fl == "stripped":
			d.Stripped = true
		default:
			return p.errf(i, "unexpected %q in document header", fl)
		}
	}
	d.Type = "?" // marks a headed document; replaced by the root key
	p.pos = end
	return nil
}

// Object returns the document with the given file id, or nil.
func (f *File) Object(fileID int64) *Document { return f.byID[fileID] }

// ByClass returns the documents of a class, in file order.
func (f *File) ByClass(classID int32) []*Document {
	var out []*Document
	for _, d := range f.Docs {
		if d.ClassID == classID {
			out = append(out, d)
		}
	}
	return out
}

// GUIDs returns the distinct asset GUIDs the file's references name, in
// order of first appearance; a Ref made from a reference to GUIDs()[i] has
// FileID i+1 (like a serialized file's externals).
func (f *File) GUIDs() []string { return f.guids }

func (f *File) collectGUIDs() {
	f.guidIx = map[string]int{}
	var walk func(n *Node, depth int)
	walk = func(n *Node, depth int) {
		if n == nil || depth > maxDepth {
			return
		}
		switch n.Kind {
		case Mapping:
			if g := n.Get("guid"); g != nil && n.Get("fileID") != nil && g.Kind == Scalar {
				f.guidIndex(g.Value)
			}
			for _, v := range n.Values {
				walk(v, depth+1)
			}
		case Sequence:
			for _, v := range n.Items {
				walk(v, depth+1)
			}
		}
	}
	for _, d := range f.Docs {
		walk(d.Root, 0)
	}
}

// guidIndex returns the 1-based external index of a GUID, adding it.
func (f *File) guidIndex(g string) int {
	if i, ok := f.guidIx[g]; ok {
		return i
	}
	f.guids = append(f.guids, g)
	f.guidIx[g] = len(f.guids)
	return len(f.guids)
}
