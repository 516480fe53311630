// Package render draws pictures of clips: a contact sheet of a rig's
// skeleton posed at evenly spaced times of a clip (Sheet), and a plot of
// chosen curves over the clip (Plot). It is pure Go (image, image/png) with
// its own anti-aliased rasteriser and bitmap font, so pictures come out the
// same on every machine, without a GPU.
//
// # Views
//
// Positions are Unity's model space: left-handed, y up, x right, z forward
// (a character faces +z). The views are orthographic:
//
//   - front: looks along +z (screen right = +x, up = +y). A character facing
//     +z is seen from behind, its left side on the left of the picture.
//   - back: looks along -z (screen right = -x, up = +y): the character's face.
//   - side: looks along -x from the +x side (screen right = +z, up = +y): a
//     character facing +z faces right and walks to the right.
//   - top: looks along -y from above (screen right = +x, up = +z): the ground
//     plane, forward up the picture.
//
// # What is drawn
//
// Each joint is a dot and each bone a line from a joint to its parent,
// coloured by side from the joint's name (left blue, right red, others
// dark grey; "Left", ".L", "_l"... are recognised). No line is drawn from
// joint 0 — the GameObject that carries the Animator and places the
// character, marked by a small black cross — nor along the chain from it
// down to the clip's root joint (the hips of a humanoid; for a generic clip
// the joint anim.Clip.RootJoint names): those are armature objects, often
// far from the body, and strokes to them would read as bones that are not
// there. Joints marked as helpers (for a humanoid clip, every joint that is
// neither a human bone, nor between two human bones, nor hanging below a
// human bone that ends a chain — IK targets and poles, weapon sockets) are
// thin light lines without dots. A leaf joint (no children, and not a
// "..._end" tip marker) gets a thin stub a third of its bone's length that
// continues its bone as the joint rotates it, so a rotation of the last
// joint of a chain shows. A faint line marks the ground (y = 0) in the
// front, back and side views. The root joint's path over the whole clip is
// traced in orange in every cell, with a dot where the root is at that
// cell's time.
//
// With Options.Axes each joint also gets its local axes (x red, y green, z
// blue), so rotations show where bones have no length. The title line names
// the clip and carries a colour legend; the next line says what the clip
// plays on, its length, the frames and the views; each cell is labelled
// with its time and view.
//
// # Framing
//
// Framing is automatic: the bounding box of every joint (helpers left out)
// over every drawn frame, plus the root path, fitted into the cell. All
// cells of a view share one scale and offset, so motion between cells is
// comparable (a walk that moves forward moves across the cells); each view
// has its own. Views are bands of rows, top to bottom; a view's frames run
// left to right and wrap after Options.Columns cells.
package render

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"math"
	"strconv"
	"strings"

	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/geom"
)

// View is a direction the skeleton is looked at from (see the package doc).
type View int

// The views.
const (
	Front View = iota
	Back
	Side
	Top
)

var viewNames = [...]string{Front: "front", Back: "back", Side: "side", Top: "top"}

// String returns the view's name as ParseViews accepts it.
func (v View) String() string {
	if v >= 0 && int(v) < len(viewNames) {
		return viewNames[v]
	}
	return "view(" + strconv.Itoa(int(v)) + ")"
}

// ParseViews parses a comma-separated list of view names
// ("front,side,top").
func ParseViews(s string) ([]View, error) {
	var vs []View
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(strings.ToLower(f))
		if f == "" {
			continue
		}
		found := false
		for i, n := range viewNames {
			if n == f {
				vs = append(vs, View(i))
				found = true
				break
			}
		}
		if !found {
			return nil, fmt.Errorf("unknown view %q (want %s)", f, strings.Join(viewNames[:], ", "))
		}
	}
	if len(vs) == 0 {
		return nil, errors.New("no view given")
	}
	return vs, nil
}

// Project maps a model-space point to the view's screen plane: x to the
// right, y up, and depth away from the viewer.
func (v View) Project(p geom.Vec3) (x, y, depth float64) {
	px, py, pz := float64(p.X), float64(p.Y), float64(p.Z)
	switch v {
	case Back:
		return -px, py, -pz
	case Side:
		return pz, py, -px
	case Top:
		return px, pz, -py
	default:
		return px, py, pz
	}
}

