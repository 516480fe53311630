// Package layouts holds Unity's release class layouts (type trees) for the
// classes mecanim reads, for every Unity version from 5.0.0f4 to 6000.7.0a1
// that was dumped, so that serialized files whose type trees are stripped (most
// game builds) can still be decoded.
//
// The table is generated from ../shared/typetrees/layouts-dedup.json.gz by
// internal/gen (go generate) into layouts.bin, a flate-compressed varint
// encoding with a deduplicated string table, embedded in the binary. It is
// decoded once on first use; each distinct layout's Tree is built on first
// use and shared afterwards. Everything is immutable after that, so all
// functions are safe for concurrent use. Trees returned are shared: callers
// must not modify them.
package layouts

//go:generate go run ./internal/gen -in ../../../shared/typetrees/layouts-dedup.json.gz -out layouts.bin

import (
	"bytes"
	"compress/flate"
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sort"
	"sync"

	"github.com/mecanim/mecanim/unity/typetree"
	"github.com/mecanim/mecanim/unity/unityversion"
)

//go:embed layouts.bin
var embedded []byte

// Errors wrapped by Lookup and friends.
var (
	// ErrUnknownClass means the class is not in the table at all.
	ErrUnknownClass = errors.New("class not in the built-in layouts")
	// ErrNoVersion means no dumped version matches the requested one under the
	// lookup rule (none in the same major.minor at or below it), or the class
	// did not exist in the matched version.
	ErrNoVersion = errors.New("no built-in layout for this Unity version")
	// ErrCorrupt means the embedded table failed to decode (a build problem).
	ErrCorrupt = errors.New("corrupt built-in layout table")
)

// EmbeddedSize is the size in bytes of the compressed table in the binary.
func EmbeddedSize() int { return len(embedded) }

// table is the decoded form of layouts.bin. It is immutable once built,
// except for each layout's lazily built tree, which is guarded by its Once.
type table struct {
	classes  []class // sorted by id
	versions []unityversion.Version
	names    []string // per version, the string as dumped
	// use[v*len(classes)+c] is the layout index of class c in version v, or -1.
	use []int16
	raw []byte   // the inflated table; layout records point into it
	str []string // the string table
}

type class struct {
	id      int32
	name    string
	layouts []*layout
}

type layout struct {
	nodes int
	rec   []byte // the node records
	once  sync.Once
	tree  *typetree.Tree
	err   error

	compileOnce sync.Once
	compiled    *typetree.Layout
	compileErr  error
}

var (
	loadOnce sync.Once
	loaded   *table
	loadErr  error
)

// load decodes the embedded table once.
func load() (*table, error) {
	loadOnce.Do(func() { loaded, loadErr = decode(embedded) })
	return loaded, loadErr
}

// reader reads unsigned varints from the inflated table, recording the first error.
type reader struct {
	b   []byte
	pos int
	err error
}

func (r *reader) fail(what string) {
	if r.err == nil {
		r.err = fmt.Errorf("%w: %s at offset %d", ErrCorrupt, what, r.pos)
	}
}

func (r *reader) u(what string) uint64 {
	if r.err != nil {
		return 0
	}
	x, n := binary.Uvarint(r.b[r.pos:])
	if n <= 0 {
		r.fail(what)
		return 0
	}
	r.pos += n
	return x
}

func (r *reader) s(what string) int64 {
	if r.err != nil {
		return 0
	}
	x, n := binary.Varint(r.b[r.pos:])
	if n <= 0 {
		r.fail(what)
		return 0
	}
	r.pos += n
	return x
}

// count reads a count of items each at least minSize bytes long, checking it
// against the remaining bytes before anything is allocated.
func (r *reader) count(minSize int, what string) int {
	n := r.u(what)
	if r.err == nil && n > uint64((len(r.b)-r.pos)/minSize) {
		r.fail(fmt.Sprintf("%s %d exceeds the remaining data", what, n))
		return 0
	}
	return int(n)
}

