package catalog_test

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/decode/catalog"
	"github.com/mecanim/mecanim/internal/synth"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/assets"
	"github.com/mecanim/mecanim/unity/unitywrite"
)

// TestErrorsNameContainerFileAndObject damages one object of each kind in
// a synthetic file and proves the catalog's error says where: the
// container, the serialized file, the object's path id and class.
func TestErrorsNameContainerFileAndObject(t *testing.T) {
	for _, tc := range []struct {
		pid    int64
		decode func(*catalog.Catalog, catalog.Object) error
	}{
		{synth.ClipID, func(c *catalog.Catalog, o catalog.Object) error { _, err := c.Clip(o); return err }},
		{synth.AvatarID, func(c *catalog.Catalog, o catalog.Object) error { _, err := c.Avatar(o); return err }},
		{synth.ControllerID, func(c *catalog.Catalog, o catalog.Object) error { _, err := c.Controller(o); return err }},
	} {
		objs, err := synth.Objects(0, true)
		if err != nil {
			t.Fatal(err)
		}
		for i := range objs {
			if objs[i].PathID == tc.pid {
				objs[i].Data = objs[i].Data[:len(objs[i].Data)/2] // cut in half
			}
		}
		sf, err := unitywrite.SerializedFile(synth.UnityVersion, 5, objs, nil, true)
		if err != nil {
			t.Fatal(err)
		}
		b, err := unitywrite.Bundle(synth.UnityVersion, []unitywrite.Entry{{Path: "CAB-damaged", Data: sf, Flags: 4}}, 4096)
		if err != nil {
			t.Fatal(err)
		}
		ct, err := assets.OpenReader(bytes.NewReader(b), int64(len(b)), "mods/damaged.bundle", assets.Options{})
		if err != nil {
			t.Fatal(err)
		}
		cat := catalog.New(ct)
		o, ok := cat.Resolve(ct.Files[0], model.Ref{PathID: tc.pid})
		if !ok {
			t.Fatalf("object %d not found", tc.pid)
		}
		err = tc.decode(cat, o)
		if err == nil {
			t.Fatalf("object %d cut in half decoded without error", tc.pid)
		}
		t.Log(err)
		for _, want := range []string{"mods/damaged.bundle", "CAB-damaged", "object " + itoa(tc.pid), "class " + itoa(int64(o.ClassID()))} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("object %d: error %q does not name %q", tc.pid, err, want)
			}
		}
	}
}

func itoa(x int64) string { return strconv.FormatInt(x, 10) }

// TestControllerClipsDecodesEachClipOnce: a controller whose clip list
// names the same clip thousands of times (a cheap way to make a reader
// decode one big clip over and over) gets every slot filled by one decode.
func TestControllerClipsDecodesEachClipOnce(t *testing.T) {
	objs, err := synth.Objects(0, true)
	if err != nil {
		t.Fatal(err)
	}
	refs := make([]any, 5000)
	for i := range refs {
		refs[i] = unitywrite.Fields{"m_FileID": 0, "m_PathID": int64(synth.ClipID + i%2)}
	}
	f := synth.ControllerFields()
	f["m_AnimationClips"] = refs
	tree, err := synth.Tree(model.ClassAnimatorController)
	if err != nil {
		t.Fatal(err)
	}
	for i := range objs {
		if objs[i].PathID == synth.ControllerID {
			if objs[i].Data, err = unitywrite.Encode(tree, f); err != nil {
				t.Fatal(err)
			}
		}
	}
	sf, err := unitywrite.SerializedFile(synth.UnityVersion, 5, objs, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	ct, err := assets.OpenReader(bytes.NewReader(sf), int64(len(sf)), "many-slots", assets.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cat := catalog.New(ct)
	co, _ := cat.Resolve(ct.Files[0], model.Ref{PathID: synth.ControllerID})
	ctl, err := cat.Controller(co)
	if err != nil {
		t.Fatal(err)
	}
	clips, errs := cat.ControllerClips(co, ctl)
	if len(errs) != 0 || len(clips) != len(refs) {
		t.Fatalf("%d clips, errors %v", len(clips), errs)
	}
	for i, c := range clips {
		if c == nil || c != clips[i%2] {
			t.Fatalf("slot %d: clip %p, want the shared %p", i, c, clips[i%2])
		}
	}
	if clips[0] == clips[1] || clips[0].Name != "Idle" || clips[1].Name != "Walk" {
		t.Fatalf("clips %q %q", clips[0].Name, clips[1].Name)
	}
}

// A rig that does not decode is an *assets.Error naming its container and
// serialized file, so callers (extract's manifest) take the input from the
// error's fields, not from its text.
func TestRigErrorsAreTypedWithTheirContainer(t *testing.T) {
	objs, err := synth.Objects(0, true)
	if err != nil {
		t.Fatal(err)
	}
	for i := range objs {
		if objs[i].ClassID == model.ClassTransform {
			objs[i].Data = objs[i].Data[:len(objs[i].Data)/2] // every Transform cut in half
		}
	}
	sf, err := unitywrite.SerializedFile(synth.UnityVersion, 5, objs, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	ct, err := assets.OpenReader(bytes.NewReader(sf), int64(len(sf)), "mods/rig.assets", assets.Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, errs := catalog.New(ct).Rigs(t.Context())
	if len(errs) == 0 {
		t.Fatal("a rig of damaged Transforms decoded without error")
	}
	var ae *assets.Error
	if !errors.As(errs[0], &ae) || ae.Container != "mods/rig.assets" || ae.Entry == "" {
		t.Errorf("rig error %v (%T): want an *assets.Error naming mods/rig.assets and its file", errs[0], errs[0])
	}
}
