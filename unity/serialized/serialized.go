// Package serialized reads Unity SerializedFiles: the container format of
// asset bundle members (CAB-...), level files and .assets files. A File holds
// the header and metadata (Unity version, platform, types with their type
// trees, the object table, external references); objects' bytes are read
// lazily from the underlying io.ReaderAt, as debug/elf does with sections.
//
// Format versions 9 to 22 are supported (the 64-bit header of version 22 and
// later included); older versions with the metadata at the file's end are
// read where the layout is known (5 to 8).
package serialized

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sort"
	"sync"
	"unsafe"

	"github.com/mecanim/mecanim/unity/binread"
	"github.com/mecanim/mecanim/unity/typetree"
)

// ClassMonoBehaviour is the class id of MonoBehaviour, whose types carry a
// script id hash.
const ClassMonoBehaviour = 114

// Limits that keep a corrupt header from causing huge reads.
const (
	minVersion = 5
	maxVersion = 50 // generous: unknown future versions are read as 22+
	// maxMetadata bounds the metadata read into memory (real files stay far below).
	maxMetadata = 1 << 30
)

// ErrFormat is wrapped by every error about malformed input.
var ErrFormat = errors.New("malformed serialized file")

// FormatError says which file, where and what was wrong.
type FormatError struct {
	File   string // the File's Name
	Offset int64  // absolute offset in the file, or -1 when not known
	What   string
	Err    error // underlying cause, may be nil
}

