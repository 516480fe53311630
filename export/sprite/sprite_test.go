package sprite

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
	"testing"
	"time"
)

// frames are three sprites of different sizes and pivots: a 4×2 red bar
// pivoted at its left end, a 2×2 green square pivoted at its centre, an
// opaque 3×3 blue square pivoted at its top-left.
func frames() []Frame {
	fill := func(w, h int, c color.NRGBA) *image.NRGBA {
		img := image.NewNRGBA(image.Rect(0, 0, w, h))
		for y := range h {
			for x := range w {
				img.SetNRGBA(x, y, c)
			}
		}
		return img
	}
	red := fill(4, 2, color.NRGBA{255, 0, 0, 200})
	red.SetNRGBA(3, 1, color.NRGBA{}) // one transparent texel
	return []Frame{
		{Name: "bar", Image: red, Pivot: image.Pt(0, 1), Duration: 100 * time.Millisecond},
		{Name: "dot", Image: fill(2, 2, color.NRGBA{0, 255, 0, 255}), Pivot: image.Pt(1, 1), Duration: 50 * time.Millisecond},
		{Name: "box", Image: fill(3, 3, color.NRGBA{0, 0, 255, 255}), Pivot: image.Pt(0, 0), Duration: 250 * time.Millisecond},
	}
}

type chunk struct {
	kind string
	data []byte
}

// readChunks splits a PNG stream into its chunks, checking each CRC.
func readChunks(t *testing.T, b []byte) []chunk {
	t.Helper()
	if string(b[:8]) != "\x89PNG\r\n\x1a\n" {
		t.Fatal("no PNG signature")
	}
	var out []chunk
	for p := 8; p < len(b); {
		n := int(binary.BigEndian.Uint32(b[p:]))
		kind, data := string(b[p+4:p+8]), b[p+8:p+8+n]
		if crc32.ChecksumIEEE(b[p+4:p+8+n]) != binary.BigEndian.Uint32(b[p+8+n:]) {
			t.Fatalf("chunk %s: bad CRC", kind)
		}
		out = append(out, chunk{kind, data})
		p += 12 + n
	}
	return out
}

// pngOf makes a standalone PNG of an IHDR and image data, for Go's own
// PNG decoder to read one frame.
func pngOf(ihdr, idat []byte) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	for _, c := range []chunk{{"IHDR", ihdr}, {"IDAT", idat}, {"IEND", nil}} {
		binary.Write(&b, binary.BigEndian, uint32(len(c.data)))
		b.WriteString(c.kind)
		b.Write(c.data)
		binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(append([]byte(c.kind), c.data...)))
	}
	return b.Bytes()
}

