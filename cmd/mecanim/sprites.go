package main

import (
	"image"
	"image/draw"

	"github.com/mecanim/mecanim/bind"
	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/export/sprite"
	"github.com/mecanim/mecanim/extract"
	"github.com/mecanim/mecanim/model"
)

// spriteStrip draws clip i as strips of its sprite frames, one under the
// other per sprite curve, when it is a 2D clip: it switches sprites and
// moves no Transform or humanoid (false otherwise).
func spriteStrip(set *bind.Set, i bound.ClipID) (image.Image, bool, error) {
	clip, err := set.Clip(i)
	if err != nil {
		return nil, false, nil // the usual path says why
	}
	for _, cv := range clip.Curves {
		if cv.Target.ClassID == model.ClassTransform || cv.Target.ClassID == model.ClassAnimator {
			return nil, false, nil
		}
	}
	curves, err := extract.SpriteCurves(set, i, nil)
	if err != nil || len(curves) == 0 {
		return nil, err != nil, err
	}
	var strips []*image.NRGBA
	w, h := 0, 0
	for _, c := range curves {
		s, _, err := sprite.Strip(c.Frames)
		if err != nil {
			return nil, true, err
		}
		strips = append(strips, s)
		w, h = max(w, s.Bounds().Dx()), h+s.Bounds().Dy()
	}
	out := image.NewNRGBA(image.Rect(0, 0, w, h))
	y := 0
	for _, s := range strips {
		draw.Draw(out, s.Bounds().Add(image.Pt(0, y)), s, image.Point{}, draw.Src)
		y += s.Bounds().Dy()
	}
	return out, true, nil
}