// Error describes the failure and where it happened.
func (e *FormatError) Error() string {
	s := "serialized file " + fmt.Sprintf("%q", e.File)
	if e.Offset >= 0 {
		s += fmt.Sprintf(" at offset %d", e.Offset)
	}
	s += ": " + e.What
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the cause; errors.Is(err, ErrFormat) holds for every FormatError.
func (e *FormatError) Unwrap() []error {
	if e.Err != nil {
		return []error{ErrFormat, e.Err}
	}
	return []error{ErrFormat}
}

// File is an open SerializedFile. Its methods are safe for concurrent use
// when the underlying io.ReaderAt is (as io.ReaderAt requires).
type File struct {
	Name           string // name given to Open, used in errors
	Version        uint32 // format version (9 … 22+)
	UnityVersion   string // engine version that wrote the file, e.g. "2022.3.9f1"
	Platform       int32  // BuildTarget
	BigEndian      bool   // byte order of metadata and object data
	EnableTypeTree bool   // whether types carry type trees
	Types          []Type
	Objects        []Object // in file order
	// ScriptTypes lists the MonoScript references of script types (file index into Externals+1, path id).
	ScriptTypes []ScriptRef
	Externals   []External
	RefTypes    []Type // managed-reference types (version 20+)
	UserInfo    string

	DataOffset   int64 // absolute offset of the object data area
	MetadataSize uint32
	FileSize     int64 // size claimed by the header

	r     io.ReaderAt
	size  int64
	index map[int64]int // path id -> index into Objects

	trees *Trees // shared with other files; nil: this file's own
	// treeNodes counts the nodes of the type trees this file brought
	// (not already held by trees).
	treeNodes int
	budget    Budget
	releases  []func() // what was charged to budget
	reserved  int64

	mu      sync.Mutex
	layouts map[*typetree.Tree]*typetree.Layout
}

// Type is one entry of the file's type table.
type Type struct {
	ClassID         int32
	Stripped        bool
	ScriptTypeIndex int16    // index into File.ScriptTypes, or -1
	ScriptID        [16]byte // script hash (MonoBehaviour and script types only)
	OldTypeHash     [16]byte
	Tree            *typetree.Tree // nil if the file has no type trees
	// Dependencies lists indices into File.RefTypes this type references (version 21+).
	Dependencies []int32
	// ClassName, Namespace and Assembly name a managed-reference type (RefTypes only).
	ClassName, Namespace, Assembly string
}

// Object is one entry of the object table.
type Object struct {
	PathID    int64
	Offset    int64  // absolute offset of the object's bytes in the file
	Size      uint32 // byte size of the object's data
	TypeIndex int    // index into File.Types, or -1 (versions < 16 without a type table entry)
	ClassID   int32
}

// External is a reference to another serialized file.
type External struct {
	Path string
	GUID [16]byte
	Type int32
}

// ScriptRef is an entry of the script-type table: a PPtr to a MonoScript.
type ScriptRef struct {
	FileIndex int32
	PathID    int64
}

// order returns the file's byte order.
func (f *File) order() binary.ByteOrder {
	if f.BigEndian {
		return binary.BigEndian
	}
	return binary.LittleEndian
}

// ByteOrder returns the byte order of the file's metadata and object data.
func (f *File) ByteOrder() binary.ByteOrder { return f.order() }

// header is the fixed part at the start of the file.
type header struct {
	metadataSize uint32
	fileSize     int64
	version      uint32
	dataOffset   int64
	bigEndian    bool
	headerSize   int64 // where the metadata starts (version >= 9)
}

// fileSizeAt and dataOffsetAt return the offsets of the header's file size
// and data offset fields.
func (h header) fileSizeAt() int64 {
	if h.version >= 22 {
		return 24
	}
	return 4
}

func (h header) dataOffsetAt() int64 {
	if h.version >= 22 {
		return 32
	}
	return 12
}

// parseHeader decodes the header from the first bytes of a file. prefix must
// hold at least 48 bytes when available.
func parseHeader(p []byte) (header, error) {
	var h header
	if len(p) < 20 {
		return h, errors.New("shorter than a header")
	}
	be := binary.BigEndian
	h.metadataSize = be.Uint32(p[0:])
	h.fileSize = int64(be.Uint32(p[4:]))
	h.version = be.Uint32(p[8:])
	h.dataOffset = int64(be.Uint32(p[12:]))
	if h.version < minVersion || h.version > maxVersion {
		return h, fmt.Errorf("unsupported format version %d", h.version)
	}
	if h.version < 9 {
		// Metadata at the end of the file; its first byte is the endianness.
		h.headerSize = 16
		return h, nil
	}
	switch p[16] {
	case 0:
	case 1:
		h.bigEndian = true
	default:
		return h, fmt.Errorf("bad endianness byte %d", p[16])
	}
	h.headerSize = 20
	if h.version >= 22 {
		if len(p) < 48 {
			return h, errors.New("shorter than a version 22 header")
		}
		h.metadataSize = be.Uint32(p[20:])
		fs := be.Uint64(p[24:])
		do := be.Uint64(p[32:])
		if fs > 1<<62 || do > 1<<62 {
			return h, errors.New("file size or data offset out of range")
		}
		h.fileSize = int64(fs)
		h.dataOffset = int64(do)
		h.headerSize = 48
	}
	return h, nil
}

// IsSerializedFile reports whether prefix (the first bytes of a file, at
// least 48 when the file is that long) looks like a SerializedFile of the
// given total size: a known version, a sane endianness byte, and sizes and
// offsets that fit the file.
func IsSerializedFile(prefix []byte, size int64) bool {
	return CheckHeader(prefix, size) == nil
}

// CheckHeader says why prefix (the first bytes of a file, at least 48 when
// the file is that long) is not the header of a SerializedFile of the given
// total size, or returns nil when it is (what IsSerializedFile tests). Its
// errors are *FormatError values naming the field's offset; File is empty.
func CheckHeader(prefix []byte, size int64) error {
	ferr := func(off int64, format string, a ...any) error {
		return &FormatError{Offset: off, What: "header: " + fmt.Sprintf(format, a...)}
	}
	h, err := parseHeader(prefix)
	if err != nil {
		return ferr(0, "%v", err)
	}
	if h.version < 9 {
		return ferr(8, "format version %d (metadata at the end) is too old to recognise by content", h.version)
	}
	sizeAt, offAt := h.fileSizeAt(), h.dataOffsetAt()
	if h.fileSize != size && size >= 0 {
		// Unity writes the exact size; allow a file padded after the data.
		if h.fileSize > size {
			return ferr(sizeAt, "file size %d exceeds the %d bytes available (truncated?)", h.fileSize, size)
		}
		if h.fileSize < h.headerSize {
			return ferr(sizeAt, "file size %d is smaller than the %d-byte header", h.fileSize, h.headerSize)
		}
	}
	if h.dataOffset > h.fileSize || h.dataOffset < h.headerSize {
		return ferr(offAt, "data offset %d outside [%d, %d], the header to the end of the file", h.dataOffset, h.headerSize, h.fileSize)
	}
	if h.metadataSize == 0 {
		return ferr(0, "metadata size 0")
	}
	if int64(h.metadataSize) > h.dataOffset-h.headerSize {
		return ferr(0, "metadata size %d runs past the data offset %d", h.metadataSize, h.dataOffset)
	}
	return nil
}

// LooksSerialized reports whether prefix (the first bytes of a file, at
// least 64 when the file is that long) carries a SerializedFile's marks
// even though its header may not check out: a format version this package
// knows beside a valid endianness byte, or a Unity version string where
// the metadata of format 9 to 21 or 22+ begins. A file that looks
// serialized but fails CheckHeader is a damaged serialized file, not some
// other kind of file; readers say so rather than set it aside.
func LooksSerialized(prefix []byte) bool {
	if len(prefix) >= 20 {
		v := binary.BigEndian.Uint32(prefix[8:])
		if v >= 9 && v <= maxVersion && prefix[16] <= 1 && prefix[17] == 0 && prefix[18] == 0 && prefix[19] == 0 {
			return true
		}
	}
	for _, at := range []int{20, 48} {
		if at < len(prefix) && looksLikeUnityVersion(prefix[at:]) {
			return true
		}
	}
	return false
}

// looksLikeUnityVersion reports whether b starts with a NUL-terminated
// Unity version: digits, a dot, digits, a dot, then digits, letters and
// dots ("2022.3.9f1", "5.6.7p3", "0.0.0"), at most 31 characters.
func looksLikeUnityVersion(b []byte) bool {
	dots, i := 0, 0
	for ; i < len(b) && i < 32 && b[i] != 0; i++ {
		c := b[i]
		switch {
		case c >= '0' && c <= '9':
		case c == '.':
			if i == 0 || b[i-1] == '.' {
				return false
			}
			dots++
		case (c >= 'a' && c <= 'z') && dots >= 2:
		default:
			return false
		}
	}
	return i < len(b) && b[i] == 0 && dots >= 2 && b[0] >= '0' && b[0] <= '9'
}

// Options are the choices OpenWith takes.
type Options struct {
	// Trees, when set, holds the file's type trees together with those of
	// every other file opened with it (see Trees).
	Trees *Trees
	// Budget, when set, is charged the file's object table before it is
	// made (a file's object count is read before its objects), so that a
	// table the process cannot hold is refused rather than allocated;
	// Release gives it back.
	Budget Budget
}

// Budget is the memory bound of a process that the metadata of open files
// is charged to (unityfs.Cache is one).
type Budget interface {
	// Reserve charges n bytes, described by what for errors, until
	// release is called, or fails when they do not fit.
	Reserve(n int64, what string) (release func(), err error)
}

// Open reads the header and metadata of the SerializedFile in r (size bytes).
// name is used in error messages. Object data is read later, on demand.
func Open(r io.ReaderAt, size int64, name string) (*File, error) {
	return OpenWith(r, size, name, Options{})
}

// OpenWith is Open with options.
func OpenWith(r io.ReaderAt, size int64, name string, opts Options) (file *File, err error) {
	var charged *File // what was charged to opts.Budget is given back on failure
	defer func() {
		if err != nil && charged != nil {
			charged.Release()
		}
	}()
	ferr := func(off int64, what string, err error) error {
		return &FormatError{File: name, Offset: off, What: what, Err: err}
	}
	if size < 20 {
		return nil, ferr(0, "file too small for a header", nil)
	}
	var hb [48]byte
	n := int64(len(hb))
	if size < n {
		n = size
	}
	if _, err := r.ReadAt(hb[:n], 0); err != nil && err != io.EOF {
		return nil, ferr(0, "reading header", err)
	}
	h, err := parseHeader(hb[:n])
	if err != nil {
		return nil, ferr(0, "header", err)
	}
	f := &File{
		Name:         name,
		Version:      h.version,
		BigEndian:    h.bigEndian,
		DataOffset:   h.dataOffset,
		MetadataSize: h.metadataSize,
		FileSize:     h.fileSize,
		r:            r,
		size:         size,
		trees:        opts.Trees,
		budget:       opts.Budget,
	}
	charged = f
	if h.metadataSize > maxMetadata {
		return nil, ferr(0, fmt.Sprintf("metadata size %d too large", h.metadataSize), nil)
	}
	metaStart := h.headerSize
	if h.version < 9 {
		metaStart = h.fileSize - int64(h.metadataSize)
		if h.fileSize > size {
			return nil, ferr(4, fmt.Sprintf("header file size %d exceeds the %d bytes available", h.fileSize, size), nil)
		}
	}
	if metaStart < 0 || metaStart+int64(h.metadataSize) > size {
		return nil, ferr(0, fmt.Sprintf("metadata (%d bytes at %d) runs past the end of the %d-byte file", h.metadataSize, metaStart, size), nil)
	}
	if h.dataOffset < 0 || h.dataOffset > size {
		return nil, ferr(12, fmt.Sprintf("data offset %d outside the %d-byte file", h.dataOffset, size), nil)
	}
	metaEnd := metaStart + int64(h.metadataSize)
	meta := make([]byte, h.metadataSize)
	if _, err := r.ReadAt(meta, metaStart); err != nil && !(err == io.EOF && len(meta) == 0) {
		return nil, ferr(metaStart, "reading metadata", err)
	}
	if h.version < 9 {
		if len(meta) < 1 {
			return nil, ferr(metaStart, "empty metadata", nil)
		}
		f.BigEndian = meta[0] != 0
		meta = meta[1:]
		metaStart++
	}
	br := binread.New(meta, f.order())
	br.Base = metaStart
	if err := f.readMetadata(br); err != nil {
		at := metaStart + int64(br.Pos())
		var be *binread.Error
		if errors.As(err, &be) {
			at = be.Offset
		}
		return nil, ferr(at, "metadata", err)
	}
	if n := br.Len(); n != 0 {
		at := metaStart + int64(br.Pos())
		return nil, ferr(at, fmt.Sprintf("%d bytes of metadata left unread: the header gives the metadata %d bytes, its tables end after %d",
			n, h.metadataSize, int64(h.metadataSize)-int64(n)), nil)
	}
	if err := f.checkLayout(h, metaEnd); err != nil {
		return nil, err
	}
	return f, nil
}

// The layout Unity gives a file, which checkLayout holds files to. Unity
// starts the object data at the metadata's end rounded up to 16 bytes
// (older writers to 4,096), each object at the previous one's end rounded
// up to 8 bytes from the data offset, and ends the file with the last
// object: every other byte belongs to the header, the metadata or an
// object. (Every one of the corpus's 8,861 objects in 38 files of formats
// 21 and 22 lies so.)
const (
	maxMetadataPadding = 4096
	dataAlignment      = 16
	objectAlignment    = 8
	maxObjectPadding   = objectAlignment
)

// checkLayout accounts for every byte of the file: the header, the
// metadata (ending at metaEnd), padding to the data offset, the objects
// and the padding between them. A region that none of these explains, an
// object outside the data area or overlapping another, is reported as a
// *FormatError naming its offset: damage that moved a size or an offset
// must not leave part of a file unread without a word.
func (f *File) checkLayout(h header, metaEnd int64) error {
	ferr := func(off int64, format string, a ...any) error {
		return &FormatError{File: f.Name, Offset: off, What: fmt.Sprintf(format, a...)}
	}
	dataStart, dataEnd := h.dataOffset, h.fileSize
	if h.version < 9 {
		// Objects first, the metadata at the end.
		dataEnd = metaEnd - int64(h.metadataSize)
		if dataStart < h.headerSize || dataStart > dataEnd {
			return ferr(12, "data offset %d outside [%d, %d], the header's end to the metadata", dataStart, h.headerSize, dataEnd)
		}
	} else {
		if dataStart < metaEnd {
			return ferr(h.dataOffsetAt(), "data offset %d lies inside the metadata (%d bytes from %d to %d)", dataStart, h.metadataSize, h.headerSize, metaEnd)
		}
		if pad := dataStart - metaEnd; pad >= maxMetadataPadding {
			return ferr(metaEnd, "%d bytes between the metadata's end at %d and the data offset %d are unexplained (padding is shorter than %d bytes)", pad, metaEnd, dataStart, maxMetadataPadding)
		}
		if dataStart%dataAlignment != 0 {
			return ferr(h.dataOffsetAt(), "data offset %d is not a multiple of %d", dataStart, dataAlignment)
		}
	}
	if h.fileSize > f.size {
		return ferr(f.size, "truncated: the header says the file has %d bytes, %d are available", h.fileSize, f.size)
	}
	idx := make([]int, len(f.Objects))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return f.Objects[idx[a]].Offset < f.Objects[idx[b]].Offset })
	prev, prevID, havePrev := dataStart, int64(0), false
	for _, i := range idx {
		o := &f.Objects[i]
		end := o.Offset + int64(o.Size)
		if o.Offset < dataStart || end > dataEnd {
			return ferr(o.Offset, "object %d (%d bytes at %d) lies outside the data area [%d, %d)", o.PathID, o.Size, o.Offset, dataStart, dataEnd)
		}
		if o.Offset < prev {
			return ferr(o.Offset, "object %d (%d bytes at %d) overlaps object %d, which ends at %d", o.PathID, o.Size, o.Offset, prevID, prev)
		}
		if (o.Offset-dataStart)%objectAlignment != 0 {
			return ferr(o.Offset, "object %d (%d bytes at %d) does not start a multiple of %d bytes after the data offset %d", o.PathID, o.Size, o.Offset, objectAlignment, dataStart)
		}
		if gap := o.Offset - prev; gap >= maxObjectPadding {
			if !havePrev {
				return ferr(prev, "%d bytes between the data offset %d and the first object (%d, at %d) are unexplained", gap, prev, o.PathID, o.Offset)
			}
			return ferr(prev, "%d bytes between object %d (ending at %d) and object %d (at %d) are unexplained", gap, prevID, prev, o.PathID, o.Offset)
		}
		prev, prevID, havePrev = end, o.PathID, true
	}
	end := f.size
	if h.version < 9 {
		end = dataEnd
	}
	if gap := end - prev; gap >= maxObjectPadding {
		if !havePrev {
			return ferr(prev, "%d bytes after the data offset %d hold no object (the object table lists none)", gap, prev)
		}
		return ferr(prev, "%d bytes after the last object (%d, ending at %d) are unexplained: the file has %d bytes", gap, prevID, prev, f.size)
	}
	if h.version < 9 && f.size-h.fileSize >= maxObjectPadding {
		return ferr(h.fileSize, "%d bytes after the file's end at %d (as its header gives it) are unexplained", f.size-h.fileSize, h.fileSize)
	}
	return nil
}