// The APNG holds one frame a sprite, each on the canvas that holds them
// all with their pivots at one point, shown for its duration, in sequence
// order; every frame, read back by Go's PNG decoder, is the aligned
// sprite; the default image is the first frame.
func TestAPNGHoldsEveryFrameAlignedByPivot(t *testing.T) {
	fr := frames()
	var b bytes.Buffer
	if err := WriteAPNG(&b, fr, 0); err != nil {
		t.Fatal(err)
	}
	// The canvas: the bar spans x 0…4 and y −1…1 around the pivot, the
	// dot −1…1, the box 0…3: x −1…4, y −1…3, 5×4, pivot at (1, 1).
	first, err := png.Decode(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if first.Bounds() != image.Rect(0, 0, 5, 4) {
		t.Fatalf("canvas %v", first.Bounds())
	}
	cs := readChunks(t, b.Bytes())
	var ihdr []byte
	var seq uint32
	var images [][]byte
	var delays []int
	for _, c := range cs {
		switch c.kind {
		case "IHDR":
			ihdr = c.data
		case "acTL":
			if binary.BigEndian.Uint32(c.data) != 3 || binary.BigEndian.Uint32(c.data[4:]) != 0 {
				t.Errorf("acTL %v", c.data)
			}
		case "fcTL":
			if binary.BigEndian.Uint32(c.data) != seq || binary.BigEndian.Uint32(c.data[4:]) != 5 || binary.BigEndian.Uint32(c.data[8:]) != 4 {
				t.Errorf("fcTL %v (sequence %d)", c.data, seq)
			}
			seq++
			delays = append(delays, int(binary.BigEndian.Uint16(c.data[20:]))*1000/int(binary.BigEndian.Uint16(c.data[22:])))
		case "IDAT":
			images = append(images, c.data)
		case "fdAT":
			if binary.BigEndian.Uint32(c.data) != seq {
				t.Errorf("fdAT sequence %d, want %d", binary.BigEndian.Uint32(c.data), seq)
			}
			seq++
			images = append(images, c.data[4:])
		}
	}
	if len(images) != 3 || delays[0] != 100 || delays[1] != 50 || delays[2] != 250 {
		t.Fatalf("%d frames, delays %v", len(images), delays)
	}
	want := []map[image.Point]color.NRGBA{
		{{1, 0}: {255, 0, 0, 200}, {4, 0}: {255, 0, 0, 200}, {4, 1}: {}, {4, 2}: {}, {0, 0}: {}},
		{{0, 0}: {0, 255, 0, 255}, {1, 1}: {0, 255, 0, 255}, {2, 2}: {}},
		{{1, 1}: {0, 0, 255, 255}, {3, 3}: {0, 0, 255, 255}, {0, 0}: {}, {4, 1}: {}},
	}
	for i, data := range images {
		img, err := png.Decode(bytes.NewReader(pngOf(ihdr, data)))
		if err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		for p, c := range want[i] {
			if got := color.NRGBAModel.Convert(img.At(p.X, p.Y)).(color.NRGBA); got != c {
				t.Errorf("frame %d (%s) at %v: %v, want %v", i, fr[i].Name, p, got, c)
			}
		}
	}
}

// The sheet puts the aligned frames side by side and its JSON has
// Aseprite's json-array shape: each frame's rectangle and duration in
// milliseconds, the sheet's image and size, and the clip as a frame tag.
func TestSheetIsAsepritesShape(t *testing.T) {
	var b bytes.Buffer
	js, err := WriteSheet(&b, frames(), "walk", "walk.png")
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&b)
	if err != nil || img.Bounds() != image.Rect(0, 0, 15, 4) {
		t.Fatalf("sheet %v %v", img.Bounds(), err)
	}
	if c := color.NRGBAModel.Convert(img.At(10+1, 1)).(color.NRGBA); c != (color.NRGBA{0, 0, 255, 255}) {
		t.Errorf("third frame's pivot texel %v", c)
	}
	var got map[string]any
	if err := json.Unmarshal(js, &got); err != nil {
		t.Fatal(err)
	}
	fs := got["frames"].([]any)
	f1 := fs[1].(map[string]any)
	meta := got["meta"].(map[string]any)
	tag := meta["frameTags"].([]any)[0].(map[string]any)
	if len(fs) != 3 || f1["duration"] != 50.0 || f1["frame"].(map[string]any)["x"] != 5.0 || f1["filename"] != "walk 1" ||
		meta["image"] != "walk.png" || meta["size"].(map[string]any)["w"] != 15.0 || tag["name"] != "walk" || tag["to"] != 2.0 {
		t.Errorf("sheet JSON %s", js)
	}
}

// Nothing to write, a frame without an image, or a canvas too large is an
// error, never a panic.
func TestRefusesWhatItCannotWrite(t *testing.T) {
	var b bytes.Buffer
	for _, fr := range [][]Frame{nil, {{Name: "x"}}, {{Image: image.NewNRGBA(image.Rect(0, 0, 1, 1))}, {Image: image.NewNRGBA(image.Rect(0, 0, 1, 1)), Pivot: image.Pt(MaxCanvas+5, 0)}}} {
		if err := WriteAPNG(&b, fr, 0); err == nil {
			t.Errorf("%v: written", fr)
		}
		if _, err := WriteSheet(&b, fr, "x", "x.png"); err == nil {
			t.Errorf("%v: sheet written", fr)
		}
	}
}
