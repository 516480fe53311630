package render

import (
	"image"
	"image/color"
	"math"

	"github.com/mecanim/mecanim/geom"
)

// The rasteriser draws anti-aliased shapes by coverage: a pixel's share of a
// shape is estimated from the distance of its centre to the shape's edge
// (1 inside, 0 a pixel or more outside, linear in between), and the colour
// is blended over what is there by that share.

// blend mixes c over the pixel (x, y) with coverage a in [0, 1], inside the
// clip rectangle.
func blend(img *image.RGBA, clip image.Rectangle, x, y int, c color.RGBA, a float64) {
	if a <= 0 || !image.Pt(x, y).In(clip) {
		return
	}
	if a > 1 {
		a = 1
	}
	a *= float64(c.A) / 255
	i := img.PixOffset(x, y)
	p := img.Pix[i : i+4 : i+4]
	mix := func(dst uint8, src uint8) uint8 {
		return uint8(float64(dst)*(1-a) + float64(src)*a + 0.5)
	}
	p[0] = mix(p[0], c.R)
	p[1] = mix(p[1], c.G)
	p[2] = mix(p[2], c.B)
	p[3] = mix(p[3], 255)
}

// finite reports whether every value is a finite number.
func finite(v ...float64) bool {
	for _, x := range v {
		if !geom.Finite64(x) {
			return false
		}
	}
	return true
}

// line draws a segment of the given width (pixels) with round caps from
// (x0, y0) to (x1, y1) in pixel coordinates (pixel centres at +0.5).
func line(img *image.RGBA, clip image.Rectangle, x0, y0, x1, y1, width float64, c color.RGBA) {
	if !finite(x0, y0, x1, y1, width) {
		return
	}
	r := width / 2
	// the box the segment covers, clamped to the clip before converting to
	// int (far-away points must not overflow)
	minX := clampInt(math.Floor(math.Min(x0, x1)-r-1), clip.Min.X, clip.Max.X)
	maxX := clampInt(math.Ceil(math.Max(x0, x1)+r+1), clip.Min.X, clip.Max.X)
	minY := clampInt(math.Floor(math.Min(y0, y1)-r-1), clip.Min.Y, clip.Max.Y)
	maxY := clampInt(math.Ceil(math.Max(y0, y1)+r+1), clip.Min.Y, clip.Max.Y)
	box := image.Rect(minX, minY, maxX, maxY).Intersect(clip)
	if box.Empty() {
		return
	}
	dx, dy := x1-x0, y1-y0
	l2 := dx*dx + dy*dy
	for py := box.Min.Y; py < box.Max.Y; py++ {
		cy := float64(py) + 0.5
		for px := box.Min.X; px < box.Max.X; px++ {
			cx := float64(px) + 0.5
			// distance from the pixel centre to the segment
			t := 0.0
			if l2 > 0 {
				t = ((cx-x0)*dx + (cy-y0)*dy) / l2
				t = math.Max(0, math.Min(1, t))
			}
			ex, ey := cx-(x0+t*dx), cy-(y0+t*dy)
			d := math.Sqrt(ex*ex + ey*ey)
			blend(img, clip, px, py, c, r+0.5-d)
		}
	}
}

// disc draws a filled circle of radius r (pixels) centred at (x, y).
func disc(img *image.RGBA, clip image.Rectangle, x, y, r float64, c color.RGBA) {
	line(img, clip, x, y, x, y, 2*r, c)
}

// fillRect fills a rectangle with a colour (no blending).
func fillRect(img *image.RGBA, r image.Rectangle, c color.RGBA) {
	r = r.Intersect(img.Bounds())
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			img.SetRGBA(x, y, c)
		}
	}
}

// strokeRect draws a one-pixel rectangle outline inside r.
func strokeRect(img *image.RGBA, r image.Rectangle, c color.RGBA) {
	fillRect(img, image.Rect(r.Min.X, r.Min.Y, r.Max.X, r.Min.Y+1), c)
	fillRect(img, image.Rect(r.Min.X, r.Max.Y-1, r.Max.X, r.Max.Y), c)
	fillRect(img, image.Rect(r.Min.X, r.Min.Y, r.Min.X+1, r.Max.Y), c)
	fillRect(img, image.Rect(r.Max.X-1, r.Min.Y, r.Max.X, r.Max.Y), c)
}

// clampInt converts v to an int within [lo, hi].
func clampInt(v float64, lo, hi int) int {
	if v <= float64(lo) {
		return lo
	}
	if v >= float64(hi) {
		return hi
	}
	return int(v)
}
