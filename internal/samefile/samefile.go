// Package samefile tells files of the same content apart from the rest,
// so that inputs given twice (or copied under another name) count once.
package samefile

import (
	"crypto/sha256"
	"io"
	"os"
)

// Index remembers the files it was shown: by size first, then by SHA-256,
// read only when two sizes match. The zero Index is ready to use.
type Index struct {
	bySize map[int64][]string
	sums   map[string][sha256.Size]byte
}

// Seen reports whether a file shown earlier has path's content (size
// bytes), and which; otherwise it records path. A file that cannot be
// read is never the same as another.
func (x *Index) Seen(path string, size int64) (earlier string, same bool) {
	if x.bySize == nil {
		x.bySize, x.sums = map[int64][]string{}, map[string][sha256.Size]byte{}
	}
	others := x.bySize[size]
	if len(others) > 0 {
		if sum, ok := x.sum(path); ok {
			for _, o := range others {
				if other, ok := x.sum(o); ok && other == sum {
					return o, true
				}
			}
		}
	}
	x.bySize[size] = append(others, path)
	return "", false
}

func (x *Index) sum(path string) ([sha256.Size]byte, bool) {
	if s, ok := x.sums[path]; ok {
		return s, true
	}
	f, err := os.Open(path)
	if err != nil {
		return [sha256.Size]byte{}, false
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return [sha256.Size]byte{}, false
	}
	var s [sha256.Size]byte
	copy(s[:], h.Sum(nil))
	x.sums[path] = s
	return s, true
}
