package main

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"

	"github.com/mecanim/mecanim/bind"
	"github.com/mecanim/mecanim/decode/compiled"
	"github.com/mecanim/mecanim/encode/assetbundle"
	"github.com/mecanim/mecanim/encode/muscleclip"
	"github.com/mecanim/mecanim/internal/atomicfile"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/assets"
	"github.com/mecanim/mecanim/unity/typetree"
	"github.com/mecanim/mecanim/unity/unitywrite"
)

const packSynopsis = "FILE... --like GAME_FILE -o OUT [--clip NAME]... [--folder assets/PATH] [--name BUNDLE] [--compression lzma|lz4hc|none]"

const packAbout = `
Compiles clips as Unity's editor does and writes them into an AssetBundle a
game of another Unity version loads: the clips of the inputs (every Mecanim
clip, or those --clip names: a .anim, a clip retargeted with 'mecanim
retarget -o X.anim', a glTF/VRM animation, a clip of another bundle), each
at the container path FOLDER/NAME.anim (lower case, as Unity writes them),
in a bundle named --name (default: the output's file name).

--like gives a file of the target game (a bundle, a .assets or level
file): the bundle takes its Unity version, platform, serialized file and
archive formats, type trees and type hashes; a game that strips its type
trees gets a bundle without them. The bundle is read back through the
project's own readers before it is written: each clip must sample as its
input (at its keys and between), or nothing is written.`

// runPack compiles the clips of the inputs with muscleclip, packs them with
// assetbundle --like a file of the target game, checks the bundle reads
// back equal and writes it.
func runPack(e *env, args []string) error {
	fs := newFlags(e, "pack", packSynopsis)
	var rf readerFlags
	rf.register(fs)
	var clips multiFlag
	fs.Var(&clips, "clip", "a clip to pack: its name, or FILE#PATHID (repeat for several; default every Mecanim clip of the inputs)")
	like := fs.String("like", "", "a file of the target game: its Unity version, formats and type trees are the bundle's")
	out := fs.String("o", "", "the bundle to write")
	folder := fs.String("folder", "assets", "the folder of the container paths (FOLDER/NAME.anim)")
	name := fs.String("name", "", "the bundle's name (default: the output's file name)")
	compression := fs.String("compression", "lzma", "how the bundle's data is stored: lzma, lz4hc or none")
	files, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if *like == "" || *out == "" {
		return usagef("give --like GAME_FILE and -o OUT")
	}
	var comp unitywrite.Compression
	switch strings.ToLower(*compression) {
	case "lzma":
		comp = unitywrite.StoreLZMA
	case "lz4hc", "lz4":
		comp = unitywrite.StoreLZ4HC
	case "none":
		comp = unitywrite.StoreNone
	default:
		return usagef("--compression %s: lzma, lz4hc or none", *compression)
	}
	bundleName := *name
	if bundleName == "" {
		bundleName = strings.TrimSuffix(filepath.Base(*out), filepath.Ext(*out))
	}
	target, err := assetbundle.TargetOf(*like)
	if err != nil {
		return err
	}
	set, _, err := openSet(e, "pack", files, &rf)
	if err != nil {
		return err
	}
	defer set.Close()

	var chosen []int
	if len(clips) == 0 {
		for i := range set.Clips() {
			chosen = append(chosen, i)
		}
	} else {
		for _, sel := range clips {
			i, err := set.Find(bind.KindClip, sel)
			if err != nil {
				return err
			}
			chosen = append(chosen, i)
		}
	}
	items := set.Clips()
	var list []assetbundle.Asset
	var inputs []*model.Clip
	for _, i := range chosen {
		c, err := set.Clip(i)
		if err != nil {
			e.fail(err)
			continue
		}
		if c.Legacy {
			if len(clips) > 0 {
				e.failf("clip %q (%s) is a legacy clip: Unity does not compile it into a muscle clip", c.Name, items[i].Ref)
			} else {
				e.notef("clip %q (%s) left out: a legacy clip", c.Name, items[i].Ref)
			}
			continue
		}
		f, err := muscleclip.Compile(c, muscleclip.Options{Version: target.LayoutVersion()})
		if err != nil {
			e.fail(fmt.Errorf("clip %q (%s): %w", c.Name, items[i].Ref, err))
			continue
		}
		if v := compiledSource(set, items[i].Source); v != nil && muscleclip.KeepDerived(f, v) {
			e.notef("clip %q: curves unchanged from %s: Unity's start, stop and delta values kept", c.Name, items[i].Ref)
		}
		list = append(list, assetbundle.Asset{Path: assetbundle.ContainerPath(*folder, c.Name, ".anim"),
			ClassID: model.ClassAnimationClip, Fields: f})
		inputs = append(inputs, c)
	}
	if len(list) == 0 {
		if e.failures == 0 {
			e.failf("no Mecanim clip in the inputs to pack")
		}
		return e.done()
	}
	b, err := assetbundle.Pack(target, list, assetbundle.Options{Name: bundleName, Compression: comp})
	if err != nil {
		return err
	}
	if err := checkPacked(b, inputs); err != nil {
		return fmt.Errorf("the packed bundle does not read back equal, nothing written: %w", err)
	}
	if err := atomicfile.Write(*out, func(w io.Writer) error { _, err := w.Write(b); return err }); err != nil {
		return err
	}
	for _, n := range target.Notes() {
		e.notef("%s", n)
	}
	trees := "type trees embedded"
	if target.Stripped() {
		trees = "no type trees (as the game)"
	}
	e.notef("%d clips packed in %s (bundle %q, Unity %s like %s, %s, %s, %d bytes); container paths: %s",
		len(list), *out, bundleName, target.Version(), *like, comp, trees, len(b), containerPaths(list))
	return e.done()
}

