// Package unityfs reads UnityFS asset bundles (archive format versions 5 to 8),
// the container Unity builds AssetBundles and many player data files into.
//
// A bundle is a header, a "block info" directory (a list of compressed blocks
// and a list of named nodes), and the blocks themselves. The blocks, once
// decompressed and concatenated, form one uncompressed stream; each node (a
// serialized file, a .resS resource file, ...) is a byte range of that stream.
//
// Open reads only the header and the block info. A block is decompressed only
// when bytes inside it are read, and only as far as the read needs (LZMA and
// LZ4 both decode front to back), so reading one object of a large bundle
// does not decompress the whole bundle, even when it is one huge block as
// LZMA bundles are. Decompressed blocks are kept in a Cache whose memory
// limit can be shared by every archive a process opens; stored blocks are
// read from the file as needed. An Archive is safe for concurrent reads.
package unityfs

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sort"

	"github.com/mecanim/mecanim/unity/binread"
	"github.com/mecanim/mecanim/unity/internal/container"
)

// Signature is the magic string at the start of every UnityFS bundle.
const Signature = "UnityFS"

// Archive flag bits (the header's Flags field).
const (
	// FlagCompressionMask selects the bits holding the block info's compression type.
	FlagCompressionMask = 0x3f
	// FlagBlocksAndDirectoryCombined is set by every modern writer: the block
	// list and the node list share one block info.
	FlagBlocksAndDirectoryCombined = 0x40
	// FlagBlockInfoAtEnd means the block info is stored at the end of the file
	// rather than right after the header.
	FlagBlockInfoAtEnd = 0x80
	// FlagOldWebPluginCompatibility marks bundles built for the old web player.
	FlagOldWebPluginCompatibility = 0x100
	// FlagBlockInfoNeedPaddingAtStart means the block data starts at the next
	// 16-byte boundary after the block info.
	FlagBlockInfoNeedPaddingAtStart = 0x200
)

// Compression types, found in the low 6 bits of the archive flags (for the
// block info) and of each block's flags.
const (
	CompressionNone  = 0 // stored as is
	CompressionLZMA  = 1 // 5 property bytes, then raw LZMA data (no size field)
	CompressionLZ4   = 2 // one LZ4 block
	CompressionLZ4HC = 3 // one LZ4 block (written by the high-compression encoder)
	CompressionLZHAM = 4 // never used by shipped Unity versions; not supported
)

// BlockFlagStreamed marks a block Unity may stream (informational only).
const BlockFlagStreamed = 0x40

// Limits applied to declared sizes, so that hostile input can never make the
// reader allocate unbounded memory.
const (
	// MaxBlockInfoSize bounds the declared uncompressed size of the block info.
	MaxBlockInfoSize = 64 << 20
	// MaxBlockSize bounds the declared uncompressed size of one block.
	MaxBlockSize = 1 << 30
	// MaxTotalSize bounds the uncompressed stream (the sum of all blocks).
	MaxTotalSize = 1 << 40
	// maxVersionString bounds the player and engine version strings.
	maxVersionString = 256
	// maxPath bounds a node's path.
	maxPath = 4096
	// MaxNodes bounds the node count.
	MaxNodes = 1 << 20
)

// FormatError reports malformed or unsupported bundle data: where (a file
// offset; for errors inside the block info, the offset is within the
// uncompressed block info) and what was wrong.
type FormatError struct {
	Offset int64  // byte offset of the problem
	What   string // what was being read or checked
	Err    error  // underlying cause, if any
}

// Error describes the failure and where it happened.
func (e *FormatError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("unityfs: at offset %d: %s: %v", e.Offset, e.What, e.Err)
	}
	return fmt.Sprintf("unityfs: at offset %d: %s", e.Offset, e.What)
}

// Unwrap returns the underlying cause.
func (e *FormatError) Unwrap() error { return e.Err }

func formatErr(off int64, what string, err error) *FormatError {
	return &FormatError{Offset: off, What: what, Err: err}
}

// fromBinread converts a binread error (which already says where) into a FormatError.
func fromBinread(err error, context string) error {
	var be *binread.Error
	if errors.As(err, &be) {
		return &FormatError{Offset: be.Offset, What: context + ": " + be.What, Err: be.Err}
	}
	return formatErr(0, context, err)
}

// Node is one file stored in the bundle: a byte range of the uncompressed stream.
type Node struct {
	Path   string // e.g. "CAB-<hash>", "CAB-<hash>.resS", "BuildPlayer-SampleScene"
	Offset int64  // offset in the uncompressed stream
	Size   int64  // size in bytes
	Flags  uint32 // 4 marks a serialized file in Unity's writer; informational
}

