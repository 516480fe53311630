package unityfs_test

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/pierrec/lz4/v4"
	"github.com/ulikunitz/xz/lzma"

	"github.com/mecanim/mecanim/unity/unityfs"
)

// A tiny UnityFS writer, so tests can cover format versions, flags and
// compression combinations the corpus lacks.

type testNode struct {
	path  string
	data  []byte
	flags uint32
}

type bundleSpec struct {
	version   uint32
	infoAtEnd bool  // FlagBlockInfoAtEnd
	padding   bool  // FlagBlockInfoNeedPaddingAtStart
	infoComp  int   // compression of the block info
	blockComp []int // compression of block i is blockComp[i%len]; default none
	blockSize int   // uncompressed bytes per block; default 1 KiB
	nodes     []testNode
	// offsets, when set, overrides where node i says it starts (the
	// stream is still the nodes' data back to back).
	offsets []int64
}

// stream returns the uncompressed stream the spec's nodes make (nodes back to back).
func (s bundleSpec) stream() []byte {
	var out []byte
	for _, n := range s.nodes {
		out = append(out, n.data...)
	}
	return out
}

func compressFor(tb testing.TB, kind int, src []byte) []byte {
	tb.Helper()
	switch kind {
	case unityfs.CompressionNone:
		return append([]byte(nil), src...)
	case unityfs.CompressionLZ4, unityfs.CompressionLZ4HC:
		dst := make([]byte, lz4.CompressBlockBound(len(src)))
		var n int
		var err error
		if kind == unityfs.CompressionLZ4 {
			n, err = lz4.CompressBlock(src, dst, nil)
		} else {
			n, err = lz4.CompressBlockHC(src, dst, lz4.Level9, nil, nil)
		}
		if err != nil || n == 0 {
			tb.Fatalf("lz4 compress of %d bytes: n=%d err=%v (test data must be compressible)", len(src), n, err)
		}
		return dst[:n]
	case unityfs.CompressionLZMA:
		var buf bytes.Buffer
		w, err := lzma.WriterConfig{Size: int64(len(src)), DictCap: 1 << 16}.NewWriter(&buf)
		if err != nil {
			tb.Fatal(err)
		}
		if _, err := w.Write(src); err != nil {
			tb.Fatal(err)
		}
		if err := w.Close(); err != nil {
			tb.Fatal(err)
		}
		b := buf.Bytes()
		// Unity keeps the 5 property bytes and drops the 8-byte size.
		return append(append([]byte(nil), b[:5]...), b[lzma.HeaderLen:]...)
	}
	tb.Fatalf("no test compressor for type %d", kind)
	return nil
}

// buildBundle writes the bundle the spec describes.
func buildBundle(tb testing.TB, s bundleSpec) []byte {
	tb.Helper()
	if s.blockSize == 0 {
		s.blockSize = 1024
	}
	if len(s.blockComp) == 0 {
		s.blockComp = []int{unityfs.CompressionNone}
	}
	stream := s.stream()
	be := binary.BigEndian

	var blocks [][]byte
	var info []byte
	info = append(info, bytes.Repeat([]byte{0xab}, 16)...) // hash
	nblocks := (len(stream) + s.blockSize - 1) / s.blockSize
	info = be.AppendUint32(info, uint32(nblocks))
	for i := 0; i < nblocks; i++ {
		raw := stream[i*s.blockSize : min((i+1)*s.blockSize, len(stream))]
		kind := s.blockComp[i%len(s.blockComp)]
		c := compressFor(tb, kind, raw)
		blocks = append(blocks, c)
		info = be.AppendUint32(info, uint32(len(raw)))
		info = be.AppendUint32(info, uint32(len(c)))
		info = be.AppendUint16(info, uint16(kind))
	}
	info = be.AppendUint32(info, uint32(len(s.nodes)))
	off := int64(0)
	for i, n := range s.nodes {
		if i < len(s.offsets) {
			off = s.offsets[i]
		}
		info = be.AppendUint64(info, uint64(off))
		info = be.AppendUint64(info, uint64(len(n.data)))
		info = be.AppendUint32(info, n.flags)
		info = append(append(info, n.path...), 0)
		off += int64(len(n.data))
	}
	cinfo := compressFor(tb, s.infoComp, info)

	flags := uint32(s.infoComp) | unityfs.FlagBlocksAndDirectoryCombined
	if s.infoAtEnd {
		flags |= unityfs.FlagBlockInfoAtEnd
	}
	if s.padding {
		flags |= unityfs.FlagBlockInfoNeedPaddingAtStart
	}
	var out []byte
	out = append(out, "UnityFS\x00"...)
	out = be.AppendUint32(out, s.version)
	out = append(out, "5.x.x\x00"...)
	out = append(out, "2022.3.9f1\x00"...)
	sizeAt := len(out)
	out = be.AppendUint64(out, 0) // total size, patched below
	out = be.AppendUint32(out, uint32(len(cinfo)))
	out = be.AppendUint32(out, uint32(len(info)))
	out = be.AppendUint32(out, flags)
	pad16 := func() {
		for len(out)%16 != 0 {
			out = append(out, 0)
		}
	}
	if s.version >= 7 {
		pad16()
	}
	if !s.infoAtEnd {
		out = append(out, cinfo...)
		if s.padding {
			pad16()
		}
	}
	for _, b := range blocks {
		out = append(out, b...)
	}
	if s.infoAtEnd {
		out = append(out, cinfo...)
	}
	be.PutUint64(out[sizeAt:], uint64(len(out)))
	return out
}

// patternData returns n compressible but not trivially repetitive bytes.
func patternData(n int, seed byte) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i/7) ^ seed
	}
	return b
}

// sampleSpec is a small bundle with three nodes spread over several blocks.
func sampleSpec(version uint32, infoAtEnd, padding bool, infoComp int, blockComp ...int) bundleSpec {
	return bundleSpec{
		version:   version,
		infoAtEnd: infoAtEnd,
		padding:   padding,
		infoComp:  infoComp,
		blockComp: blockComp,
		blockSize: 1000,
		nodes: []testNode{
			{path: "CAB-0123456789abcdef0123456789abcdef", data: patternData(2500, 1), flags: 4},
			{path: "CAB-0123456789abcdef0123456789abcdef.resS", data: patternData(1234, 2)},
			{path: "empty", data: nil},
			{path: "BuildPlayer-SampleScene", data: patternData(777, 3), flags: 4},
		},
	}
}