func (r *reader) take(n int, what string) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || n > len(r.b)-r.pos {
		r.fail(what)
		return nil
	}
	b := r.b[r.pos : r.pos+n : r.pos+n]
	r.pos += n
	return b
}

func (r *reader) strIndex(t *table, what string) string {
	i := r.u(what)
	if r.err == nil && i >= uint64(len(t.str)) {
		r.fail(fmt.Sprintf("%s: string %d out of range", what, i))
	}
	if r.err != nil {
		return ""
	}
	return t.str[i]
}

const magic = "MLAYOUT1"

// maxInflated bounds the inflated table; inflatedHint is a little above its
// actual size (about 245 KB) so that inflating allocates once.
const (
	maxInflated  = 16 << 20
	inflatedHint = 256 << 10
)

func decode(z []byte) (*table, error) {
	var buf bytes.Buffer
	buf.Grow(inflatedHint)
	if _, err := buf.ReadFrom(io.LimitReader(flate.NewReader(bytes.NewReader(z)), maxInflated+1)); err != nil {
		return nil, fmt.Errorf("%w: inflate: %w", ErrCorrupt, err)
	}
	return parse(buf.Bytes())
}

// parse decodes the inflated table (everything but the layouts' node records,
// which build decodes on demand).
func parse(raw []byte) (*table, error) {
	if len(raw) > maxInflated || !bytes.HasPrefix(raw, []byte(magic)) {
		return nil, fmt.Errorf("%w: bad header", ErrCorrupt)
	}
	t := &table{raw: raw}
	r := &reader{b: raw, pos: len(magic)}
	t.str = make([]string, r.count(1, "string count"))
	for i := range t.str {
		t.str[i] = string(r.take(int(r.u("string length")), "string"))
	}
	t.classes = make([]class, r.count(3, "class count"))
	for ci := range t.classes {
		c := &t.classes[ci]
		id := r.u("class id")
		if id > 1<<31-1 || ci > 0 && int32(id) <= t.classes[ci-1].id {
			r.fail("class ids out of order")
		}
		c.id = int32(id)
		c.name = r.strIndex(t, "class name")
		c.layouts = make([]*layout, r.count(2, "layout count"))
		for li := range c.layouts {
			l := &layout{nodes: r.count(7, "node count")}
			l.rec = r.take(int(r.u("layout size")), "layout records")
			if l.nodes == 0 && r.err == nil {
				r.fail("empty layout")
			}
			c.layouts[li] = l
		}
	}
	nv := r.count(1+len(t.classes), "version count")
	t.versions = make([]unityversion.Version, nv)
	t.names = make([]string, nv)
	t.use = make([]int16, nv*len(t.classes))
	for vi := range nv {
		s := r.strIndex(t, "version")
		if r.err != nil {
			break
		}
		v, err := unityversion.Parse(s)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrCorrupt, err)
		}
		if vi > 0 && unityversion.Compare(t.versions[vi-1], v) >= 0 {
			return nil, fmt.Errorf("%w: version %s out of order", ErrCorrupt, s)
		}
		t.versions[vi], t.names[vi] = v, s
		for ci := range t.classes {
			li := r.u("layout index")
			if li > uint64(len(t.classes[ci].layouts)) {
				r.fail("layout index out of range")
			}
			t.use[vi*len(t.classes)+ci] = int16(li) - 1
		}
	}
	if r.err == nil && r.pos != len(raw) {
		r.fail("trailing data")
	}
	if r.err != nil {
		return nil, r.err
	}
	return t, nil
}

// maxLevel bounds node depth (Unity's deepest release layouts are ~12 deep).
const maxLevel = 64