// maxString bounds the length of metadata strings (versions, paths).
const maxString = 1 << 16

func (f *File) readMetadata(r *binread.Reader) error {
	v := f.Version
	if v >= 7 {
		f.UnityVersion = r.CString(maxString, "unity version")
	}
	if v >= 8 {
		f.Platform = r.I32("target platform")
	}
	f.EnableTypeTree = true
	if v >= 13 {
		f.EnableTypeTree = r.Bool("enableTypeTree")
	}
	nTypes := r.Count(4, "type count")
	if err := r.Err(); err != nil {
		return err
	}
	f.Types = make([]Type, nTypes)
	for i := range f.Types {
		if err := f.readType(r, &f.Types[i], false); err != nil {
			return fmt.Errorf("type %d: %w", i, err)
		}
	}
	bigIDs := false
	if v >= 7 && v < 14 {
		bigIDs = r.I32("bigIDEnabled") != 0
	}
	// Every object entry takes at least 20 bytes in every version.
	nObj := r.Count(20, "object count")
	if err := r.Err(); err != nil {
		return err
	}
	if f.budget != nil {
		n := int64(nObj) * objectEntryBytes
		release, err := f.budget.Reserve(n, fmt.Sprintf("the object table of %d objects", nObj))
		if err != nil {
			return err
		}
		f.releases = append(f.releases, release)
		f.reserved += n
	}
	f.Objects = make([]Object, nObj)
	f.index = make(map[int64]int, nObj)
	for i := range f.Objects {
		o := &f.Objects[i]
		switch {
		case bigIDs:
			o.PathID = r.I64("path id")
		case v < 14:
			o.PathID = int64(r.I32("path id"))
		default:
			r.Align(4)
			o.PathID = r.I64("path id")
		}
		var start int64
		if v >= 22 {
			s := r.U64("object offset")
			if s > 1<<62 {
				r.Fail("object offset", fmt.Errorf("offset %d out of range", s))
			}
			start = int64(s)
		} else {
			start = int64(r.U32("object offset"))
		}
		o.Offset = f.DataOffset + start
		o.Size = r.U32("object size")
		typeID := r.I32("object type id")
		o.TypeIndex = -1
		if v < 16 {
			o.ClassID = int32(r.U16("object class id"))
			// typeID is the class id itself in old files; find its type entry.
			for j := range f.Types {
				if f.Types[j].ClassID == typeID {
					o.TypeIndex = j
					break
				}
			}
			if o.TypeIndex < 0 && o.ClassID == 0 {
				o.ClassID = typeID
			}
		} else {
			if typeID < 0 || int(typeID) >= len(f.Types) {
				r.Fail("object type id", fmt.Errorf("type index %d out of range (%d types)", typeID, len(f.Types)))
				break
			}
			o.TypeIndex = int(typeID)
			o.ClassID = f.Types[typeID].ClassID
		}
		if v < 11 {
			r.U16("isDestroyed")
		}
		if v >= 11 && v < 17 {
			r.I16("script type index")
		}
		if v == 15 || v == 16 {
			r.U8("stripped")
		}
		if err := r.Err(); err != nil {
			return fmt.Errorf("object %d: %w", i, err)
		}
		if _, dup := f.index[o.PathID]; !dup {
			f.index[o.PathID] = i
		}
	}
	if v >= 11 {
		n := r.Count(8, "script type count")
		if r.Err() == nil {
			f.ScriptTypes = make([]ScriptRef, n)
		}
		for i := range f.ScriptTypes {
			s := &f.ScriptTypes[i]
			s.FileIndex = r.I32("script file index")
			if v < 14 {
				s.PathID = int64(r.I32("script path id"))
			} else {
				r.Align(4)
				s.PathID = r.I64("script path id")
			}
		}
	}
	nExt := r.Count(2, "external count")
	if err := r.Err(); err != nil {
		return err
	}
	f.Externals = make([]External, nExt)
	for i := range f.Externals {
		e := &f.Externals[i]
		if v >= 6 {
			r.CString(maxString, "external temp path")
		}
		if v >= 5 {
			copy(e.GUID[:], r.Take(16, "external GUID"))
			e.Type = r.I32("external type")
		}
		e.Path = r.CString(maxString, "external path")
		if err := r.Err(); err != nil {
			return fmt.Errorf("external %d: %w", i, err)
		}
	}
	if v >= 20 {
		n := r.Count(4, "ref type count")
		if err := r.Err(); err != nil {
			return err
		}
		f.RefTypes = make([]Type, n)
		for i := range f.RefTypes {
			if err := f.readType(r, &f.RefTypes[i], true); err != nil {
				return fmt.Errorf("ref type %d: %w", i, err)
			}
		}
	}
	if v >= 5 {
		f.UserInfo = r.CString(maxString, "user information")
	}
	return r.Err()
}

