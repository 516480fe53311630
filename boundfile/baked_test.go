package boundfile

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
)

// twoTails is one generic clip bound to two characters of the same paths
// whose tails rest at other places, and to the first twice (one baked clip
// saved for both).
func twoTails(t *testing.T) Assets {
	t.Helper()
	rig := func(name string, z float32) *model.Rig {
		return &model.Rig{Name: name, Nodes: []model.RigNode{
			{Name: name, Parent: -1, Local: geom.Identity},
			{Name: "Tail", Path: "Tail", Parent: 0, Local: geom.Transform{T: geom.V3(0, 0, z), R: geom.IdentityQuat, S: geom.V3(1, 1, 1)}},
		}}
	}
	wag := &model.Clip{Name: "Wag", SampleRate: 30, Stop: 1, Curves: []model.Curve{
		{Target: model.Target{Path: "Tail", PathHash: model.PathHash("Tail"), PathKnown: true, ClassID: model.ClassTransform,
			Attribute: uint32(model.PropPosition), Transform: model.PropPosition, Component: 0},
			Kind: model.CurveDense, DenseRate: 30, Samples: []float32{0, 0.1, 0.2}}}}
	var a Assets
	for i, z := range []float32{1, 2} {
		c, err := bound.NewCharacter(bound.CharacterInput{Name: "Dog", Rig: rig("Dog", z)})
		if err != nil {
			t.Fatal(err)
		}
		m, err := bound.Bind(wag, model.Source{Container: "code"}, c)
		if err != nil {
			t.Fatal(err)
		}
		a.Characters = append(a.Characters, c)
		a.Motions = append(a.Motions, m)
		if i == 0 {
			a.Motions = append(a.Motions, m)
		}
	}
	return a
}

// reassemble encodes a decoded file again, its baked clips as they were.
func reassemble(t *testing.T, d *decoded) []byte {
	t.Helper()
	b, err := assemble(d.payload, d.baked, d.bones)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestGenericClipsAreSavedBakedOncePerCharacter(t *testing.T) {
	b, err := Marshal(twoTails(t))
	if err != nil {
		t.Fatal(err)
	}
	d, err := decodePayload(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Baked) != 2 || d.Motions[0].Baked != d.Motions[1].Baked || d.Motions[2].Baked == d.Motions[0].Baked {
		t.Fatalf("baked clips %+v for motions %+v", d.Baked, d.Motions)
	}
	if !bytes.Equal(reassemble(t, d), b) {
		t.Fatal("a decoded file assembles to other bytes")
	}
}

// TestABakedClipOnAnotherSkeletonIsAFormatError: a baked clip given to a
// character whose skeleton is not the one it was baked on (another
// character, or its character's rest pose changed) is refused, naming the
// clip and its offset; so is a baked clip named for another clip or
// character than the motion that plays it.
func TestABakedClipOnAnotherSkeletonIsAFormatError(t *testing.T) {
	b, err := Marshal(twoTails(t))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		damage func(d *decoded)
		want   string
	}{
		{"another character", func(d *decoded) { d.Baked[0].On = 1 }, "other skeleton"},
		{"its rest pose moved", func(d *decoded) {
			r := *d.Characters[0].Rig
			r.Nodes = append([]model.RigNode(nil), r.Nodes...)
			r.Nodes[1].Local.T.Z = 3
			d.Characters[0].Rig = &r
		}, "rest pose differ"},
		{"a motion on another character's clip", func(d *decoded) { d.Motions[0].Baked = 1 }, "not clip 0 on this one"},
		{"a baked clip out of range", func(d *decoded) { d.Motions[0].Baked = 7 }, "baked clip 7 of 2"},
	}
	for _, k := range cases {
		d, err := decodePayload(b)
		if err != nil {
			t.Fatal(err)
		}
		k.damage(d)
		_, err = Unmarshal(context.Background(), reassemble(t, d))
		var fe *FormatError
		if !errors.As(err, &fe) || !strings.Contains(err.Error(), k.want) {
			t.Errorf("%s: %v, want a FormatError saying %q", k.name, err, k.want)
		}
	}
}

func TestADamagedBakedClipIsAFormatErrorAtItsOffset(t *testing.T) {
	b, err := Marshal(twoTails(t))
	if err != nil {
		t.Fatal(err)
	}
	d, err := decodePayload(b)
	if err != nil {
		t.Fatal(err)
	}
	off := d.bakedOff[1]
	bad := bytes.Clone(b)
	bad[off] ^= 0xff // its magic
	fixChecksum(bad)
	_, err = Unmarshal(context.Background(), bad)
	var fe *FormatError
	if !errors.As(err, &fe) || fe.Offset != int64(off) || !strings.Contains(fe.Detail, "baked clip 1") {
		t.Fatalf("%v, want a FormatError at byte %d naming baked clip 1", err, off)
	}
}

func TestAVersion1FileIsUnsupported(t *testing.T) {
	b, err := Marshal(twoTails(t))
	if err != nil {
		t.Fatal(err)
	}
	binary.LittleEndian.PutUint32(b[len(Magic):], 1)
	fixChecksum(b)
	_, err = Unmarshal(context.Background(), b)
	var ue *UnsupportedError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "save it again") {
		t.Fatalf("%v, want an UnsupportedError", err)
	}
}

func fixChecksum(b []byte) {
	body := b[:len(b)-4]
	binary.LittleEndian.PutUint32(b[len(body):], crc32.ChecksumIEEE(body))
}