// build decodes a layout's node records into a Tree (once).
func (t *table) build(c *class, li int) (*typetree.Tree, error) {
	l := c.layouts[li]
	l.once.Do(func() {
		r := &reader{b: l.rec}
		nodes := make([]typetree.Node, l.nodes)
		for i := range nodes {
			n := &nodes[i]
			lv := r.u("level")
			if lv > maxLevel || i == 0 && lv != 0 || i > 0 && (lv == 0 || int(lv) > nodes[i-1].Level+1) {
				r.fail("level out of pre-order")
			}
			n.Level = int(lv)
			n.Type = r.strIndex(t, "type")
			n.Name = r.strIndex(t, "name")
			n.ByteSize = int32(r.s("byte size"))
			n.Flags = uint32(r.u("flags"))
			n.Version = int32(r.s("version"))
			n.TypeFlags = uint8(r.u("type flags"))
			n.Index = int32(i)
		}
		if r.err == nil && r.pos != len(r.b) {
			r.fail("trailing node data")
		}
		if r.err != nil {
			l.err = fmt.Errorf("class %d layout %d: %w", c.id, li, r.err)
			return
		}
		l.tree = &typetree.Tree{Nodes: nodes}
	})
	return l.tree, l.err
}

// class returns the index of classID in t.classes, or -1.
func (t *table) class(classID int32) int {
	i := sort.Search(len(t.classes), func(i int) bool { return t.classes[i].id >= classID })
	if i < len(t.classes) && t.classes[i].id == classID {
		return i
	}
	return -1
}

// version returns the index of the dumped version chosen for v by the lookup
// rule, or -1: the exact version, else the highest dumped version ≤ v with the
// same major.minor.
func (t *table) version(v unityversion.Version) int {
	// The first version > v; the one before it is the highest ≤ v.
	i := sort.Search(len(t.versions), func(i int) bool { return unityversion.Compare(t.versions[i], v) > 0 }) - 1
	if i < 0 || !t.versions[i].SameMinor(v) {
		return -1
	}
	return i
}

// Lookup returns the layout of classID for the Unity version v by the lookup
// rule of the dump: the exact version if it was dumped, else the highest
// dumped version ≤ v within the same major.minor — never the nearest version
// overall, because branches interleave and fixes are backported. matched is
// the dumped version whose layout was returned. The tree is shared and must
// not be modified.
//
// The errors wrap ErrUnknownClass (classID not covered), ErrNoVersion (no
// dumped version of v's major.minor at or below v, for example a blank
// "0.0.0" — see InferVersion — or the class did not exist then) or
// ErrCorrupt.
func Lookup(v unityversion.Version, classID int32) (tree *typetree.Tree, matched unityversion.Version, err error) {
	t, err := load()
	if err != nil {
		return nil, unityversion.Version{}, err
	}
	ci := t.class(classID)
	if ci < 0 {
		return nil, unityversion.Version{}, fmt.Errorf("layout of class %d for Unity %s: %w", classID, v, ErrUnknownClass)
	}
	vi := t.version(v)
	if vi < 0 {
		return nil, unityversion.Version{}, fmt.Errorf("layout of class %d (%s) for Unity %s: %w", classID, t.classes[ci].name, v, ErrNoVersion)
	}
	li := t.use[vi*len(t.classes)+ci]
	if li < 0 {
		return nil, unityversion.Version{}, fmt.Errorf("layout of class %d (%s) for Unity %s: the class does not exist in %s: %w",
			classID, t.classes[ci].name, v, t.versions[vi], ErrNoVersion)
	}
	tree, err = t.build(&t.classes[ci], int(li))
	if err != nil {
		return nil, unityversion.Version{}, err
	}
	return tree, t.versions[vi], nil
}

// Classes returns the classes covered (class id -> Unity class name). The
// map is a fresh copy. It is empty if the embedded table is corrupt.
func Classes() map[int32]string {
	t, err := load()
	if err != nil {
		return map[int32]string{}
	}
	m := make(map[int32]string, len(t.classes))
	for _, c := range t.classes {
		m[c.id] = c.name
	}
	return m
}

