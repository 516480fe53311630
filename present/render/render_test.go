package render

import (
	"image"
	"image/color"
	"math"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/bind"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
)

func TestParseViewsAcceptsNamesAndRejectsOthers(t *testing.T) {
	cases := []struct {
		in      string
		want    []View
		wantErr bool
	}{
		{"front", []View{Front}, false},
		{"front,side,top", []View{Front, Side, Top}, false},
		{" Back , SIDE ", []View{Back, Side}, false},
		{"front,,top", []View{Front, Top}, false},
		{"", nil, true},
		{"front,diagonal", nil, true},
	}
	for _, c := range cases {
		got, err := ParseViews(c.in)
		if (err != nil) != c.wantErr {
			t.Errorf("%q: error %v, want error %v", c.in, err, c.wantErr)
			continue
		}
		if len(got) != len(c.want) {
			t.Errorf("%q: %v want %v", c.in, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%q: %v want %v", c.in, got, c.want)
			}
		}
	}
	for _, v := range []View{Front, Back, Side, Top} {
		if got, err := ParseViews(v.String()); err != nil || got[0] != v {
			t.Errorf("%v does not parse back: %v %v", v, got, err)
		}
	}
}

func TestProjectFollowsTheDocumentedAxes(t *testing.T) {
	p := geom.V3(1, 2, 3)
	cases := []struct {
		v       View
		x, y, d float64
	}{
		{Front, 1, 2, 3},  // along +z: x right, y up, z away
		{Back, -1, 2, -3}, // along -z
		{Side, 3, 2, -1},  // along -x: z right, y up
		{Top, 1, 3, -2},   // along -y: x right, z up
	}
	for _, c := range cases {
		x, y, d := c.v.Project(p)
		if x != c.x || y != c.y || d != c.d {
			t.Errorf("%v: (%g, %g, %g) want (%g, %g, %g)", c.v, x, y, d, c.x, c.y, c.d)
		}
	}
}

func TestTimesSpreadEvenlyOverTheClip(t *testing.T) {
	cases := []struct {
		name string
		d    float32
		n    int
		loop bool
		want []float32
	}{
		{"a clip that ends draws its end", 1, 5, false, []float32{0, 0.25, 0.5, 0.75, 1}},
		{"a loop leaves out its end (it is its start)", 1, 4, true, []float32{0, 0.25, 0.5, 0.75}},
		{"one frame is the start", 2, 1, false, []float32{0}},
		{"an empty clip is all at 0", 0, 3, false, []float32{0, 0, 0}},
	}
	for _, c := range cases {
		got := Times(c.d, c.n, c.loop)
		if len(got) != len(c.want) {
			t.Fatalf("%s: %v want %v", c.name, got, c.want)
		}
		for i := range got {
			if math.Abs(float64(got[i]-c.want[i])) > 1e-6 {
				t.Errorf("%s: %v want %v", c.name, got, c.want)
				break
			}
		}
	}
}

func TestSideReadsLeftAndRightFromJointNames(t *testing.T) {
	cases := map[string]int{
		"Armature/ROOT/base/stomach/chest/clavicle.l":        -1,
		"Armature/ROOT/base/stomach/chest/clavicle.r/hand.r": 1,
		"mixamorig:LeftArm":        -1,
		"Hips/Spine/RightShoulder": 1,
		"Hips/L_Thigh":             -1,
		"Hips/thigh_R":             1,
		"leg-center.L.002":         -1,
		"Armature/Hips/Spine":      0,
		"leg-armature/Bone.002":    0,
		"finger4.3.l_end":          -1,
		"Hips/Leg":                 0, // "Leg" is not "L"
		"Root/Rear":                0,
		"Armature/ROOT/base/stomach/chest/head/hat/Hair.left": -1,
	}
	for path, want := range cases {
		if got := JointSide(path); got != want {
			t.Errorf("JointSide(%q) = %d, want %d", path, got, want)
		}
	}
}

func TestTipMarkersAreRecognised(t *testing.T) {
	for path, want := range map[string]bool{
		"a/finger4.3.l_end": true,
		"a/HeadTop_End":     true,
		"a/b.head_end":      true,
		"a/Bone.end":        true,
		"a/Hand":            false,
		"a/Legend":          false,
		"a/Friend":          false,
	} {
		if got := tipMarker(path); got != want {
			t.Errorf("tipMarker(%q) = %v, want %v", path, got, want)
		}
	}
}

// moving is a synthetic clip: joint 1 slides along +x from 0 to 1 over the
// clip at height 1, with a child 0.5 above it.
func moving() *Clip {
	return &Clip{
		Name: "slide", On: "test", Paths: []string{"", "Body", "Body/Top"}, Parents: []int{-1, 0, 1},
		Duration: 1, Root: 1,
		Pose: func(t float32, dst []geom.Transform) {
			dst[0] = geom.Identity
			dst[1] = geom.Identity
			dst[1].T = geom.V3(t, 1, 0)
			dst[2] = geom.Identity
			dst[2].T = geom.V3(t, 1.5, 0)
		},
	}
}

