// Package model holds what a clip, an avatar, a controller and a rig are,
// independent of where they came from (a compiled Unity object, a YAML asset,
// or a program). The file readers produce these values; the runtime consumes
// them and never imports the readers.
package model

import (
	"hash/crc32"
	"strconv"
)

// Ref is a reference to a Unity object (a PPtr): a file index (0 = the same
// serialized file, n = its n-th external) and a path id. The zero Ref is null.
type Ref struct {
	FileID int32
	PathID int64
}

// IsNull reports whether r points at nothing.
func (r Ref) IsNull() bool { return r.FileID == 0 && r.PathID == 0 }

// PathHash is the hash Unity gives a Transform path below an Animator's
// GameObject (and names in controllers): the IEEE (zlib) CRC-32 of its bytes.
// The Animator's own GameObject is the empty path, hash 0.
func PathHash(path string) uint32 {
	if path == "" {
		return 0
	}
	return crc32.ChecksumIEEE([]byte(path))
}

// UnnamedPath is how a path known only by its hash is written wherever a
// path is shown or kept (skeleton joints, curve targets): "#" and the hash
// in decimal. Never a guess at the name.
func UnnamedPath(h uint32) string { return "#" + strconv.FormatUint(uint64(h), 10) }

// HashOfPath returns the hash a path stands for: the hash an UnnamedPath
// carries, else the path's PathHash. A skeleton whose joints a name table
// could not name still binds clips by their hashes through it.
func HashOfPath(p string) uint32 {
	if len(p) > 1 && p[0] == '#' && p[1] >= '0' && p[1] <= '9' {
		if h, err := strconv.ParseUint(p[1:], 10, 32); err == nil && UnnamedPath(uint32(h)) == p {
			return uint32(h)
		}
	}
	return PathHash(p)
}

// Names maps hashes back to the strings they were made from (an avatar's or
// a controller's name table, or hashes of a rig's paths).
type Names map[uint32]string

// Add records s under its hash and returns the hash.
func (n Names) Add(s string) uint32 {
	h := PathHash(s)
	n[h] = s
	return h
}

// Lookup returns the name of h, if known.
func (n Names) Lookup(h uint32) (string, bool) {
	s, ok := n[h]
	return s, ok
}

// Source says where an object was read from: which input, which file in
// it, which object. It is what tells two objects of one name apart, and
// what every listing and every error about an object shows.
type Source struct {
	// Container is the input as given: a bundle, a serialized file, a
	// WebGL .data, a YAML asset, a project folder, a glTF file.
	Container string `json:"container"`
	// File is the serialized file inside a container (CAB-…), or the
	// asset's path inside a project folder; "" when the container is the
	// file.
	File string `json:"file"`
	// PathID is the object's path id in its serialized file, or its fileID
	// in a YAML asset (0 for an input that is one object, such as a glTF
	// character).
	PathID int64 `json:"path_id"`
}

// String names the source for messages: container, file and path id.
func (s Source) String() string {
	out := s.Container
	if s.File != "" {
		out += ": " + s.File
	}
	if s.PathID != 0 {
		out += ": path id " + strconv.FormatInt(s.PathID, 10)
	}
	return out
}