func (f *File) readType(r *binread.Reader, t *Type, isRef bool) error {
	v := f.Version
	t.ClassID = r.I32("class id")
	t.ScriptTypeIndex = -1
	if v >= 16 {
		t.Stripped = r.Bool("isStrippedType")
	}
	if v >= 17 {
		t.ScriptTypeIndex = r.I16("script type index")
	}
	if v >= 13 {
		if (isRef && t.ScriptTypeIndex >= 0) || (v < 16 && t.ClassID < 0) || (v >= 16 && t.ClassID == ClassMonoBehaviour) {
			copy(t.ScriptID[:], r.Take(16, "script id"))
		}
		copy(t.OldTypeHash[:], r.Take(16, "old type hash"))
	}
	if err := r.Err(); err != nil {
		return err
	}
	if !f.EnableTypeTree {
		return nil
	}
	var err error
	fresh := true
	if v >= 12 || v == 10 {
		t.Tree, fresh, err = readBlobTree(r, v, f.trees)
	} else {
		t.Tree, err = readLegacyTree(r, v)
	}
	if err != nil {
		return fmt.Errorf("class %d type tree: %w", t.ClassID, err)
	}
	if fresh {
		f.treeNodes += len(t.Tree.Nodes)
	}
	if v >= 21 {
		if isRef {
			t.ClassName = r.CString(maxString, "ref type class name")
			t.Namespace = r.CString(maxString, "ref type namespace")
			t.Assembly = r.CString(maxString, "ref type assembly")
		} else {
			n := r.Count(4, "type dependency count")
			if r.Err() == nil && n > 0 {
				t.Dependencies = make([]int32, n)
				for i := range t.Dependencies {
					t.Dependencies[i] = r.I32("type dependency")
				}
			}
		}
	}
	return r.Err()
}