func containerPaths(list []assetbundle.Asset) string {
	var p []string
	for _, a := range list {
		p = append(p, a.Path)
	}
	return strings.Join(p, ", ")
}

// compiledSource returns the AnimationClip a clip was decoded from when it
// came from a Unity file of the set, else nil.
func compiledSource(set *bind.Set, src model.Source) *typetree.Value {
	cat := set.Catalog()
	if cat == nil || src.File == "" {
		return nil
	}
	for _, c := range cat.Containers {
		if c.Path != src.Container {
			continue
		}
		f, ok := c.File(src.File)
		if !ok {
			return nil
		}
		o, ok := f.Object(src.PathID)
		if !ok || o.ClassID != model.ClassAnimationClip {
			return nil
		}
		v, err := f.Decode(o)
		if err != nil {
			return nil
		}
		return v
	}
	return nil
}

// checkPacked reads a packed bundle back with the project's readers and
// compares each clip with its input: the same curves, sampling within float
// precision at the frames, at the keys and between them.
func checkPacked(b []byte, inputs []*model.Clip) error {
	c, err := assets.OpenReader(bytes.NewReader(b), int64(len(b)), "packed bundle", assets.Options{})
	if err != nil {
		return err
	}
	defer c.Close()
	got := map[string]*model.Clip{}
	for _, f := range c.Files {
		for i := range f.Objects {
			o := &f.Objects[i]
			v, err := f.Decode(o)
			if err != nil {
				return err
			}
			if o.ClassID != model.ClassAnimationClip {
				continue
			}
			cl, err := compiled.Clip(v, f.UnityVersion)
			if err != nil {
				return err
			}
			got[cl.Name] = cl
		}
	}
	for _, in := range inputs {
		g := got[in.Name]
		if g == nil {
			return fmt.Errorf("clip %q is missing", in.Name)
		}
		if err := sameSamples(in, g); err != nil {
			return fmt.Errorf("clip %q: %w", in.Name, err)
		}
	}
	return nil
}

// sameSamples compares two clips curve by curve (matched by target).
func sameSamples(in, got *model.Clip) error {
	type key struct {
		path, attr uint32
		comp       int
	}
	by := map[key]*model.Curve{}
	for i := range got.Curves {
		t := got.Curves[i].Target
		by[key{t.PathHash, t.Attribute, t.Component}] = &got.Curves[i]
	}
	rate := in.SampleRate
	if !(rate > 0) {
		rate = 60
	}
	for i := range in.Curves {
		s := &in.Curves[i]
		t := s.Target
		g := by[key{t.PathHash, t.Attribute, t.Component}]
		if g == nil {
			return fmt.Errorf("curve %d (%s) is missing", i, t.Property)
		}
		times := []float32{in.Start, in.Stop}
		frames := int((in.Stop-in.Start)*rate) + 1
		for f := 0; f <= frames; f++ {
			times = append(times, min(in.Stop, in.Start+float32(f)/rate))
		}
		if g.Kind != model.CurveDense {
			for k, key := range s.Keys {
				times = append(times, key.Time)
				if k+1 < len(s.Keys) {
					times = append(times, (key.Time+s.Keys[k+1].Time)/2)
				}
			}
		}
		for _, tm := range times {
			if tm < in.Start || tm > in.Stop {
				continue
			}
			a, b := s.Eval(tm), g.Eval(tm)
			if d := math.Abs(float64(a - b)); d > 1e-4*math.Max(1, math.Abs(float64(a))) {
				return fmt.Errorf("curve %d (%s) at %g s is %g, the input %g", i, t.Property, tm, b, a)
			}
		}
	}
	return nil
}
