package extract

import (
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mecanim/mecanim/bind"
	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/decode/catalog"
	decodesprite "github.com/mecanim/mecanim/decode/sprite"
	"github.com/mecanim/mecanim/decode/texture"
	"github.com/mecanim/mecanim/export/sprite"
	"github.com/mecanim/mecanim/internal/atomicfile"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/serialized"
)

// classAnimationClip is the class id of the clips searched for sprite
// curves.
const classAnimationClip = 74

// SpriteCurve is one sprite curve of a clip (m_Sprite of a SpriteRenderer
// or UI Image) cut into frames: each key's sprite shown until the next
// key, the last until the clip's end (at least one sample).
type SpriteCurve struct {
	Path   string // the GameObject whose sprite is switched
	Frames []sprite.Frame
}

// ErrEditorSprites: a clip read from an editor (YAML) asset switches
// sprites, which are drawn only from built Unity files.
var ErrEditorSprites = errors.New("the sprites of an editor (YAML) clip are not drawn: give the built game's files")

// SpriteCurves cuts the sprite curves of clip i of set (none: nil). The
// sprites, their atlases and textures are read from the set's inputs.
func SpriteCurves(set *bind.Set, i bound.ClipID, cache map[*serialized.Object]*decodesprite.Picture) ([]SpriteCurve, error) {
	clip, err := set.Clip(i)
	if err != nil {
		return nil, err
	}
	var curves []model.ObjectCurve
	for _, oc := range clip.ObjectCurves {
		if decodesprite.IsSpriteCurve(oc) && len(oc.Keys) > 0 {
			curves = append(curves, oc)
		}
	}
	if len(curves) == 0 {
		return nil, nil
	}
	src := set.Clips()[i].Source
	o, ok := clipObject(set.Catalog(), src)
	if !ok {
		return nil, fmt.Errorf("clip %q (%s): %w", clip.Name, src, ErrEditorSprites)
	}
	var out []SpriteCurve
	for _, oc := range curves {
		steps, err := decodesprite.Steps(o.File, oc, set.Catalog().Resolver(), cache)
		if err != nil {
			return nil, fmt.Errorf("clip %q: %w", clip.Name, err)
		}
		out = append(out, SpriteCurve{Path: oc.Target.Path, Frames: frames(clip, steps)})
	}
	return out, nil
}

// clipObject finds the clip of a source in the catalog.
func clipObject(cat *catalog.Catalog, src model.Source) (catalog.Object, bool) {
	if cat == nil {
		return catalog.Object{}, false
	}
	for _, o := range cat.ByClass(classAnimationClip) {
		if o.Object.PathID == src.PathID && (src.File == "" || o.File.Name == src.File) && (o.File.Container == nil || o.Container() == src.Container) {
			return o, true
		}
	}
	return catalog.Object{}, false
}

// frames times the steps of a sprite curve: each lasts until the next
// key, the last until the clip's end; a hidden sprite is an empty frame.
func frames(clip *model.Clip, steps []decodesprite.Step) []sprite.Frame {
	frame := time.Duration(float64(1/max(clip.SampleRate, 1)) * float64(time.Second))
	var out []sprite.Frame
	for k, s := range steps {
		end := clip.Stop
		if k+1 < len(steps) {
			end = steps[k+1].Time
		}
		d := time.Duration(float64(end-s.Time) * float64(time.Second))
		if d <= 0 {
			if k+1 < len(steps) {
				continue // a key at once replaced
			}
			d = frame
		}
		f := sprite.Frame{Duration: d, Image: image.NewNRGBA(image.Rect(0, 0, 1, 1))}
		if s.Picture != nil {
			f.Name, f.Image, f.Pivot = s.Picture.Name, s.Picture.Image, s.Picture.Pivot
		}
		out = append(out, f)
	}
	return out
}

// maxCachedPictures bounds the sprite pictures kept between clips (the
// memory a large 2D game's sprites would otherwise hold at once).
const maxCachedPictures = 512

// Sprite output kinds in the manifest.
const (
	KindSpriteAnimation = "sprite animation" // an animated PNG
	KindSpriteSheet     = "sprite sheet"     // a PNG of the frames side by side, with its JSON beside
)