func TestSheetValidatesOptionsAndSkeletons(t *testing.T) {
	bad := []struct {
		name string
		clip func() *Clip
		opts Options
	}{
		{"too many frames", moving, Options{Frames: MaxFrames + 1}},
		{"negative frames", moving, Options{Frames: -1}},
		{"cell too small", moving, Options{Cell: 10}},
		{"cell too large", moving, Options{Cell: 5000}},
		{"unknown view", moving, Options{Views: []View{View(9)}}},
		{"no skeleton", func() *Clip { c := moving(); c.Parents, c.Paths = nil, nil; return c }, Options{}},
		{"paths and parents disagree", func() *Clip { c := moving(); c.Paths = c.Paths[:2]; return c }, Options{}},
		{"parent after child", func() *Clip { c := moving(); c.Parents = []int{-1, 2, 0}; return c }, Options{}},
		{"a self parent", func() *Clip { c := moving(); c.Parents = []int{-1, 1, 1}; return c }, Options{}},
		{"too many pixels", moving, Options{Frames: 256, Columns: 1, Cell: 1024}},
	}
	for _, c := range bad {
		if _, err := Sheet(c.clip(), c.opts); err == nil {
			t.Errorf("%s: no error", c.name)
		}
	}
}

func TestSheetLaysFramesOutInRowsPerView(t *testing.T) {
	img, err := Sheet(moving(), Options{Frames: 10, Columns: 4, Cell: 100, Views: []View{Front, Top}})
	if err != nil {
		t.Fatal(err)
	}
	// 4 columns; 3 rows per view, 2 views
	wantW := 2*margin + 4*100 + 3*gap
	wantH := headerH + 6*100 + 5*gap + margin
	if b := img.Bounds(); b.Dx() != wantW || b.Dy() != wantH {
		t.Errorf("size %v, want %dx%d", b, wantW, wantH)
	}
}

// inkCentroidX returns the mean x of the grey ink in r (weighted by how
// dark it is; coloured pixels such as the orange root path are left out),
// or NaN if there is none.
func inkCentroidX(img *image.RGBA, r image.Rectangle) float64 {
	sum, n := 0.0, 0.0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			p := img.RGBAAt(x, y)
			if absDiff(p.R, p.G) > 12 || p.R > 200 {
				continue
			}
			w := float64(255 - p.R)
			sum += w * float64(x)
			n += w
		}
	}
	if n == 0 {
		return math.NaN()
	}
	return sum / n
}

func absDiff(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}

func TestSheetCellsShareOneFramingSoMotionShows(t *testing.T) {
	const cell = 200
	c := moving()
	img, err := Sheet(c, Options{Frames: 5, Cell: cell})
	if err != nil {
		t.Fatal(err)
	}
	// the bone Body->Top is drawn in the centre colour; its x in each cell
	// must advance by the same step (same scale, same offset)
	var xs []float64
	for i := 0; i < 5; i++ {
		x0 := margin + i*(cell+gap)
		// the upper half of the drawing: the bone, not the ground or joint 0
		r := image.Rect(x0+1, headerH+cellLabel, x0+cell-1, headerH+cell/2)
		x := inkCentroidX(img, r)
		if math.IsNaN(x) {
			t.Fatalf("cell %d: no bone drawn", i)
		}
		xs = append(xs, x-float64(x0))
	}
	t.Logf("bone x per cell: %.1f", xs)
	step := xs[1] - xs[0]
	if step < 20 {
		t.Fatalf("bone x per cell %v: it should move right", xs)
	}
	for i := 2; i < len(xs); i++ {
		if d := xs[i] - xs[i-1]; math.Abs(d-step) > 1.5 {
			t.Errorf("bone x per cell %v: uneven steps", xs)
			break
		}
	}
}

func TestSheetSurvivesNonFinitePoses(t *testing.T) {
	c := moving()
	nan := float32(math.NaN())
	c.Pose = func(t float32, dst []geom.Transform) {
		for i := range dst {
			dst[i] = geom.Identity
		}
		dst[1].T = geom.V3(nan, 1, float32(math.Inf(1)))
		dst[2].T = geom.V3(1e30, -1e30, nan)
	}
	if _, err := Sheet(c, Options{Frames: 3, Views: []View{Front, Back, Side, Top}, Cell: 64}); err != nil {
		t.Fatal(err)
	}
}

