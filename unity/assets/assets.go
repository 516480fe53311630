// Package assets opens any Unity file by its content — a UnityFS bundle, a
// WebGL UnityWebData container, or a plain serialized file — and gives its
// serialized files and their objects, decoding each object with the file's
// own type tree or, for stripped files, the built-in class layout of the
// file's Unity version. It is the one place that knows how the container
// formats nest; the CLI and the typed decoders work through it.
package assets

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/mecanim/mecanim/unity/filepool"
	"github.com/mecanim/mecanim/unity/layouts"
	"github.com/mecanim/mecanim/unity/serialized"
	"github.com/mecanim/mecanim/unity/typetree"
	"github.com/mecanim/mecanim/unity/unityfs"
	"github.com/mecanim/mecanim/unity/unityversion"
	"github.com/mecanim/mecanim/unity/webdata"
)

// LayoutMode chooses where object layouts come from.
type LayoutMode int

// Layout modes.
const (
	// LayoutsAuto uses the file's embedded type trees and the built-in
	// layouts only for types without one.
	LayoutsAuto LayoutMode = iota
	// LayoutsBuiltin ignores embedded type trees for the classes the
	// built-in table covers (how the tests prove the table on files that
	// have trees).
	LayoutsBuiltin
)

// ParseLayoutMode reads "auto"/"embedded" or "builtin".
func ParseLayoutMode(s string) (LayoutMode, error) {
	switch s {
	case "", "auto", "embedded":
		return LayoutsAuto, nil
	case "builtin":
		return LayoutsBuiltin, nil
	}
	return 0, fmt.Errorf("unknown layout mode %q (want auto or builtin)", s)
}

// Options tune how files are opened.
type Options struct {
	Layouts LayoutMode
	// UnityVersion overrides the version layouts are looked up by (for
	// files whose version is blanked or wrong). Empty: the file's own.
	UnityVersion string
	// Cache holds the decompressed blocks of the bundles opened, within
	// its memory limit. Pass one Cache to every Open of a process to bound
	// them together; nil gives each container a Cache of its own.
	Cache *unityfs.Cache
	// Trees holds the type trees of the files opened, each distinct tree
	// once. Pass one Trees to every Open of a process so that a game's many
	// bundles share them; nil gives each container a Trees of its own.
	Trees *serialized.Trees
	// Files keeps the files opened within a number of open descriptors,
	// reopening a file when it is read again: a game can hold more files
	// than a process may keep open. Pass one Pool to every Open of a
	// process; nil keeps each file open until its container is closed.
	Files *filepool.Pool
}

// Kind is the kind of a container.
type Kind string

// Container kinds.
const (
	KindUnityFS    Kind = "UnityFS"
	KindWebData    Kind = "UnityWebData"
	KindSerialized Kind = "SerializedFile"
)

// Error is a failure to open or read part of a container: it names the
// container and, where known, the entry inside it.
type Error struct {
	Container string
	Entry     string
	Err       error
}

// Error describes the failure and where it happened.
func (e *Error) Error() string {
	if e.Container == "" {
		return fmt.Sprintf("%s: %v", e.Entry, e.Err)
	}
	if e.Entry != "" {
		return fmt.Sprintf("%s: %s: %v", e.Container, e.Entry, e.Err)
	}
	return fmt.Sprintf("%s: %v", e.Container, e.Err)
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// ErrUnknownFormat is wrapped when a file is not a format this package reads.
var ErrUnknownFormat = errors.New("not a Unity file (no UnityFS, UnityWebData or SerializedFile header)")

// Container is an opened Unity file: the serialized files inside it and the
// other entries (resource side files) they may stream data from.
type Container struct {
	Path  string // as given to Open
	Kind  Kind
	Files []*File
	// Bundles are the UnityFS archives read (one for a bundle, any number
	// inside a WebData container).
	Bundles []*unityfs.Archive

	dir  string // directory of Path, for side files of plain files
	opts Options

	mu        sync.Mutex                   // guards what side files opened later change
	resources map[string]*io.SectionReader // by entry name and by base name
	closer    io.Closer
	releases  []func() // the metadata charges of the serialized files to opts.Cache

	// Expanded is how many bytes a compressed file (gzip or brotli WebGL
	// data) expanded to; 0 for a file stored as is.
	Expanded int64
}

// File is a serialized file inside a container, with the layout policy
// that decodes its objects.
type File struct {
	*serialized.File
	Container *Container
	// Version is the Unity version built-in layouts are looked up by;
	// VersionNote says how it was chosen when it is not the file's own.
	Version     unityversion.Version
	VersionNote string

	mu      sync.Mutex
	builtin map[int32]builtinLayout
}

type builtinLayout struct {
	l   *typetree.Layout
	err error
}

// Open opens the Unity file at name. Side files of a plain serialized file
// (name.resS, name.resource) are found next to it when read. A split file
// is opened by its first part or its whole name (see SplitBase); a
// compressed WebGL data file is expanded first.
func Open(name string, opts Options) (*Container, error) {
	if c, ok, err := openSplit(name, opts); ok {
		return c, err
	}
	f, st, err := openFile(name, opts)
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		f.Close()
		return nil, &Error{Container: name, Err: errors.New("is a directory")}
	}
	c, err := OpenReader(f, st.Size(), name, opts)
	if err != nil {
		f.Close()
		return nil, err
	}
	c.closer = multiCloser{c.closer, f}
	c.dir = filepath.Dir(name)
	return c, nil
}

