package view

// Browser tests of what the page draws: a known frame's joints, projected
// with the camera the page drew with, must land where the page drew the
// character, in the colours of their side, helpers faint, the body framed.

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mecanim/mecanim/internal/corpustest"
)

// The colours the page draws bones in: present/render's palette, and
// three quarters of it for joint dots.
var (
	drawLeft   = color.RGBA{40, 100, 220, 255}
	drawRight  = color.RGBA{215, 50, 50, 255}
	drawCentre = color.RGBA{70, 70, 82, 255}
	drawHelper = color.RGBA{212, 212, 220, 255}
)

// sideColour is the colour of a joint's bone by its side.
func sideColour(side int) color.RGBA {
	switch {
	case side < 0:
		return drawLeft
	case side > 0:
		return drawRight
	}
	return drawCentre
}

func darker(c color.RGBA) color.RGBA { return color.RGBA{c.R * 3 / 4, c.G * 3 / 4, c.B * 3 / 4, 255} }

// near reports whether c is within tol of want in every channel.
func near(c color.Color, want color.RGBA, tol int) bool {
	r, g, b, _ := c.RGBA()
	d := func(x uint32, y uint8) int { return int(math.Abs(float64(int(x>>8) - int(y)))) }
	return d(r, want.R) <= tol && d(g, want.G) <= tol && d(b, want.B) <= tol
}

// bodyColoured reports whether a pixel has a body bone's or joint's
// colour (of any side).
func bodyColoured(c color.Color) bool {
	for _, w := range []color.RGBA{drawLeft, drawRight, drawCentre} {
		if near(c, w, 40) || near(c, darker(w), 40) {
			return true
		}
	}
	return false
}

// drawnView is what the page says it drew with (window.mecanimView).
type drawnView struct {
	VP     []float64 `json:"vp"`
	MVP    []float64 `json:"mvp"`
	Width  float64   `json:"width"`
	Height float64   `json:"height"`
}

// project takes a point in Unity's frame to page pixels through m (which
// takes GL's frame, x negated, to clip space) on a canvas at rect; ok is
// false behind the camera.
func project(m []float64, p [3]float64, rect image.Rectangle) (x, y float64, ok bool) {
	v := [4]float64{-p[0], p[1], p[2], 1}
	var c [4]float64
	for r := 0; r < 4; r++ {
		for k := 0; k < 4; k++ {
			c[r] += m[k*4+r] * v[k]
		}
	}
	if !(c[3] > 1e-9) {
		return 0, 0, false
	}
	return float64(rect.Min.X) + (c[0]/c[3]+1)/2*float64(rect.Dx()), float64(rect.Min.Y) + (1-c[1]/c[3])/2*float64(rect.Dy()), true
}