func TestDrawTextSetsExactlyTheGlyphsPixels(t *testing.T) {
	ink := color.RGBA{0, 0, 0, 255}
	for _, s := range []string{"1", "g", "Wave", "\u2603"} {
		img := image.NewRGBA(image.Rect(0, 0, 64, 16))
		end := drawText(img, 1, 1, s, 1, ink)
		want := 0
		for _, r := range s {
			g, ok := glyphs[r]
			if !ok {
				g = unknownGlyph
			}
			for _, row := range g {
				want += strings.Count(row, "#")
			}
		}
		got := 0
		for i := 3; i < len(img.Pix); i += 4 {
			if img.Pix[i] == 255 {
				got++
			}
		}
		if got != want {
			t.Errorf("%q: %d pixels set, want %d", s, got, want)
		}
		if end-1 != textWidth(s, 1)+1 {
			t.Errorf("%q: advanced to %d, width %d", s, end, textWidth(s, 1))
		}
	}
}

func TestGlyphsAreWellFormed(t *testing.T) {
	for r, g := range glyphs {
		if len(g) != glyphH && len(g) != glyphH+2 {
			t.Errorf("%q: %d rows", r, len(g))
		}
		for _, row := range g {
			if len(row) != glyphW || strings.Trim(row, "#.") != "" {
				t.Errorf("%q: row %q", r, row)
			}
		}
	}
	for r := '!'; r <= '~'; r++ {
		if _, ok := glyphs[r]; !ok {
			t.Errorf("printable ASCII %q has no glyph", r)
		}
	}
}

func TestFitTextShortensToTheWidth(t *testing.T) {
	if got := fitText("short", 1, 100); got != "short" {
		t.Errorf("fitting text was changed: %q", got)
	}
	got := fitText("a rather long clip name", 2, 100)
	if textWidth(got, 2) > 100 || !strings.HasSuffix(got, "~") {
		t.Errorf("fitText gave %q (%d px)", got, textWidth(got, 2))
	}
	if got := fitText("abc", 2, 3); got != "" {
		t.Errorf("nothing fits, got %q", got)
	}
}

func constCurve(path, prop string, v float32) model.Curve {
	return model.Curve{Target: model.Target{Path: path, PathKnown: true, Property: prop}, Kind: model.CurveConstant, Value: v}
}

func TestSelectCurvesByPropertyOrPath(t *testing.T) {
	clip := &model.Clip{Name: "c", Stop: 1, Curves: []model.Curve{
		constCurve("a", "m_LocalPosition.x", 1),
		constCurve("b", "m_LocalPosition.x", 2),
		constCurve("", "Left Arm Down-Up", 3),
		constCurve("", "RootT.y", 4),
		{Target: model.Target{PathHash: 77, Property: "m_LocalScale.y"}},
	}}
	cases := []struct {
		specs   []string
		labels  []string
		wantErr string
	}{
		{[]string{"Left Arm Down-Up"}, []string{"Left Arm Down-Up"}, ""},
		{[]string{"left arm down-up", "RootT.y"}, []string{"Left Arm Down-Up", "RootT.y"}, ""},
		{[]string{"m_LocalPosition.x"}, []string{"a:m_LocalPosition.x", "b:m_LocalPosition.x"}, ""},
		{[]string{"b:m_LocalPosition.x"}, []string{"b:m_LocalPosition.x"}, ""},
		{[]string{":RootT.y"}, []string{":RootT.y"}, ""},
		{[]string{"#77:m_LocalScale.y"}, []string{"#77:m_LocalScale.y"}, ""},
		{[]string{"Position"}, nil, "did you mean \"m_LocalPosition.x\""},
		{[]string{"c:m_LocalPosition.x"}, nil, "no curve"},
		{nil, nil, "no curve named"},
	}
	for _, c := range cases {
		got, err := SelectCurves(clip, c.specs)
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("%q: error %v, want %q", c.specs, err, c.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", c.specs, err)
			continue
		}
		var labels []string
		for _, s := range got {
			labels = append(labels, s.Label)
		}
		if strings.Join(labels, "|") != strings.Join(c.labels, "|") {
			t.Errorf("%q: %q want %q", c.specs, labels, c.labels)
		}
	}
}

func TestSelectCurvesWantsAPathWhenAPropertyIsEverywhere(t *testing.T) {
	clip := &model.Clip{Name: "many"}
	for i := 0; i < maxSeries+1; i++ {
		clip.Curves = append(clip.Curves, constCurve(string(rune('a'+i)), "m_LocalRotation.x", 0))
	}
	_, err := SelectCurves(clip, []string{"m_LocalRotation.x"})
	if err == nil || !strings.Contains(err.Error(), "PATH:PROPERTY") {
		t.Errorf("error %v", err)
	}
}

