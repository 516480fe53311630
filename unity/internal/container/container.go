// Package container holds the plumbing the container readers (unityfs,
// webdata) share: opening a named file as an io.ReaderAt, full reads at an
// offset, and the check that the byte ranges a directory lists do not
// overlap. It knows nothing of either format; each reader keeps its own
// error types and messages.
package container

import (
	"fmt"
	"io"
	"os"
	"sort"
)

// OpenFile opens the named file and hands it, with its size, to open. When
// open fails the file is closed and the error is prefixed with the name (the
// errors of opening and statting the file already name it). On success the
// caller owns the file and closes it when done with the value.
func OpenFile[T any](name string, open func(r io.ReaderAt, size int64) (T, error)) (T, *os.File, error) {
	var zero T
	f, err := os.Open(name)
	if err != nil {
		return zero, nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return zero, nil, err
	}
	v, err := open(f, st.Size())
	if err != nil {
		f.Close()
		return zero, nil, fmt.Errorf("%s: %w", name, err)
	}
	return v, f, nil
}

// ReadFull fills buf from r at off; an io.EOF alongside a full buffer is
// success, and a short read without an error is io.ErrUnexpectedEOF.
func ReadFull(r io.ReaderAt, buf []byte, off int64) error {
	n, err := r.ReadAt(buf, off)
	if n == len(buf) {
		return nil
	}
	if err == nil || err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return err
}

// Overlap reports the first two non-empty ranges that overlap, in order of
// their offsets, among n ranges where span(i) returns range i's offset and
// size: prev is the earlier range, next the one starting inside it. ok is
// false when no two overlap. Containers lay their files out one after
// another; overlapping ranges would let a small container list the same
// bytes many times over and multiply the work of every reader that opens
// each file.
func Overlap(n int, span func(i int) (off, size int64)) (prev, next int, ok bool) {
	order := make([]int, 0, n)
	for i := range n {
		if _, size := span(i); size > 0 {
			order = append(order, i)
		}
	}
	sort.Slice(order, func(x, y int) bool {
		ox, _ := span(order[x])
		oy, _ := span(order[y])
		return ox < oy
	})
	for k := 1; k < len(order); k++ {
		poff, psize := span(order[k-1])
		if noff, _ := span(order[k]); noff < poff+psize {
			return order[k-1], order[k], true
		}
	}
	return -1, -1, false
}
