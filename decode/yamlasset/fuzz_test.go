package yamlasset

import (
	"bytes"
	"os"
	"testing"

	"github.com/mecanim/mecanim/internal/corpustest"
)

// FuzzParse feeds the parser and every converter arbitrary text, seeded at
// run time with the corpus's YAML assets (the large ones cut to their
// first 8 KB) and a few hand-made edge cases: none may panic, hang or
// allocate without bound.
func FuzzParse(f *testing.F) {
	if dir, ok := corpustest.Lookup(); ok {
		for _, p := range corpusYAML(dir) {
			b, err := os.ReadFile(p)
			if err != nil {
				continue
			}
			if len(b) > 8<<10 {
				b = b[:8<<10]
			}
			f.Add(b)
		}
	}
	for _, s := range []string{
		"", "---", "--- !u!74 &1\n", "a: {b: [1, 2, {c: d}], e: \"\\u00e9\\uD83D\\uDE00\"}\n",
		"- - - x\n", "k: 'it''s'\n", "k: \"a\\\n  b\"\n", "k: v\n  w\n\n  x\n", "\tk: v\n",
		"a:\n- 1\n- 2\nb: 3\n", "--- !u!1 &-5 stripped\nGameObject:\n  m_Name: x\n",
		maskedController, // layers naming an AvatarMask in the same file and in another asset
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		file, err := Parse(bytes.NewReader(b), "fuzz")
		if err != nil {
			return
		}
		file.Clip()
		file.Controller()
		file.Avatar()
		file.Rigs()
		file.Hierarchy()
		file.HumanDescription()
		file.ClipImports()
		file.AvatarMask()
		file.Clips()
	})
}

func BenchmarkParseDab(b *testing.B) {
	path := corpustest.Path(b, "lethal-emotes/source/Dab.anim")
	src, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(bytes.NewReader(src), "Dab.anim"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkClipDab(b *testing.B) {
	f := parseCorpus(b, "lethal-emotes/source/Dab.anim")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := f.Clip(); err != nil {
			b.Fatal(err)
		}
	}
}
