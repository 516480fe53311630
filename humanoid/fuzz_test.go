package humanoid

import (
	"encoding/binary"
	"errors"
	"flag"
	"testing"

	"github.com/mecanim/mecanim/decode/compiled"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/internal/fuzzcount"
	"github.com/mecanim/mecanim/internal/synth"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/typetree"
	"github.com/mecanim/mecanim/unity/unitywrite"
)

var genSeeds = flag.Bool("gen-seeds", false, "write the committed fuzz seeds (testdata/fuzz) from internal/synth")

// encodeAvatar encodes a model avatar with the built-in Avatar layout of
// synth.UnityVersion (the layout FuzzNewRig decodes by).
func encodeAvatar(tb testing.TB, a *model.Avatar) []byte {
	tb.Helper()
	t, err := synth.Tree(model.ClassAvatar)
	if err != nil {
		tb.Fatal(err)
	}
	b, err := unitywrite.Encode(t, synth.AvatarFields(a))
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// TestGenerateFuzzSeeds writes FuzzNewRig's committed seed with
// -gen-seeds, and checks that it makes a rig.
func TestGenerateFuzzSeeds(t *testing.T) {
	b := encodeAvatar(t, synth.HumanAvatar())
	if *genSeeds {
		if err := synth.WriteSeeds(".", "FuzzNewRig", map[string][]byte{"synth-human": b}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := rigFromBytes(avatarLayout(t), b); err != nil {
		t.Fatal(err)
	}
}

func avatarLayout(tb testing.TB) *typetree.Layout {
	tb.Helper()
	t, err := synth.Tree(model.ClassAvatar)
	if err != nil {
		tb.Fatal(err)
	}
	l, err := typetree.Compile(t)
	if err != nil {
		tb.Fatal(err)
	}
	return l
}

var errNoAvatar = errors.New("not an avatar")

// rigFromBytes decodes an avatar with the layout and prepares its rig.
func rigFromBytes(l *typetree.Layout, data []byte) (*Rig, error) {
	v, err := l.Decode(data, binary.LittleEndian)
	var te *typetree.TrailingError
	if v == nil || (err != nil && !errors.As(err, &te)) || v.Kind() != typetree.KindStruct {
		return nil, errNoAvatar
	}
	a, err := compiled.Avatar(v, "")
	if err != nil {
		return nil, err
	}
	return NewRig(a)
}

// FuzzNewRig mutates encoded humanoid avatars, prepares a rig from what
// decodes, and poses it: NewRig must refuse what it cannot use with an
// error (never panic), and a rig it accepts must apply and extract poses
// (even from NaN limits or degenerate frames) without panicking.
func FuzzNewRig(f *testing.F) {
	f.Add(encodeAvatar(f, synth.HumanAvatar()))
	if _, ok := corpustest.Lookup(); ok {
		for _, a := range loadCorpus(f).avatars {
			if b := encodeAvatar(f, a); len(b) < 64<<10 {
				f.Add(b)
			}
		}
	}
	l := avatarLayout(f)
	count := fuzzcount.Counter("FuzzNewRig")
	f.Fuzz(func(t *testing.T, data []byte) {
		count()
		r, err := rigFromBytes(l, data)
		if err != nil {
			return
		}
		r.Check()
		local := make([]geom.Transform, r.Skeleton().Len())
		var p, back Pose
		p.RootQ = geom.Identity.R
		for i := range p.Muscles {
			if len(data) > 0 {
				p.Muscles[i] = float32(int8(data[i%len(data)])) / 64
			}
		}
		r.Apply(&p, local)
		r.Extract(local, &back)
	})
}
