package unityfs

import (
	"errors"
	"fmt"
	"sync"
)

// DefaultMemoryLimit is the limit of a Cache made with NewCache(0), and of
// the private Cache an Archive gets when Options.Cache is nil.
const DefaultMemoryLimit = 256 << 20

// ErrMemoryLimit is wrapped by every LimitError.
var ErrMemoryLimit = errors.New("unityfs: memory limit reached")

// LimitError reports a read that would need more decompressed data held at
// once than the Cache allows. Blocks are decoded only as far as reads need,
// so it arises only for a read that reaches further into one block than the
// limit (a decompression bomb, or a genuine block larger than the limit).
type LimitError struct {
	Block       int   // the block's index; -1 for the block info
	Compression int   // its compression type
	Size        int64 // its declared uncompressed size
	Compressed  int64 // its compressed size
	Need        int64 // bytes the read needs held: output so far and decoder state
	Limit       int64 // the Cache's limit
}

// Error describes the failure and where it happened.
func (e *LimitError) Error() string {
	what := fmt.Sprintf("block %d", e.Block)
	if e.Block < 0 {
		what = "the block info"
	}
	return fmt.Sprintf("unityfs: %s (%s, %d bytes declared from %d compressed): the read needs %d bytes held at once, over the %d-byte memory limit shared by the open archives",
		what, compressionName(e.Compression), e.Size, e.Compressed, e.Need, e.Limit)
}

// Unwrap returns ErrMemoryLimit.
func (e *LimitError) Unwrap() error { return ErrMemoryLimit }

func compressionName(c int) string {
	switch c {
	case CompressionNone:
		return "stored"
	case CompressionLZMA:
		return "LZMA"
	case CompressionLZ4:
		return "LZ4"
	case CompressionLZ4HC:
		return "LZ4HC"
	}
	return fmt.Sprintf("compression %d", c)
}

// Cache holds decompressed blocks for every Archive opened with it, within
// one limit on the bytes held: decompressed output, the compressed input
// and decoder state of blocks still being decoded, and block infos while
// Open reads them. When a block needs room, the least recently used blocks
// of any of its archives are dropped; a read that cannot fit even alone
// fails with a LimitError. One Cache passed to every Open in a process
// bounds the memory all its bundles take together. A Cache is safe for
// concurrent use.
type Cache struct {
	limit int64

	mu         sync.Mutex
	used       int64
	meta       int64       // of used: metadata charged by Reserve
	head, tail *blockEntry // most and least recently used
}

// NewCache returns a Cache holding at most limit bytes (DefaultMemoryLimit
// when limit <= 0).
func NewCache(limit int64) *Cache {
	if limit <= 0 {
		limit = DefaultMemoryLimit
	}
	return &Cache{limit: limit}
}

// Limit returns the most bytes the Cache holds.
func (c *Cache) Limit() int64 { return c.limit }

// Used returns the bytes the Cache holds now.
func (c *Cache) Used() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.used
}

// blockEntry is one block of one archive, decoded as far as reads have
// needed. Fields under "guarded by Cache.mu" belong to the cache's
// bookkeeping; the others to whoever holds mu.
type blockEntry struct {
	a     *Archive
	index int

	// guarded by Cache.mu
	prev, next *blockEntry
	linked     bool
	charge     int64

	mu   sync.Mutex
	buf  []byte // output; buf[:n] is decoded
	n    int
	dec  blockDecoder // nil once the block is complete
	comp []byte       // compressed input, kept while dec is not nil
	err  error        // sticky decoding error
}

// reserve sets e's charge to charge bytes, making room by dropping the
// least recently used other entries, and marks e most recently used. It
// fails, changing nothing but the entries dropped, when charge cannot fit.
func (c *Cache) reserve(e *blockEntry, charge int64) bool {
	_, ok := c.reserveBuffer(e, charge, 0)
	return ok
}

// reserveBuffer is reserve for a charge that includes a new output buffer
// of n bytes. When making room drops a block that no reader holds and whose
// buffer has room for n bytes, it returns that buffer for reuse (its whole
// capacity is then charged to e), so reading through blocks that the limit
// cannot hold together reuses memory rather than leaving each dropped block
// to the garbage collector.
func (c *Cache) reserveBuffer(e *blockEntry, charge int64, n int) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if charge > c.limit-c.meta {
		return nil, false
	}
	if !e.linked {
		e.charge = 0
		c.pushFront(e)
		if e.a.entries[e.index] == nil {
			e.a.entries[e.index] = e
		}
	} else {
		c.moveToFront(e)
	}
	old := e.charge
	c.used += charge - old
	e.charge = charge
	var reuse []byte
	for c.used > c.limit && c.tail != e {
		v := c.tail
		if n > 0 && reuse == nil {
			if reuse = take(v, n); reuse != nil {
				extra := int64(cap(reuse) - n)
				e.charge += extra
				c.used += extra
			}
		}
		c.evict(v)
	}
	if c.used > c.limit {
		// Only bytes held outside blocks (block infos being read) are
		// left to free; keep e's old charge.
		c.used += old - e.charge
		e.charge = old
		return nil, false
	}
	return reuse, true
}

