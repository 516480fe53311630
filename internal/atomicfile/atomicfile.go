// Package atomicfile writes files that appear complete or not at all: the
// data goes to a temporary file in the same folder, renamed into place once
// written and flushed. An interrupted or failed write leaves no partial
// file under the name (only, after a kill, a temporary one that IsTemp
// recognises, for the next run to remove).
package atomicfile

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// prefix and suffix frame the names of temporary files.
const prefix, suffix = ".", ".mecanim-tmp"

// Write writes the file name with write, through a temporary file renamed
// into place when write has succeeded (mode 0644).
func Write(name string, write func(w io.Writer) error) error {
	f, err := os.CreateTemp(filepath.Dir(name), prefix+filepath.Base(name)+".*"+suffix)
	if err != nil {
		return err
	}
	tmp := f.Name()
	bw := bufio.NewWriterSize(f, 1<<20)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, 0o644)
	}
	if err == nil {
		err = os.Rename(tmp, name)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("writing %s: %w", name, err)
	}
	return nil
}

// IsTemp reports whether a file's base name is that of a temporary file
// Write makes.
func IsTemp(base string) bool {
	return strings.HasPrefix(base, prefix) && strings.HasSuffix(base, suffix)
}
