package unityfs

import (
	"errors"
	"fmt"
	"unsafe"

	pierrec "github.com/pierrec/lz4/v4"

	"github.com/mecanim/mecanim/unity/internal/container"
	"github.com/mecanim/mecanim/unity/internal/lz4"
	"github.com/mecanim/mecanim/unity/internal/lzma"
)

// lzmaMaxRatio bounds how much an LZMA stream can expand. The format's
// probability floor limits a long run of zeros to roughly 8000:1 (a good
// encoder reaches about 7000:1), so a declared size beyond this ratio cannot
// be genuine.
const lzmaMaxRatio = 1 << 14

// minFirstBuffer is the least output buffer a block's first read
// allocates (the block's size when smaller); later reads that need more
// grow it geometrically.
const minFirstBuffer = 1 << 20

// firstBufferRatio sizes a block's first output buffer from its compressed
// size: genuine Unity blocks rarely expand more, so they are decoded into
// one buffer without regrowing, while a block whose declared size is far
// beyond this ratio (a decompression bomb) gets only what reads need.
const firstBufferRatio = 8

// Decoder state held while a block is partly decoded, charged to the Cache.
const (
	lzmaStateSize = int64(unsafe.Sizeof(lzma.Decoder{}))
	lz4StateSize  = int64(unsafe.Sizeof(lz4.Decoder{}))
)

// errSize reports decompressed output whose size differs from the declared one.
var errSize = errors.New("decompressed size differs from the declared size")

// blockDecoder is what the internal LZMA and LZ4 decoders share: Decode
// continues a block into out (whose decoded prefix Pos counts) until at
// least want bytes exist.
type blockDecoder interface {
	Decode(out []byte, want int) (int, error)
	Pos() int
}

// checkRatio refuses a declared size that src cannot expand to with the
// given compression.
func checkRatio(kind int, src []byte, usize int) error {
	switch kind {
	case CompressionLZ4, CompressionLZ4HC:
		if int64(usize) > int64(len(src))*lz4.MaxRatio+16 {
			return fmt.Errorf("LZ4: %d compressed bytes cannot expand to the declared %d", len(src), usize)
		}
	case CompressionLZMA:
		if int64(usize) > int64(len(src))*lzmaMaxRatio+(64<<10) {
			return fmt.Errorf("LZMA: %d compressed bytes cannot expand to the declared %d", len(src), usize)
		}
	default:
		return fmt.Errorf("unsupported compression type %d", kind)
	}
	return nil
}

// newDecoder checks that usize bytes can come from src with the given
// compression and returns a resumable decoder for it.
func newDecoder(kind int, src []byte, usize int) (blockDecoder, error) {
	if err := checkRatio(kind, src, usize); err != nil {
		return nil, err
	}
	if kind == CompressionLZMA {
		d := new(lzma.Decoder)
		if err := d.Reset(src, usize); err != nil {
			return nil, err
		}
		return d, nil
	}
	d := new(lz4.Decoder)
	d.Reset(src, usize)
	return d, nil
}

// decompress expands src, compressed with the given compression type, into
// exactly usize bytes at once (for the block info).
func decompress(kind int, src []byte, usize int) (out []byte, err error) {
	if kind == CompressionNone {
		if len(src) != usize {
			return nil, fmt.Errorf("%w: stored %d bytes, want %d", errSize, len(src), usize)
		}
		return src, nil
	}
	if kind == CompressionLZ4 || kind == CompressionLZ4HC {
		if err := checkRatio(kind, src, usize); err != nil {
			return nil, err
		}
		out = make([]byte, usize)
		if err := wholeLZ4(src, out); err != nil {
			return nil, err
		}
		return out, nil
	}
	d, err := newDecoder(kind, src, usize)
	if err != nil {
		return nil, err
	}
	out = make([]byte, usize)
	if _, err := decode(d, out, usize); err != nil {
		return nil, err
	}
	return out, nil
}

// decode runs d into out until want bytes exist. The decoders are fuzzed
// never to panic on bad input, but a bug there must not crash a program
// reading an untrusted file.
func decode(d blockDecoder, out []byte, want int) (n int, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("decoder failure on corrupt data: %v", r)
		}
	}()
	n, err = d.Decode(out, want)
	if err == nil && n < want {
		err = fmt.Errorf("%w: got %d bytes, want %d", errSize, n, want)
	}
	return n, err
}

// wholeLZ4 decodes the LZ4 block src into all of dst.
func wholeLZ4(src, dst []byte) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("decoder failure on corrupt data: %v", r)
		}
	}()
	n, err := pierrec.UncompressBlock(src, dst)
	if err != nil {
		return fmt.Errorf("LZ4: %w", err)
	}
	if n != len(dst) {
		return fmt.Errorf("LZ4: %w: got %d bytes, want %d", errSize, n, len(dst))
	}
	return nil
}