// take returns v's output buffer, emptying v, when no reader holds v and
// the buffer can hold n bytes.
func take(v *blockEntry, n int) []byte {
	if !v.mu.TryLock() {
		return nil
	}
	defer v.mu.Unlock()
	if cap(v.buf) < n {
		return nil
	}
	b := v.buf[:cap(v.buf)]
	v.buf, v.n, v.dec, v.comp = nil, 0, nil, nil
	return b
}

// MetadataError reports metadata (a bundle's directory, a serialized
// file's object table and type trees) that does not fit in a Cache's limit
// beside the metadata already held: the inputs open at once describe more
// objects than the process may hold.
type MetadataError struct {
	What  string // what needed the room, e.g. "the directory of 1048576 nodes"
	Need  int64  // bytes it needs held
	Held  int64  // metadata bytes already held
	Limit int64  // the Cache's limit
}

// Error describes the failure.
func (e *MetadataError) Error() string {
	return fmt.Sprintf("unityfs: %s needs %d bytes held, and %d bytes of metadata of the open inputs are held already: over the %d-byte memory limit they share with decompressed blocks",
		e.What, e.Need, e.Held, e.Limit)
}

// Unwrap returns ErrMemoryLimit.
func (e *MetadataError) Unwrap() error { return ErrMemoryLimit }

// Reserve charges n bytes of metadata held outside the blocks (directories,
// object tables, type trees: what stays in memory while an input is open)
// to the Cache until release is called, dropping blocks to make room; it
// fails with a *MetadataError, charging nothing, when the metadata held
// would exceed the limit. One Cache then bounds both what every open input
// describes and what is decompressed. release may be called more than once.
func (c *Cache) Reserve(n int64, what string) (release func(), err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if n < 0 || c.meta+n > c.limit {
		return nil, &MetadataError{What: what, Need: n, Held: c.meta, Limit: c.limit}
	}
	c.used += n
	c.meta += n
	for c.used > c.limit && c.tail != nil {
		c.evict(c.tail)
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			c.mu.Lock()
			c.used -= n
			c.meta -= n
			c.mu.Unlock()
		})
	}, nil
}

// blockRoom is what the limit leaves to blocks beside the metadata held.
func (c *Cache) blockRoom() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.limit - c.meta
}

// Metadata returns the metadata bytes Reserve holds now.
func (c *Cache) Metadata() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.meta
}

// hold charges n bytes not owned by any block (a block info being read) and
// returns the function that releases them, or false when n exceeds the
// limit.
func (c *Cache) hold(n int64) (func(), bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if n > c.limit-c.meta {
		return nil, false
	}
	c.used += n
	for c.used > c.limit && c.tail != nil {
		c.evict(c.tail)
	}
	return func() {
		c.mu.Lock()
		c.used -= n
		c.mu.Unlock()
	}, true
}

// lookup returns block i's entry, creating an unlinked one when the block
// is not held; hit says whether it was held.
func (c *Cache) lookup(a *Archive, i int) (e *blockEntry, hit bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e = a.entries[i]; e != nil {
		if e.linked {
			c.moveToFront(e)
		}
		a.stats.CacheHits++
		return e, true
	}
	e = &blockEntry{a: a, index: i}
	a.entries[i] = e
	a.stats.BlocksDecompressed++
	return e, false
}

// drop forgets every block of a (when it is closed).
func (c *Cache) drop(a *Archive) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, e := range a.entries {
		if e != nil && e.linked {
			c.unlink(e)
		}
		a.entries[i] = nil
	}
}

// evict drops e from the cache and from its archive. A reader holding e may
// finish with it; the memory is freed when it lets go.
func (c *Cache) evict(e *blockEntry) {
	c.unlink(e)
	if e.a.entries[e.index] == e {
		e.a.entries[e.index] = nil
	}
	e.a.stats.CacheEvictions++
}

func (c *Cache) unlink(e *blockEntry) {
	if e.prev != nil {
		e.prev.next = e.next
	} else {
		c.head = e.next
	}
	if e.next != nil {
		e.next.prev = e.prev
	} else {
		c.tail = e.prev
	}
	e.prev, e.next, e.linked = nil, nil, false
	c.used -= e.charge
	e.charge = 0
}

func (c *Cache) pushFront(e *blockEntry) {
	e.prev, e.next, e.linked = nil, c.head, true
	if c.head != nil {
		c.head.prev = e
	} else {
		c.tail = e
	}
	c.head = e
}

func (c *Cache) moveToFront(e *blockEntry) {
	if c.head == e {
		return
	}
	charge := e.charge
	c.unlink(e)
	c.pushFront(e)
	e.charge = charge
	c.used += charge
}