// fileReader is an open file as the containers read it.
type fileReader interface {
	io.ReaderAt
	io.Closer
}

// openFile opens name for reading, through opts.Files when set.
func openFile(name string, opts Options) (fileReader, fs.FileInfo, error) {
	if opts.Files != nil {
		f, err := opts.Files.Open(name)
		if err != nil {
			return nil, nil, err
		}
		return f, f.Stat(), nil
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, st, nil
}

// OpenReader opens a Unity file held in the first size bytes of r; name is
// used in errors and results.
func OpenReader(r io.ReaderAt, size int64, name string, opts Options) (ct *Container, err error) {
	if _, err := unityversion.Parse(opts.UnityVersion); opts.UnityVersion != "" && err != nil {
		return nil, &Error{Container: name, Err: fmt.Errorf("Unity version %q asked for: %w", opts.UnityVersion, err)}
	}
	if opts.Trees == nil {
		// The files of one container share their type trees.
		opts.Trees = serialized.NewTrees()
	}
	if opts.Cache == nil {
		// The bundles and files of one container share one memory limit.
		opts.Cache = unityfs.NewCache(0)
	}
	c := &Container{Path: name, opts: opts, resources: map[string]*io.SectionReader{}}
	defer func() {
		if ct != c {
			c.release() // failed, or another container (expanded data) took over
		}
	}()
	prefix := make([]byte, 64)
	n, err := r.ReadAt(prefix, 0)
	if err != nil && err != io.EOF {
		return nil, &Error{Container: name, Err: err}
	}
	prefix = prefix[:n]
	switch {
	case n == 0:
		return nil, &Error{Container: name, Err: fmt.Errorf("%w: the file is empty", ErrUnknownFormat)}
	case unityfs.IsUnityFS(prefix):
		c.Kind = KindUnityFS
		if err := c.addBundle(r, size, ""); err != nil {
			return nil, err
		}
	case webdata.IsWebData(prefix):
		c.Kind = KindWebData
		a, err := webdata.Open(r, size)
		if err != nil {
			return nil, &Error{Container: name, Err: err}
		}
		if err := accountWebData(a, size); err != nil {
			return nil, &Error{Container: name, Err: err}
		}
		for i, e := range a.Entries {
			er := a.EntryReader(i)
			if err := c.addEntry(er, e.Size, e.Name); err != nil {
				return nil, err
			}
		}
	case serialized.IsSerializedFile(prefix, size):
		c.Kind = KindSerialized
		if err := c.addSerialized(io.NewSectionReader(r, 0, size), size, filepath.Base(name)); err != nil {
			return nil, err
		}
	case webdata.Detect(prefix, name) != webdata.CompressionNone:
		return openCompressed(r, size, name, webdata.Detect(prefix, name), opts)
	case serialized.LooksSerialized(prefix):
		return nil, &Error{Container: name, Err: damagedHeader(prefix, size, filepath.Base(name))}
	case bytes.HasPrefix(prefix, []byte("%YAML")):
		return nil, &Error{Container: name, Err: fmt.Errorf("%w: it is a Unity YAML text asset (editor source); these are read by the decode/yamlasset package, not as built files", ErrUnknownFormat)}
	default:
		return nil, &Error{Container: name, Err: ErrUnknownFormat}
	}
	return c, nil
}

// addEntry adds one entry of a WebData container: a bundle, a serialized
// file, or a resource.
func (c *Container) addEntry(r *io.SectionReader, size int64, name string) error {
	prefix, err := sniff(r)
	if err != nil {
		return &Error{Container: c.Path, Entry: name, Err: err}
	}
	switch {
	case unityfs.IsUnityFS(prefix):
		return c.addBundle(r, size, name)
	case serialized.IsSerializedFile(prefix, size):
		return c.addSerialized(r, size, name)
	case serialized.LooksSerialized(prefix):
		return &Error{Container: c.Path, Entry: name, Err: damagedHeader(prefix, size, name)}
	default:
		c.addResource(name, r)
		return nil
	}
}

// ErrDamagedHeader is wrapped when an entry carries the marks of a
// serialized file (its bundle node's flags, a format version, a Unity
// version string where the metadata begins) but its header does not check
// out. Such an entry is reported, never demoted to a resource: a damaged
// header must not make a file's objects vanish without a word.
var ErrDamagedHeader = errors.New("damaged serialized file header")

// damagedHeader says what is wrong with the header of an entry that looks
// like a serialized file but is not one.
func damagedHeader(prefix []byte, size int64, name string) error {
	err := serialized.CheckHeader(prefix, size)
	var fe *serialized.FormatError
	if errors.As(err, &fe) {
		fe.File = name
	}
	if err == nil {
		err = errors.New("header not recognised")
	}
	return fmt.Errorf("%w: %w", ErrDamagedHeader, err)
}

func (c *Container) addBundle(r io.ReaderAt, size int64, entry string) error {
	a, err := unityfs.OpenWith(r, size, unityfs.Options{Cache: c.opts.Cache})
	if err != nil {
		return &Error{Container: c.Path, Entry: entry, Err: err}
	}
	if err := accountBundle(a, size); err != nil {
		a.Close()
		return &Error{Container: c.Path, Entry: entry, Err: err}
	}
	c.Bundles = append(c.Bundles, a)
	for _, i := range nodeOrder(a) {
		nd := a.Nodes[i]
		nr := a.NodeReader(i)
		prefix, err := sniff(nr)
		if err != nil {
			// A block that does not decompress is damage, not an empty
			// file: say so rather than list nothing.
			return &Error{Container: c.Path, Entry: nd.Path, Err: err}
		}
		if serialized.IsSerializedFile(prefix, nd.Size) {
			if err := c.addSerialized(nr, nd.Size, nd.Path); err != nil {
				return err
			}
			continue
		}
		if nd.Flags&nodeFlagSerialized != 0 || serialized.LooksSerialized(prefix) {
			// The directory (or the content) says this is a serialized
			// file, but its header does not check out: a truncated or
			// damaged file, reported rather than listed as a resource.
			err := damagedHeader(prefix, nd.Size, nd.Path)
			if nd.Flags&nodeFlagSerialized != 0 {
				err = fmt.Errorf("the bundle's directory marks it as a serialized file (flags %#x) of %d bytes: %w", nd.Flags, nd.Size, err)
			}
			return &Error{Container: c.Path, Entry: nd.Path, Err: err}
		}
		c.addResource(nd.Path, nr)
	}
	return nil
}

// sniff reads the first bytes of an entry to recognise its format. Only a
// short entry's end is not an error.
func sniff(r io.ReaderAt) ([]byte, error) {
	prefix := make([]byte, 64)
	n, err := r.ReadAt(prefix, 0)
	if err != nil && err != io.EOF {
		return nil, err
	}
	return prefix[:n], nil
}

// nodeFlagSerialized is the bundle node flag Unity's writer sets on
// serialized files (and on nothing else: .resS and .resource nodes have
// flags 0 in every bundle of the corpus).
const nodeFlagSerialized = 4

// nodeOrder returns a bundle's node indexes in the order of their data
// (stable, so a bundle listing its nodes in data order, as Unity writes
// them, keeps that order). Reading each node's first bytes in data order
// decompresses each block once; a hostile node list alternating between
// blocks larger than the block cache would otherwise decompress a block
// per node.
func nodeOrder(a *unityfs.Archive) []int {
	order := make([]int, len(a.Nodes))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(x, y int) bool { return a.Nodes[order[x]].Offset < a.Nodes[order[y]].Offset })
	return order
}