// Block is one compressed block of the bundle's data.
type Block struct {
	UncompressedSize uint32
	CompressedSize   uint32
	Flags            uint16 // compression type in the low 6 bits; see BlockFlagStreamed
}

// Compression returns the block's compression type (CompressionNone, ...).
func (b Block) Compression() int { return int(b.Flags & FlagCompressionMask) }

// Stats counts the work an Archive has done, for tests and benchmarks.
type Stats struct {
	BlocksDecompressed int   // blocks whose decoding started (each cache miss starts one)
	BytesDecompressed  int64 // total bytes decoded
	CacheHits          int   // block lookups served from the cache
	CacheEvictions     int   // blocks dropped from the cache to respect its limit
}

// Options tunes how an Archive holds decompressed data. The zero value
// selects the defaults.
type Options struct {
	// Cache holds the archive's decompressed blocks. Pass the same Cache to
	// every archive a process opens to bound their memory together; nil
	// gives the archive a Cache of its own with DefaultMemoryLimit.
	Cache *Cache
}

// Archive is an open UnityFS bundle. Its exported fields describe the header
// and block info; Nodes and Blocks must not be modified.
type Archive struct {
	Signature                 string // "UnityFS"
	FormatVersion             uint32 // archive format version (6, 7 or 8 in modern Unity)
	PlayerVersion             string // usually "5.x.x"
	EngineVersion             string // Unity version that built the bundle, e.g. "2022.3.9f1"
	Size                      int64  // total bundle size declared in the header
	CompressedBlockInfoSize   uint32
	UncompressedBlockInfoSize uint32
	Flags                     uint32   // archive flags (FlagBlockInfoAtEnd, ...)
	Hash                      [16]byte // the block info's hash field (often zero)
	Nodes                     []Node
	Blocks                    []Block
	// DataOffset is the file offset of the first block.
	DataOffset int64

	r          io.ReaderAt
	closer     io.Closer // the file OpenFile opened, or nil
	fileSize   int64
	blockFile  []int64 // file offset of each block
	blockStart []int64 // uncompressed-stream offset of each block; len(Blocks)+1 entries
	cache      *Cache
	entries    []*blockEntry // per block; guarded by cache.mu
	stats      Stats         // guarded by cache.mu
	releases   []func()      // the directory's charges to cache
	charged    int64         // their sum
}

// IsUnityFS reports whether prefix (the first bytes of a file, at least 8)
// starts with the UnityFS signature.
func IsUnityFS(prefix []byte) bool {
	return bytes.HasPrefix(prefix, []byte(Signature+"\x00"))
}

// Open reads the header and block info of the bundle held in the first size
// bytes of r, with a Cache of its own. No block is decompressed yet.
func Open(r io.ReaderAt, size int64) (*Archive, error) {
	return OpenWith(r, size, Options{})
}

// OpenFile opens the named bundle file with a Cache of its own. Close the
// Archive to close the file.
func OpenFile(name string) (*Archive, error) {
	a, f, err := container.OpenFile(name, Open)
	if err != nil {
		return nil, err
	}
	a.closer = f
	return a, nil
}

// Close drops the archive's blocks from its Cache and closes the file
// opened by OpenFile.
func (a *Archive) Close() error {
	if a.cache != nil {
		a.cache.drop(a)
	}
	for _, r := range a.releases {
		r()
	}
	a.releases, a.charged = nil, 0
	if a.closer != nil {
		err := a.closer.Close()
		a.closer = nil
		return err
	}
	return nil
}

// OpenWith is Open with options: chiefly a Cache shared with other archives.
func OpenWith(r io.ReaderAt, size int64, opts Options) (*Archive, error) {
	if opts.Cache == nil {
		opts.Cache = NewCache(0)
	}
	if size < 0 {
		return nil, formatErr(0, "file size", fmt.Errorf("negative size %d", size))
	}
	a := &Archive{r: r, fileSize: size, cache: opts.Cache}
	infoOff, err := a.readHeader()
	if err != nil {
		return nil, err
	}
	if err := a.readBlockInfo(infoOff); err != nil {
		a.Close()
		return nil, err
	}
	return a, nil
}

