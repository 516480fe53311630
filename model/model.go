// Package model holds what a clip, an avatar, a controller and a rig are,
// independent of where they came from (a compiled Unity object, a YAML asset,
// or a program). The file readers produce these values; the runtime consumes
// them and never imports the readers.
package model

import "hash/crc32"

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