func (c *Container) addResource(name string, r *io.SectionReader) {
	c.resources[name] = r
	if b := path.Base(name); b != name {
		if _, dup := c.resources[b]; !dup {
			c.resources[b] = r
		}
	}
}

func (c *Container) addSerialized(r io.ReaderAt, size int64, name string) error {
	// What the file's metadata holds while it is open counts against the
	// memory limit it shares with every input of the process: its object
	// table before it is made, the rest (type trees, externals) once read.
	sf, err := serialized.OpenWith(r, size, name, serialized.Options{Trees: c.opts.Trees, Budget: c.opts.Cache})
	if err != nil {
		return &Error{Container: c.Path, Entry: name, Err: err}
	}
	c.mu.Lock()
	c.releases = append(c.releases, sf.Release)
	c.mu.Unlock()
	release, err := c.opts.Cache.Reserve(max(sf.HeldBytes()-sf.Reserved(), 0), fmt.Sprintf("the type trees and externals of %s", name))
	if err != nil {
		return &Error{Container: c.Path, Entry: name, Err: err}
	}
	c.mu.Lock()
	c.releases = append(c.releases, release)
	c.mu.Unlock()
	f := &File{File: sf, Container: c}
	if err := f.chooseVersion(c.opts); err != nil {
		return &Error{Container: c.Path, Entry: name, Err: err}
	}
	c.Files = append(c.Files, f)
	return nil
}

