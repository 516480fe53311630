package unitywrite

import (
	"encoding/binary"
	"fmt"

	"github.com/pierrec/lz4/v4"
)

// Entry is a file stored in a bundle.
type Entry struct {
	Path string
	Data []byte
	// Flags: 4 marks a serialized file in Unity's bundles.
	Flags uint32
}

// Bundle writes a UnityFS bundle of archive format 8 whose data is split
// into LZ4HC-compressed blocks of at most blockSize bytes (stored raw when
// compression does not help), with the block info LZ4-compressed after the
// header.
func Bundle(engineVersion string, entries []Entry, blockSize int) ([]byte, error) {
	if blockSize <= 0 {
		blockSize = 128 << 10
	}
	be := binary.BigEndian
	stream, nodes := concatEntries(entries)
	var blocks []bundleBlock
	for off := 0; off < len(stream) || (off == 0 && len(stream) == 0); off += blockSize {
		end := off + blockSize
		if end > len(stream) {
			end = len(stream)
		}
		raw := stream[off:end]
		dst := make([]byte, lz4.CompressBlockBound(len(raw)))
		var c lz4.CompressorHC
		n, err := c.CompressBlock(raw, dst)
		if err != nil {
			return nil, fmt.Errorf("lz4: %w", err)
		}
		if n == 0 || n >= len(raw) {
			blocks = append(blocks, bundleBlock{uint32(len(raw)), uint32(len(raw)), 0, raw})
		} else {
			blocks = append(blocks, bundleBlock{uint32(len(raw)), uint32(n), 3, dst[:n]})
		}
		if len(stream) == 0 {
			break
		}
	}
	info := blockInfo(blocks, nodes)
	cinfo := make([]byte, lz4.CompressBlockBound(len(info)))
	n, err := lz4.CompressBlock(info, cinfo, nil)
	if err != nil || n == 0 {
		return nil, fmt.Errorf("lz4 block info: %v", err)
	}
	cinfo = cinfo[:n]

	var out []byte
	out = append(out, "UnityFS\x00"...)
	out = be.AppendUint32(out, 8)
	out = append(out, "5.x.x\x00"...)
	out = append(out, engineVersion...)
	out = append(out, 0)
	sizePos := len(out)
	out = be.AppendUint64(out, 0)
	out = be.AppendUint32(out, uint32(len(cinfo)))
	out = be.AppendUint32(out, uint32(len(info)))
	const flagCombined = 0x40
	out = be.AppendUint32(out, 2|flagCombined) // block info LZ4, directory combined
	for len(out)%16 != 0 {
		out = append(out, 0)
	}
	out = append(out, cinfo...)
	for _, b := range blocks {
		out = append(out, b.data...)
	}
	be.PutUint64(out[sizePos:], uint64(len(out)))
	return out, nil
}

// bundleNode is a file's place in a bundle's uncompressed stream.
type bundleNode struct {
	off, size int64
	flags     uint32
	path      string
}

// bundleBlock is one stored block of a bundle's stream.
type bundleBlock struct {
	usize, csize uint32
	flags        uint16
	data         []byte
}

// concatEntries lays the entries end to end: the bundle's uncompressed
// stream and each entry's node in it.
func concatEntries(entries []Entry) ([]byte, []bundleNode) {
	var stream []byte
	var nodes []bundleNode
	for _, e := range entries {
		nodes = append(nodes, bundleNode{int64(len(stream)), int64(len(e.Data)), e.Flags, e.Path})
		stream = append(stream, e.Data...)
	}
	return stream, nodes
}

// blockInfo is a bundle's block info, uncompressed: the 16-byte hash
// (zero), the blocks and the directory of nodes, big-endian.
func blockInfo(blocks []bundleBlock, nodes []bundleNode) []byte {
	be := binary.BigEndian
	var info []byte
	info = append(info, make([]byte, 16)...)
	info = be.AppendUint32(info, uint32(len(blocks)))
	for _, b := range blocks {
		info = be.AppendUint32(info, b.usize)
		info = be.AppendUint32(info, b.csize)
		info = be.AppendUint16(info, b.flags)
	}
	info = be.AppendUint32(info, uint32(len(nodes)))
	for _, n := range nodes {
		info = be.AppendUint64(info, uint64(n.off))
		info = be.AppendUint64(info, uint64(n.size))
		info = be.AppendUint32(info, n.flags)
		info = append(info, n.path...)
		info = append(info, 0)
	}
	return info
}
