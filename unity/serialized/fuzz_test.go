package serialized

import (
	"bytes"
	"errors"
	"testing"

	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/unity/typetree"
)

// maxSeed bounds the size of corpus files used as fuzz seeds (bigger ones
// slow every mutation down without adding structure).
const maxSeed = 64 << 10

// FuzzOpen opens arbitrary bytes as a serialized file, reads every object and
// decodes every object that has a type tree: nothing may panic, hang or
// allocate without bound, and every failure must be an error.
func FuzzOpen(f *testing.F) {
	if dir, ok := corpustest.Lookup(); ok {
		files, _ := corpusSerializedFiles(dir)
		for _, cf := range files {
			if len(cf.data) <= maxSeed {
				f.Add(cf.data)
			} else {
				f.Add(cf.data[:maxSeed]) // header and metadata of big files
			}
		}
	}
	// Small synthetic files of every format version reach each version's
	// branches quickly.
	for v := uint32(5); v <= 23; v++ {
		f.Add(buildFile(v, false))
		f.Add(buildFile(v, true))
	}
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		prefix := data[:min(len(data), 64)]
		LooksSerialized(prefix)
		sf, err := Open(bytes.NewReader(data), int64(len(data)), "fuzz")
		if err != nil {
			if !errors.Is(err, ErrFormat) {
				t.Fatalf("Open error %v does not wrap ErrFormat", err)
			}
			return
		}
		// What Open reads, readers recognise by content (format 9 on).
		if err := CheckHeader(prefix, int64(len(data))); sf.Version >= 9 && err != nil {
			t.Fatalf("Open read a file whose header CheckHeader refuses: %v", err)
		}
		// A file opened a second time with shared trees reads as alone.
		shared := NewTrees()
		var twice *File
		for range 2 {
			if twice, err = OpenWith(bytes.NewReader(data), int64(len(data)), "fuzz", Options{Trees: shared}); err != nil {
				t.Fatalf("Open read the file alone, OpenWith with shared trees failed: %v", err)
			}
		}
		for i := range sf.Objects {
			o := &sf.Objects[i]
			_, err1 := sf.Decode(o)
			_, err2 := twice.Decode(&twice.Objects[i])
			if (err1 == nil) != (err2 == nil) {
				t.Fatalf("object %d decodes alone with %v, with shared trees with %v", i, err1, err2)
			}
		}
		for i := range sf.Objects {
			o := &sf.Objects[i]
			b, err := sf.ReadObject(o)
			if err == nil && len(b) != int(o.Size) {
				t.Fatalf("ReadObject returned %d bytes for a %d-byte object", len(b), o.Size)
			}
			v, err := sf.Decode(o)
			var te *typetree.TrailingError
			if err != nil && !errors.As(err, &te) {
				continue
			}
			if err == nil && v == nil {
				t.Fatal("Decode returned neither value nor error")
			}
		}
	})
}