// Close releases the underlying file (for containers made by Open) and
// what the container's bundles and serialized files held of the memory
// limit.
func (c *Container) Close() error {
	c.release()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closer != nil {
		return c.closer.Close()
	}
	return nil
}

// release gives back the container's charges to its Cache: the metadata
// of its serialized files, the directories and blocks of its bundles.
func (c *Container) release() {
	c.mu.Lock()
	rs := c.releases
	c.releases = nil
	c.mu.Unlock()
	for _, r := range rs {
		r()
	}
	for _, a := range c.Bundles {
		a.Close()
	}
}

// File returns the serialized file of the given name.
func (c *Container) File(name string) (*File, bool) {
	for _, f := range c.Files {
		if f.Name == name || path.Base(f.Name) == name {
			return f, true
		}
	}
	return nil, false
}

// Resource returns the bytes of a streamed-data side file named as Unity
// names it in StreamingInfo.path ("archive:/CAB-x/CAB-x.resS",
// "level0.resS", "sharedassets0.resource"): an entry of the container, or a
// file beside a plain serialized file.
func (c *Container) Resource(name string) (*io.SectionReader, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := strings.TrimPrefix(name, "archive:/")
	for _, k := range []string{n, path.Base(n)} {
		if r, ok := c.resources[k]; ok {
			return r, nil
		}
	}
	if c.dir != "" {
		base := path.Base(filepath.ToSlash(n))
		p := filepath.Join(c.dir, base)
		if f, st, err := openFile(p, c.opts); err == nil {
			if !st.IsDir() {
				// Keep it for the container's life.
				r := io.NewSectionReader(f, 0, st.Size())
				c.resources[base] = r
				c.closer = multiCloser{c.closer, f}
				return r, nil
			}
			f.Close()
		}
	}
	return nil, &Error{Container: c.Path, Entry: name, Err: errors.New("streamed-data file not found")}
}

// ReadStream reads size bytes at offset of the side file name (a
// StreamingInfo), bounded by the side file's size.
func (c *Container) ReadStream(name string, offset uint64, size uint32) ([]byte, error) {
	r, err := c.Resource(name)
	if err != nil {
		return nil, err
	}
	if offset > uint64(r.Size()) || uint64(size) > uint64(r.Size())-offset {
		return nil, &Error{Container: c.Path, Entry: name,
			Err: fmt.Errorf("stream of %d bytes at offset %d runs past the file's %d bytes", size, offset, r.Size())}
	}
	b := make([]byte, size)
	if _, err := r.ReadAt(b, int64(offset)); err != nil && err != io.EOF {
		return nil, &Error{Container: c.Path, Entry: name, Err: err}
	}
	return b, nil
}

type multiCloser []io.Closer

