package humanoid

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math"
	"testing"

	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/internal/fuzzcount"
	"github.com/mecanim/mecanim/internal/synth"
)

// synthBones bakes the synthetic humanoid clip on the synthetic avatar.
func synthBones(t testing.TB) (*Bones, *Rig) {
	t.Helper()
	r, err := NewRig(synth.HumanAvatar())
	if err != nil {
		t.Fatal(err)
	}
	b, err := BakeBones(synthHumanClip(2), r)
	if err != nil {
		t.Fatal(err)
	}
	return b, r
}

// sameBones fails unless a and b sample bit-identically (poses and root
// motion) at n times over and past the clip.
func sameBones(t testing.TB, a, b *Bones, n int) {
	t.Helper()
	pa := make([]geom.Transform, a.Rig().Len())
	pb := make([]geom.Transform, b.Rig().Len())
	d := a.Duration()
	if b.Duration() != d || b.Name() != a.Name() || b.Stats() != a.Stats() {
		t.Fatalf("loaded %q %v %+v, saved %q %v %+v", b.Name(), b.Duration(), b.Stats(), a.Name(), d, a.Stats())
	}
	for i := 0; i <= n; i++ {
		tm := -0.1*d + 1.2*d*float32(i)/float32(n)
		a.Sample(tm, pa)
		b.Sample(tm, pb)
		for j := range pa {
			if pa[j] != pb[j] || a.Animates(j) != b.Animates(j) {
				t.Fatalf("t=%v joint %d: loaded %+v, saved %+v", tm, j, pb[j], pa[j])
			}
		}
		if ma, mb := a.ExtractRootMotion(0, tm, 1), b.ExtractRootMotion(0, tm, 1); ma != mb {
			t.Fatalf("t=%v root motion: loaded %+v, saved %+v", tm, mb, ma)
		}
	}
}

// Saved bones load back for their rig and sample bit-identically, and
// save again to the same bytes.
func TestSavedBonesSampleAsTheBaked(t *testing.T) {
	b, r := synthBones(t)
	data, err := b.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	back, err := UnmarshalBones(data, r)
	if err != nil {
		t.Fatal(err)
	}
	sameBones(t, b, back, 500)
	again, err := back.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(data, again) {
		t.Errorf("saved again: %d bytes differ from the %d saved", len(again), len(data))
	}
	t.Logf("%d bytes saved, %d kept", len(data), b.Stats().Bytes)
}

// The corpus clips save and load back bit-identically on
// FinalBeta2Avatar.
func TestCorpusSavedBonesSampleAsTheBaked(t *testing.T) {
	set := loadCorpus(t)
	for _, r := range corpusRigs(t) {
		if r.name != "FinalBeta2Avatar" {
			continue
		}
		for _, mc := range set.clips {
			if mc.Name == "BayonettaTest" && testing.Short() {
				continue
			}
			b, err := BakeBones(mc, r)
			if err != nil {
				t.Fatal(err)
			}
			data, err := b.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			back, err := UnmarshalBones(data, r)
			if err != nil {
				t.Fatalf("%s: %v", mc.Name, err)
			}
			sameBones(t, b, back, 300)
		}
	}
}

// fixChecksum rewrites the checksum of saved bones after their bytes
// were changed.
func fixChecksum(data []byte) {
	if len(data) >= 4 {
		binary.LittleEndian.PutUint32(data[len(data)-4:], crc32.ChecksumIEEE(data[:len(data)-4]))
	}
}

// Damaged saved bones are refused with the error saying what: a
// *FormatError for truncated, altered or padded bytes (checksum right or
// not), an *UnsupportedError for another version, ErrOtherRig for bones
// of another rig.
func TestSavedBonesRefuseDamage(t *testing.T) {
	b, r := synthBones(t)
	data, err := b.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; n < len(data); n += 1 + n/4 {
		_, err := UnmarshalBones(data[:n], r)
		var fe *FormatError
		if !errors.As(err, &fe) || !errors.Is(err, ErrBadBones) {
			t.Fatalf("%d of %d bytes: %v, want a FormatError", n, len(data), err)
		}
	}
	flip := bytes.Clone(data)
	flip[len(flip)/2] ^= 1
	if _, err := UnmarshalBones(flip, r); !errors.Is(err, ErrBadBones) {
		t.Errorf("a bit flipped: %v", err)
	}
	padded := append(bytes.Clone(data[:len(data)-4]), 0, 0, 0, 0, 0)
	fixChecksum(padded)
	if _, err := UnmarshalBones(padded, r); !errors.Is(err, ErrBadBones) {
		t.Errorf("a byte added: %v", err)
	}
	// A count past the end, checksum made right: the name's length.
	bad := bytes.Clone(data)
	binary.LittleEndian.PutUint32(bad[20:], 1<<30)
	fixChecksum(bad)
	var fe *FormatError
	if _, err := UnmarshalBones(bad, r); !errors.As(err, &fe) || fe.Offset != 20 {
		t.Errorf("a name longer than the bytes: %v", err)
	}
	ver := bytes.Clone(data)
	binary.LittleEndian.PutUint16(ver[4:], BonesVersion+1)
	var ue *UnsupportedError
	if _, err := UnmarshalBones(ver, r); !errors.As(err, &ue) || ue.Version != BonesVersion+1 {
		t.Errorf("version %d: %v", BonesVersion+1, err)
	}
	oa := synth.HumanAvatar()
	oa.Human.Scale *= 1.5
	other, err := NewRig(oa)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := UnmarshalBones(data, other); !errors.Is(err, ErrOtherRig) {
		t.Errorf("another rig: %v", err)
	}
}

// FuzzUnmarshalBones loads mutated saved bones (the synthetic clip's, and
// the corpus clips' on FinalBeta2Avatar), with the checksum made right:
// an error, or bones that sample and move the root without panicking,
// save again, and load back sampling the same.
func FuzzUnmarshalBones(f *testing.F) {
	b, sr := synthBones(f)
	data, err := b.MarshalBinary()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	rigs := []*Rig{sr}
	if _, ok := corpustest.Lookup(); ok {
		for _, r := range corpusRigs(f) {
			if r.name != "FinalBeta2Avatar" {
				continue
			}
			rigs = append(rigs, r)
			for _, mc := range loadCorpus(f).clips {
				b, err := BakeBones(mc, r)
				if err != nil {
					f.Fatal(err)
				}
				if data, err := b.MarshalBinary(); err == nil && len(data) < 64<<10 {
					f.Add(data)
				}
			}
		}
	}
	count := fuzzcount.Counter("FuzzUnmarshalBones")
	f.Fuzz(func(t *testing.T, data []byte) {
		count()
		data = bytes.Clone(data)
		fixChecksum(data)
		for _, r := range rigs {
			b, err := UnmarshalBones(data, r)
			if err != nil {
				continue
			}
			pose := make([]geom.Transform, r.Len())
			d := b.Duration()
			for _, tm := range []float32{-1, 0, d / 3, d, 2 * d, float32(math.NaN()), float32(math.Inf(1))} {
				b.Sample(tm, pose)
				_ = b.ExtractRootMotion(0, tm, 2)
			}
			again, err := b.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			back, err := UnmarshalBones(again, r)
			if err != nil {
				t.Fatalf("saved again, refused: %v", err)
			}
			sameBones(t, b, back, 20)
		}
	})
}
