package texture

import (
	"errors"
	"io/fs"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/unity/assets"
	"github.com/mecanim/mecanim/unity/serialized"
)

type corpusTexture struct {
	name string
	f    *assets.File
	o    *serialized.Object
}

// corpusTextures opens every Unity file of the corpus and lists its
// Texture2D objects.
func corpusTextures(tb testing.TB) []corpusTexture {
	tb.Helper()
	dir := corpustest.Dir(tb)
	var out []corpusTexture
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if strings.Contains(p, "/source/") || strings.Contains(p, "/reference/") || strings.HasSuffix(p, ".resS") {
			return nil
		}
		ct, err := assets.Open(p, assets.Options{})
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		for _, f := range ct.Files {
			for i := range f.Objects {
				if f.Objects[i].ClassID == ClassTexture2D {
					out = append(out, corpusTexture{rel + "#" + f.Name, f, &f.Objects[i]})
				}
			}
		}
		return nil
	})
	return out
}

// Every Texture2D of the corpus decodes when its format is one this
// package decodes, and is refused naming its format otherwise. The
// census of formats is logged; the ones the corpus has and this package
// decodes must each decode at least once.
func TestCorpusTexturesDecodeOrNameTheirFormat(t *testing.T) {
	census := map[string]int{}
	decoded := map[Format]int{}
	noLayout := 0
	for _, ct := range corpusTextures(t) {
		v, err := ct.f.Decode(ct.o)
		if err != nil {
			// Stripped files (the WebGL build) have no layout for
			// Texture2D: not this package's to read.
			if strings.Contains(err.Error(), "no built-in layout") {
				noLayout++
				continue
			}
			t.Errorf("%s: %d: %v", ct.name, ct.o.PathID, err)
			continue
		}
		h, err := ReadHeader(v)
		if err != nil {
			t.Errorf("%s: %v", ct.name, err)
			continue
		}
		census[h.Format.String()]++
		tex, err := FromFile(ct.f, ct.o)
		var ue *UnsupportedError
		switch {
		case h.Width == 0 || h.Height == 0:
			// Font textures Unity fills at run time are stored empty.
			if !errors.Is(err, ErrMalformed) {
				t.Errorf("%s: %q: empty texture: err %v", ct.name, h.Name, err)
			}
		case h.Format.Supported():
			if err != nil {
				t.Errorf("%s: %q: %v", ct.name, h.Name, err)
				continue
			}
			if b := tex.Image.Bounds(); b.Dx() != h.Width || b.Dy() != h.Height || tex.Name != h.Name {
				t.Errorf("%s: %q: image %v", ct.name, h.Name, b)
			}
			decoded[h.Format]++
		case errors.As(err, &ue):
			if ue.Format != h.Format || !strings.Contains(err.Error(), h.Format.String()) {
				t.Errorf("%s: %q: err %v names the wrong format", ct.name, h.Name, err)
			}
		default:
			t.Errorf("%s: %q: format %v: err %v, want an UnsupportedError", ct.name, h.Name, h.Format, err)
		}
	}
	var names []string
	for n, c := range census {
		names = append(names, n+"×"+strconv.Itoa(c))
	}
	sort.Strings(names)
	t.Logf("corpus Texture2D formats: %s; %d in a stripped file without a layout", strings.Join(names, ", "), noLayout)
	for _, f := range []Format{Alpha8, RGBA32, DXT1, DXT5, BC7, ASTC_4x4, ASTC_6x6} {
		if decoded[f] == 0 {
			t.Errorf("no %v texture decoded", f)
		}
	}
}