// writeSpriteCurve writes one sprite curve as base.png (an animated PNG),
// base.sheet.png with base.sheet.json (Aseprite's json-array shape), and
// each frame as base.frames/NNN.png, in dir. It returns the animation's
// and the sheet's paths.
func writeSpriteCurve(dir, base, clipName string, c SpriteCurve) (anim, sheet string, err error) {
	anim, sheet = base+".png", base+".sheet.png"
	write := func(name string, fn func(w io.Writer) error) error {
		if e := atomicfile.Write(filepath.Join(dir, name), fn); e != nil {
			return fmt.Errorf("%s: %w", name, e)
		}
		return nil
	}
	if err = write(anim, func(w io.Writer) error { return sprite.WriteAPNG(w, c.Frames, 0) }); err != nil {
		return "", "", err
	}
	var js []byte
	if err = write(sheet, func(w io.Writer) error {
		var e error
		js, e = sprite.WriteSheet(w, c.Frames, clipName, filepath.Base(sheet))
		return e
	}); err != nil {
		return "", "", err
	}
	if err = write(base+".sheet.json", func(w io.Writer) error { _, e := w.Write(js); return e }); err != nil {
		return "", "", err
	}
	imgs, _, err := sprite.Align(c.Frames)
	if err != nil {
		return "", "", err
	}
	if err = os.MkdirAll(filepath.Join(dir, base+".frames"), 0o755); err != nil {
		return "", "", err
	}
	for k, img := range imgs {
		if err = write(filepath.Join(base+".frames", fmt.Sprintf("%03d.png", k)), func(w io.Writer) error { return png.Encode(w, img) }); err != nil {
			return "", "", err
		}
	}
	return anim, sheet, nil
}

// exportSprites writes the sprite curves of every clip no character
// exported (2D clips move no Transform) into OUT/sprites and
// records them in the manifest: the clips' outputs (a clip with sprite
// curves is no longer skipped), the outputs, a note on a clip whose
// sprites are outside the inputs or in a texture format not decoded, and
// failures (damaged sprites, outputs not written).
func (r *run) exportSprites(m *Manifest) {
	if r.set == nil {
		return
	}
	cache := map[*serialized.Object]*decodesprite.Picture{}
	items := r.clipItems
	var names []string
	type done struct {
		clip   int
		curves []SpriteCurve
	}
	var todo []done
	// Clips exported on a character are done; the others are read again
	// for their sprite curves, one at a time (released after).
	left := map[model.Source]bool{}
	for _, c := range m.Clips {
		if len(c.Outputs) == 0 && c.SameAs == "" {
			left[model.Source{Container: c.Source.Container, File: c.Source.File, PathID: c.Source.PathID}] = true
		}
	}
	for i := range items {
		if r.ctx.Err() != nil {
			return
		}
		if !left[items[i].Source] {
			continue
		}
		if len(cache) > maxCachedPictures {
			cache = map[*serialized.Object]*decodesprite.Picture{}
		}
		curves, err := SpriteCurves(r.set, bound.ClipID(i), cache)
		bind.Release(r.set, bound.ClipID(i))
		var ue *texture.UnsupportedError
		switch {
		case errors.Is(err, decodesprite.ErrMissing) || errors.Is(err, ErrEditorSprites) || errors.As(err, &ue):
			// Valid data this run cannot draw (a file not given, a
			// texture format not decoded): said on the clip.
			for j := range m.Clips {
				if cs := m.Clips[j].Source; cs.Container == items[i].Source.Container && cs.File == items[i].Source.File && cs.PathID == items[i].Source.PathID {
					m.Clips[j].Note = strings.TrimSpace(m.Clips[j].Note + " sprites not written: " + err.Error())
				}
			}
			continue
		case err != nil:
			m.Failed = append(m.Failed, Failure{Input: items[i].Source.Container, Error: err.Error(), err: err})
			continue
		}
		for _, c := range curves {
			n := items[i].Name
			if len(curves) > 1 {
				n += "-" + c.Path
			}
			names = append(names, SafeFileName(n))
		}
		if len(curves) > 0 {
			todo = append(todo, done{i, curves})
		}
	}
	if len(todo) == 0 {
		return
	}
	dir := filepath.Join(r.o.Out, "sprites")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		m.Failed = append(m.Failed, Failure{Output: "sprites", Error: err.Error()})
		return
	}
	names = UniqueNames(names)
	k := 0
	for _, d := range todo {
		it := items[d.clip]
		ref := it.Ref
		for _, c := range d.curves {
			base := names[k]
			k++
			anim, sheet, err := writeSpriteCurve(dir, base, it.Name, c)
			if err != nil {
				m.Failed = append(m.Failed, Failure{Output: filepath.ToSlash(filepath.Join("sprites", base)), Error: err.Error()})
				continue
			}
			anim, sheet = filepath.ToSlash(filepath.Join("sprites", anim)), filepath.ToSlash(filepath.Join("sprites", sheet))
			m.Outputs = append(m.Outputs, OutputInfo{Path: anim, Kind: KindSpriteAnimation, Clip: ref}, OutputInfo{Path: sheet, Kind: KindSpriteSheet, Clip: ref})
			for j := range m.Clips {
				if cs := m.Clips[j].Source; cs.Container == it.Source.Container && cs.File == it.Source.File && cs.PathID == it.Source.PathID {
					m.Clips[j].Outputs = append(m.Clips[j].Outputs, anim, sheet)
					m.Clips[j].Skipped = ""
				}
			}
		}
	}
}