// maxNodes bounds a type tree's node count.
const maxNodes = 1 << 20

// readBlobTree reads the flat type-tree format of versions 10 and 12+,
// taking the tree from shared when it holds the same one (fresh is then
// false).
func readBlobTree(r *binread.Reader, v uint32, shared *Trees) (t *typetree.Tree, fresh bool, err error) {
	nodeSize := 24
	if v >= 19 {
		nodeSize = 32
	}
	n := r.Count(nodeSize, "type tree node count")
	strSize := r.I32("type tree string buffer size")
	if err := r.Err(); err != nil {
		return nil, false, err
	}
	if n > maxNodes {
		return nil, false, fmt.Errorf("%d type tree nodes exceed the limit %d", n, maxNodes)
	}
	if strSize < 0 || int64(strSize) > int64(r.Len()-n*nodeSize) {
		return nil, false, fmt.Errorf("type tree string buffer size %d exceeds the bytes remaining", strSize)
	}
	nodeBytes := r.Take(n*nodeSize, "type tree nodes")
	strs := r.Take(int(strSize), "type tree strings")
	if err := r.Err(); err != nil {
		return nil, false, err
	}
	var key [32]byte
	if shared != nil {
		key = treeKey(r.Order, nodeSize, nodeBytes, strs)
		if t := shared.tree(key); t != nil {
			return t, false, nil
		}
	}
	nr := binread.New(nodeBytes, r.Order)
	t = &typetree.Tree{Nodes: make([]typetree.Node, n)}
	// Names repeat a lot; share the string values.
	cache := make(map[uint32]string)
	str := func(off uint32) (string, error) {
		if s, ok := cache[off]; ok {
			return s, nil
		}
		var s string
		if off&0x80000000 != 0 {
			var ok bool
			s, ok = typetree.CommonString(off &^ 0x80000000)
			if !ok {
				return "", fmt.Errorf("unknown common string offset %d", off&^0x80000000)
			}
		} else {
			if int64(off) >= int64(len(strs)) {
				return "", fmt.Errorf("string offset %d outside the %d-byte string buffer", off, len(strs))
			}
			b := strs[off:]
			end := 0
			for end < len(b) && b[end] != 0 {
				end++
			}
			if end == len(b) {
				return "", fmt.Errorf("string at offset %d has no terminator", off)
			}
			s = string(b[:end])
		}
		cache[off] = s
		return s, nil
	}
	for i := range t.Nodes {
		nd := &t.Nodes[i]
		nd.Version = int32(nr.U16("node version"))
		nd.Level = int(nr.U8("node level"))
		nd.TypeFlags = nr.U8("node type flags")
		typeOff := nr.U32("node type offset")
		nameOff := nr.U32("node name offset")
		nd.ByteSize = nr.I32("node byte size")
		nd.Index = nr.I32("node index")
		nd.Flags = nr.U32("node meta flag")
		if v >= 19 {
			nd.RefTypeHash = nr.U64("node ref type hash")
		}
		var err error
		if nd.Type, err = str(typeOff); err != nil {
			return nil, false, fmt.Errorf("node %d type: %w", i, err)
		}
		if nd.Name, err = str(nameOff); err != nil {
			return nil, false, fmt.Errorf("node %d name: %w", i, err)
		}
	}
	if err := nr.Err(); err != nil {
		return nil, false, err
	}
	if shared != nil {
		held := shared.keep(key, t)
		return held, held == t, nil
	}
	return t, true, nil
}