// A few pixels of corpus textures equal what Pillow (Debian's
// python3-pil 9.4, an independent decoder) or, for ASTC, Mesa makes of the
// same mip-0 bytes.
// x and y count from the first stored row (Unity's bottom row, Pillow's
// top one): the pixel is at image row height−1−y here.
func TestCorpusPixelsMatchAnIndependentDecoder(t *testing.T) {
	dir := corpustest.Dir(t)
	for _, c := range []struct {
		file, name string
		format     Format
		x, y       int
		want       [4]uint8
	}{
		{"lethal-emotes/scavbody", "PlayerLevelStickers", BC7, 165, 154, [4]uint8{194, 198, 137, 255}},
		{"lethal-emotes/scavbody", "PlayerLevelStickers", BC7, 37, 96, [4]uint8{140, 97, 65, 254}},
		{"lethal-emotes/scavbody", "PlayerLevelStickers", BC7, 44, 444, [4]uint8{189, 189, 189, 255}},
		{"lethal-emotes/scavbody", "LethalConfigIcon", DXT1, 214, 35, [4]uint8{21, 87, 209, 255}},
		{"lethal-emotes/scavbody", "LethalConfigIcon", DXT1, 123, 46, [4]uint8{195, 195, 198, 255}},
		{"lethal-emotes/scavbody", "4bc26fa4e8502d862c99fb614af57adc", DXT5, 139, 312, [4]uint8{126, 101, 33, 255}},
		{"lethal-emotes/scavbody", "4bc26fa4e8502d862c99fb614af57adc", DXT5, 255, 272, [4]uint8{8, 60, 98, 255}},
		{"jotunn/kitbash", "piece_odin_statue", RGBA32, 24, 46, [4]uint8{30, 35, 41, 202}},
		{"jotunn/kitbash", "piece_odin_statue", RGBA32, 20, 33, [4]uint8{70, 82, 97, 29}},
		{"lethal-emotes/customemotespackage", "LiberationSans SDF Atlas", Alpha8, 835, 6, [4]uint8{0, 0, 0, 83}},
		// ASTC pixels as Mesa's llvmpipe decodes them (testdata/reference/gldec.c).
		{"sekai/ladies_s_31_0001", "tex_bdy_MIK_05_H", ASTC_4x4, 900, 700, [4]uint8{0, 0, 113, 26}},
		{"sekai/ladies_s_31_0001", "tex_bdy_MIK_05_H", ASTC_4x4, 517, 33, [4]uint8{0, 0, 94, 0}},
		{"sekai/ladies_s_31_0001", "tex_bdy_MIK_05_C", ASTC_6x6, 100, 200, [4]uint8{254, 246, 236, 255}},
		{"sekai/ladies_s_31_0001", "tex_bdy_MIK_05_C", ASTC_6x6, 517, 33, [4]uint8{172, 178, 184, 255}},
		{"sekai/ladies_s_31_0001", "tex_bdy_MIK_05_C", ASTC_6x6, 900, 700, [4]uint8{44, 44, 44, 255}},
	} {
		ct, err := assets.Open(filepath.Join(dir, filepath.FromSlash(c.file)), assets.Options{})
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, f := range ct.Files {
			for _, o := range f.Find(c.name, ClassTexture2D) {
				tex, err := FromFile(f, o)
				if err != nil {
					continue // the atlas also has an empty twin
				}
				found = true
				v, _ := f.Decode(o)
				if h, _ := ReadHeader(v); h.Format != c.format {
					t.Errorf("%s: format %v, want %v", c.name, h.Format, c.format)
				}
				got := at(tex.Image, c.x, tex.Image.Bounds().Dy()-1-c.y)
				tol := 0
				if c.format == DXT1 || c.format == DXT5 {
					tol = 1 // Pillow truncates the thirds and sevenths
				}
				for k := range 4 {
					if d := int(got[k]) - int(c.want[k]); d > tol || d < -tol {
						t.Errorf("%s (%v) pixel (%d, %d): %v, Pillow %v", c.name, c.format, c.x, c.y, got, c.want)
						break
					}
				}
			}
		}
		ct.Close()
		if !found {
			t.Errorf("%s: %q not found", c.file, c.name)
		}
	}
}

// lookupCorpus reports whether the corpus is present, without skipping.
func lookupCorpus() (string, bool) { return corpustest.Lookup() }