// readHeader reads the header, sets DataOffset and returns the file offset of
// the block info.
func (a *Archive) readHeader() (int64, error) {
	n := a.fileSize
	const maxHeader = 8 + 4 + 2*(maxVersionString+1) + 8 + 4*3
	if n > maxHeader {
		n = maxHeader
	}
	buf := make([]byte, n)
	if err := container.ReadFull(a.r, buf, 0); err != nil {
		return 0, formatErr(0, "reading header", err)
	}
	if !IsUnityFS(buf) {
		return 0, formatErr(0, "signature", fmt.Errorf("not a UnityFS bundle (want %q)", Signature))
	}
	br := binread.New(buf, binary.BigEndian)
	a.Signature = br.CString(16, "signature")
	a.FormatVersion = br.U32("format version")
	if br.Err() == nil && (a.FormatVersion < 5 || a.FormatVersion > 8) {
		return 0, formatErr(8, "format version", fmt.Errorf("unsupported archive format version %d (want 5 to 8)", a.FormatVersion))
	}
	a.PlayerVersion = br.CString(maxVersionString, "player version")
	a.EngineVersion = br.CString(maxVersionString, "engine version")
	a.Size = br.I64("total size")
	a.CompressedBlockInfoSize = br.U32("compressed block info size")
	a.UncompressedBlockInfoSize = br.U32("uncompressed block info size")
	a.Flags = br.U32("flags")
	if err := br.Err(); err != nil {
		return 0, fromBinread(err, "header")
	}
	end := int64(br.Pos())
	if a.FormatVersion >= 7 {
		end = align16(end)
	}
	if a.Size < 0 {
		return 0, formatErr(int64(br.Pos())-20, "total size", fmt.Errorf("negative size %d", a.Size))
	}
	if c := a.Flags & FlagCompressionMask; !supported(int(c)) {
		return 0, formatErr(int64(br.Pos())-4, "flags", fmt.Errorf("unsupported block info compression type %d", c))
	}
	if a.UncompressedBlockInfoSize > MaxBlockInfoSize {
		return 0, formatErr(int64(br.Pos())-8, "uncompressed block info size",
			fmt.Errorf("%d bytes exceeds the limit of %d", a.UncompressedBlockInfoSize, MaxBlockInfoSize))
	}
	// Locate the block info and the start of the block data.
	var infoOff int64
	if a.Flags&FlagBlockInfoAtEnd != 0 {
		infoOff = a.fileSize - int64(a.CompressedBlockInfoSize)
		a.DataOffset = end
	} else {
		infoOff = end
		a.DataOffset = end + int64(a.CompressedBlockInfoSize)
		if a.Flags&FlagBlockInfoNeedPaddingAtStart != 0 {
			a.DataOffset = align16(a.DataOffset)
		}
	}
	if infoOff < end || infoOff+int64(a.CompressedBlockInfoSize) > a.fileSize {
		return 0, formatErr(int64(br.Pos())-12, "compressed block info size",
			fmt.Errorf("%d bytes at offset %d do not fit in the %d-byte file", a.CompressedBlockInfoSize, infoOff, a.fileSize))
	}
	return infoOff, nil
}

func align16(x int64) int64 { return (x + 15) &^ 15 }

func supported(c int) bool {
	switch c {
	case CompressionNone, CompressionLZMA, CompressionLZ4, CompressionLZ4HC:
		return true
	}
	return false
}