// Newest returns the newest dumped Unity version (the zero Version if the
// embedded table is corrupt).
func Newest() unityversion.Version {
	t, err := load()
	if err != nil || len(t.versions) == 0 {
		return unityversion.Version{}
	}
	return t.versions[len(t.versions)-1]
}

// Versions returns every dumped Unity version in ascending order (a fresh slice).
func Versions() []unityversion.Version {
	t, err := load()
	if err != nil {
		return nil
	}
	return append([]unityversion.Version(nil), t.versions...)
}

// Candidates returns the distinct layouts of classID across all dumped
// versions (index i is the layout VersionsOfLayout(classID, i) describes), for
// inferring a file's version from its own trees or its objects' sizes. It
// returns nil for a class not covered. The trees are shared and must not be
// modified.
func Candidates(classID int32) []*typetree.Tree {
	t, err := load()
	if err != nil {
		return nil
	}
	ci := t.class(classID)
	if ci < 0 {
		return nil
	}
	c := &t.classes[ci]
	out := make([]*typetree.Tree, len(c.layouts))
	for i := range c.layouts {
		tr, err := t.build(c, i)
		if err != nil {
			return nil
		}
		out[i] = tr
	}
	return out
}

// VersionsOfLayout returns, in ascending order, the dumped versions whose
// layout of classID is Candidates(classID)[i]; nil when there is none.
func VersionsOfLayout(classID int32, i int) []unityversion.Version {
	t, err := load()
	if err != nil {
		return nil
	}
	ci := t.class(classID)
	if ci < 0 || i < 0 || i >= len(t.classes[ci].layouts) {
		return nil
	}
	var out []unityversion.Version
	for vi, v := range t.versions {
		if int(t.use[vi*len(t.classes)+ci]) == i {
			out = append(out, v)
		}
	}
	return out
}

// SameLayout reports whether two trees describe the same layout: the same
// nodes in the same order with equal Level, Type, Name, ByteSize, Flags,
// Version and TypeFlags. Index and RefTypeHash are ignored (the former is the
// position, the latter only exists in newer files' own trees).
func SameLayout(a, b *typetree.Tree) bool {
	return FirstDifference(a, b) < 0
}

// FirstDifference returns the index of the first node at which a and b differ
// as SameLayout judges them, the shorter length if one is a prefix of the
// other, or -1 when they are the same layout.
func FirstDifference(a, b *typetree.Tree) int {
	n := min(len(a.Nodes), len(b.Nodes))
	for i := range n {
		x, y := &a.Nodes[i], &b.Nodes[i]
		if x.Level != y.Level || x.Type != y.Type || x.Name != y.Name || x.ByteSize != y.ByteSize ||
			x.Flags != y.Flags || x.Version != y.Version || x.TypeFlags != y.TypeFlags {
			return i
		}
	}
	if len(a.Nodes) != len(b.Nodes) {
		return n
	}
	return -1
}

// ClassMonoBehaviour is the class id of MonoBehaviour, whose built-in layout
// holds only the native base fields every script shares.
const ClassMonoBehaviour = 114

// Fits reports whether tree, a file's own type tree of classID, agrees with
// layout, a built-in one. For most classes that is SameLayout. A
// MonoBehaviour's tree goes on with its script's fields after the native
// ones, so for ClassMonoBehaviour layout must be a prefix of tree (by
// SameLayout's fields) followed only by whole top-level fields.
func Fits(classID int32, layout, tree *typetree.Tree) bool {
	if classID != ClassMonoBehaviour {
		return SameLayout(layout, tree)
	}
	n := len(layout.Nodes)
	if len(tree.Nodes) < n {
		return false
	}
	if n < len(tree.Nodes) && tree.Nodes[n].Level != 1 {
		return false
	}
	return SameLayout(layout, &typetree.Tree{Nodes: tree.Nodes[:n]})
}

