// Package sprite writes 2D sprite animations — the pictures a clip
// switches a SpriteRenderer or UI Image between — in the forms 2D tools
// read: an animated PNG (APNG) and a sprite sheet (one PNG of every frame
// side by side) with its timing in the JSON shape Aseprite writes
// ("json-array"), which game engines and 2D tools import.
//
// Frames are aligned on one canvas by their pivots, as the renderer draws
// them: a frame whose sprite is smaller or offset keeps its place.
package sprite

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"image"
	"image/draw"
	"image/png"
	"io"
	"time"
)

// ErrNoFrames is returned when there is nothing to write.
var ErrNoFrames = errors.New("sprite: no frames")

// MaxCanvas is the largest canvas side written.
const MaxCanvas = 1 << 14

// Frame is one picture of an animation: its image, its pivot (the point
// that stays put, in the image's pixels from its top-left corner) and how
// long it shows.
type Frame struct {
	Name     string // the sprite's name
	Image    *image.NRGBA
	Pivot    image.Point
	Duration time.Duration
}

// Align draws the frames on one canvas, their pivots at the same point:
// every image returned has the canvas's size. It returns the pivot's
// place on the canvas.
func Align(frames []Frame) ([]*image.NRGBA, image.Point, error) {
	if len(frames) == 0 {
		return nil, image.Point{}, ErrNoFrames
	}
	// The canvas spans every frame's box placed with its pivot at 0.
	var box image.Rectangle
	for i, f := range frames {
		if f.Image == nil {
			return nil, image.Point{}, fmt.Errorf("sprite: frame %d (%q) has no image", i, f.Name)
		}
		r := f.Image.Bounds().Sub(f.Image.Bounds().Min).Sub(f.Pivot)
		if i == 0 {
			box = r
		} else {
			box = box.Union(r)
		}
	}
	if box.Dx() > MaxCanvas || box.Dy() > MaxCanvas || box.Empty() {
		return nil, image.Point{}, fmt.Errorf("sprite: canvas of %d×%d pixels", box.Dx(), box.Dy())
	}
	pivot := box.Min.Mul(-1)
	out := make([]*image.NRGBA, len(frames))
	for i, f := range frames {
		c := image.NewNRGBA(image.Rect(0, 0, box.Dx(), box.Dy()))
		at := pivot.Sub(f.Pivot)
		draw.Draw(c, f.Image.Bounds().Sub(f.Image.Bounds().Min).Add(at), f.Image, f.Image.Bounds().Min, draw.Src)
		out[i] = c
	}
	return out, pivot, nil
}

// WriteAPNG writes the frames as an animated PNG that plays loops times
// (0: forever). Each frame shows for its duration, rounded to the
// millisecond; its first frame is the PNG's image for viewers that do not
// animate.
func WriteAPNG(w io.Writer, frames []Frame, loops int) error {
	imgs, _, err := Align(frames)
	if err != nil {
		return err
	}
	wid, hei := imgs[0].Bounds().Dx(), imgs[0].Bounds().Dy()
	var buf bytes.Buffer
	buf.WriteString("\x89PNG\r\n\x1a\n")
	be := binary.BigEndian
	chunk := func(kind string, data []byte) {
		var n [4]byte
		be.PutUint32(n[:], uint32(len(data)))
		buf.Write(n[:])
		crc := crc32.NewIEEE()
		crc.Write([]byte(kind))
		crc.Write(data)
		buf.WriteString(kind)
		buf.Write(data)
		be.PutUint32(n[:], crc.Sum32())
		buf.Write(n[:])
	}
	ihdr := make([]byte, 13)
	be.PutUint32(ihdr, uint32(wid))
	be.PutUint32(ihdr[4:], uint32(hei))
	ihdr[8], ihdr[9] = 8, 6 // 8-bit RGBA
	chunk("IHDR", ihdr)
	actl := make([]byte, 8)
	be.PutUint32(actl, uint32(len(imgs)))
	be.PutUint32(actl[4:], uint32(max(loops, 0)))
	chunk("acTL", actl)
	seq := uint32(0)
	for i, img := range imgs {
		fctl := make([]byte, 26)
		be.PutUint32(fctl, seq)
		be.PutUint32(fctl[4:], uint32(wid))
		be.PutUint32(fctl[8:], uint32(hei))
		ms := frames[i].Duration.Round(time.Millisecond).Milliseconds()
		ms = min(max(ms, 0), 65535)
		be.PutUint16(fctl[20:], uint16(ms))
		be.PutUint16(fctl[22:], 1000)
		// dispose none, blend source: each frame replaces the canvas.
		chunk("fcTL", fctl)
		seq++
		data, err := deflateRGBA(img)
		if err != nil {
			return err
		}
		if i == 0 {
			chunk("IDAT", data)
			continue
		}
		fd := make([]byte, 4+len(data))
		be.PutUint32(fd, seq)
		copy(fd[4:], data)
		chunk("fdAT", fd)
		seq++
	}
	chunk("IEND", nil)
	_, err = w.Write(buf.Bytes())
	return err
}

