package unitywrite

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/pierrec/lz4/v4"

	"github.com/mecanim/mecanim/unity/typetree"
)

// ErrUnsupportedFormat is wrapped when a file is asked for in a format
// version this package does not write.
var ErrUnsupportedFormat = errors.New("unitywrite: format version not written")

// Type is one entry of a serialized file's type table, as a game's own file
// has it: the class, its script (MonoBehaviours), the hash Unity checks the
// layout by, and the type tree (embedded unless the file strips them).
type Type struct {
	ClassID         int32
	Stripped        bool
	ScriptTypeIndex int16
	ScriptID        [16]byte
	OldTypeHash     [16]byte
	Tree            *typetree.Tree
	Dependencies    []int32
}

// FileObject is an object of a serialized file: its path id, the index of
// its entry in the type table and its encoded bytes.
type FileObject struct {
	PathID int64
	Type   int
	Data   []byte
}

// FileSpec is what a serialized file holds besides its objects.
type FileSpec struct {
	// Format is the serialized file format version: 17 to 22 (Unity 5.5
	// to 6).
	Format       uint32
	UnityVersion string
	Platform     int32
	// EmbedTrees writes each type's tree (Unity's "type tree enabled").
	EmbedTrees bool
	Types      []Type
	Externals  []External
}

// WriteSerializedFile writes a little-endian serialized file of spec's
// format holding objs in the order given: object data aligned to 8 bytes,
// the data offset aligned to 16, every padding byte zero (as Unity's build
// writes them).
func WriteSerializedFile(spec FileSpec, objs []FileObject) ([]byte, error) {
	v := spec.Format
	if v < 17 || v > 22 {
		return nil, fmt.Errorf("%w: serialized file format %d (17 to 22 are written)", ErrUnsupportedFormat, v)
	}
	le := binary.LittleEndian
	headerSize := 20
	if v >= 22 {
		headerSize = 48
	}
	var m []byte
	cstr := func(s string) { m = append(m, s...); m = append(m, 0) }
	cstr(spec.UnityVersion)
	m = le.AppendUint32(m, uint32(spec.Platform))
	if spec.EmbedTrees {
		m = append(m, 1)
	} else {
		m = append(m, 0)
	}
	m = le.AppendUint32(m, uint32(len(spec.Types)))
	for i := range spec.Types {
		t := &spec.Types[i]
		m = le.AppendUint32(m, uint32(t.ClassID))
		if t.Stripped {
			m = append(m, 1)
		} else {
			m = append(m, 0)
		}
		m = le.AppendUint16(m, uint16(t.ScriptTypeIndex))
		if t.ClassID == 114 {
			m = append(m, t.ScriptID[:]...)
		}
		m = append(m, t.OldTypeHash[:]...)
		if spec.EmbedTrees {
			if t.Tree == nil {
				return nil, fmt.Errorf("type %d (class %d) has no type tree to embed", i, t.ClassID)
			}
			m = appendTreeVersion(m, t.Tree, v, true)
			if v >= 21 {
				m = le.AppendUint32(m, uint32(len(t.Dependencies)))
				for _, d := range t.Dependencies {
					m = le.AppendUint32(m, uint32(d))
				}
			}
		}
	}
	m = le.AppendUint32(m, uint32(len(objs)))
	offsets := make([]int64, len(objs))
	var dataLen int64
	for i := range objs {
		if objs[i].Type < 0 || objs[i].Type >= len(spec.Types) {
			return nil, fmt.Errorf("object %d: type index %d of %d types", objs[i].PathID, objs[i].Type, len(spec.Types))
		}
		dataLen = (dataLen + 7) &^ 7
		offsets[i] = dataLen
		dataLen += int64(len(objs[i].Data))
	}
	for i := range objs {
		for (headerSize+len(m))%4 != 0 {
			m = append(m, 0)
		}
		m = le.AppendUint64(m, uint64(objs[i].PathID))
		if v >= 22 {
			m = le.AppendUint64(m, uint64(offsets[i]))
		} else {
			m = le.AppendUint32(m, uint32(offsets[i]))
		}
		m = le.AppendUint32(m, uint32(len(objs[i].Data)))
		m = le.AppendUint32(m, uint32(objs[i].Type))
	}
	m = le.AppendUint32(m, 0) // script types
	m = le.AppendUint32(m, uint32(len(spec.Externals)))
	for _, x := range spec.Externals {
		cstr("")
		m = append(m, x.GUID[:]...)
		m = le.AppendUint32(m, uint32(x.Type))
		cstr(x.Path)
	}
	if v >= 20 {
		m = le.AppendUint32(m, 0) // ref types
	}
	cstr("") // user information

	dataOffset := (int64(headerSize+len(m)) + 15) &^ 15
	fileSize := dataOffset + dataLen
	if v < 22 && fileSize > 1<<32-1 {
		return nil, fmt.Errorf("%w: %d bytes do not fit format %d", ErrUnsupportedFormat, fileSize, v)
	}
	be := binary.BigEndian
	out := make([]byte, 0, fileSize)
	if v >= 22 {
		out = be.AppendUint32(out, 0)
		out = be.AppendUint32(out, 0)
		out = be.AppendUint32(out, v)
		out = be.AppendUint32(out, 0)
		out = append(out, 0, 0, 0, 0)
		out = be.AppendUint32(out, uint32(len(m)))
		out = be.AppendUint64(out, uint64(fileSize))
		out = be.AppendUint64(out, uint64(dataOffset))
		out = be.AppendUint64(out, 0)
	} else {
		out = be.AppendUint32(out, uint32(len(m)))
		out = be.AppendUint32(out, uint32(fileSize))
		out = be.AppendUint32(out, v)
		out = be.AppendUint32(out, uint32(dataOffset))
		out = append(out, 0, 0, 0, 0)
	}
	out = append(out, m...)
	for int64(len(out)) < dataOffset {
		out = append(out, 0)
	}
	for i := range objs {
		for int64(len(out)) < dataOffset+offsets[i] {
			out = append(out, 0)
		}
		out = append(out, objs[i].Data...)
	}
	return out, nil
}