// InferVersion returns, in ascending order, the dumped versions whose layouts
// fit every given tree (by Fits) for the classes the table covers; trees of
// other classes are ignored. It dates files whose engine version is blanked
// ("0.0.0") from their own embedded type trees. When none of the classes is
// covered nothing can be inferred and it returns nil. A version in which a
// covered class did not exist is excluded.
func InferVersion(trees map[int32]*typetree.Tree) []unityversion.Version {
	t, err := load()
	if err != nil {
		return nil
	}
	var ms []layoutMatch
	for id, tr := range trees {
		ci := t.class(id)
		if ci < 0 || tr == nil {
			continue
		}
		c := &t.classes[ci]
		m := layoutMatch{ci: ci, ok: make([]bool, len(c.layouts))}
		for li := range c.layouts {
			lt, err := t.build(c, li)
			m.ok[li] = err == nil && Fits(id, lt, tr)
		}
		ms = append(ms, m)
	}
	return t.filter(ms)
}

// Sample is one object's serialized bytes (as stored in a file, in the
// file's byte order) of class ClassID, for InferVersionFromObjects.
type Sample struct {
	ClassID int32
	Data    []byte
}

// InferVersionFromObjects returns, in ascending order, the dumped versions
// whose layouts decode every sample of a covered class exactly (consuming all
// of its bytes; for a MonoBehaviour only the native part, which its script's
// fields follow). It dates files that have neither an engine version nor type
// trees. Samples of other classes are ignored; with none covered it returns
// nil. The answer is only as sharp as the samples: classes whose layout
// changes did not change their encoded size (or whose objects happen to
// decode under several layouts) cannot tell those versions apart.
func InferVersionFromObjects(samples []Sample, order binary.ByteOrder) []unityversion.Version {
	t, err := load()
	if err != nil {
		return nil
	}
	byClass := map[int]*layoutMatch{}
	var seen []int
	for _, s := range samples {
		ci := t.class(s.ClassID)
		if ci < 0 {
			continue
		}
		c := &t.classes[ci]
		m := byClass[ci]
		if m == nil {
			m = &layoutMatch{ci: ci, ok: make([]bool, len(c.layouts))}
			for i := range m.ok {
				m.ok[i] = true
			}
			byClass[ci] = m
			seen = append(seen, ci)
		}
		for li := range c.layouts {
			if m.ok[li] {
				m.ok[li] = t.decodes(c, li, s.Data, order)
			}
		}
	}
	ms := make([]layoutMatch, 0, len(seen))
	for _, ci := range seen {
		ms = append(ms, *byClass[ci])
	}
	return t.filter(ms)
}

// decodes reports whether layout li of class c decodes data exactly.
func (t *table) decodes(c *class, li int, data []byte, order binary.ByteOrder) bool {
	l := c.layouts[li]
	l.compileOnce.Do(func() {
		tree, err := t.build(c, li)
		if err != nil {
			l.compileErr = err
			return
		}
		l.compiled, l.compileErr = typetree.Compile(tree)
	})
	if l.compileErr != nil {
		return false
	}
	return decodesExactly(l.compiled, c.id, data, order)
}

// decodesExactly reports whether l decodes data consuming all of it, or for
// a MonoBehaviour (whose script fields follow the native ones) a prefix.
func decodesExactly(l *typetree.Layout, classID int32, data []byte, order binary.ByteOrder) bool {
	_, err := l.Decode(data, order)
	var te *typetree.TrailingError
	return err == nil || classID == ClassMonoBehaviour && errors.As(err, &te)
}

// layoutMatch says which layouts of class ci are compatible with the evidence.
type layoutMatch struct {
	ci int
	ok []bool // per layout index
}

// filter returns the versions whose layout of every matched class is
// compatible; nil when ms is empty.
func (t *table) filter(ms []layoutMatch) []unityversion.Version {
	if len(ms) == 0 {
		return nil
	}
	var out []unityversion.Version
next:
	for vi, v := range t.versions {
		for _, m := range ms {
			li := t.use[vi*len(t.classes)+m.ci]
			if li < 0 || !m.ok[li] {
				continue next
			}
		}
		out = append(out, v)
	}
	return out
}