// readBlockInfo reads, decompresses and parses the block info.
func (a *Archive) readBlockInfo(infoOff int64) error {
	// The block info is held only while it is parsed, but counts against
	// the Cache's limit meanwhile.
	held := int64(a.CompressedBlockInfoSize)
	if a.Flags&FlagCompressionMask != CompressionNone {
		held += int64(a.UncompressedBlockInfoSize) + lzmaStateSize
	}
	release, ok := a.cache.hold(held)
	if !ok {
		return formatErr(infoOff, "block info", &LimitError{Block: -1, Compression: int(a.Flags & FlagCompressionMask),
			Size: int64(a.UncompressedBlockInfoSize), Compressed: int64(a.CompressedBlockInfoSize), Need: held, Limit: a.cache.limit})
	}
	defer release()
	comp := make([]byte, a.CompressedBlockInfoSize)
	if err := container.ReadFull(a.r, comp, infoOff); err != nil {
		return formatErr(infoOff, "reading block info", err)
	}
	info, err := decompress(int(a.Flags&FlagCompressionMask), comp, int(a.UncompressedBlockInfoSize))
	if err != nil {
		return formatErr(infoOff, "decompressing block info", err)
	}
	br := binread.New(info, binary.BigEndian)
	copy(a.Hash[:], br.Take(16, "hash"))
	nb := br.Count(10, "block count")
	if err := br.Err(); err != nil {
		return fromBinread(err, "block info")
	}
	dataEnd := a.fileSize
	if a.Flags&FlagBlockInfoAtEnd != 0 {
		dataEnd = infoOff
	}
	// Every non-empty block takes at least one byte of the file, and empty
	// blocks are useless: more blocks than data bytes means a corrupt count.
	if int64(nb) > max(dataEnd-a.DataOffset, 0)+16 {
		return formatErr(16, "block info: block count", fmt.Errorf("%d blocks cannot fit in %d bytes of block data", nb, dataEnd-a.DataOffset))
	}
	if err := a.charge(int64(nb)*blockBytes, fmt.Sprintf("the directory's %d blocks", nb)); err != nil {
		return formatErr(16, "block info: block count", err)
	}
	a.Blocks = make([]Block, nb)
	a.entries = make([]*blockEntry, nb)
	a.blockFile = make([]int64, nb)
	a.blockStart = make([]int64, nb+1)
	foff, uoff := a.DataOffset, int64(0)
	for i := range a.Blocks {
		pos := int64(br.Pos())
		b := Block{
			UncompressedSize: br.U32("block uncompressed size"),
			CompressedSize:   br.U32("block compressed size"),
			Flags:            br.U16("block flags"),
		}
		if err := br.Err(); err != nil {
			return fromBinread(err, "block info")
		}
		what := fmt.Sprintf("block info: block %d", i)
		switch {
		case !supported(b.Compression()):
			return formatErr(pos, what, fmt.Errorf("unsupported compression type %d", b.Compression()))
		case b.UncompressedSize > MaxBlockSize:
			return formatErr(pos, what, fmt.Errorf("uncompressed size %d exceeds the limit of %d", b.UncompressedSize, MaxBlockSize))
		case b.CompressedSize == 0 && b.UncompressedSize != 0:
			return formatErr(pos, what, fmt.Errorf("%d uncompressed bytes from an empty compressed block", b.UncompressedSize))
		case b.Compression() == CompressionNone && b.CompressedSize != b.UncompressedSize:
			return formatErr(pos, what, fmt.Errorf("uncompressed block with compressed size %d != uncompressed size %d", b.CompressedSize, b.UncompressedSize))
		case int64(b.CompressedSize) > dataEnd-foff:
			return formatErr(pos, what, fmt.Errorf("%d compressed bytes at file offset %d run past the end of the data at %d", b.CompressedSize, foff, dataEnd))
		case uoff+int64(b.UncompressedSize) > MaxTotalSize:
			return formatErr(pos, what, fmt.Errorf("total uncompressed size exceeds the limit of %d", int64(MaxTotalSize)))
		}
		a.Blocks[i] = b
		a.blockFile[i] = foff
		a.blockStart[i] = uoff
		foff += int64(b.CompressedSize)
		uoff += int64(b.UncompressedSize)
	}
	a.blockStart[nb] = uoff
	npos := int64(br.Pos())
	nn := br.Count(8+8+4+1, "node count")
	if err := br.Err(); err != nil {
		return fromBinread(err, "block info")
	}
	if nn > MaxNodes {
		return formatErr(npos, "block info: node count", fmt.Errorf("%d nodes exceeds the limit of %d", nn, MaxNodes))
	}
	// The nodes are charged before they are made: a directory of a
	// million nodes is refused before it takes its memory.
	if err := a.charge(int64(nn)*NodeBytes, fmt.Sprintf("the directory of %d nodes", nn)); err != nil {
		return formatErr(npos, "block info: node count", err)
	}
	a.Nodes = make([]Node, nn)
	paths := int64(0)
	for i := range a.Nodes {
		pos := int64(br.Pos())
		n := Node{
			Offset: br.I64("node offset"),
			Size:   br.I64("node size"),
			Flags:  br.U32("node flags"),
			Path:   br.CString(maxPath, "node path"),
		}
		if err := br.Err(); err != nil {
			return fromBinread(err, "block info")
		}
		if n.Offset < 0 || n.Size < 0 || n.Offset > uoff || n.Size > uoff-n.Offset {
			return formatErr(pos, fmt.Sprintf("block info: node %d (%q)", i, n.Path),
				fmt.Errorf("range [%d, +%d) lies outside the %d-byte uncompressed data", n.Offset, n.Size, uoff))
		}
		a.Nodes[i] = n
		paths += int64(len(n.Path))
	}
	if err := a.charge(2*paths, "the directory's node paths"); err != nil {
		return formatErr(npos, "block info: node paths", err)
	}
	return a.checkOverlap()
}