// pageCanvas reads the canvas rectangle and what the page last drew with,
// waiting until it drew a pose.
func pageCanvas(ctx context.Context, t *testing.T, p *page) (image.Rectangle, drawnView) {
	t.Helper()
	var dv drawnView
	for {
		p.eval(ctx, t, `window.mecanimView ? window.mecanimView.drawn() : null`, &dv)
		if len(dv.MVP) == 16 {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the page drew no pose: %v", ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
	var r []float64
	p.eval(ctx, t, `(() => { const r = document.getElementById("view").getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })()`, &r)
	rect := image.Rect(int(math.Round(r[0])), int(math.Round(r[1])), int(math.Round(r[2])), int(math.Round(r[3])))
	if rect.Dx() != int(dv.Width) || rect.Dy() != int(dv.Height) {
		t.Fatalf("canvas %v drawn at %gx%g", rect, dv.Width, dv.Height)
	}
	return rect, dv
}

// keepShot writes a screenshot where the report can find it: under
// $MECANIM_VIEW_SHOTS when set, else into the temporary directory when the
// test failed. It returns the path ("" when not written).
func keepShot(t *testing.T, img image.Image, name string) string {
	dir := os.Getenv("MECANIM_VIEW_SHOTS")
	if dir == "" {
		if !t.Failed() {
			return ""
		}
		dir = os.TempDir()
	}
	path := filepath.Join(dir, name+".png")
	f, err := os.Create(path)
	if err != nil {
		t.Logf("screenshot: %v", err)
		return ""
	}
	defer f.Close()
	png.Encode(f, img)
	t.Logf("screenshot %s", path)
	return path
}

// checkDrawnPose checks frame k of f as the page drew it in img: the body
// joints project inside the canvas and fill a good part of its height;
// the box of body-coloured pixels (the character's screen box) holds every
// projected body joint and nothing far from them; body bones are drawn in
// their side's colour; helper bones are faint.
func checkDrawnPose(t *testing.T, img image.Image, rect image.Rectangle, mvp []float64, f *Frames, k int) {
	t.Helper()
	n := len(f.Paths)
	pos := func(j int) [3]float64 {
		o := 3 * (k*n + j)
		return [3]float64{float64(f.Positions[o]), float64(f.Positions[o+1]), float64(f.Positions[o+2])}
	}
	type pt struct {
		x, y float64
		ok   bool
	}
	pts := make([]pt, n)
	for j := range pts {
		pts[j].x, pts[j].y, pts[j].ok = project(mvp, pos(j), rect)
	}
	// the projected body
	body := image.Rectangle{}
	first := true
	for j := 0; j < n; j++ {
		if !f.Body[j] {
			continue
		}
		if !pts[j].ok {
			t.Fatalf("body joint %s is behind the camera", f.Paths[j])
		}
		r := image.Rect(int(math.Floor(pts[j].x)), int(math.Floor(pts[j].y)), int(math.Floor(pts[j].x))+1, int(math.Floor(pts[j].y))+1)
		if first {
			body, first = r, false
		} else {
			body = body.Union(r)
		}
	}
	if !body.In(rect.Inset(2)) {
		t.Errorf("the body projects to %v, not inside the canvas %v: not framed", body, rect)
	}
	if body.Dy() < rect.Dy()*35/100 {
		t.Errorf("the body is %d px tall on a %d px canvas: framed on something else", body.Dy(), rect.Dy())
	}
	// the character's screen box: where body colours were drawn
	var drawn image.Rectangle
	count := 0
	for y := rect.Min.Y; y < rect.Max.Y; y++ {
		for x := rect.Min.X; x < rect.Max.X; x++ {
			if bodyColoured(img.At(x, y)) {
				if count == 0 {
					drawn = image.Rect(x, y, x+1, y+1)
				} else {
					drawn = drawn.Union(image.Rect(x, y, x+1, y+1))
				}
				count++
			}
		}
	}
	if count == 0 {
		t.Fatalf("no pixel of a body colour on the canvas")
	}
	if !body.In(drawn.Inset(-6)) {
		t.Errorf("projected body joints %v are not all inside the character's screen box %v", body, drawn)
	}
	if !drawn.In(body.Inset(-12)) {
		t.Errorf("the character's screen box %v reaches beyond its projected joints %v", drawn, body)
	}
	// bone colours, sampled at the middle of each bone long enough on
	// screen
	chain := make([]bool, n)
	for j := f.Root; j >= 0 && j < n; j = f.Parents[j] {
		chain[j] = true
	}
	colourAt := func(x, y float64, ok func(color.Color) bool) bool {
		for dy := -2; dy <= 2; dy++ {
			for dx := -2; dx <= 2; dx++ {
				if ok(img.At(int(x)+dx, int(y)+dy)) {
					return true
				}
			}
		}
		return false
	}
	var bodyBones, bodyRight, helperBones, helperFaint int
	var wrong []string
	for j, p := range f.Parents {
		if p <= 0 || chain[j] || !pts[j].ok || !pts[p].ok {
			continue
		}
		mx, my := (pts[j].x+pts[p].x)/2, (pts[j].y+pts[p].y)/2
		if math.Hypot(pts[j].x-pts[p].x, pts[j].y-pts[p].y) < 20 || !image.Pt(int(mx), int(my)).In(rect.Inset(3)) {
			continue
		}
		if f.Helpers[j] {
			helperBones++
			if colourAt(mx, my, func(c color.Color) bool { return near(c, drawHelper, 12) }) {
				helperFaint++
			}
			continue
		}
		bodyBones++
		want := sideColour(f.Sides[j])
		if colourAt(mx, my, func(c color.Color) bool { return near(c, want, 30) }) {
			bodyRight++
		} else {
			wrong = append(wrong, fmt.Sprintf("%s at (%.0f, %.0f) is %v, want %v", f.Paths[j], mx, my, img.At(int(mx), int(my)), want))
		}
	}
	if bodyBones < 5 {
		t.Fatalf("only %d body bones long enough to check", bodyBones)
	}
	if bodyRight*10 < bodyBones*9 {
		t.Errorf("%d of %d body bones drawn in their side's colour:\n%s", bodyRight, bodyBones, strings.Join(wrong, "\n"))
	}
	if helperBones > 0 && helperFaint*10 < helperBones*7 {
		t.Errorf("%d of %d helper bones drawn faint", helperFaint, helperBones)
	}
	t.Logf("body %v in screen box %v (%d body-coloured pixels); %d/%d body bones in their side's colour, %d/%d helpers faint",
		body, drawn, count, bodyRight, bodyBones, helperFaint, helperBones)
}

func browserPage(t *testing.T) (context.Context, *browser, *page) {
	t.Helper()
	chromium := findChromium(t)
	if testing.Short() && os.Getenv("MECANIM_REQUIRE_CHROMIUM") != "1" {
		t.Skip("headless browser test skipped in -short mode")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	b := startBrowser(t, chromium)
	return ctx, b, b.newPage(ctx, t)
}

func (p *page) navigate(ctx context.Context, t *testing.T, url string) {
	t.Helper()
	if err := p.b.call(ctx, p.session, "Page.navigate", map[string]any{"url": url}, nil); err != nil {
		t.Fatal(err)
	}
}

func TestBrowserOpensPlayingTheFirstCharactersFirstClip(t *testing.T) {
	ctx, b, p := browserPage(t)
	ts, _ := newSynthServer(t)
	p.navigate(ctx, t, ts.URL+"/")
	p.waitStatus(ctx, t, "playing")
	var dom struct {
		Clip     string   `json:"clip"`
		Title    string   `json:"title"`
		Selected string   `json:"selected"`
		Items    []string `json:"items"`
		Tips     []string `json:"tips"`
	}
	p.eval(ctx, t, `(() => ({
		clip: document.body.dataset.clip || "",
		title: document.getElementById("title").textContent,
		selected: (document.querySelector("#clips li.selected") || {}).innerText || "",
		items: [...document.querySelectorAll("#clips li")].map(li => li.innerText),
		tips: [...document.querySelectorAll("#clips li")].map(li => li.title),
	}))()`, &dom)
	if want := "Wave — private/stick.bundle · stick.bundle#11"; dom.Clip != "0" || dom.Title != want {
		t.Errorf("the page opened playing clip %q titled %q, want clip 0, %s", dom.Clip, dom.Title, want)
	}
	if len(dom.Items) != 6 {
		t.Fatalf("clip list %q", dom.Items)
	}
	seen := map[string]bool{}
	for i, it := range dom.Items {
		if seen[it] {
			t.Errorf("two clips read %q in the list: duplicates not told apart", it)
		}
		seen[it] = true
		if strings.HasPrefix(it, "Wave") && !strings.Contains(it, "#") && !strings.Contains(it, "/") {
			t.Errorf("clip %d, one of three named Wave, reads %q: nothing tells it apart", i, it)
		}
	}
	if dom.Selected == "" || dom.Selected != dom.Items[0] {
		t.Errorf("selected %q, want the first clip %q", dom.Selected, dom.Items[0])
	}
	if probs := b.problems(); len(probs) > 0 {
		t.Errorf("the page reported problems:\n%s", strings.Join(probs, "\n"))
	}
}

func TestBrowserDrawsAKnownFrameWhereItProjects(t *testing.T) {
	ctx, b, p := browserPage(t)
	ts, s := newSynthServer(t)
	// Wave at 1 s is frame 30 at 30 Hz: the left hand up.
	p.navigate(ctx, t, ts.URL+"/?clip=0&t=1")
	p.waitStatus(ctx, t, "paused")
	rect, dv := pageCanvas(ctx, t, p)
	shot := p.screenshot(ctx, t)
	f, err := s.ClipFrames(0, -1, 30, false)
	if err != nil {
		t.Fatal(err)
	}
	checkDrawnPose(t, shot, rect, dv.MVP, f, 30)
	// the parked prop is not framed
	if x, y, ok := project(dv.MVP, [3]float64{0, 30000, 0}, rect); ok && image.Pt(int(x), int(y)).In(rect) {
		t.Errorf("the prop parked 30 km up projects inside the canvas at (%.0f, %.0f): framing includes it", x, y)
	}
	keepShot(t, shot, "synthetic-wave")
	if probs := b.problems(); len(probs) > 0 {
		t.Errorf("the page reported problems:\n%s", strings.Join(probs, "\n"))
	}
}

func TestBrowserFollowsRootMotion(t *testing.T) {
	ctx, b, p := browserPage(t)
	ts, _ := newSynthServer(t)
	p.navigate(ctx, t, ts.URL+"/?controller=0&autoplay=1")
	p.waitStatus(ctx, t, "playing")
	var z float64
	for z < 2*walkSpeed {
		var root string
		p.eval(ctx, t, `document.body.dataset.carried || ""`, &root)
		fmt.Sscanf(strings.Split(root+",,", ",")[2], "%g", &z)
		select {
		case <-ctx.Done():
			t.Fatalf("root at z=%g: the controller did not walk", z)
		case <-time.After(100 * time.Millisecond):
		}
	}
	p.eval(ctx, t, `document.getElementById("play").click()`, nil)
	p.waitStatus(ctx, t, "paused")
	time.Sleep(time.Second) // the last tick lands, the camera settles
	var root string
	p.eval(ctx, t, `document.body.dataset.carried`, &root)
	var rx, ry, rz float64
	if _, err := fmt.Sscanf(root, "%g,%g,%g", &rx, &ry, &rz); err != nil {
		t.Fatalf("data-carried %q: %v", root, err)
	}
	rect, dv := pageCanvas(ctx, t, p)
	shot := p.screenshot(ctx, t)
	keepShot(t, shot, "synthetic-walk")
	// where root motion carried the hips, in the world (the pose is held
	// with the hips at (0, 1, 0); the walk carries the figure along z
	// without turning it)
	hips := [3]float64{rx, ry + 1, rz}
	x, y, ok := project(dv.VP, hips, rect)
	centre := image.Rect(rect.Min.X+rect.Dx()/4, rect.Min.Y+rect.Dy()/4, rect.Max.X-rect.Dx()/4, rect.Max.Y-rect.Dy()/4)
	if !ok || !image.Pt(int(x), int(y)).In(centre) {
		t.Errorf("root motion carried the hips %.1f m; they project to (%.0f, %.0f), outside the middle of the canvas %v: the camera did not follow", rz, x, y, centre)
	}
	drawn := 0
	for py := int(y) - 120; py <= int(y)+120; py++ {
		for px := int(x) - 120; px <= int(x)+120; px++ {
			if image.Pt(px, py).In(rect) && bodyColoured(shot.At(px, py)) {
				drawn++
			}
		}
	}
	if drawn < 100 {
		t.Errorf("%d body-coloured pixels around where root motion carried the hips: the character is not drawn there", drawn)
	}
	t.Logf("root z=%.2f m; hips at (%.0f, %.0f); %d body pixels around them", rz, x, y, drawn)
	if probs := b.problems(); len(probs) > 0 {
		t.Errorf("the page reported problems:\n%s", strings.Join(probs, "\n"))
	}
}

// On a humanoid rig with many helpers (bandit: IK targets, jiggle chains,
// weapons parked kilometres away), the body is framed and coloured by
// side and the helpers are faint.
func TestBrowserShowsTheBodyAmongHelpers(t *testing.T) {
	ctx, b, p := browserPage(t)
	ts, s := newTestServer(t, corpustest.Path(t, "lethal-emotes/customemotespackage"))
	dab := -1
	for _, c := range s.Scene().Clips {
		if c.Name == "Dab" {
			dab = c.ID
		}
	}
	if dab < 0 {
		t.Fatal("no clip Dab")
	}
	p.navigate(ctx, t, fmt.Sprintf("%s/?clip=%d&t=0.5&rig=0&mesh=0", ts.URL, dab))
	p.waitStatus(ctx, t, "paused")
	rect, dv := pageCanvas(ctx, t, p)
	shot := p.screenshot(ctx, t)
	f, err := s.ClipFrames(dab, 0, 30, false)
	if err != nil {
		t.Fatal(err)
	}
	helpers := 0
	for _, h := range f.Helpers {
		if h {
			helpers++
		}
	}
	if helpers < 50 {
		t.Fatalf("bandit has %d helpers, want the many it has", helpers)
	}
	checkDrawnPose(t, shot, rect, dv.MVP, f, 15)
	keepShot(t, shot, "bandit-dab")
	if probs := b.problems(); len(probs) > 0 {
		t.Errorf("the page reported problems:\n%s", strings.Join(probs, "\n"))
	}
}
