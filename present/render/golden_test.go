package render

import (
	"bytes"
	"flag"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/mecanim/mecanim/bind"
	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/internal/corpustest"
)

var update = flag.Bool("update", false, "rewrite the golden images in testdata/golden")

// helloBundle is the project's own example bundle (go generate ./examples).
const helloBundle = "../../examples/hello.bundle"

// loadClip opens files and binds the named clip to what on names (or to
// the character the binding chooses).
func loadClip(tb testing.TB, files []string, clip string, on bind.On) *bound.Motion {
	tb.Helper()
	set, err := bind.Open(tb.Context(), files, bind.Options{})
	if err != nil {
		tb.Fatalf("open %v: %v", files, err)
	}
	tb.Cleanup(func() { set.Close() })
	i, err := set.FindClip(clip)
	if err != nil {
		tb.Fatal(err)
	}
	ch, err := set.CharacterFor(tb.Context(), on, i)
	if err != nil {
		tb.Fatal(err)
	}
	m, err := set.Motion(tb.Context(), i, ch)
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

// pixelDiff counts the pixels where any channel differs by more than tol.
func pixelDiff(a, b *image.RGBA, tol int) int {
	if a.Bounds() != b.Bounds() {
		return a.Bounds().Dx() * a.Bounds().Dy()
	}
	n := 0
	for i := 0; i < len(a.Pix); i += 4 {
		for k := 0; k < 4; k++ {
			d := int(a.Pix[i+k]) - int(b.Pix[i+k])
			if d > tol || d < -tol {
				n++
				break
			}
		}
	}
	return n
}

func toRGBA(img image.Image) *image.RGBA {
	if r, ok := img.(*image.RGBA); ok {
		return r
	}
	b := img.Bounds()
	r := image.NewRGBA(b)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r.Set(x, y, img.At(x, y))
		}
	}
	return r
}

// Golden comparison tolerance: a channel may differ by goldenTol (anti-aliased
// edges move with the last bits of float arithmetic), and at most
// goldenPixels pixels may differ by more. A wrong pose moves whole bones:
// thousands of pixels (TestGoldenDetectsAWrongPose).
const (
	goldenTol    = 48
	goldenPixels = 40
)

// checkGolden compares img with testdata/golden/name, or rewrites it with
// -update.
func checkGolden(t *testing.T, name string, img *image.RGBA) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		var buf bytes.Buffer
		if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&buf, img); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s", path)
		return
	}
	want := readPNG(t, path)
	if n := pixelDiff(img, want, goldenTol); n > goldenPixels {
		got := filepath.Join(t.TempDir(), name)
		var buf bytes.Buffer
		png.Encode(&buf, img)
		os.WriteFile(got, buf.Bytes(), 0o644)
		t.Errorf("%s: %d pixels differ (at most %d allowed); got %s %v, want %v (run with -update if the change is intended)",
			name, n, goldenPixels, got, img.Bounds(), want.Bounds())
	}
}

func readPNG(t *testing.T, path string) *image.RGBA {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("%v (run go test ./present/render -update to create it)", err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return toRGBA(img)
}

// goldenSheets are the sheets compared with committed pictures.
type goldenSheet struct {
	name   string
	corpus bool
	files  []string // relative to the corpus when corpus is set
	clip   string
	on     bind.On
	sheet  Options
}

var goldenSheets = []goldenSheet{
	{name: "hello-wave.png", files: []string{helloBundle}, clip: "Wave",
		sheet: Options{Frames: 4, Views: []View{Front, Right}, Cell: 192}},
	{name: "enemy-walkcycle.png", corpus: true, files: []string{"lc-example-enemy/modassets"}, clip: "walkCycle",
		sheet: Options{Frames: 4, Views: []View{Front, Top}, Cell: 192}},
	{name: "bandit-dab.png", corpus: true, files: []string{"lethal-emotes/customemotespackage"}, clip: "Dab",
		on: bind.On{Avatar: "bandit1Avatar"}, sheet: Options{Frames: 4, Views: []View{Front, Right}, Cell: 192}},
}

func (g goldenSheet) load(t *testing.T) *bound.Motion {
	files := g.files
	if g.corpus {
		files = nil
		for _, f := range g.files {
			files = append(files, corpustest.Path(t, f))
		}
	}
	return loadClip(t, files, g.clip, g.on)
}

func TestSheetsMatchGoldenImages(t *testing.T) {
	for _, g := range goldenSheets {
		t.Run(g.name, func(t *testing.T) {
			img, err := Sheet(FromMotion(g.load(t)), g.sheet)
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, g.name, img)
		})
	}
}

func TestPlotMatchesGoldenImage(t *testing.T) {
	p := loadClip(t, []string{corpustest.Path(t, "lethal-emotes/customemotespackage")}, "Dab", bind.On{Avatar: "bandit1Avatar"})
	sel, err := SelectCurves(p.Clip(), []string{"Left Arm Down-Up", "Right Arm Down-Up", "RootT.y"})
	if err != nil {
		t.Fatal(err)
	}
	img, err := Plot(p.Clip(), sel, PlotOptions{Width: 640, Height: 320})
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "bandit-dab-curves.png", img)
}

// TestGoldenDetectsAWrongPose proves the tolerance is tight enough: the
// same sheets drawn a little later in each clip (every pose moved on by a
// tenth of the clip), or with one joint's pose wrong, differ from the golden
// pictures by far more than the tolerance.
func TestGoldenDetectsAWrongPose(t *testing.T) {
	if *update {
		t.Skip("updating")
	}
	for _, g := range goldenSheets {
		t.Run(g.name, func(t *testing.T) {
			want := readPNG(t, filepath.Join("testdata", "golden", g.name))
			c := FromMotion(g.load(t))
			pose, shift := c.Pose, c.Duration/10
			c.Pose = func(tm float32, dst []geom.Transform) { pose(tm+shift, dst) }
			img, err := Sheet(c, g.sheet)
			if err != nil {
				t.Fatal(err)
			}
			n := pixelDiff(img, want, goldenTol)
			t.Logf("a tenth of the clip later: %d pixels differ", n)
			if n < 10*goldenPixels {
				t.Errorf("drawing a tenth of the clip later changed only %d pixels", n)
			}
		})
	}
}
