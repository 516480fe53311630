package assets_test

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"

	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/internal/fuzzcount"
	"github.com/mecanim/mecanim/internal/synth"
	"github.com/mecanim/mecanim/unity/assets"
)

// objectCount counts the objects of a container's serialized files.
func objectCount(c *assets.Container) int {
	n := 0
	for _, f := range c.Files {
		n += len(f.Objects)
	}
	return n
}

func writeFile(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestSplitFilesOpenAsTheWholeFile(t *testing.T) {
	sf, err := synth.SerializedFile(0, true, false)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := assets.OpenReader(bytes.NewReader(sf), int64(len(sf)), "sharedassets0.assets", assets.Options{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	base := filepath.Join(dir, "sharedassets0.assets")
	// Parts of uneven sizes, one of them smaller than a read.
	cuts := []int{0, 100, 101, len(sf) / 2, len(sf)}
	for i := 0; i+1 < len(cuts); i++ {
		writeFile(t, base+".split"+string(rune('0'+i)), sf[cuts[i]:cuts[i+1]])
	}
	for _, name := range []string{base + ".split0", base} {
		c, err := assets.Open(name, assets.Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(c.Files) != 1 || c.Files[0].Name != "sharedassets0.assets" || objectCount(c) != objectCount(whole) {
			t.Errorf("%s: %d files, objects %d (want 1 file named sharedassets0.assets, %d objects)", filepath.Base(name), len(c.Files), objectCount(c), objectCount(whole))
		}
		for i := range c.Files[0].Objects {
			a, err1 := c.Files[0].ReadObject(&c.Files[0].Objects[i])
			b, err2 := whole.Files[0].ReadObject(&whole.Files[0].Objects[i])
			if err1 != nil || err2 != nil || !bytes.Equal(a, b) {
				t.Fatalf("%s: object %d differs (%v, %v)", filepath.Base(name), i, err1, err2)
			}
		}
		if err := c.Close(); err != nil {
			t.Error(err)
		}
	}
	_, err = assets.Open(base+".split2", assets.Options{})
	if err == nil || !strings.Contains(err.Error(), "split0") {
		t.Errorf("opening a later part alone: %v; want an error naming the first part", err)
	}
	if _, _, ok := assets.SplitBase("level0.assets"); ok {
		t.Error("SplitBase took a whole file for a part")
	}
}

func TestCompressedWebDataOpensAsItsContents(t *testing.T) {
	bundle, err := synth.Bundle(0, true, 4096)
	if err != nil {
		t.Fatal(err)
	}
	data := synth.WebData([]string{"data.unity3d", "boot.config"}, [][]byte{bundle, []byte("x=1\n")})
	var gz, br bytes.Buffer
	z := gzip.NewWriter(&gz)
	z.Write(data)
	z.Close()
	b := brotli.NewWriter(&br)
	b.Write(data)
	b.Close()
	dir := t.TempDir()
	plain := filepath.Join(dir, "game.data")
	writeFile(t, plain, data)
	want, err := assets.Open(plain, assets.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer want.Close()
	for _, tc := range []struct {
		name string
		file []byte
	}{
		{"game.data.gz", gz.Bytes()},
		{"game.data.br", br.Bytes()},
		{"Build.data.unityweb", br.Bytes()},
		{"Build2.data.unityweb", gz.Bytes()},
	} {
		p := filepath.Join(dir, tc.name)
		writeFile(t, p, tc.file)
		c, err := assets.Open(p, assets.Options{})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if c.Kind != assets.KindWebData || objectCount(c) != objectCount(want) || objectCount(c) == 0 || c.Expanded != int64(len(data)) {
			t.Errorf("%s: kind %s, %d objects, expanded %d; want %s, %d objects, %d bytes", tc.name, c.Kind, objectCount(c), c.Expanded, want.Kind, objectCount(want), len(data))
		}
		c.Close()
		// A damaged stream is an error naming the file, not an empty container.
		cut := filepath.Join(dir, "cut-"+tc.name)
		writeFile(t, cut, tc.file[:len(tc.file)*2/3])
		if _, err := assets.Open(cut, assets.Options{}); err == nil || !strings.Contains(err.Error(), cut) {
			t.Errorf("%s cut short: %v; want an error naming it", tc.name, err)
		}
	}
	// No temporary file is left behind.
	left, _ := filepath.Glob(filepath.Join(os.TempDir(), "mecanim-webdata-*"))
	if len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

func TestCorpusWebDataGzippedReadsAsTheOriginal(t *testing.T) {
	src := corpustest.Path(t, "unitydatatools/webgl/HelloWorld.data")
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	want, err := assets.Open(src, assets.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer want.Close()
	var gz bytes.Buffer
	z := gzip.NewWriter(&gz)
	z.Write(data)
	z.Close()
	p := filepath.Join(t.TempDir(), "HelloWorld.data.gz")
	writeFile(t, p, gz.Bytes())
	c, err := assets.Open(p, assets.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if objectCount(c) != objectCount(want) || len(c.Files) != len(want.Files) {
		t.Errorf("gzipped: %d files, %d objects; the original %d, %d", len(c.Files), objectCount(c), len(want.Files), objectCount(want))
	}
	// A brotli file named like data that holds something else says so.
	var br bytes.Buffer
	w := brotli.NewWriter(&br)
	w.Write([]byte("UnityFS\x00 but then nothing a bundle holds"))
	w.Close()
	q := filepath.Join(t.TempDir(), "fake.data.br")
	writeFile(t, q, br.Bytes())
	if _, err := assets.Open(q, assets.Options{}); err == nil {
		t.Error("a brotli file holding a broken bundle opened without an error")
	}
}

// FuzzOpenCompressed opens gzip and brotli WebGL data: any bytes are an
// error or a container, never a crash, and no temporary file is left.
func FuzzOpenCompressed(f *testing.F) {
	bundle, err := synth.Bundle(3, false, 1024)
	if err != nil {
		f.Fatal(err)
	}
	data := synth.WebData([]string{"data.unity3d"}, [][]byte{bundle})
	var gz, br bytes.Buffer
	z := gzip.NewWriter(&gz)
	z.Write(data)
	z.Close()
	w := brotli.NewWriter(&br)
	w.Write(data)
	w.Close()
	f.Add(gz.Bytes(), "game.data.gz")
	f.Add(br.Bytes(), "game.data.br")
	count := fuzzcount.Counter("FuzzOpenCompressed")
	f.Fuzz(func(t *testing.T, b []byte, name string) {
		count()
		c, err := assets.OpenReader(bytes.NewReader(b), int64(len(b)), name, assets.Options{})
		if err == nil {
			for _, f := range c.Files {
				for i := range f.Objects {
					f.ReadObject(&f.Objects[i])
				}
			}
			c.Close()
		}
	})
}
