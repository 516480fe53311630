package assets

import (
	"errors"
	"fmt"
	"sort"

	"github.com/mecanim/mecanim/unity/unityfs"
	"github.com/mecanim/mecanim/unity/webdata"
)

// ErrUnaccounted is wrapped when part of a container is explained by
// nothing in it: bytes before, between or after a bundle's nodes, after its
// blocks or past the size its header gives, a WebData entry inside the
// directory, bytes between or after its entries. Damage to a size, an
// offset or a count leaves such bytes; reading on would make what they hold
// vanish without a word.
var ErrUnaccounted = errors.New("bytes that nothing in the container explains")

// maxContainerPadding is the padding tolerated between the parts of a
// container. Unity's writer leaves none (every corpus bundle's nodes and
// blocks and every WebData container's entries lie end to end); padding to
// a 16-byte boundary is allowed.
const maxContainerPadding = 16

// span is a byte range of a container that something explains.
type span struct {
	off, size int64
	name      string
}

// account checks that spans cover [start, end) with no gap of
// maxContainerPadding bytes or more; area names the range and kind what
// the spans are, for messages. Empty spans explain nothing and are
// skipped.
func account(spans []span, start, end int64, area, kind string) error {
	var s []span
	for _, x := range spans {
		if x.size > 0 {
			s = append(s, x)
		}
	}
	sort.SliceStable(s, func(i, j int) bool { return s[i].off < s[j].off })
	prev, prevName := start, ""
	for _, x := range s {
		if x.off < start {
			return fmt.Errorf("%w: %s %q at offset %d lies before the %s, which starts at offset %d", ErrUnaccounted, kind, x.name, x.off, area, start)
		}
		if gap := x.off - prev; gap >= maxContainerPadding {
			if prevName == "" {
				return fmt.Errorf("%w: the %d bytes of the %s from offset %d to the first %s (%q, at offset %d)", ErrUnaccounted, gap, area, prev, kind, x.name, x.off)
			}
			return fmt.Errorf("%w: the %d bytes of the %s from offset %d, the end of %s %q, to %s %q at offset %d", ErrUnaccounted, gap, area, prev, kind, prevName, kind, x.name, x.off)
		}
		prev, prevName = max(prev, x.off+x.size), x.name
	}
	if gap := end - prev; gap >= maxContainerPadding {
		if prevName == "" {
			return fmt.Errorf("%w: the %d bytes of the %s from offset %d to %d hold no %s", ErrUnaccounted, gap, area, start, end, kind)
		}
		return fmt.Errorf("%w: the %d bytes of the %s from offset %d, the end of its last %s (%q), to its end at %d", ErrUnaccounted, gap, area, prev, kind, prevName, end)
	}
	return nil
}

// accountBundle checks that a bundle of size bytes is what its header
// says: as long as the header gives, its blocks ending where the file (or
// the block info stored at its end) does, and its nodes covering the
// blocks' uncompressed data.
func accountBundle(a *unityfs.Archive, size int64) error {
	// The header's total size follows the signature, the format version
	// and two version strings.
	at := len(a.Signature) + 1 + 4 + len(a.PlayerVersion) + 1 + len(a.EngineVersion) + 1
	if a.Size > size {
		return fmt.Errorf("%w: truncated: the header's total size (at offset %d) gives the bundle %d bytes, %d are available", ErrUnaccounted, at, a.Size, size)
	}
	if a.Size+maxContainerPadding <= size {
		return fmt.Errorf("%w: the %d bytes from offset %d, the bundle's end as its header's total size (at offset %d) gives it, to the end of the file at %d", ErrUnaccounted, size-a.Size, a.Size, at, size)
	}
	dataEnd := a.DataOffset
	var stream int64
	for _, b := range a.Blocks {
		dataEnd += int64(b.CompressedSize)
		stream += int64(b.UncompressedSize)
	}
	end := size
	if a.Flags&unityfs.FlagBlockInfoAtEnd != 0 {
		end -= int64(a.CompressedBlockInfoSize)
	}
	if dataEnd+maxContainerPadding <= end {
		return fmt.Errorf("%w: the %d bytes from offset %d, the end of the last of the %d blocks, to %d", ErrUnaccounted, end-dataEnd, dataEnd, len(a.Blocks), end)
	}
	spans := make([]span, len(a.Nodes))
	for i, n := range a.Nodes {
		spans[i] = span{n.Offset, n.Size, n.Path}
	}
	return account(spans, 0, stream, "bundle's uncompressed data", "node")
}

// accountWebData checks that a WebData container's entries lie after its
// directory and cover the rest of its size bytes.
func accountWebData(a *webdata.Archive, size int64) error {
	spans := make([]span, len(a.Entries))
	for i, e := range a.Entries {
		spans[i] = span{e.Offset, e.Size, e.Name}
	}
	return account(spans, int64(a.HeaderSize), size, "container after its directory", "entry")
}