// Clip is what a sheet draws: a skeleton and a way to pose it.
type Clip struct {
	// Name is the clip's name; On what it plays on ("avatar X"); both are
	// printed in the sheet's title.
	Name, On string
	// Paths and Parents describe the skeleton (parents before children).
	Paths   []string
	Parents []int
	// Duration is the clip's length in seconds; Loop whether it loops (a
	// looping clip's sheet leaves out the end, which repeats the start).
	Duration float32
	Loop     bool
	// Root is the joint whose path over the clip is traced (-1: none).
	Root int
	// Helper marks joints drawn faintly (nil: none); see the package doc.
	Helper []bool
	// Pose writes the joints' model-space transforms at clip time t into
	// dst (len(Parents) long).
	Pose func(t float32, dst []geom.Transform)
}

// FromMotion describes a clip bound to a character for drawing: the
// character's skeleton in model space, the joint whose path is traced (the
// hips of a humanoid, the moving root of a generic clip), and the joints
// that are not part of a humanoid body drawn faintly. The Clip it returns
// poses through a buffer of its own: use it from one goroutine at a time.
func FromMotion(m *bound.Motion) *Clip {
	ch := m.On()
	sk := ch.Skeleton()
	local := make([]geom.Transform, sk.Len())
	return &Clip{
		Name: m.Clip().Name, On: ch.Describe(),
		Paths: sk.Paths, Parents: sk.Parents,
		Duration: m.Duration(), Loop: m.Clip().Loops(), Root: m.TraceJoint(), Helper: ch.Helpers(),
		Pose: func(t float32, dst []geom.Transform) { m.Pose(t, local, dst) },
	}
}

// Options shape a contact sheet; zero values take the defaults.
type Options struct {
	// Frames is how many evenly spaced times are drawn (default 8, at most
	// MaxFrames).
	Frames int
	// Views are drawn one band each, top to bottom (default front).
	Views []View
	// Cell is the side of a cell in pixels (default 256, 64..1024).
	Cell int
	// Columns is the most cells in a row; a view's frames wrap onto more
	// rows (default 8).
	Columns int
	// Axes draws each joint's local axes (x red, y green, z blue, a fixed
	// share of the cell long, foreshortened by the view): rotations show
	// even where bones have no length.
	Axes bool
}

// Limits of a sheet.
const (
	MaxFrames = 256
	maxPixels = 64 << 20
)

// Layout constants (pixels).
const (
	margin    = 8
	gap       = 4
	headerH   = 8 + 14 + 6 + 14 + 8
	cellLabel = 22
	cellPad   = 8
)

// Colours.
var (
	colBackground = color.RGBA{255, 255, 255, 255}
	colCell       = color.RGBA{252, 252, 250, 255}
	colBorder     = color.RGBA{215, 215, 215, 255}
	colGround     = color.RGBA{200, 200, 200, 255}
	colText       = color.RGBA{25, 25, 30, 255}
	colSubtle     = color.RGBA{125, 125, 135, 255}
	colPath       = color.RGBA{240, 150, 40, 255}
	colPathTrace  = color.RGBA{240, 150, 40, 150}
	colCentre     = color.RGBA{70, 70, 82, 255}
	colLeft       = color.RGBA{40, 100, 220, 255}
	colRight      = color.RGBA{215, 50, 50, 255}
	colOrigin     = color.RGBA{0, 0, 0, 255}
	colHelper     = color.RGBA{212, 212, 220, 255}
	colAxisX      = color.RGBA{235, 60, 60, 255}
	colAxisY      = color.RGBA{40, 170, 60, 255}
	colAxisZ      = color.RGBA{50, 90, 235, 255}
)

func (o *Options) defaults() error {
	if o.Frames == 0 {
		o.Frames = 8
	}
	if o.Frames < 1 || o.Frames > MaxFrames {
		return fmt.Errorf("frames %d: want 1..%d", o.Frames, MaxFrames)
	}
	if len(o.Views) == 0 {
		o.Views = []View{Front}
	}
	for _, v := range o.Views {
		if v < 0 || int(v) >= len(viewNames) {
			return fmt.Errorf("unknown view %d", int(v))
		}
	}
	if o.Cell == 0 {
		o.Cell = 256
	}
	if o.Cell < 64 || o.Cell > 1024 {
		return fmt.Errorf("cell size %d: want 64..1024 pixels", o.Cell)
	}
	if o.Columns == 0 {
		o.Columns = 8
	}
	if o.Columns < 1 {
		return fmt.Errorf("columns %d: want at least 1", o.Columns)
	}
	return nil
}

