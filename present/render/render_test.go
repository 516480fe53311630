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
		{"front,side,top", []View{Front, Right, Top}, false},
		{" Back , SIDE ,Left", []View{Back, Right, Left}, false},
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
	for _, v := range []View{Front, Back, Left, Right, Top} {
		if got, err := ParseViews(v.String()); err != nil || got[0] != v {
			t.Errorf("%v does not parse back: %v %v", v, got, err)
		}
	}
}

// Each view shows what it is named for on a character facing +z, as Unity
// characters do: front its face (the nose nearer than the back of the
// head, its right hand on the left of the picture, as a person facing
// you), back its back, left and right its sides (the near hand on that
// side, the face towards the picture's left or right), top from above
// (facing up the picture). No view is a mirror image.
func TestViewsShowWhatTheyAreNamedFor(t *testing.T) {
	nose, nape := geom.V3(0, 1.6, 0.1), geom.V3(0, 1.6, -0.1)
	left, right := geom.V3(-0.5, 1, 0), geom.V3(0.5, 1, 0)
	head := geom.V3(0, 1.7, 0)
	type got struct{ x, y, depth float64 }
	at := func(v View, p geom.Vec3) got { x, y, d := v.Project(p); return got{x, y, d} }
	for _, c := range []struct {
		v                       View
		near, far               geom.Vec3 // near is nearer to the viewer
		screenLeft, screenRight geom.Vec3 // in the picture
	}{
		{Front, nose, nape, right, left},
		{Back, nape, nose, left, right},
		{Left, left, right, nose, nape},
		{Right, right, left, nape, nose},
		{Top, head, nose, left, right},
	} {
		if at(c.v, c.near).depth >= at(c.v, c.far).depth {
			t.Errorf("%v: %v is not nearer than %v", c.v, c.near, c.far)
		}
		if at(c.v, c.screenLeft).x >= at(c.v, c.screenRight).x {
			t.Errorf("%v: %v is not left of %v in the picture", c.v, c.screenLeft, c.screenRight)
		}
		if c.v != Top && at(c.v, head).y <= at(c.v, left).y {
			t.Errorf("%v: the head is not above the hands", c.v)
		}
	}
	if at(Top, nose).y <= at(Top, nape).y {
		t.Errorf("top: the character does not face up the picture")
	}
	// Not mirrored: the model-space directions that land on screen right,
	// up and away make a left-handed frame, as Unity's x, y, z do (x = y ×
	// z by the cross product's formula).
	for _, v := range []View{Front, Back, Left, Right, Top} {
		var r, u, f geom.Vec3
		for _, p := range []geom.Vec3{geom.V3(1, 0, 0), geom.V3(0, 1, 0), geom.V3(0, 0, 1)} {
			x, y, d := v.Project(p)
			r = r.Add(p.Scale(float32(x)))
			u = u.Add(p.Scale(float32(y)))
			f = f.Add(p.Scale(float32(d)))
		}
		if c := u.Cross(f); c.Sub(r).Len() > 1e-6 {
			t.Errorf("%v is mirrored: right %v, up %v, away %v", v, r, u, f)
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
	// seen from behind, where +x (the way it moves) is screen right
	img, err := Sheet(c, Options{Frames: 5, Cell: cell, Views: []View{Back}})
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
	if _, err := Sheet(c, Options{Frames: 3, Views: []View{Front, Back, Left, Right, Top}, Cell: 64}); err != nil {
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

// Every curve can be plotted by the name listings give it (CurveName):
// a path no name table names (#hash), a property known only by its
// attribute (#attribute), both, the root, a name holding the separator.
func TestSelectCurvesTakesEveryCurveByItsName(t *testing.T) {
	clip := &model.Clip{Name: "c", Stop: 1, Curves: []model.Curve{
		constCurve("a", "m_LocalPosition.x", 1),
		{Target: model.Target{PathHash: 1331491074, Attribute: 789985262}, Kind: model.CurveConstant, Value: 2},
		{Target: model.Target{PathHash: 1331491074, Property: "m_LocalScale.y"}, Kind: model.CurveConstant, Value: 3},
		{Target: model.Target{Path: "b", PathKnown: true, Attribute: 42}, Kind: model.CurveConstant, Value: 4},
		constCurve("", "RootT.y", 5),
		constCurve("odd:path", "x", 6),
	}}
	for i := range clip.Curves {
		name := CurveName(&clip.Curves[i].Target)
		got, err := SelectCurves(clip, []string{name})
		if err != nil || len(got) != 1 || got[0].Curve != &clip.Curves[i] {
			t.Errorf("curve %d named %q: %v, %v", i, name, got, err)
		}
	}
	if got := CurveName(&clip.Curves[1].Target); got != "#1331491074:#789985262" {
		t.Errorf("an unnamed path and property: %q", got)
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
		if _, err := Sheet(c, Options{Frames: 8, Views: []View{Front, Right}}); err != nil {
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

// The labels of a cell never touch: the time (colText) ends at least a
// few pixels before the view's name (colSubtle) starts, and both lie
// inside the cell, at every cell size from the smallest, for short and
// long clips. Read from the pixels drawn.
func TestCellLabelsNeverOverlap(t *testing.T) {
	const inset = 5 // the labels' distance from the cell's top corners
	for _, dur := range []float32{0.8, 12.345, 1234.5} {
		for _, cell := range []int{64, 72, 96, 128, 256} {
			c := &Clip{Name: "c", Paths: []string{"", "a"}, Parents: []int{-1, 0}, Duration: dur, Root: -1,
				Pose: func(tm float32, dst []geom.Transform) {
					for i := range dst {
						dst[i] = geom.Transform{T: geom.V3(0, float32(i), 0), R: geom.Quat{W: 1}, S: geom.V3(1, 1, 1)}
					}
				}}
			views := []View{Front, Right, Top}
			img, err := Sheet(c, Options{Frames: 3, Views: views, Cell: cell})
			if err != nil {
				t.Fatal(err)
			}
			for row := range views {
				for col := 0; col < 3; col++ {
					x0, y0 := margin+col*(cell+gap), headerH+row*(cell+gap)
					lastText, firstView := -1, 1<<30
					for y := y0 + inset; y < y0+inset+14; y++ {
						for x := x0; x < x0+cell; x++ {
							switch img.RGBAAt(x, y) {
							case colText:
								lastText = max(lastText, x)
								if x > x0+cell-inset {
									t.Errorf("%gs, cell %d: the time label runs out of its cell", dur, cell)
								}
							case colSubtle:
								firstView = min(firstView, x)
							}
						}
					}
					if lastText < 0 {
						t.Errorf("%gs, cell %d: no time label", dur, cell)
					}
					if firstView < 1<<30 && firstView-lastText < 3 {
						t.Errorf("%gs, cell %d, %v: the time label (to x %d) runs into the view's name (from x %d)", dur, cell, views[row], lastText-x0, firstView-x0)
					}
				}
			}
		}
	}
}
