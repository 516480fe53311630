// Package filepool reads many files through a bounded number of open file
// descriptors. A game can hold more Unity files than a process may keep
// open (tens of thousands of bundles against a limit of a few thousand),
// while its readers keep every file for the whole run: a pooled file is
// reopened when it is read after its descriptor was given to another.
//
// A file reopened must be the file first opened (the same file, size and
// modification time); otherwise reads fail with ErrChanged rather than
// return bytes of another file.
package filepool

import (
	"container/list"
	"errors"
	"io/fs"
	"os"
	"sync"
)

// DefaultMaxOpen is the number of descriptors a Pool made with New(0)
// keeps open, or a quarter of the process's limit where that is lower:
// far over what a reader works on at once, leaving the rest of the limit
// to the files a program writes.
const DefaultMaxOpen = 256

// minMaxOpen is the fewest descriptors New(0) keeps whatever the limit.
const minMaxOpen = 4

// ErrChanged reports a file that is no longer the file first opened
// (replaced, truncated, rewritten) when it is reopened.
var ErrChanged = errors.New("filepool: file changed since it was opened")

// ErrClosed reports a read of a File after its Close.
var ErrClosed = errors.New("filepool: file closed")

// Pool hands out Files that share at most a number of open descriptors.
// It is safe for concurrent use.
type Pool struct {
	max int

	mu   sync.Mutex
	open int       // Files holding a descriptor
	idle list.List // Files holding a descriptor nobody reads with; most recent first
}

// New returns a Pool keeping at most max descriptors open while they are
// not being read (max <= 0: DefaultMaxOpen, see there). Reads in progress
// each hold one, so the count can exceed max by the number of concurrent
// readers.
func New(max int) *Pool {
	if max <= 0 {
		max = defaultMax(openLimit())
	}
	return &Pool{max: max}
}

// defaultMax is New(0)'s max under a limit of open descriptors (0:
// unknown).
func defaultMax(limit uint64) int {
	if limit == 0 || limit/4 >= DefaultMaxOpen {
		return DefaultMaxOpen
	}
	return max(int(limit/4), minMaxOpen)
}

// Max returns the number of idle descriptors the pool keeps at most.
func (p *Pool) Max() int { return p.max }

// Open opens the named file for reading through the pool.
func (p *Pool) Open(name string) (*File, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.trim(p.max - 1)
	h, st, err := openStat(name)
	if err != nil {
		return nil, err
	}
	f := &File{p: p, name: name, info: st, h: h}
	p.open++
	f.elem = p.idle.PushFront(f)
	return f, nil
}

// Descriptors returns the number of descriptors the pool holds now.
func (p *Pool) Descriptors() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.open
}

// openStat opens name and reads its information.
func openStat(name string) (*os.File, fs.FileInfo, error) {
	h, err := os.Open(name)
	if err != nil {
		return nil, nil, err
	}
	st, err := h.Stat()
	if err != nil {
		h.Close()
		return nil, nil, err
	}
	return h, st, nil
}

// trim closes the least recently used idle descriptors until the pool
// holds at most keep (or none is idle). p.mu is held.
func (p *Pool) trim(keep int) {
	for p.open > keep && p.idle.Len() > 0 {
		p.closeHandle(p.idle.Back().Value.(*File))
	}
}

// closeHandle closes f's descriptor (idle or not). p.mu is held.
func (p *Pool) closeHandle(f *File) error {
	if f.elem != nil {
		p.idle.Remove(f.elem)
		f.elem = nil
	}
	err := f.h.Close()
	f.h = nil
	p.open--
	return err
}

// File is a file read through a Pool. Its ReadAt may be called from many
// goroutines at once.
type File struct {
	p    *Pool
	name string
	info fs.FileInfo // as first opened

	// guarded by p.mu
	h      *os.File      // nil while the descriptor is given up
	users  int           // reads in progress
	elem   *list.Element // in p.idle while h != nil && users == 0
	closed bool
}

// Name returns the name the file was opened by.
func (f *File) Name() string { return f.name }

// Stat returns the file's information as it was first opened.
func (f *File) Stat() fs.FileInfo { return f.info }

// Size returns the file's size as it was first opened.
func (f *File) Size() int64 { return f.info.Size() }

// ReadAt reads len(b) bytes at off, reopening the file if its descriptor
// was given to another file.
func (f *File) ReadAt(b []byte, off int64) (int, error) {
	h, err := f.acquire()
	if err != nil {
		return 0, err
	}
	n, err := h.ReadAt(b, off)
	f.release()
	return n, err
}

// acquire returns f's descriptor, reopening it if needed, and counts a
// read in progress.
func (f *File) acquire() (*os.File, error) {
	p := f.p
	p.mu.Lock()
	defer p.mu.Unlock()
	if f.closed {
		return nil, &fs.PathError{Op: "read", Path: f.name, Err: ErrClosed}
	}
	if f.h == nil {
		p.trim(p.max - 1)
		h, st, err := openStat(f.name)
		if err != nil {
			return nil, &fs.PathError{Op: "reopen", Path: f.name, Err: err}
		}
		if !os.SameFile(st, f.info) || st.Size() != f.info.Size() || !st.ModTime().Equal(f.info.ModTime()) {
			h.Close()
			return nil, &fs.PathError{Op: "reopen", Path: f.name, Err: ErrChanged}
		}
		f.h = h
		p.open++
	} else if f.elem != nil {
		p.idle.Remove(f.elem)
		f.elem = nil
	}
	f.users++
	return f.h, nil
}

// release ends a read: the descriptor becomes idle (or is closed after a
// Close), and the pool gives up idle descriptors over its max.
func (f *File) release() {
	p := f.p
	p.mu.Lock()
	defer p.mu.Unlock()
	f.users--
	if f.users > 0 {
		return
	}
	if f.closed {
		p.closeHandle(f)
		return
	}
	f.elem = p.idle.PushFront(f)
	p.trim(p.max)
}

// Close gives up the file for good: its descriptor is closed (after the
// reads in progress), and later reads fail with ErrClosed.
func (f *File) Close() error {
	p := f.p
	p.mu.Lock()
	defer p.mu.Unlock()
	if f.closed {
		return &fs.PathError{Op: "close", Path: f.name, Err: ErrClosed}
	}
	f.closed = true
	if f.h == nil || f.users > 0 {
		return nil
	}
	return p.closeHandle(f)
}