// Times returns the n evenly spaced times a sheet draws over a clip of the
// given duration: from 0 to the end inclusive, or, for a looping clip,
// from 0 in steps of duration/n (its end is its start again).
func Times(duration float32, n int, loop bool) []float32 {
	ts := make([]float32, n)
	if n == 1 || !(duration > 0) {
		return ts
	}
	div := n - 1
	if loop {
		div = n
	}
	for i := range ts {
		ts[i] = float32(float64(duration) * float64(i) / float64(div))
	}
	return ts
}

// pathSamples is how many times the root path is sampled over a clip.
func pathSamples(duration float32) int {
	n := int(math.Ceil(float64(duration) * 60))
	if !(n >= 16) {
		n = 16
	}
	if n > 600 {
		n = 600
	}
	return n + 1
}

// frame is one posed time: joint transforms and positions in model space.
type frame struct {
	t    float32
	pos  []geom.Vec3
	stub []geom.Vec3 // where each leaf's stub ends (see stubEnd)
	rot  []geom.Quat // joint rotations (only with Options.Axes)
}

// Sheet draws the clip's contact sheet.
func Sheet(c *Clip, opts Options) (*image.RGBA, error) {
	if err := opts.defaults(); err != nil {
		return nil, err
	}
	n := len(c.Parents)
	if n == 0 || c.Pose == nil {
		return nil, errors.New("render: the clip has no skeleton to draw")
	}
	if len(c.Paths) != n {
		return nil, fmt.Errorf("render: %d paths for %d joints", len(c.Paths), n)
	}
	for i, p := range c.Parents {
		if p >= i {
			return nil, fmt.Errorf("render: joint %d's parent %d does not come before it", i, p)
		}
	}
	cols := min(opts.Frames, opts.Columns)
	rowsPerView := (opts.Frames + cols - 1) / cols
	rows := rowsPerView * len(opts.Views)
	w := 2*margin + cols*opts.Cell + (cols-1)*gap
	h := headerH + rows*opts.Cell + (rows-1)*gap + margin
	if w*h > maxPixels {
		return nil, fmt.Errorf("render: a %dx%d sheet is over %d pixels; draw fewer frames or smaller cells", w, h, maxPixels)
	}

	// pose every frame and the root path
	st := newStyle(c)
	buf := make([]geom.Transform, n)
	frames := make([]frame, opts.Frames)
	for i, t := range Times(c.Duration, opts.Frames, c.Loop) {
		c.Pose(t, buf)
		fr := frame{t: t, pos: make([]geom.Vec3, n), stub: make([]geom.Vec3, n)}
		if opts.Axes {
			fr.rot = make([]geom.Quat, n)
			for j := range fr.rot {
				fr.rot[j] = buf[j].R
			}
		}
		for j := range fr.pos {
			fr.pos[j] = buf[j].T
			if st.stub[j] {
				fr.stub[j] = stubEnd(buf, j, c.Parents[j])
			}
		}
		frames[i] = fr
	}
	st.labelScale = 2
	for _, fr := range frames {
		for _, v := range opts.Views {
			if textWidth(timeLabel(fr.t), 2)+textWidth(v.String(), 1)+16 > opts.Cell {
				st.labelScale = 1
			}
		}
	}
	var path []geom.Vec3
	if c.Root >= 0 && c.Root < n {
		m := pathSamples(c.Duration)
		path = make([]geom.Vec3, m)
		for i := range path {
			c.Pose(float32(float64(c.Duration)*float64(i)/float64(m-1)), buf)
			path[i] = buf[c.Root].T
		}
	}
	sides := make([]color.RGBA, n)
	for j := range sides {
		switch JointSide(c.Paths[j]) {
		case -1:
			sides[j] = colLeft
		case 1:
			sides[j] = colRight
		default:
			sides[j] = colCentre
		}
	}

	img := image.NewRGBA(image.Rect(0, 0, w, h))
	fillRect(img, img.Bounds(), colBackground)
	drawHeader(img, c, &opts, w)

	for vi, v := range opts.Views {
		fr := fitView(v, frames, path, st, opts.Cell)
		for fi := range frames {
			row := vi*rowsPerView + fi/cols
			col := fi % cols
			x0 := margin + col*(opts.Cell+gap)
			y0 := headerH + row*(opts.Cell+gap)
			cell := image.Rect(x0, y0, x0+opts.Cell, y0+opts.Cell)
			drawCell(img, cell, v, fr, c, &frames[fi], path, sides, st)
		}
	}
	return img, nil
}

