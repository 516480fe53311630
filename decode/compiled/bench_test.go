package compiled

import (
	"testing"

	"github.com/mecanim/mecanim/model"
)

// BenchmarkClipBayonetta converts the corpus's largest clip (BayonettaTest,
// 2.5 MB: 41 streamed, 78 dense and 26 constant curves over 213 s) from its
// decoded type-tree value to a model.Clip.
func BenchmarkClipBayonetta(b *testing.B) {
	o := findObject(b, "lethal-emotes/customemotespackage#", model.ClassAnimationClip, "BayonettaTest")
	b.SetBytes(int64(o.Obj.Size))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Clip(o.V, ""); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkClipBayonettaFromBytes is BenchmarkClipBayonetta including the
// generic type-tree decoding of the object's bytes.
func BenchmarkClipBayonettaFromBytes(b *testing.B) {
	o := findObject(b, "lethal-emotes/customemotespackage#", model.ClassAnimationClip, "BayonettaTest")
	b.SetBytes(int64(o.Obj.Size))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		v, err := o.File.F.Decode(o.Obj)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Clip(v, ""); err != nil {
			b.Fatal(err)
		}
	}
}