// appendTreeVersion writes a type tree in the blob format of format v
// (nodes of 24 bytes before 19, 32 with the reference type hash from 19);
// with common, types and fields found in Unity's common string buffer are
// named by their offset there, as Unity's writer does (the test files of
// SerializedFile keep every string in the tree's own buffer).
func appendTreeVersion(m []byte, t *typetree.Tree, v uint32, common bool) []byte {
	le := binary.LittleEndian
	var strs []byte
	offs := map[string]uint32{}
	str := func(s string) uint32 {
		if o, ok := offs[s]; ok {
			return o
		}
		if o, ok := typetree.CommonStringOffset(s); ok && common {
			return o | 0x80000000
		}
		o := uint32(len(strs))
		strs = append(strs, s...)
		strs = append(strs, 0)
		offs[s] = o
		return o
	}
	type rec struct{ typ, name uint32 }
	recs := make([]rec, len(t.Nodes))
	for i, n := range t.Nodes {
		recs[i] = rec{str(n.Type), str(n.Name)}
	}
	m = le.AppendUint32(m, uint32(len(t.Nodes)))
	m = le.AppendUint32(m, uint32(len(strs)))
	for i, n := range t.Nodes {
		m = le.AppendUint16(m, uint16(n.Version))
		m = append(m, byte(n.Level), n.TypeFlags)
		m = le.AppendUint32(m, recs[i].typ)
		m = le.AppendUint32(m, recs[i].name)
		m = le.AppendUint32(m, uint32(n.ByteSize))
		m = le.AppendUint32(m, uint32(i))
		m = le.AppendUint32(m, n.Flags)
		if v >= 19 {
			m = le.AppendUint64(m, n.RefTypeHash)
		}
	}
	return append(m, strs...)
}

// Compression is how a bundle's data blocks are stored.
type Compression uint8

// Block compressions a bundle is written with.
const (
	StoreNone  Compression = 0
	StoreLZMA  Compression = 1
	StoreLZ4HC Compression = 3
)

// String names the compression as the command line does.
func (c Compression) String() string {
	switch c {
	case StoreNone:
		return "none"
	case StoreLZMA:
		return "lzma"
	case StoreLZ4HC:
		return "lz4hc"
	}
	return "unknown"
}

