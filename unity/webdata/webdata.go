// Package webdata reads the UnityWebData1.0 containers of Unity's WebGL
// builds (the "*.data" file a WebGL player downloads): a small directory of
// named files stored back to back, typically holding an asset bundle
// ("data.unity3d"), serialized files and a few JSON/config files.
//
// The layout is: the signature "UnityWebData1.0\0", a little-endian uint32
// header size (the offset where the directory ends), then directory entries
// (uint32 offset, uint32 size, uint32 name length, the name bytes) until that
// offset. Offsets are from the start of the container.
package webdata

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/mecanim/mecanim/unity/binread"
	"github.com/mecanim/mecanim/unity/internal/container"
)

// Signature is the magic string (including its NUL) at the start of a container.
const Signature = "UnityWebData1.0\x00"

// MaxHeaderSize bounds the directory size, so that a hostile header size
// cannot make Open allocate unbounded memory.
const MaxHeaderSize = 64 << 20

// maxName bounds an entry's name.
const maxName = 4096

// FormatError reports a malformed container: where (a file offset) and what
// was wrong.
type FormatError struct {
	Offset int64  // byte offset of the problem
	What   string // what was being read or checked
	Err    error  // underlying cause, if any
}

// Error describes the failure and where it happened.
func (e *FormatError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("webdata: at offset %d: %s: %v", e.Offset, e.What, e.Err)
	}
	return fmt.Sprintf("webdata: at offset %d: %s", e.Offset, e.What)
}

// Unwrap returns the underlying cause.
func (e *FormatError) Unwrap() error { return e.Err }

// Entry is one file stored in the container.
type Entry struct {
	Name   string // e.g. "data.unity3d", "Resources/unity_default_resources"
	Offset int64  // file offset of the entry's bytes
	Size   int64  // size in bytes
}

// Archive is an open UnityWebData container.
type Archive struct {
	// HeaderSize is the declared end of the directory (where entry data may start).
	HeaderSize uint32
	Entries    []Entry

	r      io.ReaderAt
	closer io.Closer // the file OpenFile opened, or nil
}

// IsWebData reports whether prefix (the first bytes of a file, at least 16)
// starts with the UnityWebData1.0 signature.
func IsWebData(prefix []byte) bool {
	return bytes.HasPrefix(prefix, []byte(Signature))
}

// Open reads the directory of the container held in the first size bytes of r.
func Open(r io.ReaderAt, size int64) (*Archive, error) {
	const fixed = len(Signature) + 4
	if size < int64(fixed) {
		return nil, &FormatError{Offset: 0, What: "header", Err: fmt.Errorf("%d-byte file is too short for a UnityWebData header", size)}
	}
	head := make([]byte, fixed)
	if err := container.ReadFull(r, head, 0); err != nil {
		return nil, &FormatError{Offset: 0, What: "reading header", Err: err}
	}
	if !IsWebData(head) {
		return nil, &FormatError{Offset: 0, What: "signature", Err: fmt.Errorf("not a UnityWebData1.0 container")}
	}
	hsize := binary.LittleEndian.Uint32(head[len(Signature):])
	if int64(hsize) < int64(fixed) || int64(hsize) > size || hsize > MaxHeaderSize {
		return nil, &FormatError{Offset: int64(len(Signature)), What: "header size",
			Err: fmt.Errorf("%d is outside [%d, min(file size %d, %d)]", hsize, fixed, size, MaxHeaderSize)}
	}
	dir := make([]byte, int(hsize)-fixed)
	if err := container.ReadFull(r, dir, int64(fixed)); err != nil {
		return nil, &FormatError{Offset: int64(fixed), What: "reading directory", Err: err}
	}
	a := &Archive{HeaderSize: hsize, r: r}
	br := binread.New(dir, binary.LittleEndian)
	br.Base = int64(fixed)
	for br.Len() > 0 {
		pos := br.Base + int64(br.Pos())
		off := br.U32("entry offset")
		sz := br.U32("entry size")
		nlen := br.U32("entry name length")
		if br.Err() == nil && (nlen > maxName || int(nlen) > br.Len()) {
			return nil, &FormatError{Offset: pos + 8, What: "entry name length",
				Err: fmt.Errorf("%d exceeds the %d directory bytes remaining (or the limit of %d)", nlen, br.Len(), maxName)}
		}
		name := br.Take(int(nlen), "entry name")
		if err := br.Err(); err != nil {
			var be *binread.Error
			if errors.As(err, &be) {
				return nil, &FormatError{Offset: be.Offset, What: "directory: " + be.What, Err: be.Err}
			}
			return nil, &FormatError{Offset: pos, What: "directory", Err: err}
		}
		e := Entry{Name: string(name), Offset: int64(off), Size: int64(sz)}
		if e.Offset > size || e.Size > size-e.Offset {
			return nil, &FormatError{Offset: pos, What: fmt.Sprintf("entry %d (%q)", len(a.Entries), e.Name),
				Err: fmt.Errorf("range [%d, +%d) runs past the end of the %d-byte file", e.Offset, e.Size, size)}
		}
		a.Entries = append(a.Entries, e)
	}
	if err := a.checkOverlap(); err != nil {
		return nil, err
	}
	return a, nil
}

// checkOverlap rejects non-empty entries whose byte ranges overlap. Unity
// writes entries one after another; overlapping entries would let a small
// container list the same bundle thousands of times, and a reader opening
// every entry would repeat that bundle's work per entry.
func (a *Archive) checkOverlap() error {
	pi, ei, ok := container.Overlap(len(a.Entries), func(i int) (int64, int64) { return a.Entries[i].Offset, a.Entries[i].Size })
	if !ok {
		return nil
	}
	p, e := &a.Entries[pi], &a.Entries[ei]
	return &FormatError{Offset: int64(len(Signature) + 4), What: fmt.Sprintf("entry %d (%q)", ei, e.Name),
		Err: fmt.Errorf("range [%d, +%d) overlaps entry %d (%q) at [%d, +%d)", e.Offset, e.Size, pi, p.Name, p.Offset, p.Size)}
}

// OpenFile opens the named container file. Close the Archive to close the file.
func OpenFile(name string) (*Archive, error) {
	a, f, err := container.OpenFile(name, Open)
	if err != nil {
		return nil, err
	}
	a.closer = f
	return a, nil
}

// Close closes the file opened by OpenFile; it does nothing for an Archive
// made by Open.
func (a *Archive) Close() error {
	if a.closer != nil {
		err := a.closer.Close()
		a.closer = nil
		return err
	}
	return nil
}

// Entry returns the index of the entry with the given name.
func (a *Archive) Entry(name string) (int, bool) {
	for i := range a.Entries {
		if a.Entries[i].Name == name {
			return i, true
		}
	}
	return -1, false
}

// EntryReader returns a view of entry i's bytes. It returns nil when i is not
// a valid entry index.
func (a *Archive) EntryReader(i int) *io.SectionReader {
	if i < 0 || i >= len(a.Entries) {
		return nil
	}
	return io.NewSectionReader(a.r, a.Entries[i].Offset, a.Entries[i].Size)
}