// fill decodes block e further until at least need bytes exist, growing its
// buffer within the Cache's limit. The caller holds e.mu.
func (a *Archive) fill(e *blockEntry, need int) error {
	i := e.index
	b := a.Blocks[i]
	size := int(b.UncompressedSize)
	limitErr := func(charge int64) error {
		return &LimitError{Block: i, Compression: b.Compression(), Size: int64(size), Compressed: int64(b.CompressedSize), Need: charge, Limit: a.cache.limit}
	}
	fail := func(err error) error {
		e.err = formatErr(a.blockFile[i], fmt.Sprintf("decompressing block %d", i), err)
		e.buf, e.dec, e.comp, e.n = nil, nil, nil, 0
		a.cache.reserve(e, 0)
		return e.err
	}
	var state int64
	switch b.Compression() {
	case CompressionLZMA:
		state = lzmaStateSize
	default:
		state = lz4StateSize
	}
	if e.buf == nil {
		// The first read of the block: charge what it will hold before
		// reading or allocating any of it. Like a regrowth, it takes half
		// again what the read needs, as the limit allows.
		held := int64(b.CompressedSize) + state
		first := min(size, max(need+need/2, minFirstBuffer, firstBufferRatio*int(b.CompressedSize)))
		if room := a.cache.blockRoom() - held; int64(first) > room {
			first = max(need, int(room))
		}
		charge := int64(first) + held
		buf, ok := a.cache.reserveBuffer(e, charge, first)
		if !ok {
			return limitErr(charge)
		}
		comp := make([]byte, b.CompressedSize)
		if err := container.ReadFull(a.r, comp, a.blockFile[i]); err != nil {
			a.cache.reserve(e, 0)
			return formatErr(a.blockFile[i], fmt.Sprintf("reading block %d", i), err)
		}
		if buf == nil {
			buf = make([]byte, first)
		}
		buf = buf[:min(cap(buf), size)]
		if len(buf) == size && (b.Compression() == CompressionLZ4 || b.Compression() == CompressionLZ4HC) {
			// An LZ4 block whose whole output is allocated anyway (every
			// chunk Unity writes) is decoded at once by pierrec/lz4,
			// whose assembly takes half the instructions of the
			// resumable decoder; the resumable one serves blocks read
			// piecemeal.
			err := checkRatio(b.Compression(), comp, size)
			if err == nil {
				err = wholeLZ4(comp, buf)
			}
			if err != nil {
				return fail(err)
			}
			e.buf, e.n = buf, size
			a.cache.reserve(e, int64(cap(buf)))
			a.cache.mu.Lock()
			a.stats.BytesDecompressed += int64(size)
			a.cache.mu.Unlock()
			return nil
		}
		dec, err := newDecoder(b.Compression(), comp, size)
		if err != nil {
			return fail(err)
		}
		e.comp, e.dec, e.buf = comp, dec, buf
	} else if need > len(e.buf) {
		// Grow by half again what the read needs (at least doubling), so
		// reads a little further on do not regrow, within what the limit
		// leaves: the old and new buffers coexist while the output is
		// copied, so both are charged until then.
		held := int64(len(e.comp)) + state
		grown := min(size, max(2*len(e.buf), need+need/2))
		if room := a.cache.blockRoom() - int64(cap(e.buf)) - held; int64(grown) > room {
			grown = max(need, int(room))
		}
		charge := int64(cap(e.buf)) + int64(grown) + held
		nb, ok := a.cache.reserveBuffer(e, charge, grown)
		restart := false
		if !ok {
			// Both buffers do not fit, the new one alone may: drop the
			// old one and decode the block again from its start.
			grown = min(size, max(need, int(a.cache.blockRoom()-held)))
			charge = int64(grown) + held
			if nb, ok = a.cache.reserveBuffer(e, charge, grown); !ok {
				return limitErr(charge)
			}
			dec, err := newDecoder(b.Compression(), e.comp, size)
			if err != nil {
				return fail(err)
			}
			e.dec, e.n, restart = dec, 0, true
		}
		if nb == nil {
			nb = make([]byte, grown)
		}
		nb = nb[:min(cap(nb), size)]
		if !restart {
			copy(nb, e.buf[:e.n])
		}
		e.buf = nb
		a.cache.reserve(e, int64(cap(nb))+held)
	}
	prev := e.n
	n, err := decode(e.dec, e.buf, need)
	if err != nil {
		return fail(err)
	}
	e.n = n
	a.cache.mu.Lock()
	a.stats.BytesDecompressed += int64(e.n - prev)
	a.cache.mu.Unlock()
	if e.n == size {
		// Complete: only the output stays.
		e.dec, e.comp = nil, nil
		a.cache.reserve(e, int64(cap(e.buf)))
	}
	return nil
}