// maxLegacyDepth bounds the recursion of the old nested type-tree format.
const maxLegacyDepth = 64

// readLegacyTree reads the nested type-tree format of versions below 10 and 11.
func readLegacyTree(r *binread.Reader, v uint32) (*typetree.Tree, error) {
	t := &typetree.Tree{}
	var rec func(level int) error
	rec = func(level int) error {
		if level > maxLegacyDepth {
			return fmt.Errorf("type tree nested deeper than %d", maxLegacyDepth)
		}
		if len(t.Nodes) >= maxNodes {
			return fmt.Errorf("more than %d type tree nodes", maxNodes)
		}
		var nd typetree.Node
		nd.Level = level
		nd.Type = r.CString(maxString, "node type")
		nd.Name = r.CString(maxString, "node name")
		nd.ByteSize = r.I32("node byte size")
		if v == 2 {
			r.I32("node variable count")
		}
		if v != 3 {
			nd.Index = r.I32("node index")
		}
		nd.TypeFlags = uint8(r.I32("node is-array"))
		nd.Version = r.I32("node version")
		if v != 3 {
			nd.Flags = r.U32("node meta flag")
		}
		nChildren := r.Count(14, "node child count")
		if err := r.Err(); err != nil {
			return err
		}
		t.Nodes = append(t.Nodes, nd)
		for i := 0; i < nChildren; i++ {
			if err := rec(level + 1); err != nil {
				return err
			}
		}
		return nil
	}
	if err := rec(0); err != nil {
		return nil, err
	}
	return t, nil
}

