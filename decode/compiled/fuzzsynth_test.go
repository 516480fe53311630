package compiled

import (
	"bytes"
	"encoding/binary"
	"errors"
	"flag"
	"testing"

	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/internal/fuzzcount"
	"github.com/mecanim/mecanim/internal/synth"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/assets"
	"github.com/mecanim/mecanim/unity/serialized"
	"github.com/mecanim/mecanim/unity/typetree"
	"github.com/mecanim/mecanim/unity/unitywrite"
)

var genSeeds = flag.Bool("gen-seeds", false, "write the committed fuzz seeds (testdata/fuzz) from internal/synth")

// builtinLayout is the built-in layout of a class for synth.UnityVersion,
// which the synthetic objects (and the committed seeds) are encoded by.
func builtinLayout(tb testing.TB, classID int32) *typetree.Layout {
	tb.Helper()
	t, err := synth.Tree(classID)
	if err != nil {
		tb.Fatal(err)
	}
	l, err := typetree.Compile(t)
	if err != nil {
		tb.Fatal(err)
	}
	return l
}

// synthSeeds are the synthetic inputs of each new fuzz target, by name.
func synthSeeds(tb testing.TB) map[string]map[string][]byte {
	tb.Helper()
	obj := func(pid int64) []byte {
		b, err := synth.Object(pid)
		if err != nil {
			tb.Fatal(err)
		}
		return b
	}
	file := func(bones int, full bool) []byte {
		b, err := synth.SerializedFile(bones, full, true)
		if err != nil {
			tb.Fatal(err)
		}
		return b
	}
	generic := synth.HumanAvatar()
	generic.Human, generic.HumanSkeletonIndex = nil, nil
	// Three nodes (root, hips, left upper leg) keep the seed small.
	generic.Skeleton.Nodes, generic.Skeleton.Axes = generic.Skeleton.Nodes[:3], generic.Skeleton.Axes[:2]
	generic.SkeletonPose, generic.DefaultPose = generic.SkeletonPose[:3], generic.DefaultPose[:3]
	names := model.Names{}
	for _, n := range generic.Skeleton.Nodes {
		names[n.PathHash] = generic.Names[n.PathHash]
	}
	generic.Names = names
	gb, err := encodeAvatar(generic)
	if err != nil {
		tb.Fatal(err)
	}
	return map[string]map[string][]byte{
		"FuzzAvatar":     {"synth-human": obj(synth.AvatarID), "synth-generic": gb},
		"FuzzController": {"synth-blend1d": obj(synth.ControllerID)},
		"FuzzClip":       {"synth-dense-constant": obj(synth.ClipID)},
		"FuzzRigs":       {"synth-3-bones": file(3, false), "synth-20-bones": file(0, false)},
	}
}

// encodeAvatar encodes a model avatar with the built-in Avatar layout.
func encodeAvatar(a *model.Avatar) ([]byte, error) {
	t, err := synth.Tree(model.ClassAvatar)
	if err != nil {
		return nil, err
	}
	return unitywrite.Encode(t, synth.AvatarFields(a))
}

