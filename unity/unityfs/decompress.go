package unityfs

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/pierrec/lz4/v4"
	"github.com/ulikunitz/xz/lzma"
)

// lz4MaxRatio bounds how much an LZ4 block can expand: every byte of input
// yields at most 255 bytes of output (a run-length byte of a match), plus a
// few bytes of slack for the final literals.
const lz4MaxRatio = 255

// lzmaMaxRatio bounds how much an LZMA stream can expand. The format's
// probability floor limits a long run of zeros to roughly 8000:1 (a good
// encoder reaches about 7000:1), so a declared size beyond this ratio cannot
// be genuine.
const lzmaMaxRatio = 1 << 14

// lzmaMaxDict bounds the dictionary an LZMA block may declare (the decoder
// allocates min(dictionary, block size) up front). Unity writes 512 KiB
// dictionaries; repacking tools use a few MiB.
const lzmaMaxDict = 256 << 20

// lzmaGrowStep is the least first output allocation for an LZMA block; the
// buffer then doubles as data actually arrives, up to the declared size, so
// that a hostile header declaring a huge block over a few bytes of garbage
// cannot make the reader allocate the whole declared size up front.
const lzmaGrowStep = 1 << 20

// errSize reports decompressed output whose size differs from the declared one.
var errSize = errors.New("decompressed size differs from the declared size")

// decompress expands src, compressed with the given compression type, into
// exactly usize bytes.
func decompress(kind int, src []byte, usize int) (out []byte, err error) {
	// The decoders are not expected to panic on bad input, but a bug there
	// must not crash a program reading an untrusted file.
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("decoder failure on corrupt data: %v", r)
		}
	}()
	switch kind {
	case CompressionNone:
		if len(src) != usize {
			return nil, fmt.Errorf("%w: stored %d bytes, want %d", errSize, len(src), usize)
		}
		return src, nil
	case CompressionLZ4, CompressionLZ4HC:
		return decompressLZ4(src, usize)
	case CompressionLZMA:
		return decompressLZMA(src, usize)
	}
	return nil, fmt.Errorf("unsupported compression type %d", kind)
}

func decompressLZ4(src []byte, usize int) ([]byte, error) {
	if int64(usize) > int64(len(src))*lz4MaxRatio+16 {
		return nil, fmt.Errorf("LZ4: %d compressed bytes cannot expand to the declared %d", len(src), usize)
	}
	dst := make([]byte, usize)
	n, err := lz4.UncompressBlock(src, dst)
	if err != nil {
		return nil, fmt.Errorf("LZ4: %w", err)
	}
	if n != usize {
		return nil, fmt.Errorf("LZ4: %w: got %d bytes, want %d", errSize, n, usize)
	}
	return dst, nil
}

// decompressLZMA decodes Unity's LZMA blocks: 5 bytes of properties (the
// properties byte and a little-endian dictionary size) followed by raw LZMA
// data, without the uncompressed-size field of the classic .lzma header. The
// size is known from the block info, so a classic header is rebuilt with it.
func decompressLZMA(src []byte, usize int) ([]byte, error) {
	if len(src) < 5 {
		return nil, fmt.Errorf("LZMA: %d bytes is too short for the 5-byte properties", len(src))
	}
	if int64(usize) > int64(len(src))*lzmaMaxRatio+(64<<10) {
		return nil, fmt.Errorf("LZMA: %d compressed bytes cannot expand to the declared %d", len(src), usize)
	}
	var hdr [lzma.HeaderLen]byte
	copy(hdr[:5], src[:5])
	binary.LittleEndian.PutUint64(hdr[5:], uint64(usize))
	zr, err := lzma.ReaderConfig{DictCap: lzmaMaxDict}.NewReader(&lzmaInput{hdr: hdr, src: src[5:]})
	if err != nil {
		return nil, fmt.Errorf("LZMA: %w", err)
	}
	// Start with room for a typical ratio (Unity data rarely compresses
	// beyond 16:1) so genuine blocks are decoded without regrowing.
	out := make([]byte, 0, min(int64(usize), max(lzmaGrowStep, 16*int64(len(src)))))
	for len(out) < usize {
		if len(out) == cap(out) {
			grown := make([]byte, len(out), min(2*cap(out), usize))
			copy(grown, out)
			out = grown
		}
		n, err := zr.Read(out[len(out):cap(out)])
		out = out[:len(out)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("LZMA: after %d bytes: %w", len(out), err)
		}
		if n == 0 {
			return nil, fmt.Errorf("LZMA: decoder made no progress after %d bytes", len(out))
		}
	}
	if len(out) != usize {
		return nil, fmt.Errorf("LZMA: %w: got %d bytes, want %d", errSize, len(out), usize)
	}
	return out, nil
}

// lzmaInput feeds the decoder the rebuilt classic header and then the raw
// data. It is an io.ByteReader, which spares the decoder a one-byte Read call
// per input byte.
type lzmaInput struct {
	hdr [lzma.HeaderLen]byte
	src []byte
	pos int // position in hdr followed by src
}

func (in *lzmaInput) Read(p []byte) (int, error) {
	n := 0
	if in.pos < len(in.hdr) {
		n = copy(p, in.hdr[in.pos:])
		in.pos += n
	}
	if in.pos >= len(in.hdr) {
		c := copy(p[n:], in.src[in.pos-len(in.hdr):])
		in.pos += c
		n += c
	}
	if n == 0 && len(p) > 0 {
		return 0, io.EOF
	}
	return n, nil
}

func (in *lzmaInput) ReadByte() (byte, error) {
	var c byte
	switch {
	case in.pos < len(in.hdr):
		c = in.hdr[in.pos]
	case in.pos-len(in.hdr) < len(in.src):
		c = in.src[in.pos-len(in.hdr)]
	default:
		return 0, io.EOF
	}
	in.pos++
	return c, nil
}