func TestSplitCurveList(t *testing.T) {
	got := SplitCurveList(" Left Arm Down-Up ,, RootT.y,")
	if strings.Join(got, "|") != "Left Arm Down-Up|RootT.y" {
		t.Errorf("%q", got)
	}
}

func TestTicksAreNiceAndInside(t *testing.T) {
	cases := []struct {
		lo, hi float64
		n      int
		want   []float64
	}{
		{0, 1, 5, []float64{0, 0.2, 0.4, 0.6, 0.8, 1}},
		{-0.95, 0.95, 6, []float64{-0.5, 0, 0.5}},
		{0, 3.067, 10, []float64{0, 0.5, 1, 1.5, 2, 2.5, 3}},
		{1, 1, 5, nil},
		{math.NaN(), 1, 5, nil},
	}
	for _, c := range cases {
		got, _ := ticks(c.lo, c.hi, c.n)
		if len(got) != len(c.want) {
			t.Errorf("ticks(%g, %g): %v want %v", c.lo, c.hi, got, c.want)
			continue
		}
		for i := range got {
			if math.Abs(got[i]-c.want[i]) > 1e-9 {
				t.Errorf("ticks(%g, %g): %v want %v", c.lo, c.hi, got, c.want)
				break
			}
		}
	}
	for _, c := range []struct {
		v, step float64
		want    string
	}{
		{-1e-17, 0.1, "0.0"}, // a rounding error is zero
		{0.4, 0.2, "0.4"},
		{0.15, 0.05, "0.15"},
		{2, 0.5, "2.0"},
		{20, 10, "20"},
		{-0.5, 0.5, "-0.5"},
	} {
		if got := tickLabel(c.v, c.step); got != c.want {
			t.Errorf("tickLabel(%g, %g) = %q, want %q", c.v, c.step, got, c.want)
		}
	}
}

func TestPlotValidatesItsInput(t *testing.T) {
	clip := &model.Clip{Name: "c", Stop: 1, Curves: []model.Curve{constCurve("", "RootT.y", 1)}}
	sel, err := SelectCurves(clip, []string{"RootT.y"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Plot(clip, sel, PlotOptions{Width: 100, Height: 100}); err == nil {
		t.Error("a 100x100 plot was drawn")
	}
	if _, err := Plot(clip, nil, PlotOptions{}); err == nil {
		t.Error("a plot of nothing was drawn")
	}
	img, err := Plot(clip, sel, PlotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 960 || b.Dy() != 480 {
		t.Errorf("default size %v", b)
	}
}

func TestClipSpanFallsBackToTheLastKey(t *testing.T) {
	legacy := &model.Clip{Legacy: true, Curves: []model.Curve{{Kind: model.CurveKeyframed, Keys: []model.Keyframe{{Time: 0}, {Time: 2.5}}}}}
	if got := clipSpan(legacy); got != 2.5 {
		t.Errorf("legacy span %g", got)
	}
	if got := clipSpan(&model.Clip{}); got != 1 {
		t.Errorf("empty span %g", got)
	}
	if got := clipSpan(&model.Clip{Start: 1, Stop: 3}); got != 2 {
		t.Errorf("span %g", got)
	}
}

func BenchmarkSheetHelloWave(b *testing.B) {
	p := loadClip(b, []string{helloBundle}, "Wave", bind.On{})
	c := FromMotion(p)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Sheet(c, Options{Frames: 8, Views: []View{Front, Side}}); err != nil {
			b.Fatal(err)
		}
	}
}

func TestAxesShowARotationThatMovesNothing(t *testing.T) {
	spin := &Clip{
		Name: "spin", Paths: []string{"", "pivot"}, Parents: []int{-1, 0}, Duration: 1, Root: -1,
		Pose: func(tm float32, dst []geom.Transform) {
			dst[0] = geom.Identity
			dst[1] = geom.Identity
			dst[1].R = geom.AxisAngle(geom.V3(0, 1, 0), tm*math.Pi/2)
		},
	}
	const cell = 128
	cellDiff := func(img *image.RGBA) int {
		// pixels below the labels that differ between the first and last cell
		n := 0
		for y := headerH + cellLabel; y < headerH+cell; y++ {
			for x := 0; x < cell; x++ {
				a := img.RGBAAt(margin+x, y)
				b := img.RGBAAt(margin+(cell+gap)+x, y)
				if a != b {
					n++
				}
			}
		}
		return n
	}
	for _, axes := range []bool{false, true} {
		img, err := Sheet(spin, Options{Frames: 2, Views: []View{Top}, Cell: cell, Axes: axes})
		if err != nil {
			t.Fatal(err)
		}
		n := cellDiff(img)
		if axes && n < 20 {
			t.Errorf("with axes a quarter turn changed %d pixels", n)
		}
		if !axes && n != 0 {
			t.Errorf("without axes a rotation in place changed %d pixels", n)
		}
	}
}
