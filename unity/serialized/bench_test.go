package serialized

import (
	"bytes"
	"io"
	"path/filepath"
	"testing"

	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/unity/typetree"
)

// benchFile opens a corpus serialized file (rel is a corpus path; member a
// bundle member or "") or skips the benchmark.
func benchFile(b *testing.B, rel, member string) *File {
	b.Helper()
	dir, ok := corpustest.Lookup()
	if !ok {
		b.Skip("corpus not found")
	}
	files, err := corpusSerializedFiles(filepath.Join(dir, filepath.Dir(filepath.FromSlash(rel))))
	if err != nil {
		b.Fatal(err)
	}
	want := filepath.Base(rel)
	if member != "" {
		want += "/" + member
	}
	for _, cf := range files {
		if cf.name == want {
			f, err := Open(bytes.NewReader(cf.data), int64(len(cf.data)), cf.name)
			if err != nil {
				b.Fatal(err)
			}
			return f
		}
	}
	b.Fatalf("%s %s not found", rel, member)
	return nil
}

// benchDecode decodes the objects accepted by keep, from bytes read
// beforehand, reporting MB/s of object bytes.
func benchDecode(b *testing.B, f *File, keep func(*Object) bool) {
	type job struct {
		l    *typetree.Layout
		data []byte
	}
	var jobs []job
	var total int64
	for i := range f.Objects {
		o := &f.Objects[i]
		if !keep(o) {
			continue
		}
		l, err := f.Layout(f.TypeOf(o))
		if err != nil {
			b.Fatal(err)
		}
		data, err := f.ReadObject(o)
		if err != nil {
			b.Fatal(err)
		}
		jobs = append(jobs, job{l, data})
		total += int64(len(data))
	}
	opts := f.DecodeOptions()
	order := f.ByteOrder()
	b.SetBytes(total)
	b.ReportAllocs()
	b.ResetTimer()
	cpu := processCPU()
	defer reportCPU(b, cpu)
	for b.Loop() {
		for _, j := range jobs {
			if _, err := j.l.DecodeWith(j.data, order, opts); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func all(*Object) bool { return true }

// BenchmarkDecodeLevel0 decodes every object of the player level (94 objects, 31 KB).
func BenchmarkDecodeLevel0(b *testing.B) {
	benchDecode(b, benchFile(b, "unitydatatools/player-2022.1.20f1/level0", ""), all)
}

// BenchmarkDecodeLargestFile decodes every object of the largest corpus
// serialized file with animation (lethal-emotes' 6 MB CAB, 1,435 objects).
func BenchmarkDecodeLargestFile(b *testing.B) {
	benchDecode(b, benchFile(b, "lethal-emotes/customemotespackage", "CAB-1c015bf0b0345fd2fd5c91b718be8d67"), all)
}

// BenchmarkDecodeLargeClip decodes the 2.5 MB AnimationClip BayonettaTest.
func BenchmarkDecodeLargeClip(b *testing.B) {
	benchDecode(b, benchFile(b, "lethal-emotes/customemotespackage", "CAB-1c015bf0b0345fd2fd5c91b718be8d67"),
		func(o *Object) bool { return o.PathID == 134989785292537841 })
}

// BenchmarkOpenLargestFile measures reading header and metadata (types
// with their trees, 1,435 objects).
func BenchmarkOpenLargestFile(b *testing.B) {
	f := benchFile(b, "lethal-emotes/customemotespackage", "CAB-1c015bf0b0345fd2fd5c91b718be8d67")
	var data []byte
	if r, ok := f.r.(*bytes.Reader); ok {
		data = make([]byte, r.Size())
		r.ReadAt(data, 0)
	}
	b.SetBytes(int64(f.MetadataSize))
	b.ReportAllocs()
	cpu := processCPU()
	defer reportCPU(b, cpu)
	for b.Loop() {
		if _, err := Open(bytes.NewReader(data), int64(len(data)), "x"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWriteJSONLargeClip writes the 2.5 MB clip BayonettaTest as JSON
// (what `mecanim dump` does), reporting MB/s of object bytes.
func BenchmarkWriteJSONLargeClip(b *testing.B) {
	f := benchFile(b, "lethal-emotes/customemotespackage", "CAB-1c015bf0b0345fd2fd5c91b718be8d67")
	o, ok := f.Object(134989785292537841)
	if !ok {
		b.Fatal("BayonettaTest not found")
	}
	v, err := f.Decode(o)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(o.Size))
	b.ReportAllocs()
	cpu := processCPU()
	defer reportCPU(b, cpu)
	for b.Loop() {
		if err := typetree.WriteJSON(io.Discard, v); err != nil {
			b.Fatal(err)
		}
	}
}