func (m multiCloser) Close() error {
	var first error
	for _, c := range m {
		if c == nil {
			continue
		}
		if err := c.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// chooseVersion sets the version built-in layouts are looked up by.
func (f *File) chooseVersion(opts Options) error {
	if opts.UnityVersion != "" {
		v, _ := unityversion.Parse(opts.UnityVersion)
		f.Version = v
		if f.UnityVersion != opts.UnityVersion {
			f.VersionNote = fmt.Sprintf("Unity version %s asked for (the file says %q)", v, f.UnityVersion)
		}
		return nil
	}
	v, err := unityversion.Parse(f.UnityVersion)
	if err == nil && !v.IsBlank() && !v.HasWildcard() {
		f.Version = v
		return nil
	}
	// Blank or unreadable: date the file by its embedded trees.
	trees := map[int32]*typetree.Tree{}
	for i := range f.Types {
		t := &f.Types[i]
		if t.Tree != nil && t.ScriptTypeIndex < 0 {
			trees[t.ClassID] = t.Tree
		}
	}
	cands := layouts.InferVersion(trees)
	if len(cands) > 0 {
		sort.Slice(cands, func(i, j int) bool { return cands[i].Less(cands[j]) })
		f.Version = cands[len(cands)-1]
		f.VersionNote = fmt.Sprintf("the file's Unity version is %q; assumed %s, the newest of the %d versions whose layouts equal its %d embedded type trees (from %s)",
			f.UnityVersion, f.Version, len(cands), len(trees), cands[0])
		return nil
	}
	f.VersionNote = fmt.Sprintf("the file's Unity version is %q and it has no type trees to date it by; layouts are chosen per class by which one reads each object to its exact size", f.UnityVersion)
	return nil
}

// HasTree reports whether objects of o's type decode with an embedded tree
// under the current options.
func (f *File) usesEmbedded(t *serialized.Type, classID int32) bool {
	if t == nil || t.Tree == nil {
		return false
	}
	if f.Container.opts.Layouts == LayoutsBuiltin {
		if _, covered := layouts.Classes()[classID]; covered && t.ScriptTypeIndex < 0 {
			return false
		}
	}
	return true
}

// Layout returns the layout objects of o's type decode with.
func (f *File) Layout(o *serialized.Object) (*typetree.Layout, error) {
	t := f.TypeOf(o)
	if f.usesEmbedded(t, o.ClassID) {
		return f.File.Layout(t)
	}
	return f.builtinLayout(o)
}

func (f *File) builtinLayout(o *serialized.Object) (*typetree.Layout, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if b, ok := f.builtin[o.ClassID]; ok {
		return b.l, b.err
	}
	l, err := f.findBuiltin(o)
	if f.builtin == nil {
		f.builtin = map[int32]builtinLayout{}
	}
	f.builtin[o.ClassID] = builtinLayout{l, err}
	return l, err
}

// findBuiltin picks the built-in layout of o's class: by version when the
// version is known, else the layout that reads the class's objects to
// their exact size.
func (f *File) findBuiltin(o *serialized.Object) (*typetree.Layout, error) {
	if _, covered := layouts.Classes()[o.ClassID]; !covered {
		return nil, fmt.Errorf("%w, and class %d (%s) has no built-in layout", serialized.ErrNoTypeTree, o.ClassID, ClassName(o.ClassID))
	}
	if !f.Version.IsBlank() {
		tree, _, err := layouts.Lookup(f.Version, o.ClassID)
		if err != nil {
			return nil, fmt.Errorf("built-in layout of class %d for Unity %s: %w", o.ClassID, f.Version, err)
		}
		return typetree.Compile(tree)
	}
	// No version: try every distinct layout of the class on up to 8 of its
	// objects; keep the one that reads them all exactly.
	var objs []*serialized.Object
	for i := range f.Objects {
		if f.Objects[i].ClassID == o.ClassID {
			objs = append(objs, &f.Objects[i])
			if len(objs) == 8 {
				break
			}
		}
	}
	cands := layouts.Candidates(o.ClassID)
	for i := len(cands) - 1; i >= 0; i-- { // newest layouts first
		l, err := typetree.Compile(cands[i])
		if err != nil {
			continue
		}
		ok := true
		for _, x := range objs {
			b, err := f.ReadObject(x)
			if err != nil {
				return nil, err
			}
			if _, err := l.Decode(b, f.ByteOrder()); err != nil {
				ok = false
				break
			}
		}
		if ok {
			return l, nil
		}
	}
	return nil, fmt.Errorf("no built-in layout of class %d (%s) reads its objects to their exact size", o.ClassID, ClassName(o.ClassID))
}

// Decode reads and decodes object o. When the layout reads fewer bytes
// than the object holds, the error wraps serialized.ErrUnreadBytes; only
// for a MonoBehaviour (a script's fields past its native part) is the
// value returned, together with an error wrapping *typetree.TrailingError.
func (f *File) Decode(o *serialized.Object) (*typetree.Value, error) {
	wrap := func(err error) error {
		return &serialized.ObjectError{File: f.Name, PathID: o.PathID, ClassID: o.ClassID, Err: err}
	}
	l, err := f.Layout(o)
	if err != nil {
		return nil, wrap(err)
	}
	b, err := f.ReadObject(o)
	if err != nil {
		return nil, wrap(err)
	}
	v, err := l.DecodeWith(b, f.ByteOrder(), f.DecodeOptions())
	v, err = serialized.CheckTrailing(o, v, err)
	if err != nil {
		return v, wrap(err)
	}
	return v, nil
}

// In returns err as an *Error naming f's container (the input as given)
// and f, so that a message about one of f's objects names the input file
// whoever forms it; an err that already names a container is returned as
// it is, and nil stays nil.
func (f *File) In(err error) error {
	if err == nil {
		return nil
	}
	if e := (*Error)(nil); errors.As(err, &e) {
		return err
	}
	c := ""
	if f.Container != nil {
		c = f.Container.Path
	}
	return &Error{Container: c, Entry: f.Name, Err: err}
}

// ClassName names o's class: the root type of its tree when the file has
// one, else Unity's name for the id.
func (f *File) ClassName(o *serialized.Object) string {
	if t := f.TypeOf(o); t != nil && t.Tree != nil && len(t.Tree.Nodes) > 0 {
		return t.Tree.Nodes[0].Type
	}
	return ClassName(o.ClassID)
}

// ObjectName returns o's m_Name (empty when its class has none). For a
// stripped object of a class without a built-in layout, the name is read
// from the object's first field when the class is one of Unity's named
// assets (their serialization starts with m_Name); other such objects have
// no name to show.
func (f *File) ObjectName(o *serialized.Object) (string, error) {
	if !f.usesEmbedded(f.TypeOf(o), o.ClassID) {
		if _, covered := layouts.Classes()[o.ClassID]; !covered {
			if !namedAssetClasses[o.ClassID] {
				return "", nil
			}
			return f.leadingName(o)
		}
	}
	v, err := f.Decode(o)
	if v == nil {
		return "", err
	}
	var te *typetree.TrailingError
	if err != nil && !errors.As(err, &te) {
		return "", err
	}
	if n := v.Field("m_Name"); n != nil {
		return n.Str(), nil
	}
	return "", nil
}

// Find returns the objects named name (and of class classID when it is not
// 0) in the file.
func (f *File) Find(name string, classID int32) []*serialized.Object {
	var out []*serialized.Object
	for i := range f.Objects {
		o := &f.Objects[i]
		if classID != 0 && o.ClassID != classID {
			continue
		}
		if n, err := f.ObjectName(o); err == nil && n == name {
			out = append(out, o)
		}
	}
	return out
}

// namedAssetClasses are classes derived from NamedObject whose serialized
// form begins with m_Name (a length-prefixed string).
var namedAssetClasses = map[int32]bool{
	21: true, 27: true, 28: true, 43: true, 48: true, 49: true, 62: true, 72: true, 74: true,
	83: true, 84: true, 86: true, 89: true, 90: true, 91: true, 115: true, 117: true, 128: true,
	134: true, 142: true, 150: true, 152: true, 156: true, 171: true, 187: true, 188: true,
	200: true, 213: true, 221: true, 226: true, 228: true, 238: true, 240: true, 258: true,
	319: true, 329: true, 687078895: true, 1953259897: true,
}

// leadingName reads the m_Name a named asset's data starts with.
func (f *File) leadingName(o *serialized.Object) (string, error) {
	b, err := f.ReadObject(o)
	if err != nil {
		return "", err
	}
	if len(b) < 4 {
		return "", &serialized.ObjectError{File: f.Name, PathID: o.PathID, ClassID: o.ClassID,
			Err: fmt.Errorf("object of %d bytes is too short for its m_Name", len(b))}
	}
	n := f.ByteOrder().Uint32(b)
	if uint64(n) > uint64(len(b)-4) {
		return "", &serialized.ObjectError{File: f.Name, PathID: o.PathID, ClassID: o.ClassID,
			Err: fmt.Errorf("m_Name length %d exceeds the object's %d bytes", n, len(b))}
	}
	return string(b[4 : 4+n]), nil
}