// framing maps a view's screen plane into a cell: pixel = origin + scale *
// (x, -y), relative to the cell's top-left corner.
type framing struct {
	scale, ox, oy float64
}

func (f framing) at(cell image.Rectangle, x, y float64) (float64, float64) {
	return float64(cell.Min.X) + f.ox + f.scale*x, float64(cell.Min.Y) + f.oy - f.scale*y
}

// style is what the skeleton's structure says about drawing each joint.
type style struct {
	bone   []bool // a line is drawn from the joint to its parent
	helper []bool // drawn faintly
	stub   []bool // a leaf that gets a stub

	labelScale int // of the cells' time labels: 2, or 1 when one would not fit
}

// timeLabel is a cell's label.
func timeLabel(t float32) string { return "t=" + fmtSeconds(t) + "s" }

func newStyle(c *Clip) style {
	n := len(c.Parents)
	st := style{bone: make([]bool, n), helper: make([]bool, n), stub: make([]bool, n)}
	copy(st.helper, c.Helper)
	chain := make([]bool, n) // the root joint and its ancestors
	if c.Root >= 0 && c.Root < n {
		for j := c.Root; j >= 0; j = c.Parents[j] {
			chain[j] = true
		}
	}
	kids := make([]int, n)
	for _, p := range c.Parents {
		if p >= 0 {
			kids[p]++
		}
	}
	for j, p := range c.Parents {
		st.bone[j] = p > 0 && !chain[j]
		st.stub[j] = st.bone[j] && kids[j] == 0 && !st.helper[j] && !tipMarker(c.Paths[j])
	}
	return st
}

// tipMarker reports whether a joint is a leaf marker that only records where
// its parent bone ends ("hand.l_end", "Head_End", "finger.end").
func tipMarker(path string) bool {
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		path = path[i+1:]
	}
	if strings.HasSuffix(path, "End") {
		return true
	}
	l := strings.ToLower(path)
	for _, suf := range []string{"_end", ".end", " end", "-end"} {
		if strings.HasSuffix(l, suf) {
			return true
		}
	}
	return false
}

// stubEnd returns where a leaf joint's stub ends: its bone (from the
// parent) carried on by the joint's own rotation, a third as long.
func stubEnd(xf []geom.Transform, j, p int) geom.Vec3 {
	d := xf[j].T.Sub(xf[p].T)
	l := d.Len()
	if !(l > 0) {
		return xf[j].T
	}
	dir := xf[j].R.Rotate(xf[p].R.Conj().Rotate(d)).Normalize()
	return xf[j].T.Add(dir.Scale(l / 3))
}

// fitView frames every joint of every frame and the root path in a cell.
func fitView(v View, frames []frame, path []geom.Vec3, st style, cell int) framing {
	minX, minY := math.Inf(1), math.Inf(1)
	maxX, maxY := math.Inf(-1), math.Inf(-1)
	add := func(p geom.Vec3) {
		x, y, _ := v.Project(p)
		if !finite(x, y) {
			return
		}
		minX, maxX = math.Min(minX, x), math.Max(maxX, x)
		minY, maxY = math.Min(minY, y), math.Max(maxY, y)
	}
	body := false // frame on the body, not on helpers far from it
	for _, h := range st.helper {
		if !h {
			body = true
			break
		}
	}
	for i := range frames {
		for j, p := range frames[i].pos {
			if body && st.helper[j] {
				continue
			}
			add(p)
			if st.stub[j] {
				add(frames[i].stub[j])
			}
		}
	}
	for _, p := range path {
		add(p)
	}
	if minX > maxX { // nothing finite
		minX, maxX, minY, maxY = -1, 1, -1, 1
	}
	aw := float64(cell - 2*cellPad)
	ah := float64(cell - cellLabel - cellPad)
	ex, ey := maxX-minX, maxY-minY
	const tiny = 1e-6
	var s float64
	switch {
	case ex < tiny && ey < tiny:
		s = math.Min(aw, ah) / 2 // a point: show 2 m around it
	case ex < tiny:
		s = ah / ey
	case ey < tiny:
		s = aw / ex
	default:
		s = math.Min(aw/ex, ah/ey)
	}
	cx, cy := (minX+maxX)/2, (minY+maxY)/2
	return framing{
		scale: s,
		ox:    float64(cellPad) + aw/2 - s*cx,
		oy:    float64(cellLabel) + ah/2 + s*cy,
	}
}