// BundleSpec is what a UnityFS bundle's header says and how its data is
// stored.
type BundleSpec struct {
	// Format is the archive format version: 6, 7 (Unity 2019.4 on, header
	// padded to 16 bytes) or 8 (2022 on; the block data also starts on a
	// 16-byte boundary).
	Format        uint32
	PlayerVersion string // "5.x.x" in every Unity 5+ bundle
	EngineVersion string
	Compression   Compression
	// BlockSize is the most uncompressed bytes a block holds (LZ4HC and
	// uncompressed; an LZMA bundle is one block). 0: 128 KiB, as Unity.
	BlockSize int
}

// BlockFlagStreamed is the flag Unity sets on the blocks of its bundles.
const blockFlagStreamed = 0x40

// WriteBundle writes a UnityFS bundle of entries as Unity's build does:
// the header, the block info (LZ4HC-compressed, blocks and directory
// combined) right after it, then the data blocks.
func WriteBundle(spec BundleSpec, entries []Entry) ([]byte, error) {
	if spec.Format < 6 || spec.Format > 8 {
		return nil, fmt.Errorf("%w: archive format %d (6 to 8 are written)", ErrUnsupportedFormat, spec.Format)
	}
	blockSize := spec.BlockSize
	if blockSize <= 0 {
		blockSize = 128 << 10
	}
	be := binary.BigEndian
	stream, nodes := concatEntries(entries)
	var blocks []bundleBlock
	switch spec.Compression {
	case StoreLZMA:
		c, err := compressLZMA(stream)
		if err != nil {
			return nil, err
		}
		blocks = append(blocks, bundleBlock{uint32(len(stream)), uint32(len(c)), blockFlagStreamed | uint16(StoreLZMA), c})
	case StoreNone, StoreLZ4HC:
		for off := 0; off < len(stream); off += blockSize {
			raw := stream[off:min(off+blockSize, len(stream))]
			if spec.Compression == StoreNone {
				blocks = append(blocks, bundleBlock{uint32(len(raw)), uint32(len(raw)), blockFlagStreamed, raw})
				continue
			}
			dst := make([]byte, lz4.CompressBlockBound(len(raw)))
			var c lz4.CompressorHC
			n, err := c.CompressBlock(raw, dst)
			if err != nil {
				return nil, fmt.Errorf("lz4: %w", err)
			}
			// Unity's LZ4HC chunks carry the compression type alone (no
			// streamed flag), as the corpus's LZ4HC bundles show.
			if n == 0 || n >= len(raw) {
				blocks = append(blocks, bundleBlock{uint32(len(raw)), uint32(len(raw)), 0, raw})
			} else {
				blocks = append(blocks, bundleBlock{uint32(len(raw)), uint32(n), uint16(StoreLZ4HC), dst[:n]})
			}
		}
	default:
		return nil, fmt.Errorf("%w: compression %d", ErrUnsupportedFormat, spec.Compression)
	}
	info := blockInfo(blocks, nodes)
	cinfo := make([]byte, lz4.CompressBlockBound(len(info)))
	var hc lz4.CompressorHC
	n, err := hc.CompressBlock(info, cinfo)
	if err != nil || n == 0 {
		return nil, fmt.Errorf("lz4 block info: %v", err)
	}
	cinfo = cinfo[:n]

	flags := uint32(StoreLZ4HC) | 0x40
	if spec.Format >= 8 {
		flags |= 0x200 // block data starts on a 16-byte boundary
	}
	var out []byte
	out = append(out, "UnityFS\x00"...)
	out = be.AppendUint32(out, spec.Format)
	player := spec.PlayerVersion
	if player == "" {
		player = "5.x.x"
	}
	out = append(out, player...)
	out = append(out, 0)
	out = append(out, spec.EngineVersion...)
	out = append(out, 0)
	sizePos := len(out)
	out = be.AppendUint64(out, 0)
	out = be.AppendUint32(out, uint32(len(cinfo)))
	out = be.AppendUint32(out, uint32(len(info)))
	out = be.AppendUint32(out, flags)
	if spec.Format >= 7 {
		for len(out)%16 != 0 {
			out = append(out, 0)
		}
	}
	out = append(out, cinfo...)
	if flags&0x200 != 0 {
		for len(out)%16 != 0 {
			out = append(out, 0)
		}
	}
	for _, b := range blocks {
		out = append(out, b.data...)
	}
	be.PutUint64(out[sizePos:], uint64(len(out)))
	return out, nil
}