// deflateRGBA is an image's PNG image data: its rows, each with filter
// byte 0, zlib-compressed.
func deflateRGBA(img *image.NRGBA) ([]byte, error) {
	var out bytes.Buffer
	z := zlib.NewWriter(&out)
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		z.Write([]byte{0})
		o := img.PixOffset(b.Min.X, y)
		if _, err := z.Write(img.Pix[o : o+4*b.Dx()]); err != nil {
			return nil, err
		}
	}
	if err := z.Close(); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// Sheet is the JSON Aseprite writes beside a sprite sheet (its
// "json-array" format): each frame's place in the sheet and its duration
// in milliseconds, and the animation as a frame tag.
type Sheet struct {
	Frames []SheetFrame `json:"frames"`
	Meta   SheetMeta    `json:"meta"`
}

// SheetFrame is one frame of a sheet.
type SheetFrame struct {
	Filename         string    `json:"filename"`
	Frame            SheetRect `json:"frame"`
	Rotated          bool      `json:"rotated"`
	Trimmed          bool      `json:"trimmed"`
	SpriteSourceSize SheetRect `json:"spriteSourceSize"`
	SourceSize       SheetSize `json:"sourceSize"`
	Duration         int64     `json:"duration"`
}

// SheetRect is a rectangle in pixels, from the sheet's top-left corner.
type SheetRect struct {
	X int `json:"x"`
	Y int `json:"y"`
	W int `json:"w"`
	H int `json:"h"`
}

// SheetSize is a size in pixels.
type SheetSize struct {
	W int `json:"w"`
	H int `json:"h"`
}

// SheetMeta describes the sheet.
type SheetMeta struct {
	App       string     `json:"app"`
	Version   string     `json:"version"`
	Image     string     `json:"image"`
	Format    string     `json:"format"`
	Size      SheetSize  `json:"size"`
	Scale     string     `json:"scale"`
	FrameTags []FrameTag `json:"frameTags"`
	// Pivot is where the sprites' pivot lies in each frame (not in
	// Aseprite's own files; tools ignore keys they do not know).
	Pivot SheetPoint `json:"pivot"`
}

// SheetPoint is a point in pixels, from a frame's top-left corner.
type SheetPoint struct {
	X int `json:"x"`
	Y int `json:"y"`
}

// FrameTag names a run of frames (the clip).
type FrameTag struct {
	Name      string `json:"name"`
	From      int    `json:"from"`
	To        int    `json:"to"`
	Direction string `json:"direction"`
}

// Strip draws the frames aligned by pivot side by side, left to right, in
// cells of the canvas's size; it returns the pivot's place in each cell.
func Strip(frames []Frame) (*image.NRGBA, image.Point, error) {
	imgs, pivot, err := Align(frames)
	if err != nil {
		return nil, image.Point{}, err
	}
	cw, ch := imgs[0].Bounds().Dx(), imgs[0].Bounds().Dy()
	if cw*len(imgs) > MaxCanvas*4 {
		return nil, image.Point{}, fmt.Errorf("sprite: strip of %d frames %d pixels wide", len(imgs), cw)
	}
	strip := image.NewNRGBA(image.Rect(0, 0, cw*len(imgs), ch))
	for i, img := range imgs {
		draw.Draw(strip, image.Rect(i*cw, 0, (i+1)*cw, ch), img, image.Point{}, draw.Src)
	}
	return strip, pivot, nil
}

// WriteSheet writes the frames side by side, left to right, as one PNG to
// w, and returns the sheet's JSON (Aseprite's shape) naming imageName as
// its picture and the whole run as the frame tag name.
func WriteSheet(w io.Writer, frames []Frame, name, imageName string) ([]byte, error) {
	sheet, pivot, err := Strip(frames)
	if err != nil {
		return nil, err
	}
	cw, ch := sheet.Bounds().Dx()/len(frames), sheet.Bounds().Dy()
	js := Sheet{Meta: SheetMeta{App: "mecanim", Version: "1", Image: imageName, Format: "RGBA8888",
		Size: SheetSize{cw * len(frames), ch}, Scale: "1", Pivot: SheetPoint{pivot.X, pivot.Y},
		FrameTags: []FrameTag{{Name: name, From: 0, To: len(frames) - 1, Direction: "forward"}}}}
	for i := range frames {
		js.Frames = append(js.Frames, SheetFrame{
			Filename:         fmt.Sprintf("%s %d", name, i),
			Frame:            SheetRect{i * cw, 0, cw, ch},
			SpriteSourceSize: SheetRect{0, 0, cw, ch},
			SourceSize:       SheetSize{cw, ch},
			Duration:         frames[i].Duration.Round(time.Millisecond).Milliseconds(),
		})
	}
	if err := png.Encode(w, sheet); err != nil {
		return nil, err
	}
	return json.MarshalIndent(js, "", "  ")
}
