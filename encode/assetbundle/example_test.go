package assetbundle_test

import (
	"bytes"
	"fmt"

	"github.com/mecanim/mecanim/encode/assetbundle"
	"github.com/mecanim/mecanim/encode/muscleclip"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/assets"
	"github.com/mecanim/mecanim/unity/unitywrite"
)

// A clip made in code, compiled as Unity's editor compiles it and packed
// for Unity 2022.3 (with a game's file, assetbundle.TargetOf(path) takes its
// version, formats and type trees instead).
func ExamplePack() {
	clip := &model.Clip{Name: "Nod", SampleRate: 30, Stop: 1}
	t := model.Target{Path: "Head", PathHash: model.PathHash("Head"), PathKnown: true, ClassID: model.ClassTransform,
		Attribute: uint32(model.PropRotation), Transform: model.PropRotation}
	for comp, mid := range []float32{0.3, 0, 0, 0.954} {
		t.Component = comp
		end := float32(0)
		if comp == 3 {
			end = 1
		}
		clip.Curves = append(clip.Curves, model.Curve{Target: t, Kind: model.CurveKeyframed,
			Keys: []model.Keyframe{{Time: 0, Value: end}, {Time: 0.5, Value: mid}, {Time: 1, Value: end}}})
	}
	target, err := assetbundle.TargetForVersion("2022.3.9f1", 5)
	if err != nil {
		panic(err)
	}
	fields, err := muscleclip.Compile(clip, muscleclip.Options{Version: target.LayoutVersion()})
	if err != nil {
		panic(err)
	}
	b, err := assetbundle.Pack(target, []assetbundle.Asset{{Path: "assets/emotes/nod.anim", ClassID: model.ClassAnimationClip, Fields: fields}},
		assetbundle.Options{Name: "emotes", Compression: unitywrite.StoreLZ4HC})
	if err != nil {
		panic(err)
	}
	c, err := assets.OpenReader(bytes.NewReader(b), int64(len(b)), "emotes", assets.Options{})
	if err != nil {
		panic(err)
	}
	defer c.Close()
	for _, o := range c.Files[0].Objects {
		name, err := c.Files[0].ObjectName(&o)
		if err != nil {
			panic(err)
		}
		fmt.Println(o.ClassID, name)
	}
	// Output:
	// 74 Nod
	// 142 emotes
}