// drawHeader writes the title: the clip's name, then what it plays on, its
// length, the frames and the views.
func drawHeader(img *image.RGBA, c *Clip, o *Options, w int) {
	avail := w - 2*margin
	drawText(img, margin, 8, fitText(c.Name, 2, avail), 2, colText)
	var views []string
	for _, v := range o.Views {
		views = append(views, v.String())
	}
	info := fmt.Sprintf("%s  %ss", c.On, fmtSeconds(c.Duration))
	if c.Loop {
		info += " loop"
	}
	info += fmt.Sprintf("  %d frames  %s", o.Frames, strings.Join(views, ","))
	drawText(img, margin, 8+14+6, fitText(strings.TrimSpace(info), 2, avail), 2, colSubtle)

	// legend, right-aligned on the title line when it fits
	items := []struct {
		label string
		col   color.RGBA
		dot   bool
	}{{"left", colLeft, true}, {"right", colRight, true}, {"centre", colCentre, true}, {"root path", colPath, false}}
	if c.Helper != nil {
		items = append(items, struct {
			label string
			col   color.RGBA
			dot   bool
		}{"helper", colHelper, false})
	}
	const swatch, itemGap = 14, 12
	lw := 0
	for _, it := range items {
		lw += swatch + 4 + textWidth(it.label, 1) + itemGap
	}
	lw -= itemGap
	if textWidth(c.Name, 2)+24+lw > avail {
		return
	}
	x := w - margin - lw
	cy := 8 + 7.0
	for _, it := range items {
		line(img, img.Bounds(), float64(x)+1, cy, float64(x+swatch)-1, cy, 2, it.col)
		if it.dot {
			disc(img, img.Bounds(), float64(x)+swatch/2, cy, 2, darken(it.col))
		}
		x = drawText(img, x+swatch+4, int(cy)-3, it.label, 1, colSubtle) - 1 + itemGap
	}
}

// fmtSeconds prints a time with at most three decimals, trailing zeros
// dropped.
func fmtSeconds(t float32) string {
	s := strconv.FormatFloat(float64(t), 'f', 3, 32)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(s, "0")
		s = strings.TrimSuffix(s, ".")
	}
	return s
}