// Memory an open archive's directory holds, charged to its Cache before it
// is made: per block (its Block, offsets and cache slot) and per node (its
// Node, and what readers keep per node: a section reader, resource
// entries), the node paths besides (twice: a reader's tables name them
// again).
const (
	blockBytes = 48
	// NodeBytes is the charge per node of an open archive's directory.
	NodeBytes = 256
)

// charge reserves n bytes of the archive's Cache until Close.
func (a *Archive) charge(n int64, what string) error {
	release, err := a.cache.Reserve(n, what)
	if err != nil {
		return err
	}
	a.releases = append(a.releases, release)
	a.charged += n
	return nil
}

// Charged returns the bytes the archive's directory holds of its Cache's
// limit while it is open.
func (a *Archive) Charged() int64 { return a.charged }

// checkOverlap rejects nodes whose byte ranges overlap. Unity lays nodes
// out one after another; overlapping nodes would let a small bundle list
// the same decompressed bytes many times over, and every reader that opens
// each node (a serialized file per node) would multiply its work by the
// node count.
func (a *Archive) checkOverlap() error {
	pi, ni, ok := container.Overlap(len(a.Nodes), func(i int) (int64, int64) { return a.Nodes[i].Offset, a.Nodes[i].Size })
	if !ok {
		return nil
	}
	p, n := &a.Nodes[pi], &a.Nodes[ni]
	return formatErr(0, fmt.Sprintf("block info: node %d (%q)", ni, n.Path),
		fmt.Errorf("range [%d, +%d) overlaps node %d (%q) at [%d, +%d)", n.Offset, n.Size, pi, p.Path, p.Offset, p.Size))
}

// DataSize returns the size of the uncompressed stream (the sum of all blocks).
func (a *Archive) DataSize() int64 { return a.blockStart[len(a.Blocks)] }

// Node returns the index of the node with the given path.
func (a *Archive) Node(name string) (int, bool) {
	for i := range a.Nodes {
		if a.Nodes[i].Path == name {
			return i, true
		}
	}
	return -1, false
}

// NodeReader returns a view of node i's bytes in the uncompressed stream.
// Reading it decompresses only the blocks the read touches. It returns nil
// when i is not a valid node index.
func (a *Archive) NodeReader(i int) *io.SectionReader {
	if i < 0 || i >= len(a.Nodes) {
		return nil
	}
	return io.NewSectionReader(a, a.Nodes[i].Offset, a.Nodes[i].Size)
}

// Stats returns the work done so far.
func (a *Archive) Stats() Stats {
	a.cache.mu.Lock()
	defer a.cache.mu.Unlock()
	return a.stats
}

// BlockAt returns the index of the block holding uncompressed-stream offset
// off, or -1 when off is outside the stream.
func (a *Archive) BlockAt(off int64) int {
	if off < 0 || off >= a.DataSize() {
		return -1
	}
	// The first block whose end is beyond off (skips empty blocks).
	return sort.Search(len(a.Blocks), func(i int) bool { return a.blockStart[i+1] > off })
}

// ReadAt reads from the uncompressed stream (the concatenated blocks), which
// makes an Archive an io.ReaderAt; NodeReader is the usual way in.
func (a *Archive) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, fmt.Errorf("unityfs: negative read offset %d", off)
	}
	total := a.DataSize()
	n := 0
	for n < len(p) {
		if off >= total {
			return n, io.EOF
		}
		i := a.BlockAt(off)
		in := off - a.blockStart[i]
		c := int(min(int64(len(p)-n), a.blockStart[i+1]-off))
		if err := a.readBlock(i, p[n:n+c], in); err != nil {
			return n, err
		}
		n += c
		off += int64(c)
	}
	return n, nil
}

// readBlock fills p from block i's decompressed bytes starting at offset
// in, decoding the block as far as needed. A stored block is read from the
// file.
func (a *Archive) readBlock(i int, p []byte, in int64) error {
	b := a.Blocks[i]
	if b.Compression() == CompressionNone {
		if err := container.ReadFull(a.r, p, a.blockFile[i]+in); err != nil {
			return formatErr(a.blockFile[i]+in, fmt.Sprintf("reading block %d", i), err)
		}
		return nil
	}
	e, _ := a.cache.lookup(a, i)
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.err != nil {
		return e.err
	}
	need := int(in) + len(p)
	if e.n < need {
		if err := a.fill(e, need); err != nil {
			return err
		}
	}
	copy(p, e.buf[in:need])
	return nil
}
