package assets

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"

	"github.com/mecanim/mecanim/unity/serialized"
	"github.com/mecanim/mecanim/unity/unityfs"
	"github.com/mecanim/mecanim/unity/webdata"
)

// Unity stores a large serialized file of an Android or WebGL player in
// parts (sharedassets0.assets.split0, .split1, ...; other files refer to
// it by its whole name), and a WebGL build's data file compressed as a
// whole (.data.gz, .data.br, .unityweb). This file joins the parts and
// expands the compressed files, so that every reader of Unity files sees
// them as the file they stand for.

// MaxExpandedSize bounds what a compressed data file may expand to.
const MaxExpandedSize = webdata.MaxExpandedSize

// maxSplitParts bounds the parts of a split file.
const maxSplitParts = 4096

// splitName matches a part of a split file: the whole file's name, the
// part number.
var splitName = regexp.MustCompile(`^(.+)\.split([0-9]+)$`)

// SplitBase returns the name of the file a part of a split file belongs to
// ("level0" for "level0.split3") and the part number; ok is false for a
// name that is not a part.
func SplitBase(name string) (base string, part int, ok bool) {
	m := splitName.FindStringSubmatch(name)
	if m == nil {
		return "", 0, false
	}
	n, err := strconv.Atoi(m[2])
	if err != nil {
		return "", 0, false
	}
	return m[1], n, true
}

// openSplit opens a split file when name is its first part
// (NAME.split0) or its whole name (NAME, absent, with NAME.split0 beside
// it); ok is false for any other name. A later part alone is an error
// naming the first.
func openSplit(name string, opts Options) (c *Container, ok bool, err error) {
	base, part, isPart := SplitBase(name)
	if !isPart {
		if _, err := os.Stat(name); !errors.Is(err, os.ErrNotExist) {
			return nil, false, nil
		}
		if _, err := os.Stat(name + ".split0"); err != nil {
			return nil, false, nil
		}
		base = name
	} else if part != 0 {
		return nil, true, &Error{Container: name, Err: fmt.Errorf("part %d of the split file %s: open %s.split0 (its parts are joined)", part, filepath.Base(base), filepath.Base(base))}
	}
	j, err := joinParts(base, opts)
	if err != nil {
		return nil, true, &Error{Container: name, Err: err}
	}
	c, err = OpenReader(j, j.size, base, opts)
	if err != nil {
		j.Close()
		return nil, true, err
	}
	c.closer = j
	c.dir = filepath.Dir(base)
	return c, true, nil
}

// joined is the parts of a split file read as one.
type joined struct {
	parts []fileReader
	ends  []int64 // end offset of each part in the whole
	size  int64
}

// joinParts opens base.split0, base.split1, ... up to the first missing.
func joinParts(base string, opts Options) (*joined, error) {
	j := &joined{}
	for i := 0; ; i++ {
		p := fmt.Sprintf("%s.split%d", base, i)
		f, st, err := openFile(p, opts)
		if errors.Is(err, os.ErrNotExist) && i > 0 {
			break
		}
		if err == nil && i >= maxSplitParts {
			f.Close()
			err = fmt.Errorf("more than %d parts", maxSplitParts)
		}
		if err != nil {
			j.Close()
			return nil, fmt.Errorf("split file part %d: %w", i, err)
		}
		j.parts = append(j.parts, f)
		j.size += st.Size()
		j.ends = append(j.ends, j.size)
	}
	return j, nil
}

// ReadAt reads the whole file's bytes across its parts.
func (j *joined) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, fmt.Errorf("split file: negative offset %d", off)
	}
	n := 0
	for n < len(p) {
		if off >= j.size {
			return n, io.EOF
		}
		i := 0
		for j.ends[i] <= off {
			i++
		}
		start := j.ends[i] - sizeOf(j, i)
		want := min(int64(len(p)-n), j.ends[i]-off)
		k, err := j.parts[i].ReadAt(p[n:n+int(want)], off-start)
		n += k
		off += int64(k)
		if err != nil && !(err == io.EOF && int64(k) == want) {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF // the part shrank since it was opened
			}
			return n, err
		}
	}
	return n, nil
}

func sizeOf(j *joined, i int) int64 {
	if i == 0 {
		return j.ends[0]
	}
	return j.ends[i] - j.ends[i-1]
}

// Close closes every part.
func (j *joined) Close() error {
	var first error
	for _, f := range j.parts {
		if err := f.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// openCompressed expands a compressed WebGL data file into a temporary
// file (removed when it is closed, or at once where the system allows) and
// opens what it holds. Memory stays the decoder's window whatever the
// file's size.
func openCompressed(r io.ReaderAt, size int64, name string, comp webdata.Compression, opts Options) (*Container, error) {
	d, err := webdata.NewReader(io.NewSectionReader(r, 0, size), comp, 0)
	if err != nil {
		return nil, &Error{Container: name, Err: err}
	}
	// Check the start before expanding the rest: a file named like data
	// that is not (a .wasm.br beside it) costs little.
	head := make([]byte, 64)
	k, err := io.ReadFull(d, head)
	if err != nil && err != io.ErrUnexpectedEOF {
		return nil, &Error{Container: name, Err: err}
	}
	head = head[:k]
	if !webdata.IsWebData(head) && !unityfs.IsUnityFS(head) && !serialized.IsSerializedFile(head, MaxExpandedSize) {
		return nil, &Error{Container: name, Err: fmt.Errorf("%w: its %s data is not one either", ErrUnknownFormat, comp)}
	}
	d = io.MultiReader(bytes.NewReader(head), d)
	tmp, err := os.CreateTemp("", "mecanim-webdata-*")
	if err != nil {
		return nil, &Error{Container: name, Err: fmt.Errorf("expanding %s data: %w", comp, err)}
	}
	t := &tempFile{File: tmp}
	if os.Remove(tmp.Name()) == nil {
		t.removed = true
	}
	n, err := io.Copy(tmp, d)
	if err != nil {
		t.Close()
		return nil, &Error{Container: name, Err: fmt.Errorf("expanding %s data: %w", comp, err)}
	}
	c, err := OpenReader(tmp, n, name, opts)
	if err != nil {
		t.Close()
		return nil, err
	}
	c.closer = t
	c.Expanded = n
	return c, nil
}

// tempFile is a temporary file removed when closed.
type tempFile struct {
	*os.File
	removed bool
}

func (t *tempFile) Close() error {
	err := t.File.Close()
	if !t.removed {
		os.Remove(t.Name())
	}
	return err
}