// Object returns the object with the given path id.
func (f *File) Object(pathID int64) (*Object, bool) {
	i, ok := f.index[pathID]
	if !ok {
		return nil, false
	}
	return &f.Objects[i], true
}

// TypeOf returns the type table entry of o, or nil when it has none.
func (f *File) TypeOf(o *Object) *Type {
	if o.TypeIndex < 0 || o.TypeIndex >= len(f.Types) {
		return nil
	}
	return &f.Types[o.TypeIndex]
}

// ReadObject returns a fresh copy of o's bytes, after checking that they lie
// inside the file.
func (f *File) ReadObject(o *Object) ([]byte, error) {
	end := o.Offset + int64(o.Size)
	if o.Offset < 0 || end > f.size || end < o.Offset {
		return nil, &FormatError{File: f.Name, Offset: o.Offset,
			What: fmt.Sprintf("object %d (%d bytes at %d) runs past the end of the %d-byte file", o.PathID, o.Size, o.Offset, f.size)}
	}
	b := make([]byte, o.Size)
	if _, err := f.r.ReadAt(b, o.Offset); err != nil && !(err == io.EOF && len(b) == 0) {
		return nil, &FormatError{File: f.Name, Offset: o.Offset, What: fmt.Sprintf("reading object %d", o.PathID), Err: err}
	}
	return b, nil
}