// drawCell draws one frame in one view.
func drawCell(img *image.RGBA, cell image.Rectangle, v View, f framing, c *Clip, fr *frame, path []geom.Vec3, sides []color.RGBA, st style) {
	fillRect(img, cell, colCell)
	strokeRect(img, cell, colBorder)
	clip := cell.Inset(1)
	lw := math.Max(1.5, float64(cell.Dx())/128)

	// ground
	if v != Top {
		_, gy := f.at(cell, 0, 0)
		if gy > float64(clip.Min.Y+cellLabel) && gy < float64(clip.Max.Y) {
			line(img, clip, float64(clip.Min.X), gy, float64(clip.Max.X), gy, 1, colGround)
		}
	}
	// root path, and where the root is now
	for i := 1; i < len(path); i++ {
		ax, ay, _ := v.Project(path[i-1])
		bx, by, _ := v.Project(path[i])
		x0, y0 := f.at(cell, ax, ay)
		x1, y1 := f.at(cell, bx, by)
		line(img, clip, x0, y0, x1, y1, lw*0.6, colPathTrace)
	}
	if len(path) > 0 {
		x, y, _ := v.Project(fr.pos[c.Root])
		px, py := f.at(cell, x, y)
		disc(img, clip, px, py, lw*2, colPath)
	}

	// bones far to near (helpers first), then joints
	type bone struct {
		j      int
		helper bool
		depth  float64
	}
	bones := make([]bone, 0, len(c.Parents))
	for j, p := range c.Parents {
		if !st.bone[j] {
			continue
		}
		_, _, d0 := v.Project(fr.pos[j])
		_, _, d1 := v.Project(fr.pos[p])
		bones = append(bones, bone{j, st.helper[j], (d0 + d1) / 2})
	}
	sortBones(bones, func(a, b bone) bool {
		if a.helper != b.helper {
			return a.helper
		}
		return a.depth > b.depth
	})
	seg := func(a, b geom.Vec3, w float64, col color.RGBA) {
		ax, ay, _ := v.Project(a)
		bx, by, _ := v.Project(b)
		x0, y0 := f.at(cell, ax, ay)
		x1, y1 := f.at(cell, bx, by)
		line(img, clip, x0, y0, x1, y1, w, col)
	}
	for _, b := range bones {
		if b.helper {
			seg(fr.pos[b.j], fr.pos[c.Parents[b.j]], 1, colHelper)
			continue
		}
		seg(fr.pos[b.j], fr.pos[c.Parents[b.j]], lw, sides[b.j])
		if st.stub[b.j] {
			seg(fr.pos[b.j], fr.stub[b.j], lw*0.6, sides[b.j])
		}
	}
	for j := 1; j < len(fr.pos); j++ {
		if st.helper[j] {
			continue
		}
		x, y, _ := v.Project(fr.pos[j])
		px, py := f.at(cell, x, y)
		disc(img, clip, px, py, lw*0.9, darken(sides[j]))
	}
	// joint axes
	if fr.rot != nil {
		axisLen := float64(cell.Dx()) * 0.08
		axes := [3]struct {
			d   geom.Vec3
			col color.RGBA
		}{{geom.V3(1, 0, 0), colAxisX}, {geom.V3(0, 1, 0), colAxisY}, {geom.V3(0, 0, 1), colAxisZ}}
		for j := range fr.rot {
			if st.helper[j] {
				continue
			}
			x, y, _ := v.Project(fr.pos[j])
			px, py := f.at(cell, x, y)
			q := fr.rot[j].Normalize()
			for _, a := range axes {
				dx, dy, _ := v.Project(q.Rotate(a.d))
				line(img, clip, px, py, px+dx*axisLen, py-dy*axisLen, 1, a.col)
			}
		}
	}
	// joint 0: a cross
	if x, y, _ := v.Project(fr.pos[0]); finite(x, y) {
		px, py := f.at(cell, x, y)
		r := lw * 2.5
		line(img, clip, px-r, py, px+r, py, 1, colOrigin)
		line(img, clip, px, py-r, px, py+r, 1, colOrigin)
	}

	// labels
	name := v.String()
	drawText(img, cell.Min.X+5, cell.Min.Y+5, timeLabel(fr.t), st.labelScale, colText)
	drawText(img, cell.Max.X-5-textWidth(name, 1), cell.Min.Y+5, name, 1, colSubtle)
}

// sortBones sorts in place by less (insertion sort: skeletons are small and
// the order is stable).
func sortBones[T any](s []T, less func(a, b T) bool) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && less(s[j], s[j-1]); j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

func darken(c color.RGBA) color.RGBA {
	return color.RGBA{c.R * 3 / 4, c.G * 3 / 4, c.B * 3 / 4, c.A}
}

// JointSide guesses a joint's side from the last part of its path: -1
// left, +1 right, 0 neither. Names split into words at '.', '_', '-', ' '
// and lower-to-upper case changes; a word "l"/"left" is left, "r"/"right"
// right (a trailing "end" word, Blender's leaf marker, is ignored). Sheets
// colour bones by it, and the viewer colours them alike.
func JointSide(path string) int {
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		path = path[i+1:]
	}
	var words []string
	start := 0
	rs := []rune(path)
	flush := func(end int) {
		if end > start {
			words = append(words, strings.ToLower(string(rs[start:end])))
		}
	}
	for i, r := range rs {
		switch {
		case r == '.' || r == '_' || r == '-' || r == ' ' || r == ':':
			flush(i)
			start = i + 1
		case i > 0 && r >= 'A' && r <= 'Z' && rs[i-1] >= 'a' && rs[i-1] <= 'z':
			flush(i)
			start = i
		}
	}
	flush(len(rs))
	for _, w := range words {
		switch w {
		case "l", "left":
			return -1
		case "r", "right":
			return 1
		}
	}
	return 0
}