// TestGenerateFuzzSeeds writes the committed seeds when run with
// -gen-seeds; otherwise it checks that every seed still decodes (so the
// committed files start the fuzzer inside the converters).
func TestGenerateFuzzSeeds(t *testing.T) {
	seeds := synthSeeds(t)
	if *genSeeds {
		for target, s := range seeds {
			if err := synth.WriteSeeds(".", target, s); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, tc := range []struct {
		target  string
		class   int32
		convert func(v *typetree.Value) error
	}{
		{"FuzzAvatar", model.ClassAvatar, func(v *typetree.Value) error { _, err := Avatar(v, ""); return err }},
		{"FuzzController", model.ClassAnimatorController, func(v *typetree.Value) error { _, err := Controller(v, ""); return err }},
		{"FuzzClip", model.ClassAnimationClip, func(v *typetree.Value) error { _, err := Clip(v, ""); return err }},
	} {
		for name, b := range seeds[tc.target] {
			v, err := builtinLayout(t, tc.class).Decode(b, binary.LittleEndian)
			if err != nil {
				t.Fatalf("%s/%s: %v", tc.target, name, err)
			}
			if err := tc.convert(v); err != nil {
				t.Fatalf("%s/%s: %v", tc.target, name, err)
			}
		}
	}
	for name, b := range seeds["FuzzRigs"] {
		ct, err := assets.OpenReader(bytes.NewReader(b), int64(len(b)), name, assets.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if rigs, err := RigsWith(ct.Files[0].File, ct.Files[0].Decode); err != nil || len(rigs) != 1 {
			t.Fatalf("FuzzRigs/%s: %d rigs, %v", name, len(rigs), err)
		}
	}
}

// decodeBuiltin decodes data with the built-in layout and returns the value
// when it is a struct (a trailing-bytes error keeps the value).
func decodeBuiltin(l *typetree.Layout, data []byte) *typetree.Value {
	v, err := l.Decode(data, binary.LittleEndian)
	var te *typetree.TrailingError
	if v == nil || (err != nil && !errors.As(err, &te)) || v.Kind() != typetree.KindStruct {
		return nil
	}
	return v
}

// FuzzAvatar decodes arbitrary bytes with the built-in Avatar layout and
// converts them: no panic, and what converts has indexes in range.
func FuzzAvatar(f *testing.F) {
	for _, b := range synthSeeds(f)["FuzzAvatar"] {
		f.Add(b)
	}
	if _, ok := corpustest.Lookup(); ok {
		// The corpus avatars, re-encoded in the built-in layout.
		for _, o := range smallCorpusObjects(f, model.ClassAvatar) {
			if a, err := Avatar(o.V, ""); err == nil {
				if b, err := encodeAvatar(a); err == nil && len(b) < 64<<10 {
					f.Add(b)
				}
			}
		}
	}
	l := builtinLayout(f, model.ClassAvatar)
	count := fuzzcount.Counter("FuzzAvatar")
	f.Fuzz(func(t *testing.T, data []byte) {
		count()
		v := decodeBuiltin(l, data)
		if v == nil {
			return
		}
		a, err := Avatar(v, "")
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v is not an *Error", err)
			}
			return
		}
		n := len(a.Skeleton.Nodes)
		for i, nd := range a.Skeleton.Nodes {
			if nd.Parent >= i || nd.Axes >= len(a.Skeleton.Axes) {
				t.Fatalf("node %d: parent %d axes %d", i, nd.Parent, nd.Axes)
			}
		}
		for _, x := range a.HumanSkeletonIndex {
			if x >= n {
				t.Fatalf("human skeleton index %d of %d nodes", x, n)
			}
		}
	})
}

// FuzzController decodes arbitrary bytes with the built-in
// AnimatorController layout and converts them: no panic, destinations and
// blend-tree children in range.
func FuzzController(f *testing.F) {
	for _, b := range synthSeeds(f)["FuzzController"] {
		f.Add(b)
	}
	l := builtinLayout(f, model.ClassAnimatorController)
	count := fuzzcount.Counter("FuzzController")
	f.Fuzz(func(t *testing.T, data []byte) {
		count()
		v := decodeBuiltin(l, data)
		if v == nil {
			return
		}
		c, err := Controller(v, "")
		if err != nil {
			return
		}
		for _, sm := range c.StateMachines {
			for _, st := range sm.States {
				for _, bt := range st.Motions {
					for _, n := range bt.Nodes {
						for _, ch := range n.Children {
							if ch < 0 || ch >= len(bt.Nodes) {
								t.Fatalf("child %d of %d nodes", ch, len(bt.Nodes))
							}
						}
						if n.Clip != model.NoClip && (n.Clip < 0 || n.Clip >= len(c.Clips)) {
							t.Fatalf("clip %d of %d", n.Clip, len(c.Clips))
						}
					}
				}
			}
		}
	})
}

// FuzzClip decodes arbitrary bytes with the built-in AnimationClip layout,
// converts them and evaluates every curve.
func FuzzClip(f *testing.F) {
	for _, b := range synthSeeds(f)["FuzzClip"] {
		f.Add(b)
	}
	l := builtinLayout(f, model.ClassAnimationClip)
	count := fuzzcount.Counter("FuzzClip")
	f.Fuzz(func(t *testing.T, data []byte) {
		count()
		v := decodeBuiltin(l, data)
		if v == nil {
			return
		}
		c, err := Clip(v, "")
		if err != nil {
			return
		}
		for i := range c.Curves {
			for _, tm := range []float32{-1, 0, c.Start, c.Stop, 0.5, 1e9} {
				c.Curves[i].Eval(tm)
			}
		}
	})
}

// FuzzRigs opens arbitrary bytes as a Unity file and builds the rigs of
// every serialized file in it: no panic, no loop, parents before children.
func FuzzRigs(f *testing.F) {
	for _, b := range synthSeeds(f)["FuzzRigs"] {
		f.Add(b)
	}
	count := fuzzcount.Counter("FuzzRigs")
	f.Fuzz(func(t *testing.T, data []byte) {
		count()
		ct, err := assets.OpenReader(bytes.NewReader(data), int64(len(data)), "fuzz", assets.Options{})
		if err != nil {
			return
		}
		for _, af := range ct.Files {
			rigs, _ := RigsWith(af.File, func(o *serialized.Object) (*typetree.Value, error) {
				v, err := af.Decode(o)
				var te *typetree.TrailingError
				if err != nil && v != nil && errors.As(err, &te) {
					return v, nil
				}
				return v, err
			})
			for _, r := range rigs {
				for i, n := range r.Nodes {
					if n.Parent >= i {
						t.Fatalf("rig %q node %d has parent %d", r.Name, i, n.Parent)
					}
				}
			}
		}
	})
}