// GUIDString formats a GUID as Unity does in .meta files and its tools: 32
// hex digits, each byte written low nibble first.
func GUIDString(g [16]byte) string {
	const hex = "0123456789abcdef"
	var b [32]byte
	for i, c := range g {
		b[2*i] = hex[c&0xf]
		b[2*i+1] = hex[c>>4]
	}
	return string(b[:])
}

// objectEntryBytes is what one entry of the object table holds: its Object
// and its entry in the path id index.
const objectEntryBytes = int64(unsafe.Sizeof(Object{})) + 48

// Reserved returns the bytes OpenWith charged to Options.Budget.
func (f *File) Reserved() int64 { return f.reserved }

// Release gives back what OpenWith charged to Options.Budget (once).
func (f *File) Release() {
	for _, r := range f.releases {
		r()
	}
	f.releases, f.reserved = nil, 0
}

// HeldBytes estimates the memory the file's metadata holds while it is
// open: its object table and path id index, its externals and the type
// trees it brought (trees another file brought to a shared Trees count
// there), each node also compiled once for decoding. Callers charge it to
// the process's memory bound (unity/assets charges its unityfs.Cache).
func (f *File) HeldBytes() int64 {
	const (
		indexEntry = 48 // a map entry of index
		compiled   = 96 // a typetree layout node
		objectSize = int64(unsafe.Sizeof(Object{})) + indexEntry
		nodeSize   = int64(unsafe.Sizeof(typetree.Node{})) + compiled
		typeSize   = int64(unsafe.Sizeof(Type{}))
		extSize    = int64(unsafe.Sizeof(External{}))
	)
	n := int64(len(f.Objects))*objectSize + int64(len(f.Types)+len(f.RefTypes))*typeSize + int64(f.treeNodes)*nodeSize
	for _, e := range f.Externals {
		n += extSize + int64(len(e.Path))
	}
	return n
}

// External returns the file a PPtr's m_FileID refers to: 0 is this file
// (ok with a nil External), i > 0 is Externals[i-1].
func (f *File) External(fileID int32) (*External, bool) {
	if fileID == 0 {
		return nil, true
	}
	if fileID < 0 || int(fileID) > len(f.Externals) {
		return nil, false
	}
	return &f.Externals[fileID-1], true
}

// ObjectsOfClass returns the objects of the given class id, in file order.
func (f *File) ObjectsOfClass(classID int32) []*Object {
	var out []*Object
	for i := range f.Objects {
		if f.Objects[i].ClassID == classID {
			out = append(out, &f.Objects[i])
		}
	}
	return out
}
