package muscleclip

import (
	"testing"

	"github.com/mecanim/mecanim/decode/yamlasset"
	"github.com/mecanim/mecanim/internal/corpustest"
)

// BenchmarkCompile compiles a humanoid editor clip of 170 curves and 3 s
// (the corpus's Dab.anim) as Unity's editor does.
func BenchmarkCompile(b *testing.B) {
	f, err := yamlasset.ParseFile(corpustest.Path(b, "lethal-emotes/source/Dab.anim"))
	if err != nil {
		b.Fatal(err)
	}
	c, err := f.Clip()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := Compile(c, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
