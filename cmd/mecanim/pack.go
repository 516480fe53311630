package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"

	"github.com/mecanim/mecanim/bind"
	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/decode/compiled"
	"github.com/mecanim/mecanim/encode/assetbundle"
	"github.com/mecanim/mecanim/encode/avatarasset"
	"github.com/mecanim/mecanim/encode/muscleclip"
	"github.com/mecanim/mecanim/internal/atomicfile"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/assets"
	"github.com/mecanim/mecanim/unity/typetree"
	"github.com/mecanim/mecanim/unity/unitywrite"
)

const packSynopsis = "FILE... --like GAME_FILE -o OUT [--clip NAME]... [--controller NAME] [--avatar NAME] [--folder assets/PATH] [--name BUNDLE] [--compression lzma|lz4hc|none]"

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
trees gets a bundle without them. --controller adds an AnimatorController
of a built Unity file with its clips (at FOLDER/NAME.controller, preloading
them), its references to them pointing at the packed clips. --avatar adds
an Avatar of the inputs (a glTF/VRM character's, built from its humanoid
description, or a built file's) at FOLDER/NAME.asset.

The bundle is read back through the project's own readers before it is
written: each clip must sample as its input (at its keys and between), or
nothing is written; nothing is written either when a clip asked for cannot
be compiled.`

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
	controller := fs.String("controller", "", "an AnimatorController of a built Unity file to pack with its clips: name or FILE#PATHID")
	avatarSel := fs.String("avatar", "", "an Avatar of the inputs to pack (a glTF/VRM character's built avatar, or a built file's): name or FILE#PATHID")
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
	set, _, err := openSet(context.Background(), e, "pack", files, &rf)
	if err != nil {
		return err
	}
	defer set.Close()

	var ctl *packedController
	if *controller != "" {
		if ctl, err = controllerToPack(set, *controller); err != nil {
			return err
		}
	}
	var av *model.Avatar
	if *avatarSel != "" {
		i, err := set.FindAvatar(*avatarSel)
		if err != nil {
			return err
		}
		if av, err = set.Avatar(i); err != nil {
			return err
		}
	}
	var chosen []bound.ClipID
	if ctl != nil {
		chosen = append(chosen, ctl.clips...)
	}
	if len(clips) == 0 && ctl == nil && av == nil {
		for i := range set.Clips() {
			chosen = append(chosen, bound.ClipID(i))
		}
	} else {
		for _, sel := range clips {
			i, err := set.FindClip(sel)
			if err != nil {
				return err
			}
			chosen = append(chosen, i)
		}
	}
	items := set.Clips()
	var list []assetbundle.Asset
	var inputs []*model.Clip
	packedAt := map[bound.ClipID]int{} // clip of the set -> asset index
	for _, i := range chosen {
		if _, dup := packedAt[i]; dup {
			continue
		}
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
		if n := dropObjectRefs(&c); n > 0 {
			e.notef("clip %q (%s): %d object references (event parameters, object curves) name objects outside the bundle: written as null", c.Name, items[i].Ref, n)
		}
		f, err := muscleclip.Compile(c, muscleclip.Options{Version: target.LayoutVersion()})
		if err != nil {
			e.fail(fmt.Errorf("clip %q (%s): %w", c.Name, items[i].Ref, err))
			continue
		}
		if v := compiledSource(set, items[i].Source); v != nil && muscleclip.KeepDerived(f, v) {
			e.notef("clip %q: curves unchanged from %s: Unity's start, stop and delta values kept", c.Name, items[i].Ref)
		}
		packedAt[i] = len(list)
		list = append(list, assetbundle.Asset{Path: assetbundle.ContainerPath(*folder, c.Name, ".anim"),
			ClassID: model.ClassAnimationClip, Fields: f})
		inputs = append(inputs, c)
	}
	if ctl != nil && e.failures == 0 {
		a, err := ctl.asset(*folder, list, packedAt)
		if err != nil {
			return err
		}
		list = append(list, a)
	}
	if av != nil {
		f, err := avatarasset.Compile(av)
		if err != nil {
			return err
		}
		list = append(list, assetbundle.Asset{Path: assetbundle.ContainerPath(*folder, av.Name, ".asset"), ClassID: model.ClassAvatar, Fields: f})
	}
	if e.failures > 0 {
		// A bundle without some of what was asked for is not written: a
		// mod shipped with a clip missing fails in the game, not here.
		e.notef("nothing written to %s", *out)
		return e.done()
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
	if err := checkPacked(b, inputs, ctl, av); err != nil {
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
	e.notef("%d objects packed in %s (bundle %q, Unity %s like %s, %s, %s, %d bytes); container paths: %s",
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
	v, _ := sourceObject(set, src, model.ClassAnimationClip)
	return v
}

// sourceObject decodes the object of a class an item of the set was read
// from, when it came from a built Unity file.
func sourceObject(set *bind.Set, src model.Source, classID int32) (*typetree.Value, error) {
	cat := set.Catalog()
	if cat == nil || src.File == "" {
		return nil, fmt.Errorf("%s is not in a built Unity file", src)
	}
	for _, c := range cat.Containers {
		if c.Path != src.Container {
			continue
		}
		f, ok := c.File(src.File)
		if !ok {
			break
		}
		o, ok := f.Object(src.PathID)
		if !ok || o.ClassID != classID {
			break
		}
		return f.Decode(o)
	}
	return nil, fmt.Errorf("%s: no %s object there", src, assets.ClassName(classID))
}

// checkPacked reads a packed bundle back with the project's readers and
// compares each clip with its input: the same curves, sampling within float
// precision at the frames, at the keys and between them.
func checkPacked(b []byte, inputs []*model.Clip, ctl *packedController, av *model.Avatar) error {
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
			if o.ClassID == model.ClassAvatar && av != nil {
				got, err := compiled.Avatar(v, f.UnityVersion)
				if err != nil {
					return fmt.Errorf("avatar %q: %w", av.Name, err)
				}
				if len(got.Skeleton.Nodes) != len(av.Skeleton.Nodes) || got.IsHuman() != av.IsHuman() ||
					(av.IsHuman() && fmt.Sprint(got.Human.BoneIndex) != fmt.Sprint(av.Human.BoneIndex)) {
					return fmt.Errorf("avatar %q does not read back as written", av.Name)
				}
				continue
			}
			if o.ClassID == model.ClassAnimatorController && ctl != nil {
				got, err := compiled.Controller(v, f.UnityVersion)
				if err != nil {
					return fmt.Errorf("controller %q: %w", ctl.name, err)
				}
				if len(got.Layers) != len(ctl.model.Layers) || len(got.Parameters) != len(ctl.model.Parameters) {
					return fmt.Errorf("controller %q: %d layers and %d parameters, the input %d and %d", ctl.name,
						len(got.Layers), len(got.Parameters), len(ctl.model.Layers), len(ctl.model.Parameters))
				}
				continue
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
				why := ""
				for _, k := range s.Keys {
					if k.WeightedMode != 0 {
						why = " (the curve has weighted tangents, which Unity's compiled form does not hold: unweight them in the editor or sample the clip)"
						break
					}
				}
				return fmt.Errorf("curve %d (%s) at %g s is %g, the input %g%s", i, t.Property, tm, b, a, why)
			}
		}
	}
	return nil
}

// dropObjectRefs replaces a clip with a copy whose object references
// (event parameters, object curve keys) are null, and counts them: they
// point into the clip's own file, which the packed bundle does not hold.
func dropObjectRefs(c **model.Clip) int {
	n := 0
	for _, ev := range (*c).Events {
		if !ev.Object.IsNull() {
			n++
		}
	}
	for _, oc := range (*c).ObjectCurves {
		for _, k := range oc.Keys {
			if !k.Object.IsNull() {
				n++
			}
		}
	}
	if n == 0 {
		return 0
	}
	cp := **c
	cp.Events = append([]model.Event(nil), cp.Events...)
	for i := range cp.Events {
		cp.Events[i].Object = model.Ref{}
	}
	cp.ObjectCurves = make([]model.ObjectCurve, len((*c).ObjectCurves))
	for i, oc := range (*c).ObjectCurves {
		cp.ObjectCurves[i] = model.ObjectCurve{Target: oc.Target, Keys: make([]model.ObjectKey, len(oc.Keys))}
		for j, k := range oc.Keys {
			cp.ObjectCurves[i].Keys[j] = model.ObjectKey{Time: k.Time}
		}
	}
	*c = &cp
	return n
}

// packedController is an AnimatorController of a built file to pack, with
// the set's indexes of the clips it plays.
type packedController struct {
	name   string
	src    model.Source
	value  *typetree.Value
	model  *model.Controller
	clips  []bound.ClipID // the set's clip of each m_AnimationClips entry
	pathID []int64        // the source path id of each
}

// controllerToPack finds the controller sel names and the clips it plays
// (m_AnimationClips, in its own serialized file).
func controllerToPack(set *bind.Set, sel string) (*packedController, error) {
	i, err := set.FindController(sel)
	if err != nil {
		return nil, err
	}
	it := set.Controllers()[i]
	v, err := sourceObject(set, it.Source, model.ClassAnimatorController)
	if err != nil {
		return nil, fmt.Errorf("controller %q: only a controller of a built Unity file is packed: %w", it.Name, err)
	}
	m, err := compiled.Controller(v, "")
	if err != nil {
		return nil, fmt.Errorf("controller %q (%s): %w", it.Name, it.Ref, err)
	}
	pc := &packedController{name: it.Name, src: it.Source, value: v, model: m}
	bySource := map[model.Source]bound.ClipID{}
	for ci, c := range set.Clips() {
		bySource[c.Source] = bound.ClipID(ci)
	}
	for k, e := range v.Field("m_AnimationClips").Elems() {
		fileID, pathID, _ := e.PPtr()
		if fileID != 0 {
			return nil, fmt.Errorf("controller %q (%s): m_AnimationClips[%d] is in another file (file id %d): only clips of its own file are packed", it.Name, it.Ref, k, fileID)
		}
		ci, ok := bySource[model.Source{Container: it.Source.Container, File: it.Source.File, PathID: pathID}]
		if !ok {
			return nil, fmt.Errorf("controller %q (%s): m_AnimationClips[%d] (path id %d of its file) is not a clip of the inputs", it.Name, it.Ref, k, pathID)
		}
		pc.clips = append(pc.clips, ci)
		pc.pathID = append(pc.pathID, pathID)
	}
	return pc, nil
}

// asset is the controller as packed: its clip references pointing at the
// packed clips, which it preloads.
func (pc *packedController) asset(folder string, list []assetbundle.Asset, packedAt map[bound.ClipID]int) (assetbundle.Asset, error) {
	f, ok := muscleclip.FieldsOf(pc.value).(unitywrite.Fields)
	if !ok {
		return assetbundle.Asset{}, fmt.Errorf("controller %q: not a struct", pc.name)
	}
	ids := map[int64]int64{}
	var preload []int64
	for k, ci := range pc.clips {
		ai, ok := packedAt[ci]
		if !ok {
			return assetbundle.Asset{}, fmt.Errorf("controller %q: its clip %d was not packed", pc.name, k)
		}
		id := list[ai].PathID
		if id == 0 {
			id = assetbundle.PathIDFor(list[ai].Path)
			list[ai].PathID = id
		}
		ids[pc.pathID[k]] = id
		preload = append(preload, id)
	}
	clipsField, _ := f["m_AnimationClips"].([]any)
	for k, c := range clipsField {
		pf, _ := c.(unitywrite.Fields)
		if pf == nil {
			continue
		}
		old, _ := pf["m_PathID"].(int64)
		clipsField[k] = unitywrite.Fields{"m_FileID": 0, "m_PathID": ids[old]}
	}
	if b, _ := f["m_StateMachineBehaviours"].([]any); len(b) > 0 {
		return assetbundle.Asset{}, fmt.Errorf("controller %q: its %d state machine behaviours (scripts) are not packed", pc.name, len(b))
	}
	return assetbundle.Asset{Path: assetbundle.ContainerPath(folder, pc.name, ".controller"), ClassID: model.ClassAnimatorController,
		Fields: f, Preload: preload}, nil
}
